/* lanehost.c - the exported part of the C ABI: version, status names and the layout reports. */
#include "constant_report.h"
#include "lanehost/lanehost.h"

uint32_t lanehost_abi_version(void) {
    return LANEHOST_ABI_VERSION;
}

/*
 * Names match the constants of dev.lanehost.ring.SpscByteRingDescriptor. Every entry the compiler can
 * answer is the compiler's answer (_Alignof, offsetof, sizeof), not the header's macro: the Java test then
 * compares the Java mirror with the struct itself, and a macro that drifted from the struct cannot agree
 * with a Java constant that drifted the same way.
 */
static const report_entry RING_LAYOUT[] = {
    {"MAGIC", LANEHOST_RING_MAGIC},
    {"LAYOUT_VERSION", LANEHOST_RING_LAYOUT_VERSION},
    {"CACHE_LINE_LENGTH", LANEHOST_RING_CACHE_LINE_LENGTH},
    {"ALIGNMENT", _Alignof(lanehost_ring_header)},
    {"MIN_CAPACITY", LANEHOST_RING_MIN_CAPACITY},
    {"MAX_CAPACITY", (int64_t)LANEHOST_RING_MAX_CAPACITY},
    {"MAGIC_OFFSET", offsetof(lanehost_ring_header, magic)},
    {"VERSION_OFFSET", offsetof(lanehost_ring_header, version)},
    {"CAPACITY_OFFSET", offsetof(lanehost_ring_header, capacity)},
    {"OWNER_CLOSED_OFFSET", offsetof(lanehost_ring_header, owner_closed)},
    {"PRODUCER_POSITION_OFFSET", offsetof(lanehost_ring_header, producer_position)},
    {"PRODUCER_CACHED_CONSUMER_POSITION_OFFSET", offsetof(lanehost_ring_header, producer_cached_consumer_position)},
    {"DOORBELL_OFFSET", offsetof(lanehost_ring_header, doorbell)},
    {"WAKE_WORD_OFFSET", offsetof(lanehost_ring_header, wake_word)},
    {"WAKE_COUNT_OFFSET", offsetof(lanehost_ring_header, wake_count)},
    {"WAKE_WAITER", LANEHOST_RING_WAKE_WAITER},
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
    {"STATUS_TIMED_OUT", LANEHOST_RING_TIMED_OUT},
    {"STATUS_INTERRUPTED", LANEHOST_RING_INTERRUPTED},
    {"STATUS_UNSUPPORTED", LANEHOST_RING_UNSUPPORTED},
};

const char *lanehost_ring_layout_name(uint32_t index) {
    return report_name(RING_LAYOUT, REPORT_LENGTH(RING_LAYOUT), index);
}

int64_t lanehost_ring_layout_value(const char *name, int32_t *found) {
    return report_value(RING_LAYOUT, REPORT_LENGTH(RING_LAYOUT), name, found);
}

const char *lanehost_ring_status_text(int64_t status) {
    return lanehost_ring_status_message(status);
}

static const char *const STATUS_NAMES[] = {
    "OK", "TIMED_OUT", "CALLBACK_SUSPENDED", "NOT_SERIALIZABLE", "OUT_OF_MEMORY", "CALLBACK_FAILED",
    "ACTOR_TERMINATED", "REFUSED", "WRONG_THREAD", "INVALID_ARGUMENT", "CLOSED", "INTERNAL_ERROR",
};

_Static_assert(sizeof(STATUS_NAMES) / sizeof(STATUS_NAMES[0]) == LANEHOST_INTERNAL_ERROR + 1,
               "one name per lanehost_status");

const char *lanehost_status_name(int32_t status) {
    if (status < 0 || status > LANEHOST_INTERNAL_ERROR) return NULL;
    return STATUS_NAMES[status];
}

/* Names match the constants of dev.lanehost.nativeabi.HostAbiDescriptor. */
static const report_entry API_LAYOUT[] = {
    {"HOST_ABI_VERSION", LANEHOST_HOST_ABI_VERSION},
    {"MAX_NAME_BYTES", LANEHOST_MAX_NAME_BYTES},
    {"LOWEST_ADDRESS", LANEHOST_LOWEST_ADDRESS},
    {"ADDRESS_BITS", LANEHOST_ADDRESS_BITS},
    {"API_SIZE", sizeof(lanehost_api)},
    {"API_ALIGNMENT", _Alignof(lanehost_api)},
    {"POINTER_SIZE", sizeof(void *)},
    {"ABI_VERSION_OFFSET", offsetof(lanehost_api, abi_version)},
    {"SIZE_OFFSET", offsetof(lanehost_api, size)},
    {"LANE_LOOKUP_OFFSET", offsetof(lanehost_api, lane_lookup)},
    {"LANE_DRIVE_OFFSET", offsetof(lanehost_api, lane_drive)},
    {"LANE_BIND_OFFSET", offsetof(lanehost_api, lane_bind)},
    {"LANE_RELEASE_OFFSET", offsetof(lanehost_api, lane_release)},
    {"THREAD_WARM_UP_OFFSET", offsetof(lanehost_api, thread_warm_up)},
    {"GATE_LOOKUP_OFFSET", offsetof(lanehost_api, gate_lookup)},
    {"GATE_CALL_OFFSET", offsetof(lanehost_api, gate_call)},
    {"GATE_CALL_ON_LANE_OFFSET", offsetof(lanehost_api, gate_call_on_lane)},
    {"SIGNAL_LOOKUP_OFFSET", offsetof(lanehost_api, signal_lookup)},
    {"SIGNAL_FIRE_OFFSET", offsetof(lanehost_api, signal_fire)},
    {"RING_LOOKUP_OFFSET", offsetof(lanehost_api, ring_lookup)},
    {"RING_RELEASE_OFFSET", offsetof(lanehost_api, ring_release)},
    {"LAST_ERROR_OFFSET", offsetof(lanehost_api, last_error)},
    {"LANE_LOOKUP_N_OFFSET", offsetof(lanehost_api, lane_lookup_n)},
    {"GATE_LOOKUP_N_OFFSET", offsetof(lanehost_api, gate_lookup_n)},
    {"SIGNAL_LOOKUP_N_OFFSET", offsetof(lanehost_api, signal_lookup_n)},
    {"RING_LOOKUP_N_OFFSET", offsetof(lanehost_api, ring_lookup_n)},
    {"DRIVE_COUNTS_SIZE", sizeof(lanehost_drive_counts)},
    {"DRIVE_COUNTS_TURNS_OFFSET", offsetof(lanehost_drive_counts, turns)},
    {"DRIVE_COUNTS_RESERVED_OFFSET", offsetof(lanehost_drive_counts, reserved)},
    {"DRIVE_COUNTS_REMAINING_OFFSET", offsetof(lanehost_drive_counts, remaining)},
};

const char *lanehost_api_layout_name(uint32_t index) {
    return report_name(API_LAYOUT, REPORT_LENGTH(API_LAYOUT), index);
}

int64_t lanehost_api_layout_value(const char *name, int32_t *found) {
    return report_value(API_LAYOUT, REPORT_LENGTH(API_LAYOUT), name, found);
}
