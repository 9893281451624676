/* audio_thread.c - a periodic audio pthread that writes a sine sweep and timing records into lanehost rings. */
#define _POSIX_C_SOURCE 200809L /* clock_nanosleep */
#include "audio_thread.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "audio_source.h"

#define NANOS_PER_SECOND INT64_C(1000000000)
/* The largest period accepted: 8192 frames is 170 ms at 48 kHz, longer than any audio API's. */
#define MAX_PERIOD_FRAMES 8192u

struct lanehost_audio_thread {
    const lanehost_api *api;
    uint64_t audio_reference;
    uint64_t timing_reference;
    lanehost_audio_source source;
    uint32_t sample_rate;
    uint32_t period_frames;
    uint64_t max_periods;
    pthread_t thread;
    _Atomic int stop_requested;
    _Atomic int running;
    _Atomic uint64_t late_periods;
    _Atomic int64_t max_lateness_nanos;
    float *buffer;
};

uint32_t lanehost_audio_thread_abi_version(void) {
    return LANEHOST_AUDIO_THREAD_ABI_VERSION;
}

static int64_t monotonic_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * NANOS_PER_SECOND + now.tv_nsec;
}

static void sleep_until(int64_t deadline) {
    struct timespec at = {.tv_sec = (time_t)(deadline / NANOS_PER_SECOND), .tv_nsec = (long)(deadline % NANOS_PER_SECOND)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR) {
    }
}

static void *audio_loop(void *argument) {
    lanehost_audio_thread *thread = argument;
    /* The period in nanoseconds is not whole (2,666,666.67 ns at 48 kHz / 128): deadlines are computed from the
       period count, so the schedule does not drift by the rounding. */
    int64_t start = monotonic_nanos();
    uint64_t period = 0;
    while (!atomic_load_explicit(&thread->stop_requested, memory_order_acquire) &&
           (thread->max_periods == 0 || atomic_load_explicit(&thread->source.periods, memory_order_relaxed) <
                                            thread->max_periods)) {
        period++;
        const int64_t deadline = start + (int64_t)(period * thread->period_frames * (uint64_t)NANOS_PER_SECOND /
                                                   thread->sample_rate);
        sleep_until(deadline);
        const int64_t woke = monotonic_nanos();
        lanehost_audio_source_period(&thread->source, thread->buffer, thread->period_frames, woke);
        const int64_t lateness = woke - deadline;
        if (lateness > atomic_load_explicit(&thread->max_lateness_nanos, memory_order_relaxed)) {
            atomic_store_explicit(&thread->max_lateness_nanos, lateness, memory_order_relaxed);
        }
        if (lateness * thread->sample_rate > (int64_t)thread->period_frames * NANOS_PER_SECOND) {
            lanehost_audio_count(&thread->late_periods, 1);
            start = woke;
            period = 0;
        }
    }
    atomic_store_explicit(&thread->running, 0, memory_order_release);
    return NULL;
}

static void release(lanehost_audio_thread *thread) {
    if (thread->audio_reference != 0) thread->api->ring_release(thread->audio_reference);
    if (thread->timing_reference != 0) thread->api->ring_release(thread->timing_reference);
    free(thread->buffer);
    free(thread);
}

static int32_t lookup(const lanehost_api *api, const char *name, uint64_t *reference, lanehost_ring *ring) {
    void *memory = NULL;
    uint64_t length = 0;
    const int32_t status = api->ring_lookup(name, reference, &memory, &length);
    if (status != LANEHOST_OK) return status;
    return lanehost_ring_wrap(ring, memory, length) == LANEHOST_RING_OK ? LANEHOST_OK : LANEHOST_AUDIO_THREAD_BAD_RING;
}

int32_t lanehost_audio_thread_start(lanehost_audio_thread **out, const lanehost_api *api, const char *audio_ring,
                                    const char *timing_ring, uint32_t sample_rate, uint32_t period_frames, double f0,
                                    double f1, double sweep_seconds, uint64_t max_periods) {
    if (out == NULL || api == NULL || audio_ring == NULL || timing_ring == NULL || sample_rate == 0 ||
        period_frames == 0 || period_frames > MAX_PERIOD_FRAMES || !(f0 > 0) || !(f1 > 0) ||
        !(sweep_seconds * sample_rate >= 1) || !LANEHOST_API_HAS(api, last_error)) {
        return LANEHOST_AUDIO_THREAD_BAD_CONFIG;
    }
    *out = NULL;
    lanehost_audio_thread *thread = calloc(1, sizeof *thread);
    if (thread == NULL) return LANEHOST_AUDIO_THREAD_OUT_OF_MEMORY;
    thread->api = api;
    thread->buffer = calloc(period_frames, sizeof *thread->buffer);
    if (thread->buffer == NULL) {
        release(thread);
        return LANEHOST_AUDIO_THREAD_OUT_OF_MEMORY;
    }
    thread->sample_rate = sample_rate;
    thread->period_frames = period_frames;
    thread->max_periods = max_periods;
    thread->source.sweep = (lanehost_sweep){.f0 = f0, .f1 = f1, .rate = sample_rate,
                                            .length = (uint64_t)(sweep_seconds * sample_rate)};
    int32_t status = lookup(api, audio_ring, &thread->audio_reference, &thread->source.audio);
    if (status == LANEHOST_OK) status = lookup(api, timing_ring, &thread->timing_reference, &thread->source.timing);
    if (status != LANEHOST_OK) {
        release(thread);
        return status;
    }
    atomic_store_explicit(&thread->running, 1, memory_order_relaxed);
    if (pthread_create(&thread->thread, NULL, audio_loop, thread) != 0) {
        release(thread);
        return LANEHOST_AUDIO_THREAD_THREAD_FAILED;
    }
    *out = thread;
    return LANEHOST_OK;
}

int32_t lanehost_audio_thread_stats_get(const lanehost_audio_thread *thread, lanehost_audio_thread_stats *out) {
    if (thread == NULL || out == NULL) return LANEHOST_AUDIO_THREAD_BAD_CONFIG;
    *out = (lanehost_audio_thread_stats){
        .periods = atomic_load_explicit(&thread->source.periods, memory_order_relaxed),
        .samples_written = atomic_load_explicit(&thread->source.samples_written, memory_order_relaxed),
        .ring_overruns = atomic_load_explicit(&thread->source.ring_overruns, memory_order_relaxed),
        .timing_overruns = atomic_load_explicit(&thread->source.timing_overruns, memory_order_relaxed),
        .late_periods = atomic_load_explicit(&thread->late_periods, memory_order_relaxed),
        .max_lateness_nanos = atomic_load_explicit(&thread->max_lateness_nanos, memory_order_relaxed),
        .sample_rate = thread->sample_rate,
        .period_frames = thread->period_frames,
        .running = atomic_load_explicit(&thread->running, memory_order_acquire),
    };
    return LANEHOST_OK;
}

void lanehost_audio_thread_stop(lanehost_audio_thread *thread) {
    if (thread != NULL) atomic_store_explicit(&thread->stop_requested, 1, memory_order_release);
}

int32_t lanehost_audio_thread_join(lanehost_audio_thread *thread, lanehost_audio_thread_stats *out) {
    if (thread == NULL) return LANEHOST_AUDIO_THREAD_BAD_CONFIG;
    pthread_join(thread->thread, NULL);
    if (out != NULL) lanehost_audio_thread_stats_get(thread, out);
    /* Only now, with the thread gone, may the rings' memory go. */
    release(thread);
    return LANEHOST_OK;
}
