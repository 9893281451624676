/*
 * host.c - the native host. host_start starts a thread of its own, which drives the lane "frame" once a
 * millisecond, calls the gate "score" from the lane's thread after 60 frames, and keeps driving until the lane
 * answers LANEHOST_CLOSED (Java closed the runtime: that drive tore the lane's actors down on this thread).
 * host_stop joins it, so no code of this library runs once Java unloads it. lanehost is reached only through the
 * lanehost_api table Java hands over: the library does not link lanehost.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lanehost/lanehost.h"

#define FRAMES_BEFORE_CALL 60
#define TURNS_PER_FRAME 8

#if defined(__GNUC__)
#define HOST_EXPORT __attribute__((visibility("default")))
#else
#define HOST_EXPORT
#endif

typedef struct host_state {
    const lanehost_api *api;
    int32_t status;    /* the first failing entry's status, or LANEHOST_OK */
    const char *step;  /* which entry that was */
    char error[512];   /* and last_error's sentence, read on the thread that failed (it is per thread) */
    int64_t frames;    /* drives answered OK */
    int64_t turns;     /* turns they ran */
    int64_t score;     /* the gate's answer, -1 until then */
} host_state;

static host_state state;
static pthread_t thread;
static int running;

/* The unsigned integer a CBOR item holds (major type 0), or -1 if it holds anything else. */
static int64_t cbor_unsigned(const uint8_t *in, uint64_t length) {
    if (length == 0 || in[0] >> 5 != 0) return -1;
    const uint8_t info = in[0] & 0x1f;
    if (info < 24) return info;
    const uint64_t bytes = info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : 0;
    if (bytes == 0 || length < 1 + bytes) return -1;
    uint64_t value = 0;
    for (uint64_t i = 0; i < bytes; i++) value = value << 8 | in[1 + i];
    return value > INT64_MAX ? -1 : (int64_t)value;
}

/* Records a failing entry's status and sentence; 1 if status is not LANEHOST_OK. */
static int failed(const char *step, int32_t status) {
    if (status == LANEHOST_OK) return 0;
    state.status = status;
    state.step = step;
    uint64_t length = 0;
    if (state.api->last_error(state.error, sizeof state.error, &length) != LANEHOST_OK) state.error[0] = '\0';
    return 1;
}

static void *frame_thread(void *unused) {
    (void)unused;
    const lanehost_api *api = state.api;
    uint64_t lane = 0;
    uint64_t gate = 0;
    if (failed("thread_warm_up", api->thread_warm_up()) || failed("lane_lookup", api->lane_lookup("frame", &lane)) ||
        failed("gate_lookup", api->gate_lookup("score", &gate))) {
        return NULL;
    }
    const struct timespec period = {.tv_sec = 0, .tv_nsec = 1000000};
    for (;;) {
        lanehost_drive_counts counts;
        const int32_t status = api->lane_drive(lane, TURNS_PER_FRAME, &counts);
        if (status == LANEHOST_CLOSED) return NULL; /* the runtime closed: the end of this thread */
        if (failed("lane_drive", status)) return NULL;
        state.frames++;
        state.turns += counts.turns;
        if (state.frames == FRAMES_BEFORE_CALL) {
            /* The gate's actor lives on this thread's lane: gate_call_on_lane drives the lane until the answer is
               ready (a blocking gate_call from the lane's own thread would wait for itself). */
            const uint8_t args[] = {0x18, FRAMES_BEFORE_CALL}; /* CBOR: the unsigned integer 60 */
            uint8_t result[16];
            uint64_t result_length = 0;
            if (failed("gate_call_on_lane", api->gate_call_on_lane(gate, lane, args, sizeof args, result, sizeof result,
                                                                   &result_length, 0))) {
                return NULL;
            }
            state.score = cbor_unsigned(result, result_length);
        }
        nanosleep(&period, NULL); /* ... the rest of a frame ... */
    }
}

/* Starts the host thread: LANEHOST_OK, or -1 if it is running already or could not start. */
HOST_EXPORT int32_t host_start(const lanehost_api *api) {
    if (running) return -1;
    memset(&state, 0, sizeof state);
    state.api = api;
    state.score = -1;
    if (pthread_create(&thread, NULL, frame_thread, NULL) != 0) {
        fprintf(stderr, "host: no thread\n");
        return -1;
    }
    running = 1;
    return LANEHOST_OK;
}

/* Joins the host thread (it ends once a drive answers LANEHOST_CLOSED) and says what it did: LANEHOST_OK, the
 * failing entry's status, or -1 if no thread ran. */
HOST_EXPORT int32_t host_stop(void) {
    if (!running) return -1;
    pthread_join(thread, NULL);
    running = 0;
    if (state.status != LANEHOST_OK) {
        fprintf(stderr, "host: %s answered %d: %s\n", state.step, state.status, state.error);
        return state.status;
    }
    printf("host: a C thread drove the lane %lld times (%lld turns) and the gate answered score %lld\n",
           (long long)state.frames, (long long)state.turns, (long long)state.score);
    fflush(stdout);
    return LANEHOST_OK;
}
