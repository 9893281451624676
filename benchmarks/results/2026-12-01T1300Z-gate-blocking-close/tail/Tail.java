import dev.lanehost.callgate.*;
import dev.lanehost.callgate.value.*;
import dev.lanehost.lanes.*;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.*;

public class Tail {
    public static void main(String[] a) throws Exception {
        String mode = a[0];
        long seconds = Long.parseLong(a[1]);
        RuntimeBuilder rb = ActorRuntime.builder(Profile.HOSTED); if (a.length > 2) rb.workers(Integer.parseInt(a[2])); ActorRuntime runtime = rb.build();
        ActorRef actor = runtime.spawn("service", () -> (c, m) -> { });
        CallGate gate = CallGate.open(actor, (context, args) -> ((List<?>) args).get(0));
        CallGate cborGate = CallGate.openCbor(actor, (context, in, out) -> { in.readArray(); out.writeLong(in.readLong()); });
        CallReply reply = new CallReply();
        byte[] cbor = new PlainCodec().encode(List.of(7, "frame"));
        MemorySegment args = MemorySegment.ofArray(cbor);
        List<Object> small = List.of(7, "frame");
        Duration timeout = Duration.ofSeconds(10);
        long[] buckets = new long[40]; // log2 ns
        long n = 0, slow = 0;
        long end = System.nanoTime() + 3_000_000_000L;
        boolean measuring = false;
        long[] slowAt = new long[100000]; int slowCount = 0;
        long start = 0;
        while (true) {
            long t0 = System.nanoTime();
            if (!measuring && t0 > end) { measuring = true; start = t0; end = t0 + seconds * 1_000_000_000L; }
            else if (measuring && t0 > end) break;
            if (mode.equals("plain")) {
                if (gate.call(small, timeout).status() != CallStatus.OK) throw new AssertionError();
            } else {
                if (cborGate.callEncoded(args, 0, args.byteSize(), 10_000_000_000L, reply) != CallStatus.OK) throw new AssertionError();
            }
            long d = System.nanoTime() - t0;
            if (measuring) {
                n++;
                buckets[63 - Long.numberOfLeadingZeros(Math.max(1, d))]++;
                if (d > 5000) { slow++; if (slowCount < slowAt.length) slowAt[slowCount++] = (t0 - start) / 1000; }
            }
        }
        long wakes = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getClass().getName().equals("dev.lanehost.lanes.Worker")) {
                var m = t.getClass().getDeclaredMethod("wakeUps"); m.setAccessible(true);
                wakes += (long) m.invoke(t);
            }
        }
        System.out.printf("worker wake-ups (whole run incl. warm-up): %d%n", wakes);
        System.out.printf("%s: %d calls, %.3f%% over 5 us%n", mode, n, 100.0 * slow / n);
        for (int i = 0; i < 40; i++) if (buckets[i] > 0) System.out.printf("  [%d, %d) ns: %d%n", 1L << i, 1L << (i + 1), buckets[i]);
        // gaps between slow calls (us)
        StringBuilder sb = new StringBuilder("  first slow calls at us: ");
        for (int i = 0; i < Math.min(40, slowCount); i++) sb.append(slowAt[i]).append(' ');
        System.out.println(sb);
        runtime.close();
    }
}
