/* jack_host.c - JACK clients: one hosting a lanehost lane and ring through the host table, ring-only ones (the ring,
   duplex and sweep clients), and a plain one. */
#define _GNU_SOURCE /* gettid */
#include "jack_host.h"

#include "audio_source.h"

#include <errno.h>
#include <jack/jack.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NANOS_PER_SECOND INT64_C(1000000000)

/* Counters: each has one writer (the process thread, or JACK's notification thread for xruns), but
   thread-init callbacks may run on several threads at once, so those are read-modify-write atomics. */
typedef struct counters {
    _Atomic uint64_t callbacks;
    _Atomic uint64_t xruns;
    _Atomic uint64_t thread_inits;
    _Atomic uint64_t warm_up_failures;
    _Atomic uint64_t drives_ok;
    _Atomic uint64_t drive_failures;
    _Atomic uint64_t turns;
    _Atomic uint64_t samples_written;
    _Atomic uint64_t ring_overruns;
    _Atomic uint64_t process_threads;
    _Atomic uint64_t activations;
    _Atomic uint64_t slow_drives;
    _Atomic int64_t max_drive_nanos;
    /* Drives since the latest activation (reset by activate, before JACK's new thread runs), the first one's time
       and the slowest of the first LANEHOST_JACK_EARLY_DRIVES: what a new process thread's first drives cost. */
    _Atomic uint64_t drives_since_activation;
    _Atomic int64_t first_drive_nanos;
    _Atomic int64_t first_drive_start;
    _Atomic int64_t early_max_drive_nanos;
    _Atomic int64_t process_thread_id;
    _Atomic int32_t first_drive_failure;
    _Atomic int32_t max_turns_seen;
    _Atomic int32_t shut_down;
    /* Process callback durations (jack_host.h: LANEHOST_JACK_DURATION_BUCKETS), written by the process thread. */
    _Atomic int64_t max_callback_nanos;
    _Atomic uint64_t durations[LANEHOST_JACK_DURATION_BUCKETS];
    /* The latest slow callbacks (jack_host.h: LANEHOST_JACK_SLOW_CALLBACKS), written by the process thread:
       entry i % LANEHOST_JACK_SLOW_CALLBACKS holds slow callback i; slow_callbacks counts them (release). */
    _Atomic int64_t slow_starts[LANEHOST_JACK_SLOW_CALLBACKS];
    _Atomic int64_t slow_nanos[LANEHOST_JACK_SLOW_CALLBACKS];
    _Atomic uint64_t slow_callbacks;
} counters;

struct lanehost_jack_client {
    jack_client_t *jack;
    jack_port_t *out_port;
    int active;
    uint32_t sample_rate;
    uint32_t period_frames;
    int64_t period_nanos;
    /* The lanehost client only; api is NULL for the plain one. */
    const lanehost_api *api;
    uint64_t lane;
    int32_t max_turns;
    uint64_t ring_reference;
    lanehost_ring ring;
    double radians_per_sample;
    uint64_t next_sample; /* process thread only: index in the sine of the next sample the ring gets */
    /* The ring client only: the sweep and the timing ring (audio_source.h); source.periods counts its periods. */
    int ring_client;
    uint64_t timing_reference;
    lanehost_audio_source source;
    /* The duplex client only: its input port, its rings and counters (duplex_period.h), and the input's copy. */
    int duplex;
    jack_port_t *in_port;
    uint64_t capture_reference;
    uint64_t playback_reference;
    uint64_t monitor_reference;
    lanehost_duplex rings;
    float *input_copy; /* one period of the input port, read once (process_duplex) */
    /* The sweep client only: source.sweep and source.next_sample, no rings. */
    int sweep_client;
    counters counters;
};

/* The most frames a period may have for the duplex client's monitor (JACK's largest buffer size is 8192). */
#define DUPLEX_MAX_PERIOD_FRAMES 8192u

uint32_t lanehost_jack_host_abi_version(void) {
    return LANEHOST_JACK_HOST_ABI_VERSION;
}

/* ---- JACK's messages: printed, except while probing for a server that may not be up yet ---- */

static _Atomic int probing;

static void print_jack_error(const char *message) {
    if (!atomic_load_explicit(&probing, memory_order_relaxed)) fprintf(stderr, "jack: %s\n", message);
}

static void print_nothing(const char *message) {
    (void)message;
}

static void install_message_handlers(void) {
    jack_set_error_function(print_jack_error);
    jack_set_info_function(print_nothing);
}

