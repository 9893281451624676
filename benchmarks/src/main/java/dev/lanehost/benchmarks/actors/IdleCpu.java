package dev.lanehost.benchmarks.actors;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.ExecutionLane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * What an idle runtime costs: starts one contender with {@value #ACTORS} actors that have each handled one
 * message and then get none (for lanehost also an idle lane with an actor of its own, driven once to start it and then left), lets it
 * settle, and reports the CPU time the whole process burnt per second of wall time over the window, and how often its
 * threads were scheduled in ({@link ProcessCpu}).
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar dev.lanehost.benchmarks.actors.IdleCpu jvm|lanehost|pekkoDefault|pekkoTuned [seconds]
 * </pre>
 *
 * <p>{@code jvm} starts nothing: the JVM's own floor (JIT, GC, and the JMX bean this probe reads), to subtract.
 * Run each contender in its own JVM, so one's leftover compilation is not charged to the next.
 */
public final class IdleCpu {
    static final int ACTORS = 8;
    /**
     * Long enough for start-up's compilation to finish and for lanehost's budget watch to fall back to its idle
     * pace (it does after a second without turns).
     */
    static final long SETTLE_MILLIS = 3_000;
    static final long DEFAULT_WINDOW_SECONDS = 10;

    private IdleCpu() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: IdleCpu jvm|lanehost|pekkoDefault|pekkoTuned [seconds]");
        }
        long windowSeconds = args.length > 1 ? Long.parseLong(args[1]) : DEFAULT_WINDOW_SECONDS;
        String name = args[0];
        AutoCloseable running = name.equals("jvm") ? () -> { } : start(Contender.named(name));
        try (running) {
            // The probe's first reading loads the JDK's management beans, which spin lambda classes; C2 then compiles
            // the class-file writer (~60 ms of a compiler thread). Read once before the settle, so that happens there
            // and not in the window: in it, one run in three read ~9.5 ms/s instead of ~3.5.
            ProcessCpu.now().since(ProcessCpu.now());
            // The settle and the window are the measurement itself, not a synchronisation: nothing is waited for.
            Thread.sleep(SETTLE_MILLIS);
            ProcessCpu before = ProcessCpu.now();
            long wallBefore = System.nanoTime();
            Thread.sleep(TimeUnit.SECONDS.toMillis(windowSeconds));
            ProcessCpu used = ProcessCpu.now().since(before);
            double seconds = (System.nanoTime() - wallBefore) / 1e9;
            double schedMillisPerSecond = used.schedNanos() / 1e6 / seconds;
            System.out.printf(Locale.ROOT, "idle %-12s actors=%d window=%.1fs cpu/s: schedstat %.3f ms (%.3f%% of one core),"
                            + " mxbean %.1f ms; wake-ups/s %.1f; threads %d%n",
                    name, name.equals("jvm") ? 0 : ACTORS, seconds, schedMillisPerSecond, schedMillisPerSecond / 10,
                    used.mxBeanNanos() / 1e6 / seconds, used.schedSlices() / seconds, threadCount());
        }
    }

    /** Every thread of the process, the JVM's own included (GC, JIT), as the kernel lists them. */
    private static long threadCount() throws IOException {
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.count();
        }
    }

    private static AutoCloseable start(Contender contender) throws InterruptedException {
        Batch started = new Batch(ACTORS, "idle actors' first message");
        if (contender.isPekko()) {
            ActorSystem system = contender.startPekko("idle");
            for (int i = 0; i < ACTORS; i++) {
                system.actorOf(Props.create(Idle.class, Idle::new)).tell(started, org.apache.pekko.actor.ActorRef.noSender());
            }
            started.await();
            return () -> PekkoShutdown.terminate(system);
        }
        ActorRuntime runtime = Contender.startLanehost();
        for (int i = 0; i < ACTORS; i++) {
            runtime.spawn("idle", () -> (context, message) -> ((Batch) message).arrive()).tell(started);
        }
        // an idle lane: its actor started by one drive from this thread, then nothing queued and no drive (a lane
        // with letters waiting and no drive would be a stalled lane, not an idle one)
        ExecutionLane lane = runtime.registerLane("idle-lane");
        runtime.spawnOnLane("idle-lane", "lane-idle", () -> (context, message) -> { });
        DriveStatus status = lane.drive(0).status();
        if (status != DriveStatus.OK) {
            throw new IllegalStateException("the idle lane's first drive answered " + status);
        }
        started.await();
        return runtime::close;
    }

    static final class Idle extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Batch.class, Batch::arrive).build();
        }
    }
}
