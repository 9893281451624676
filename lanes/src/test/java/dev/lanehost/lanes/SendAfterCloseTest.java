package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Admission stops when the close begins: a send that begins after {@link ActorRuntime#isClosed()} returned true is
 * refused, even to an actor the close has not halted yet, and nothing of it is queued, dropped or counted.
 */
class SendAfterCloseTest {
    private static final int SENDERS = 4;
    private static final int ROUNDS = 10;

    @Test
    void aSendAfterIsClosedReturnedTrueIsRefusedBeforeTheActorIsHalted() throws Exception {
        ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).build();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        // The one worker is held in this turn, so the close waits in its thread stop (step 2) with the target still
        // unhalted; without the admission check a send would be queued now and dropped at the halt.
        ActorRef holder = runtime.spawn("holder", () -> (context, message) -> {
            holding.countDown();
            Latches.await(letGo);
        });
        ActorRef target = runtime.spawn("target", () -> (context, message) -> { });
        assertTrue(holder.tell("hold"));
        Latches.await(holding);
        Thread closer = Thread.ofPlatform().name("closer").start(runtime::close);
        awaitClosed(runtime);

        List<String> accepted = new ArrayList<>();
        List<Thread> senders = new ArrayList<>();
        for (int i = 0; i < SENDERS; i++) {
            int sender = i;
            senders.add(Thread.ofPlatform().name("sender-" + i).start(() -> {
                // Started after isClosed() returned true: Thread.start orders that read before every send here.
                boolean told = target.tell("tell " + sender);
                Delivery offered = target.offer("offer " + sender);
                boolean submitted = target.submit(context -> { });
                synchronized (accepted) {
                    if (told) {
                        accepted.add("tell from sender " + sender);
                    }
                    if (offered != Delivery.TERMINATED) {
                        accepted.add("offer from sender " + sender + ": " + offered);
                    }
                    if (submitted) {
                        accepted.add("submit from sender " + sender);
                    }
                }
            }));
        }
        for (Thread sender : senders) {
            sender.join(TimeUnit.SECONDS.toMillis(Latches.PATIENCE_SECONDS));
        }
        letGo.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(Latches.PATIENCE_SECONDS));
        assertFalse(closer.isAlive(), "the close did not finish");
        assertEquals(List.of(), accepted, "sends that began after isClosed() returned true");
        assertEquals(0, runtime.metrics().droppedMessages(), "nothing was admitted, so nothing is dropped");
        assertEquals(0, runtime.metrics().refusedLetters(), "a closed runtime's refusal is not a full mailbox");
    }

    @Test
    void noSendThatStartsAfterIsClosedReadTrueIsAcceptedWhileAnotherThreadCloses() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).build();
            ActorRef target = runtime.spawn("target", () -> (context, message) -> { });
            AtomicLong acceptedAfterClosed = new AtomicLong();
            CountDownLatch sending = new CountDownLatch(SENDERS);
            List<Thread> senders = new ArrayList<>();
            for (int i = 0; i < SENDERS; i++) {
                senders.add(Thread.ofPlatform().name("sender-" + i).start(() -> {
                    sending.countDown();
                    for (long n = 0; ; n++) {
                        boolean closedBefore = runtime.isClosed(); // read before the send begins
                        Delivery delivery = target.offer(n);
                        if (closedBefore && delivery == Delivery.QUEUED) {
                            acceptedAfterClosed.incrementAndGet();
                        }
                        if (delivery == Delivery.TERMINATED) {
                            return; // refused for good: closed, or the actor halted
                        }
                    }
                }));
            }
            Latches.await(sending);
            runtime.close();
            for (Thread sender : senders) {
                sender.join(TimeUnit.SECONDS.toMillis(Latches.PATIENCE_SECONDS));
                assertFalse(sender.isAlive(), "a sender still had its sends accepted after the close returned");
            }
            assertEquals(0, acceptedAfterClosed.get(), "round " + round + ": sends accepted after isClosed() read true");
        }
    }

    /** Until the closer has set the flag: a condition awaited with a deadline. */
    private static void awaitClosed(ActorRuntime runtime) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Latches.PATIENCE_SECONDS);
        while (!runtime.isClosed()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the close did not begin within " + Latches.PATIENCE_SECONDS + " s");
            }
            Thread.onSpinWait();
        }
    }
}
