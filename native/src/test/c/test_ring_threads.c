/*
 * test_ring_threads.c - a producer pthread and a consumer pthread move a known pattern through a
 * small ring in random chunks; every byte is verified. Built twice: plain, and under ThreadSanitizer
 * (which checks the ring's C11 atomics for data races).
 */
#include <stdlib.h>

#include "check.h"
#include "lanehost/lanehost_testhost.h"

#ifndef TRANSFER_BYTES
#define TRANSFER_BYTES (UINT64_C(64) << 20)
#endif

static void cToCMovesEveryByteInOrder(void) {
    const uint64_t capacity = 4096; /* small, so 64 MiB wraps 16384 times */
    void *memory = lanehost_testhost_ring_alloc(capacity);
    CHECK(memory != NULL);
    uint64_t length = LANEHOST_RING_MEMORY_LENGTH(capacity);
    const uint32_t flags = LANEHOST_TESTHOST_RANDOM_CHUNKS | LANEHOST_TESTHOST_PATTERN;
    lanehost_testhost_thread *producer = NULL, *consumer = NULL;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_start(&consumer, LANEHOST_TESTHOST_CONSUMER, memory, length,
                                                       TRANSFER_BYTES, 42, 1500, flags));
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_start(&producer, LANEHOST_TESTHOST_PRODUCER, memory, length,
                                                       TRANSFER_BYTES, 42, 3000, flags));
    uint64_t produced = 0, consumed = 0, producer_mismatch = 0, consumer_mismatch = 0;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_join(producer, &produced, &producer_mismatch));
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_join(consumer, &consumed, &consumer_mismatch));
    CHECK_EQ(TRANSFER_BYTES, produced);
    CHECK_EQ(TRANSFER_BYTES, consumed);
    CHECK_EQ(UINT64_MAX, consumer_mismatch);

    lanehost_ring ring = {0};
    int wrapped = lanehost_ring_wrap(&ring, memory, length);
    CHECK_EQ(LANEHOST_RING_OK, wrapped);
    if (wrapped == LANEHOST_RING_OK) CHECK_EQ(0, lanehost_ring_readable(&ring));
    lanehost_testhost_ring_free(memory);
}

static void waitingConsumerGetsEveryByteFromAPausingProducer(void) {
    /* The consumer sleeps whenever the ring is empty; a lost wake-up would end it with TIMED_OUT. */
    const uint64_t capacity = 4096;
    const uint64_t total = UINT64_C(2) << 20;
    void *memory = lanehost_testhost_ring_alloc(capacity);
    CHECK(memory != NULL);
    uint64_t length = LANEHOST_RING_MEMORY_LENGTH(capacity);
    const uint32_t flags = LANEHOST_TESTHOST_RANDOM_CHUNKS | LANEHOST_TESTHOST_PATTERN;
    lanehost_testhost_thread *producer = NULL, *consumer = NULL;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_start(&consumer, LANEHOST_TESTHOST_CONSUMER, memory, length, total, 42,
                                                       700, flags | LANEHOST_TESTHOST_WAIT));
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_start(&producer, LANEHOST_TESTHOST_PRODUCER, memory, length, total, 42,
                                                       500, flags | LANEHOST_TESTHOST_PAUSES));
    uint64_t produced = 0, consumed = 0, mismatch = 0;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_join(producer, &produced, NULL));
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_join(consumer, &consumed, &mismatch));
    CHECK_EQ(total, produced);
    CHECK_EQ(total, consumed);
    CHECK_EQ(UINT64_MAX, mismatch);
    lanehost_ring ring = {0};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_wrap(&ring, memory, length));
    CHECK(lanehost_ring_wake_count(&ring) <= lanehost_ring_doorbell(&ring));
    CHECK(!lanehost_ring_has_waiter(&ring));
    lanehost_testhost_ring_free(memory);
}

static void wrongSeedIsCaughtByTheVerifier(void) {
    /* The verifier itself must be able to fail: a consumer expecting another seed reports byte 0. */
    const uint64_t capacity = 4096;
    void *memory = lanehost_testhost_ring_alloc(capacity);
    uint64_t length = LANEHOST_RING_MEMORY_LENGTH(capacity);
    lanehost_testhost_thread *producer = NULL, *consumer = NULL;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_start(&consumer, LANEHOST_TESTHOST_CONSUMER, memory, length,
                                                       100000, 7, 512, LANEHOST_TESTHOST_PATTERN));
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_start(&producer, LANEHOST_TESTHOST_PRODUCER, memory, length,
                                                       100000, 8, 512, LANEHOST_TESTHOST_PATTERN));
    uint64_t moved = 0, mismatch = 0;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_join(producer, &moved, &mismatch));
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_join(consumer, &moved, &mismatch));
    CHECK_EQ(0, mismatch);
    lanehost_testhost_ring_free(memory);
}

static void freeRunningSidesStopWhenAsked(void) {
    const uint64_t capacity = 1024;
    void *memory = lanehost_testhost_ring_alloc(capacity);
    uint64_t length = LANEHOST_RING_MEMORY_LENGTH(capacity);
    lanehost_testhost_thread *producer = NULL;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_start(&producer, LANEHOST_TESTHOST_PRODUCER, memory, length, 0, 1, 256, 0));
    /* The consumer runs here, on this thread, for a fixed amount, then the producer is stopped. */
    CHECK_EQ(1 << 20, lanehost_testhost_transfer(LANEHOST_TESTHOST_CONSUMER, memory, length, 1 << 20, 300));
    lanehost_testhost_stop(producer);
    uint64_t moved = 0;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_join(producer, &moved, NULL));
    CHECK(moved >= (1 << 20));
    CHECK(moved <= (1 << 20) + capacity);
    lanehost_testhost_ring_free(memory);
}

static void startRejectsBadArguments(void) {
    lanehost_testhost_thread *thread = NULL;
    void *memory = lanehost_testhost_ring_alloc(1024);
    uint64_t length = LANEHOST_RING_MEMORY_LENGTH(1024);
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_testhost_start(&thread, 9, memory, length, 1, 1, 1, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_testhost_start(&thread, LANEHOST_TESTHOST_PRODUCER, memory, length, 1, 1, 0, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_testhost_start(&thread, LANEHOST_TESTHOST_PRODUCER, NULL, length, 1, 1, 1, 0));
    CHECK_EQ(LANEHOST_RING_MEMORY_TOO_SHORT, lanehost_testhost_start(&thread, LANEHOST_TESTHOST_PRODUCER, memory, 100, 1, 1, 1, 0));
    /* A waiting consumer needs a total (a stop request cannot reach it asleep); a producer does not wait. */
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT,
             lanehost_testhost_start(&thread, LANEHOST_TESTHOST_CONSUMER, memory, length, 0, 1, 1, LANEHOST_TESTHOST_WAIT));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT,
             lanehost_testhost_start(&thread, LANEHOST_TESTHOST_PRODUCER, memory, length, 1, 1, 1, LANEHOST_TESTHOST_WAIT));
    CHECK(thread == NULL);
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_testhost_join(NULL, NULL, NULL));
    CHECK(lanehost_testhost_ring_alloc(100) == NULL);
    lanehost_testhost_ring_free(memory);
}

int main(void) {
    RUN_TEST(cToCMovesEveryByteInOrder);
    RUN_TEST(waitingConsumerGetsEveryByteFromAPausingProducer);
    RUN_TEST(wrongSeedIsCaughtByTheVerifier);
    RUN_TEST(freeRunningSidesStopWhenAsked);
    RUN_TEST(startRejectsBadArguments);
    return CHECK_EXIT();
}
