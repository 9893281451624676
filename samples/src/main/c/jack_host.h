/*
 * jack_host.h - JACK clients: one that hosts lanehost through the host function table, and a plain one
 * that only counts, to compare against.
 *
 * The lanehost client's process callback, on JACK's process thread:
 *   1. drives a lane with api->lane_drive, bounded by max_turns (the lane binds to that thread; JACK starts
 *      a new process thread on every activation, and the lane rebinds to it once the old one has ended);
 *   2. writes one period of a sine into its output port and into a lanehost ring looked up with
 *      api->ring_lookup, through lanehost_ring.h only (the ring never enters the JVM). A period that does
 *      not fit whole is dropped and counted as an overrun, so the ring carries a seamless sine whatever
 *      the reader does: sample k of the stream is (float) sin(2 pi frequency k / sample_rate).
 * Its thread-init callback calls api->thread_warm_up(), so the first drive does not pay the JVM attach.
 *
 * The plain client's process callback writes silence and counts. Both count callbacks and xruns (JACK's
 * xrun callback). Every function returns a status and never aborts.
 */
#ifndef LANEHOST_JACK_HOST_H
#define LANEHOST_JACK_HOST_H

#include <stdint.h>

#include "duplex_period.h"
#include "lanehost/lanehost.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LANEHOST_JACK_HOST_ABI_VERSION 7u

/* The client's own failures (negative); a failed lookup returns its lanehost_status instead. */
#define LANEHOST_JACK_HOST_BAD_CONFIG (-1)
#define LANEHOST_JACK_HOST_OUT_OF_MEMORY (-2)
#define LANEHOST_JACK_HOST_NO_SERVER (-3)      /* jack_client_open failed (see the JACK message on stderr) */
#define LANEHOST_JACK_HOST_JACK_FAILED (-4)    /* a callback, port or activation call failed */
#define LANEHOST_JACK_HOST_BAD_RING (-5)       /* the looked-up ring did not wrap (lanehost_ring_wrap refused it) */

/* What a client counted so far; a copy, safe to take while it runs. */
typedef struct lanehost_jack_stats {
    uint64_t callbacks;          /* process callbacks */
    uint64_t xruns;              /* xrun callbacks */
    uint64_t thread_inits;       /* thread-init callbacks (JACK may call it on several threads) */
    uint64_t warm_up_failures;   /* thread_warm_up calls that did not answer OK */
    uint64_t drives_ok;          /* lane drives that answered OK */
    uint64_t drive_failures;     /* lane drives that did not */
    uint64_t turns;              /* turns run by all drives */
    uint64_t samples_written;    /* samples (floats) placed in the ring */
    uint64_t ring_overruns;      /* periods dropped because the ring had no room for all of it */
    uint64_t process_threads;    /* distinct process threads seen in a row (1 until JACK moves the callback) */
    uint64_t activations;        /* successful jack_activate calls */
    uint64_t slow_drives;        /* drives that took longer than a period */
    int64_t max_drive_nanos;     /* the longest drive */
    int64_t process_thread_id;   /* kernel thread id (gettid) of the latest process callback's thread */
    int32_t first_drive_failure; /* the first failed drive's lanehost_status, 0 if none */
    int32_t max_turns_seen;      /* the most turns one drive ran */
    int32_t shut_down;           /* 1 once JACK shut the client down (server gone, or the client was kicked) */
    uint32_t sample_rate;        /* the server's rate, in Hz */
    uint32_t period_frames;      /* the server's buffer size, in frames */
    uint32_t timing_overruns;    /* the ring client: timing records dropped (timing ring full); the duplex client:
                                    monitor periods dropped (monitor ring full); else 0 */
    int64_t first_drive_nanos;   /* the first drive after the latest activation (its thread's first), 0 before one */
    int64_t early_max_drive_nanos; /* the slowest of the first LANEHOST_JACK_EARLY_DRIVES drives after the latest
                                      activation */
    int64_t first_drive_start;   /* when that first drive began (CLOCK_MONOTONIC ns = System.nanoTime), 0 before one */
    uint64_t underrun_frames;    /* the duplex client: frames of silence played because the playback ring ran short */
    uint64_t dropped_late_frames; /* the duplex client: late frames dropped to win that silence back (duplex_period.h) */
} lanehost_jack_stats;

