package dev.lanehost.lanes.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class MpscChunkQueueTest {
    @Test
    void theConsumerLockAdmitsOneHolderAtATimeAndIsFreeAfterItsUnlock() {
        MpscChunkQueue<Integer> queue = new MpscChunkQueue<>();
        assertFalse(queue.isConsumerLocked());
        assertTrue(queue.tryLockConsumer());
        assertTrue(queue.isConsumerLocked());
        assertFalse(queue.tryLockConsumer(), "a second holder while the first holds it");
        queue.unlockConsumer();
        assertFalse(queue.isConsumerLocked());
        assertTrue(queue.tryLockConsumer());
        queue.unlockConsumerAndFence();
        assertFalse(queue.isConsumerLocked());
        queue.offer(1);
        assertTrue(queue.tryLockConsumer(), "offers and the idle mark live in another word");
        assertEquals(1, queue.poll());
        assertTrue(queue.markIdleIfEmpty());
        assertTrue(queue.isConsumerLocked(), "the idle mark leaves the lock alone");
    }

    @Test
    void elementsComeOutInOrderAcrossManyChunksAndTheCountFollows() {
        MpscChunkQueue<Integer> queue = new MpscChunkQueue<>(2);
        assertTrue(queue.isEmpty());
        assertNull(queue.poll());
        assertNull(queue.peek());
        int next = 0;
        int taken = 0;
        for (int round = 0; round < 50; round++) {
            int burst = round % 7; // 0 to 6 at a time: chunk ends at every offset of a burst
            for (int i = 0; i < burst; i++) {
                queue.offer(next++);
            }
            assertEquals(next - taken, queue.size());
            for (int i = 0; i < burst / 2 + 1 && taken < next; i++) {
                assertEquals(taken, queue.peek());
                assertEquals(taken++, queue.poll());
            }
        }
        while (taken < next) {
            assertEquals(taken++, queue.poll());
        }
        assertNull(queue.poll());
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.size());
    }

    @Test
    void offerIfRoomAdmitsUpToTheCapacityAndAgainOnceTheConsumerTakes() {
        MpscChunkQueue<String> queue = new MpscChunkQueue<>(4);
        for (int i = 0; i < 5; i++) {
            assertTrue(queue.offerIfRoom("x" + i, 5));
        }
        assertFalse(queue.offerIfRoom("refused", 5), "full at 5");
        assertEquals(5, queue.size(), "a refusal queues nothing");
        assertEquals("x0", queue.poll());
        assertTrue(queue.offerIfRoom("x5", 5), "a place freed by the consumer");
        assertFalse(queue.offerIfRoom("refused", 5));
        for (int i = 1; i <= 5; i++) {
            assertEquals("x" + i, queue.poll());
        }
        assertTrue(queue.offerIfRoom("huge", Long.MAX_VALUE), "a capacity no queue can reach never refuses");
        assertEquals("huge", queue.poll());
    }

    @Test
    void theConsumerLetsGoOfTakenElementsAndOfTheChunksBehindIt() throws Exception {
        MpscChunkQueue<Object> queue = new MpscChunkQueue<>(2);
        Object[] first = queue.firstChunk;
        queue.offer("a");
        queue.offer("b");
        queue.offer("c"); // the second chunk
        assertEquals("a", queue.poll());
        assertNull(first[0], "a taken element is cleared from its slot");
        assertEquals("b", queue.poll());
        assertEquals("c", queue.poll()); // follows the link
        assertNull(first[2], "the first chunk no longer links the second: promoted, it would keep every later one alive");
        assertTrue(Arrays.stream(first).allMatch(slot -> slot == null));
    }

    @Test
    void aChunkTheConsumerLeftIsTheNextOneLinkedSoAQueueOfFewElementsAllocatesNoChunks() {
        MpscChunkQueue<Object> queue = new MpscChunkQueue<>(2);
        Object[] first = queue.firstChunk;
        Object[] second = null;
        for (int i = 0; i < 40; i++) { // one element at a time: twenty chunks' worth
            queue.offer(i);
            assertEquals(i, queue.poll());
            if (i == 2) {
                second = queue.producerChunk;
            }
            if (i >= 2) {
                Object[] expected = (i / 2) % 2 == 1 ? second : first;
                assertSame(expected, queue.producerChunk, "element " + i + " went into a chunk neither of the first two");
            }
        }
        assertTrue(second != null && second != first);
    }

    @Test
    void theIdleMarkIsTakenByTheNextOfferOrClaimAndSetOnlyOnAnEmptyQueue() {
        MpscChunkQueue<Object> queue = new MpscChunkQueue<>(2);
        assertFalse(queue.isIdle(), "a new queue is held by its consumer");
        assertFalse(queue.offer("a"), "nothing to claim");
        assertFalse(queue.markIdleIfEmpty(), "a letter is queued: the runner goes on");
        assertEquals("a", queue.poll());
        assertTrue(queue.markIdleIfEmpty());
        assertTrue(queue.isIdle());
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.size());
        assertTrue(queue.offer("b"), "the letter that finds it idle makes it runnable");
        assertFalse(queue.isIdle());
        assertFalse(queue.offer("c"), "once only");
        assertFalse(queue.offer("d"), "a link: still once only");
        assertEquals(3, queue.size());
        assertFalse(queue.claimIdle());
        queue.markIdle(); // a runner handing its actor back, letters queued
        assertTrue(queue.isIdle());
        assertEquals(3, queue.size());
        assertTrue(queue.claimIdle(), "a halt takes the idle spell");
        assertFalse(queue.claimIdle());
        assertFalse(queue.offer("e"), "the halt took it");
        for (String expected : new String[] {"b", "c", "d", "e"}) {
            assertEquals(expected, queue.poll());
        }
        assertTrue(queue.markIdleIfEmpty());
        // four letters taken, chunks of two: the next offer links a chunk, and its claim takes the mark
        assertEquals(MpscChunkQueue.QUEUED_WAS_IDLE, queue.offerIfRoomClaiming("f", 10));
        assertFalse(queue.isIdle());
        assertEquals(MpscChunkQueue.QUEUED, queue.offerIfRoomClaiming("g", 10));
        assertEquals(MpscChunkQueue.FULL, queue.offerIfRoomClaiming("h", 2), "two queued: full");
        assertFalse(queue.markIdleIfEmpty());
        assertEquals(2, queue.size());
    }

    @Test
    void aSlotClaimedButNotYetStoredReadsAsNothingYetAndTheQueueAsNotEmpty() throws Exception {
        MpscChunkQueue<Object> queue = new MpscChunkQueue<>(2);
        Field produced = MpscChunkQueueProducerFields.class.getDeclaredField("produced");
        produced.setAccessible(true);
        produced.setLong(queue, MpscChunkQueue.STEP); // a producer claimed position 0 and has not stored its element
        assertNull(queue.poll(), "come back shortly");
        assertFalse(queue.isEmpty());
        assertEquals(1, queue.size());
        queue.firstChunk[0] = "late"; // its store
        assertEquals("late", queue.poll());
        assertTrue(queue.isEmpty());
    }

    @Test
    @org.junit.jupiter.api.Timeout(120)
    void anOfferThatOverflowsTheStackNeverLeavesTheOtherProducersWaitingForALink() throws Exception {
        // A deep turn may run out of stack inside an offer. One that did so while it held the claim to link a chunk left
        // the position odd, and every later sender spun for ever. Offers at every depth near the stack's end, on a
        // thread with a small stack, in chunks of two so that every other offer links.
        int[] wedged = new int[1];
        Thread deep = new Thread(null, () -> {
            for (int trial = 0; trial < 200 && wedged[0] == 0; trial++) {
                MpscChunkQueue<Object> queue = new MpscChunkQueue<>(2);
                try {
                    offerOnTheWayUp(queue, trial);
                } catch (StackOverflowError expected) {
                    // the deepest frames' own
                }
                if ((queue.produced & 1) != 0) {
                    wedged[0] = trial + 1;
                }
            }
        }, "deep", 256 << 10);
        deep.start();
        deep.join();
        assertEquals(0, wedged[0], "trial " + (wedged[0] - 1) + " left a link claimed: every other sender would wait for ever");
    }

    /** Recurses to the stack's end, then offers in each frame as the overflow unwinds through it. */
    private static void offerOnTheWayUp(MpscChunkQueue<Object> queue, int pad) {
        try {
            offerOnTheWayUp(queue, pad);
        } catch (StackOverflowError e) {
            try {
                queue.offer("deep");
            } catch (StackOverflowError inTheOffer) {
                // thrown somewhere inside the offer: what the queue must survive
            }
            throw e;
        }
    }

    @Test
    void chunkSizesThatAreNotPowersOfTwoAreRefusedNamingTheValue() {
        IllegalArgumentException three = assertThrows(IllegalArgumentException.class, () -> new MpscChunkQueue<>(3));
        assertTrue(three.getMessage().contains("power of two") && three.getMessage().contains("got 3"), three.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new MpscChunkQueue<>(1));
        assertThrows(IllegalArgumentException.class, () -> new MpscChunkQueue<>(0));
    }

    @Test
    @org.junit.jupiter.api.Timeout(120) // an element lost would leave the consumer looking for ever
    void producersOnManyThreadsLoseNothingAndKeepEachOnesOrder() throws Exception {
        MpscChunkQueue<long[]> queue = new MpscChunkQueue<>(4);
        int producers = 4;
        int each = 50_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    queue.offer(new long[] {producer, i});
                }
            }));
        }
        go.countDown();
        long[] nextOf = new long[producers];
        int taken = 0;
        while (taken < producers * each) {
            long[] element = queue.poll();
            if (element == null) {
                Thread.onSpinWait(); // empty, or a producer between its claim and its store
                continue;
            }
            assertEquals(nextOf[(int) element[0]]++, element[1], "producer " + element[0] + "'s order");
            taken++;
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertNull(queue.poll());
        assertEquals(0, queue.size());
    }

    @Test
    void consumerAndProducerFieldsSitOnSeparateCacheLinePairs() throws Exception {
        long[] consumer = {FieldOffsets.of(MpscChunkQueueConsumerFields.class, "consumed"),
                FieldOffsets.of(MpscChunkQueueConsumerFields.class, "consumerChunk"),
                FieldOffsets.of(MpscChunkQueueConsumerFields.class, "consumerChunkEnd"),
                FieldOffsets.of(MpscChunkQueueConsumerFields.class, "consumerLock")};
        long[] producer = {FieldOffsets.of(MpscChunkQueueProducerFields.class, "produced"),
                FieldOffsets.of(MpscChunkQueueProducerFields.class, "producerChunk"),
                FieldOffsets.of(MpscChunkQueueProducerFields.class, "consumedSeen")};
        long cold = Math.max(FieldOffsets.of(MpscChunkQueueColdFields.class, "chunkSlots"),
                FieldOffsets.of(MpscChunkQueueColdFields.class, "firstChunk"));
        long consumerEnd = Arrays.stream(consumer).max().orElseThrow();
        long consumerStart = Arrays.stream(consumer).min().orElseThrow();
        long producerStart = Arrays.stream(producer).min().orElseThrow();
        assertTrue(producerStart - consumerEnd >= FieldOffsets.LINE_PAIR,
                "producers' fields at " + producerStart + " are within " + FieldOffsets.LINE_PAIR + " bytes of the consumer's at " + consumerEnd);
        assertTrue(consumerStart - cold >= FieldOffsets.LINE_PAIR,
                "consumer's fields at " + consumerStart + " are within " + FieldOffsets.LINE_PAIR + " bytes of the cold fields at " + cold);
    }
}
