package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A million actors spawned and halted on HOSTED leave nothing behind: every actor, timer, signal, park and arena
 * they held is torn down by their halts, with the runtime still running (its close would release them anyway
 * and prove nothing).
 */
class SpawnStormTest {
    private static final int ACTORS = 1_000_000;
    /** A spawner turn spawns at most this many, then sends itself the rest: short turns, and children run in between. */
    private static final int CHUNK = 1_000;
    /**
     * One actor in this many also opens its arena: a shared arena's close costs a handshake with every thread,
     * so a million of them would measure the JVM, not the teardown.
     */
    private static final int ARENA_EVERY = 1_000;
    /** For the million messages: a few seconds here, ample on a loaded machine. */
    private static final long PATIENCE_SECONDS = 120;
    /** For the last teardowns after the last message: well under a second here. */
    private static final long TEARDOWN_PATIENCE_SECONDS = 30;
    /**
     * Budgets are not what this test is about: with the default one, a start caught by a long GC pause or a
     * descheduled worker on a loaded machine (seen: 300 ms) halts that actor with BUDGET before its message.
     */
    private static final TurnBudget PAUSE_PROOF = new TurnBudget(Duration.ofSeconds(1), Duration.ofSeconds(30), 3);

    @Test
    void aMillionActorsSpawnedAndHaltedLeaveNoResourcesBehind() throws InterruptedException {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(PAUSE_PROOF).build()) {
            CountDownLatch handled = new CountDownLatch(ACTORS);
            AtomicReference<ResourceCounts> heldByTheLast = new AtomicReference<>();
            ActorRef spawner = runtime.spawn("spawner", () -> new Spawner(runtime, handled, heldByTheLast));
            spawner.tell(Spawner.NEXT_CHUNK);

            assertTrue(handled.await(PATIENCE_SECONDS, TimeUnit.SECONDS),
                    () -> handled.getCount() + " of " + ACTORS + " actors never handled their message");
            ResourceCounts held = heldByTheLast.get();
            assertTrue(held.actors() >= 2 && held.timers() >= 1 && held.signals() >= 1 && held.parks() >= 1,
                    () -> "the last actor did not see its own resources counted: " + held);

            spawner.kill();
            assertEquals(ResourceCounts.NONE, awaitNoResources(runtime),
                    "every actor, timer, signal, park and arena is torn down by its halt, before any close");
        }
    }

    /** Spawns {@link #ACTORS} storm actors, at most {@link #CHUNK} per turn. */
    private static final class Spawner implements Behavior {
        static final Object NEXT_CHUNK = new Object();

        private final ActorRuntime runtime;
        private final CountDownLatch handled;
        private final AtomicReference<ResourceCounts> heldByTheLast;
        private int spawned;

        Spawner(ActorRuntime runtime, CountDownLatch handled, AtomicReference<ResourceCounts> heldByTheLast) {
            this.runtime = runtime;
            this.handled = handled;
            this.heldByTheLast = heldByTheLast;
        }

        @Override
        public void receive(ActorContext context, Object message) {
            int end = Math.min(ACTORS, spawned + CHUNK);
            // a chunk, or less when this turn is asked to yield, as every long loop should
            for (; spawned < end && !context.shouldYield(); spawned++) {
                boolean last = spawned == ACTORS - 1;
                boolean withArena = spawned % ARENA_EVERY == 0;
                context.spawn("storm", () -> new StormActor(withArena, handled, last ? heldByTheLast : null, runtime))
                        .tell(Boolean.TRUE);
            }
            if (spawned < ACTORS) {
                context.self().tell(NEXT_CHUNK);
            }
        }
    }

    /** Takes one of each resource when it starts, handles one message, and stops. */
    private static final class StormActor implements Behavior {
        private final boolean withArena;
        private final CountDownLatch handled;
        private final AtomicReference<ResourceCounts> witness;
        private final ActorRuntime runtime;

        StormActor(boolean withArena, CountDownLatch handled, AtomicReference<ResourceCounts> witness,
                ActorRuntime runtime) {
            this.withArena = withArena;
            this.handled = handled;
            this.witness = witness;
            this.runtime = runtime;
        }

        @Override
        public void started(ActorContext context) {
            context.delay(Duration.ofHours(1), c -> { }); // never due: only the halt can end it
            context.signal(SignalMode.MULTISHOT, (c, payload) -> { }, null);
            context.park((ParkCallback<Object>) (c, value) -> { }, null);
            if (withArena) {
                context.arena().allocate(8);
            }
        }

        @Override
        public void receive(ActorContext context, Object message) {
            if (witness != null) {
                witness.set(runtime.resources());
            }
            handled.countDown();
            context.stop();
        }
    }

    /** Polls until every count is zero or the patience runs out, and returns the last counts seen. */
    private static ResourceCounts awaitNoResources(ActorRuntime runtime) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TEARDOWN_PATIENCE_SECONDS);
        ResourceCounts counts = runtime.resources();
        while (!counts.equals(ResourceCounts.NONE) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            counts = runtime.resources();
        }
        return counts;
    }
}
