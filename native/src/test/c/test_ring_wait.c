/*
 * test_ring_wait.c - a consumer that sleeps until bytes arrive, and the producer that wakes it: an
 * announced waiter is woken by the next write, a waiter for more bytes sleeps through smaller writes,
 * thousands of waits with random delays lose no byte and no wake-up, and a signal interrupts a wait.
 * Built plain, under ThreadSanitizer and under UndefinedBehaviorSanitizer. The delays only vary the
 * timing; the tests assert data and statuses, never durations.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "lanehost/lanehost_ring.h"

#define CAPACITY 4096u
/* Long enough that only a lost wake-up reaches it. */
#ifndef LONG_TIMEOUT_NANOS
#define LONG_TIMEOUT_NANOS (INT64_C(30) * 1000000000)
#endif

static alignas(128) uint8_t memory[LANEHOST_RING_MEMORY_LENGTH(CAPACITY)];

static int64_t now_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static uint8_t pattern_byte(uint64_t position) {
    return (uint8_t)(position ^ (position >> 8) ^ (position >> 16));
}

static uint64_t next_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(2685821657736338717);
}

/* A consumer thread that makes one wait and keeps its result. */
typedef struct waiter {
    pthread_t thread;
    lanehost_ring ring;
    uint64_t min_bytes;
    _Atomic int64_t result;
    _Atomic int done;
    _Atomic long tid; /* the waiter's kernel thread id, for await_sleeping_waiter; 0 until it has started */
} waiter;

static void *run_waiter(void *argument) {
    waiter *self = argument;
    atomic_store(&self->tid, syscall(SYS_gettid));
    atomic_store(&self->result, lanehost_ring_wait_readable(&self->ring, self->min_bytes, LONG_TIMEOUT_NANOS));
    atomic_store(&self->done, 1);
    return NULL;
}

static void start_waiter(waiter *self, uint64_t min_bytes) {
    memset(self, 0, sizeof(*self));
    self->min_bytes = min_bytes;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_wrap(&self->ring, memory, sizeof(memory)));
    CHECK_EQ(0, pthread_create(&self->thread, NULL, run_waiter, self));
}

/* Whether thread `tid` of this process is inside the futex system call now (/proc: its syscall number first). */
static int in_futex_call(long tid) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/task/%ld/syscall", tid);
    FILE *file = fopen(path, "r");
    if (file == NULL) return 0;
    long number = -1;
    int parsed = fscanf(file, "%ld", &number);
    fclose(file);
    return parsed == 1 && number == SYS_futex;
}

/*
 * Until the consumer has announced that it sleeps and is inside its futex wait (or 30 s pass: a failure, reported
 * by the caller). Announced is not enough: between its announce and its re-check a consumer can still find bytes
 * written meanwhile and return without sleeping, and the write then rightly wakes nobody. Once it is in the futex
 * call its re-check found nothing, so the next write must see the announce and wake it.
 */
static int await_sleeping_waiter(const lanehost_ring *ring, waiter *consumer) {
    const int64_t deadline = now_nanos() + LONG_TIMEOUT_NANOS;
    while (!lanehost_ring_has_waiter(ring) || atomic_load(&consumer->tid) == 0
           || !in_futex_call(atomic_load(&consumer->tid))) {
        if (now_nanos() > deadline) return 0;
        sched_yield();
    }
    return 1;
}

static lanehost_ring fresh_ring(void) {
    lanehost_ring ring = {0};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_init(&ring, memory, sizeof(memory), CAPACITY));
    return ring;
}

static void announcedWaiterIsWokenByTheNextWrite(void) {
    lanehost_ring producer = fresh_ring();
    waiter consumer;
    start_waiter(&consumer, 1);
    CHECK(await_sleeping_waiter(&producer, &consumer));
    CHECK_EQ(0, lanehost_ring_wake_count(&producer));

    CHECK_EQ(5, lanehost_ring_write(&producer, "hello", 5));
    pthread_join(consumer.thread, NULL);

    CHECK_EQ(5, atomic_load(&consumer.result));
    CHECK_EQ(1, lanehost_ring_wake_count(&producer));
    CHECK(!lanehost_ring_has_waiter(&producer));
    char got[8] = {0};
    CHECK_EQ(5, lanehost_ring_read(&consumer.ring, got, sizeof(got)));
    CHECK_EQ(0, memcmp(got, "hello", 5));
}

static void waiterForMoreBytesSleepsThroughSmallerWrites(void) {
    lanehost_ring producer = fresh_ring();
    waiter consumer;
    start_waiter(&consumer, 100);
    uint8_t chunk[10] = {0};
    for (int round = 0; round < 10; round++) {
        /* Each write wakes the consumer; it finds too few bytes and announces again before sleeping. */
        CHECK(await_sleeping_waiter(&producer, &consumer));
        CHECK_EQ(0, atomic_load(&consumer.done));
        CHECK_EQ(10, lanehost_ring_write(&producer, chunk, sizeof(chunk)));
    }
    pthread_join(consumer.thread, NULL);
    CHECK_EQ(100, atomic_load(&consumer.result));
    CHECK_EQ(10, lanehost_ring_wake_count(&producer));
    CHECK(!lanehost_ring_has_waiter(&producer));
}

#define ROUNDS 5000
#define MAX_ROUND_BYTES 512u

/*
 * Round lengths both sides derive from one seed: the producer writes a round and waits until the consumer
 * has read all of it, so every round ends with an empty ring and a consumer about to wait. A lost wake-up
 * then cannot hide behind the next write: the consumer would sleep until its timeout and fail.
 */
static uint64_t round_length(uint64_t *state) {
    return 1 + next_random(state) % MAX_ROUND_BYTES;
}

