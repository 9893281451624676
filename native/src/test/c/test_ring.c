/* test_ring.c - the ring's single-threaded contract: formatting, validation, wraparound, counters, and
   waiting without a second thread (compiled as strict ISO C, the header's strictest setting). */
#include <stdalign.h>
#include <string.h>

#include "check.h"
#include "lanehost/lanehost.h"

#define CAPACITY 64u
static alignas(128) uint8_t memory[LANEHOST_RING_MEMORY_LENGTH(4096) + 128];

static lanehost_ring fresh_ring(uint64_t capacity) {
    lanehost_ring ring = {0};
    memset(memory, 0xAB, sizeof(memory));
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_init(&ring, memory, LANEHOST_RING_MEMORY_LENGTH(capacity), capacity));
    return ring;
}

static void initRejectsBadCapacity(void) {
    lanehost_ring ring;
    uint64_t length = sizeof(memory);
    CHECK_EQ(LANEHOST_RING_CAPACITY_NOT_POWER_OF_TWO, lanehost_ring_init(&ring, memory, length, 96));
    CHECK_EQ(LANEHOST_RING_CAPACITY_TOO_SMALL, lanehost_ring_init(&ring, memory, length, 32));
    CHECK_EQ(LANEHOST_RING_CAPACITY_TOO_SMALL, lanehost_ring_init(&ring, memory, length, 0));
    CHECK_EQ(LANEHOST_RING_CAPACITY_TOO_LARGE, lanehost_ring_init(&ring, memory, length, UINT64_C(1) << 63));
}

static void initRejectsBadMemory(void) {
    lanehost_ring ring;
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_init(&ring, NULL, sizeof(memory), CAPACITY));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_init(NULL, memory, sizeof(memory), CAPACITY));
    CHECK_EQ(LANEHOST_RING_MISALIGNED, lanehost_ring_init(&ring, memory + 8, sizeof(memory) - 8, CAPACITY));
    CHECK_EQ(LANEHOST_RING_MEMORY_TOO_SHORT,
             lanehost_ring_init(&ring, memory, LANEHOST_RING_MEMORY_LENGTH(CAPACITY) - 1, CAPACITY));
}

static void wrapValidatesHeader(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    lanehost_ring other;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_wrap(&other, memory, LANEHOST_RING_MEMORY_LENGTH(CAPACITY)));
    CHECK_EQ(CAPACITY, other.capacity);
    CHECK_EQ(LANEHOST_RING_MEMORY_TOO_SHORT, lanehost_ring_wrap(&other, memory, LANEHOST_RING_MEMORY_LENGTH(CAPACITY) - 1));
    CHECK_EQ(LANEHOST_RING_MISALIGNED, lanehost_ring_wrap(&other, memory + 64 + 8, sizeof(memory) - 72));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_wrap(&other, NULL, sizeof(memory)));

    ring.header->version = LANEHOST_RING_LAYOUT_VERSION + 1;
    CHECK_EQ(LANEHOST_RING_BAD_VERSION, lanehost_ring_wrap(&other, memory, sizeof(memory)));
    ring.header->version = LANEHOST_RING_LAYOUT_VERSION;
    ring.header->capacity = 100;
    CHECK_EQ(LANEHOST_RING_CAPACITY_NOT_POWER_OF_TWO, lanehost_ring_wrap(&other, memory, sizeof(memory)));
    ring.header->capacity = CAPACITY;
    atomic_store(&ring.header->magic, 0x12345678u);
    CHECK_EQ(LANEHOST_RING_BAD_MAGIC, lanehost_ring_wrap(&other, memory, sizeof(memory)));

    memset(memory, 0, sizeof(memory));
    CHECK_EQ(LANEHOST_RING_BAD_MAGIC, lanehost_ring_wrap(&other, memory, sizeof(memory)));
}

