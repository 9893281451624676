/*
 * lanehost_ring.h - the SPSC byte ring shared by C and Java.
 *
 * One producer and one consumer move a byte stream through a power-of-two region of memory. Either
 * side may be C (a hard real-time callback, which must never enter the JVM) or Java
 * (dev.lanehost.ring.SpscByteRing, whose SpscByteRingDescriptor mirrors this layout; a test compares
 * them). Everything here is static inline: no locks, no allocation, and no system calls except two that
 * only waiting brings: lanehost_ring_wait_readable (never on a real-time thread) and the futex wake a write
 * makes when, and only when, a consumer announced that it sleeps. A real-time thread may call the rest.
 *
 * Layout (every field little-endian native order; the memory must be 128-byte aligned, the alignment
 * of the struct below, because each side's fields start a pair of cache lines):
 *
 *     0                   1                   2                   3
 *     0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *    +---------------------------------------------------------------+
 *  0 |                     Magic 0x4C485242 "LHRB"                   |
 *    +---------------------------------------------------------------+
 *  4 |                        Layout version                         |
 *    +---------------------------------------------------------------+
 *  8 |                     Capacity (64 bits)                        |
 *    +---------------------------------------------------------------+
 * 16 |             Reserved, zero, up to byte 128                   ...
 *    +---------------------------------------------------------------+
 *128 |               Producer position (64 bits)                     |  producer writes (release)
 *136 |    Producer's cached consumer position (64 bits, private)     |  producer only
 *144 |               Overrun count (64 bits)                         |  producer writes
 *152 |             Padding up to byte 192                           ...
 *192 |               Doorbell (64 bits)                              |  producer writes (release)
 *200 |  Wake word (32 bits): bit 0 waiter, bits 1-31 zero         |  both: atomic read-modify-writes
 *204 |               Reserved, zero (32 bits)                        |
 *208 |               Wake count (64 bits)                            |  producer writes
 *216 |             Padding up to byte 256                           ...
 *    +---------------------------------------------------------------+
 *256 |               Consumer position (64 bits)                     |  consumer writes (release)
 *264 |    Consumer's cached producer position (64 bits, private)     |  consumer only
 *272 |               Underrun count (64 bits)                        |  consumer writes
 *280 |             Padding up to byte 384                           ...
 *    +---------------------------------------------------------------+
 *384 |               Data: capacity bytes                           ...
 *    +---------------------------------------------------------------+
 *
 * Each side's fields live in their own pair of cache lines (128 bytes), because adjacent-line
 * prefetchers pull lines in pairs and a shared pair would bounce between the two cores. The doorbell and
 * the wake word have the producer's second line to themselves: the consumer polls the position line, and
 * a doorbell store on that line right after the position store would take the line away from it a second
 * time per write. The wake word is the one word the consumer also writes, and only when it goes to sleep
 * (see "Waiting" below), so in the steady state the line stays in the producer's cache.
 *
 * Protocol: positions only grow; byte p lives at data[p & (capacity - 1)]. The producer copies
 * bytes in, then publishes them with a release store of its position; the consumer acquires the
 * producer position, copies bytes out, then frees them with a release store of its position. Each
 * side keeps a private cached copy of the other side's position and re-reads the shared one only
 * when the cache says there is not enough room (or data), so in the steady state each side touches
 * the other's cache line once per wrap rather than once per call.
 *
 * The doorbell counts writes that published at least one byte, so a non-real-time consumer can see
 * activity with one load. The overrun count counts writes that could not place every byte offered;
 * the underrun count counts reads that found fewer bytes than asked for; the wake count counts the wake
 * system calls the producer made for a waiting consumer. Nothing is hidden.
 *
 * Waiting (Linux): a consumer that is not real-time may sleep until bytes arrive instead of polling
 * (lanehost_ring_wait_readable; Java's SpscByteRing.awaitReadable does the same steps). The 32-bit wake
 * word is a futex word: bit 0 says a consumer is waiting; bits 1-31 stay zero.
 *
 *   Consumer, until at least min_bytes are readable or the timeout passes:
 *   1. Check readable; enough: done, without touching the wake word (the polling path stays as it was).
 *   2. Announce: load the wake word (acquire); if bit 0 is clear, set it with a compare-and-swap
 *      (acquire), retrying with the value the failed CAS saw. The word now holds the value w to sleep on.
 *   3. Fence the producer: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED). When it returns, every other
 *      thread of this process has run a full memory barrier (those on a CPU through an interrupt, the
 *      others at their last context switch).
 *   4. Re-check readable; enough: withdraw (CAS w -> w without bit 0; if that fails the producer has
 *      cleared the bit itself) and return.
 *   5. futex_wait(word, w, remaining time). It returns at once if the word is no longer w (EAGAIN), when
 *      woken, at the timeout, or on a signal (EINTR: withdraw, return LANEHOST_RING_INTERRUPTED). Once
 *      the deadline has passed: withdraw and return LANEHOST_RING_TIMED_OUT, even if bytes arrived as it
 *      passed (the next read finds them), so a lost wake-up could never pass for a late success. Otherwise
 *      go to 2.
 *
 *   Producer, after the release store of its position in a write that published bytes:
 *   6. A compiler barrier (no instruction), then a relaxed load of the wake word, on the producer's own
 *      line; bit 0 clear (nobody waits): done. That load is all a write pays when nobody waits: no atomic
 *      read-modify-write, no fence instruction, no system call.
 *   7. Bit 0 set: fetch_and(wake word, ~1) (the waiter will announce again if it sleeps again), count
 *      one wake, futex_wake(word, all).
 *
 * No lost wake-up. This is Dekker's pattern (consumer: store the bit, load the position; producer: store
 * the position, load the bit), which needs a store-load barrier on both sides; the consumer's membarrier
 * puts the producer's half of it into the producer's thread from outside, only when a consumer is about to
 * sleep (userspace RCU's and folly's asymmetric barrier). The membarrier in step 3 splits the producer's
 * instructions at a full barrier: if the producer's load (6) comes after it, the load sees bit 0, which
 * step 2 set before step 3, and the producer wakes (7); if before, the position store that precedes the
 * load in program order (the compiler barrier keeps it there) is visible when membarrier returns, and the
 * re-check (4) sees the bytes. A consumer that reaches futex_wait(w) after step 7 cleared the bit returns
 * at once, because the kernel compares the word with w before sleeping. One waiting thread at a time: the
 * consumer.
 *
 * What it needs: Linux 4.14 or later with membarrier(2) allowed, and the producer in the consumer's process:
 * membarrier's private command reaches only this process's threads, so a consumer of a ring shared with another
 * process must poll, not wait. Where membarrier is refused (a seccomp filter, an older kernel) a wait that would
 * sleep withdraws its announcement and returns LANEHOST_RING_UNSUPPORTED at once; polling works as everywhere
 * (test_ring_membarrier_refused). ThreadSanitizer cannot see the membarrier; test_ring_fence (and jcstress
 * RingFenceTest on the Java side) runs the race itself many times on real hardware and finds lost wake-ups when the
 * fence is compiled out, none with it, and test_ring_interleavings plays every order of its steps through the test
 * hooks below against an emulated store buffer.
 *
 * Each side holds its own lanehost_ring handle whose capacity and mask were validated once, so a
 * corrupted header cannot make either side write outside the region. Positions that no working ring can
 * have (the producer behind the consumer, or more than the capacity ahead of it) are reported as
 * LANEHOST_RING_CORRUPT: by wrap, before the first transfer, and by any transfer that finds them later. A
 * transfer reads the other side's position only when its cached copy does not already allow it (the point of the
 * cache), so a header overwritten while in use, cached copies included, can go unnoticed for some transfers, which
 * then move wrong bytes (inside the region, never outside it) until one reads an impossible position.
 * The observers (readable, writable) clamp instead and stay within [0, capacity].
 *
 * A NULL lanehost_ring pointer, or a lanehost_ring that init or wrap never filled (zeroed: header NULL), is
 * answered, never followed: the transfers, the wait and the checks return LANEHOST_RING_INVALID_ARGUMENT, and
 * the observers and counters (readable, writable, doorbell, wake_count, has_waiter, overrun_count,
 * underrun_count) return 0. That costs a compare and a well-predicted branch per call.
 */
