/*
 * duplex_period.h - what the duplex client's real-time callback does each period, apart from JACK's ports, so that a
 * test can run it without a JACK server (src/test/c/test_duplex_period.c). Rings only, through lanehost_ring.h: no
 * JVM, no lock, no allocation, no system call.
 *
 * One period:
 *   1. the input goes into the capture ring (what fits, in whole frames; a short write counts one overrun in the
 *      ring's header);
 *   2. late frames are dropped: every frame of silence an earlier underrun played is owed, and the next frames the
 *      effect writes are exactly the late ones (they belong to the slots that silence filled), so they are read from
 *      the playback ring and thrown away, counted (dropped_late_frames), up to what is owed;
 *   3. the output comes from the playback ring (lanehost_ring_read_frames: whole frames, then silence and one underrun
 *      counted in the ring's header); the silence is counted in frames (underrun_frames) and owed to step 2;
 *   4. one lanehost_duplex_frame per frame goes into the monitor ring, whole periods or none.
 * Step 2 keeps the frames in flight (capture + playback) at the effect's lead: an underrun adds its silence to them
 * and the drop takes as much back, so the end-to-end delay is the lead again instead of growing by every underrun.
 */
#ifndef LANEHOST_DUPLEX_PERIOD_H
#define LANEHOST_DUPLEX_PERIOD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lanehost/lanehost_ring.h"

#define LANEHOST_DUPLEX_CAPTURED 1u /* the frame's input went into the capture ring */
#define LANEHOST_DUPLEX_PLAYED 2u   /* the frame's output came from the playback ring (else: silence) */

/* One frame as the monitor ring carries it. */
typedef struct lanehost_duplex_frame {
    float in;                 /* the input port's sample */
    float out;                /* the output port's sample as played */
    uint32_t flags;           /* LANEHOST_DUPLEX_CAPTURED | LANEHOST_DUPLEX_PLAYED */
    uint32_t dropped_before;  /* late frames read from the playback ring and thrown away just before this one played */
} lanehost_duplex_frame;

/* DuplexMonitor.java reads the fields at these offsets, in native byte order. */
_Static_assert(offsetof(lanehost_duplex_frame, in) == 0 && offsetof(lanehost_duplex_frame, out) == 4 &&
                   offsetof(lanehost_duplex_frame, flags) == 8 && offsetof(lanehost_duplex_frame, dropped_before) == 12,
               "as DuplexMonitor.java reads it");
_Static_assert(sizeof(lanehost_duplex_frame) == 16, "as DuplexMonitor.java reads it (FRAME_BYTES)");

/* The rings and what the callback counts. The counters have one writer (the callback): relaxed stores, except
   captured_frames, which a reader acquires to know the capture ring holds that many. */
typedef struct lanehost_duplex {
    lanehost_ring capture;
    lanehost_ring playback;
    lanehost_ring monitor;
    lanehost_duplex_frame *monitor_frames; /* one period of monitor frames (scratch, callback only) */
    uint32_t monitor_frames_length;
    uint64_t owed;                         /* callback only: underrun frames not yet matched by a dropped late frame */
    _Atomic uint64_t captured_frames;      /* frames placed in the capture ring */
    _Atomic uint64_t monitor_overruns;     /* periods of monitor frames the monitor ring had no room for */
    _Atomic uint64_t underrun_frames;      /* frames of silence played because the playback ring ran short */
    _Atomic uint64_t dropped_late_frames;  /* late frames read and thrown away to win the underruns' silence back */
} lanehost_duplex;

static inline void lanehost_duplex_add(_Atomic uint64_t *counter, uint64_t amount, memory_order order) {
    /* Single writer: a load and a store, no locked instruction on the real-time thread. */
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + amount, order);
}

/* One period of `frames` frames: `in` is read once, `out` is written whole. See the file comment for the steps. */
static inline void lanehost_duplex_period(lanehost_duplex *duplex, const float *in, float *out, uint32_t frames) {
    const uint64_t frame_bytes = sizeof *in;
    /* Step 1. */
    int64_t put = lanehost_ring_write(&duplex->capture, in, (uint64_t)frames * frame_bytes);
    const uint64_t captured = put < 0 ? 0 : (uint64_t)put / frame_bytes; /* corrupt positions: nothing went in */
    /* Step 2, with the output buffer as scratch: step 3 writes it for real. */
    uint64_t dropped = 0;
    for (uint64_t late; duplex->owed > 0 && (late = lanehost_ring_readable(&duplex->playback) / frame_bytes) > 0;) {
        late = late < duplex->owed ? late : duplex->owed;
        late = late < frames ? late : frames;
        lanehost_ring_read(&duplex->playback, out, late * frame_bytes);
        duplex->owed -= late;
        dropped += late;
    }
    /* Step 3. */
    int64_t played = lanehost_ring_read_frames(&duplex->playback, out, frames, frame_bytes, 0);
    if (played < 0) {
        memset(out, 0, frames * frame_bytes);
        played = 0;
    }
    const uint64_t silent = frames - (uint64_t)played;
    duplex->owed += silent;
    if (silent > 0) lanehost_duplex_add(&duplex->underrun_frames, silent, memory_order_relaxed);
    if (dropped > 0) lanehost_duplex_add(&duplex->dropped_late_frames, dropped, memory_order_relaxed);
    /* Release: a reader that acquires the count finds at least that many frames in the capture ring. */
    if (captured > 0) lanehost_duplex_add(&duplex->captured_frames, captured, memory_order_release);
    /* Step 4: whole periods only, since a reader that lost part of one could not line the frames up again. */
    const uint64_t monitor_bytes = (uint64_t)frames * sizeof(lanehost_duplex_frame);
    if (frames <= duplex->monitor_frames_length && lanehost_ring_writable(&duplex->monitor) >= monitor_bytes) {
        for (uint32_t i = 0; i < frames; i++) {
            duplex->monitor_frames[i] = (lanehost_duplex_frame){
                .in = in[i], .out = out[i],
                .flags = (i < captured ? LANEHOST_DUPLEX_CAPTURED : 0u) | ((int64_t)i < played ? LANEHOST_DUPLEX_PLAYED : 0u),
                .dropped_before = i == 0 ? (uint32_t)dropped : 0u};
        }
        lanehost_ring_write(&duplex->monitor, duplex->monitor_frames, monitor_bytes);
    } else {
        lanehost_duplex_add(&duplex->monitor_overruns, 1, memory_order_relaxed);
    }
}

#endif /* LANEHOST_DUPLEX_PERIOD_H */
