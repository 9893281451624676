/*
 * frame_host.h - a frame-loop host that uses lanehost only through the host function table.
 *
 * Two pthreads that Java never created, the way a game or video engine has them:
 *
 *  - the frame thread wakes at a fixed rate (clock_nanosleep on CLOCK_MONOTONIC at absolute deadlines),
 *    and each frame lends itself to a lane with api->lane_drive, bounded by max_turns;
 *  - the input thread sends input events into the lane's actors with api->gate_call (CBOR maps
 *    {"seq": n, "dx": -1|0|1}) and checks that each call answers with its own sequence number.
 *
 * Both call api->thread_warm_up() first. Every frame is recorded (drive status, turns, letters left,
 * drive duration, wake-up jitter) so Java can read what the host saw. Every function returns a status
 * and never aborts.
 */
#ifndef LANEHOST_FRAME_HOST_H
#define LANEHOST_FRAME_HOST_H

#include <stdint.h>

#include "lanehost/lanehost.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LANEHOST_FRAME_HOST_ABI_VERSION 2u

/* The host's own failures (negative); a failed lookup returns its lanehost_status instead. */
#define LANEHOST_FRAME_HOST_BAD_CONFIG (-1)
#define LANEHOST_FRAME_HOST_OUT_OF_MEMORY (-2)
#define LANEHOST_FRAME_HOST_THREAD_FAILED (-3)

/* The status recorded for an input event whose call answered OK with another event's sequence number. */
#define LANEHOST_FRAME_HOST_WRONG_ACK (-4)

/* One frame as the frame thread saw it. */
typedef struct lanehost_frame_record {
    int32_t status;       /* what lane_drive returned */
    int32_t turns;        /* turns the drive ran (0 unless OK) */
    int64_t remaining;    /* letters left on the lane after the drive (0 unless OK) */
    int64_t drive_nanos;  /* how long lane_drive took */
    int64_t jitter_nanos; /* how long after its deadline the frame woke */
} lanehost_frame_record;

_Static_assert(sizeof(lanehost_frame_record) == 32, "four 64-bit words, as FrameHost.java reads them");

/* What both threads did, complete once lanehost_frame_host_join returned. */
typedef struct lanehost_frame_summary {
    int32_t frame_warm_up_status; /* thread_warm_up on the frame thread */
    int32_t input_warm_up_status; /* thread_warm_up on the input thread */
    int64_t frame_thread_id;      /* the frame thread's kernel thread id (gettid) */
    int64_t input_thread_id;      /* the input thread's */
    uint32_t frames;              /* frames run (and recorded) */
    uint32_t late_frames;         /* frames that woke more than a period late; the schedule restarted there */
    uint32_t events_sent;         /* gate calls made */
    uint32_t events_ok;           /* calls that answered OK with their own sequence number */
    int32_t first_failure_status; /* the first call that did not: its status (or WRONG_ACK); 0 if none */
    uint32_t first_failure_event; /* its sequence number */
} lanehost_frame_summary;

_Static_assert(sizeof(lanehost_frame_summary) == 48, "as FrameHost.java reads it");

/* Live counts while the threads run (each read on its own: a copy, not a consistent snapshot). */
typedef struct lanehost_frame_progress {
    uint32_t frames;      /* frames run so far */
    uint32_t late_frames; /* of which late */
    uint32_t events_ok;   /* gate calls answered OK with their own sequence number */
    uint32_t reserved;
    uint64_t turns;       /* turns run by all drives */
} lanehost_frame_progress;

_Static_assert(sizeof(lanehost_frame_progress) == 24, "as FrameHost.java reads it");

typedef struct lanehost_frame_host lanehost_frame_host;

LANEHOST_EXPORT uint32_t lanehost_frame_host_abi_version(void);

/*
 * Looks up the lane and the gate through the table on the calling thread, then starts both threads.
 * The frame loop runs at least min_frames frames and keeps going until the input thread has made its
 * `events` calls, but never more than max_frames frames. max_turns bounds each frame's drive (> 0).
 * call_timeout_nanos bounds each gate call.
 *
 * Returns LANEHOST_OK and *out, the lanehost_status of a failed lookup, or a LANEHOST_FRAME_HOST_* error.
 */
LANEHOST_EXPORT int32_t lanehost_frame_host_start(lanehost_frame_host **out, const lanehost_api *api,
                                                  const char *lane_name, const char *gate_name, uint32_t rate_hz,
                                                  int32_t max_turns, uint32_t min_frames, uint32_t max_frames,
                                                  uint32_t events, int64_t call_timeout_nanos);

/* Asks both threads to stop early: the input thread after its current call, the frame loop once the input
   thread has ended (so that call is answered in a frame rather than left to time out). */
LANEHOST_EXPORT void lanehost_frame_host_stop(lanehost_frame_host *host);

/* What the threads did so far, while they run. */
LANEHOST_EXPORT int32_t lanehost_frame_host_progress(const lanehost_frame_host *host, lanehost_frame_progress *out);

/* Waits for both threads and fills *summary. Call once. */
LANEHOST_EXPORT int32_t lanehost_frame_host_join(lanehost_frame_host *host, lanehost_frame_summary *summary);

/* The frame records (summary.frames of them); valid until lanehost_frame_host_free. */
LANEHOST_EXPORT const lanehost_frame_record *lanehost_frame_host_records(const lanehost_frame_host *host);

/* Frees a joined host. */
LANEHOST_EXPORT void lanehost_frame_host_free(lanehost_frame_host *host);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_FRAME_HOST_H */