#ifndef LANEHOST_RING_H
#define LANEHOST_RING_H

#ifdef __cplusplus
#include <atomic>
#include <type_traits>
#else
#include <stdalign.h>
#include <stdatomic.h>
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__linux__)
#define LANEHOST_RING_CAN_WAIT 1
#include <errno.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifndef __cplusplus
/* Declared here too: <unistd.h> hides syscall(2) in strict ISO C (-std=c11), and an identical C
   declaration is harmless. C++ compilers define _GNU_SOURCE, so <unistd.h> declares it there. */
long syscall(long number, ...);
#endif
#endif

/*
 * C and C++. The header compiles as C11 and as C++17 or later with one layout and the same memory orders: the
 * shared words are C11 _Atomic objects in C and std::atomic objects in C++ (lock-free, of the same size and
 * alignment; the static assertions below check it), and every access names its order. The macros below spell
 * the one set of operations in each language; in C they expand to exactly the C11 calls.
 */
#ifdef __cplusplus
#define LANEHOST_RING_ATOMIC(type) std::atomic<type>
#define LANEHOST_RING_STD(name) std::name
#define LANEHOST_RING_INIT(object, value) std::atomic_store_explicit(object, value, std::memory_order_relaxed)
#define LANEHOST_ALIGNOF(type) alignof(type)
#define LANEHOST_STATIC_ASSERT(condition, message) static_assert(condition, message)
#else
#define LANEHOST_RING_ATOMIC(type) _Atomic type
#define LANEHOST_RING_STD(name) name
#define LANEHOST_RING_INIT(object, value) atomic_init(object, value)
#define LANEHOST_ALIGNOF(type) _Alignof(type)
#define LANEHOST_STATIC_ASSERT(condition, message) _Static_assert(condition, message)
#endif
#define LANEHOST_RING_RELAXED LANEHOST_RING_STD(memory_order_relaxed)
#define LANEHOST_RING_ACQUIRE LANEHOST_RING_STD(memory_order_acquire)
#define LANEHOST_RING_RELEASE LANEHOST_RING_STD(memory_order_release)
#define LANEHOST_RING_LOAD(object, order) LANEHOST_RING_STD(atomic_load_explicit)(object, order)
#define LANEHOST_RING_STORE(object, value, order) LANEHOST_RING_STD(atomic_store_explicit)(object, value, order)

