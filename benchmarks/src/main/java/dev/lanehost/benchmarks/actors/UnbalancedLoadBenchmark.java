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
import org.openjdk.jmh.infra.Blackhole;

/**
 * An unbalanced load, the case work stealing is for: {@value #HEAVY_ACTORS} actors with heavy turns (each
 * {@value #HEAVY_TURNS} turns of {@value #HEAVY_TOKENS} tokens of {@link Blackhole#consumeCPU}, tens of
 * microseconds) beside {@value #LIGHT_ACTORS} light ones (each {@value #LIGHT_TURNS} empty turns). Each actor
 * keeps itself busy by telling itself its next turn, so once the batch is served the runtime alone decides
 * where the turns run. The score is the batch's completion time; one core's worth of work cannot finish
 * sooner than the heavy actors' turns take on one core, and more cores can halve it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Benchmark)
public class UnbalancedLoadBenchmark {
    /** More heavy actors than cores, so a pool that spreads them keeps every core busy. */
    static final int HEAVY_ACTORS = 4;
    static final int HEAVY_TURNS = 100;
    /** About 40 µs on this machine: far above a turn's overhead, far below the 10 ms fast budget. */
    static final long HEAVY_TOKENS = 20_000;
    static final int LIGHT_ACTORS = 1_000;
    static final int LIGHT_TURNS = 20;
    /** Every turn of a batch, heavy and light: the message count behind the completion time. */
    public static final int MESSAGES = HEAVY_ACTORS * HEAVY_TURNS + LIGHT_ACTORS * LIGHT_TURNS;

    @Param({"lanehost", "pekkoDefault", "pekkoTuned"})
    public String contender;

    private ActorScenario scenario;

    @Setup(Level.Trial)
    public void setUp() {
        Contender chosen = Contender.named(contender);
        scenario = chosen.isPekko() ? new OnPekko(chosen) : new OnLanehost();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        scenario.close();
    }

    @Benchmark
    public void batch() throws InterruptedException {
        scenario.runBatch();
    }

    /**
     * One actor's part of a batch: the turns it has left, the work of each, and the batch it ends. Owned by that
     * actor while in flight.
     */
    static final class Work {
        private final Batch batch;
        private final long tokens;
        private int turnsLeft;

        Work(Batch batch, int turns, long tokens) {
            this.batch = batch;
            this.turnsLeft = turns;
            this.tokens = tokens;
        }

        /** Runs one turn's work: true while another turn is due. */
        boolean turn() {
            if (tokens > 0) {
                Blackhole.consumeCPU(tokens);
            }
            if (--turnsLeft == 0) {
                batch.arrive();
                return false;
            }
            return true;
        }
    }

    static final class OnLanehost implements ActorScenario {
        private final ActorRuntime runtime = Contender.startLanehost();
        private final ActorRef[] heavy = new ActorRef[HEAVY_ACTORS];
        private final ActorRef[] light = new ActorRef[LIGHT_ACTORS];

        OnLanehost() {
            for (int i = 0; i < HEAVY_ACTORS; i++) {
                heavy[i] = runtime.spawn("heavy", OnLanehost::selfDriven);
            }
            for (int i = 0; i < LIGHT_ACTORS; i++) {
                light[i] = runtime.spawn("light", OnLanehost::selfDriven);
            }
        }

        private static dev.lanehost.lanes.Behavior selfDriven() {
            return (context, message) -> {
                if (((Work) message).turn()) {
                    context.self().tell(message);
                }
            };
        }

        @Override
        public void runBatch() throws InterruptedException {
            Batch batch = new Batch(HEAVY_ACTORS + LIGHT_ACTORS, "unbalanced load on lanehost");
            for (ActorRef actor : heavy) {
                actor.tell(new Work(batch, HEAVY_TURNS, HEAVY_TOKENS));
            }
            for (ActorRef actor : light) {
                actor.tell(new Work(batch, LIGHT_TURNS, 0));
            }
            batch.await();
        }

        @Override
        public void close() {
            ResourceAudit.closeAndCheck(runtime, "unbalanced load");
        }
    }

    static final class OnPekko implements ActorScenario {
        private final ActorSystem system;
        private final org.apache.pekko.actor.ActorRef[] heavy = new org.apache.pekko.actor.ActorRef[HEAVY_ACTORS];
        private final org.apache.pekko.actor.ActorRef[] light = new org.apache.pekko.actor.ActorRef[LIGHT_ACTORS];

        OnPekko(Contender contender) {
            system = contender.startPekko("unbalanced");
            Props props = Props.create(SelfDriven.class, SelfDriven::new);
            for (int i = 0; i < HEAVY_ACTORS; i++) {
                heavy[i] = system.actorOf(props);
            }
            for (int i = 0; i < LIGHT_ACTORS; i++) {
                light[i] = system.actorOf(props);
            }
        }

        @Override
        public void runBatch() throws InterruptedException {
            Batch batch = new Batch(HEAVY_ACTORS + LIGHT_ACTORS, "unbalanced load on Pekko");
            for (org.apache.pekko.actor.ActorRef actor : heavy) {
                actor.tell(new Work(batch, HEAVY_TURNS, HEAVY_TOKENS), org.apache.pekko.actor.ActorRef.noSender());
            }
            for (org.apache.pekko.actor.ActorRef actor : light) {
                actor.tell(new Work(batch, LIGHT_TURNS, 0), org.apache.pekko.actor.ActorRef.noSender());
            }
            batch.await();
        }

        @Override
        public void close() {
            PekkoShutdown.terminate(system);
        }

        static final class SelfDriven extends AbstractActor {
            @Override
            public Receive createReceive() {
                return receiveBuilder().match(Work.class, work -> {
                    if (work.turn()) {
                        getSelf().tell(work, getSelf());
                    }
                }).build();
            }
        }
    }
}
