package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Profile;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** The audio samples' ring actors survive a turn held off the CPU, and a turn that runs away still halts them. */
class AudioActorsTest {
    /** Three times the runtime's default slow budget: the default would disrupt the turn at its next context call. */
    private static final Duration STALL = Duration.ofMillis(300);

    @Test
    void aTurnThatWaitedForTheCpuPastTheDefaultSlowBudgetDoesNotHaltTheActor() throws InterruptedException {
        CountDownLatch stalled = new CountDownLatch(1);
        CountDownLatch answered = new CountDownLatch(1);
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = AudioActors.spawn(runtime, "audio-consumer", (context, message) -> {
                if (message.equals("stall")) {
                    // Off the CPU, as a thread the machine does not schedule: parked, not spinning.
                    long end = System.nanoTime() + STALL.toNanos();
                    for (long left; (left = end - System.nanoTime()) > 0; ) {
                        LockSupport.parkNanos(left);
                    }
                    context.nanoTime(); // a context call: where a disrupted turn would end
                    stalled.countDown();
                } else {
                    answered.countDown();
                }
            });
            actor.tell("stall");
            actor.tell("after");
            assertTrue(stalled.await(30, TimeUnit.SECONDS), "the stalled turn was disrupted: " + actor.exitReason());
            assertTrue(answered.await(30, TimeUnit.SECONDS), "the actor took no turn after the stall: " + actor.exitReason());
            assertFalse(actor.isTerminated(), "halted: " + actor.exitReason());
        }
    }

    @Test
    void aTurnThatRunsAwayIsStillHalted() throws InterruptedException {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            ActorRef actor = AudioActors.spawn(runtime, "duplex-effect", (context, message) -> {
                while (true) {
                    context.checkpoint();
                }
            });
            CountDownLatch down = new CountDownLatch(1);
            runtime.spawn("watcher", () -> new Behavior() {
                @Override
                public void started(ActorContext context) {
                    context.monitor(actor);
                }

                @Override
                public void receive(ActorContext context, Object message) {
                    down.countDown();
                }
            });
            actor.tell("spin");
            assertTrue(down.await(30, TimeUnit.SECONDS), "the runaway turn was never disrupted");
            assertEquals(ExitReason.BUDGET, actor.exitReason().orElseThrow());
        }
    }
}
