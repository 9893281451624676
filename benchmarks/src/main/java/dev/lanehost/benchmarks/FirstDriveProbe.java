package dev.lanehost.benchmarks;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * What the first {@code lane_drive} on a brand-new host pthread costs — the case of a host that restarts its
 * callback thread (JACK on every deactivate/activate) — with and without a {@code thread_warm_up} call on
 * that thread first, measured on the pthread itself with {@code CLOCK_MONOTONIC}. Each drive runs one turn
 * (a message queued before the thread starts). Round 0 of the first series is the JVM's very first drive.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar dev.lanehost.benchmarks.FirstDriveProbe [rounds]</pre>
 */
public final class FirstDriveProbe {
    private FirstDriveProbe() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED); HostAbi abi = HostAbi.open(runtime)) {
            long lane = abi.exportLane(runtime.registerLane("process"));
            ActorRef actor = runtime.spawnOnLane("process", "synth", () -> (context, message) -> { });
            long[] cold = series(abi, lane, actor, rounds, false);
            long[] warmed = series(abi, lane, actor, rounds, true);
            System.out.println("first drive on the JVM's first host thread (attach + cold code): " + micros(cold[0]) + " us");
            print("first drive on a new pthread, no warm-up   ", Arrays.copyOfRange(cold, 1, cold.length));
            print("first drive on a new pthread after warm-up ", warmed);
        }
    }

    private static long[] series(HostAbi abi, long lane, ActorRef actor, int rounds, boolean warmUp) {
        long[] nanos = new long[rounds];
        for (int round = 0; round < rounds; round++) {
            actor.tell(round);
            try (TestHost.HostThread thread = TestHost.startHostThread(abi.table())) {
                if (warmUp) {
                    thread.run(TestHost.HostThread.WARM_UP, 0, 0, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0,
                            MemorySegment.NULL, 0, MemorySegment.NULL);
                }
                int status = thread.drive(lane, 1, MemorySegment.NULL);
                if (status != 0) {
                    throw new IllegalStateException("lane_drive answered " + status);
                }
                nanos[round] = thread.lastNanos();
            }
        }
        return nanos;
    }

    private static void print(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("%s p50 %s us, p90 %s us, max %s us (%d threads)%n", what, micros(sorted[sorted.length / 2]),
                micros(sorted[(int) (sorted.length * 0.9)]), micros(sorted[sorted.length - 1]), sorted.length);
    }

    private static String micros(long nanos) {
        return String.format("%.1f", nanos / 1000.0);
    }
}
