/*
 * test_ring_fence.c - the waiting protocol's store-load race itself, many times over. A producer thread writes one
 * byte (a release store of its position, then a relaxed load of the wake word) while the consumer announces that
 * it sleeps, fences the producer (membarrier) and re-checks what is readable: the consumer's steps 2 to 4 of
 * lanehost_ring_wait_readable, without the sleep. The outcome where the producer saw no waiter and the consumer saw
 * no byte would be a consumer asleep on a byte that is there: it must never happen. The whole-wait tests
 * (test_ring_wait) are too slow around the race to hit it; this one starts both sides together, with a varying
 * head start, so their steps overlap. Built with -DLANEHOST_TEST_SKIP_FENCE (never part of the test run), it shows
 * the race the fence closes: that build counts lost wake-ups.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdalign.h>
#include <stdio.h>

#include "check.h"
#include "lanehost/lanehost_ring.h"

#define CAPACITY 64u
#define ROUNDS 200000

static alignas(128) uint8_t memory[LANEHOST_RING_MEMORY_LENGTH(CAPACITY)];
static lanehost_ring ring;
/* Round r begins when the consumer stores r here; the producer stores r in done when its write returns. */
static _Atomic uint32_t start;
static _Atomic uint32_t done;

static void spin(uint32_t iterations) {
    for (volatile uint32_t i = 0; i < iterations; i++) {
    }
}

static void *produce(void *unused) {
    (void)unused;
    const uint8_t byte = 42;
    for (uint32_t round = 1; round <= ROUNDS; round++) {
        while (atomic_load_explicit(&start, memory_order_acquire) != round) {
        }
        spin(round % 7);
        lanehost_ring_write(&ring, &byte, 1);
        atomic_store_explicit(&done, round, memory_order_release);
    }
    return NULL;
}

static void the_producer_sees_the_waiter_or_the_consumer_sees_the_byte(void) {
    CHECK_EQ(0, lanehost_ring_fence_producer()); /* registered before the producer starts; skipped: nothing to test */
    pthread_t producer;
    CHECK_EQ(0, pthread_create(&producer, NULL, produce, NULL));
    uint64_t seen = 0, woken = 0, both = 0, lost = 0;
    for (uint32_t round = 1; round <= ROUNDS; round++) {
        CHECK_EQ(0, lanehost_ring_init(&ring, memory, sizeof memory, CAPACITY));
        atomic_store_explicit(&start, round, memory_order_release);
        spin((round * 13u) % 157u); /* either side may start first, by a varying margin */
        uint32_t announced = lanehost_ring_announce_waiter(ring.header);
#ifndef LANEHOST_TEST_SKIP_FENCE
        lanehost_ring_fence_producer();
#endif
        int saw_byte = lanehost_ring_readable(&ring) >= 1;
        while (atomic_load_explicit(&done, memory_order_acquire) != round) {
        }
        int producer_woke = lanehost_ring_wake_count(&ring) == 1;
        lanehost_ring_withdraw_waiter(ring.header, announced);
        seen += saw_byte && !producer_woke;
        woken += !saw_byte && producer_woke;
        both += saw_byte && producer_woke;
        lost += !saw_byte && !producer_woke;
    }
    CHECK_EQ(0, pthread_join(producer, NULL));
    /* The first two show the race was run (one side missed the other); the fenceless build shows the fourth. */
    printf("  %d rounds: re-check saw the byte %llu, producer woke the waiter %llu, both %llu, lost wake-ups %llu\n",
           ROUNDS, (unsigned long long)seen, (unsigned long long)woken, (unsigned long long)both,
           (unsigned long long)lost);
    CHECK_EQ(0, (int)lost);
}

int main(void) {
    RUN_TEST(the_producer_sees_the_waiter_or_the_consumer_sees_the_byte);
    return CHECK_EXIT();
}