_Static_assert(sizeof(lanehost_jack_stats) == 176, "as JackClient.java reads it");

/* The drives after an activation that early_max_drive_nanos covers: one second at 48 kHz / 128 frames. */
#define LANEHOST_JACK_EARLY_DRIVES 375u

typedef struct lanehost_jack_client lanehost_jack_client;

LANEHOST_EXPORT uint32_t lanehost_jack_host_abi_version(void);

/* 1 if a client can connect to the JACK server named server_name now, else 0. Prints nothing. */
LANEHOST_EXPORT int32_t lanehost_jack_server_ready(const char *server_name);

/*
 * Opens (does not activate) the lanehost client `client_name` on server `server_name`: looks up the lane
 * and the ring through the table on the calling thread, and registers one output port. max_turns > 0.
 */
LANEHOST_EXPORT int32_t lanehost_jack_host_open(lanehost_jack_client **out, const lanehost_api *api,
                                                const char *server_name, const char *client_name,
                                                const char *lane_name, const char *ring_name, int32_t max_turns,
                                                double frequency);

/*
 * Opens (does not activate) the ring client: its process callback touches rings only (audio_source.h) - one
 * period of a sine sweep from f0 to f1 Hz over sweep_seconds (repeating) into the ring `audio_ring` and its
 * output port, one timing record into `timing_ring` - and never enters the JVM. Both rings are looked up
 * through the table on the calling thread. Its stats count callbacks, xruns, samples_written, ring_overruns
 * and timing_overruns; it drives no lane.
 */
LANEHOST_EXPORT int32_t lanehost_jack_ring_open(lanehost_jack_client **out, const lanehost_api *api,
                                                const char *server_name, const char *client_name,
                                                const char *audio_ring, const char *timing_ring, double f0, double f1,
                                                double sweep_seconds);

/*
 * The duplex client: audio both ways through two rings, and the callback still never enters the JVM. Each period its
 * process callback copies the input port once and runs lanehost_duplex_period (duplex_period.h): the input into the
 * ring `capture_ring`; late frames owed by earlier underruns dropped from the ring `playback_ring`; the output from
 * it (whole frames, then silence: one underrun counted in the ring's header, its frames counted and owed); one
 * lanehost_duplex_frame per frame into the ring `monitor_ring` - whole periods or none (counted in
 * stats.timing_overruns) - so a reader can check the output against the input sample by sample and measure the delay.
 * The three rings are looked up through the table on the calling thread. Its stats count callbacks, xruns,
 * samples_written (samples placed in the capture ring), underrun_frames and dropped_late_frames; the rings' headers
 * count overruns and underruns.
 */
LANEHOST_EXPORT int32_t lanehost_jack_duplex_open(lanehost_jack_client **out, const lanehost_api *api,
                                                  const char *server_name, const char *client_name,
                                                  const char *capture_ring, const char *playback_ring,
                                                  const char *monitor_ring);

/*
 * Opens (does not activate) a sweep client: its process callback writes one period of the sine sweep from f0 to f1
 * Hz over sweep_seconds (repeating; audio_source.h) into its output port, no rings, no JVM. Its stats count
 * callbacks, xruns and samples_written (samples played). A signal source for the duplex client's input.
 */
LANEHOST_EXPORT int32_t lanehost_jack_sweep_open(lanehost_jack_client **out, const char *server_name,
                                                 const char *client_name, double f0, double f1, double sweep_seconds);

/* Connects `from`'s output port to `to`'s input port (both clients active; `to` is a duplex client). */
LANEHOST_EXPORT int32_t lanehost_jack_client_connect(const lanehost_jack_client *from, const lanehost_jack_client *to);

