/*
 * audio_source.h - what a real-time audio callback of the samples does each period, whoever calls it (JACK's
 * process callback or the built-in audio thread): it computes one period of a sine sweep, places the whole
 * period in the audio ring or drops it (counting an overrun), and appends one timing record to the timing
 * ring. Rings only, through lanehost_ring.h: nothing here enters the JVM, locks, allocates or makes a system
 * call, so a hard real-time callback may run it.
 *
 * The sweep: sample k of the stream is (float) sin(phase(k mod length)), a linear chirp from f0 to f1 Hz over
 * `length` samples that then starts again:
 *
 *     t = i / rate,  T = length / rate,  phase(i) = 2 pi (f0 t + (f1 - f0) t^2 / (2 T))
 *
 * Java computes the same expression in the same order (dev.lanehost.samples.Sweep), so a consumer can check
 * every sample. Dropping whole periods keeps the ring's stream one seamless sweep whatever the reader does.
 */
#ifndef LANEHOST_AUDIO_SOURCE_H
#define LANEHOST_AUDIO_SOURCE_H

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>

#include "lanehost/lanehost_ring.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The sweep's parameters; see the file comment. */
typedef struct lanehost_sweep {
    double f0;       /* Hz at the start of each sweep */
    double f1;       /* Hz at its end */
    double rate;     /* samples per second */
    uint64_t length; /* samples per sweep (> 0) */
} lanehost_sweep;

static inline float lanehost_sweep_sample(const lanehost_sweep *sweep, uint64_t k) {
    const double t = (double)(k % sweep->length) / sweep->rate;
    const double duration = (double)sweep->length / sweep->rate;
    const double phase = 2.0 * M_PI * (sweep->f0 * t + (sweep->f1 - sweep->f0) * t * t / (2.0 * duration));
    return (float)sin(phase);
}

/*
 * One record per period in the timing ring (32 bytes, native byte order), for the consumer's plot. Records
 * are written whole or not at all, so a reader that reads whole records never sees half of one.
 */
typedef struct lanehost_audio_timing {
    int64_t wake_nanos;     /* CLOCK_MONOTONIC when the callback started */
    int64_t fill_bytes;     /* bytes in the audio ring after this period's write (or drop) */
    uint64_t first_sample;  /* index in the sweep of the period's first sample */
    uint32_t frames;        /* frames in the period */
    uint32_t dropped;       /* 1 if the audio ring had no room and the period was dropped */
} lanehost_audio_timing;

_Static_assert(sizeof(lanehost_audio_timing) == 32, "four 64-bit words, as AudioTiming.java reads them");

/* The producer's state: touched by the real-time thread only, except the counters, which others may read. */
typedef struct lanehost_audio_source {
    lanehost_ring audio;
    lanehost_ring timing;
    lanehost_sweep sweep;
    uint64_t next_sample;
    /* One writer (the real-time thread): relaxed loads and stores, no locked instruction there. */
    _Atomic uint64_t periods;
    _Atomic uint64_t samples_written;
    _Atomic uint64_t ring_overruns;   /* periods dropped: the audio ring had no room for all of it */
    _Atomic uint64_t timing_overruns; /* timing records dropped: the timing ring was full */
} lanehost_audio_source;

static inline void lanehost_audio_count(_Atomic uint64_t *counter, uint64_t amount) {
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + amount, memory_order_relaxed);
}

/*
 * One period: fills out[0..frames) with the sweep, writes it whole into the audio ring or drops it, and
 * appends a timing record. `out` may be the host's own output buffer (JACK's port) or scratch memory.
 */
static inline void lanehost_audio_source_period(lanehost_audio_source *source, float *out, uint32_t frames,
                                                int64_t wake_nanos) {
    for (uint32_t i = 0; i < frames; i++) out[i] = lanehost_sweep_sample(&source->sweep, source->next_sample + i);
    const uint64_t bytes = (uint64_t)frames * sizeof *out;
    lanehost_audio_timing record = {.wake_nanos = wake_nanos, .first_sample = source->next_sample, .frames = frames};
    if (lanehost_ring_writable(&source->audio) >= bytes &&
        lanehost_ring_write(&source->audio, out, bytes) == (int64_t)bytes) {
        source->next_sample += frames;
        lanehost_audio_count(&source->samples_written, frames);
    } else {
        record.dropped = 1;
        lanehost_audio_count(&source->ring_overruns, 1);
    }
    record.fill_bytes = (int64_t)lanehost_ring_readable(&source->audio);
    if (lanehost_ring_writable(&source->timing) < sizeof record ||
        lanehost_ring_write(&source->timing, &record, sizeof record) != (int64_t)sizeof record) {
        lanehost_audio_count(&source->timing_overruns, 1);
    }
    lanehost_audio_count(&source->periods, 1);
}

#endif /* LANEHOST_AUDIO_SOURCE_H */
