package dev.lanehost.samples;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.TurnBudget;
import java.time.Duration;

/**
 * How the audio samples spawn the actor that owns their Java ring sides (the audio-ring consumer, the duplex effect):
 * pinned to worker 0, since a ring side belongs to one thread for life, and with {@link #BUDGET}.
 */
final class AudioActors {
    /**
     * The runtime's default 10 ms before a yield request, but a slow budget of 1 s instead of 100 ms. These actors'
     * turns take microseconds to a few milliseconds, so one that lasts 100 ms was held off the CPU (on a loaded
     * 2-vCPU machine a worker was held off for up to 235 ms). Such a turn is not disrupted (the watch sees it did not
     * run), but it earns a strike, and with the default three stalls in a row, or one longer than 300 ms after the
     * yield request, would halt the actor and end the sample for the machine's stalls. A turn that really runs away
     * is still halted, a second after its yield request.
     */
    static final TurnBudget BUDGET = new TurnBudget(Duration.ofMillis(10), Duration.ofSeconds(1), 3);

    private AudioActors() {
    }

    /** Spawns {@code behavior} (one instance: the caller keeps it to read its counters) pinned to worker 0. */
    static ActorRef spawn(ActorRuntime runtime, String name, Behavior behavior) {
        return runtime.spawn(name, Placement.pinned(0), SpawnOptions.DEFAULT.withBudget(BUDGET), () -> behavior);
    }
}
