package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Turn budgets: the yield request and the slow band, strikes and their ceiling, the disruption at poll sites,
 * the frozen exemption, the start's kill timer; in virtual time (SIMULATED, exact), after the turn
 * (SINGLE_THREAD), and from the timer thread's watch (HOSTED, normal and lane turns).
 */
class TurnBudgetTest {
    private static final long MS = 1_000_000L;
    /** fast 1 ms, slow 2 ms, 3 strikes: with the default 1 µs poll cost, 1,000 simulated polls per millisecond. */
    private static final TurnBudget SMALL = new TurnBudget(Duration.ofMillis(1), Duration.ofMillis(2), 3);

    private static ActorRuntime simulated(long seed, TurnBudget budget) {
        return ActorRuntime.builder(Profile.SIMULATED).seed(seed).turnBudget(budget).build();
    }

    /** Polls until asked to yield; returns how many polls that took. */
    private static int pollUntilAskedToYield(ActorContext context) {
        int polls = 1;
        while (!context.shouldYield()) {
            polls++;
        }
        return polls;
    }

    @Test
    void aTurnPastItsFastBudgetIsAskedToYieldAndWaitsBehindEveryReadyActor() {
        for (long seed = 0; seed < 20; seed++) {
            List<String> trace = new ArrayList<>();
            AtomicInteger pollsToYield = new AtomicInteger();
            try (ActorRuntime runtime = simulated(seed, TurnBudget.DEFAULT)) {
                ActorRef worker = runtime.spawn("worker", () -> (context, message) -> {
                    trace.add("worker " + message);
                    if (message.equals("work")) {
                        pollsToYield.set(pollUntilAskedToYield(context));
                        context.self().tell("rest of the work"); // what a cooperative turn does with what is left
                    }
                });
                ActorRef other = runtime.spawn("other", () -> (context, message) -> trace.add("other " + message));
                runtime.runUntilIdle(Duration.ZERO); // both started
                worker.tell("work");
                runtime.runUntilIdle(Duration.ZERO, 1); // the worker's long turn, and only it
                assertEquals(List.of("worker work"), trace, "seed " + seed);
                for (int i = 1; i <= 3; i++) {
                    other.tell(i);
                }
                assertEquals(RunStatus.IDLE, runtime.runUntilIdle(Duration.ZERO));
                assertEquals(List.of("worker work", "other 1", "other 2", "other 3", "worker rest of the work"), trace,
                        "seed " + seed + ": the yielded worker waits in the slow band behind every ready actor");
                assertEquals(10_000, pollsToYield.get(), "10 ms fast budget / 1 µs per simulated poll");
                assertFalse(worker.isTerminated(), "asked to yield and yielded: no strike, no halt");
            }
        }
    }

    @Test
    void turnsPastTheSlowBudgetEarnStrikesAndTheCeilingHaltsTheActorWithBudget() {
        AtomicInteger turns = new AtomicInteger();
        try (ActorRuntime runtime = simulated(1, SMALL)) {
            ActorRef slow = runtime.spawn("slow", () -> (context, message) -> {
                turns.incrementAndGet();
                int polls = (Integer) message;
                for (int i = 0; i < polls; i++) {
                    context.checkpoint(); // ignores the yield request
                }
            });
            // 2.5 ms turns: past the slow budget (2 ms), short of the disruption (fast + slow = 3 ms).
            for (int polls : new int[] {2_500, 2_500, 100, 2_500, 2_500}) {
                slow.tell(polls);
            }
            runtime.runUntilIdle(Duration.ZERO);
            assertFalse(slow.isTerminated(), "a turn within budget between strikes starts the count again");
            assertEquals(2, runtime.snapshot().actors().stream().filter(row -> row.name().equals("slow")).findFirst().orElseThrow().strikes(),
                    "the snapshot shows the strikes so far");
            slow.tell(2_500);
            slow.tell(2_500);
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(ExitReason.BUDGET, slow.exitReason().orElseThrow());
            assertEquals(6, turns.get(), "the third strike in a row halts: the seventh letter never runs");
        }
    }

