/* lanehost.c - the exported part of the C ABI: version and the ring layout report. */
#include <string.h>

#include "lanehost/lanehost.h"

uint32_t lanehost_abi_version(void) {
    return LANEHOST_ABI_VERSION;
}

typedef struct layout_entry {
    const char *name;
    int64_t value;
} layout_entry;

/*
 * Names match the constants of dev.lanehost.ring.SpscByteRingDescriptor. Every entry the compiler can
 * answer is the compiler's answer (_Alignof, offsetof, sizeof), not the header's macro: the Java test then
 * compares the Java mirror with the struct itself, and a macro that drifted from the struct cannot agree
 * with a Java constant that drifted the same way.
 */
static const layout_entry RING_LAYOUT[] = {
    {"MAGIC", LANEHOST_RING_MAGIC},
    {"LAYOUT_VERSION", LANEHOST_RING_LAYOUT_VERSION},
    {"CACHE_LINE_LENGTH", LANEHOST_RING_CACHE_LINE_LENGTH},
    {"ALIGNMENT", _Alignof(lanehost_ring_header)},
    {"MIN_CAPACITY", LANEHOST_RING_MIN_CAPACITY},
    {"MAX_CAPACITY", (int64_t)LANEHOST_RING_MAX_CAPACITY},
    {"MAGIC_OFFSET", offsetof(lanehost_ring_header, magic)},
    {"VERSION_OFFSET", offsetof(lanehost_ring_header, version)},
    {"CAPACITY_OFFSET", offsetof(lanehost_ring_header, capacity)},
    {"PRODUCER_POSITION_OFFSET", offsetof(lanehost_ring_header, producer_position)},
    {"PRODUCER_CACHED_CONSUMER_POSITION_OFFSET", offsetof(lanehost_ring_header, producer_cached_consumer_position)},
    {"DOORBELL_OFFSET", offsetof(lanehost_ring_header, doorbell)},
    {"OVERRUN_COUNT_OFFSET", offsetof(lanehost_ring_header, overrun_count)},
    {"CONSUMER_POSITION_OFFSET", offsetof(lanehost_ring_header, consumer_position)},
    {"CONSUMER_CACHED_PRODUCER_POSITION_OFFSET", offsetof(lanehost_ring_header, consumer_cached_producer_position)},
    {"UNDERRUN_COUNT_OFFSET", offsetof(lanehost_ring_header, underrun_count)},
    {"HEADER_LENGTH", sizeof(lanehost_ring_header)},
    {"STATUS_INVALID_ARGUMENT", LANEHOST_RING_INVALID_ARGUMENT},
    {"STATUS_CAPACITY_NOT_POWER_OF_TWO", LANEHOST_RING_CAPACITY_NOT_POWER_OF_TWO},
    {"STATUS_CAPACITY_TOO_SMALL", LANEHOST_RING_CAPACITY_TOO_SMALL},
    {"STATUS_CAPACITY_TOO_LARGE", LANEHOST_RING_CAPACITY_TOO_LARGE},
    {"STATUS_MISALIGNED", LANEHOST_RING_MISALIGNED},
    {"STATUS_MEMORY_TOO_SHORT", LANEHOST_RING_MEMORY_TOO_SHORT},
    {"STATUS_BAD_MAGIC", LANEHOST_RING_BAD_MAGIC},
    {"STATUS_BAD_VERSION", LANEHOST_RING_BAD_VERSION},
    {"STATUS_CORRUPT", LANEHOST_RING_CORRUPT},
};

#define RING_LAYOUT_COUNT (sizeof(RING_LAYOUT) / sizeof(RING_LAYOUT[0]))

const char *lanehost_ring_layout_name(uint32_t index) {
    return index < RING_LAYOUT_COUNT ? RING_LAYOUT[index].name : NULL;
}

int64_t lanehost_ring_layout_value(const char *name, int32_t *found) {
    if (name != NULL) {
        for (size_t i = 0; i < RING_LAYOUT_COUNT; i++) {
            if (strcmp(RING_LAYOUT[i].name, name) == 0) {
                if (found != NULL) *found = 1;
                return RING_LAYOUT[i].value;
            }
        }
    }
    if (found != NULL) *found = 0;
    return 0;
}

const char *lanehost_ring_status_text(int64_t status) {
    return lanehost_ring_status_message(status);
}

static const char *const CALL_STATUS_NAMES[] = {
    "OK", "TIMED_OUT", "CALLBACK_SUSPENDED", "NOT_SERIALIZABLE", "OUT_OF_MEMORY", "CALLBACK_FAILED",
    "ACTOR_TERMINATED", "REFUSED", "WRONG_THREAD", "INVALID_ARGUMENT", "CLOSED",
};

_Static_assert(sizeof(CALL_STATUS_NAMES) / sizeof(CALL_STATUS_NAMES[0]) == LANEHOST_CALL_CLOSED + 1,
               "one name per lanehost_call_status");

const char *lanehost_call_status_name(int32_t status) {
    if (status < 0 || status > LANEHOST_CALL_CLOSED) return NULL;
    return CALL_STATUS_NAMES[status];
}
