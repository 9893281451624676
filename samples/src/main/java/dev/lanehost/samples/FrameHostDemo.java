package dev.lanehost.samples;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * A game loop in C, game state in Java: the C frame host ({@code frame_host.c}) wakes at 120 Hz and drives
 * the lane "frame", where a game-state actor lives; its C input thread sends stick events through the gate
 * "input". The host reaches lanehost only through the host ABI table.
 *
 * <p>Usage: {@code java -cp samples/target/lanehost-demo.jar dev.lanehost.samples.FrameHostDemo [frames, default 600]}
 */
public final class FrameHostDemo {
    private static final int RATE_HZ = 120;
    /** Enough for a few input events a frame; a flood of them waits for the next frames instead of stretching one. */
    private static final int MAX_TURNS = 4;

    private FrameHostDemo() {
    }

    /** The player's position; touched only in the actor's turns, on the frame thread. */
    private static final class Player {
        long x;
        long events;
    }

    public static void main(String[] args) {
        int frames = args.length > 0 ? Integer.parseInt(args[0]) : 600;
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime)) {
            abi.exportLane(runtime.registerLane("frame"));
            Player player = new Player();
            ActorRef state = runtime.spawnOnLane("frame", "game-state", () -> (context, message) -> { });
            abi.exportGate("input", CallGate.open(state, (context, event) -> {
                Map<?, ?> input = (Map<?, ?>) event;
                player.x += (Long) input.get("dx");
                player.events++;
                return input.get("seq");
            }));
            FrameHost.Settings settings = new FrameHost.Settings(RATE_HZ, MAX_TURNS, frames, frames * 4, frames / 2,
                    Duration.ofSeconds(10));
            System.out.printf("frame host: %d Hz, %d+ frames, %d input events, at most %d turns a frame%n",
                    RATE_HZ, frames, settings.events(), MAX_TURNS);
            FrameHost.Run run;
            try (FrameHost host = FrameHost.start(abi.table(), "frame", "input", settings)) {
                run = host.join();
            }
            long[] drive = run.frames().stream().mapToLong(FrameHost.Frame::driveNanos).sorted().toArray();
            long[] jitter = run.frames().stream().mapToLong(FrameHost.Frame::jitterNanos).sorted().toArray();
            long failed = run.frames().stream().filter(f -> f.status() != 0).count();
            int[] turns = new int[MAX_TURNS + 1];
            run.frames().forEach(f -> turns[Math.min(f.turns(), MAX_TURNS)]++);
            System.out.printf("frames %d (late %d, drives not OK %d); frames by turns run %s%n",
                    run.frames().size(), run.lateFrames(), failed, Arrays.toString(turns));
            System.out.printf("drive   p50 %s  p99 %s  max %s%n", micros(drive, 0.50), micros(drive, 0.99), micros(drive, 1));
            System.out.printf("jitter  p50 %s  p99 %s  max %s%n", micros(jitter, 0.50), micros(jitter, 0.99), micros(jitter, 1));
            System.out.printf("input events sent %d, answered OK %d%s; player x = %d after %d events%n",
                    run.eventsSent(), run.eventsOk(), run.firstFailureStatus() == 0 ? ""
                            : ", first failure " + FrameHost.Run.statusName(run.firstFailureStatus()) + " at event " + run.firstFailureEvent(),
                    player.x, player.events);
        }
    }

    private static String micros(long[] sorted, double quantile) {
        if (sorted.length == 0) {
            return "-";
        }
        int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
        return String.format("%.1f us", sorted[Math.max(0, index)] / 1e3);
    }
}
