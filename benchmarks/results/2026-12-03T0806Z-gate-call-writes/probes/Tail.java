import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallResult;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.Profile;
import dev.lanehost.benchmarks.PlacementProbe;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

public final class Tail {
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        int calls = Integer.parseInt(a[1]);
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).idleStrategy(IdleStrategy.DEFAULT).build();
        ActorRef actor = runtime.spawn("service", () -> (c, m) -> { });
        CallGate gate = CallGate.open(actor, (context, values) -> ((List<?>) values).get(0));
        Duration timeout = Duration.ofSeconds(10);
        List<Object> args = List.of(7, "frame");
        long[] x = new long[calls];
        long[] at = new long[calls];
        for (int r = 0; r < rounds; r++) {
            double probe = PlacementProbe.measure(20000).medianNanos();
            long t0 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                CallResult result = gate.call(args, timeout);
                x[i] = System.nanoTime() - start;
                at[i] = start - t0;
                if (result.status() != CallStatus.OK) throw new IllegalStateException();
            }
            long[] y = x.clone();
            Arrays.sort(y);
            int slow = 0, spells = 0; long lastSlowAt = -1_000_000_000L; long slowSum = 0;
            StringBuilder hist = new StringBuilder();
            int[] buckets = new int[6]; // 5-10,10-20,20-50,50-100,100-1000,>1000 us
            for (int i = 0; i < calls; i++) {
                if (x[i] > 5000) {
                    slow++; slowSum += x[i];
                    if (at[i] - lastSlowAt > 100_000) spells++;
                    lastSlowAt = at[i];
                    long us = x[i] / 1000;
                    buckets[us < 10 ? 0 : us < 20 ? 1 : us < 50 ? 2 : us < 100 ? 3 : us < 1000 ? 4 : 5]++;
                }
            }
            System.out.printf("round %d probe %4.0f p50 %5d p99 %6d p99.9 %6d max %8d  slow>5us %5d in %4d spells (gap>100us), slow time %.1f ms of %.1f ms, buckets 5-10/10-20/20-50/50-100/100-1k/>1k us %s%n",
                r, probe, y[calls / 2], y[calls * 99 / 100], y[calls * 999 / 1000], y[calls - 1], slow, spells, slowSum / 1e6, (System.nanoTime() - t0) / 1e6, Arrays.toString(buckets));
        }
        runtime.close();
    }
}
