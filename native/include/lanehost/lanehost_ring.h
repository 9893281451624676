/*
 * lanehost_ring.h - the SPSC byte ring shared by C and Java.
 *
 * One producer and one consumer move a byte stream through a power-of-two region of memory. Either
 * side may be C (a hard real-time callback, which must never enter the JVM) or Java
 * (dev.lanehost.ring.SpscByteRing, whose SpscByteRingDescriptor mirrors this layout; a test compares
 * them). Everything here is static inline: no locks, no allocation, no system calls, so a real-time
 * thread may call it.
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
 *200 |             Padding up to byte 256                           ...
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
 * prefetchers pull lines in pairs and a shared pair would bounce between the two cores. The doorbell has
 * the producer's second line to itself: the consumer polls the position line, and a doorbell store on
 * that line right after the position store would take the line away from it a second time per write.
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
 * the underrun count counts reads that found fewer bytes than asked for. Nothing is hidden.
 *
 * Each side holds its own lanehost_ring handle whose capacity and mask were validated once, so a
 * corrupted header cannot make either side write outside the region. Positions that no working ring can
 * have (the producer behind the consumer, or more than the capacity ahead of it) are reported as
 * LANEHOST_RING_CORRUPT: by wrap, before the first transfer, and by any transfer that finds them later.
 * The observers (readable, writable) clamp instead and stay within [0, capacity].
 */
#ifndef LANEHOST_RING_H
#define LANEHOST_RING_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LANEHOST_RING_MAGIC 0x4C485242u /* "LHRB" read as a little-endian uint32 */
#define LANEHOST_RING_LAYOUT_VERSION 1u
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

/* Results. Zero or positive from write/read is a byte count; negative is one of these. */
typedef enum lanehost_ring_status {
    LANEHOST_RING_OK = 0,
    LANEHOST_RING_INVALID_ARGUMENT = -1,     /* a NULL ring/memory/buffer, or a length above INT64_MAX */
    LANEHOST_RING_CAPACITY_NOT_POWER_OF_TWO = -2,
    LANEHOST_RING_CAPACITY_TOO_SMALL = -3,   /* below LANEHOST_RING_MIN_CAPACITY */
    LANEHOST_RING_CAPACITY_TOO_LARGE = -4,   /* above LANEHOST_RING_MAX_CAPACITY */
    LANEHOST_RING_MISALIGNED = -5,           /* memory not LANEHOST_RING_ALIGNMENT (128)-byte aligned */
    LANEHOST_RING_MEMORY_TOO_SHORT = -6,     /* memory shorter than header + capacity */
    LANEHOST_RING_BAD_MAGIC = -7,            /* wrap: not a ring (or not initialised) */
    LANEHOST_RING_BAD_VERSION = -8,          /* wrap: a ring of another layout version */
    LANEHOST_RING_CORRUPT = -9               /* producer behind the consumer or more than the capacity ahead */
} lanehost_ring_status;

typedef struct lanehost_ring_header {
    /* Header: written once by init, read by wrap. */
    _Atomic uint32_t magic;
    uint32_t version;
    uint64_t capacity;
    uint8_t reserved[2 * LANEHOST_RING_CACHE_LINE_LENGTH - 16];

    /* Producer's pair of cache lines. */
    alignas(LANEHOST_RING_ALIGNMENT) _Atomic uint64_t producer_position;
    uint64_t producer_cached_consumer_position;
    _Atomic uint64_t overrun_count;
    uint8_t producer_padding[LANEHOST_RING_CACHE_LINE_LENGTH - 24];
    _Atomic uint64_t doorbell;
    uint8_t doorbell_padding[LANEHOST_RING_CACHE_LINE_LENGTH - 8];

    /* Consumer's pair of cache lines. */
    alignas(LANEHOST_RING_ALIGNMENT) _Atomic uint64_t consumer_position;
    uint64_t consumer_cached_producer_position;
    _Atomic uint64_t underrun_count;
    uint8_t consumer_padding[2 * LANEHOST_RING_CACHE_LINE_LENGTH - 24];
} lanehost_ring_header;

