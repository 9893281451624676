package dev.lanehost.benchmarks;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallReply;
import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.ring.SpscByteRing;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * The CPU time one operation takes its thread, for an A/B of a one-thread hot path on a loaded machine: a JMH time is
 * wall time, and on a machine whose two vCPUs other processes share, a thread that loses its CPU for a while adds that
 * while to the operations it was in (single-thread figures moved 2–5× between forks of one jar there). The thread's own
 * CPU time ({@link ThreadMXBean#getCurrentThreadCpuTime}) leaves the time it waited out; what other processes do to
 * the caches still shows, so compare builds alternately, several runs each.
 *
 * <p>{@code ring CHUNK}: a ring's write of {@code CHUNK} bytes from a {@code byte[]} and its read back, on one thread
 * (as {@code RingOverheadBenchmark.lanehost}, a 64 KiB ring this class allocates). {@code gate}: {@code callOnLane}
 * from the lane's thread (the Java entry), then the CBOR entry with a kept {@link CallReply}, as
 * {@code CallGateBenchmark.callOnLane} and {@code callOnLaneCbor}: the caller drives the lane, so the whole call, its
 * turn included, runs on the measured thread. Each prints the best and every one of 7 windows, in ns an operation.
 *
 * <pre>{@code
 * java --enable-native-access=ALL-UNNAMED -cp OLD.jar:benchmarks/target/classes dev.lanehost.benchmarks.CpuCostProbe ring 512
 * java --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar dev.lanehost.benchmarks.CpuCostProbe ring 512
 * }</pre>
 * (the old jar first on the class path: its ring and gate are measured, and only this class comes from the new build).
 */
public final class CpuCostProbe {
    private static final int WINDOWS = 7;

    private CpuCostProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("ring")) {
            ring(Integer.parseInt(args[1]));
        } else if (args.length == 1 && args[0].equals("gate")) {
            gate();
        } else {
            System.err.println("usage: CpuCostProbe ring CHUNK | gate");
            System.exit(2);
        }
    }

    private static void ring(int chunk) {
        try (SpscByteRing ring = SpscByteRing.allocate(1 << 16)) {
            byte[] source = new byte[chunk];
            byte[] target = new byte[chunk];
            long[] sink = {0};
            Runnable writeAndRead = () -> {
                ring.write(source, 0, chunk);
                sink[0] += ring.read(target, 0, chunk);
            };
            report("ring " + chunk + " B write+read", writeAndRead, 3_000_000, 2_000_000);
        }
    }

    private static void gate() throws Exception {
        List<Object> small = List.of(7, "frame");
        MemorySegment args = MemorySegment.ofArray(new PlainCodec().encode(small));
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("frame");
            ActorRef actor = runtime.spawnOnLane("frame", "renderer", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, values) -> ((List<?>) values).get(0));
            CallGate cborGate = CallGate.openCbor(actor, (context, in, out) -> {
                in.readArray();
                out.writeLong(in.readLong());
            });
            CallReply reply = new CallReply();
            lane.drive(0);
            long[] sink = {0};
            report("callOnLane", () -> sink[0] += gate.callOnLane(lane, small, 0).status().ordinal(), 1_000_000, 400_000);
            report("callOnLaneCbor", () -> sink[0] += cborGate.callOnLaneEncoded(lane, args, 0, args.byteSize(), 0, reply)
                    .ordinal(), 1_000_000, 400_000);
        }
    }

    private static void report(String what, Runnable operation, int warmup, int perWindow) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < warmup; i++) {
            operation.run();
        }
        double best = Double.MAX_VALUE;
        StringBuilder all = new StringBuilder();
        for (int window = 0; window < WINDOWS; window++) {
            long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < perWindow; i++) {
                operation.run();
            }
            double nanos = (threads.getCurrentThreadCpuTime() - start) / (double) perWindow;
            best = Math.min(best, nanos);
            all.append(String.format(" %.1f", nanos));
        }
        System.out.printf("%s: CPU ns an operation, best %.1f; windows%s%n", what, best, all);
    }
}