static void memoryAlignedTo64ButNot128IsRefused(void) {
    /* memory is 128-byte aligned, so memory + 64 starts a cache line but not a cache-line pair: the
       header struct demands 128, and a 64-aligned header splits each side's pair of lines. */
    uint8_t *half_aligned = memory + 64;
    uint64_t length = LANEHOST_RING_MEMORY_LENGTH(CAPACITY);
    lanehost_ring ring;
    CHECK_EQ(LANEHOST_RING_MISALIGNED, lanehost_ring_init(&ring, half_aligned, length, CAPACITY));

    /* A well-formed header at the wrong address is refused before any of it is read. */
    fresh_ring(CAPACITY);
    memmove(half_aligned, memory, (size_t)length);
    CHECK_EQ(LANEHOST_RING_MISALIGNED, lanehost_ring_wrap(&ring, half_aligned, length));
    CHECK(strstr(lanehost_ring_status_text(LANEHOST_RING_MISALIGNED), "128-byte aligned") != NULL);
}

static void setPositions(lanehost_ring *ring, uint64_t producer, uint64_t consumer) {
    atomic_store(&ring->header->producer_position, producer);
    atomic_store(&ring->header->consumer_position, consumer);
}

static void wrapRefusesCorruptPositions(void) {
    static const struct {
        uint64_t producer, consumer;
    } corrupt[] = {
        {50, 100},                               /* consumer ahead of the producer */
        {0, 1},                                  /* consumer one byte ahead */
        {CAPACITY + 1, 0},                       /* producer one byte more than the capacity ahead */
        {1000, 0},
        {UINT64_MAX, 0},                         /* a "negative" producer position */
        {(uint64_t)INT64_MAX, 0},
        {(uint64_t)INT64_MIN, (uint64_t)INT64_MIN + 1},
    };
    for (size_t i = 0; i < sizeof(corrupt) / sizeof(corrupt[0]); i++) {
        lanehost_ring ring = fresh_ring(CAPACITY);
        setPositions(&ring, corrupt[i].producer, corrupt[i].consumer);
        lanehost_ring other;
        CHECK_EQ(LANEHOST_RING_CORRUPT, lanehost_ring_wrap(&other, memory, LANEHOST_RING_MEMORY_LENGTH(CAPACITY)));
        /* The observers never leave [0, capacity]. */
        CHECK_EQ(CAPACITY, lanehost_ring_readable(&ring));
        CHECK_EQ(0, lanehost_ring_writable(&ring));
    }
}

static void wrapAcceptsPositionsThatWrappedPast2To64(void) {
    /* Positions are unsigned counters: after 2^64 bytes the producer wraps to small numbers while the
       consumer is still near the top. The difference, not the order, is what must be <= capacity. */
    static const struct {
        uint64_t producer, consumer;
    } consistent[] = {
        {5, UINT64_MAX - 2},                     /* 8 bytes readable across 2^64 */
        {0, UINT64_MAX - CAPACITY + 1},          /* full across 2^64 */
        {(uint64_t)INT64_MIN, (uint64_t)INT64_MAX}, /* across the signed boundary (Java's long) */
        {CAPACITY, 0},                           /* full */
        {7, 7},                                  /* empty */
    };
    for (size_t i = 0; i < sizeof(consistent) / sizeof(consistent[0]); i++) {
        lanehost_ring ring = fresh_ring(CAPACITY);
        setPositions(&ring, consistent[i].producer, consistent[i].consumer);
        lanehost_ring other = {0};
        CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_wrap(&other, memory, LANEHOST_RING_MEMORY_LENGTH(CAPACITY)));
        CHECK_EQ(consistent[i].producer - consistent[i].consumer, lanehost_ring_readable(&other));
    }

    /* And bytes keep flowing across the boundary. */
    lanehost_ring ring = fresh_ring(CAPACITY);
    setPositions(&ring, UINT64_MAX - 9, UINT64_MAX - 9);
    uint8_t in[20], out[20];
    for (size_t i = 0; i < sizeof(in); i++) in[i] = (uint8_t)(i + 1);
    CHECK_EQ(sizeof(in), lanehost_ring_write(&ring, in, sizeof(in)));
    CHECK_EQ(sizeof(out), lanehost_ring_read(&ring, out, sizeof(out)));
    CHECK_EQ(0, memcmp(in, out, sizeof(in)));
    CHECK_EQ(10, atomic_load(&ring.header->producer_position));
    CHECK_EQ(10, atomic_load(&ring.header->consumer_position));
}

