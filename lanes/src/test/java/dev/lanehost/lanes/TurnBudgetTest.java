package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.budget.ThreadCpu;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.lane.LaneRegistry;
import dev.lanehost.lanes.queue.WorkFlag;
import dev.lanehost.lanes.scheduler.BudgetWatch;
import dev.lanehost.lanes.turn.TurnClock;
import dev.lanehost.lanes.turn.TurnRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
    void singleThreadHaltsATurnPastTheDisruptionOnlyOnceItHasReturnedAndOnlyIfItWasTheActorsDoing() {
        // SMALL: fast 1 ms, slow 2 ms, ceiling 3, so a disruption at fast + slow = 3 ms. Each turn busy-waits for as
        // many ms as its message's first number says, of which the CPU clock the test moves counts the second.
        AtomicLong cpu = new AtomicLong();
        AtomicInteger cpuReads = new AtomicInteger();
        AtomicInteger turns = new AtomicInteger();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.SINGLE_THREAD).turnBudget(SMALL).build()) {
            Thread runner = Thread.currentThread();
            runtime.context().threadCpu = thread -> {
                cpuReads.incrementAndGet();
                return thread == runner ? cpu.get() : ThreadCpu.UNKNOWN;
            };
            ActorRef busy = runtime.spawn("busy", () -> (context, message) -> {
                long[] wallAndCpu = (long[]) message;
                turns.incrementAndGet();
                long end = System.nanoTime() + wallAndCpu[0] * MS;
                while (System.nanoTime() < end) {
                    context.checkpoint();
                }
                cpu.addAndGet(wallAndCpu[1] * MS);
            });
            runtime.drain();

            busy.tell(new long[] {7, 7});
            runtime.drain();
            assertEquals(1, turns.get(), "the turn ran to its end: no mid-turn disruption");
            assertFalse(busy.isTerminated(), "the first turn past fast + slow cannot be told from a thread held off the CPU");
            assertEquals(0, cpuReads.get(), "a turn of an actor without a strike reads no CPU time");

            busy.tell(new long[] {7, 1}); // its thread off the CPU for 6 of its 7 ms
            runtime.drain();
            assertFalse(busy.isTerminated(), "held off the CPU: the second strike of three, not a halt");

            busy.tell(new long[] {0, 0}); // within budget: clears the strikes
            runtime.drain(); // (a pass runs one turn of each actor)
            busy.tell(new long[] {7, 7}); // a strike again, unmeasured
            runtime.drain();
            assertFalse(busy.isTerminated(), "a turn within budget cleared the strikes");

            try (CapturedLog log = new CapturedLog()) {
                busy.tell(new long[] {7, 7}); // an actor with a strike runs past fast + slow on the CPU: halted after it
                runtime.drain();
                assertEquals(ExitReason.BUDGET, busy.exitReason().orElseThrow());
                assertEquals(1, log.matching(java.util.logging.Level.WARNING, "'busy'", "halted (budget)",
                        "past fast + slow (3 ms), 7 ms of it on the CPU, after a turn past the slow budget").size(),
                        () -> log.matching(java.util.logging.Level.WARNING).toString());
            }
            assertEquals(5, turns.get());
        }
    }

    @Test
    void theHostedWatchAsksASpinningTurnToYieldThenDisruptsIt() throws InterruptedException {
        TurnBudget budget = new TurnBudget(Duration.ofMillis(5), Duration.ofMillis(20), 3);
        AtomicInteger yieldRequests = new AtomicInteger();
        AtomicReference<String> disruption = new AtomicReference<>();
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(budget).build()) {
            ActorRef spinner = runtime.spawn("spinner", () -> (context, message) -> {
                try {
                    while (true) { // ignores the request: only the disruption ends this turn
                        if (context.shouldYield()) {
                            yieldRequests.incrementAndGet();
                        }
                    }
                } catch (TurnDisrupted disrupted) {
                    disruption.set(disrupted.getMessage());
                    throw disrupted;
                }
            });
            CountDownLatch down = Downs.awaitable(runtime, spinner);
            spinner.tell("spin");
            assertTrue(down.await(30, TimeUnit.SECONDS), "the spinning turn was never disrupted");
            assertEquals(ExitReason.BUDGET, spinner.exitReason().orElseThrow());
            assertTrue(yieldRequests.get() > 0, "asked to yield before it was disrupted");
            assertTrue(disruption.get().contains("of it on the CPU (the slow budget is 20 ms)"),
                    "the watch read the worker's own CPU time: " + disruption.get());
        }
    }

    @Test
    void aLaneActorThatSpinsInsideADriveIsDisruptedAndTheHostsDriveReturns() throws InterruptedException {
        // A ceiling of 20 puts the off-CPU cap 100 ms after the request: a GC pause cannot send the spinner down that path.
        TurnBudget budget = new TurnBudget(Duration.ofMillis(2), Duration.ofMillis(5), 20);
        AtomicReference<String> disruption = new AtomicReference<>();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef mixer = runtime.spawnOnLane("audio", "mixer", SpawnOptions.DEFAULT.withBudget(budget),
                    () -> (context, message) -> {
                        try {
                            while (true) {
                                context.checkpoint();
                            }
                        } catch (TurnDisrupted disrupted) {
                            disruption.set(disrupted.getMessage());
                            throw disrupted;
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
            assertTrue(disruption.get().contains("of it on the CPU (the slow budget is 5 ms)"),
                    "the watch read the host thread's CPU time: " + disruption.get());
        }
    }

    @Test
    void aHostedTurnWhoseThreadWaitsPastTheSlowBudgetAfterItsYieldRequestIsNotDisrupted() throws InterruptedException {
        // A wait inside the turn stands in for a thread the machine holds off the CPU: wall time passes, CPU time does not.
        TurnBudget budget = new TurnBudget(Duration.ofMillis(5), Duration.ofMillis(20), 50);
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch never = new CountDownLatch(1);
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(budget).build()) {
            CountDownLatch second = new CountDownLatch(1);
            CountDownLatch stalled = new CountDownLatch(1);
            ActorRef held = runtime.spawn("held-off", () -> (context, message) -> {
                if (message.equals("stall")) {
                    while (!context.shouldYield()) {
                        Thread.onSpinWait(); // runs until the watch asks it to yield
                    }
                    try {
                        seen.add("released early: " + never.await(100, TimeUnit.MILLISECONDS)); // 5 slow budgets, off the CPU
                        context.checkpoint(); // without the CPU check the watch raised DISRUPT long ago: this would throw
                        seen.add("not disrupted");
                    } catch (TurnDisrupted disrupted) {
                        seen.add("disrupted: " + disrupted.getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        stalled.countDown();
                    }
                } else {
                    second.countDown();
                }
            });
            held.tell("stall");
            held.tell("next");
            assertTrue(stalled.await(30, TimeUnit.SECONDS), "the stalled turn never ended");
            assertEquals(List.of("released early: false", "not disrupted"), seen);
            assertTrue(second.await(30, TimeUnit.SECONDS), "the actor did not take its next letter: exit " + held.exitReason());
            assertTrue(held.exitReason().isEmpty(), "one turn held off the CPU earns a strike, not a halt");
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
            TurnClock clock = TurnRunner.of(cell).clock;
            long t = 1_000 * MS;

            clock.begin(0); // a turn that sleeps past fast + slow and calls no context method
            clock.raise(t, null); // first sight: its start
            clock.raise(t + MS, null); // fast 1 ms: the yield request
            clock.raise(t + 3 * MS, null); // slow 2 ms after the request: DISRUPT (and STRIKE), which no poll site reaches
            int band = clock.settle();
            assertEquals(null, cell.exitReason(), "no poll site threw, and one slow turn may be the machine's fault: no halt");
            assertEquals(1, clock.strikes(), "one strike of three, as any turn past the slow budget");
            assertEquals(RunQueue.SLOW_BAND, band, "asked to yield: the slow band");

            clock.begin(0); // the same, but this turn reaches a poll site after the disruption
            clock.raise(t + 10 * MS, null);
            clock.raise(t + 11 * MS, null);
            clock.raise(t + 13 * MS, null);
            assertThrows(TurnDisrupted.class, clock::poll);
            assertTrue(clock.disrupted());
            clock.settle();
            assertEquals(ExitReason.BUDGET, cell.exitReason(), "a disruption thrown at a poll site halts at once");
        }
    }

    @Test
    void aTurnThatBeginsWhileTheWatchIsMidLookIsNotChargedForTheLook() {
        // The watch of a cell in a queue the test owns. Its look began 10 s ago (the timer thread read the clock, then
        // was held off the CPU), and meanwhile a turn began: stamped with the look's start, the turn would have run
        // 10 s at the next look, past a fast budget of 1 s and a slow one of 2 s.
        TurnBudget seconds = new TurnBudget(Duration.ofSeconds(1), Duration.ofSeconds(2), 3);
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(seconds).build()) {
            RuntimeContext context = runtime.context();
            RunQueue queue = new RunQueue("test", null, null, new WorkFlag());
            ActorCell cell = new ActorCell(1, "short", Placement.NORMAL, context, queue, null, null, context.defaultBudget,
                    context.mailboxCapacity, SpawnOptions.DEFAULT, () -> (c, m) -> { });
            BudgetWatch watch = new BudgetWatch(context, List.of(queue), new LaneRegistry());
            long lookBegan = System.nanoTime() - 10_000 * MS;

            queue.turnStarting(cell); // as the runner starts a turn: its run queue's slot, then the clock's start
            TurnRunner.of(cell).clock.begin(0);
            watch.observe(lookBegan, 60_000 * MS); // first sight of the turn, in the look that began 10 s ago
            watch.observe(System.nanoTime(), 60_000 * MS); // the next look
            int band = TurnRunner.of(cell).clock.settle();
            queue.turnEnded();
            assertEquals(RunQueue.READY_BAND, band, "a turn that ran for microseconds was asked to yield");
            assertEquals(0, TurnRunner.of(cell).clock.strikes(), "a turn that ran for microseconds was struck");
        }
    }

    @Test
    void aHostedTurnHeldOffTheCpuAfterItsYieldRequestIsStruckNotDisruptedUntilSlowTimesTheCeiling() {
        // The budget clock and the runner of a cell in no watched queue, as above, with a CPU clock the test moves:
        // the runner thread's CPU time is what the test says it is.
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(SMALL).build()) {
            RuntimeContext context = runtime.context();
            AtomicLong cpu = new AtomicLong(5 * MS);
            AtomicInteger cpuReads = new AtomicInteger();
            Thread runner = Thread.currentThread();
            context.threadCpu = thread -> {
                cpuReads.incrementAndGet();
                return thread == runner ? cpu.get() : ThreadCpu.UNKNOWN;
            };
            ActorCell cell = new ActorCell(1, "held-off", Placement.NORMAL, context, new RunQueue("test", null, null, new WorkFlag()),
                    null, null, context.defaultBudget, context.mailboxCapacity, SpawnOptions.DEFAULT, () -> (c, m) -> { });
            TurnRunner.of(cell).turnThread = runner; // as the runner sets it for its turn
            TurnClock clock = TurnRunner.of(cell).clock;
            long t = 1_000 * MS;

            clock.begin(0); // fast 1 ms, slow 2 ms, 3 strikes: the CPU-time cap is 6 ms after the request
            clock.raise(t, runner);
            clock.raise(t + MS, runner); // the yield request, at CPU 5 ms
            cpu.addAndGet(MS / 2); // half a ms on the CPU, then the thread is held off
            long next = clock.raise(t + 3 * MS, runner); // a slow budget after the request, 0.5 ms of CPU: not yet
            clock.poll();
            assertEquals(t + 3 * MS + MS / 2, next, "looks again when the turn could have used the other half ms of CPU");
            assertEquals(t + 5 * MS + MS / 2, clock.raise(t + 5 * MS, runner));
            clock.poll(); // still held off: no disruption
            assertEquals(t + 7 * MS, clock.raise(t + 6 * MS + 6 * MS / 10, runner), "no later than the cap: slow x ceiling after the request");
            clock.poll();
            clock.raise(t + 7 * MS, runner); // the cap: disrupted whatever its CPU time
            int reads = cpuReads.get();
            clock.raise(t + 8 * MS, runner);
            clock.raise(t + 9 * MS, runner);
            assertEquals(reads, cpuReads.get(), "a turn already disrupted is not measured again");
            TurnDisrupted capped = assertThrows(TurnDisrupted.class, clock::poll);
            String because = "had not returned 6 ms (slow budget × strike ceiling) after it was asked to yield,"
                    + " though only 0.5 ms of that on the CPU";
            assertTrue(capped.getMessage().contains(because), capped.getMessage());
            try (CapturedLog log = new CapturedLog()) {
                clock.settle();
                assertEquals(1, log.matching(java.util.logging.Level.WARNING, "'held-off'", "halted (budget)", because).size(),
                        "the halt's log line gives the same reason as the disruption");
            }
            assertEquals(ExitReason.BUDGET, cell.exitReason());
        }
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).turnBudget(SMALL).build()) {
            RuntimeContext context = runtime.context();
            AtomicLong cpu = new AtomicLong(0);
            Thread runner = Thread.currentThread();
            context.threadCpu = thread -> thread == runner ? cpu.get() : ThreadCpu.UNKNOWN;
            ActorCell cell = new ActorCell(1, "held-then-spinning", Placement.NORMAL, context,
                    new RunQueue("test", null, null, new WorkFlag()), null, null, context.defaultBudget, context.mailboxCapacity,
                    SpawnOptions.DEFAULT, () -> (c, m) -> { });
            TurnRunner.of(cell).turnThread = runner;
            TurnClock clock = TurnRunner.of(cell).clock;
            long t = 1_000 * MS;

            clock.begin(0); // held off for the first slow budget after its request, not disrupted...
            clock.raise(t, runner);
            clock.raise(t + MS, runner);
            clock.raise(t + 3 * MS, runner);
            clock.poll();
            int band = clock.settle();
            assertEquals(null, cell.exitReason(), "a turn held off the CPU returns with a strike, not a halt");
            assertEquals(1, clock.strikes());
            assertEquals(RunQueue.SLOW_BAND, band);

            clock.begin(0); // ...but a turn that spends half a slow budget on the CPU after its request is disrupted
            clock.raise(t + 10 * MS, runner);
            clock.raise(t + 11 * MS, runner);
            cpu.addAndGet(MS);
            clock.raise(t + 13 * MS, runner);
            TurnDisrupted spun = assertThrows(TurnDisrupted.class, clock::poll);
            assertTrue(spun.getMessage().contains("it ran on for 2 ms after it was asked to yield, 1 ms of it on the CPU"
                    + " (the slow budget is 2 ms)"), spun.getMessage());
            clock.settle();
            assertEquals(ExitReason.BUDGET, cell.exitReason());
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
