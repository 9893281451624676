package dev.lanehost.benchmarks.actors;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Round-trip latency of one request/response pair, sampled so the report carries p50/p99: the benchmark thread
 * sends a request to a responder actor and spins until the responder has answered it.
 *
 * <p>Both runtimes answer the same way, by setting a volatile flag in the request, because each runtime's own
 * reply path from an actor to a plain thread differs (Pekko's {@code ask} spawns a temporary actor and
 * completes a future, lanehost's call gate parks the caller) and would measure those instead of the
 * scheduler's hand-off, which is what the worker pool changes.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Benchmark)
public class RoundTripBenchmark {
    /** A round trip not answered in this long has been lost: fail instead of spinning forever. */
    static final long DEADLINE_NANOS = 10_000_000_000L;

    @Param({"lanehost", "pekkoDefault", "pekkoTuned"})
    public String contender;

    private Responder responder;

    @Setup(Level.Trial)
    public void setUp() {
        Contender chosen = Contender.named(contender);
        responder = chosen.isPekko() ? new OnPekko(chosen) : new OnLanehost();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        responder.close();
    }

    @Benchmark
    public Request roundTrip() {
        Request request = new Request();
        responder.send(request);
        request.awaitAnswer();
        return request;
    }

    /** One request; the responder answers by setting its flag, the benchmark thread spins on it. */
    public static final class Request {
        private volatile boolean answered;

        void answer() {
            answered = true; // volatile: publishes the answer to the spinning caller
        }

        void awaitAnswer() {
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (!answered) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no answer within " + DEADLINE_NANOS / 1_000_000 + " ms");
                }
                Thread.onSpinWait();
            }
        }
    }

    interface Responder extends AutoCloseable {
        void send(Request request);

        @Override
        void close();
    }

    static final class OnLanehost implements Responder {
        private final ActorRuntime runtime = Contender.startLanehost();
        private final ActorRef responder = runtime.spawn("responder", () -> (context, message) -> ((Request) message).answer());

        @Override
        public void send(Request request) {
            if (!responder.tell(request)) {
                throw new IllegalStateException("the responder refused a request");
            }
        }

        @Override
        public void close() {
            ResourceAudit.closeAndCheck(runtime, "round trip");
        }
    }

    static final class OnPekko implements Responder {
        private final ActorSystem system;
        private final org.apache.pekko.actor.ActorRef responder;

        OnPekko(Contender contender) {
            system = contender.startPekko("roundtrip");
            responder = system.actorOf(Props.create(Answering.class, Answering::new));
        }

        @Override
        public void send(Request request) {
            responder.tell(request, org.apache.pekko.actor.ActorRef.noSender());
        }

        @Override
        public void close() {
            PekkoShutdown.terminate(system);
        }

        static final class Answering extends AbstractActor {
            @Override
            public Receive createReceive() {
                return receiveBuilder().match(Request.class, Request::answer).build();
            }
        }
    }
}