    @Test
    void aTurnThatRunsASlowBudgetPastTheYieldRequestIsDisruptedAtEveryPollSiteEvenIfItCatches() {
        AtomicInteger pollsBeforeDisruption = new AtomicInteger();
        AtomicInteger disruptions = new AtomicInteger();
        AtomicReference<String> afterwards = new AtomicReference<>();
        List<Down> downs = new CopyOnWriteArrayList<>();
        try (ActorRuntime runtime = simulated(2, SMALL)) {
            ActorRef stubborn = runtime.spawn("stubborn", () -> (context, message) -> {
                while (disruptions.get() < 5) {
                    try {
                        context.checkpoint();
                        pollsBeforeDisruption.incrementAndGet();
                    } catch (TurnDisrupted caught) {
                        disruptions.incrementAndGet(); // catching it does not help
                    }
                }
                try {
                    context.self(); // any context call is a poll site
                    afterwards.set("not disrupted");
                } catch (TurnDisrupted again) {
                    afterwards.set("disrupted again");
                }
            });
            runtime.spawn("watcher", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.monitor(stubborn);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    downs.add((Down) message);
                }
            });
            runtime.runUntilIdle(Duration.ZERO);
            stubborn.tell("go");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(2_999, pollsBeforeDisruption.get(), "disrupted at the poll that reaches fast + slow = 3 ms");
            assertEquals(5, disruptions.get());
            assertEquals("disrupted again", afterwards.get());
            assertEquals(ExitReason.BUDGET, stubborn.exitReason().orElseThrow(), "a budget halt, not a failure");
            assertEquals(List.of(new Down(stubborn, ExitReason.BUDGET)), downs);
        }
    }

    @Test
    void aFrozenActorIsNeitherAskedToYieldNorStruckNorDisruptedUntilItThaws() {
        AtomicInteger yieldRequests = new AtomicInteger();
        try (ActorRuntime runtime = simulated(3, SMALL)) {
            ActorRef debuggee = runtime.spawn("debuggee", () -> (context, message) -> {
                for (int i = 0; i < 10_000; i++) { // 10 ms: every budget three times over
                    if (context.shouldYield()) {
                        yieldRequests.incrementAndGet();
                    }
                }
            });
            runtime.runUntilIdle(Duration.ZERO);
            debuggee.freeze();
            assertTrue(debuggee.isFrozen());
            for (int i = 0; i < 4; i++) {
                debuggee.tell("step");
            }
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(0, yieldRequests.get());
            assertFalse(debuggee.isTerminated(), "four turns past every budget, frozen");
            debuggee.thaw();
            debuggee.tell("step");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(ExitReason.BUDGET, debuggee.exitReason().orElseThrow(), "thawed, the same turn is disrupted");
            assertTrue(yieldRequests.get() > 0);
        }
    }

    @Test
    void aStartHasItsOwnKillTimerAtSlowTimesTheCeilingAndIsNeverAskedToYield() {
        AtomicInteger polls = new AtomicInteger();
        AtomicInteger yieldRequests = new AtomicInteger();
        try (ActorRuntime runtime = simulated(4, SMALL)) {
            ActorRef starter = runtime.spawn("starter", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    while (true) {
                        if (context.shouldYield()) {
                            yieldRequests.incrementAndGet();
                        }
                        polls.incrementAndGet();
                    }
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(ExitReason.BUDGET, starter.exitReason().orElseThrow());
            assertEquals(5_999, polls.get(), "disrupted at 6 ms: slow 2 ms × 3 strikes");
            assertEquals(0, yieldRequests.get());
        }
    }

    @Test
    void perActorBudgetsOverrideTheRuntimes() {
        AtomicInteger pollsToYield = new AtomicInteger();
        try (ActorRuntime runtime = simulated(5, TurnBudget.DEFAULT)) {
            ActorRef quick = runtime.spawn("quick", SpawnOptions.DEFAULT.withBudget(SMALL),
                    () -> (context, message) -> pollsToYield.set(pollUntilAskedToYield(context)));
            quick.tell("go");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(1_000, pollsToYield.get(), "its own 1 ms fast budget, not the runtime's 10 ms");
        }
    }

    /** A SINGLE_THREAD turn that busy-waits {@code millis} of wall time, polling all along. */
    private static Behavior busyFor(long millis, AtomicInteger turns, AtomicInteger yieldRequests) {
        return (context, message) -> {
            turns.incrementAndGet();
            long end = System.nanoTime() + millis * MS;
            while (System.nanoTime() < end) {
                context.checkpoint();
                if (context.shouldYield()) {
                    yieldRequests.incrementAndGet();
                }
            }
        };
    }

    @Test
    void singleThreadCountsStrikesAfterTheTurnAndNeverAsksMidTurn() {
        AtomicInteger yieldRequests = new AtomicInteger();
        AtomicInteger turns = new AtomicInteger();
        // 130 ms turns: past the slow budget (100 ms), well short of fast + slow (200 ms) on a busy machine.
        TurnBudget budget = new TurnBudget(Duration.ofMillis(100), Duration.ofMillis(100), 2);
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).turnBudget(budget).build()) {
            ActorRef busy = runtime.spawn("busy", () -> busyFor(130, turns, yieldRequests));
            runtime.drain();
            busy.tell(1);
            runtime.drain();
            assertFalse(busy.isTerminated(), "one strike of two");
            busy.tell(2);
            runtime.drain();
            assertEquals(ExitReason.BUDGET, busy.exitReason().orElseThrow(), "the second strike, counted after the turn");
            assertEquals(2, turns.get());
            assertEquals(0, yieldRequests.get(), "nothing watches a SINGLE_THREAD turn while it runs");
        }
    }

    @Test
    void singleThreadHaltsATurnThatRanPastTheDisruptionOnlyOnceItHasReturned() {
        AtomicInteger yieldRequests = new AtomicInteger();
        AtomicInteger turns = new AtomicInteger();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).turnBudget(SMALL).build()) {
            ActorRef busy = runtime.spawn("busy", () -> busyFor(7, turns, yieldRequests)); // past fast + slow = 3 ms
            runtime.drain();
            busy.tell(1);
            runtime.drain();
            assertEquals(1, turns.get(), "the turn ran to its end: no mid-turn disruption");
            assertEquals(ExitReason.BUDGET, busy.exitReason().orElseThrow(), "halted after it, as HOSTED would have halted it");
            assertEquals(0, yieldRequests.get());
        }
    }

    @Test
    void theHostedWatchAsksASpinningTurnToYieldThenDisruptsIt() throws InterruptedException {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(5), Duration.ofMillis(20), 3);
        AtomicInteger yieldRequests = new AtomicInteger();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(budget).build()) {
            ActorRef spinner = runtime.spawn("spinner", () -> (context, message) -> {
                while (true) { // ignores the request: only the disruption ends this turn
                    if (context.shouldYield()) {
                        yieldRequests.incrementAndGet();
                    }
                }
            });
            CountDownLatch down = Downs.awaitable(runtime, spinner);
            spinner.tell("spin");
            assertTrue(down.await(30, TimeUnit.SECONDS), "the spinning turn was never disrupted");
            assertEquals(ExitReason.BUDGET, spinner.exitReason().orElseThrow());
            assertTrue(yieldRequests.get() > 0, "asked to yield before it was disrupted");
        }
    }

    @Test
    void aLaneActorThatSpinsInsideADriveIsDisruptedAndTheHostsDriveReturns() throws InterruptedException {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(2), Duration.ofMillis(5), 1);
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef mixer = runtime.spawnOnLane("audio", "mixer", SpawnOptions.DEFAULT.withBudget(budget),
                    () -> (context, message) -> {
                        while (true) {
                            context.checkpoint();
                        }
                    });
            AtomicReference<DriveStatus> last = new AtomicReference<>();
            Thread host = Thread.ofPlatform().name("audio-callback").start(() -> {
                last.set(lane.drive(1).status()); // the start
                mixer.tell("mix");
                last.set(lane.drive(1).status()); // the runaway turn: must come back
            });
            host.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(host.isAlive(), "the host's drive never returned");
            assertEquals(DriveStatus.OK, last.get());
            assertEquals(ExitReason.BUDGET, mixer.exitReason().orElseThrow());
        }
    }

    /** An actor whose turn, once sent anything, polls {@code checkpoint()} until it is disrupted. */
    private static ActorRef spawnCheckpointSpinner(ActorRuntime runtime) {
        return runtime.spawn("spinner", () -> (context, message) -> {
            while (true) {
                context.checkpoint();
            }
        });
    }

    @Test
    void theWatchSleepsWhenNoTurnRunsAndTheNextTurnWakesIt() throws InterruptedException {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(5), Duration.ofMillis(20), 3);
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(budget).build()) {
            ActorRef spinner = spawnCheckpointSpinner(runtime);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!runtime.context().budgetWatchAsleep) { // the start ran; then a quiet second
                assertTrue(System.nanoTime() < deadline, "the budget watch never went to sleep in an idle runtime");
                Thread.onSpinWait();
            }
            CountDownLatch halted = Downs.awaitable(runtime, spinner);
            spinner.tell("spin");
            assertTrue(halted.await(30, TimeUnit.SECONDS), "a turn that started while the watch slept was never disrupted");
            assertEquals(ExitReason.BUDGET, spinner.exitReason().orElseThrow());
        }
    }

    @Test
    void aTurnStartedRightAfterBuildIsWatchedWithoutWaitingForTheTimerThreadsOwnPace() throws InterruptedException {
        // The timer thread's own pace is half the lane stall threshold: half an hour here. A watch that waited that
        // long before its first look (and had not announced that it sleeps, so no turn wakes it) never sees the turn.
        TurnBudget budget = new TurnBudget(Duration.ofMillis(5), Duration.ofMillis(20), 3);
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(budget)
                .laneStallThreshold(Duration.ofHours(1)).build()) {
            ActorRef spinner = spawnCheckpointSpinner(runtime);
            CountDownLatch down = Downs.awaitable(runtime, spinner);
            spinner.tell("spin");
            assertTrue(down.await(30, TimeUnit.SECONDS), "a turn started before the watch's first look was never disrupted");
            assertEquals(ExitReason.BUDGET, spinner.exitReason().orElseThrow());
        }
    }

    @Test
    void aHostedTurnThatReachesNoPollSiteIsStruckNotDisruptedAndOneThatDoesIsHalted() {
        // This test is the budget clock (raise at instants it chooses: no clock is read) and the runner (begin,
        // settle) of a HOSTED cell that is in no watched run queue, so the timer thread's watch never sees it.
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(SMALL).build()) {
            RuntimeContext context = runtime.context();
            ActorCell cell = new ActorCell(1, "sleeper", Placement.NORMAL, context, new RunQueue("test", null, null, new WorkFlag()),
                    null, null, context.defaultBudget, context.mailboxCapacity, SpawnOptions.DEFAULT, () -> (c, m) -> { });
            TurnClock clock = cell.context.clock;
            long t = 1_000 * MS;

            clock.begin(0); // a turn that sleeps past fast + slow and calls no context method
            clock.raise(t); // first sight: its start
            clock.raise(t + MS); // fast 1 ms: the yield request
            clock.raise(t + 3 * MS); // slow 2 ms after the request: DISRUPT (and STRIKE), which no poll site reaches
            int band = clock.settle();
            assertEquals(null, cell.exitReason(), "no poll site threw, and one slow turn may be the machine's fault: no halt");
            assertEquals(1, clock.strikes(), "one strike of three, as any turn past the slow budget");
            assertEquals(RunQueue.SLOW_BAND, band, "asked to yield: the slow band");

            clock.begin(0); // the same, but this turn reaches a poll site after the disruption
            clock.raise(t + 10 * MS);
            clock.raise(t + 11 * MS);
            clock.raise(t + 13 * MS);
            assertThrows(TurnDisrupted.class, clock::poll);
            assertTrue(clock.disrupted());
            clock.settle();
            assertEquals(ExitReason.BUDGET, cell.exitReason(), "a disruption thrown at a poll site halts at once");
        }
    }

    @Test
    void badBudgetsAreRefusedNamingTheProblem() {
        assertEquals("the fast budget must be positive; got PT0S",
                assertThrows(IllegalArgumentException.class, () -> new TurnBudget(Duration.ZERO, Duration.ofMillis(1), 1)).getMessage());
        assertEquals("the slow budget (PT0.001S) must not be shorter than the fast budget (PT0.002S)",
                assertThrows(IllegalArgumentException.class, () -> new TurnBudget(Duration.ofMillis(2), Duration.ofMillis(1), 1)).getMessage());
        assertEquals("the strike ceiling must be at least 1; got 0",
                assertThrows(IllegalArgumentException.class, () -> new TurnBudget(Duration.ofMillis(1), Duration.ofMillis(1), 0)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new TurnBudget(Duration.ofMillis(1), Duration.ofDays(365 * 200), 3)).getMessage().contains("longer than the runtime clock can count"));
        assertThrows(NullPointerException.class, () -> SpawnOptions.DEFAULT.withBudget(null));
    }
}