static void writeThenReadAcrossTheWrap(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    uint8_t in[CAPACITY * 3], out[CAPACITY * 3];
    for (size_t i = 0; i < sizeof(in); i++) in[i] = (uint8_t)(i * 7 + 1);
    uint64_t written = 0, read = 0;
    /* Chunks of 24 against a capacity of 64 land on every offset and straddle the end repeatedly. */
    while (read < sizeof(in)) {
        if (written < sizeof(in)) {
            uint64_t want = sizeof(in) - written < 24 ? sizeof(in) - written : 24;
            int64_t n = lanehost_ring_write(&ring, in + written, want);
            CHECK(n >= 0);
            written += (uint64_t)n;
        }
        int64_t n = lanehost_ring_read(&ring, out + read, 17);
        CHECK(n >= 0);
        read += (uint64_t)n;
    }
    CHECK_EQ(0, memcmp(in, out, sizeof(in)));
    CHECK_EQ(sizeof(in), atomic_load(&ring.header->producer_position));
    CHECK_EQ(sizeof(in), atomic_load(&ring.header->consumer_position));
}

static void shortWriteReportsCountAndOverrun(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    uint8_t in[CAPACITY + 10] = {0};
    CHECK_EQ(CAPACITY, lanehost_ring_write(&ring, in, sizeof(in)));
    CHECK_EQ(1, lanehost_ring_overrun_count(&ring));
    CHECK_EQ(0, lanehost_ring_write(&ring, in, 1));
    CHECK_EQ(2, lanehost_ring_overrun_count(&ring));
    CHECK_EQ(0, lanehost_ring_writable(&ring));
    CHECK_EQ(CAPACITY, lanehost_ring_readable(&ring));
}

static void shortReadReportsCountAndUnderrun(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    uint8_t buffer[CAPACITY];
    CHECK_EQ(0, lanehost_ring_read(&ring, buffer, 8));
    CHECK_EQ(1, lanehost_ring_underrun_count(&ring));
    CHECK_EQ(5, lanehost_ring_write(&ring, "hello", 5));
    CHECK_EQ(5, lanehost_ring_read(&ring, buffer, 8));
    CHECK_EQ(2, lanehost_ring_underrun_count(&ring));
    CHECK_EQ(0, memcmp(buffer, "hello", 5));
    CHECK_EQ(0, lanehost_ring_read(&ring, buffer, 0));
    CHECK_EQ(2, lanehost_ring_underrun_count(&ring));
}