int32_t lanehost_jack_server_ready(const char *server_name) {
    if (server_name == NULL) return 0;
    install_message_handlers();
    atomic_fetch_add(&probing, 1);
    jack_status_t status;
    jack_client_t *probe = jack_client_open("lanehost-probe", JackNoStartServer | JackServerName, &status, server_name);
    atomic_fetch_sub(&probing, 1);
    if (probe == NULL) return 0;
    jack_client_close(probe);
    return 1;
}

/* ---- Callbacks ---- */

static int64_t monotonic_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * NANOS_PER_SECOND + now.tv_nsec;
}

static void add(_Atomic uint64_t *counter, uint64_t amount) {
    /* Single writer: a relaxed load and store, no locked instruction on the process thread. */
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + amount, memory_order_relaxed);
}

/* Counts the callback and notices when JACK has moved it to another thread. */
static void count_callback(counters *counters) {
    static __thread int64_t thread_id; /* gettid is a system call: once per thread */
    if (thread_id == 0) thread_id = (int64_t)gettid();
    add(&counters->callbacks, 1);
    if (atomic_load_explicit(&counters->process_thread_id, memory_order_relaxed) != thread_id) {
        atomic_store_explicit(&counters->process_thread_id, thread_id, memory_order_relaxed);
        add(&counters->process_threads, 1);
    }
}

/* The histogram bucket of a callback that took `nanos` (jack_host.h describes the buckets). */
static uint32_t duration_bucket(int64_t nanos) {
    if (nanos < 64) return nanos < 0 ? 0 : (uint32_t)nanos;
    const int e = 63 - __builtin_clzll((unsigned long long)nanos);
    if (e > 39) return LANEHOST_JACK_DURATION_BUCKETS - 1;
    return 64u + 32u * (uint32_t)(e - 6) + (uint32_t)(((uint64_t)nanos >> (e - 5)) & 31u);
}

/* Records one callback's duration: two relaxed stores, no system call beyond the clock read. */
static void count_duration(counters *counters, int64_t start, int64_t period_nanos) {
    const int64_t took = monotonic_nanos() - start;
    add(&counters->durations[duration_bucket(took)], 1);
    if (took > atomic_load_explicit(&counters->max_callback_nanos, memory_order_relaxed)) {
        atomic_store_explicit(&counters->max_callback_nanos, took, memory_order_relaxed);
    }
    if (took > period_nanos / 2) {
        /* When it started, so a reader can line it up with the JVM's log (CLOCK_MONOTONIC = System.nanoTime). */
        const uint64_t n = atomic_load_explicit(&counters->slow_callbacks, memory_order_relaxed);
        atomic_store_explicit(&counters->slow_starts[n % LANEHOST_JACK_SLOW_CALLBACKS], start, memory_order_relaxed);
        atomic_store_explicit(&counters->slow_nanos[n % LANEHOST_JACK_SLOW_CALLBACKS], took, memory_order_relaxed);
        atomic_store_explicit(&counters->slow_callbacks, n + 1, memory_order_release); /* publishes the entry */
    }
}

static void silence(lanehost_jack_client *client, jack_nframes_t frames) {
    float *out = jack_port_get_buffer(client->out_port, frames);
    memset(out, 0, frames * sizeof *out);
}

static int process_plain(jack_nframes_t frames, void *argument) {
    const int64_t start = monotonic_nanos();
    lanehost_jack_client *client = argument;
    count_callback(&client->counters);
    silence(client, frames);
    count_duration(&client->counters, start, client->period_nanos);
    return 0;
}

