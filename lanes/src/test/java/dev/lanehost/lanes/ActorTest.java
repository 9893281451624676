package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ActorTest {

    @Test
    void messagesAreHandledInOrderOneTurnEach() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            List<Object> seen = new ArrayList<>();
            ActorRef actor = runtime.spawn("recorder", () -> (context, message) -> seen.add(message));
            for (int i = 0; i < 5; i++) {
                actor.tell(i);
            }
            assertEquals(RunStatus.IDLE, runtime.runUntilIdle(java.time.Duration.ZERO));
            assertEquals(List.of(0, 1, 2, 3, 4), seen);
            assertEquals(6, runtime.snapshot().actors().get(0).turns(), "the start turn and five message turns");
        }
    }

    @Test
    void aNullMessageIsRefusedByNameAndNothingIsQueued() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            List<Object> seen = new ArrayList<>();
            ActorRef actor = runtime.spawn("a", () -> (c, m) -> seen.add(m));
            assertEquals("message", assertThrows(NullPointerException.class, () -> actor.tell(null)).getMessage());
            assertEquals("message", assertThrows(NullPointerException.class, () -> actor.offer(null)).getMessage());
            actor.tell("after");
            runtime.runUntilIdle(Duration.ZERO);
            assertEquals(List.of("after"), seen);
        }
    }

    @Test
    void anIdleActorKeepsNeitherItsLastMessageNorItsLastTask() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("idle", () -> (context, message) -> { });
            runtime.runUntilIdle(java.time.Duration.ZERO); // started: the message below is the mailbox's only letter
            // Nothing the runtime keeps for an idle actor (its mailbox's chunks and their slots, its last letter) may hold
            // on to what it handled. Each is checked while it was the last letter taken.
            java.lang.ref.WeakReference<Object> message = new java.lang.ref.WeakReference<>(tellOnce(actor, new byte[1 << 20]));
            runtime.runUntilIdle(java.time.Duration.ZERO);
            assertTrue(collected(message), "the handled message is unreachable");
            java.lang.ref.WeakReference<Object> task = new java.lang.ref.WeakReference<>(submitOnce(actor));
            runtime.runUntilIdle(java.time.Duration.ZERO);
            assertTrue(collected(task), "the run task is unreachable");
        }
    }

    @Test
    void aTaskTakenBetweenMessagesIsNotKeptByAnActorThatGetsOnlyMessagesAfterIt() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("idle", () -> (context, message) -> { });
            // Queued behind the start in one burst, then only messages: nothing the mailbox stepped past (slots, chunks
            // it left and reuses) may keep the burst reachable.
            actor.tell("m1");
            java.lang.ref.WeakReference<Object> task = new java.lang.ref.WeakReference<>(submitOnce(actor));
            actor.tell("m2");
            runtime.runUntilIdle(java.time.Duration.ZERO);
            for (int i = 0; i < 10; i++) {
                actor.tell("later " + i);
                runtime.runUntilIdle(java.time.Duration.ZERO);
            }
            assertTrue(collected(task), "the run task is unreachable");
        }
    }

    private static boolean collected(java.lang.ref.Reference<?> reference) {
        for (int gc = 0; gc < 10 && reference.get() != null; gc++) {
            System.gc();
        }
        return reference.get() == null;
    }

    private static Object tellOnce(ActorRef actor, Object message) {
        assertTrue(actor.tell(message));
        return message;
    }

    private static Object submitOnce(ActorRef actor) {
        TurnTask task = new TurnTask() { // a new object, not a lambda (a non-capturing lambda is one shared instance)
            @Override
            public void run(ActorContext context) {
            }
        };
        assertTrue(actor.submit(task));
        return task;
    }

    @Test
    void startRunsAsTheFirstTurnNotOnSpawn() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            List<String> events = new ArrayList<>();
            runtime.spawn("starter", () -> {
                events.add("factory");
                return new Behavior() {
                    @Override
                    public void started(ActorContext context) {
                        events.add("started");
                    }

                    @Override
                    public void receive(ActorContext context, Object message) {
                        events.add("message");
                    }
                };
            }).tell("hello");
            assertEquals(List.of(), events, "nothing of the actor runs on spawn");
            assertEquals(1, runtime.drain().turns(), "one pass runs one turn per runnable actor");
            assertEquals(List.of("factory", "started"), events);
            runtime.drain();
            assertEquals(List.of("factory", "started", "message"), events);
        }
    }

    @Test
    void aFailingTurnHaltsOnlyThatActorAndItsMonitorLearnsWhy() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            IllegalStateException boom = new IllegalStateException("boom");
            ActorRef fragile = runtime.spawn("fragile", () -> (context, message) -> {
                throw boom;
            });
            List<Object> watcherSaw = new ArrayList<>();
            ActorRef watcher = runtime.spawn("watcher", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.monitor(fragile);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    watcherSaw.add(message);
                }
            });
            runtime.runUntilIdle(java.time.Duration.ZERO);
            fragile.tell("trigger");
            runtime.runUntilIdle(java.time.Duration.ZERO);

            assertTrue(fragile.isTerminated());
            assertEquals(new ExitReason.Failed(boom), fragile.exitReason().orElseThrow());
            assertEquals(List.of(new Down(fragile, new ExitReason.Failed(boom))), watcherSaw);
            assertFalse(watcher.isTerminated());
            watcher.tell("still alive");
            runtime.runUntilIdle(java.time.Duration.ZERO);
            assertEquals(List.of(new Down(fragile, new ExitReason.Failed(boom)), "still alive"), watcherSaw,
                    "the watcher still handles its messages");
        }
    }

    @Test
    void aTerminatedRefRefusesSendsAndReadsTerminated() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef actor = runtime.spawn("short", () -> (context, message) -> context.stop());
            actor.tell("stop");
            runtime.runUntilIdle(java.time.Duration.ZERO);
            assertTrue(actor.isTerminated());
            assertEquals(ExitReason.NORMAL, actor.exitReason().orElseThrow());
            assertFalse(actor.tell("anyone?"));
            assertFalse(actor.kill(), "the halt is claimed once");
            assertEquals(null, runtime.lookup(actor.id()));
        }
    }

    @Test
    void aLinkPropagatesAbnormalExitButNotNormalExit() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef crasher = runtime.spawn("crasher", () -> (context, message) -> {
                if (message.equals("crash")) {
                    throw new RuntimeException("crash");
                }
                context.stop();
            });
            ActorRef partner = spawnLinkedTo(runtime, "partner", crasher);
            ActorRef quitter = runtime.spawn("quitter", () -> (context, message) -> context.stop());
            ActorRef survivor = spawnLinkedTo(runtime, "survivor", quitter);
            runtime.runUntilIdle(java.time.Duration.ZERO);

            quitter.tell("stop");
            crasher.tell("crash");
            runtime.runUntilIdle(java.time.Duration.ZERO);

            assertFalse(survivor.isTerminated(), "a normal exit does not propagate");
            ExitReason reason = partner.exitReason().orElseThrow();
            ExitReason.Linked linked = assertInstanceOf(ExitReason.Linked.class, reason);
            assertSame(crasher, linked.peer());
            assertInstanceOf(ExitReason.Failed.class, linked.reason());
        }
    }

    @Test
    void monitoringAnActorThatAlreadyHaltedDeliversDownAtOnce() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            ActorRef gone = runtime.spawn("gone", () -> (context, message) -> { });
            gone.kill();
            runtime.runUntilIdle(java.time.Duration.ZERO);
            List<Object> saw = new ArrayList<>();
            runtime.spawn("late-watcher", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.monitor(gone);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    saw.add(message);
                }
            });
            runtime.runUntilIdle(java.time.Duration.ZERO);
            assertEquals(List.of(new Down(gone, ExitReason.KILLED)), saw);
        }
    }

    @Test
    void theContextIsRefusedOutsideItsTurn() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicReference<ActorContext> leaked = new AtomicReference<>();
            runtime.spawn("leaky", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    leaked.set(context);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                }
            });
            runtime.drain();
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> leaked.get().self());
            assertTrue(thrown.getMessage().contains("outside its own turn"), thrown.getMessage());
        }
    }

    @Test
    void theActorArenaIsClosedWhenItHalts() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            AtomicReference<MemorySegment> memory = new AtomicReference<>();
            ActorRef owner = runtime.spawn("owner", () -> (context, message) -> memory.set(context.arena().allocate(64)));
            owner.tell("allocate");
            runtime.runUntilIdle(java.time.Duration.ZERO);
            assertEquals(1, runtime.resources().arenas());
            memory.get().set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, (byte) 1);
            owner.kill();
            runtime.runUntilIdle(java.time.Duration.ZERO);
            assertFalse(memory.get().scope().isAlive());
            assertEquals(ResourceCounts.NONE, runtime.resources());
        }
    }

    @Test
    void turnsOfOneActorNeverOverlapUnderConcurrentSenders() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            int senders = 4;
            int perSender = 20_000;
            AtomicBoolean inTurn = new AtomicBoolean();
            AtomicInteger overlaps = new AtomicInteger();
            AtomicInteger handled = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            ActorRef counter = runtime.spawn("counter", () -> (context, message) -> {
                if (!inTurn.compareAndSet(false, true)) {
                    overlaps.incrementAndGet();
                }
                if (handled.incrementAndGet() == senders * perSender) {
                    done.countDown();
                }
                inTurn.set(false);
            });
            List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < perSender; i++) {
                        counter.tell(i);
                    }
                }));
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertTrue(done.await(30, TimeUnit.SECONDS), "handled " + handled.get());
            assertEquals(0, overlaps.get());
        }
    }

    private static ActorRef spawnLinkedTo(ActorRuntime runtime, String name, ActorRef peer) {
        return runtime.spawn(name, () -> new Behavior() {
            @Override
            public void started(ActorContext context) {
                context.link(peer);
            }

            @Override
            public void receive(ActorContext context, Object message) {
            }
        });
    }
}
