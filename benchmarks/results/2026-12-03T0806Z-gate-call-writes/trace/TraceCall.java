package dev.lanehost.benchmarks;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallResult;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.Trace;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

public final class TraceCall {
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        int calls = Integer.parseInt(a[1]);
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).idleStrategy(IdleStrategy.DEFAULT).build();
        ActorRef actor = runtime.spawn("service", () -> (c, m) -> { });
        CallGate gate = CallGate.open(actor, (context, values) -> ((List<?>) values).get(0));
        Duration timeout = Duration.ofSeconds(10);
        String[] names = {"start->offered", "offered->found", "found->cellRun", "cellRun->locked", "locked->taken", "taken->deliver", "deliver->turn", "turn->stateCas", "stateCas->handled", "handled->outcome", "outcome->released", "released->published", "published->seen", "total", "prevSeen->idleMarked", "prevSeen->doorOpen", "doorOpen->start"};
        for (int r = 0; r < rounds; r++) {
            double probe = PlacementProbe.measure(20000).medianNanos();
            long[][] d = new long[names.length][calls];
            int[] how = new int[6];
            long prevSeen = 0;
            int n = 0;
            Trace.on = true;
            for (int i = 0; i < calls; i++) {
                long[] t = Trace.mine();
                long start = System.nanoTime();
                CallResult result = gate.call(CallGateBenchmark.SMALL_ARGS, timeout);
                long seen = System.nanoTime();
                if (result.status() != CallStatus.OK) throw new IllegalStateException();
                long off = t[9], found = t[11], run = t[13], turn = t[14], pub = t[15];
                how[(int) t[12]]++;
                long[] pts = {start, off, found, run, t[18], t[19], t[20], turn, t[21], t[22], t[23], t[24], pub, seen};
                for (int k = 0; k + 1 < pts.length; k++) d[k][n] = pts[k + 1] - pts[k];
                d[13][n] = seen - start;
                d[14][n] = t[16] - prevSeen; d[15][n] = t[17] - prevSeen; d[16][n] = start - t[17];
                prevSeen = seen;
                n++;
            }
            Trace.on = false;
            StringBuilder sb = new StringBuilder(String.format("round %d probe %.0f ns how door/slot/own/steal/stealNext %s%n", r, probe, Arrays.toString(how)));
            for (int k = 0; k < names.length; k++) {
                long[] x = Arrays.copyOf(d[k], n);
                Arrays.sort(x);
                sb.append(String.format("  %-22s p10 %6d p50 %6d p90 %6d%n", names[k], x[n / 10], x[n / 2], x[n * 9 / 10]));
            }
            System.out.print(sb);
        }
        runtime.close();
    }
}