static void drive_lane(lanehost_jack_client *client) {
    counters *counters = &client->counters;
    lanehost_drive_counts counts;
    const int64_t start = monotonic_nanos();
    const int32_t status = client->api->lane_drive(client->lane, client->max_turns, &counts);
    const int64_t took = monotonic_nanos() - start;
    if (took > atomic_load_explicit(&counters->max_drive_nanos, memory_order_relaxed)) {
        atomic_store_explicit(&counters->max_drive_nanos, took, memory_order_relaxed);
    }
    if (took > client->period_nanos) add(&counters->slow_drives, 1);
    const uint64_t since_activation = atomic_load_explicit(&counters->drives_since_activation, memory_order_relaxed);
    if (since_activation < LANEHOST_JACK_EARLY_DRIVES) {
        if (since_activation == 0) {
            atomic_store_explicit(&counters->first_drive_nanos, took, memory_order_relaxed);
            atomic_store_explicit(&counters->first_drive_start, start, memory_order_relaxed);
        }
        if (took > atomic_load_explicit(&counters->early_max_drive_nanos, memory_order_relaxed)) {
            atomic_store_explicit(&counters->early_max_drive_nanos, took, memory_order_relaxed);
        }
        add(&counters->drives_since_activation, 1);
    }
    if (status != LANEHOST_OK) {
        add(&counters->drive_failures, 1);
        if (atomic_load_explicit(&counters->first_drive_failure, memory_order_relaxed) == 0) {
            atomic_store_explicit(&counters->first_drive_failure, status, memory_order_relaxed);
        }
        return;
    }
    add(&counters->drives_ok, 1);
    add(&counters->turns, (uint64_t)counts.turns);
    if (counts.turns > atomic_load_explicit(&counters->max_turns_seen, memory_order_relaxed)) {
        atomic_store_explicit(&counters->max_turns_seen, counts.turns, memory_order_relaxed);
    }
}

static int process_lanehost(jack_nframes_t frames, void *argument) {
    const int64_t start = monotonic_nanos();
    lanehost_jack_client *client = argument;
    count_callback(&client->counters);
    drive_lane(client);

    float *out = jack_port_get_buffer(client->out_port, frames);
    for (jack_nframes_t i = 0; i < frames; i++) {
        out[i] = (float)sin(client->radians_per_sample * (double)(client->next_sample + i));
    }
    const uint64_t bytes = (uint64_t)frames * sizeof *out;
    /* Whole periods only, so the ring's stream stays one seamless sine; a period that does not fit is dropped. */
    if (lanehost_ring_writable(&client->ring) >= bytes && lanehost_ring_write(&client->ring, out, bytes) == (int64_t)bytes) {
        client->next_sample += frames;
        /* Release: a reader that acquires the count finds at least that many samples in the ring. */
        atomic_store_explicit(&client->counters.samples_written,
                              atomic_load_explicit(&client->counters.samples_written, memory_order_relaxed) + frames,
                              memory_order_release);
    } else {
        add(&client->counters.ring_overruns, 1);
    }
    count_duration(&client->counters, start, client->period_nanos);
    return 0;
}

/* The ring client: rings only, the callback the design recommends (it never enters the JVM). */
static int process_ring(jack_nframes_t frames, void *argument) {
    const int64_t start = monotonic_nanos();
    lanehost_jack_client *client = argument;
    count_callback(&client->counters);
    lanehost_audio_source_period(&client->source, jack_port_get_buffer(client->out_port, frames), frames, start);
    count_duration(&client->counters, start, client->period_nanos);
    return 0;
}

/*
 * The duplex client: capture ring in, playback ring out, monitor ring for the check (duplex_period.h). Rings only: no
 * JVM, no lock, no allocation, no system call (unless a reader chose to sleep on a ring, which nothing here does).
 */
static int process_duplex(jack_nframes_t frames, void *argument) {
    const int64_t start = monotonic_nanos();
    lanehost_jack_client *client = argument;
    count_callback(&client->counters);
    const float *port_in = jack_port_get_buffer(client->in_port, frames);
    float *out = jack_port_get_buffer(client->out_port, frames);
    /* Read the input port once. With one connection JACK hands out the connected output port's own buffer, and in
       the period a connection is made the other client may still be writing it (seen once: the capture ring got the
       old samples, the monitor the new). The capture ring and the monitor must see the same samples. */
    const float *in = port_in;
    if (frames <= client->rings.monitor_frames_length) {
        memcpy(client->input_copy, port_in, frames * sizeof *port_in);
        in = client->input_copy;
    }
    lanehost_duplex_period(&client->rings, in, out, frames);
    count_duration(&client->counters, start, client->period_nanos);
    return 0;
}

/* The sweep client: a signal source, no rings at all. */
static int process_sweep(jack_nframes_t frames, void *argument) {
    const int64_t start = monotonic_nanos();
    lanehost_jack_client *client = argument;
    count_callback(&client->counters);
    float *out = jack_port_get_buffer(client->out_port, frames);
    for (jack_nframes_t i = 0; i < frames; i++) out[i] = lanehost_sweep_sample(&client->source.sweep, client->source.next_sample + i);
    client->source.next_sample += frames;
    add(&client->counters.samples_written, frames);
    count_duration(&client->counters, start, client->period_nanos);
    return 0;
}

