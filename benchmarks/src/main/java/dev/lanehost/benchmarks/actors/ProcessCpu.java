package dev.lanehost.benchmarks.actors;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's CPU time, two ways: the JDK's {@code getProcessCpuTime} (on Linux counted in clock ticks, 10 ms,
 * too coarse to tell 0.1 ms/s from nothing over ten seconds), and the sum of every thread's
 * {@code /proc/self/task/<tid>/schedstat} (nanoseconds on a CPU, and how many times it was scheduled in: the
 * wake-ups an idle runtime should not have). Threads that end during a window take their share with them, so
 * only use the schedstat figures where threads are not coming and going (an idle process).
 *
 * @param mxBeanNanos    {@code OperatingSystemMXBean.getProcessCpuTime()}
 * @param schedNanos     the threads' summed on-CPU time from schedstat, or -1 where it cannot be read
 * @param schedSlices    the threads' summed count of times scheduled in, or -1 where it cannot be read
 */
record ProcessCpu(long mxBeanNanos, long schedNanos, long schedSlices) {
    private static final Path TASKS = Path.of("/proc/self/task");

    static ProcessCpu now() {
        long mxBean = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long nanos = 0;
        long slices = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String[] fields;
                try {
                    fields = Files.readString(task.resolve("schedstat")).trim().split(" ");
                } catch (IOException gone) {
                    continue; // the thread ended between the listing and the read
                }
                nanos += Long.parseLong(fields[0]);
                slices += Long.parseLong(fields[2]);
            }
        } catch (IOException | RuntimeException unreadable) {
            return new ProcessCpu(mxBean, -1, -1);
        }
        return new ProcessCpu(mxBean, nanos, slices);
    }

    ProcessCpu since(ProcessCpu before) {
        boolean sched = schedNanos >= 0 && before.schedNanos >= 0;
        return new ProcessCpu(mxBeanNanos - before.mxBeanNanos, sched ? schedNanos - before.schedNanos : -1,
                sched ? schedSlices - before.schedSlices : -1);
    }
}
