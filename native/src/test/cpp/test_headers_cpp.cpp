/*
 * test_headers_cpp.cpp - the public headers from C++: every header compiles in one C++ translation unit
 * (built as C++17, C++20 and C++23 with -Wall -Wextra -Wpedantic -Werror, and the C++17 build again under
 * ThreadSanitizer), the ring's layout as C++ compiles it is the layout liblanehost (compiled as C) reports,
 * and the ring's inline functions work against a ring in plain memory, on one thread and between two.
 */
#include <lanehost/lanehost.h>
#include <lanehost/lanehost_embed.h>
#include <lanehost/lanehost_ring.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>

#include "check.h"

namespace {

constexpr uint64_t CAPACITY = 4096;
alignas(LANEHOST_RING_ALIGNMENT) uint8_t memory[LANEHOST_RING_MEMORY_LENGTH(CAPACITY)];

lanehost_ring fresh_ring(uint64_t capacity) {
    lanehost_ring ring{};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_init(&ring, memory, LANEHOST_RING_MEMORY_LENGTH(capacity), capacity));
    return ring;
}

uint8_t pattern_byte(uint64_t position) {
    return static_cast<uint8_t>(position ^ (position >> 8) ^ (position >> 16));
}

/* Every offset, size and alignment C++ computes equals what liblanehost, compiled as C, reports. */
void layoutMatchesTheCLibrary() {
    struct entry {
        const char *name;
        int64_t value;
    };
    const entry entries[] = {
        {"ALIGNMENT", static_cast<int64_t>(alignof(lanehost_ring_header))},
        {"HEADER_LENGTH", static_cast<int64_t>(sizeof(lanehost_ring_header))},
        {"MAGIC_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, magic))},
        {"VERSION_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, version))},
        {"CAPACITY_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, capacity))},
        {"OWNER_CLOSED_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, owner_closed))},
        {"PRODUCER_POSITION_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, producer_position))},
        {"PRODUCER_CACHED_CONSUMER_POSITION_OFFSET",
         static_cast<int64_t>(offsetof(lanehost_ring_header, producer_cached_consumer_position))},
        {"OVERRUN_COUNT_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, overrun_count))},
        {"DOORBELL_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, doorbell))},
        {"WAKE_WORD_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, wake_word))},
        {"WAKE_COUNT_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, wake_count))},
        {"CONSUMER_POSITION_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, consumer_position))},
        {"CONSUMER_CACHED_PRODUCER_POSITION_OFFSET",
         static_cast<int64_t>(offsetof(lanehost_ring_header, consumer_cached_producer_position))},
        {"UNDERRUN_COUNT_OFFSET", static_cast<int64_t>(offsetof(lanehost_ring_header, underrun_count))},
    };
    for (const entry &e : entries) {
        int32_t found = 0;
        int64_t c_value = lanehost_ring_layout_value(e.name, &found);
        if (found != 1 || c_value != e.value) {
            fprintf(stderr, "  %s: C++ %lld, C %lld (found %d)\n", e.name, static_cast<long long>(e.value),
                    static_cast<long long>(c_value), static_cast<int>(found));
        }
        CHECK_EQ(1, found);
        CHECK_EQ(e.value, c_value);
    }
    CHECK_EQ(sizeof(lanehost_drive_counts), 16);
}

void writeReadAndFramesOnOneThread() {
    lanehost_ring ring = fresh_ring(64);
    lanehost_ring other{};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_wrap(&other, memory, LANEHOST_RING_MEMORY_LENGTH(64)));
    CHECK_EQ(64, other.capacity);

    uint8_t in[48], out[64];
    for (size_t i = 0; i < sizeof in; i++) in[i] = static_cast<uint8_t>(i + 1);
    /* Three rounds of 48 bytes through 64 cross the end of the data region. */
    for (int round = 0; round < 3; round++) {
        CHECK_EQ(48, lanehost_ring_write(&ring, in, sizeof in));
        CHECK_EQ(48, lanehost_ring_readable(&other));
        CHECK_EQ(16, lanehost_ring_writable(&ring));
        CHECK_EQ(48, lanehost_ring_read(&other, out, sizeof in));
        CHECK_EQ(0, std::memcmp(in, out, sizeof in));
    }
    CHECK_EQ(3, lanehost_ring_doorbell(&ring));

    /* 10 bytes: two whole frames of 4, then fill for the other two asked for; the half frame stays. */
    CHECK_EQ(10, lanehost_ring_write(&ring, in, 10));
    std::memset(out, 0, sizeof out);
    CHECK_EQ(2, lanehost_ring_read_frames(&other, out, 4, 4, 0x7f));
    CHECK_EQ(0, std::memcmp(in, out, 8));
    for (int i = 8; i < 16; i++) CHECK_EQ(0x7f, out[i]);
    CHECK_EQ(2, lanehost_ring_readable(&other));
    CHECK_EQ(1, lanehost_ring_underrun_count(&other));

    CHECK_EQ(64 - 2, lanehost_ring_write(&ring, in, sizeof in + 16)); /* only what fits */
    CHECK_EQ(1, lanehost_ring_overrun_count(&ring));
    CHECK_EQ(0, lanehost_ring_wake_count(&ring));
    CHECK(!lanehost_ring_has_waiter(&ring));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_ring_read_frames(&other, out, 1, 0, 0));
    CHECK(std::strstr(lanehost_ring_status_message(LANEHOST_RING_CORRUPT), "corrupt") != nullptr);
#ifdef LANEHOST_RING_CAN_WAIT
    CHECK_EQ(64, lanehost_ring_wait_readable(&other, 64, 0));        /* enough: at once */
    CHECK_EQ(64, lanehost_ring_read(&other, out, 64));
    CHECK_EQ(LANEHOST_RING_TIMED_OUT, lanehost_ring_wait_readable(&other, 1, 0));
#endif
}

/*
 * A producer thread writes a pattern in whole 4-byte frames; the consumer waits for a frame where it can
 * and reads with read_frames and read alternately. Every byte arrives once, in order. Under ThreadSanitizer
 * this checks the orders C++'s std::atomic calls give the positions.
 */
void framesMoveBetweenTwoThreads() {
    lanehost_ring producer = fresh_ring(CAPACITY);
    lanehost_ring consumer{};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_wrap(&consumer, memory, sizeof memory));
    constexpr uint64_t TOTAL = uint64_t(1) << 20;

    std::thread writer([&producer] {
        uint8_t chunk[4 * 97];
        uint64_t position = 0;
        uint64_t frames = 1;
        while (position < TOTAL) {
            uint64_t length = frames * 4 < TOTAL - position ? frames * 4 : TOTAL - position;
            for (uint64_t i = 0; i < length; i++) chunk[i] = pattern_byte(position + i);
            int64_t written = lanehost_ring_write(&producer, chunk, length);
            if (written < 0) {
                fprintf(stderr, "  write: %s\n", lanehost_ring_status_message(written));
                return;
            }
            if (written == 0) std::this_thread::yield(); /* full: let the consumer run */
            position += static_cast<uint64_t>(written);
            frames = frames % 97 + 1;
        }
    });

    uint8_t out[4 * 64];
    uint64_t position = 0, mismatches = 0;
    int64_t failure = 0;
    bool frames_next = true;
    while (position < TOTAL && failure == 0) {
#ifdef LANEHOST_RING_CAN_WAIT
        int64_t waited = lanehost_ring_wait_readable(&consumer, 4, INT64_C(10) * 1000000000);
        if (waited == LANEHOST_RING_UNSUPPORTED) std::this_thread::yield(); /* no membarrier here: poll */
        else if (waited < 0 && waited != LANEHOST_RING_TIMED_OUT) failure = waited;
#else
        std::this_thread::yield();
#endif
        int64_t got;
        if (frames_next) {
            got = lanehost_ring_read_frames(&consumer, out, 64, 4, 0);
            if (got > 0) got *= 4;
        } else {
            got = lanehost_ring_read(&consumer, out, 4 * 13);
        }
        frames_next = !frames_next;
        if (got < 0) {
            failure = got;
            break;
        }
        for (int64_t i = 0; i < got; i++) {
            if (out[i] != pattern_byte(position + static_cast<uint64_t>(i))) mismatches++;
        }
        position += static_cast<uint64_t>(got);
    }
    writer.join();
    if (failure != 0) fprintf(stderr, "  consumer: %s\n", lanehost_ring_status_message(failure));
    CHECK_EQ(0, failure);
    CHECK_EQ(TOTAL, position);
    CHECK_EQ(0, mismatches);
    CHECK_EQ(0, lanehost_ring_readable(&consumer));
}

} // namespace

int main() {
    RUN_TEST(layoutMatchesTheCLibrary);
    RUN_TEST(writeReadAndFramesOnOneThread);
    RUN_TEST(framesMoveBetweenTwoThreads);
    printf("C++ %ld\n", static_cast<long>(__cplusplus));
    return CHECK_EXIT();
}