static void readFramesPlaysWholeFramesThenSilenceAndCountsOneUnderrun(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    int16_t out[8];
    const int16_t in[5] = {1, 2, 3, 4, 5};
    CHECK_EQ(10, lanehost_ring_write(&ring, in, sizeof in));         /* 2.5 stereo frames of 16-bit samples */
    CHECK_EQ(2, lanehost_ring_read_frames(&ring, out, 4, 4, 0));      /* 4 frames wanted, 2 whole ones there */
    CHECK_EQ(1, out[0]); CHECK_EQ(2, out[1]); CHECK_EQ(3, out[2]); CHECK_EQ(4, out[3]);
    for (int i = 4; i < 8; i++) CHECK_EQ(0, out[i]);                 /* silence for the rest of the period */
    CHECK_EQ(1, lanehost_ring_underrun_count(&ring));
    CHECK_EQ(2, lanehost_ring_readable(&ring));                      /* the half frame stays for its other half */
    const int16_t rest[3] = {6, 7, 8};
    CHECK_EQ(6, lanehost_ring_write(&ring, rest, sizeof rest));
    CHECK_EQ(2, lanehost_ring_read_frames(&ring, out, 2, 4, 0));      /* a full period: no underrun */
    CHECK_EQ(5, out[0]); CHECK_EQ(6, out[1]); CHECK_EQ(7, out[2]); CHECK_EQ(8, out[3]);
    CHECK_EQ(1, lanehost_ring_underrun_count(&ring));
    CHECK_EQ(0, lanehost_ring_read_frames(&ring, out, 2, 4, 0x7f));   /* empty: all fill */
    for (int i = 0; i < 4; i++) CHECK_EQ(0x7f7f, out[i]);
    CHECK_EQ(2, lanehost_ring_underrun_count(&ring));
    CHECK_EQ(0, lanehost_ring_read_frames(&ring, out, 0, 4, 0));      /* nothing asked: nothing counted */
    CHECK_EQ(2, lanehost_ring_underrun_count(&ring));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read_frames(&ring, out, 2, 0, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read_frames(&ring, NULL, 2, 4, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read_frames(NULL, out, 2, 4, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read_frames(&ring, out, UINT64_MAX / 2, 4, 0));
}

static void readFramesRefusesAFrameLargerThanTheRing(void) {
    /* Such a frame never fits, so it would be all fill and one underrun per call, and the producer would stay
       blocked on a full ring: an argument error instead, and nothing counted or filled. */
    lanehost_ring ring = fresh_ring(256);
    uint8_t out[2 * 512];
    memset(out, 0x55, sizeof out);
    uint8_t in[256] = {1};
    CHECK_EQ(256, lanehost_ring_write(&ring, in, sizeof in));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read_frames(&ring, out, 1, 512, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read_frames(&ring, out, 2, 257, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read_frames(&ring, out, 0, 257, 0));
    CHECK_EQ(0x55, out[0]);
    CHECK_EQ(0, lanehost_ring_underrun_count(&ring));
    CHECK_EQ(256, lanehost_ring_readable(&ring));
    /* A frame as large as the ring is still a frame: the full ring is one. */
    CHECK_EQ(1, lanehost_ring_read_frames(&ring, out, 1, 256, 0));
    CHECK_EQ(1, out[0]);
    CHECK_EQ(0, lanehost_ring_readable(&ring));
    CHECK_EQ(0, lanehost_ring_underrun_count(&ring));
}

static void writeFramesWritesOnlyWholeFramesAcrossTheWrapAndCountsADrop(void) {
    /* 12-byte frames (three float channels) do not divide a 64-byte ring: "what fits" would end mid-frame. */
    lanehost_ring ring = fresh_ring(64);
    uint8_t in[6 * 12];
    for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)i;
    CHECK_EQ(5, lanehost_ring_write_frames(&ring, in, 6, 12));        /* 60 of 64 bytes: 5 whole frames, one dropped */
    CHECK_EQ(1, lanehost_ring_overrun_count(&ring));
    CHECK_EQ(60, lanehost_ring_readable(&ring));
    CHECK_EQ(0, lanehost_ring_write_frames(&ring, in, 1, 12));        /* 4 bytes free: not one frame */
    CHECK_EQ(2, lanehost_ring_overrun_count(&ring));
    CHECK_EQ(60, lanehost_ring_readable(&ring));
    uint8_t out[6 * 12];
    CHECK_EQ(3, lanehost_ring_read_frames(&ring, out, 3, 12, 0));     /* 36 bytes freed */
    CHECK_EQ(3, lanehost_ring_write_frames(&ring, in + 12, 3, 12));   /* across the wrap, whole: no drop */
    CHECK_EQ(2, lanehost_ring_overrun_count(&ring));
    CHECK_EQ(5, lanehost_ring_read_frames(&ring, out, 5, 12, 0));
    for (int i = 0; i < 24; i++) CHECK_EQ(in[36 + i], out[i]);        /* frames 3 and 4 of the first write */
    for (int i = 0; i < 36; i++) CHECK_EQ(in[12 + i], out[24 + i]);   /* then frames 1 to 3, aligned */
    CHECK_EQ(0, lanehost_ring_write_frames(&ring, in, 0, 12));        /* nothing offered: nothing counted */
    CHECK_EQ(2, lanehost_ring_overrun_count(&ring));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_write_frames(&ring, in, 1, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_write_frames(&ring, in, 1, 65));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_write_frames(&ring, NULL, 1, 12));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_write_frames(NULL, in, 1, 12));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_write_frames(&ring, in, UINT64_MAX / 2, 12));
    CHECK_EQ(2, lanehost_ring_overrun_count(&ring));
    CHECK_EQ(0, lanehost_ring_readable(&ring));
}