#define LANEHOST_RING_HEADER_LENGTH 384u
#define LANEHOST_RING_MEMORY_LENGTH(capacity) ((uint64_t)LANEHOST_RING_HEADER_LENGTH + (uint64_t)(capacity))

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "the ring needs lock-free 64-bit atomics to share memory with Java");
_Static_assert(sizeof(_Atomic uint64_t) == 8, "atomic positions must be plain 64-bit words");
_Static_assert(LANEHOST_RING_ALIGNMENT == 2 * LANEHOST_RING_CACHE_LINE_LENGTH, "the alignment is one pair of cache lines");
_Static_assert(_Alignof(lanehost_ring_header) == LANEHOST_RING_ALIGNMENT,
               "LANEHOST_RING_ALIGNMENT must be the header struct's own alignment, or a checked pointer is still UB");
_Static_assert(offsetof(lanehost_ring_header, magic) == 0, "magic offset");
_Static_assert(offsetof(lanehost_ring_header, version) == 4, "version offset");
_Static_assert(offsetof(lanehost_ring_header, capacity) == 8, "capacity offset");
_Static_assert(offsetof(lanehost_ring_header, producer_position) == 128, "producer position offset");
_Static_assert(offsetof(lanehost_ring_header, producer_cached_consumer_position) == 136, "producer cache offset");
_Static_assert(offsetof(lanehost_ring_header, overrun_count) == 144, "overrun count offset");
_Static_assert(offsetof(lanehost_ring_header, doorbell) == 192, "doorbell offset: the producer's second cache line");
_Static_assert(offsetof(lanehost_ring_header, consumer_position) == 256, "consumer position offset");
_Static_assert(offsetof(lanehost_ring_header, consumer_cached_producer_position) == 264, "consumer cache offset");
_Static_assert(offsetof(lanehost_ring_header, underrun_count) == 272, "underrun count offset");
_Static_assert(sizeof(lanehost_ring_header) == LANEHOST_RING_HEADER_LENGTH, "header length");

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
        case LANEHOST_RING_INVALID_ARGUMENT: return "invalid argument: a NULL pointer, or a length above INT64_MAX";
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
    if (((uintptr_t)memory & (LANEHOST_RING_ALIGNMENT - 1)) != 0) return LANEHOST_RING_MISALIGNED;
    if (memory_length < LANEHOST_RING_MEMORY_LENGTH(capacity)) return LANEHOST_RING_MEMORY_TOO_SHORT;
    return LANEHOST_RING_OK;
}

