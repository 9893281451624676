package dev.lanehost.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much CPU other processes took, and how much the hypervisor stole, between two snapshots:
 * the machine is shared, and a measurement taken while another tenant compiled is worth flagging.
 *
 * <p>From Linux's {@code /proc/stat} (all CPUs) and {@code /proc/self/stat} (this process, every
 * thread, C pthreads included): other processes' busy time is the machine's busy time minus ours.
 * Both are in clock ticks (usually 10 ms), so a window of half a second resolves about 2% of a CPU.
 * On a system without {@code /proc} every figure is NaN.
 */
public record CpuShare(long machineBusyTicks, long machineStealTicks, long machineTotalTicks, long ownTicks) {
    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    /** Other processes above this share of one CPU during a measurement make it "disturbed". */
    public static final double DISTURBED_FROM_PERCENT = 10;

    /** The counters now. */
    public static CpuShare now() {
        try {
            // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long user = Long.parseLong(cpu[1]);
            long nice = Long.parseLong(cpu[2]);
            long system = Long.parseLong(cpu[3]);
            long idle = Long.parseLong(cpu[4]);
            long iowait = Long.parseLong(cpu[5]);
            long irq = Long.parseLong(cpu[6]);
            long softirq = Long.parseLong(cpu[7]);
            long steal = Long.parseLong(cpu[8]);
            // Our own line: fields after the command name, which is in parentheses and may hold spaces.
            String self = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = self.substring(self.lastIndexOf(')') + 2).trim().split("\\s+");
            long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
            long busy = user + nice + system + irq + softirq;
            return new CpuShare(busy, steal, busy + idle + iowait + steal, own);
        } catch (IOException | RuntimeException e) {
            return new CpuShare(-1, -1, -1, -1);
        }
    }

    /** Percent of one CPU that other processes used between {@code earlier} and this snapshot. */
    public double foreignPercentSince(CpuShare earlier) {
        if (machineTotalTicks < 0 || earlier.machineTotalTicks < 0) {
            return Double.NaN;
        }
        double wallTicks = (machineTotalTicks - earlier.machineTotalTicks) / (double) CPUS;
        if (wallTicks <= 0) {
            return 0;
        }
        long foreign = (machineBusyTicks - earlier.machineBusyTicks) - (ownTicks - earlier.ownTicks);
        return 100.0 * Math.max(0, foreign) / wallTicks;
    }

    /** Percent of one CPU that the hypervisor stole between {@code earlier} and this snapshot. */
    public double stealPercentSince(CpuShare earlier) {
        if (machineTotalTicks < 0 || earlier.machineTotalTicks < 0) {
            return Double.NaN;
        }
        double wallTicks = (machineTotalTicks - earlier.machineTotalTicks) / (double) CPUS;
        return wallTicks <= 0 ? 0 : 100.0 * (machineStealTicks - earlier.machineStealTicks) / wallTicks;
    }
}
