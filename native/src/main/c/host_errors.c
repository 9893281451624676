/*
 * host_errors.c - the calling thread's last-error sentence, which entries answered in C and in Java both set, and
 * the table's last_error entry that reads it.
 */
#include "host_errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "host_tables.h"

#define ERROR_CAPACITY 2048u

/* errno-style, one per thread in the process whichever table it called: allocated by the loader on a thread's
 * first failure, so a thread that never fails (a real-time drive) never pays for it. */
static _Thread_local struct {
    uint64_t length;
    char text[ERROR_CAPACITY];
} thread_error;

void lanehost_error_set(const uint8_t *text, uint64_t length) {
    uint64_t kept = length < ERROR_CAPACITY ? length : ERROR_CAPACITY;
    if (kept > 0) {
        memcpy(thread_error.text, text, kept);
    }
    thread_error.length = kept;
}

int32_t fail(int32_t status, const char *format, ...) {
    char sentence[ERROR_CAPACITY];
    int prefix = snprintf(sentence, sizeof sentence, "%s: ", lanehost_status_name(status));
    va_list arguments;
    va_start(arguments, format);
    int rest = vsnprintf(sentence + prefix, sizeof sentence - (size_t)prefix, format, arguments);
    va_end(arguments);
    size_t length = (size_t)prefix + (rest < 0 ? 0u : (size_t)rest);
    lanehost_error_set((const uint8_t *)sentence, length < sizeof sentence ? length : sizeof sentence - 1);
    return status;
}

/* A pointer no Linux process maps memory at (lanehost.h, "Pointers"). */
int implausible(const void *pointer) {
    uintptr_t address = (uintptr_t)pointer;
    return address < LANEHOST_LOWEST_ADDRESS || (address >> LANEHOST_ADDRESS_BITS) != 0;
}

int32_t lanehost_last_error(char *buffer, uint64_t capacity, uint64_t *length_out) {
    if (length_out == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "length_out is NULL");
    }
    if (implausible(length_out)) {
        return fail(LANEHOST_INVALID_ARGUMENT, "length_out %p is not an address a process maps memory at",
                    (void *)length_out);
    }
    if ((int64_t)capacity < 0) {
        return fail(LANEHOST_INVALID_ARGUMENT, "capacity must be >= 0");
    }
    if (capacity > 0 && buffer == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "a buffer with a nonzero capacity is NULL");
    }
    if (capacity > 0 && implausible(buffer)) {
        return fail(LANEHOST_INVALID_ARGUMENT, "buffer %p is not an address a process maps memory at", (void *)buffer);
    }
    uint64_t length = thread_error.length;
    *length_out = length;
    if (capacity > 0) {
        uint64_t copied = length < capacity - 1u ? length : capacity - 1u;
        memcpy(buffer, thread_error.text, copied);
        buffer[copied] = '\0';
    }
    return LANEHOST_OK;
}
