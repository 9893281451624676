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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ping-pong with {@value #BALLS} messages in flight, each ball bounced {@value #ROUND_TRIPS} times per batch, in
 * two shapes ({@code pairs}): {@value #BALLS} pairs of actors with one ball each (an actor's mailbox rarely holds
 * more than one letter: every message is a scheduling), and one pair with all {@value #BALLS} balls (the two
 * actors' mailboxes stay full, and with more than one thread every message crosses between them). The score counts
 * round trips (two messages each).
 *
 * <p>The benchmark thread only serves the balls and waits: every other send is actor to actor.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Benchmark)
public class PingPongBenchmark {
    /** Balls in flight in every shape. */
    static final int BALLS = 64;
    /** Enough that serving the balls is noise beside the bouncing (64 sends against 128,000). */
    static final int ROUND_TRIPS = 1_000;

    @Param({"lanehost", "pekkoDefault", "pekkoTuned"})
    public String contender;

    /** How many ping/pong pairs share the {@value #BALLS} balls: 64 (one ball each) or 1 (all on one pair). */
    @Param({"64", "1"})
    public int pairs;

    /**
     * Lanehost only: each ball bounced off one actor to itself ({@link OnLanehost#OnLanehost(int, boolean)}), the same
     * turns with no switch between two actors.
     */
    @Param({"false"})
    public boolean alone;

    private ActorScenario scenario;

    @Setup(Level.Trial)
    public void setUp() {
        Contender chosen = Contender.named(contender);
        if (pairs < 1 || BALLS % pairs != 0) {
            throw new IllegalArgumentException("pairs must divide " + BALLS + ": " + pairs);
        }
        if (alone && chosen.isPekko()) {
            throw new IllegalArgumentException("alone is lanehost's bound, not a contender's shape: run it with contender=lanehost");
        }
        scenario = chosen.isPekko() ? new OnPekko(chosen, pairs) : new OnLanehost(pairs, alone);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        scenario.close();
    }

    @Benchmark
    @OperationsPerInvocation(BALLS * ROUND_TRIPS)
    public void roundTrips() throws InterruptedException {
        scenario.runBatch();
    }

    /** One pair's ball: the bounces it has left and the batch it ends. Only its pair touches it in flight. */
    static final class Ball {
        final Batch batch;
        int roundTripsLeft;
        final Object ping;
        final Object pong;

        /** With {@code ping == pong} the ball bounces off one actor to itself: two turns count as a round trip. */
        Ball(Batch batch, Object ping, Object pong) {
            this.batch = batch;
            this.roundTripsLeft = ping == pong ? 2 * ROUND_TRIPS : ROUND_TRIPS;
            this.ping = ping;
            this.pong = pong;
        }

        /** Called by ping when the ball comes back: true while it must go out again. */
        boolean returned() {
            if (--roundTripsLeft == 0) {
                batch.arrive();
                return false;
            }
            return true;
        }
    }

    static final class OnLanehost implements ActorScenario {
        private final ActorRuntime runtime = Contender.startLanehost();
        private final ActorRef[] pings;
        private final ActorRef[] pongs;

        OnLanehost(int pairs) {
            this(pairs, false);
        }

        /**
         * With {@code alone}, each ping is its own pong: a ball goes from one actor to itself, the same turns with no
         * switch between two actors, which bounds what any way of running a pair can reach (not a contender: Pekko
         * bounces between two actors).
         */
        OnLanehost(int pairs, boolean alone) {
            pings = new ActorRef[pairs];
            pongs = new ActorRef[pairs];
            for (int i = 0; i < pairs; i++) {
                pings[i] = runtime.spawn("ping", () -> (context, message) -> {
                    Ball ball = (Ball) message;
                    if (ball.returned()) {
                        ((ActorRef) ball.pong).tell(ball);
                    }
                });
                pongs[i] = alone ? pings[i]
                        : runtime.spawn("pong", () -> (context, message) -> ((ActorRef) ((Ball) message).ping).tell(message));
            }
        }

        @Override
        public void runBatch() throws InterruptedException {
            Batch batch = new Batch(BALLS, "ping-pong on lanehost");
            for (int ball = 0; ball < BALLS; ball++) {
                int i = ball % pings.length;
                pongs[i].tell(new Ball(batch, pings[i], pongs[i]));
            }
            batch.await();
        }

        @Override
        public void close() {
            ResourceAudit.closeAndCheck(runtime, "ping-pong");
        }
    }

    static final class OnPekko implements ActorScenario {
        private final ActorSystem system;
        private final org.apache.pekko.actor.ActorRef[] pings;
        private final org.apache.pekko.actor.ActorRef[] pongs;

        OnPekko(Contender contender, int pairs) {
            system = contender.startPekko("pingpong");
            pings = new org.apache.pekko.actor.ActorRef[pairs];
            pongs = new org.apache.pekko.actor.ActorRef[pairs];
            for (int i = 0; i < pairs; i++) {
                pings[i] = system.actorOf(Props.create(Ping.class, Ping::new));
                pongs[i] = system.actorOf(Props.create(Pong.class, Pong::new));
            }
        }

        @Override
        public void runBatch() throws InterruptedException {
            Batch batch = new Batch(BALLS, "ping-pong on Pekko");
            for (int ball = 0; ball < BALLS; ball++) {
                int i = ball % pings.length;
                pongs[i].tell(new Ball(batch, pings[i], pongs[i]), org.apache.pekko.actor.ActorRef.noSender());
            }
            batch.await();
        }

        @Override
        public void close() {
            PekkoShutdown.terminate(system);
        }

        static final class Ping extends AbstractActor {
            @Override
            public Receive createReceive() {
                return receiveBuilder().match(Ball.class, ball -> {
                    if (ball.returned()) {
                        ((org.apache.pekko.actor.ActorRef) ball.pong).tell(ball, getSelf());
                    }
                }).build();
            }
        }

        static final class Pong extends AbstractActor {
            @Override
            public Receive createReceive() {
                return receiveBuilder().match(Ball.class,
                        ball -> ((org.apache.pekko.actor.ActorRef) ball.ping).tell(ball, getSelf())).build();
            }
        }
    }
}
