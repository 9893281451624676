package dev.lanehost.benchmarks.actors;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
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
 * Fan-out / fan-in, 1 → {@value #WORKERS} → 1: a coordinator sends one message to each of {@value #WORKERS}
 * workers, each answers the coordinator, and once every answer is in the coordinator starts the next round;
 * {@value #ROUNDS} rounds per batch. The score counts messages (both directions).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Benchmark)
public class FanOutFanInBenchmark {
    static final int WORKERS = 1_000;
    static final int ROUNDS = 10;

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
    @OperationsPerInvocation(2 * WORKERS * ROUNDS)
    public void messages() throws InterruptedException {
        scenario.runBatch();
    }

    /** What the benchmark thread tells the coordinator: run the rounds, then end the batch. */
    record Start(Batch batch) {
    }

    /** The coordinator's bookkeeping, the same on both runtimes. */
    static final class Rounds {
        private Batch batch;
        private int roundsLeft;
        private int answersLeft;

        /** A batch begins: the first round is due. */
        void start(Batch batch) {
            this.batch = batch;
            this.roundsLeft = ROUNDS;
            this.answersLeft = WORKERS;
        }

        /** A worker answered: true when a new round is due. */
        boolean answered() {
            if (--answersLeft > 0) {
                return false;
            }
            if (--roundsLeft == 0) {
                batch.arrive();
                return false;
            }
            answersLeft = WORKERS;
            return true;
        }
    }

    static final class OnLanehost implements ActorScenario {
        private final ActorRuntime runtime = Contender.startLanehost();
        private final ActorRef coordinator;

        OnLanehost() {
            ActorRef[] workers = new ActorRef[WORKERS];
            for (int i = 0; i < WORKERS; i++) {
                // the work message is the coordinator's reference: answer it
                workers[i] = runtime.spawn("worker", () -> (context, message) -> ((ActorRef) message).tell(Boolean.TRUE));
            }
            coordinator = runtime.spawn("coordinator", () -> new Coordinator(workers));
        }

        @Override
        public void runBatch() throws InterruptedException {
            Batch batch = new Batch(1, "fan-out/fan-in on lanehost");
            coordinator.tell(new Start(batch));
            batch.await();
        }

        @Override
        public void close() {
            ResourceAudit.closeAndCheck(runtime, "fan-out/fan-in");
        }

        static final class Coordinator implements Behavior {
            private final ActorRef[] workers;
            private final Rounds rounds = new Rounds();

            Coordinator(ActorRef[] workers) {
                this.workers = workers;
            }

            @Override
            public void receive(ActorContext context, Object message) {
                if (message instanceof Start start) {
                    rounds.start(start.batch());
                    fanOut(context.self());
                } else if (rounds.answered()) {
                    fanOut(context.self());
                }
            }

            private void fanOut(ActorRef self) {
                for (ActorRef worker : workers) {
                    worker.tell(self);
                }
            }
        }
    }

    static final class OnPekko implements ActorScenario {
        private final ActorSystem system;
        private final org.apache.pekko.actor.ActorRef coordinator;

        OnPekko(Contender contender) {
            system = contender.startPekko("fanout");
            org.apache.pekko.actor.ActorRef[] workers = new org.apache.pekko.actor.ActorRef[WORKERS];
            for (int i = 0; i < WORKERS; i++) {
                workers[i] = system.actorOf(Props.create(Worker.class, Worker::new));
            }
            coordinator = system.actorOf(Props.create(Coordinator.class, () -> new Coordinator(workers)));
        }

        @Override
        public void runBatch() throws InterruptedException {
            Batch batch = new Batch(1, "fan-out/fan-in on Pekko");
            coordinator.tell(new Start(batch), org.apache.pekko.actor.ActorRef.noSender());
            batch.await();
        }

        @Override
        public void close() {
            PekkoShutdown.terminate(system);
        }

        static final class Worker extends AbstractActor {
            @Override
            public Receive createReceive() {
                return receiveBuilder().matchAny(work -> getSender().tell(Boolean.TRUE, getSelf())).build();
            }
        }

        static final class Coordinator extends AbstractActor {
            private final org.apache.pekko.actor.ActorRef[] workers;
            private final Rounds rounds = new Rounds();

            Coordinator(org.apache.pekko.actor.ActorRef[] workers) {
                this.workers = workers;
            }

            @Override
            public Receive createReceive() {
                return receiveBuilder()
                        .match(Start.class, start -> {
                            rounds.start(start.batch());
                            fanOut();
                        })
                        .matchAny(answer -> {
                            if (rounds.answered()) {
                                fanOut();
                            }
                        })
                        .build();
            }

            private void fanOut() {
                for (org.apache.pekko.actor.ActorRef worker : workers) {
                    worker.tell(Boolean.TRUE, getSelf());
                }
            }
        }
    }
}
