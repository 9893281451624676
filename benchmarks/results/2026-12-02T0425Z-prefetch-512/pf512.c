// Probe: does software prefetch raise a C ring's throughput at 512 B chunks (far placement)?
// Producer pthread on CPU 0, consumer (main) on CPU 1. Windows of W ms rotate modes:
// 0 plain, 1 consumer prefetches published lines ahead, 2 producer prefetchw's free lines ahead, 3 both.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lanehost/lanehost_ring.h"

static lanehost_ring ring;
static _Atomic int mode, phase; // phase: 0 run, 1 probe requested, 2 producer in probe, 3 stop
static _Atomic long ping;
static long CHUNK = 512, DIST = 2048;
static uint64_t sink;
static long SRCOFF = 0;

static inline int64_t rd(lanehost_ring *r, void *dst, uint64_t length, int pf) {
    lanehost_ring_header *h = r->header;
    const uint64_t cap = r->capacity;
    const uint64_t head = atomic_load_explicit(&h->consumer_position, memory_order_relaxed);
    uint64_t tail = h->consumer_cached_producer_position;
    uint64_t avail = tail - head;
    if (avail > cap || avail < length) {
        tail = atomic_load_explicit(&h->producer_position, memory_order_acquire);
        h->consumer_cached_producer_position = tail;
        avail = tail - head;
    }
    uint64_t count = length < avail ? length : avail;
    if (count == 0) return 0;
    uint64_t index = head & r->mask;
    if (pf) {
        uint64_t ahead = avail - count; if (ahead > (uint64_t)DIST) ahead = DIST;
        for (uint64_t o = 0; o < ahead; o += 64) __builtin_prefetch(r->data + ((index + count + o) & r->mask), 0, 3);
    }
    uint64_t first = count < cap - index ? count : cap - index;
    memcpy(dst, r->data + index, first);
    memcpy((uint8_t *)dst + first, r->data, count - first);
    atomic_store_explicit(&h->consumer_position, head + count, memory_order_release);
    return count;
}

static inline int64_t wr(lanehost_ring *r, const void *src, uint64_t length, int pf) {
    lanehost_ring_header *h = r->header;
    const uint64_t cap = r->capacity;
    const uint64_t tail = atomic_load_explicit(&h->producer_position, memory_order_relaxed);
    uint64_t head = h->producer_cached_consumer_position;
    uint64_t used = tail - head;
    if (used > cap || cap - used < length) {
        head = atomic_load_explicit(&h->consumer_position, memory_order_acquire);
        h->producer_cached_consumer_position = head;
        used = tail - head;
    }
    uint64_t fr = cap - used;
    uint64_t count = length < fr ? length : fr;
    if (count == 0) return 0;
    uint64_t index = tail & r->mask;
    if (pf) { // only the lines that enter the window: [DIST, DIST + count) past this write
        uint64_t end = DIST + count; if (end > fr) end = fr;
        for (uint64_t o = DIST; o < end; o += 64) {
            uint8_t *p = r->data + ((index + o) & r->mask);
            if (pf == 1) __builtin_prefetch(p, 1, 3);
            else if (pf == 2) ;
            else sink += *(volatile uint8_t *)p;
        }
    }
    uint64_t first = count < cap - index ? count : cap - index;
    if (pf == 2) { // rep movsb for the whole piece
        void *d = r->data + index; const void *s = src; size_t n = first;
        __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
        memcpy(r->data, (const uint8_t *)src + first, count - first);
    } else {
        memcpy(r->data + index, src, first);
        memcpy(r->data, (const uint8_t *)src + first, count - first);
    }
    atomic_store_explicit(&h->producer_position, tail + count, memory_order_release);
    atomic_store_explicit(&h->doorbell, atomic_load_explicit(&h->doorbell, memory_order_relaxed) + 1, memory_order_release);
    atomic_signal_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&h->wake_word, memory_order_relaxed) & LANEHOST_RING_WAKE_WAITER) lanehost_ring_wake_consumer(h);
    return count;
}

static void pin(int cpu) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s); pthread_setaffinity_np(pthread_self(), sizeof s, &s); }
static long now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000L + t.tv_nsec; }

static void *producer(void *arg) {
    (void)arg; pin(0);
    uint8_t *src = (uint8_t *)aligned_alloc(4096, 1 << 17) + SRCOFF; memset(src, 1, 1 << 16);
    for (;;) {
        int p = atomic_load_explicit(&phase, memory_order_acquire);
        if (p == 3) break;
        if (p == 1) { // ping-pong probe: answer odd values
            atomic_store(&phase, 2);
            for (;;) {
                long v = atomic_load_explicit(&ping, memory_order_acquire);
                if (v < 0) break;
                if (v & 1) atomic_store_explicit(&ping, v + 1, memory_order_release);
            }
            continue;
        }
        if (p == 2) continue;
        int m = atomic_load_explicit(&mode, memory_order_relaxed);
        wr(&ring, src, CHUNK, m);
    }
    return NULL;
}

static double probe(void) {
    atomic_store(&ping, 0); atomic_store(&phase, 1);
    while (atomic_load(&phase) != 2) ;
    long best = 1L << 60;
    for (int rep = 0; rep < 5; rep++) {
        long t0 = now();
        for (int i = 0; i < 2000; i++) {
            long v = atomic_load(&ping); atomic_store_explicit(&ping, v + 1, memory_order_release);
            while (atomic_load_explicit(&ping, memory_order_acquire) == v + 1) ;
        }
        long t = (now() - t0) / 2000; if (t < best) best = t;
    }
    atomic_store(&ping, -1);
    return best;
}

int main(int argc, char **argv) {
    int groups = argc > 1 ? atoi(argv[1]) : 20; long win = (argc > 2 ? atol(argv[2]) : 100) * 1000000L;
    if (argc > 3) CHUNK = atol(argv[3]); if (argc > 4) DIST = atol(argv[4]); if (argc > 5) SRCOFF = atol(argv[5]);
    uint64_t cap = 1 << 20; size_t len = sizeof(lanehost_ring_header) + cap;
    void *mem = aligned_alloc(4096, (len + 4095) & ~4095UL); memset(mem, 0, len);
    if (lanehost_ring_init(&ring, mem, len, cap) != 0) { fprintf(stderr, "init failed\n"); return 1; }
    pin(1);
    uint8_t *dst = aligned_alloc(4096, 1 << 16);
    pthread_t t; pthread_create(&t, NULL, producer, NULL);
    printf("group probe_ns mode0 mode1 mode2 mode3 (GB/s) chunk=%ld dist=%ld\n", CHUNK, DIST);
    for (int g = 0; g < groups; g++) {
        atomic_store(&phase, 1); double pr = probe();
        // drain, then run
        atomic_store(&phase, 0);
        double gbs[4];
        for (int k = 0; k < 4; k++) {
            int m = (g & 1) ? 3 - k : k; // alternate order
            atomic_store(&mode, m);
            long t0 = now(), end = t0 + win, bytes = 0;
            while (now() < end) for (int i = 0; i < 64; i++) bytes += rd(&ring, dst, CHUNK, 0);
            gbs[m] = bytes / (double)(now() - t0);
        }
        printf("%d %.0f %.3f %.3f %.3f %.3f\n", g, pr, gbs[0], gbs[1], gbs[2], gbs[3]); fflush(stdout);
    }
    atomic_store(&phase, 3); pthread_join(t, NULL);
    return 0;
}
