/* frame_host.c - a fixed-rate frame loop and an input thread, using lanehost only through the table. */
#define _GNU_SOURCE /* gettid */
#include "frame_host.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NANOS_PER_SECOND INT64_C(1000000000)

struct lanehost_frame_host {
    const lanehost_api *api;
    uint64_t lane;
    uint64_t gate;
    int64_t period_nanos;
    int32_t max_turns;
    uint32_t min_frames;
    uint32_t max_frames;
    uint32_t events;
    int64_t call_timeout_nanos;
    pthread_t frame_thread;
    pthread_t input_thread;
    _Atomic int stop_requested;
    _Atomic int input_done;
    /* Live counts for lanehost_frame_host_progress; one writer each (relaxed stores, no locked instruction). */
    _Atomic uint32_t progress_frames;
    _Atomic uint32_t progress_late_frames;
    _Atomic uint32_t progress_events_ok;
    _Atomic uint64_t progress_turns;
    /* Written by the frame thread, read after join. */
    lanehost_frame_record *records;
    lanehost_frame_summary summary;
};

uint32_t lanehost_frame_host_abi_version(void) {
    return LANEHOST_FRAME_HOST_ABI_VERSION;
}

static int64_t monotonic_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * NANOS_PER_SECOND + now.tv_nsec;
}

static struct timespec to_timespec(int64_t nanos) {
    struct timespec at = {.tv_sec = (time_t)(nanos / NANOS_PER_SECOND), .tv_nsec = (long)(nanos % NANOS_PER_SECOND)};
    return at;
}

/* Sleeps until the absolute CLOCK_MONOTONIC time `deadline`; a signal only shortens one wait. */
static void sleep_until(int64_t deadline) {
    struct timespec at = to_timespec(deadline);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR) {
    }
}

static void *frame_loop(void *argument) {
    lanehost_frame_host *host = argument;
    const lanehost_api *api = host->api;
    host->summary.frame_warm_up_status = api->thread_warm_up();
    host->summary.frame_thread_id = (int64_t)gettid();

    int64_t deadline = monotonic_nanos() + host->period_nanos;
    uint32_t frame = 0;
    while (frame < host->max_frames) {
        const int input_done = atomic_load_explicit(&host->input_done, memory_order_acquire);
        /* After a stop, the loop keeps driving until the input thread has ended: its last call is answered in a
           frame, not left to time out. */
        if (input_done && (frame >= host->min_frames || atomic_load_explicit(&host->stop_requested, memory_order_acquire))) {
            break;
        }
        sleep_until(deadline);
        const int64_t woke = monotonic_nanos();
        lanehost_drive_counts counts = {0};
        const int32_t status = api->lane_drive(host->lane, host->max_turns, &counts);
        const int64_t driven = monotonic_nanos();

        lanehost_frame_record *record = &host->records[frame++];
        record->status = status;
        record->turns = status == LANEHOST_OK ? counts.turns : 0;
        record->remaining = status == LANEHOST_OK ? counts.remaining : 0;
        record->drive_nanos = driven - woke;
        record->jitter_nanos = woke - deadline;

        deadline += host->period_nanos;
        if (driven > deadline) {
            /* More than a period late: catching up with back-to-back frames would only make the next ones late. */
            host->summary.late_frames++;
            atomic_store_explicit(&host->progress_late_frames, host->summary.late_frames, memory_order_relaxed);
            deadline = driven + host->period_nanos;
        }
        atomic_store_explicit(&host->progress_turns,
                              atomic_load_explicit(&host->progress_turns, memory_order_relaxed) + (uint64_t)record->turns,
                              memory_order_relaxed);
        atomic_store_explicit(&host->progress_frames, frame, memory_order_relaxed);
    }
    host->summary.frames = frame;
    return NULL;
}

/* ---- The input events: a few bytes of CBOR (RFC 8949), written and read by hand ---- */

/* Writes a CBOR head (major type and argument) and returns its length. */
static size_t cbor_head(uint8_t *out, uint8_t major, uint64_t argument) {
    const uint8_t type = (uint8_t)(major << 5);
    if (argument < 24) {
        out[0] = type | (uint8_t)argument;
        return 1;
    }
    if (argument <= UINT8_MAX) {
        out[0] = type | 24;
        out[1] = (uint8_t)argument;
        return 2;
    }
    if (argument <= UINT16_MAX) {
        out[0] = type | 25;
        out[1] = (uint8_t)(argument >> 8);
        out[2] = (uint8_t)argument;
        return 3;
    }
    out[0] = type | 26;
    for (int i = 0; i < 4; i++) out[1 + i] = (uint8_t)(argument >> (24 - 8 * i));
    return 5;
}

static size_t cbor_text(uint8_t *out, const char *text) {
    const size_t length = strlen(text);
    const size_t head = cbor_head(out, 3, length);
    memcpy(out + head, text, length);
    return head + length;
}

/* {"seq": seq, "dx": -1, 0 or 1}: the event a player's stick would send. */
static size_t encode_event(uint8_t *out, uint32_t seq) {
    size_t n = cbor_head(out, 5, 2);
    n += cbor_text(out + n, "seq");
    n += cbor_head(out + n, 0, seq);
    n += cbor_text(out + n, "dx");
    const int dx = (int)(seq % 3) - 1;
    n += dx < 0 ? cbor_head(out + n, 1, (uint64_t)(-dx - 1)) : cbor_head(out + n, 0, (uint64_t)dx);
    return n;
}