#ifdef __cplusplus
extern "C" {
#endif

#define LANEHOST_RING_MAGIC 0x4C485242u /* "LHRB" read as a little-endian uint32 */
/*
 * 2: the wake word and the wake count (waiting consumers). 3: the same bytes, another waiting protocol: the
 * producer only loads the wake word, and a consumer about to sleep fences the producer with membarrier(2),
 * so a version-2 side and a version-3 side would lose wake-ups.
 */
#define LANEHOST_RING_LAYOUT_VERSION 3u
#define LANEHOST_RING_CACHE_LINE_LENGTH 64u
/*
 * A pair of cache lines: the struct's own alignment (alignas below), so a header at any address this
 * allows is a valid lanehost_ring_header, and each side's fields stay in one pair of lines.
 */
#define LANEHOST_RING_ALIGNMENT 128u
/* The smallest useful ring: one cache line of data. */
#define LANEHOST_RING_MIN_CAPACITY 64u
/* Positions are 64-bit and lengths are returned as int64_t. */
#define LANEHOST_RING_MAX_CAPACITY (UINT64_C(1) << 62)
/* The wake word's bit 0: a consumer has announced that it is going to sleep. */
#define LANEHOST_RING_WAKE_WAITER 1u

/* Results. Zero or positive from write/read is a byte count; negative is one of these. */
typedef enum lanehost_ring_status {
    LANEHOST_RING_OK = 0,
    LANEHOST_RING_INVALID_ARGUMENT = -1,     /* a NULL or unwrapped ring, NULL memory, a NULL buffer with a
                                                length, a length (or frames * frame_bytes) above INT64_MAX,
                                                frame_bytes 0 or above the capacity, a wait's min_bytes 0 or
                                                above the capacity or negative timeout */
    LANEHOST_RING_CAPACITY_NOT_POWER_OF_TWO = -2,
    LANEHOST_RING_CAPACITY_TOO_SMALL = -3,   /* below LANEHOST_RING_MIN_CAPACITY */
    LANEHOST_RING_CAPACITY_TOO_LARGE = -4,   /* above LANEHOST_RING_MAX_CAPACITY */
    LANEHOST_RING_MISALIGNED = -5,           /* memory not LANEHOST_RING_ALIGNMENT (128)-byte aligned */
    LANEHOST_RING_MEMORY_TOO_SHORT = -6,     /* memory shorter than header + capacity */
    LANEHOST_RING_BAD_MAGIC = -7,            /* wrap: not a ring (or not initialised) */
    LANEHOST_RING_BAD_VERSION = -8,          /* wrap: a ring of another layout version */
    LANEHOST_RING_CORRUPT = -9,              /* producer behind the consumer or more than the capacity ahead */
    LANEHOST_RING_TIMED_OUT = -10,           /* wait: fewer than min_bytes readable when the timeout passed */
    LANEHOST_RING_INTERRUPTED = -11,         /* wait: a signal handler ran (installed without SA_RESTART) */
    LANEHOST_RING_UNSUPPORTED = -12          /* wait: no futex or no membarrier(2) here: poll instead */
} lanehost_ring_status;

typedef struct lanehost_ring_header {
    /* Header: written once by init, read by wrap. */
    LANEHOST_RING_ATOMIC(uint32_t) magic;
    uint32_t version;
    uint64_t capacity;
    /* 1 once the ring's owner has let go of it (lanehost_ring_owner_closed); 0, as init leaves it, while open. */
    LANEHOST_RING_ATOMIC(uint32_t) owner_closed;
    uint8_t reserved[2 * LANEHOST_RING_CACHE_LINE_LENGTH - 20];

    /* Producer's pair of cache lines. */
    alignas(LANEHOST_RING_ALIGNMENT) LANEHOST_RING_ATOMIC(uint64_t) producer_position;
    uint64_t producer_cached_consumer_position;
    LANEHOST_RING_ATOMIC(uint64_t) overrun_count;
    uint8_t producer_padding[LANEHOST_RING_CACHE_LINE_LENGTH - 24];
    LANEHOST_RING_ATOMIC(uint64_t) doorbell;
    LANEHOST_RING_ATOMIC(uint32_t) wake_word; /* a futex word: 32 bits on every Linux architecture */
    uint32_t wake_reserved;
    LANEHOST_RING_ATOMIC(uint64_t) wake_count;
    uint8_t doorbell_padding[LANEHOST_RING_CACHE_LINE_LENGTH - 24];

    /* Consumer's pair of cache lines. */
    alignas(LANEHOST_RING_ALIGNMENT) LANEHOST_RING_ATOMIC(uint64_t) consumer_position;
    uint64_t consumer_cached_producer_position;
    LANEHOST_RING_ATOMIC(uint64_t) underrun_count;
    uint8_t consumer_padding[2 * LANEHOST_RING_CACHE_LINE_LENGTH - 24];
} lanehost_ring_header;

#define LANEHOST_RING_HEADER_LENGTH 384u
#define LANEHOST_RING_MEMORY_LENGTH(capacity) ((uint64_t)LANEHOST_RING_HEADER_LENGTH + (uint64_t)(capacity))

#ifdef __cplusplus
LANEHOST_STATIC_ASSERT(std::atomic<uint64_t>::is_always_lock_free,
                       "the ring needs lock-free 64-bit atomics to share memory with C and Java");
LANEHOST_STATIC_ASSERT(sizeof(std::atomic<uint64_t>) == 8 && alignof(std::atomic<uint64_t>) == 8,
                       "atomic positions must be plain 64-bit words, as C's _Atomic uint64_t");
LANEHOST_STATIC_ASSERT(std::atomic<uint32_t>::is_always_lock_free && sizeof(std::atomic<uint32_t>) == 4 &&
                           alignof(std::atomic<uint32_t>) == 4,
                       "the magic and the wake word must be plain 32-bit words, as C's _Atomic uint32_t");
LANEHOST_STATIC_ASSERT(std::is_standard_layout<lanehost_ring_header>::value,
                       "the header must be standard-layout for its offsets to be C's");
#else
LANEHOST_STATIC_ASSERT(ATOMIC_LLONG_LOCK_FREE == 2, "the ring needs lock-free 64-bit atomics to share memory with Java");
LANEHOST_STATIC_ASSERT(sizeof(_Atomic uint64_t) == 8, "atomic positions must be plain 64-bit words");
LANEHOST_STATIC_ASSERT(sizeof(_Atomic uint32_t) == 4 && ATOMIC_INT_LOCK_FREE == 2,
                       "the wake word must be a plain 32-bit futex word");
#endif
LANEHOST_STATIC_ASSERT(LANEHOST_RING_ALIGNMENT == 2 * LANEHOST_RING_CACHE_LINE_LENGTH, "the alignment is one pair of cache lines");
LANEHOST_STATIC_ASSERT(LANEHOST_ALIGNOF(lanehost_ring_header) == LANEHOST_RING_ALIGNMENT,
               "LANEHOST_RING_ALIGNMENT must be the header struct's own alignment, or a checked pointer is still UB");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, magic) == 0, "magic offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, version) == 4, "version offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, capacity) == 8, "capacity offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, owner_closed) == 16, "owner-closed offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, producer_position) == 128, "producer position offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, producer_cached_consumer_position) == 136, "producer cache offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, overrun_count) == 144, "overrun count offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, doorbell) == 192, "doorbell offset: the producer's second cache line");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, wake_word) == 200, "wake word offset: beside the doorbell");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, wake_count) == 208, "wake count offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, consumer_position) == 256, "consumer position offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, consumer_cached_producer_position) == 264, "consumer cache offset");
LANEHOST_STATIC_ASSERT(offsetof(lanehost_ring_header, underrun_count) == 272, "underrun count offset");
LANEHOST_STATIC_ASSERT(sizeof(lanehost_ring_header) == LANEHOST_RING_HEADER_LENGTH, "header length");

/*
 * Test hooks: the waiting protocol's race, widened on purpose. A build that defines LANEHOST_RING_TEST_HOOKS (a
 * test program, never the library: the test defines the four functions) calls them at the four points where the
 * other side's steps decide the outcome; every other build expands LANEHOST_RING_TEST_HOOK to nothing, arguments
 * unevaluated, so no product byte changes. test_ring_interleavings parks each side there and plays one order of the
 * two sides' steps per round.
 *   producer_published  after the position store, before step 6's wake-word load
 *   consumer_announced  after step 2, before the fence
 *   consumer_fenced     inside step 3, once membarrier has returned: where the fence acts, so a wait that stops
 *                       fencing (or fences after its re-check) stops calling it
 *   consumer_rechecked  after step 4's re-check, before the consumer withdraws or sleeps
 */
