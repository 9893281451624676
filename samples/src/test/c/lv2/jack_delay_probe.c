/*
 * jack_delay_probe.c - measures a JACK client's delay from outside, for the LV2 sample's jalv test: two clients of
 * the server JACK_DEFAULT_SERVER names, "probe-source" (one impulse every SPACING frames, at absolute frame times
 * that are multiples of SPACING) and "probe-sink", connected source -> IN and OUT -> sink, so JACK runs source, the
 * client under test and sink in that order within each cycle. The sink finds each impulse's response by its first
 * sample above a threshold after a quiet stretch; its delay is that frame's time modulo SPACING (a delay below
 * SPACING is assumed). Both callbacks touch only their ports and plain counters.
 *
 * A server xrun (a lost cycle) parts frame time from the frames each client processed, so a response timed across one
 * reads a cycle long or short. Such responses are counted apart: a response is judged only at the next quiet point,
 * half a spacing later, and counted apart if the half-spacing either side of it saw a jump in the frame time between
 * two of the sink's cycles (seen in the cycle itself) or the server's xrun notification (which comes on another
 * thread, a cycle or more after the lost one).
 *
 *     jack_delay_probe SECONDS SPACING IN_PORT OUT_PORT
 *     -> "impulses N delay_min A delay_max B across_xruns C xruns D jumps E" after SECONDS (counted from the
 *        connection), exit 0
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <jack/jack.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Far below a low-pass's first response sample (b0 is 3.9e-3 at 1 kHz) and far above a response 0.1 s old. */
#define THRESHOLD 1e-5f
/* The first second after the connection is skipped: responses then may cross the moment ports were joined. */
#define SETTLE_SECONDS 1

static jack_client_t *source, *sink;
static jack_port_t *source_out, *sink_in;
static jack_nframes_t spacing;
static atomic_uint_least32_t measuring; /* set once the settle time has passed */
static atomic_uint_least64_t impulses, delay_min = UINT64_MAX, delay_max;
static int quiet = 1;
static atomic_uint_least64_t xruns, across_xruns, jumps;
/* The sink's own: its last cycle, and the response it holds until the next quiet point judges it. */
static jack_nframes_t last_start, last_frames;
static uint64_t xruns_when_quiet, jumps_when_quiet;
static int pending;
static uint64_t pending_delay;

static int count_xrun(void *arg) {
    (void)arg;
    atomic_fetch_add_explicit(&xruns, 1, memory_order_relaxed);
    return 0;
}

static int source_process(jack_nframes_t frames, void *arg) {
    (void)arg;
    float *out = jack_port_get_buffer(source_out, frames);
    jack_nframes_t start = jack_last_frame_time(source);
    for (jack_nframes_t i = 0; i < frames; i++) {
        out[i] = (start + i) % spacing == 0 ? 1.0f : 0.0f;
    }
    return 0;
}

/* At a quiet point: the response held since the previous one counts, unless an xrun came between the two. */
static void judge(void) {
    uint64_t xruns_now = atomic_load_explicit(&xruns, memory_order_relaxed);
    uint64_t jumps_now = atomic_load_explicit(&jumps, memory_order_relaxed);
    if (pending && (xruns_now != xruns_when_quiet || jumps_now != jumps_when_quiet)) {
        atomic_fetch_add_explicit(&across_xruns, 1, memory_order_relaxed);
    } else if (pending) {
        atomic_fetch_add_explicit(&impulses, 1, memory_order_relaxed);
        if (pending_delay < atomic_load_explicit(&delay_min, memory_order_relaxed)) {
            atomic_store_explicit(&delay_min, pending_delay, memory_order_relaxed);
        }
        if (pending_delay > atomic_load_explicit(&delay_max, memory_order_relaxed)) {
            atomic_store_explicit(&delay_max, pending_delay, memory_order_relaxed);
        }
    }
    pending = 0;
    xruns_when_quiet = xruns_now;
    jumps_when_quiet = jumps_now;
}

static int sink_process(jack_nframes_t frames, void *arg) {
    (void)arg;
    const float *in = jack_port_get_buffer(sink_in, frames);
    jack_nframes_t start = jack_last_frame_time(sink);
    if (last_frames != 0 && start != (jack_nframes_t)(last_start + last_frames)) {
        atomic_fetch_add_explicit(&jumps, 1, memory_order_relaxed); /* a cycle lost since the sink's last */
    }
    last_start = start;
    last_frames = frames;
    for (jack_nframes_t i = 0; i < frames; i++) {
        int loud = fabsf(in[i]) > THRESHOLD;
        if (loud && quiet && atomic_load_explicit(&measuring, memory_order_relaxed)) {
            pending = 1;
            pending_delay = (start + i) % spacing;
        }
        if (!loud && (start + i) % spacing == spacing / 2) { /* quiet again half-way to the next impulse */
            judge();
            quiet = 1;
        } else if (loud) {
            quiet = 0;
        }
    }
    return 0;
}

static void nap(long milliseconds) {
    struct timespec pause = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s SECONDS SPACING IN_PORT OUT_PORT\n", argv[0]);
        return 2;
    }
    int seconds = atoi(argv[1]);
    spacing = (jack_nframes_t)atoi(argv[2]);
    source = jack_client_open("probe-source", JackNoStartServer, NULL);
    sink = jack_client_open("probe-sink", JackNoStartServer, NULL);
    if (source == NULL || sink == NULL || spacing < 2) {
        fprintf(stderr, "jack_delay_probe: no JACK server to join (or a bad spacing)\n");
        return 1;
    }
    source_out = jack_port_register(source, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    sink_in = jack_port_register(sink, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    jack_set_process_callback(source, source_process, NULL);
    jack_set_process_callback(sink, sink_process, NULL);
    jack_set_xrun_callback(sink, count_xrun, NULL); /* the server tells every client of every xrun */
    if (jack_activate(source) != 0 || jack_activate(sink) != 0) {
        fprintf(stderr, "jack_delay_probe: cannot activate\n");
        return 1;
    }
    /* The client under test registers its ports when its host is ready: polled for up to 30 s. */
    int connected = 0;
    for (int tries = 0; tries < 300 && !connected; tries++) {
        connected = jack_connect(source, jack_port_name(source_out), argv[3]) == 0
                    && jack_connect(sink, argv[4], jack_port_name(sink_in)) == 0;
        if (!connected) {
            nap(100);
        }
    }
    if (!connected) {
        fprintf(stderr, "jack_delay_probe: %s or %s never appeared\n", argv[3], argv[4]);
        return 1;
    }
    nap(SETTLE_SECONDS * 1000L);
    atomic_store(&measuring, 1);
    nap((seconds - SETTLE_SECONDS) * 1000L); /* the measurement's length, not a synchronisation */
    atomic_store(&measuring, 0);
    printf("impulses %llu delay_min %llu delay_max %llu across_xruns %llu xruns %llu jumps %llu\n",
           (unsigned long long)atomic_load(&impulses),
           (unsigned long long)(atomic_load(&impulses) ? atomic_load(&delay_min) : 0),
           (unsigned long long)atomic_load(&delay_max), (unsigned long long)atomic_load(&across_xruns),
           (unsigned long long)atomic_load(&xruns), (unsigned long long)atomic_load(&jumps));
    jack_client_close(sink);
    jack_client_close(source);
    return 0;
}
