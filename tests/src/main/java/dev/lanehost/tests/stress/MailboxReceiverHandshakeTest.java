package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.queue.MpscChunkQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A blocking actor's {@code receive(timeout)} against a sender, on the mailbox's queue: the receiver announces itself
 * (a volatile store), then looks whether the mailbox is empty before it parks; the sender offers, then reads the
 * receiver to unpark it. At least one must see the other. The look is {@code isEmpty}, whose volatile read of the
 * senders' position orders it after the announcement; a null {@code peek} (an acquire read of a slot the sender
 * stores with release) did not, and lost about three wake-ups in ten thousand here.
 *
 * <p>r1 = 1 if the sender saw the receiver; r2 = 1 if the receiver saw the letter.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "a lost wake-up: the receiver parks with a letter queued")
@Outcome(expect = ACCEPTABLE, desc = "one side saw the other")
@State
public class MailboxReceiverHandshakeTest {
    private final MpscChunkQueue<Object> mailbox = new MpscChunkQueue<>();
    private volatile Thread receiver;

    @Actor
    public void sender(II_Result r) {
        mailbox.offer("letter");
        r.r1 = receiver != null ? 1 : 0;
    }

    @Actor
    public void receiver(II_Result r) {
        receiver = Thread.currentThread();
        r.r2 = mailbox.isEmpty() ? 0 : 1;
    }
}