static void doorbellCountsPublishingWrites(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    uint8_t buffer[CAPACITY] = {0};
    CHECK_EQ(0, lanehost_ring_doorbell(&ring));
    lanehost_ring_write(&ring, buffer, 10);
    lanehost_ring_write(&ring, buffer, 0);
    lanehost_ring_write(&ring, buffer, 20);
    CHECK_EQ(2, lanehost_ring_doorbell(&ring));
    lanehost_ring_write(&ring, buffer, CAPACITY); /* partial: 34 bytes published */
    CHECK_EQ(3, lanehost_ring_doorbell(&ring));
    lanehost_ring_write(&ring, buffer, 1); /* full: nothing published */
    CHECK_EQ(3, lanehost_ring_doorbell(&ring));
}

static void writesWithoutAWaiterMakeNoWakeCall(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    uint8_t buffer[CAPACITY] = {0};
    for (int i = 0; i < 1000; i++) {
        CHECK_EQ(7, lanehost_ring_write(&ring, buffer, 7));
        CHECK_EQ(7, lanehost_ring_read(&ring, buffer, 7));
    }
    CHECK_EQ(0, lanehost_ring_write(&ring, buffer, 0));
    CHECK_EQ(0, lanehost_ring_wake_count(&ring));
    /* The producer only loads the wake word: with nobody waiting it never writes it (no locked instruction). */
    CHECK_EQ(0, atomic_load(&ring.header->wake_word));
}

static void announcedWaiterCostsOneWakeThenTheBitIsClear(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    /* A consumer's announce, as step 2 makes it: the next publishing write wakes, and clears the bit. */
    atomic_fetch_or(&ring.header->wake_word, LANEHOST_RING_WAKE_WAITER);
    CHECK(lanehost_ring_has_waiter(&ring));
    CHECK_EQ(0, lanehost_ring_write(&ring, "x", 0)); /* publishes nothing: no wake */
    CHECK_EQ(0, lanehost_ring_wake_count(&ring));
    CHECK_EQ(1, lanehost_ring_write(&ring, "x", 1));
    CHECK_EQ(1, lanehost_ring_wake_count(&ring));
    CHECK(!lanehost_ring_has_waiter(&ring));
    CHECK_EQ(1, lanehost_ring_write(&ring, "y", 1));
    CHECK_EQ(1, lanehost_ring_wake_count(&ring));
}

static void waitReturnsAtOnceWhenEnoughIsReadable(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    CHECK_EQ(10, lanehost_ring_write(&ring, "0123456789", 10));
    CHECK_EQ(10, lanehost_ring_wait_readable(&ring, 5, INT64_C(30) * 1000000000));
    CHECK_EQ(10, lanehost_ring_wait_readable(&ring, 10, 0));
    CHECK(!lanehost_ring_has_waiter(&ring));
    CHECK_EQ(0, lanehost_ring_wake_count(&ring));
}

static void waitTimesOutWhenNothingIsWritten(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    CHECK_EQ(LANEHOST_RING_TIMED_OUT, lanehost_ring_wait_readable(&ring, 1, 0));
    CHECK_EQ(LANEHOST_RING_TIMED_OUT, lanehost_ring_wait_readable(&ring, 1, 2000000));
    CHECK_EQ(3, lanehost_ring_write(&ring, "abc", 3));
    CHECK_EQ(LANEHOST_RING_TIMED_OUT, lanehost_ring_wait_readable(&ring, 4, 1000000));
    /* The timed-out waits took their announcement back: the writes after them make no wake call. */
    CHECK(!lanehost_ring_has_waiter(&ring));
    CHECK_EQ(1, lanehost_ring_write(&ring, "d", 1));
    CHECK_EQ(0, lanehost_ring_wake_count(&ring));
    CHECK_EQ(4, lanehost_ring_wait_readable(&ring, 4, 0));
}

static void waitRejectsBadArguments(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_wait_readable(NULL, 1, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_wait_readable(&ring, 0, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_wait_readable(&ring, CAPACITY + 1, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_wait_readable(&ring, 1, -1));
    CHECK_EQ(LANEHOST_RING_TIMED_OUT, lanehost_ring_wait_readable(&ring, CAPACITY, 0));
}

static void nullBuffersAreInvalidArguments(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_write(&ring, NULL, 1));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read(&ring, NULL, 1));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_write(NULL, "x", 1));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_write(&ring, "x", (uint64_t)INT64_MAX + 1));
    CHECK_EQ(0, lanehost_ring_write(&ring, NULL, 0));
    CHECK_EQ(0, atomic_load(&ring.header->producer_position));
}

