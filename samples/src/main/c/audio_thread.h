/*
 * audio_thread.h - the samples' own audio callback, for machines without JACK: a pthread that wakes every
 * period on absolute CLOCK_MONOTONIC deadlines (clock_nanosleep, TIMER_ABSTIME) - 128 frames at 48 kHz is
 * every 2.667 ms - and runs exactly what the JACK ring client's process callback runs (audio_source.h): one
 * period of a sine sweep into a lanehost ring, one timing record into a second ring. It never enters the JVM:
 * the rings are looked up through the host function table on the starting thread, before the thread starts.
 *
 * A period that wakes more than a whole period late is counted late; the schedule then restarts from now
 * (the way a sound card's clock does not wait for a late callback either, its missed periods are simply gone).
 */
#ifndef LANEHOST_AUDIO_THREAD_H
#define LANEHOST_AUDIO_THREAD_H

#include <stdint.h>

#include "lanehost/lanehost.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LANEHOST_AUDIO_THREAD_ABI_VERSION 1u

/* The thread's own failures (negative); a failed lookup returns its lanehost_status instead. */
#define LANEHOST_AUDIO_THREAD_BAD_CONFIG (-1)
#define LANEHOST_AUDIO_THREAD_OUT_OF_MEMORY (-2)
#define LANEHOST_AUDIO_THREAD_THREAD_FAILED (-3)
#define LANEHOST_AUDIO_THREAD_BAD_RING (-4) /* a looked-up ring did not wrap (lanehost_ring_wrap refused it) */

/* What the thread counted so far; a copy, safe to take while it runs. */
typedef struct lanehost_audio_thread_stats {
    uint64_t periods;            /* callbacks run */
    uint64_t samples_written;    /* samples (floats) placed in the audio ring */
    uint64_t ring_overruns;      /* periods dropped because the audio ring had no room for all of it */
    uint64_t timing_overruns;    /* timing records dropped because the timing ring was full */
    uint64_t late_periods;       /* periods that woke more than a period after their deadline */
    int64_t max_lateness_nanos;  /* the latest wake-up after its deadline */
    uint32_t sample_rate;        /* Hz */
    uint32_t period_frames;      /* frames per period */
    int32_t running;             /* 1 while the thread runs */
    uint32_t reserved;
} lanehost_audio_thread_stats;

_Static_assert(sizeof(lanehost_audio_thread_stats) == 64, "as AudioThread.java reads it");

typedef struct lanehost_audio_thread lanehost_audio_thread;

LANEHOST_EXPORT uint32_t lanehost_audio_thread_abi_version(void);

/*
 * Looks up the rings `audio_ring` and `timing_ring` through the table on the calling thread, wraps them, and
 * starts the thread: `period_frames` frames every period at `sample_rate` Hz, a sweep from f0 to f1 Hz over
 * `sweep_seconds` that repeats, until lanehost_audio_thread_stop, or after `max_periods` periods (0: no limit).
 *
 * Returns LANEHOST_OK and *out, the lanehost_status of a failed lookup, or a LANEHOST_AUDIO_THREAD_* error.
 */
LANEHOST_EXPORT int32_t lanehost_audio_thread_start(lanehost_audio_thread **out, const lanehost_api *api,
                                                    const char *audio_ring, const char *timing_ring,
                                                    uint32_t sample_rate, uint32_t period_frames, double f0, double f1,
                                                    double sweep_seconds, uint64_t max_periods);

LANEHOST_EXPORT int32_t lanehost_audio_thread_stats_get(const lanehost_audio_thread *thread,
                                                        lanehost_audio_thread_stats *out);

/* Asks the thread to stop after its current period. */
LANEHOST_EXPORT void lanehost_audio_thread_stop(lanehost_audio_thread *thread);

/* Waits for the thread to end (call stop first, unless max_periods ends it), releases the rings, frees. Once. */
LANEHOST_EXPORT int32_t lanehost_audio_thread_join(lanehost_audio_thread *thread, lanehost_audio_thread_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_AUDIO_THREAD_H */