#ifdef LANEHOST_RING_TEST_HOOKS
void lanehost_ring_test_hook_producer_published(lanehost_ring_header *header);
void lanehost_ring_test_hook_consumer_announced(lanehost_ring_header *header);
void lanehost_ring_test_hook_consumer_fenced(void);
void lanehost_ring_test_hook_consumer_rechecked(lanehost_ring_header *header, uint64_t readable);
#define LANEHOST_RING_TEST_HOOK(call) call
#else
#define LANEHOST_RING_TEST_HOOK(call) ((void)0)
#endif

/* One side's view of a ring: validated once, kept in the side's own memory. */
typedef struct lanehost_ring {
    lanehost_ring_header *header;
    uint8_t *data;
    uint64_t capacity;
    uint64_t mask;
} lanehost_ring;

static inline const char *lanehost_ring_status_message(int64_t status) {
    switch (status) {
        case LANEHOST_RING_OK: return "ok";
        case LANEHOST_RING_INVALID_ARGUMENT:
            return "invalid argument: a NULL or unwrapped ring, NULL memory, a NULL buffer with a length above 0, "
                   "a length (or frames * frame_bytes) above INT64_MAX, frame_bytes 0 or larger than the ring, "
                   "or a wait's min_bytes 0 or larger than the ring or negative timeout";
        case LANEHOST_RING_CAPACITY_NOT_POWER_OF_TWO: return "capacity is not a power of two";
        case LANEHOST_RING_CAPACITY_TOO_SMALL: return "capacity is below LANEHOST_RING_MIN_CAPACITY (64)";
        case LANEHOST_RING_CAPACITY_TOO_LARGE: return "capacity is above LANEHOST_RING_MAX_CAPACITY (2^62)";
        case LANEHOST_RING_MISALIGNED: return "ring memory is not 128-byte aligned";
        case LANEHOST_RING_MEMORY_TOO_SHORT: return "ring memory is shorter than the header plus the capacity";
        case LANEHOST_RING_BAD_MAGIC: return "not a lanehost ring: wrong magic (was it initialised?)";
        case LANEHOST_RING_BAD_VERSION: return "a lanehost ring of another layout version";
        case LANEHOST_RING_CORRUPT:
            return "ring positions are corrupt: the producer is behind the consumer or more than the capacity ahead "
                   "of it (the header was overwritten)";
        case LANEHOST_RING_TIMED_OUT: return "timed out: fewer bytes than asked for became readable";
        case LANEHOST_RING_INTERRUPTED: return "interrupted: a signal arrived while waiting";
        case LANEHOST_RING_UNSUPPORTED:
            return "waiting is unsupported here: it needs Linux futexes and membarrier(2) (private expedited); "
                   "poll lanehost_ring_readable instead";
        default: return "unknown lanehost ring status";
    }
}

static inline int lanehost_ring_check_capacity(uint64_t capacity) {
    if (capacity < LANEHOST_RING_MIN_CAPACITY) return LANEHOST_RING_CAPACITY_TOO_SMALL;
    if (capacity > LANEHOST_RING_MAX_CAPACITY) return LANEHOST_RING_CAPACITY_TOO_LARGE;
    if ((capacity & (capacity - 1)) != 0) return LANEHOST_RING_CAPACITY_NOT_POWER_OF_TWO;
    return LANEHOST_RING_OK;
}