/*
 * Warms the lanehost client's drive path before jack_activate: on a new ordinary (SCHED_OTHER) thread of its own,
 * api->thread_warm_up(), then `drives` real drives of the lane `scratch_lane` with the client's turn bound, each
 * followed by a pause of pause_nanos and one in 1,024 by api->lane_release, so the JIT has compiled the drive and
 * turn path with what real drives do - binding the lane anew through the table, as a new process thread's first drive
 * does, included - before JACK's process thread makes its first one. Something must send the
 * scratch lane's actor letters meanwhile for the drives to run turns. Then it drives the client's own lane once (until
 * quiet) and releases it, so that lane's actors start on this thread, not in JACK's first callback, which then only
 * binds the lane anew. Waits for the thread; *turns_out (may be NULL) gets the turns run. Returns LANEHOST_OK, the first failed drive's or lookup's lanehost_status, or
 * LANEHOST_JACK_HOST_BAD_CONFIG (not a lanehost client) / LANEHOST_JACK_HOST_JACK_FAILED (no thread).
 */
LANEHOST_EXPORT int32_t lanehost_jack_host_warm_drives(const lanehost_jack_client *client, const char *scratch_lane,
                                                       uint32_t drives, int64_t pause_nanos, uint64_t *turns_out);

/* Opens (does not activate) a plain client that writes silence and counts callbacks and xruns. */
LANEHOST_EXPORT int32_t lanehost_jack_plain_open(lanehost_jack_client **out, const char *server_name,
                                                 const char *client_name);

LANEHOST_EXPORT int32_t lanehost_jack_client_activate(lanehost_jack_client *client);
LANEHOST_EXPORT int32_t lanehost_jack_client_deactivate(lanehost_jack_client *client);
LANEHOST_EXPORT int32_t lanehost_jack_client_stats(const lanehost_jack_client *client, lanehost_jack_stats *out);

/*
 * Callback durations: every client times each of its process callbacks (CLOCK_MONOTONIC, entry to return) into a
 * histogram in C, without entering the JVM. Bucket i < 64 holds durations of exactly i ns; above, each power of
 * two is split into 32 buckets (3 % wide): bucket 64 + 32 (e - 6) + s holds [(32 + s) << (e - 5),
 * (33 + s) << (e - 5)) ns for e = 6 ... 39. Durations of 2^40 ns or more land in the last bucket.
 */
#define LANEHOST_JACK_DURATION_BUCKETS 1152u

/*
 * Copies the callback-duration histogram into counts[0 .. length) (length <= LANEHOST_JACK_DURATION_BUCKETS;
 * the buckets above it are not copied) and the longest callback into *max_nanos. A copy, safe while it runs.
 */
LANEHOST_EXPORT int32_t lanehost_jack_client_durations(const lanehost_jack_client *client, uint64_t *counts,
                                                       uint32_t length, int64_t *max_nanos);

/*
 * Samples the client's callback has placed in its ring so far (the lanehost and ring clients; 0 for the plain one):
 * the producer's own clock. Loaded with acquire against the callback's release, so the ring holds at least this many
 * samples beyond what a reader has taken. One load, no copy: a reader may call it every tick without allocating.
 */
LANEHOST_EXPORT uint64_t lanehost_jack_client_samples_written(const lanehost_jack_client *client);

/*
 * Slow callbacks: every client keeps the start (CLOCK_MONOTONIC, the clock of Java's System.nanoTime on Linux) and
 * the duration of its latest LANEHOST_JACK_SLOW_CALLBACKS process callbacks that took longer than half a period,
 * so they can be lined up with the JVM's GC and safepoint log. Copies the latest min(kept, length), oldest first,
 * into starts[] and nanos[] and returns how many slow callbacks there were in all. A reader racing the callback
 * may see one entry overwritten; fine for a report.
 */
#define LANEHOST_JACK_SLOW_CALLBACKS 256u

LANEHOST_EXPORT uint64_t lanehost_jack_client_slow_callbacks(const lanehost_jack_client *client, int64_t *starts,
                                                             int64_t *nanos, uint32_t length);

/* Deactivates, closes the JACK client, releases the ring reference through the table, and frees. */
LANEHOST_EXPORT int32_t lanehost_jack_client_close(lanehost_jack_client *client);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_JACK_HOST_H */
