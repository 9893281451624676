package dev.lanehost.callgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.SpawnOptions;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every status of the Java entries. (tests/ reaches each of them again from C pthreads.) */
class CallGateTest {
    private static final Duration LONG = Duration.ofSeconds(30);
    private final ExecutorService host = Executors.newSingleThreadExecutor(r -> new Thread(r, "host-callback"));
    private final ExecutorService caller = Executors.newSingleThreadExecutor(r -> new Thread(r, "caller"));

    @AfterEach
    void stop() {
        host.shutdownNow();
        caller.shutdownNow();
    }

    private <T> T onHost(Callable<T> work) throws Exception {
        return host.submit(work).get(30, TimeUnit.SECONDS);
    }

    @Test
    void okReturnsThePlainResultSerialisedWithTheActorsOtherLetters() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            AtomicInteger seen = new AtomicInteger();
            ActorRef counter = runtime.spawn("counter", () -> (context, message) -> seen.incrementAndGet());
            CallGate gate = CallGate.open(counter, (context, args) -> Map.of("echo", args, "messagesBefore", seen.get()));
            for (int i = 0; i < 3; i++) {
                counter.tell(i);
            }
            CallResult result = gate.call(List.of(1, "two"), LONG);
            assertEquals(CallStatus.OK, result.status(), result.detail());
            assertEquals(Map.of("echo", List.of(1L, "two"), "messagesBefore", 3L), result.value());
            assertEquals(1, gate.callsWithStatus(CallStatus.OK));
        }
    }

    @Test
    void aCallNotStartedWhenTheCallerGivesUpIsRemovedAndNeverRuns() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicInteger ran = new AtomicInteger();
            ActorRef actor = runtime.spawn("idle", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> ran.incrementAndGet());
            CallResult result = gate.call(null, Duration.ofMillis(20)); // nobody drains: it cannot start
            assertEquals(CallStatus.TIMED_OUT, result.status());
            assertTrue(result.detail().contains("will not run"), result.detail());
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(0, ran.get());
            assertEquals(0, gate.pendingCalls());
            assertEquals(0, gate.discardedResults());
        }
    }

    /**
     * A timeout of 0 looks at the outcome once. The spin observer runs the actor's turn (SINGLE_THREAD: whoever
     * drains runs it) on the caller's thread at its first spin, so a caller that spun before looking at its deadline
     * would find the call done and answer OK; one that looks once answers TIMED_OUT, and the call never runs.
     */
    @Test
    void aTimeoutOfZeroLooksOnceAndNeverWaitsForACallThatWouldCompleteWhileItSpun() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger spins = new AtomicInteger();
            ActorRef actor = runtime.spawn("fast", () -> (c, m) -> { });
            runtime.runUntilIdle(Duration.ZERO); // its start turn
            CallGate gate = CallGate.open(actor, (context, args) -> ran.incrementAndGet());
            GateCall.spinObserver = call -> {
                spins.incrementAndGet();
                runtime.runUntilIdle(Duration.ZERO);
            };
            CallResult result;
            try {
                result = gate.call(null, Duration.ZERO);
            } finally {
                GateCall.spinObserver = null;
            }
            assertEquals(CallStatus.TIMED_OUT, result.status(), "the call completed while the caller spun: " + result);
            assertTrue(result.detail().contains("will not run"), result.detail());
            assertEquals(0, spins.get(), "a timeout of 0 does not spin");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(0, ran.get(), "the timed-out call was cancelled before it started");
            assertEquals(0, gate.pendingCalls());
        }
    }

    @Test
    void aRunningCallThatOutlivesItsCallerCompletesAndIsCountedAsDiscarded() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger finished = new AtomicInteger();
            ActorRef actor = runtime.spawn("slow", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> {
                entered.countDown();
                release.await();
                return finished.incrementAndGet();
            });
            Future<CallResult> pending = caller.submit(() -> gate.call("x", Duration.ofMillis(200)));
            assertTrue(entered.await(30, TimeUnit.SECONDS));
            CallResult result = pending.get(30, TimeUnit.SECONDS);
            assertEquals(CallStatus.TIMED_OUT, result.status());
            assertTrue(result.detail().contains("discarded"), result.detail());
            release.countDown();
            awaitTrue(() -> gate.discardedResults() == 1);
            assertEquals(1, finished.get(), "the running call completed");
        }
    }

    @Test
    void theBlockingEntryIsRefusedOnTheActorsOwnLaneThread() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef actor = runtime.spawnOnLane("audio", "synth", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> "never");
            CallResult result = onHost(() -> {
                lane.drive(0);
                return gate.call(null, LONG);
            });
            assertEquals(CallStatus.WRONG_THREAD, result.status());
            assertTrue(result.detail().contains("callOnLane"), result.detail());
            assertTrue(result.detail().startsWith("the blocking call entry was used on lane 'audio''s bound thread, which runs"
                    + " actor synth's turns"), result.detail());
            assertTrue(actor.kill());
            CallResult afterHalt = onHost(() -> {
                lane.drive(0); // the teardown
                return gate.call(null, LONG);
            });
            assertEquals(CallStatus.ACTOR_TERMINATED, afterHalt.status(), "nothing to wait on once the actor has halted: "
                    + afterHalt.detail());
        }
    }

    @Test
    void theBlockingEntryFromABlockingOrAWorkerTurnSaysWhyItCouldWaitOnItself() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef blockingTarget = runtime.spawnBlocked("blocking-target", () -> (c, m) -> { });
            ActorRef normalTarget = runtime.spawn("normal-target", () -> (c, m) -> { });
            CallGate toBlocking = CallGate.open(blockingTarget, (context, args) -> "never");
            CallGate toNormal = CallGate.open(normalTarget, (context, args) -> "never");
            CompletableFuture<CallResult> fromBlocking = new CompletableFuture<>();
            CompletableFuture<CallResult> fromWorker = new CompletableFuture<>();
            runtime.spawnBlocked("blocking-caller", () -> (c, m) -> fromBlocking.complete(toBlocking.call(null, LONG))).tell("go");
            runtime.spawn("worker-caller", () -> (c, m) -> fromWorker.complete(toNormal.call(null, LONG))).tell("go");
            CallResult blocked = fromBlocking.get(30, TimeUnit.SECONDS);
            assertEquals(CallStatus.WRONG_THREAD, blocked.status());
            assertTrue(blocked.detail().contains("on a blocking thread, and actor blocking-target's turns need a free one"),
                    blocked.detail());
            CallResult worker = fromWorker.get(30, TimeUnit.SECONDS);
            assertEquals(CallStatus.WRONG_THREAD, worker.status());
            assertTrue(worker.detail().contains("any HOSTED worker may run a normal actor"), worker.detail());
        }
    }

    @Test
    void callOnLaneDrivesTheLaneUntilTheResultIsReady() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("frame");
            List<String> order = new ArrayList<>();
            ActorRef other = runtime.spawnOnLane("frame", "other", () -> (c, m) -> order.add("other " + m));
            ActorRef actor = runtime.spawnOnLane("frame", "renderer", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> {
                order.add("call");
                return ((Long) args) * 2;
            });
            other.tell("older");
            CallResult result = onHost(() -> gate.callOnLane(lane, 21, 0));
            assertEquals(new CallResult(CallStatus.OK, 42L, ""), result);
            assertEquals(List.of("other older", "call"), order);
            assertEquals(CallStatus.WRONG_THREAD, gate.callOnLane(lane, 1, 0).status(), "off the lane thread");
            assertEquals(CallStatus.INVALID_ARGUMENT, onHost(() -> gate.callOnLane(lane, 1, -1)).status());
            ExecutionLane elsewhere = runtime.registerLane("elsewhere");
            assertEquals(CallStatus.INVALID_ARGUMENT, onHost(() -> gate.callOnLane(elsewhere, 1, 0)).status());
        }
    }

    @Test
    void callOnLaneTimesOutWhenOlderWorkUsesTheBoundAndTheCallIsDequeued() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("frame");
            ActorRef busy = runtime.spawnOnLane("frame", "busy", () -> (c, m) -> { });
            AtomicInteger ran = new AtomicInteger();
            ActorRef actor = runtime.spawnOnLane("frame", "target", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> ran.incrementAndGet());
            for (int i = 0; i < 5; i++) {
                busy.tell(i);
            }
            CallResult result = onHost(() -> gate.callOnLane(lane, null, 3));
            assertEquals(CallStatus.TIMED_OUT, result.status());
            onHost(() -> lane.drive(0));
            assertEquals(0, ran.get(), "the timed-out call was dequeued and never ran");
            assertEquals(CallStatus.OK, onHost(() -> gate.callOnLane(lane, null, 0)).status());
            assertEquals(1, ran.get());
        }
    }

    @Test
    void aPendingResultInCallOnLaneIsSuspendedAndDisruptsTheActor() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("frame");
            ActorRef actor = runtime.spawnOnLane("frame", "async", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> new CompletableFuture<>());
            assertEquals(CallStatus.CALLBACK_SUSPENDED, onHost(() -> gate.callOnLane(lane, null, 0)).status());
            onHost(() -> lane.drive(0));
            ExitReason.Failed failed = assertInstanceOf(ExitReason.Failed.class, actor.exitReason().orElseThrow());
            assertInstanceOf(CallbackSuspendedException.class, failed.cause());
        }
    }

    @Test
    void theBlockingEntryWaitsForAPendingResult() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            CompletableFuture<String> later = new CompletableFuture<>();
            ActorRef actor = runtime.spawn("async", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> later);
            Future<CallResult> pending = caller.submit(() -> gate.call(null, LONG));
            awaitTrue(() -> gate.pendingCalls() == 1);
            later.complete("done");
            assertEquals(new CallResult(CallStatus.OK, "done", ""), pending.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void cyclesAndOversizedResultsAreRefusedWithoutHaltingTheActor() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = runtime.spawn("values", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> {
                if ("cycle".equals(args)) {
                    List<Object> self = new ArrayList<>();
                    self.add(self);
                    return self;
                }
                return "x".repeat(100);
            }, 8, 64);
            List<Object> cyclicArgs = new ArrayList<>();
            cyclicArgs.add(cyclicArgs);
            assertEquals(CallStatus.NOT_SERIALIZABLE, gate.call(cyclicArgs, LONG).status());
            assertEquals(CallStatus.NOT_SERIALIZABLE, gate.call("cycle", LONG).status());
            CallResult big = gate.call("big", LONG);
            assertEquals(CallStatus.OUT_OF_MEMORY, big.status());
            assertTrue(big.detail().contains("limit of 64"), big.detail());
            assertTrue(!actor.isTerminated());
        }
    }

    @Test
    void aThrowingHandlerFailsTheCallAndHaltsTheActor() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = runtime.spawn("fragile", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> {
                throw new IllegalArgumentException("bad input");
            });
            CallResult result = gate.call(null, LONG);
            assertEquals(CallStatus.CALLBACK_FAILED, result.status());
            assertTrue(result.detail().contains(IllegalArgumentException.class.getName()), result.detail());
            awaitTrue(actor::isTerminated);
            assertEquals(CallStatus.ACTOR_TERMINATED, gate.call(null, LONG).status());
        }
    }

    @Test
    void aCallQueuedBehindATurnThatNeverReturnsIsAnsweredOnceItsActorHalts() throws Exception {
        // The actor's teardown, which answers its queued calls, waits for the turn to return: it never does here.
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            CountDownLatch inTurn = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger ran = new AtomicInteger();
            ActorRef actor = runtime.spawn("stuck", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> {
                if (ran.incrementAndGet() == 1) {
                    inTurn.countDown();
                    release.await(); // a handler that hangs (until the test lets it go, after the assertions)
                }
                return null;
            });
            Future<CallResult> first = caller.submit(() -> gate.call(null, LONG));
            assertTrue(inTurn.await(30, TimeUnit.SECONDS));
            ExecutorService second = Executors.newSingleThreadExecutor();
            try {
                Future<CallResult> queued = second.submit(() -> gate.call(null, LONG));
                awaitTrue(() -> gate.pendingCalls() == 2);
                actor.kill();
                CallResult answered = queued.get(20, TimeUnit.SECONDS); // its own timeout is 30 s
                assertEquals(CallStatus.ACTOR_TERMINATED, answered.status(), answered.detail());
                assertEquals(1, ran.get(), "the queued call never ran");
            } finally {
                release.countDown();
                second.shutdown();
            }
            first.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aCallQueuedWhenItsActorHaltsIsAnsweredActorTerminated() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicInteger ran = new AtomicInteger();
            ActorRef actor = runtime.spawn("doomed", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> ran.incrementAndGet());
            Future<CallResult> pending = caller.submit(() -> gate.call(null, LONG));
            awaitTrue(() -> gate.pendingCalls() == 1);
            actor.kill();
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(CallStatus.ACTOR_TERMINATED, pending.get(30, TimeUnit.SECONDS).status());
            assertEquals(0, ran.get());
        }
    }

    @Test
    void beyondTheAdmissionBoundACallIsRefusedAtOnce() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("narrow", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> "ok", 1, 1024);
            runtime.runUntilIdle(Duration.ZERO); // the actor's start, so the only queued work below is the call
            Future<CallResult> first = caller.submit(() -> gate.call(null, LONG));
            awaitTrue(() -> gate.pendingCalls() == 1 && runtime.metrics().normalQueued() == 1); // admitted and queued
            CallResult second = gate.call(null, LONG);
            assertEquals(CallStatus.REFUSED, second.status());
            assertTrue(second.detail().contains("admission"), second.detail());
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(CallStatus.OK, first.get(30, TimeUnit.SECONDS).status());
        }
    }

    @Test
    void aCallFreesItsAdmissionSlotOnceAndBeforeItsCallerHasTheAnswer() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = runtime.spawn("one at a time", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> args, 1, 1024);
            CallGate cborGate = CallGate.openCbor(actor, (context, in, out) -> out.writeLong(in.readLong()), 1, 1024);
            CallReply reply = new CallReply();
            MemorySegment seven = MemorySegment.ofArray(new byte[] {0x07});
            for (int i = 0; i < 2_000; i++) {
                CallResult result = gate.call((long) i, LONG); // a bound of 1: refused if the last call still held its slot
                assertEquals(CallStatus.OK, result.status(), result.detail());
                assertEquals((long) i, result.value());
                assertEquals(0, gate.pendingCalls(), "call " + i + " answered while still holding its slot");
                assertEquals(CallStatus.OK, cborGate.callEncoded(seven, 0, 1, LONG.toNanos(), reply), reply.detail());
                assertEquals(0, cborGate.pendingCalls(), "CBOR call " + i + " answered while still holding its slot");
            }
            // Each slot was freed once, not twice (the count of pending calls never goes below 0, so it cannot tell): after
            // many answered calls, one call held in the handler still takes the only place, and the next is refused.
            AtomicInteger holdNext = new AtomicInteger();
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CallGate holding = CallGate.open(actor, (context, args) -> {
                if (holdNext.get() == 1) {
                    entered.countDown();
                    release.await(30, TimeUnit.SECONDS);
                }
                return "done";
            }, 1, 1024);
            for (int i = 0; i < 100; i++) {
                assertEquals(CallStatus.OK, holding.call(null, LONG).status());
            }
            holdNext.set(1);
            Future<CallResult> held = caller.submit(() -> holding.call(null, LONG));
            assertTrue(entered.await(30, TimeUnit.SECONDS));
            CallResult refused = holding.call(null, Duration.ofMillis(500)); // refused at once; admitted wrongly, it would wait
            assertEquals(CallStatus.REFUSED, refused.status(), "a freed slot was counted twice: " + refused.detail());
            release.countDown();
            assertEquals(CallStatus.OK, held.get(30, TimeUnit.SECONDS).status());
        }
    }

    @Test
    void aCallToAnActorWhoseMailboxIsFullIsRefusedAndNeverRuns() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicInteger ran = new AtomicInteger();
            ActorRef actor = runtime.spawn("full", SpawnOptions.DEFAULT.withMailboxCapacity(1), () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> ran.incrementAndGet());
            runtime.drain(); // started
            assertTrue(actor.tell("fills the mailbox"));
            CallResult refused = gate.call(null, LONG);
            assertEquals(CallStatus.REFUSED, refused.status());
            assertTrue(refused.detail().contains("mailbox or lane holds its capacity"), refused.detail());
            assertEquals(0, gate.pendingCalls(), "the refused call holds no admission slot");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(0, ran.get());
            assertEquals(1, runtime.metrics().refusedLetters());
        }
    }

    @Test
    void closingTheGateFailsPendingCallsAndLaterOnes() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicInteger ran = new AtomicInteger();
            ActorRef actor = runtime.spawn("closing", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> ran.incrementAndGet());
            Future<CallResult> pending = caller.submit(() -> gate.call(null, LONG));
            awaitTrue(() -> gate.pendingCalls() == 1);
            gate.close();
            assertEquals(CallStatus.CLOSED, pending.get(30, TimeUnit.SECONDS).status());
            assertEquals(CallStatus.CLOSED, gate.call(null, LONG).status());
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(0, ran.get(), "a queued call of a closed gate never runs");
        }
    }

    @Test
    void closingTheGateWakesEveryParkedCallerEvenAfterOneLeft() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("closing", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> args);
            // Nothing drains the actor: each call stays queued and its caller, past the spin, parks on the gate.
            CallResult[] results = new CallResult[3];
            Duration[] timeouts = {LONG, Duration.ofMillis(1), LONG};
            Thread[] callers = new Thread[3];
            for (int i = 0; i < callers.length; i++) {
                int index = i;
                callers[i] = Thread.ofPlatform().name("caller-" + i).start(() -> results[index] = gate.call(index, timeouts[index]));
            }
            callers[1].join(); // the middle caller timed out and left the list of parked callers
            assertEquals(CallStatus.TIMED_OUT, results[1].status());
            awaitTrue(() -> callers[0].getState() == Thread.State.TIMED_WAITING
                    && callers[2].getState() == Thread.State.TIMED_WAITING);
            gate.close();
            callers[0].join();
            callers[2].join();
            // A caller the close missed would wait out its 30 s and answer TIMED_OUT.
            assertEquals(CallStatus.CLOSED, results[0].status(), results[0].detail());
            assertEquals(CallStatus.CLOSED, results[2].status(), results[2].detail());
            assertEquals(0, gate.pendingCalls());
        }
    }

    @Test
    void badArgumentsAreInvalid() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("a", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> null);
            assertEquals(CallStatus.INVALID_ARGUMENT, gate.call(null, Duration.ofSeconds(-1)).status());
            assertEquals(CallStatus.INVALID_ARGUMENT, gate.call(null, null).status());
            assertEquals(CallStatus.INVALID_ARGUMENT, gate.callOnLane(null, null, 0).status());
        }
    }

    /** An exception whose own description throws: the path that completes the call must not call it. */
    static final class UndescribableException extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("getMessage is user code");
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString is user code");
        }
    }

    /** A stage whose {@code toCompletableFuture} throws, as the CompletionStage contract allows. */
    static CompletionStage<Object> stageWithoutFuture() {
        CompletionStage<Object> stage = new CompletableFuture<>();
        return (CompletionStage<Object>) Proxy.newProxyInstance(CallGateTest.class.getClassLoader(),
                new Class<?>[] {CompletionStage.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("toCompletableFuture")) {
                        throw new UnsupportedOperationException("no future here");
                    }
                    return method.invoke(stage, arguments);
                });
    }

    @Test
    void aHandlerThrowingAnUndescribableExceptionStillCompletesTheBlockingCall() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = runtime.spawn("fragile", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> {
                throw new UndescribableException();
            });
            CallResult result = caller.submit(() -> gate.call(null, Duration.ofNanos(Long.MAX_VALUE))).get(30, TimeUnit.SECONDS);
            assertEquals(CallStatus.CALLBACK_FAILED, result.status());
            assertTrue(result.detail().contains(UndescribableException.class.getName()), result.detail());
            awaitTrue(() -> gate.pendingCalls() == 0);
            awaitTrue(actor::isTerminated);
        }
    }

    @Test
    void aStageWhoseFutureThrowsFailsTheBlockingCallAndFreesTheSlot() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = runtime.spawn("staged", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> stageWithoutFuture());
            CallResult result = caller.submit(() -> gate.call(null, Duration.ofNanos(Long.MAX_VALUE))).get(30, TimeUnit.SECONDS);
            assertEquals(CallStatus.CALLBACK_FAILED, result.status());
            assertTrue(result.detail().contains(UnsupportedOperationException.class.getName()), result.detail());
            awaitTrue(() -> gate.pendingCalls() == 0);
        }
    }

    @Test
    void callOnLaneAnswersCallbackFailedForUndescribableFailures() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ExecutionLane lane = runtime.registerLane("frame");
            ActorRef throwing = runtime.spawnOnLane("frame", "throwing", () -> (c, m) -> { });
            ActorRef staged = runtime.spawnOnLane("frame", "staged", () -> (c, m) -> { });
            CallGate throwingGate = CallGate.open(throwing, (context, args) -> {
                throw new UndescribableException();
            });
            CallGate stagedGate = CallGate.open(staged, (context, args) -> stageWithoutFuture());
            assertEquals(CallStatus.CALLBACK_FAILED, onHost(() -> throwingGate.callOnLane(lane, null, 0)).status());
            assertEquals(CallStatus.CALLBACK_FAILED, onHost(() -> stagedGate.callOnLane(lane, null, 0)).status());
            assertEquals(0, throwingGate.pendingCalls());
            assertEquals(0, stagedGate.pendingCalls());
        }
    }

    @Test
    void afterTheRuntimeClosesBothEntriesAnswerClosed() throws Exception {
        ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
        ExecutionLane lane = runtime.registerLane("frame");
        ActorRef onLane = runtime.spawnOnLane("frame", "renderer", () -> (c, m) -> { });
        ActorRef normal = runtime.spawn("worker", () -> (c, m) -> { });
        CallGate laneGate = CallGate.open(onLane, (context, args) -> "never");
        CallGate normalGate = CallGate.open(normal, (context, args) -> "never");
        onHost(() -> lane.drive(0)); // binds the lane to the host thread
        Future<CallResult> queued = caller.submit(() -> normalGate.call(null, LONG));
        // Queued, not only admitted: the start letter and the call in the actor's mailbox (nobody drains them).
        awaitTrue(() -> runtime.snapshot().actors().stream().anyMatch(row -> row.name().equals("worker") && row.queueDepth() == 2));
        runtime.close();
        CallResult whileQueued = queued.get(30, TimeUnit.SECONDS);
        assertEquals(CallStatus.CLOSED, whileQueued.status(), whileQueued.detail());
        assertTrue(whileQueued.detail().startsWith("the runtime closed with the call still queued"), whileQueued.detail());
        assertEquals(CallStatus.CLOSED, normalGate.call(null, LONG).status());
        assertEquals(CallStatus.CLOSED, laneGate.call(null, LONG).status());
        assertEquals(CallStatus.CLOSED, onHost(() -> laneGate.callOnLane(lane, null, 0)).status());
        assertEquals(0, normalGate.pendingCalls());
    }

    @Test
    void anActorHaltedWhileTheRuntimeRunsStaysActorTerminated() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("killed", () -> (c, m) -> { });
            CallGate gate = CallGate.open(actor, (context, args) -> "never");
            actor.kill();
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(CallStatus.ACTOR_TERMINATED, gate.call(null, LONG).status());
        }
    }

    /** Waits for a condition with a deadline, never a fixed sleep. */
    static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached within 30 s");
            }
            Thread.yield();
        }
    }
}
