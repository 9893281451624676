package dev.lanehost.lanes.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class MpscQueueTest {
    static final class Node extends MpscNode {
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
    void consumerAndProducerFieldsSitOnSeparateCacheLinePairs() throws Exception {
        long[] consumer = {FieldOffsets.of(MpscQueueConsumerFields.class, "head"), FieldOffsets.of(MpscQueueConsumerFields.class, "polled")};
        long tail = FieldOffsets.of(MpscQueueProducerFields.class, "tail");
        long offered = FieldOffsets.of(MpscQueueProducerFields.class, "offered");
        long stub = FieldOffsets.of(MpscQueueColdFields.class, "stub");
        long consumerEnd = Arrays.stream(consumer).max().orElseThrow();
        long consumerStart = Arrays.stream(consumer).min().orElseThrow();
        long producerStart = Math.min(tail, offered);
        assertTrue(producerStart - consumerEnd >= FieldOffsets.LINE_PAIR,
                "producers' fields at " + producerStart + " are within " + FieldOffsets.LINE_PAIR + " bytes of the consumer's at " + consumerEnd);
        assertTrue(consumerStart - stub >= FieldOffsets.LINE_PAIR,
                "consumer's fields at " + consumerStart + " are within " + FieldOffsets.LINE_PAIR + " bytes of the cold fields at " + stub);
    }
}