static void thread_init(void *argument) {
    lanehost_jack_client *client = argument;
    atomic_fetch_add_explicit(&client->counters.thread_inits, 1, memory_order_relaxed);
    if (client->api->thread_warm_up() != LANEHOST_OK) {
        atomic_fetch_add_explicit(&client->counters.warm_up_failures, 1, memory_order_relaxed);
    }
}

static int xrun(void *argument) {
    lanehost_jack_client *client = argument;
    atomic_fetch_add_explicit(&client->counters.xruns, 1, memory_order_relaxed);
    return 0;
}

static void shut_down(void *argument) {
    lanehost_jack_client *client = argument;
    atomic_store_explicit(&client->counters.shut_down, 1, memory_order_relaxed);
}

/* ---- Lifecycle ---- */

static int32_t open_client(lanehost_jack_client **out, const char *server_name, const char *client_name,
                           lanehost_jack_client *client, JackProcessCallback process) {
    install_message_handlers();
    jack_status_t status;
    client->jack = jack_client_open(client_name, JackNoStartServer | JackServerName | JackUseExactName, &status,
                                    server_name);
    if (client->jack == NULL) return LANEHOST_JACK_HOST_NO_SERVER;
    client->sample_rate = jack_get_sample_rate(client->jack);
    client->period_frames = jack_get_buffer_size(client->jack);
    client->period_nanos = client->sample_rate == 0
                               ? 0
                               : (int64_t)client->period_frames * NANOS_PER_SECOND / client->sample_rate;
    client->out_port = jack_port_register(client->jack, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    if (client->out_port == NULL || jack_set_process_callback(client->jack, process, client) != 0 ||
        jack_set_xrun_callback(client->jack, xrun, client) != 0 ||
        (client->api != NULL && !client->ring_client && !client->duplex && jack_set_thread_init_callback(client->jack, thread_init, client) != 0)) {
        return LANEHOST_JACK_HOST_JACK_FAILED;
    }
    jack_on_shutdown(client->jack, shut_down, client);
    *out = client;
    return LANEHOST_OK;
}

int32_t lanehost_jack_host_open(lanehost_jack_client **out, const lanehost_api *api, const char *server_name,
                                const char *client_name, const char *lane_name, const char *ring_name,
                                int32_t max_turns, double frequency) {
    if (out == NULL || api == NULL || server_name == NULL || client_name == NULL || lane_name == NULL ||
        ring_name == NULL || max_turns <= 0 || !(frequency > 0) || !LANEHOST_API_HAS(api, last_error)) {
        return LANEHOST_JACK_HOST_BAD_CONFIG;
    }
    *out = NULL;
    lanehost_jack_client *client = calloc(1, sizeof *client);
    if (client == NULL) return LANEHOST_JACK_HOST_OUT_OF_MEMORY;
    client->api = api;
    client->max_turns = max_turns;

    int32_t status = api->lane_lookup(lane_name, &client->lane);
    void *memory = NULL;
    uint64_t memory_length = 0;
    if (status == LANEHOST_OK) status = api->ring_lookup(ring_name, &client->ring_reference, &memory, &memory_length);
    if (status == LANEHOST_OK && lanehost_ring_wrap(&client->ring, memory, memory_length) != LANEHOST_RING_OK) {
        status = LANEHOST_JACK_HOST_BAD_RING;
    }
    if (status == LANEHOST_OK) status = open_client(out, server_name, client_name, client, process_lanehost);
    if (status != LANEHOST_OK) {
        lanehost_jack_client_close(client);
        return status;
    }
    client->radians_per_sample = 2.0 * M_PI * frequency / (double)client->sample_rate;
    return LANEHOST_OK;
}

static int32_t wrap_ring(const lanehost_api *api, const char *name, uint64_t *reference, lanehost_ring *ring) {
    void *memory = NULL;
    uint64_t memory_length = 0;
    const int32_t status = api->ring_lookup(name, reference, &memory, &memory_length);
    if (status != LANEHOST_OK) return status;
    return lanehost_ring_wrap(ring, memory, memory_length) == LANEHOST_RING_OK ? LANEHOST_OK : LANEHOST_JACK_HOST_BAD_RING;
}

int32_t lanehost_jack_ring_open(lanehost_jack_client **out, const lanehost_api *api, const char *server_name,
                                const char *client_name, const char *audio_ring, const char *timing_ring, double f0,
                                double f1, double sweep_seconds) {
    if (out == NULL || api == NULL || server_name == NULL || client_name == NULL || audio_ring == NULL ||
        timing_ring == NULL || !(f0 > 0) || !(f1 > 0) || !(sweep_seconds > 0) || !LANEHOST_API_HAS(api, last_error)) {
        return LANEHOST_JACK_HOST_BAD_CONFIG;
    }
    *out = NULL;
    lanehost_jack_client *client = calloc(1, sizeof *client);
    if (client == NULL) return LANEHOST_JACK_HOST_OUT_OF_MEMORY;
    client->api = api;
    client->ring_client = 1;
    int32_t status = wrap_ring(api, audio_ring, &client->ring_reference, &client->source.audio);
    if (status == LANEHOST_OK) status = wrap_ring(api, timing_ring, &client->timing_reference, &client->source.timing);
    if (status == LANEHOST_OK) status = open_client(out, server_name, client_name, client, process_ring);
    if (status != LANEHOST_OK) {
        lanehost_jack_client_close(client);
        return status;
    }
    client->source.sweep = (lanehost_sweep){.f0 = f0, .f1 = f1, .rate = client->sample_rate,
                                            .length = (uint64_t)(sweep_seconds * client->sample_rate)};
    if (client->source.sweep.length == 0) {
        lanehost_jack_client_close(client);
        *out = NULL;
        return LANEHOST_JACK_HOST_BAD_CONFIG;
    }
    return LANEHOST_OK;
}

int32_t lanehost_jack_duplex_open(lanehost_jack_client **out, const lanehost_api *api, const char *server_name,
                                  const char *client_name, const char *capture_ring, const char *playback_ring,
                                  const char *monitor_ring) {
    if (out == NULL || api == NULL || server_name == NULL || client_name == NULL || capture_ring == NULL ||
        playback_ring == NULL || monitor_ring == NULL || !LANEHOST_API_HAS(api, last_error)) {
        return LANEHOST_JACK_HOST_BAD_CONFIG;
    }
    *out = NULL;
    lanehost_jack_client *client = calloc(1, sizeof *client);
    if (client == NULL) return LANEHOST_JACK_HOST_OUT_OF_MEMORY;
    client->api = api;
    client->duplex = 1;
    client->rings.monitor_frames_length = DUPLEX_MAX_PERIOD_FRAMES;
    client->rings.monitor_frames = calloc(DUPLEX_MAX_PERIOD_FRAMES, sizeof *client->rings.monitor_frames);
    client->input_copy = calloc(DUPLEX_MAX_PERIOD_FRAMES, sizeof *client->input_copy);
    if (client->rings.monitor_frames == NULL || client->input_copy == NULL) {
        lanehost_jack_client_close(client);
        return LANEHOST_JACK_HOST_OUT_OF_MEMORY;
    }
    int32_t status = wrap_ring(api, capture_ring, &client->capture_reference, &client->rings.capture);
    if (status == LANEHOST_OK) status = wrap_ring(api, playback_ring, &client->playback_reference, &client->rings.playback);
    if (status == LANEHOST_OK) status = wrap_ring(api, monitor_ring, &client->monitor_reference, &client->rings.monitor);
    if (status == LANEHOST_OK) status = open_client(out, server_name, client_name, client, process_duplex);
    if (status == LANEHOST_OK) {
        client->in_port = jack_port_register(client->jack, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
        if (client->in_port == NULL) status = LANEHOST_JACK_HOST_JACK_FAILED;
    }
    if (status != LANEHOST_OK) {
        lanehost_jack_client_close(client);
        *out = NULL;
        return status;
    }
    return LANEHOST_OK;
}

int32_t lanehost_jack_sweep_open(lanehost_jack_client **out, const char *server_name, const char *client_name, double f0,
                                 double f1, double sweep_seconds) {
    if (out == NULL || server_name == NULL || client_name == NULL || !(f0 > 0) || !(f1 > 0) || !(sweep_seconds > 0)) {
        return LANEHOST_JACK_HOST_BAD_CONFIG;
    }
    *out = NULL;
    lanehost_jack_client *client = calloc(1, sizeof *client);
    if (client == NULL) return LANEHOST_JACK_HOST_OUT_OF_MEMORY;
    client->sweep_client = 1;
    const int32_t status = open_client(out, server_name, client_name, client, process_sweep);
    if (status != LANEHOST_OK) {
        lanehost_jack_client_close(client);
        *out = NULL;
        return status;
    }
    client->source.sweep = (lanehost_sweep){.f0 = f0, .f1 = f1, .rate = client->sample_rate,
                                            .length = (uint64_t)(sweep_seconds * client->sample_rate)};
    if (client->source.sweep.length == 0) {
        lanehost_jack_client_close(client);
        *out = NULL;
        return LANEHOST_JACK_HOST_BAD_CONFIG;
    }
    return LANEHOST_OK;
}

int32_t lanehost_jack_client_connect(const lanehost_jack_client *from, const lanehost_jack_client *to) {
    if (from == NULL || to == NULL || from->jack == NULL || to->jack == NULL || from->out_port == NULL ||
        to->in_port == NULL) {
        return LANEHOST_JACK_HOST_BAD_CONFIG;
    }
    /* jack_connect returns EEXIST for a connection that is already there: connected is what was asked for. */
    const int result = jack_connect(from->jack, jack_port_name(from->out_port), jack_port_name(to->in_port));
    return result == 0 || result == EEXIST ? LANEHOST_OK : LANEHOST_JACK_HOST_JACK_FAILED;
}

/* ---- Warming the drive path before activation ---- */

/* The warm drives release the scratch lane once in this many: about 20 binds through the table in 20,000 drives,
   enough for the JIT's profile to keep the bind path, few enough that the rebind log stays short. */
#define WARM_RELEASE_EVERY 1024u

typedef struct warm_drives {
    const lanehost_api *api;
    /* The lane the process callback drives: driven once here, then released, so its actors' starts run here. */
    uint64_t real_lane;
    const char *lane_name;
    uint32_t drives;
    int32_t max_turns;
    int64_t pause_nanos;
    int32_t status;
    uint64_t turns;
} warm_drives;

static void *warm_drives_thread(void *argument) {
    warm_drives *warm = argument;
    warm->status = warm->api->thread_warm_up();
    uint64_t lane = 0;
    if (warm->status == LANEHOST_OK) warm->status = warm->api->lane_lookup(warm->lane_name, &lane);
    const struct timespec pause = {.tv_sec = (time_t)(warm->pause_nanos / NANOS_PER_SECOND),
                                   .tv_nsec = (long)(warm->pause_nanos % NANOS_PER_SECOND)};
    for (uint32_t i = 0; i < warm->drives && warm->status == LANEHOST_OK; i++) {
        lanehost_drive_counts counts;
        warm->status = warm->api->lane_drive(lane, warm->max_turns, &counts);
        if (warm->status == LANEHOST_OK) warm->turns += (uint64_t)counts.turns;
        /* Now and then the drive lets the lane go, so the next one binds it anew through the table: the path of a
         * new process thread's first drive, which compiled code must not have pruned (a deoptimization in JACK's
         * callback costs more than our whole budget). Rarely: each rebind is logged. */
        if (warm->status == LANEHOST_OK && (i % WARM_RELEASE_EVERY) == WARM_RELEASE_EVERY - 1) {
            warm->status = warm->api->lane_release(lane);
        }
        if (warm->pause_nanos > 0) nanosleep(&pause, NULL);
    }
    /* The real lane once, from this thread, then let go: the lane actors' starts (their factories and `started`,
     * code never run before) run here instead of in JACK's first callback, which then only binds the lane anew. */
    if (warm->status == LANEHOST_OK && warm->real_lane != 0) {
        lanehost_drive_counts counts;
        warm->status = warm->api->lane_drive(warm->real_lane, 0, &counts);
        if (warm->status == LANEHOST_OK) warm->turns += (uint64_t)counts.turns;
        if (warm->status == LANEHOST_OK) warm->status = warm->api->lane_release(warm->real_lane);
    }
    return NULL;
}

int32_t lanehost_jack_host_warm_drives(const lanehost_jack_client *client, const char *scratch_lane, uint32_t drives,
                                       int64_t pause_nanos, uint64_t *turns_out) {
    if (client == NULL || client->api == NULL || client->ring_client || client->duplex || scratch_lane == NULL ||
        pause_nanos < 0) {
        return LANEHOST_JACK_HOST_BAD_CONFIG;
    }
    warm_drives warm = {.api = client->api, .real_lane = client->lane, .lane_name = scratch_lane, .drives = drives,
                        .max_turns = client->max_turns, .pause_nanos = pause_nanos};
    pthread_t thread; /* default attributes: an ordinary SCHED_OTHER thread, not JACK's real-time one */
    if (pthread_create(&thread, NULL, warm_drives_thread, &warm) != 0) return LANEHOST_JACK_HOST_JACK_FAILED;
    pthread_join(thread, NULL);
    if (turns_out != NULL) *turns_out = warm.turns;
    return warm.status;
}

int32_t lanehost_jack_plain_open(lanehost_jack_client **out, const char *server_name, const char *client_name) {
    if (out == NULL || server_name == NULL || client_name == NULL) return LANEHOST_JACK_HOST_BAD_CONFIG;
    *out = NULL;
    lanehost_jack_client *client = calloc(1, sizeof *client);
    if (client == NULL) return LANEHOST_JACK_HOST_OUT_OF_MEMORY;
    const int32_t status = open_client(out, server_name, client_name, client, process_plain);
    if (status != LANEHOST_OK) lanehost_jack_client_close(client);
    return status;
}

int32_t lanehost_jack_client_activate(lanehost_jack_client *client) {
    if (client == NULL || client->jack == NULL) return LANEHOST_JACK_HOST_BAD_CONFIG;
    if (client->active) return LANEHOST_OK;
    /* No process callback runs while the client is inactive: these stores happen before the new thread's first. */
    atomic_store_explicit(&client->counters.drives_since_activation, 0, memory_order_relaxed);
    atomic_store_explicit(&client->counters.first_drive_nanos, 0, memory_order_relaxed);
    atomic_store_explicit(&client->counters.first_drive_start, 0, memory_order_relaxed);
    atomic_store_explicit(&client->counters.early_max_drive_nanos, 0, memory_order_relaxed);
    if (jack_activate(client->jack) != 0) return LANEHOST_JACK_HOST_JACK_FAILED;
    client->active = 1;
    atomic_fetch_add_explicit(&client->counters.activations, 1, memory_order_relaxed);
    return LANEHOST_OK;
}

int32_t lanehost_jack_client_deactivate(lanehost_jack_client *client) {
    if (client == NULL || client->jack == NULL) return LANEHOST_JACK_HOST_BAD_CONFIG;
    if (!client->active) return LANEHOST_OK;
    /* JACK ends the process thread here; the next activation starts a new one. */
    if (jack_deactivate(client->jack) != 0) return LANEHOST_JACK_HOST_JACK_FAILED;
    client->active = 0;
    return LANEHOST_OK;
}

int32_t lanehost_jack_client_stats(const lanehost_jack_client *client, lanehost_jack_stats *out) {
    if (client == NULL || out == NULL) return LANEHOST_JACK_HOST_BAD_CONFIG;
    const counters *c = &client->counters;
    memset(out, 0, sizeof *out);
    out->callbacks = atomic_load_explicit(&c->callbacks, memory_order_relaxed);
    out->xruns = atomic_load_explicit(&c->xruns, memory_order_relaxed);
    out->thread_inits = atomic_load_explicit(&c->thread_inits, memory_order_relaxed);
    out->warm_up_failures = atomic_load_explicit(&c->warm_up_failures, memory_order_relaxed);
    out->drives_ok = atomic_load_explicit(&c->drives_ok, memory_order_relaxed);
    out->drive_failures = atomic_load_explicit(&c->drive_failures, memory_order_relaxed);
    out->turns = atomic_load_explicit(&c->turns, memory_order_relaxed);
    out->samples_written = atomic_load_explicit(&c->samples_written, memory_order_relaxed);
    out->ring_overruns = atomic_load_explicit(&c->ring_overruns, memory_order_relaxed);
    out->process_threads = atomic_load_explicit(&c->process_threads, memory_order_relaxed);
    out->activations = atomic_load_explicit(&c->activations, memory_order_relaxed);
    out->slow_drives = atomic_load_explicit(&c->slow_drives, memory_order_relaxed);
    out->max_drive_nanos = atomic_load_explicit(&c->max_drive_nanos, memory_order_relaxed);
    out->first_drive_nanos = atomic_load_explicit(&c->first_drive_nanos, memory_order_relaxed);
    out->early_max_drive_nanos = atomic_load_explicit(&c->early_max_drive_nanos, memory_order_relaxed);
    out->first_drive_start = atomic_load_explicit(&c->first_drive_start, memory_order_relaxed);
    out->process_thread_id = atomic_load_explicit(&c->process_thread_id, memory_order_relaxed);
    out->first_drive_failure = atomic_load_explicit(&c->first_drive_failure, memory_order_relaxed);
    out->max_turns_seen = atomic_load_explicit(&c->max_turns_seen, memory_order_relaxed);
    out->shut_down = atomic_load_explicit(&c->shut_down, memory_order_relaxed);
    if (client->ring_client) {
        out->samples_written = atomic_load_explicit(&client->source.samples_written, memory_order_relaxed);
        out->ring_overruns = atomic_load_explicit(&client->source.ring_overruns, memory_order_relaxed);
        out->timing_overruns = (uint32_t)atomic_load_explicit(&client->source.timing_overruns, memory_order_relaxed);
    }
    if (client->duplex) {
        const lanehost_duplex *rings = &client->rings;
        out->samples_written = atomic_load_explicit(&rings->captured_frames, memory_order_relaxed);
        out->timing_overruns = (uint32_t)atomic_load_explicit(&rings->monitor_overruns, memory_order_relaxed);
        out->underrun_frames = atomic_load_explicit(&rings->underrun_frames, memory_order_relaxed);
        out->dropped_late_frames = atomic_load_explicit(&rings->dropped_late_frames, memory_order_relaxed);
    }
    out->sample_rate = client->sample_rate;
    out->period_frames = client->period_frames;
    return LANEHOST_OK;
}

int32_t lanehost_jack_client_durations(const lanehost_jack_client *client, uint64_t *counts, uint32_t length,
                                       int64_t *max_nanos) {
    if (client == NULL || counts == NULL || max_nanos == NULL || length > LANEHOST_JACK_DURATION_BUCKETS) {
        return LANEHOST_JACK_HOST_BAD_CONFIG;
    }
    for (uint32_t i = 0; i < length; i++) {
        counts[i] = atomic_load_explicit(&client->counters.durations[i], memory_order_relaxed);
    }
    *max_nanos = atomic_load_explicit(&client->counters.max_callback_nanos, memory_order_relaxed);
    return LANEHOST_OK;
}

uint64_t lanehost_jack_client_samples_written(const lanehost_jack_client *client) {
    if (client == NULL) return 0;
    /* Acquire, pairing with the process callback's release: the ring holds at least what this says. */
    return atomic_load_explicit(client->ring_client ? &client->source.samples_written
                                : client->duplex    ? &client->rings.captured_frames
                                                    : &client->counters.samples_written,
                                memory_order_acquire);
}

uint64_t lanehost_jack_client_slow_callbacks(const lanehost_jack_client *client, int64_t *starts, int64_t *nanos,
                                             uint32_t length) {
    if (client == NULL || starts == NULL || nanos == NULL) return 0;
    const uint64_t total = atomic_load_explicit(&client->counters.slow_callbacks, memory_order_acquire);
    const uint64_t kept = total < LANEHOST_JACK_SLOW_CALLBACKS ? total : LANEHOST_JACK_SLOW_CALLBACKS;
    const uint64_t copied = kept < length ? kept : length;
    for (uint64_t i = 0; i < copied; i++) {
        const uint64_t entry = (total - copied + i) % LANEHOST_JACK_SLOW_CALLBACKS;
        starts[i] = atomic_load_explicit(&client->counters.slow_starts[entry], memory_order_relaxed);
        nanos[i] = atomic_load_explicit(&client->counters.slow_nanos[entry], memory_order_relaxed);
    }
    return total;
}

int32_t lanehost_jack_client_close(lanehost_jack_client *client) {
    if (client == NULL) return LANEHOST_JACK_HOST_BAD_CONFIG;
    int32_t status = LANEHOST_OK;
    if (client->jack != NULL && jack_client_close(client->jack) != 0) status = LANEHOST_JACK_HOST_JACK_FAILED;
    /* Only now, with no process callback left to write into it, may the ring's memory go. */
    if (client->ring_reference != 0) client->api->ring_release(client->ring_reference);
    if (client->timing_reference != 0) client->api->ring_release(client->timing_reference);
    if (client->capture_reference != 0) client->api->ring_release(client->capture_reference);
    if (client->playback_reference != 0) client->api->ring_release(client->playback_reference);
    if (client->monitor_reference != 0) client->api->ring_release(client->monitor_reference);
    free(client->rings.monitor_frames);
    free(client->input_copy);
    free(client);
    return status;
}