typedef struct round_consumer {
    lanehost_ring ring;
    uint64_t consumed;
    uint64_t first_mismatch;
    int64_t failed_status;
    uint64_t waits;
} round_consumer;

static void *run_round_consumer(void *argument) {
    round_consumer *self = argument;
    uint64_t lengths = 0x5EED, random = 0xFACE;
    uint8_t buffer[MAX_ROUND_BYTES];
    for (int round = 0; round < ROUNDS; round++) {
        uint64_t remaining = round_length(&lengths);
        while (remaining > 0) {
            /* Sometimes the whole rest of the round, sometimes less: partial writes wake it early. */
            const uint64_t min_bytes = 1 + next_random(&random) % remaining;
            const int64_t readable = lanehost_ring_wait_readable(&self->ring, min_bytes, LONG_TIMEOUT_NANOS);
            self->waits++;
            if (readable < (int64_t)min_bytes) {
                self->failed_status = readable;
                return NULL;
            }
            const int64_t got = lanehost_ring_read(&self->ring, buffer, (uint64_t)readable);
            if (got != readable) {
                self->failed_status = got < 0 ? got : -1000;
                return NULL;
            }
            for (int64_t i = 0; i < got && self->first_mismatch == UINT64_MAX; i++) {
                if (buffer[i] != pattern_byte(self->consumed + (uint64_t)i)) self->first_mismatch = self->consumed + (uint64_t)i;
            }
            self->consumed += (uint64_t)got;
            remaining -= (uint64_t)got;
        }
    }
    return NULL;
}

/* 0 to 50 us, a quarter of the time none: only the timing varies, nothing waits on it. */
static void random_delay(uint64_t *random) {
    const uint64_t delay = next_random(random) % 200;
    if (delay >= 50) {
        struct timespec pause = {0, (long)((delay - 50) * 333)};
        nanosleep(&pause, NULL);
    }
}

static void waitingConsumerGetsEveryByteThroughThousandsOfWaits(void) {
    lanehost_ring producer = fresh_ring();
    round_consumer consumer = {.first_mismatch = UINT64_MAX};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_wrap(&consumer.ring, memory, sizeof(memory)));
    pthread_t thread;
    CHECK_EQ(0, pthread_create(&thread, NULL, run_round_consumer, &consumer));

    uint64_t lengths = 0x5EED, random = 0xC0FFEE;
    uint8_t chunk[MAX_ROUND_BYTES];
    uint64_t produced = 0;
    int consumer_kept_up = 1;
    for (int round = 0; round < ROUNDS && consumer_kept_up; round++) {
        const uint64_t length = round_length(&lengths);
        for (uint64_t i = 0; i < length; i++) chunk[i] = pattern_byte(produced + i);
        /* The round in one or two writes, with a delay before each. */
        const uint64_t first = 1 + next_random(&random) % length;
        random_delay(&random);
        CHECK_EQ(first, lanehost_ring_write(&producer, chunk, first));
        if (first < length) {
            random_delay(&random);
            CHECK_EQ(length - first, lanehost_ring_write(&producer, chunk + first, length - first));
        }
        produced += length;
        const int64_t deadline = now_nanos() + 2 * LONG_TIMEOUT_NANOS;
        while (atomic_load_explicit(&producer.header->consumer_position, memory_order_acquire) != produced) {
            if (now_nanos() > deadline || atomic_load_explicit(&producer.header->consumer_position, memory_order_relaxed) > produced) {
                consumer_kept_up = 0;
                break;
            }
            sched_yield();
        }
    }
    pthread_join(thread, NULL);

    CHECK(consumer_kept_up);
    CHECK_EQ(0, consumer.failed_status);
    CHECK_EQ(produced, consumer.consumed);
    CHECK_EQ(UINT64_MAX, consumer.first_mismatch);
    CHECK(lanehost_ring_wake_count(&producer) <= lanehost_ring_doorbell(&producer));
    CHECK(!lanehost_ring_has_waiter(&producer));
    printf("     %d rounds, %" PRIu64 " waits, %" PRIu64 " wakes, %" PRIu64 " publishing writes\n", ROUNDS,
           consumer.waits, lanehost_ring_wake_count(&producer), lanehost_ring_doorbell(&producer));
}

static void on_signal(int signal) {
    (void)signal;
}

static void signalInterruptsAWait(void) {
    lanehost_ring producer = fresh_ring();
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = on_signal; /* no SA_RESTART: the sleeping futex call returns EINTR */
    sigemptyset(&action.sa_mask);
    CHECK_EQ(0, sigaction(SIGUSR1, &action, NULL));

    waiter consumer;
    start_waiter(&consumer, 1);
    /* A signal that lands before the consumer sleeps interrupts nothing, so keep signalling until it returns. */
    const int64_t deadline = now_nanos() + LONG_TIMEOUT_NANOS;
    while (!atomic_load(&consumer.done) && now_nanos() < deadline) {
        pthread_kill(consumer.thread, SIGUSR1);
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    pthread_join(consumer.thread, NULL);
    CHECK_EQ(LANEHOST_RING_INTERRUPTED, atomic_load(&consumer.result));
    CHECK(!lanehost_ring_has_waiter(&producer));
    CHECK_EQ(1, lanehost_ring_write(&producer, "x", 1));
    CHECK_EQ(0, lanehost_ring_wake_count(&producer));
    signal(SIGUSR1, SIG_DFL);
}

int main(void) {
    RUN_TEST(announcedWaiterIsWokenByTheNextWrite);
    RUN_TEST(waiterForMoreBytesSleepsThroughSmallerWrites);
    RUN_TEST(waitingConsumerGetsEveryByteThroughThousandsOfWaits);
    RUN_TEST(signalInterruptsAWait);
    return CHECK_EXIT();
}
