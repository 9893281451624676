package dev.lanehost.benchmarks.actors;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
 * Spawn storm: a spawner actor spawns {@value #ACTORS} actors per batch, {@value #CHUNK} per turn, and sends
 * each one message; each handles it and stops. The score counts actors (spawned, run, stopped) per second.
 *
 * <p>Spawning from inside an actor in chunks is how a real storm happens (a request per actor) and keeps
 * each spawner turn short: lanehost's turn budget would rightly disrupt a turn spawning a million actors, and
 * the chunks let the children's turns run between them, so at most a few thousand are alive at once. The
 * lanehost spawner also ends a chunk early when its turn is asked to yield, as any long lanehost loop must; Pekko
 * has no such request.
 *
 * <p>After the trial every lanehost resource must be back to zero before the close, and again after it; the
 * teardown throws otherwise, and JMH reports the failure.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
// A fixed, pre-touched heap, for every contender: a storm allocates ~1.4 KB an actor (1.4 GB a batch), and on the JVM's
// default heap the young generation grows through the first iterations, each growth a run of first touches (a page
// fault each, microseconds in a VM): iterations then spread 0.4-2.9 M actors/s within one run, 2.7-3.9 M with this.
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
        "-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class SpawnStormBenchmark {
    static final int ACTORS = 1_000_000;
    /** Short turns (well under a millisecond) that still amortise the spawner's self-message. */
    static final int CHUNK = 1_000;

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
    @OperationsPerInvocation(ACTORS)
    public void actors() throws InterruptedException {
        scenario.runBatch();
    }

    /** What the benchmark thread tells the spawner, and the one message every spawned actor gets. */
    record Storm(Batch batch) {
    }

    /** The spawner's self-message: spawn the next chunk. */
    static final Object NEXT_CHUNK = new Object();

    static final class OnLanehost implements ActorScenario {
        private final ActorRuntime runtime = Contender.startLanehost();
        private final ActorRef spawner = runtime.spawn("spawner", Spawner::new);

        @Override
        public void runBatch() throws InterruptedException {
            Batch batch = new Batch(ACTORS, "spawn storm on lanehost");
            spawner.tell(new Storm(batch));
            batch.await();
        }

        @Override
        public void close() {
            spawner.kill();
            ResourceAudit.awaitNone(runtime, "spawn storm");
            ResourceAudit.closeAndCheck(runtime, "spawn storm");
        }

        static final class Spawner implements Behavior {
            private static final Supplier<Behavior> ONE_MESSAGE = () -> (context, message) -> {
                ((Storm) message).batch().arrive();
                context.stop();
            };

            private Storm storm;
            private int left;

            @Override
            public void receive(ActorContext context, Object message) {
                if (message instanceof Storm next) {
                    storm = next;
                    left = ACTORS;
                }
                // a chunk, or less when the turn budget asks this turn to yield (a cold or descheduled spawner
                // that ignored it would be disrupted and halted, and the storm would stop)
                int end = left - Math.min(CHUNK, left);
                while (left > end && !context.shouldYield()) {
                    context.spawn("storm", ONE_MESSAGE).tell(storm);
                    left--;
                }
                if (left > 0) {
                    context.self().tell(NEXT_CHUNK);
                }
            }
        }
    }

    static final class OnPekko implements ActorScenario {
        private final ActorSystem system;
        private final org.apache.pekko.actor.ActorRef spawner;

        OnPekko(Contender contender) {
            system = contender.startPekko("spawnstorm");
            spawner = system.actorOf(Props.create(Spawner.class, Spawner::new));
        }

        @Override
        public void runBatch() throws InterruptedException {
            Batch batch = new Batch(ACTORS, "spawn storm on Pekko");
            spawner.tell(new Storm(batch), org.apache.pekko.actor.ActorRef.noSender());
            batch.await();
        }

        @Override
        public void close() {
            PekkoShutdown.terminate(system);
        }

        static final class OneMessage extends AbstractActor {
            @Override
            public Receive createReceive() {
                return receiveBuilder().match(Storm.class, storm -> {
                    storm.batch().arrive();
                    getContext().stop(getSelf());
                }).build();
            }
        }

        static final class Spawner extends AbstractActor {
            private static final Props ONE_MESSAGE = Props.create(OneMessage.class, OneMessage::new);

            private Storm storm;
            private int left;

            @Override
            public Receive createReceive() {
                return receiveBuilder().matchAny(message -> {
                    if (message instanceof Storm next) {
                        storm = next;
                        left = ACTORS;
                    }
                    int chunk = Math.min(CHUNK, left);
                    for (int i = 0; i < chunk; i++) {
                        getContext().actorOf(ONE_MESSAGE).tell(storm, getSelf());
                    }
                    left -= chunk;
                    if (left > 0) {
                        getSelf().tell(NEXT_CHUNK, getSelf());
                    }
                }).build();
            }
        }
    }
}