static inline int lanehost_ring_check_memory(const void *memory, uint64_t memory_length, uint64_t capacity) {
    if (memory == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    if (((uintptr_t)memory & (LANEHOST_RING_ALIGNMENT - 1)) != 0) return LANEHOST_RING_MISALIGNED;
    if (memory_length < LANEHOST_RING_MEMORY_LENGTH(capacity)) return LANEHOST_RING_MEMORY_TOO_SHORT;
    return LANEHOST_RING_OK;
}

static inline void lanehost_ring_bind(lanehost_ring *ring, void *memory, uint64_t capacity) {
    if (ring == NULL) return;
    ring->header = (lanehost_ring_header *)memory;
    ring->data = (uint8_t *)memory + LANEHOST_RING_HEADER_LENGTH;
    ring->capacity = capacity;
    ring->mask = capacity - 1;
}

/*
 * Formats memory_length bytes at memory as an empty ring of the given capacity and fills *ring.
 * Neither side may use the memory while this runs.
 */
static inline int lanehost_ring_init(lanehost_ring *ring, void *memory, uint64_t memory_length, uint64_t capacity) {
    if (ring == NULL || memory == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    int status = lanehost_ring_check_capacity(capacity);
    if (status != LANEHOST_RING_OK) return status;
    status = lanehost_ring_check_memory(memory, memory_length, capacity);
    if (status != LANEHOST_RING_OK) return status;

    lanehost_ring_header *header = (lanehost_ring_header *)memory;
    memset((void *)header, 0, LANEHOST_RING_HEADER_LENGTH); /* void *: C++ warns when it clears atomics */
    header->capacity = capacity;
    header->version = LANEHOST_RING_LAYOUT_VERSION;
    LANEHOST_RING_INIT(&header->owner_closed, 0);
    LANEHOST_RING_INIT(&header->producer_position, 0);
    LANEHOST_RING_INIT(&header->doorbell, 0);
    LANEHOST_RING_INIT(&header->wake_word, 0);
    LANEHOST_RING_INIT(&header->wake_count, 0);
    LANEHOST_RING_INIT(&header->overrun_count, 0);
    LANEHOST_RING_INIT(&header->consumer_position, 0);
    LANEHOST_RING_INIT(&header->underrun_count, 0);
    /* The magic goes last, with release: a side that wraps and sees it sees a formatted header. */
    LANEHOST_RING_STORE(&header->magic, LANEHOST_RING_MAGIC, LANEHOST_RING_RELEASE);
    lanehost_ring_bind(ring, memory, capacity);
    return LANEHOST_RING_OK;
}

/*
 * Whether the header's positions can belong to a working ring: the producer never behind the consumer
 * and at most capacity bytes ahead of it.
 *
 * Positions are unsigned 64-bit counters that only grow and wrap to zero after 2^64 bytes, so "ahead" is
 * the unsigned difference producer - consumer, which a working ring keeps in [0, capacity] whatever the
 * raw values (producer 5, consumer 2^64 - 3: 8 bytes to read), while a producer behind the consumer makes
 * it enormous. Comparing the raw values (consumer <= producer) would call a wrapped ring corrupt, and
 * signed arithmetic would do the same at 2^63, where Java's long turns negative.
 *
 * Either side may be running while someone wraps (an observer, or the other side of a live ring), so the
 * consumer position is read before (c1) and after (c2) the producer position (p); all three loads acquire.
 * A working ring then has c1 <= p <= c2 + capacity: the consumer never passes a producer position it has
 * not acquired and the producer only grows, and the producer never passes a consumer position plus the
 * capacity and the consumer only grows. In wrap-around arithmetic: p - c1 <= (c2 - c1) + capacity. With
 * the consumer at rest (c1 == c2) that is exactly producer - consumer <= capacity.
 */
static inline int lanehost_ring_check_positions(lanehost_ring_header *header, uint64_t capacity) {
    if (header == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    const uint64_t consumer_before = LANEHOST_RING_LOAD(&header->consumer_position, LANEHOST_RING_ACQUIRE);
    const uint64_t producer = LANEHOST_RING_LOAD(&header->producer_position, LANEHOST_RING_ACQUIRE);
    const uint64_t consumer_after = LANEHOST_RING_LOAD(&header->consumer_position, LANEHOST_RING_ACQUIRE);
    const uint64_t consumed_meanwhile = consumer_after - consumer_before;
    if (producer - consumer_before > consumed_meanwhile + capacity) return LANEHOST_RING_CORRUPT;
    return LANEHOST_RING_OK;
}

/*
 * Validates a ring that the other side (C or Java) formatted, and fills *ring: alignment, magic, layout
 * version, capacity, length, and positions (lanehost_ring_check_positions), so a corrupt ring is refused
 * here rather than by the first transfer.
 */
static inline int lanehost_ring_wrap(lanehost_ring *ring, void *memory, uint64_t memory_length) {
    if (ring == NULL || memory == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    if (((uintptr_t)memory & (LANEHOST_RING_ALIGNMENT - 1)) != 0) return LANEHOST_RING_MISALIGNED;
    if (memory_length < LANEHOST_RING_HEADER_LENGTH) return LANEHOST_RING_MEMORY_TOO_SHORT;
    lanehost_ring_header *header = (lanehost_ring_header *)memory;
    if (LANEHOST_RING_LOAD(&header->magic, LANEHOST_RING_ACQUIRE) != LANEHOST_RING_MAGIC) {
        return LANEHOST_RING_BAD_MAGIC;
    }
    if (header->version != LANEHOST_RING_LAYOUT_VERSION) return LANEHOST_RING_BAD_VERSION;
    uint64_t capacity = header->capacity;
    int status = lanehost_ring_check_capacity(capacity);
    if (status != LANEHOST_RING_OK) return status;
    status = lanehost_ring_check_memory(memory, memory_length, capacity);
    if (status != LANEHOST_RING_OK) return status;
    status = lanehost_ring_check_positions(header, capacity);
    if (status != LANEHOST_RING_OK) return status;
    lanehost_ring_bind(ring, memory, capacity);
    return LANEHOST_RING_OK;
}

/*
 * Producer, step 7 of the waiting protocol: a consumer announced that it sleeps. Clears its announcement
 * (it announces again if it sleeps again) and wakes it. Out of the write's fast path, and never inlined
 * into it, because it is the rare case.
 */
#if defined(__GNUC__)
__attribute__((unused, noinline, cold))
#endif
static void lanehost_ring_wake_consumer(lanehost_ring_header *header) {
    if (header == NULL) return;
    /* Relaxed: the bytes are ordered by the position, and the consumer re-checks it after any wake. */
    LANEHOST_RING_STD(atomic_fetch_and_explicit)(&header->wake_word, ~(uint32_t)LANEHOST_RING_WAKE_WAITER,
                                                 LANEHOST_RING_RELAXED);
    LANEHOST_RING_STORE(&header->wake_count, LANEHOST_RING_LOAD(&header->wake_count, LANEHOST_RING_RELAXED) + 1,
                        LANEHOST_RING_RELAXED);
#ifdef LANEHOST_RING_CAN_WAIT
    /* FUTEX_WAKE, not the _PRIVATE variant: ring memory may be shared between processes. */
    syscall(SYS_futex, (uint32_t *)&header->wake_word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
#endif
}

/*
 * Producer only. Copies up to length bytes from src into the ring and returns how many it copied
 * (0 when full), or a negative lanehost_ring_status. A short write counts one overrun.
 *
 * A write that publishes bytes also loads the wake word (step 6 of the waiting protocol) and, only if a
 * consumer announced that it sleeps, wakes it with a system call. So a real-time producer makes no system
 * call unless a non-real-time consumer chose to wait on this ring.
 */
static inline int64_t lanehost_ring_write(lanehost_ring *ring, const void *src, uint64_t length) {
    if (ring == NULL || ring->header == NULL || (src == NULL && length != 0) || length > (uint64_t)INT64_MAX) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    lanehost_ring_header *header = ring->header;
    const uint64_t capacity = ring->capacity;
    /* Our own position: only we write it, so relaxed reads our last store. */
    const uint64_t tail = LANEHOST_RING_LOAD(&header->producer_position, LANEHOST_RING_RELAXED);
    uint64_t head = header->producer_cached_consumer_position;
    uint64_t used = tail - head;
    if (used > capacity || capacity - used < length) {
        /* Acquire pairs with the consumer's release: the bytes it freed are no longer being read. */
        head = LANEHOST_RING_LOAD(&header->consumer_position, LANEHOST_RING_ACQUIRE);
        header->producer_cached_consumer_position = head;
        used = tail - head;
        if (used > capacity) return LANEHOST_RING_CORRUPT;
    }
    const uint64_t free_bytes = capacity - used;
    const uint64_t count = length < free_bytes ? length : free_bytes;
    if (count < length) {
        LANEHOST_RING_STORE(&header->overrun_count,
                            LANEHOST_RING_LOAD(&header->overrun_count, LANEHOST_RING_RELAXED) + 1,
                            LANEHOST_RING_RELAXED);
    }
    if (count == 0) return 0;

    const uint64_t index = tail & ring->mask;
    const uint64_t first = count < capacity - index ? count : capacity - index;
    memcpy(ring->data + index, src, (size_t)first);
    memcpy(ring->data, (const uint8_t *)src + first, (size_t)(count - first));
    /* Release: the consumer that acquires this position sees the bytes copied above. */
    LANEHOST_RING_STORE(&header->producer_position, tail + count, LANEHOST_RING_RELEASE);
    LANEHOST_RING_STORE(&header->doorbell, LANEHOST_RING_LOAD(&header->doorbell, LANEHOST_RING_RELAXED) + 1,
                        LANEHOST_RING_RELEASE);
    /*
     * Step 6. The compiler barrier keeps the load below the position store; the consumer's membarrier
     * (step 3) supplies the hardware's half of that order, so this costs no instruction.
     */
    LANEHOST_RING_STD(atomic_signal_fence)(LANEHOST_RING_STD(memory_order_seq_cst));
    LANEHOST_RING_TEST_HOOK(lanehost_ring_test_hook_producer_published(header));
    if (LANEHOST_RING_LOAD(&header->wake_word, LANEHOST_RING_RELAXED) & LANEHOST_RING_WAKE_WAITER) {
        lanehost_ring_wake_consumer(header);
    }
    return (int64_t)count;
}

/*
 * Consumer only. Copies up to length bytes out of the ring into dst and returns how many it copied
 * (0 when empty), or a negative lanehost_ring_status. A short read counts one underrun.
 *
 * It takes whatever bytes are there, a part of a frame included. On a ring a consumer also reads with
 * lanehost_ring_read_frames, only read whole frames here (ask for a multiple of frame_bytes and read no more
 * than lanehost_ring_readable rounded down to one): a partial read leaves the next frame read starting
 * mid-frame, and nothing reports it.
 */
static inline int64_t lanehost_ring_read(lanehost_ring *ring, void *dst, uint64_t length) {
    if (ring == NULL || ring->header == NULL || (dst == NULL && length != 0) || length > (uint64_t)INT64_MAX) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    lanehost_ring_header *header = ring->header;
    const uint64_t capacity = ring->capacity;
    const uint64_t head = LANEHOST_RING_LOAD(&header->consumer_position, LANEHOST_RING_RELAXED);
    uint64_t tail = header->consumer_cached_producer_position;
    uint64_t available = tail - head;
    if (available > capacity || available < length) {
        /* Acquire pairs with the producer's release: the bytes it published are visible. */
        tail = LANEHOST_RING_LOAD(&header->producer_position, LANEHOST_RING_ACQUIRE);
        header->consumer_cached_producer_position = tail;
        available = tail - head;
        if (available > capacity) return LANEHOST_RING_CORRUPT;
    }
    const uint64_t count = length < available ? length : available;
    if (count < length) {
        LANEHOST_RING_STORE(&header->underrun_count,
                            LANEHOST_RING_LOAD(&header->underrun_count, LANEHOST_RING_RELAXED) + 1,
                            LANEHOST_RING_RELAXED);
    }
    if (count == 0) return 0;

    const uint64_t index = head & ring->mask;
    const uint64_t first = count < capacity - index ? count : capacity - index;
    memcpy(dst, ring->data + index, (size_t)first);
    memcpy((uint8_t *)dst + first, ring->data, (size_t)(count - first));
    /* Release: the producer that acquires this position may overwrite these bytes only after our copy. */
    LANEHOST_RING_STORE(&header->consumer_position, head + count, LANEHOST_RING_RELEASE);
    return (int64_t)count;
}

/*
 * Bytes the consumer could read now, in [0, capacity]; 0 for a NULL or unwrapped ring (a lanehost_ring that
 * init or wrap never filled: header NULL). Either side, or an observer, may call it.
 * Consumer first: the producer only moves ahead, so a working ring never shows a negative difference. An
 * observer may see more than the capacity (the consumer moved on between the loads) and a corrupt header
 * anything, the producer behind the consumer included (a huge unsigned difference): both read as the
 * capacity, so readable and writable never leave [0, capacity]. The transfers report corruption.
 */
static inline uint64_t lanehost_ring_readable(const lanehost_ring *ring) {
    if (ring == NULL || ring->header == NULL) return 0;
    uint64_t head = LANEHOST_RING_LOAD(&ring->header->consumer_position, LANEHOST_RING_ACQUIRE);
    uint64_t tail = LANEHOST_RING_LOAD(&ring->header->producer_position, LANEHOST_RING_ACQUIRE);
    uint64_t available = tail - head;
    return available > ring->capacity ? ring->capacity : available;
}

/* Bytes the producer could write now; 0 for a NULL or unwrapped ring. Either side, or an observer, may call it. */
static inline uint64_t lanehost_ring_writable(const lanehost_ring *ring) {
    if (ring == NULL || ring->header == NULL) return 0;
    return ring->capacity - lanehost_ring_readable(ring);
}

/*
 * Consumer only, for a real-time playback callback: fills dst with exactly frames * frame_bytes bytes — the
 * whole frames the ring holds, up to frames, then silence (fill_byte: 0 for signed PCM and float) for the
 * rest — and returns how many frames came from the ring, or a negative lanehost_ring_status. It never takes a
 * partial frame, so a producer that writes whole frames keeps its stream aligned; a fill counts one underrun,
 * in the header, where Java reads it too. Never blocks, never allocates, never enters the kernel.
 * LANEHOST_RING_INVALID_ARGUMENT for frame_bytes 0 or larger than the ring's capacity (no such frame could ever
 * arrive whole), dst NULL with frames above 0, or frames * frame_bytes above INT64_MAX; nothing is counted then.
 *
 * The ring carries bytes, not frames: it cannot check that frames line up, so the caller keeps them aligned.
 * frame_bytes must be what the producer writes per frame (channels * bytes per sample, the same on every call),
 * the producer must write whole frames only, and a consumer that also calls lanehost_ring_read on this ring must
 * read whole frames there too. A frame size that differs from the producer's, or a partial byte read, shifts
 * every later frame by the leftover bytes, silently: the samples come out misassigned (channels swapped, or bytes
 * of two samples read as one), with no error and no count.
 */
static inline int64_t lanehost_ring_read_frames(lanehost_ring *ring, void *dst, uint64_t frames, uint64_t frame_bytes,
                                                uint8_t fill_byte) {
    /* A frame larger than the ring could never be read whole: refused, not played as silence forever. */
    if (ring == NULL || ring->header == NULL || frame_bytes == 0 || frame_bytes > ring->capacity
        || (dst == NULL && frames != 0) || frames > (uint64_t)INT64_MAX / frame_bytes) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    const uint64_t wanted = frames * frame_bytes;
    uint64_t available = lanehost_ring_readable(ring);
    uint64_t whole = available / frame_bytes;
    if (whole > frames) whole = frames;
    int64_t got = 0;
    if (whole > 0) {
        got = lanehost_ring_read(ring, dst, whole * frame_bytes); /* counts nothing: it asks for what is there */
        if (got < 0) return got;
    }
    if ((uint64_t)got < wanted) {
        memset((uint8_t *)dst + got, fill_byte, (size_t)(wanted - (uint64_t)got));
        lanehost_ring_header *header = ring->header;
        LANEHOST_RING_STORE(&header->underrun_count,
                            LANEHOST_RING_LOAD(&header->underrun_count, LANEHOST_RING_RELAXED) + 1,
                            LANEHOST_RING_RELAXED);
    }
    return got / (int64_t)frame_bytes;
}

/*
 * Producer only, for a real-time capture callback: copies the whole frames of src that fit, up to frames, and
 * returns how many it copied (0 when not one fits), or a negative lanehost_ring_status. It never writes a partial
 * frame, so the stream stays aligned when the consumer falls behind, whatever the frame size (6 bytes for 24-bit
 * stereo, 12 for three float channels: sizes that do not divide the capacity, where lanehost_ring_write's "what
 * fits" would end mid-frame); the frames that did not fit are dropped, and a write that dropped any counts one
 * overrun, in the header, where Java reads it too. Never blocks, never allocates; it enters the kernel only as
 * lanehost_ring_write does, to wake a consumer that announced it sleeps.
 * LANEHOST_RING_INVALID_ARGUMENT for frame_bytes 0 or larger than the ring's capacity (no such frame could ever
 * fit), src NULL with frames above 0, or frames * frame_bytes above INT64_MAX; nothing is counted then.
 * LANEHOST_RING_CORRUPT for a header whose producer is behind the consumer, as lanehost_ring_write.
 * frame_bytes must be what the consumer reads per frame, and the same on every call.
 */
static inline int64_t lanehost_ring_write_frames(lanehost_ring *ring, const void *src, uint64_t frames,
                                                 uint64_t frame_bytes) {
    if (ring == NULL || ring->header == NULL || frame_bytes == 0 || frame_bytes > ring->capacity
        || (src == NULL && frames != 0) || frames > (uint64_t)INT64_MAX / frame_bytes) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    /* What the producer may write only grows while it looks: the consumer frees, never takes back. Acquire pairs
       with the consumer's release, as in lanehost_ring_write; a header the producer is behind is reported. */
    lanehost_ring_header *header = ring->header;
    const uint64_t used = LANEHOST_RING_LOAD(&header->producer_position, LANEHOST_RING_RELAXED)
                          - LANEHOST_RING_LOAD(&header->consumer_position, LANEHOST_RING_ACQUIRE);
    if (used > ring->capacity) return LANEHOST_RING_CORRUPT;
    uint64_t whole = (ring->capacity - used) / frame_bytes;
    if (whole > frames) whole = frames;
    int64_t put = 0;
    if (whole > 0) {
        put = lanehost_ring_write(ring, src, whole * frame_bytes); /* counts nothing: it fits */
        if (put < 0) return put;
    }
    if (whole < frames) {
        LANEHOST_RING_STORE(&header->overrun_count,
                            LANEHOST_RING_LOAD(&header->overrun_count, LANEHOST_RING_RELAXED) + 1,
                            LANEHOST_RING_RELAXED);
    }
    return put / (int64_t)frame_bytes;
}

/* Writes that published at least one byte (see the doorbell above); 0 for a NULL or unwrapped ring. */
static inline uint64_t lanehost_ring_doorbell(const lanehost_ring *ring) {
    if (ring == NULL || ring->header == NULL) return 0;
    return LANEHOST_RING_LOAD(&ring->header->doorbell, LANEHOST_RING_ACQUIRE);
}

/*
 * Wake system calls the producer made because a consumer had announced that it sleeps; 0 for a NULL or
 * unwrapped ring.
 */
static inline uint64_t lanehost_ring_wake_count(const lanehost_ring *ring) {
    if (ring == NULL || ring->header == NULL) return 0;
    return LANEHOST_RING_LOAD(&ring->header->wake_count, LANEHOST_RING_RELAXED);
}

/*
 * Whether a consumer has announced that it is going to sleep and no write has woken it yet; 0 for a NULL or
 * unwrapped ring.
 */
static inline int lanehost_ring_has_waiter(const lanehost_ring *ring) {
    if (ring == NULL || ring->header == NULL) return 0;
    return (LANEHOST_RING_LOAD(&ring->header->wake_word, LANEHOST_RING_RELAXED) & LANEHOST_RING_WAKE_WAITER) != 0;
}

#ifdef LANEHOST_RING_CAN_WAIT
static inline int64_t lanehost_ring_monotonic_nanos(void) {
    struct timespec now;
#ifdef CLOCK_MONOTONIC
    clock_gettime(CLOCK_MONOTONIC, &now);
#else
    /* Strict ISO C hides clock_gettime and CLOCK_MONOTONIC (1 in the Linux ABI); the system call is the same clock. */
    syscall(SYS_clock_gettime, 1, &now);
#endif
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/*
 * Step 3 of the waiting protocol: a full barrier in every other running thread of this process, so that a
 * producer's position store before its load of the wake word is visible, or its load sees the waiter bit.
 * Registers this process for the private expedited command on first use (once per translation unit; the
 * kernel accepts a repeat). Returns 0, or -1 where membarrier(2) is missing or forbidden.
 */
static inline int lanehost_ring_fence_producer(void) {
#if defined(SYS_membarrier)
    static LANEHOST_RING_ATOMIC(int) registered;
    if (!LANEHOST_RING_LOAD(&registered, LANEHOST_RING_RELAXED)) {
        if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return -1;
        LANEHOST_RING_STORE(&registered, 1, LANEHOST_RING_RELAXED);
    }
    return syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0
               ? (LANEHOST_RING_TEST_HOOK(lanehost_ring_test_hook_consumer_fenced()), 0)
               : -1;
#else
    return -1;
#endif
}

/* Step 2 of the waiting protocol: sets the waiter bit and returns the wake word to sleep on. */
static inline uint32_t lanehost_ring_announce_waiter(lanehost_ring_header *header) {
    if (header == NULL) return 0;
    uint32_t word = LANEHOST_RING_LOAD(&header->wake_word, LANEHOST_RING_ACQUIRE);
    /* The order that matters comes from step 3's membarrier; acquire only keeps the re-check below this. */
    while ((word & LANEHOST_RING_WAKE_WAITER) == 0 &&
           !LANEHOST_RING_STD(atomic_compare_exchange_weak_explicit)(&header->wake_word, &word,
                                                                     word | LANEHOST_RING_WAKE_WAITER,
                                                                     LANEHOST_RING_ACQUIRE, LANEHOST_RING_ACQUIRE)) {
    }
    return word | LANEHOST_RING_WAKE_WAITER;
}

/* Takes the announcement back unless the producer changed the word since (then it clears the bit itself). */
static inline void lanehost_ring_withdraw_waiter(lanehost_ring_header *header, uint32_t announced) {
    if (header == NULL) return;
    LANEHOST_RING_STD(atomic_compare_exchange_strong_explicit)(&header->wake_word, &announced,
                                                               announced & ~(uint32_t)LANEHOST_RING_WAKE_WAITER,
                                                               LANEHOST_RING_RELAXED, LANEHOST_RING_RELAXED);
}

/*
 * Consumer only, and never on a real-time thread: it may sleep in the kernel. Waits until at least
 * min_bytes (1 to the capacity) are readable or timeout_nanos pass (0: check once, never sleep). Returns the
 * bytes readable (at least min_bytes), LANEHOST_RING_TIMED_OUT (the deadline passed, even if bytes arrived
 * as it did), LANEHOST_RING_INTERRUPTED (a signal handler installed without SA_RESTART ran),
 * LANEHOST_RING_UNSUPPORTED (membarrier(2) missing or forbidden: poll instead), or
 * LANEHOST_RING_INVALID_ARGUMENT. One waiting thread per ring, in the producer's process.
 *
 * Writes that publish fewer than min_bytes wake it too; it goes back to sleep until the count is reached.
 */
static inline int64_t lanehost_ring_wait_readable(lanehost_ring *ring, uint64_t min_bytes, int64_t timeout_nanos) {
    if (ring == NULL || ring->header == NULL || min_bytes == 0 || min_bytes > ring->capacity || timeout_nanos < 0) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    lanehost_ring_header *header = ring->header;
    uint64_t readable = lanehost_ring_readable(ring); /* step 1 */
    if (readable >= min_bytes) return (int64_t)readable;
    if (timeout_nanos == 0) return LANEHOST_RING_TIMED_OUT;
    const int64_t start = lanehost_ring_monotonic_nanos();
    for (;;) {
        const uint32_t announced = lanehost_ring_announce_waiter(header); /* step 2 */
        LANEHOST_RING_TEST_HOOK(lanehost_ring_test_hook_consumer_announced(header));
        if (lanehost_ring_fence_producer() != 0) {                        /* step 3 */
            lanehost_ring_withdraw_waiter(header, announced);
            return LANEHOST_RING_UNSUPPORTED;
        }
        readable = lanehost_ring_readable(ring);                          /* step 4 */
        LANEHOST_RING_TEST_HOOK(lanehost_ring_test_hook_consumer_rechecked(header, readable));
        if (readable >= min_bytes) {
            lanehost_ring_withdraw_waiter(header, announced);
            return (int64_t)readable;
        }
        int64_t remaining = timeout_nanos - (lanehost_ring_monotonic_nanos() - start);
        if (remaining > 0) {
            struct timespec timeout = {(time_t)(remaining / 1000000000), (long)(remaining % 1000000000)};
            /* Step 5. FUTEX_WAIT's timeout is relative, on CLOCK_MONOTONIC. */
            if (syscall(SYS_futex, (uint32_t *)&header->wake_word, FUTEX_WAIT, announced, &timeout, NULL, 0) == -1 &&
                errno == EINTR) {
                lanehost_ring_withdraw_waiter(header, announced);
                return LANEHOST_RING_INTERRUPTED;
            }
            remaining = timeout_nanos - (lanehost_ring_monotonic_nanos() - start);
        }
        if (remaining <= 0) {
            /* The deadline passed (asleep or not): timed out, even if bytes arrived as it passed. */
            lanehost_ring_withdraw_waiter(header, announced);
            return LANEHOST_RING_TIMED_OUT;
        }
    }
}
#endif

/*
 * Whether the ring's owner has let go of it: 1 once Java has closed a ring it exported to hosts (HostRing.close(), or
 * lanehost_embed_stop for a setup's ring), so no more bytes will come from it or be taken by it; release the
 * reference you hold (ring_release). It says nothing about the bytes still in the ring: they can still be read.
 * Cheap enough for every callback (a load from the header's read-mostly line); 0 for a NULL or unwrapped ring.
 */
static inline int lanehost_ring_owner_closed(const lanehost_ring *ring) {
    if (ring == NULL || ring->header == NULL) return 0;
    return LANEHOST_RING_LOAD(&ring->header->owner_closed, LANEHOST_RING_ACQUIRE) != 0;
}

/* For a ring C owns (its memory, its init), the other side's news that C has let go of it; Java reads it with
 * SpscByteRing.isOwnerClosed(). Idempotent. LANEHOST_RING_OK, or LANEHOST_RING_INVALID_ARGUMENT for a NULL or
 * unwrapped ring. */
static inline int lanehost_ring_mark_owner_closed(lanehost_ring *ring) {
    if (ring == NULL || ring->header == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    LANEHOST_RING_STORE(&ring->header->owner_closed, 1u, LANEHOST_RING_RELEASE);
    return LANEHOST_RING_OK;
}

/* Writes that could not place every byte offered; 0 for a NULL or unwrapped ring. */
static inline uint64_t lanehost_ring_overrun_count(const lanehost_ring *ring) {
    if (ring == NULL || ring->header == NULL) return 0;
    return LANEHOST_RING_LOAD(&ring->header->overrun_count, LANEHOST_RING_RELAXED);
}

/* Reads that found fewer bytes than asked for (read_frames: periods with fill); 0 for a NULL or unwrapped ring. */
static inline uint64_t lanehost_ring_underrun_count(const lanehost_ring *ring) {
    if (ring == NULL || ring->header == NULL) return 0;
    return LANEHOST_RING_LOAD(&ring->header->underrun_count, LANEHOST_RING_RELAXED);
}

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_RING_H */
