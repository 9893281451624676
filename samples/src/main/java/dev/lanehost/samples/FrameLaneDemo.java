package dev.lanehost.samples;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The frame-lane sample: a game loop in C, game state in Java. The C frame host ({@code frame_host.c}) wakes at
 * 60 Hz and drives the lane "frame" with a bound of {@value #MAX_TURNS} turns a frame; the game-state actor lives
 * on that lane ({@link GameWorld}); the host's C input thread sends stick events through the gate "input"; a Java
 * "world" actor sends NPC moves in bursts. The host reaches lanehost only through the host ABI table. At the end:
 * drive time and wake-up jitter (p50 / p99 / max), late frames, and how many frames ran each number of turns.
 *
 * <p>Usage: {@code java -cp samples/target/lanehost-demo.jar dev.lanehost.samples.FrameLaneDemo [frames, default 600]}
 */
public final class FrameLaneDemo {
    public static final int RATE_HZ = 60;
    /**
     * Twice a usual frame's work (an input event and a few NPC moves): a burst larger than that waits for the next
     * frames instead of stretching this one.
     */
    public static final int MAX_TURNS = 8;

    private FrameLaneDemo() {
    }

    /** Ten seconds at {@value #RATE_HZ} Hz. */
    public static final int DEFAULT_FRAMES = 600;

    public static void main(String[] args) {
        int frames = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_FRAMES;
        if (frames <= 0) {
            throw new IllegalArgumentException("frames must be > 0, got " + frames);
        }
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime)) {
            GameWorld world = GameWorld.start(runtime, abi);
            // The input thread calls back to back until stopped; max frames leaves room for the frames that run
            // between the stop and the input thread's last answer.
            FrameHost.Settings settings = new FrameHost.Settings(RATE_HZ, MAX_TURNS, frames, frames + RATE_HZ, Integer.MAX_VALUE,
                    Duration.ofSeconds(10));
            System.out.printf("frame-lane: C loop at %d Hz drives lane '%s' (at most %d turns a frame) for %s, %.1f s;"
                    + " C input thread -> gate '%s'; Java world actor -> NPC moves%n", RATE_HZ, GameWorld.LANE, MAX_TURNS,
                    StatusLine.duration(frames, DEFAULT_FRAMES, "frames"), frames / (double) RATE_HZ, GameWorld.INPUT_GATE);
            System.out.println("status line, twice a second: frames run (late: woke more than a period late), lane turns, input"
                    + " events answered OK");
            FrameHost.Run run;
            try (FrameHost host = FrameHost.start(abi.table(), GameWorld.LANE, GameWorld.INPUT_GATE, settings)) {
                StatusLine status = new StatusLine(System.out, System.nanoTime(), frames / (double) RATE_HZ);
                FrameHost.Progress progress;
                while ((progress = host.progress()).frames() < frames) {
                    FrameHost.Progress shown = progress;
                    status.update(System.nanoTime(), () -> counters(shown, frames));
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // pacing the check, not synchronisation
                }
                FrameHost.Progress last = progress;
                status.finish(System.nanoTime(), () -> counters(last, frames));
                host.stop();
                run = host.join();
            }
            long sent = world.stopWorld();
            long left = world.drainLane();
            FrameStats stats = FrameStats.of(run, MAX_TURNS);
            System.out.printf("frames %d, late %d (woke more than a period late), drives not OK %d, frames that hit the bound %d%n",
                    stats.frames(), stats.lateFrames(), stats.failedDrives(), stats.boundHit());
            System.out.printf("drive time   %s%n", FrameStats.quantiles(stats.driveNanos()));
            System.out.printf("wake jitter  %s%n", FrameStats.quantiles(stats.jitterNanos()));
            System.out.printf("frames by turns run  %s (the last is the bound)%n", stats.histogram());
            System.out.printf("input events %d sent, %d answered OK%s; NPC moves %d sent, %d handled (%d after the loop ended)%n",
                    run.eventsSent(), run.eventsOk(), run.firstFailureStatus() == 0 ? ""
                            : ", first failure " + FrameHost.Run.statusName(run.firstFailureStatus()) + " at event " + run.firstFailureEvent(),
                    sent, world.npcMoves(), left);
        }
    }

    private static String counters(FrameHost.Progress progress, int frames) {
        return String.format("frames %5d / %d (%d late) | turns %6d | input %5d", progress.frames(), frames, progress.lateFrames(),
                progress.turns(), progress.eventsOk());
    }
}
