package dev.lanehost.lanes.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class MpscQueueTest {
    /** What the padding is for: two 64-byte lines, as x86 prefetches lines in adjacent pairs. */
    private static final long LINE_PAIR = 128;

    static final class Node extends MpscNode {
    }

    /** Never offered again once polled. */
    static final class OneShot extends MpscNode {
    }

    @Test
    void sizeCountsOffersAndPollsButNotTheConsumersOwnStub() {
        MpscQueue<Node> queue = new MpscQueue<>();
        Node a = new Node();
        Node b = new Node();
        queue.offer(a);
        queue.offer(b);
        assertEquals(2, queue.size());
        assertSame(a, queue.poll());
        assertEquals(1, queue.size());
        assertSame(b, queue.poll()); // the last node: the consumer re-queues the stub behind it, uncounted
        assertEquals(0, queue.size());
        assertNull(queue.poll());
        assertTrue(queue.isEmpty());
        queue.offer(a); // a node may be offered again once polled
        assertEquals(1, queue.size());
        assertSame(a, queue.poll());
        assertEquals(0, queue.size());
    }

    @Test
    void aChainComesOutInItsOrderBehindWhatWasQueuedAndIsEmptiedForReuse() {
        MpscQueue<Node> queue = new MpscQueue<>();
        MpscQueue.Chain<Node> chain = new MpscQueue.Chain<>();
        Node a = new Node();
        Node b = new Node();
        Node c = new Node();
        Node d = new Node();
        queue.offerAll(chain); // an empty chain changes nothing
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.size());
        queue.offer(a);
        chain.add(b);
        chain.add(c);
        assertEquals(2, chain.size());
        queue.offerAll(chain);
        assertEquals(0, chain.size());
        assertEquals(3, queue.size());
        queue.offer(d);
        assertSame(a, queue.poll());
        assertSame(b, queue.poll());
        assertSame(c, queue.poll());
        assertSame(d, queue.poll());
        assertNull(queue.poll());
        assertEquals(0, queue.size());
        chain.add(a); // polled nodes, and the emptied chain, may be used again
        queue.offerAll(chain);
        assertSame(a, queue.poll());
        assertTrue(queue.isEmpty());
    }

    @Test
    void offerIfRoomRefusesAtCapacityGivesTheCountBackAndAdmitsOncePolled() {
        MpscQueue<Node> queue = new MpscQueue<>();
        Node a = new Node();
        Node b = new Node();
        Node c = new Node();
        assertTrue(queue.offerIfRoom(a, 2));
        assertTrue(queue.offerIfRoom(b, 2));
        assertFalse(queue.offerIfRoom(c, 2));
        assertEquals(2, queue.size()); // the refused offer's count was given back
        assertSame(a, queue.poll());
        assertTrue(queue.offerIfRoom(c, 2)); // the producers' cached poll count was stale: it looked again
        assertFalse(queue.offerIfRoom(new Node(), 2));
        assertSame(b, queue.poll());
        assertSame(c, queue.poll());
        assertNull(queue.poll());
        assertEquals(0, queue.size());
    }

    @Test
    void theLastOneShotNodeTakenStaysAsTheHeadWithoutAnExchangeAndTheNextPollStepsPastIt() {
        MpscQueue<MpscNode> queue = new MpscQueue<>(OneShot.class);
        OneShot a = new OneShot();
        OneShot b = new OneShot();
        queue.offer(a);
        assertSame(a, queue.poll());
        assertNull(queue.stub.next, "the stub stepped past is cut off too: it is not queued again while one-shots come");
        assertSame(a, queue.tail, "taking the last one-shot node queued nothing behind it");
        assertSame(a, queue.head);
        assertEquals(0, queue.size());
        assertTrue(queue.isEmpty());
        assertNull(queue.peek());
        assertNull(queue.poll(), "the spent head is not handed out again");
        queue.offer(b);
        assertFalse(queue.isEmpty());
        assertSame(b, queue.peek());
        assertSame(b, queue.poll());
        assertSame(b, queue.head, "the spent head was left behind");
        assertNull(a.next, "the node left behind is cut off the queue, so an old one cannot keep the new ones alive");
        assertNull(queue.poll());
        assertTrue(queue.isEmpty());
    }

    @Test
    void oneShotAndReusableNodesComeOutInOrderAndAReusableLastNodeIsLetGoForReuse() {
        MpscQueue<MpscNode> queue = new MpscQueue<>(OneShot.class);
        MpscQueue<MpscNode> other = new MpscQueue<>(OneShot.class);
        OneShot a = new OneShot();
        Node r = new Node();
        OneShot c = new OneShot();
        queue.offer(a);
        queue.offer(r);
        queue.offer(c);
        assertSame(a, queue.poll());
        assertSame(r, queue.poll());
        other.offer(r); // a reusable node with a one-shot behind it may go elsewhere at once
        assertSame(c, queue.poll());
        assertTrue(queue.isEmpty());
        queue.offer(new Node());
        Node last = new Node();
        queue.offer(last);
        assertSame(queue.poll().getClass(), Node.class);
        assertSame(last, queue.poll()); // the last node is reusable: the stub goes behind it
        assertSame(queue.stub, queue.tail);
        assertTrue(queue.isEmpty());
        queue.offer(last); // and it may be offered again, here or anywhere
        assertSame(last, queue.poll());
        assertSame(r, other.poll());
        assertNull(other.poll());
        assertNull(queue.poll());
        assertEquals(0, queue.size() + other.size());
    }

    @Test
    void onlyExactlyTheOneShotClassStaysAsTheHead() {
        final class Sub extends MpscNode {
        }
        MpscQueue<MpscNode> queue = new MpscQueue<>(Node.class);
        Sub sub = new Sub();
        queue.offer(sub);
        assertSame(sub, queue.poll());
        assertSame(queue.stub, queue.tail, "a node of another class is let go: the stub is queued behind it");
    }

    @Test
    void consumerAndProducerFieldsSitOnSeparateCacheLinePairs() throws Exception {
        long[] consumer = {offset(MpscQueueConsumerFields.class, "head"), offset(MpscQueueConsumerFields.class, "polled"),
                offset(MpscQueueConsumerFields.class, "headSpent"), offset(MpscQueueConsumerFields.class, "oneShot")};
        long tail = offset(MpscQueueProducerFields.class, "tail");
        long offered = offset(MpscQueueProducerFields.class, "offered");
        long stub = offset(MpscQueueColdFields.class, "stub");
        long consumerEnd = Arrays.stream(consumer).max().orElseThrow();
        long consumerStart = Arrays.stream(consumer).min().orElseThrow();
        long producerStart = Math.min(tail, offered);
        assertTrue(producerStart - consumerEnd >= LINE_PAIR,
                "producers' fields at " + producerStart + " are within " + LINE_PAIR + " bytes of the consumer's at " + consumerEnd);
        assertTrue(consumerStart - stub >= LINE_PAIR,
                "consumer's fields at " + consumerStart + " are within " + LINE_PAIR + " bytes of the cold fields at " + stub);
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static long offset(Class<?> owner, String name) throws Exception {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
        return unsafe.objectFieldOffset(owner.getDeclaredField(name));
    }
}
