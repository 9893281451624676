import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallResult;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.IdleStrategy;
import dev.lanehost.lanes.Profile;
import dev.lanehost.benchmarks.PlacementProbe;
import java.time.Duration;
import dev.lanehost.callgate.CallReply;
import dev.lanehost.callgate.CborCallHandler;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

public final class Dist {
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        int calls = Integer.parseInt(a[1]);
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).idleStrategy(IdleStrategy.DEFAULT).build();
        ActorRef actor = runtime.spawn("service", () -> (c, m) -> { });
        CallGate gate = CallGate.open(actor, (context, values) -> ((List<?>) values).get(0));
        boolean cbor = a.length > 2 && a[2].equals("cbor");
        CborCallHandler first = (context, in, out) -> { in.readArray(); out.writeLong(in.readLong()); };
        CallGate cborGate = CallGate.openCbor(actor, first);
        CallReply reply = new CallReply();
        MemorySegment cargs = MemorySegment.ofArray(new byte[] {(byte) 0x82, 0x07, 0x65, 'f', 'r', 'a', 'm', 'e'});
        Duration timeout = Duration.ofSeconds(10);
        List<Object> args = List.of(7, "frame");
        long[] x = new long[calls];
        for (int r = 0; r < rounds; r++) {
            double probe = PlacementProbe.measure(20000).medianNanos();
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                CallStatus status = cbor ? cborGate.callEncoded(cargs, 0, cargs.byteSize(), 10_000_000_000L, reply) : gate.call(args, timeout).status();
                x[i] = System.nanoTime() - start;
                if (status != CallStatus.OK) throw new IllegalStateException(status.toString());
            }
            long[] y = x.clone();
            Arrays.sort(y);
            long sum = 0; for (long v : y) sum += v;
            if (r > 0) System.out.printf("probe %4.0f mean %5d  p10 %5d p25 %5d p50 %5d p75 %5d p90 %5d p99 %5d%n", probe, sum / calls, y[calls / 10], y[calls / 4], y[calls / 2], y[calls * 3 / 4], y[calls * 9 / 10], y[calls * 99 / 100]);
        }
        runtime.close();
    }
}
