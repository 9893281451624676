package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link ActorContext#every}: one timer re-armed in place, on the runtime's clock (virtual here, so exact). */
class RepeatingTimerTest {
    private static final long MS = 1_000_000;

    @Test
    void firesEveryPeriodOnTheVirtualClock() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            List<Long> firedAt = new ArrayList<>();
            long start = spawnTicking(runtime, Duration.ofMillis(10), (context, timer) -> firedAt.add(context.nanoTime()));
            runtime.runUntilIdle(Duration.ofMillis(55));
            assertEquals(List.of(10 * MS, 20 * MS, 30 * MS, 40 * MS, 50 * MS), relative(firedAt, start));
            assertEquals(1, runtime.resources().timers(), "one timer for all its firings");
        }
    }

    @Test
    void cancelInItsOwnCallbackStopsItAndEndsIt() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            AtomicInteger fired = new AtomicInteger();
            spawnTicking(runtime, Duration.ofMillis(10), (context, timer) -> {
                if (fired.incrementAndGet() == 3) {
                    assertTrue(timer.cancel());
                    assertFalse(timer.isArmed());
                }
            });
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ofSeconds(1)));
            assertEquals(3, fired.get());
            assertEquals(0, runtime.resources().timers());
        }
    }

    @Test
    void aCancelAfterItsLetterWasQueuedRunsNothing() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            AtomicInteger fired = new AtomicInteger();
            AtomicReference<Timer> made = new AtomicReference<>();
            spawnTicking(runtime, Duration.ofMillis(10), (context, timer) -> fired.incrementAndGet(), made);
            assertEquals(1, runtime.advance(Duration.ofMillis(10)), "fired: its letter is in the mailbox");
            assertTrue(made.get().cancel());
            assertFalse(made.get().cancel());
            runtime.runUntilIdle(Duration.ofSeconds(1));
            assertEquals(0, fired.get());
            assertEquals(0, runtime.resources().timers());
        }
    }

    @Test
    void aStoppedActorReleasesItsRepeatingTimer() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            AtomicInteger fired = new AtomicInteger();
            AtomicReference<Timer> made = new AtomicReference<>();
            spawnTicking(runtime, Duration.ofMillis(10), (context, timer) -> {
                if (fired.incrementAndGet() == 2) {
                    context.stop();
                }
            }, made);
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ofSeconds(1)));
            assertEquals(2, fired.get());
            assertFalse(made.get().isArmed());
            assertEquals(ResourceCounts.NONE, runtime.resources());
        }
    }

    @Test
    void closingTheRuntimeReleasesARepeatingTimer() {
        AtomicReference<Timer> made = new AtomicReference<>();
        ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED);
        spawnTicking(runtime, Duration.ofMillis(10), (context, timer) -> { }, made);
        runtime.runUntilIdle(Duration.ofMillis(25));
        assertTrue(made.get().isArmed());
        runtime.close();
        assertFalse(made.get().isArmed());
        assertEquals(0, runtime.resources().timers());
    }

    @Test
    void deadlinesMissedByALateTickAreSkippedNotRunBackToBack() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            List<Long> firedAt = new ArrayList<>();
            long start = spawnTicking(runtime, Duration.ofMillis(10), (context, timer) -> firedAt.add(context.nanoTime()));
            runtime.advance(Duration.ofMillis(35)); // due at 10; 20 and 30 pass before its turn runs
            runtime.runUntilIdle(Duration.ofMillis(20));
            assertEquals(List.of(35 * MS, 40 * MS, 50 * MS), relative(firedAt, start), "the fixed-rate schedule goes on from 40");
        }
    }

    @Test
    void theSameSeedGivesTheSameTicksAndSchedule() {
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        Schedule schedule = twoTickers(first);
        assertEquals(schedule, twoTickers(second));
        assertEquals(first, second);
        assertEquals(2 * 12, first.size(), "each ticker fired every period of 120 ms");
    }

    @Test
    void aPeriodThatIsNotPositiveIsRefusedByName() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            AtomicReference<Throwable> refused = new AtomicReference<>();
            runtime.spawn("bad", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    refused.set(assertThrows(IllegalArgumentException.class, () -> context.every(Duration.ZERO, c -> { })));
                    assertThrows(IllegalArgumentException.class, () -> context.every(Duration.ofMillis(-1), c -> { }));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.runUntilIdle(Duration.ZERO);
            assertTrue(refused.get().getMessage().contains("period > 0"), refused.get().getMessage());
        }
    }

    @Test
    void aNegativeDelayIsRefusedByNameAndZeroIsAccepted() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            AtomicReference<Throwable> refused = new AtomicReference<>();
            List<String> fired = new ArrayList<>();
            runtime.spawn("bad", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    refused.set(assertThrows(IllegalArgumentException.class, () -> context.delay(Duration.ofMillis(-5), c -> fired.add("negative"))));
                    context.delay(Duration.ZERO, c -> fired.add("zero"));
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.runUntilIdle(Duration.ZERO);
            assertTrue(refused.get().getMessage().contains("delay must be >= 0"), refused.get().getMessage());
            assertEquals(List.of("zero"), fired);
        }
    }

    /**
     * The point of the repeating timer: a steady tick (fire, letter, turn, re-arm) allocates nothing. SINGLE_THREAD
     * with a 1 ns period, so every pass of {@code runUntilIdle} finds it due and no time needs to pass: bytes are
     * counted, never time. The first of many rounds that allocates nothing passes (the JIT needs rounds to compile
     * the path). A {@code runUntilIdle} call has a small fixed cost of its own (tens of bytes a call, whatever it
     * runs), so the bound is less than a byte per tick over 10,000 ticks in one call: a timer armed per tick
     * ({@code delay}: a timer, a letter) costs a hundred bytes and more per tick.
     */
    @Test
    void aSteadyTickAllocatesNothing() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM measures per-thread allocation");
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            long[] ticks = new long[1];
            runtime.spawn("ticker", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.every(Duration.ofNanos(1), c -> ticks[0]++);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            long allocated = Long.MAX_VALUE;
            long measuredTicks = 1;
            for (int round = 0; round < 60 && allocated >= measuredTicks; round++) {
                long ticksBefore = ticks[0];
                long before = threads.getCurrentThreadAllocatedBytes();
                runTicks(runtime, ticks, ticksBefore + 10_000);
                allocated = threads.getCurrentThreadAllocatedBytes() - before;
                measuredTicks = ticks[0] - ticksBefore;
            }
            assertTrue(allocated < measuredTicks, allocated + " bytes allocated by " + measuredTicks + " ticks, in the last of the rounds");
            assertEquals(1, runtime.resources().timers());
        }
    }

    /** Its own method, so the measured loop compiles as a host's drain loop would. */
    private static void runTicks(ActorRuntime runtime, long[] ticks, long until) {
        while (ticks[0] < until) {
            runtime.runUntilIdle(Duration.ZERO, until - ticks[0]);
        }
    }

    private static Schedule twoTickers(List<String> trace) {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SIMULATED).seed(42).build()) {
            for (String name : List.of("a", "b")) {
                runtime.spawn(name, () -> new Behavior() {
                    @Override
                    public void started(ActorContext context) {
                        context.every(Duration.ofMillis(10), c -> trace.add(name + "@" + c.nanoTime()));
                    }

                    @Override
                    public void receive(ActorContext context, Object message) {
                    }
                });
            }
            runtime.runUntilIdle(Duration.ofMillis(125));
            return runtime.schedule();
        }
    }

    /** What a test's callback sees: its context and the timer that fired. */
    private interface Tick {
        void run(ActorContext context, Timer timer);
    }

    private static long spawnTicking(ActorRuntime runtime, Duration period, Tick tick) {
        return spawnTicking(runtime, period, tick, new AtomicReference<>());
    }

    /** Spawns an actor that starts a repeating timer; runs its start turn. @return the clock when it armed */
    private static long spawnTicking(ActorRuntime runtime, Duration period, Tick tick, AtomicReference<Timer> made) {
        long[] armedAt = new long[1];
        runtime.spawn("ticker", () -> new Behavior() {
            @Override
            public void started(ActorContext context) {
                armedAt[0] = context.nanoTime();
                made.set(context.every(period, c -> tick.run(c, made.get())));
            }

            @Override
            public void receive(ActorContext context, Object message) {
            }
        });
        runtime.runUntilIdle(Duration.ZERO);
        return armedAt[0];
    }

    private static List<Long> relative(List<Long> times, long start) {
        return times.stream().map(t -> t - start).toList();
    }
}