static inline void lanehost_ring_bind(lanehost_ring *ring, void *memory, uint64_t capacity) {
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
    memset(header, 0, LANEHOST_RING_HEADER_LENGTH);
    header->capacity = capacity;
    header->version = LANEHOST_RING_LAYOUT_VERSION;
    atomic_init(&header->producer_position, 0);
    atomic_init(&header->doorbell, 0);
    atomic_init(&header->overrun_count, 0);
    atomic_init(&header->consumer_position, 0);
    atomic_init(&header->underrun_count, 0);
    /* The magic goes last, with release: a side that wraps and sees it sees a formatted header. */
    atomic_store_explicit(&header->magic, LANEHOST_RING_MAGIC, memory_order_release);
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
    const uint64_t consumer_before = atomic_load_explicit(&header->consumer_position, memory_order_acquire);
    const uint64_t producer = atomic_load_explicit(&header->producer_position, memory_order_acquire);
    const uint64_t consumer_after = atomic_load_explicit(&header->consumer_position, memory_order_acquire);
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
    if (atomic_load_explicit(&header->magic, memory_order_acquire) != LANEHOST_RING_MAGIC) {
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
 * Producer only. Copies up to length bytes from src into the ring and returns how many it copied
 * (0 when full), or a negative lanehost_ring_status. A short write counts one overrun.
 */
static inline int64_t lanehost_ring_write(lanehost_ring *ring, const void *src, uint64_t length) {
    if (ring == NULL || ring->header == NULL || (src == NULL && length != 0) || length > (uint64_t)INT64_MAX) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    lanehost_ring_header *header = ring->header;
    const uint64_t capacity = ring->capacity;
    /* Our own position: only we write it, so relaxed reads our last store. */
    const uint64_t tail = atomic_load_explicit(&header->producer_position, memory_order_relaxed);
    uint64_t head = header->producer_cached_consumer_position;
    uint64_t used = tail - head;
    if (used > capacity || capacity - used < length) {
        /* Acquire pairs with the consumer's release: the bytes it freed are no longer being read. */
        head = atomic_load_explicit(&header->consumer_position, memory_order_acquire);
        header->producer_cached_consumer_position = head;
        used = tail - head;
        if (used > capacity) return LANEHOST_RING_CORRUPT;
    }
    const uint64_t free_bytes = capacity - used;
    const uint64_t count = length < free_bytes ? length : free_bytes;
    if (count < length) {
        atomic_store_explicit(&header->overrun_count,
                              atomic_load_explicit(&header->overrun_count, memory_order_relaxed) + 1,
                              memory_order_relaxed);
    }
    if (count == 0) return 0;

    const uint64_t index = tail & ring->mask;
    const uint64_t first = count < capacity - index ? count : capacity - index;
    memcpy(ring->data + index, src, (size_t)first);
    memcpy(ring->data, (const uint8_t *)src + first, (size_t)(count - first));
    /* Release: the consumer that acquires this position sees the bytes copied above. */
    atomic_store_explicit(&header->producer_position, tail + count, memory_order_release);
    atomic_store_explicit(&header->doorbell,
                          atomic_load_explicit(&header->doorbell, memory_order_relaxed) + 1,
                          memory_order_release);
    return (int64_t)count;
}

/*
 * Consumer only. Copies up to length bytes out of the ring into dst and returns how many it copied
 * (0 when empty), or a negative lanehost_ring_status. A short read counts one underrun.
 */
static inline int64_t lanehost_ring_read(lanehost_ring *ring, void *dst, uint64_t length) {
    if (ring == NULL || ring->header == NULL || (dst == NULL && length != 0) || length > (uint64_t)INT64_MAX) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    lanehost_ring_header *header = ring->header;
    const uint64_t capacity = ring->capacity;
    const uint64_t head = atomic_load_explicit(&header->consumer_position, memory_order_relaxed);
    uint64_t tail = header->consumer_cached_producer_position;
    uint64_t available = tail - head;
    if (available > capacity || available < length) {
        /* Acquire pairs with the producer's release: the bytes it published are visible. */
        tail = atomic_load_explicit(&header->producer_position, memory_order_acquire);
        header->consumer_cached_producer_position = tail;
        available = tail - head;
        if (available > capacity) return LANEHOST_RING_CORRUPT;
    }
    const uint64_t count = length < available ? length : available;
    if (count < length) {
        atomic_store_explicit(&header->underrun_count,
                              atomic_load_explicit(&header->underrun_count, memory_order_relaxed) + 1,
                              memory_order_relaxed);
    }
    if (count == 0) return 0;

    const uint64_t index = head & ring->mask;
    const uint64_t first = count < capacity - index ? count : capacity - index;
    memcpy(dst, ring->data + index, (size_t)first);
    memcpy((uint8_t *)dst + first, ring->data, (size_t)(count - first));
    /* Release: the producer that acquires this position may overwrite these bytes only after our copy. */
    atomic_store_explicit(&header->consumer_position, head + count, memory_order_release);
    return (int64_t)count;
}

/*
 * Bytes the consumer could read now, in [0, capacity]. Either side, or an observer, may call it.
 * Consumer first: the producer only moves ahead, so a working ring never shows a negative difference. An
 * observer may see more than the capacity (the consumer moved on between the loads) and a corrupt header
 * anything, the producer behind the consumer included (a huge unsigned difference): both read as the
 * capacity, so readable and writable never leave [0, capacity]. The transfers report corruption.
 */
static inline uint64_t lanehost_ring_readable(const lanehost_ring *ring) {
    uint64_t head = atomic_load_explicit(&ring->header->consumer_position, memory_order_acquire);
    uint64_t tail = atomic_load_explicit(&ring->header->producer_position, memory_order_acquire);
    uint64_t available = tail - head;
    return available > ring->capacity ? ring->capacity : available;
}

/* Bytes the producer could write now. Either side, or an observer, may call it. */
static inline uint64_t lanehost_ring_writable(const lanehost_ring *ring) {
    return ring->capacity - lanehost_ring_readable(ring);
}

static inline uint64_t lanehost_ring_doorbell(const lanehost_ring *ring) {
    return atomic_load_explicit(&ring->header->doorbell, memory_order_acquire);
}

static inline uint64_t lanehost_ring_overrun_count(const lanehost_ring *ring) {
    return atomic_load_explicit(&ring->header->overrun_count, memory_order_relaxed);
}

static inline uint64_t lanehost_ring_underrun_count(const lanehost_ring *ring) {
    return atomic_load_explicit(&ring->header->underrun_count, memory_order_relaxed);
}

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_RING_H */