static void nullAndUnwrappedRingsAreAnsweredNotFollowed(void) {
    lanehost_ring zeroed = {0}; /* a handle init or wrap never filled: header NULL */
    lanehost_ring *rings[] = {NULL, &zeroed};
    uint8_t buffer[8] = {0};
    for (size_t i = 0; i < sizeof rings / sizeof rings[0]; i++) {
        lanehost_ring *ring = rings[i];
        CHECK_EQ(0, lanehost_ring_readable(ring));
        CHECK_EQ(0, lanehost_ring_writable(ring));
        CHECK_EQ(0, lanehost_ring_doorbell(ring));
        CHECK_EQ(0, lanehost_ring_wake_count(ring));
        CHECK_EQ(0, lanehost_ring_has_waiter(ring));
        CHECK_EQ(0, lanehost_ring_overrun_count(ring));
        CHECK_EQ(0, lanehost_ring_underrun_count(ring));
        CHECK_EQ(0, lanehost_ring_owner_closed(ring));
        CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_mark_owner_closed(ring));
        CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_write(ring, buffer, sizeof buffer));
        CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read(ring, buffer, sizeof buffer));
        CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read_frames(ring, buffer, 2, 4, 0));
        CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_wait_readable(ring, 1, 0));
        lanehost_ring_bind(ring, NULL, 0); /* NULL: nothing to fill; the zeroed handle just stays unusable */
    }
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_init(NULL, memory, sizeof(memory), CAPACITY));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_wrap(NULL, memory, sizeof(memory)));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_check_memory(NULL, sizeof(memory), CAPACITY));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_check_positions(NULL, CAPACITY));
    CHECK_EQ(0, lanehost_ring_announce_waiter(NULL));
    lanehost_ring_withdraw_waiter(NULL, LANEHOST_RING_WAKE_WAITER);
    lanehost_ring_wake_consumer(NULL);
}

static void theOwnerClosedWordIsSeenThroughAnotherWrapAndLeavesTheBytesReadable(void) {
    lanehost_ring owner = fresh_ring(CAPACITY);
    lanehost_ring other;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_wrap(&other, memory, sizeof(memory)));
    uint8_t bytes[4] = {1, 2, 3, 4};
    CHECK_EQ(4, lanehost_ring_write(&owner, bytes, sizeof bytes));
    CHECK_EQ(0, lanehost_ring_owner_closed(&other));
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_mark_owner_closed(&owner));
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_mark_owner_closed(&owner)); /* idempotent */
    CHECK_EQ(1, lanehost_ring_owner_closed(&other));
    uint8_t out[4] = {0};
    CHECK_EQ(4, lanehost_ring_read(&other, out, sizeof out)); /* what was written is still there */
    CHECK_EQ(3, out[2]);
    lanehost_ring again = fresh_ring(CAPACITY); /* init clears it */
    CHECK_EQ(0, lanehost_ring_owner_closed(&again));
}

static void corruptPositionsAreDetectedNotFollowed(void) {
    lanehost_ring ring = fresh_ring(CAPACITY);
    uint8_t buffer[CAPACITY];
    /* Someone overwrote the consumer position with a value behind the producer by more than the capacity. */
    atomic_store(&ring.header->producer_position, 1000);
    CHECK_EQ(LANEHOST_RING_CORRUPT, lanehost_ring_write(&ring, buffer, 1));
    CHECK_EQ(LANEHOST_RING_CORRUPT, lanehost_ring_read(&ring, buffer, 1));
    CHECK_EQ(LANEHOST_RING_CORRUPT, lanehost_ring_write_frames(&ring, buffer, 1, 4)); /* not "full": reported */
    CHECK_EQ(LANEHOST_RING_CORRUPT, lanehost_ring_read_frames(&ring, buffer, 1, 4, 0));
    CHECK_EQ(0, lanehost_ring_overrun_count(&ring));
    CHECK_EQ(CAPACITY, lanehost_ring_readable(&ring));
}