/* The unsigned integer a result holds, or -1 if it holds anything else. */
static int64_t decode_unsigned(const uint8_t *in, uint64_t length) {
    if (length == 0 || in[0] >> 5 != 0) return -1;
    const uint8_t info = in[0] & 31;
    if (info < 24) return length == 1 ? info : -1;
    const uint64_t bytes = info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : 0;
    if (bytes == 0 || length != 1 + bytes) return -1;
    uint64_t value = 0;
    for (uint64_t i = 0; i < bytes; i++) value = value << 8 | in[1 + i];
    return value > INT64_MAX ? -1 : (int64_t)value;
}

static void *input_loop(void *argument) {
    lanehost_frame_host *host = argument;
    const lanehost_api *api = host->api;
    host->summary.input_warm_up_status = api->thread_warm_up();
    host->summary.input_thread_id = (int64_t)gettid();

    uint8_t event[32];
    uint8_t result[64];
    for (uint32_t seq = 0; seq < host->events && !atomic_load_explicit(&host->stop_requested, memory_order_acquire);
         seq++) {
        const size_t length = encode_event(event, seq);
        uint64_t result_length = 0;
        int32_t status = api->gate_call(host->gate, event, length, result, sizeof result, &result_length,
                                        host->call_timeout_nanos);
        host->summary.events_sent++;
        if (status == LANEHOST_OK && decode_unsigned(result, result_length) != (int64_t)seq) {
            status = LANEHOST_FRAME_HOST_WRONG_ACK;
        }
        if (status == LANEHOST_OK) {
            host->summary.events_ok++;
            atomic_store_explicit(&host->progress_events_ok, host->summary.events_ok, memory_order_relaxed);
        } else if (host->summary.first_failure_status == 0) {
            host->summary.first_failure_status = status;
            host->summary.first_failure_event = seq;
        }
    }
    atomic_store_explicit(&host->input_done, 1, memory_order_release);
    return NULL;
}

/* ---- Lifecycle ---- */

int32_t lanehost_frame_host_start(lanehost_frame_host **out, const lanehost_api *api, const char *lane_name,
                                  const char *gate_name, uint32_t rate_hz, int32_t max_turns, uint32_t min_frames,
                                  uint32_t max_frames, uint32_t events, int64_t call_timeout_nanos) {
    if (out == NULL || api == NULL || lane_name == NULL || gate_name == NULL || rate_hz == 0 || max_turns <= 0 ||
        max_frames == 0 || min_frames > max_frames || call_timeout_nanos < 0) {
        return LANEHOST_FRAME_HOST_BAD_CONFIG;
    }
    if (!LANEHOST_API_HAS(api, last_error)) return LANEHOST_FRAME_HOST_BAD_CONFIG;
    *out = NULL;
    lanehost_frame_host *host = calloc(1, sizeof *host);
    if (host == NULL) return LANEHOST_FRAME_HOST_OUT_OF_MEMORY;
    host->records = calloc(max_frames, sizeof *host->records);
    if (host->records == NULL) {
        free(host);
        return LANEHOST_FRAME_HOST_OUT_OF_MEMORY;
    }
    host->api = api;
    host->period_nanos = NANOS_PER_SECOND / rate_hz;
    host->max_turns = max_turns;
    host->min_frames = min_frames;
    host->max_frames = max_frames;
    host->events = events;
    host->call_timeout_nanos = call_timeout_nanos;

    int32_t status = api->lane_lookup(lane_name, &host->lane);
    if (status == LANEHOST_OK) status = api->gate_lookup(gate_name, &host->gate);
    if (status != LANEHOST_OK) {
        lanehost_frame_host_free(host);
        return status;
    }
    if (pthread_create(&host->frame_thread, NULL, frame_loop, host) != 0) {
        lanehost_frame_host_free(host);
        return LANEHOST_FRAME_HOST_THREAD_FAILED;
    }
    if (pthread_create(&host->input_thread, NULL, input_loop, host) != 0) {
        atomic_store_explicit(&host->stop_requested, 1, memory_order_release);
        pthread_join(host->frame_thread, NULL);
        lanehost_frame_host_free(host);
        return LANEHOST_FRAME_HOST_THREAD_FAILED;
    }
    *out = host;
    return LANEHOST_OK;
}

void lanehost_frame_host_stop(lanehost_frame_host *host) {
    if (host != NULL) atomic_store_explicit(&host->stop_requested, 1, memory_order_release);
}

int32_t lanehost_frame_host_progress(const lanehost_frame_host *host, lanehost_frame_progress *out) {
    if (host == NULL || out == NULL) return LANEHOST_FRAME_HOST_BAD_CONFIG;
    *out = (lanehost_frame_progress){
        .frames = atomic_load_explicit(&host->progress_frames, memory_order_relaxed),
        .late_frames = atomic_load_explicit(&host->progress_late_frames, memory_order_relaxed),
        .events_ok = atomic_load_explicit(&host->progress_events_ok, memory_order_relaxed),
        .turns = atomic_load_explicit(&host->progress_turns, memory_order_relaxed),
    };
    return LANEHOST_OK;
}

int32_t lanehost_frame_host_join(lanehost_frame_host *host, lanehost_frame_summary *summary) {
    if (host == NULL || summary == NULL) return LANEHOST_FRAME_HOST_BAD_CONFIG;
    /* The input thread first: the frame loop may be waiting for it to finish. If the loop reached
       max_frames first, the input thread's pending call times out and it ends too. */
    pthread_join(host->input_thread, NULL);
    pthread_join(host->frame_thread, NULL);
    *summary = host->summary;
    return LANEHOST_OK;
}

const lanehost_frame_record *lanehost_frame_host_records(const lanehost_frame_host *host) {
    return host == NULL ? NULL : host->records;
}

void lanehost_frame_host_free(lanehost_frame_host *host) {
    if (host == NULL) return;
    free(host->records);
    free(host);
}