static void statusMessagesNameTheProblem(void) {
    CHECK(strstr(lanehost_ring_status_text(LANEHOST_RING_CAPACITY_NOT_POWER_OF_TWO), "power of two") != NULL);
    CHECK(strstr(lanehost_ring_status_text(LANEHOST_RING_BAD_MAGIC), "magic") != NULL);
    CHECK(strstr(lanehost_ring_status_text(LANEHOST_RING_CORRUPT), "producer is behind the consumer") != NULL);
    CHECK(strstr(lanehost_ring_status_text(LANEHOST_RING_TIMED_OUT), "timed out") != NULL);
    CHECK(strstr(lanehost_ring_status_text(LANEHOST_RING_INTERRUPTED), "signal") != NULL);
    CHECK(strstr(lanehost_ring_status_text(12345), "unknown") != NULL);
    /* Every cause of an argument error, each one a test above makes happen, is in the one sentence. */
    const char *invalid = lanehost_ring_status_text(LANEHOST_RING_INVALID_ARGUMENT);
    CHECK(strstr(invalid, "NULL or unwrapped ring") != NULL);
    CHECK(strstr(invalid, "NULL memory") != NULL);
    CHECK(strstr(invalid, "NULL buffer with a length") != NULL);
    CHECK(strstr(invalid, "above INT64_MAX") != NULL);
    CHECK(strstr(invalid, "frame_bytes 0 or larger than the ring") != NULL);
    CHECK(strstr(invalid, "min_bytes 0 or larger than the ring") != NULL);
    CHECK(strstr(invalid, "negative timeout") != NULL);
}

static void layoutReportMatchesTheHeader(void) {
    int32_t found = 0;
    CHECK_EQ(128, lanehost_ring_layout_value("PRODUCER_POSITION_OFFSET", &found));
    CHECK_EQ(1, found);
    /* The report gives the compiler's own answers, so a macro that disagrees with the struct shows. */
    CHECK_EQ(_Alignof(lanehost_ring_header), lanehost_ring_layout_value("ALIGNMENT", &found));
    CHECK_EQ(1, found);
    CHECK_EQ(sizeof(lanehost_ring_header), lanehost_ring_layout_value("HEADER_LENGTH", &found));
    lanehost_ring_layout_value("NO_SUCH_ENTRY", &found);
    CHECK_EQ(0, found);
    uint32_t count = 0;
    while (lanehost_ring_layout_name(count) != NULL) count++;
    CHECK(count > 10);
    CHECK_EQ(LANEHOST_ABI_VERSION, lanehost_abi_version());
}

int main(void) {
    RUN_TEST(initRejectsBadCapacity);
    RUN_TEST(initRejectsBadMemory);
    RUN_TEST(wrapValidatesHeader);
    RUN_TEST(memoryAlignedTo64ButNot128IsRefused);
    RUN_TEST(wrapRefusesCorruptPositions);
    RUN_TEST(wrapAcceptsPositionsThatWrappedPast2To64);
    RUN_TEST(writeThenReadAcrossTheWrap);
    RUN_TEST(shortWriteReportsCountAndOverrun);
    RUN_TEST(shortReadReportsCountAndUnderrun);
    RUN_TEST(readFramesPlaysWholeFramesThenSilenceAndCountsOneUnderrun);
    RUN_TEST(readFramesRefusesAFrameLargerThanTheRing);
    RUN_TEST(writeFramesWritesOnlyWholeFramesAcrossTheWrapAndCountsADrop);
    RUN_TEST(doorbellCountsPublishingWrites);
    RUN_TEST(writesWithoutAWaiterMakeNoWakeCall);
    RUN_TEST(announcedWaiterCostsOneWakeThenTheBitIsClear);
    RUN_TEST(waitReturnsAtOnceWhenEnoughIsReadable);
    RUN_TEST(waitTimesOutWhenNothingIsWritten);
    RUN_TEST(waitRejectsBadArguments);
    RUN_TEST(nullBuffersAreInvalidArguments);
    RUN_TEST(nullAndUnwrappedRingsAreAnsweredNotFollowed);
    RUN_TEST(theOwnerClosedWordIsSeenThroughAnotherWrapAndLeavesTheBytesReadable);
    RUN_TEST(corruptPositionsAreDetectedNotFollowed);
    RUN_TEST(statusMessagesNameTheProblem);
    RUN_TEST(layoutReportMatchesTheHeader);
    return CHECK_EXIT();
}
