/*
 * gst_rebind_check.c - check (b) of GstOverlayTest: one lanehostoverlay element through state changes and into a new
 * pipeline, with the unmodified GStreamer library doing the threading. It prints what happened, one fact a line,
 * for the test to compare; it exits 1 on an element error (printed as "<pipeline> <what failed>: <error> (<details>)")
 * or a stream that did not end.
 *
 *  1. Pipeline A, videotestsrc num-buffers=N ! RGBx 64x48 ! lanehostoverlay ! fakesink: round a1, PLAYING to end of
 *     stream; READY; round a2, PLAYING until N/2 frames have come out of the element, then READY in mid-stream;
 *     round a3, PLAYING to end of stream (the source starts over at each READY -> PAUSED); NULL.
 *  2. The element moves into pipeline B, built the same way. B's source task gets a task pool of our own that
 *     starts a new thread for it (GstTaskPool, set on the task when its stream-status CREATE message comes), while
 *     A's streaming thread is typically still alive, idle in GLib's thread pool: the lane must follow a thread
 *     change with its old thread still alive, which only a release lets it do.
 *  3. Round b, B PLAYING to end of stream; NULL.
 * Per round it prints the frames the source pushed, that entered the element (its sink pad, past GStreamer's
 * flushing check), that came out of it, that the sink received, and the element's "frames" (the actor's count), each
 * as a difference over the round. A probe on the element's src pad records the thread (gettid) that ran each frame.
 * With "keep-lane" after the frame count the element keeps its lane bound (release-lane=false): the control, which
 * must fail when a new streaming thread comes.
 */
#define _GNU_SOURCE
#include <gst/gst.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_FRAMES 100000

/* Written by the streaming threads, read by the main thread: atomics, and the main thread's wait under a lock. */
static pid_t frame_threads[MAX_FRAMES];
static gint pushed;       /* frames the sources pushed */
static gint entered;      /* frames that entered the element */
static gint frames_out;   /* frames that came out of the element */
static gint received;     /* frames the sinks received */
static GMutex out_lock;
static GCond out_changed;

/* ---------------------------------------------------------------- a task pool that starts a new thread per task */

typedef struct { GstTaskPool parent; } FreshThreadPool;
typedef struct { GstTaskPoolClass parent_class; } FreshThreadPoolClass;
G_DEFINE_TYPE(FreshThreadPool, fresh_thread_pool, GST_TYPE_TASK_POOL)

struct job {
    pthread_t thread;
    GstTaskPoolFunction function;
    gpointer data;
};

static void *run_job(void *argument) {
    struct job *job = argument;
    job->function(job->data);
    return NULL;
}

static void fresh_prepare(GstTaskPool *pool, GError **error) {
    (void)pool;
    (void)error;
}

static void fresh_cleanup(GstTaskPool *pool) {
    (void)pool;
}

static gpointer fresh_push(GstTaskPool *pool, GstTaskPoolFunction function, gpointer data, GError **error) {
    (void)pool;
    struct job *job = g_new0(struct job, 1);
    job->function = function;
    job->data = data;
    if (pthread_create(&job->thread, NULL, run_job, job) != 0) {
        g_set_error(error, G_THREAD_ERROR, G_THREAD_ERROR_AGAIN, "pthread_create failed");
        g_free(job);
        return NULL;
    }
    return job;
}

static void fresh_join(GstTaskPool *pool, gpointer id) {
    (void)pool;
    struct job *job = id;
    pthread_join(job->thread, NULL);
    g_free(job);
}

static void fresh_thread_pool_class_init(FreshThreadPoolClass *klass) {
    GstTaskPoolClass *pool_class = GST_TASK_POOL_CLASS(klass);
    pool_class->prepare = fresh_prepare;
    pool_class->cleanup = fresh_cleanup;
    pool_class->push = fresh_push;
    pool_class->join = fresh_join;
}

static void fresh_thread_pool_init(FreshThreadPool *pool) {
    (void)pool;
}

static GstBusSyncReply on_stream_status(GstBus *bus, GstMessage *message, gpointer pool) {
    (void)bus;
    GstStreamStatusType type;
    GstElement *owner;
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_STREAM_STATUS) {
        gst_message_parse_stream_status(message, &type, &owner);
        const GValue *task = gst_message_get_stream_status_object(message);
        if (type == GST_STREAM_STATUS_TYPE_CREATE && task != NULL && G_VALUE_HOLDS_OBJECT(task)) {
            gst_task_set_pool(GST_TASK(g_value_get_object(task)), GST_TASK_POOL(pool));
        }
    }
    return GST_BUS_PASS;
}

/* ---------------------------------------------------------------- probes and pipelines */

static GstPadProbeReturn count_frame(GstPad *pad, GstPadProbeInfo *info, gpointer counter) {
    (void)pad;
    (void)info;
    g_atomic_int_inc((gint *)counter);
    return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn record_thread(GstPad *pad, GstPadProbeInfo *info, gpointer unused) {
    (void)pad;
    (void)info;
    (void)unused;
    g_mutex_lock(&out_lock);
    gint n = g_atomic_int_add(&frames_out, 1);
    if (n < MAX_FRAMES) {
        frame_threads[n] = (pid_t)syscall(SYS_gettid);
    }
    g_cond_broadcast(&out_changed);
    g_mutex_unlock(&out_lock);
    return GST_PAD_PROBE_OK;
}

/* Waits until `count` frames have come out of the element in all; exits if that takes over 120 s. */
static void await_frames_out(gint count) {
    gint64 deadline = g_get_monotonic_time() + 120 * G_TIME_SPAN_SECOND;
    g_mutex_lock(&out_lock);
    while (g_atomic_int_get(&frames_out) < count) {
        if (!g_cond_wait_until(&out_changed, &out_lock, deadline)) {
            printf("round a2 did not reach %d frames within 120 s\n", count);
            exit(1);
        }
    }
    g_mutex_unlock(&out_lock);
}

static void probe(GstElement *element, const char *pad_name, GstPadProbeCallback callback, gpointer data) {
    GstPad *pad = gst_element_get_static_pad(element, pad_name);
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, callback, data, NULL);
    gst_object_unref(pad);
}

static GstElement *pipeline_around(const char *name, GstElement *overlay, int frames) {
    GstElement *pipeline = gst_pipeline_new(name);
    GstElement *source = gst_element_factory_make("videotestsrc", NULL);
    GstElement *filter = gst_element_factory_make("capsfilter", NULL);
    GstElement *sink = gst_element_factory_make("fakesink", NULL);
    if (source == NULL || filter == NULL || sink == NULL) {
        fprintf(stderr, "gst_rebind_check: videotestsrc, capsfilter or fakesink is missing (gstreamer1.0-plugins-base)\n");
        exit(1);
    }
    g_object_set(source, "num-buffers", frames, NULL);
    GstCaps *caps = gst_caps_from_string("video/x-raw,format=RGBx,width=64,height=48,framerate=30/1");
    g_object_set(filter, "caps", caps, NULL);
    gst_caps_unref(caps);
    gst_bin_add_many(GST_BIN(pipeline), source, filter, overlay, sink, NULL);
    if (!gst_element_link_many(source, filter, overlay, sink, NULL)) {
        fprintf(stderr, "gst_rebind_check: the pipeline %s does not link\n", name);
        exit(1);
    }
    probe(source, "src", count_frame, &pushed);
    probe(sink, "sink", count_frame, &received);
    return pipeline;
}

/* Prints the error message (or the one the pipeline's bus holds) and exits 1. */
static void fail_with_error(GstElement *pipeline, const char *what, GstMessage *message) {
    if (message == NULL) {
        GstBus *bus = gst_element_get_bus(pipeline);
        message = gst_bus_timed_pop_filtered(bus, 10 * GST_SECOND, GST_MESSAGE_ERROR); /* it may follow the failure */
        gst_object_unref(bus);
    }
    GError *error = NULL;
    gchar *debug = NULL;
    if (message != NULL) {
        gst_message_parse_error(message, &error, &debug);
    }
    printf("%s %s: %s (%s)\n", GST_ELEMENT_NAME(pipeline), what, error != NULL ? error->message : "no error posted",
           debug != NULL ? debug : "");
    exit(1);
}

/* Sets the state and waits until the pipeline is in it. */
static void set_state(GstElement *pipeline, GstState state) {
    if (gst_element_set_state(pipeline, state) == GST_STATE_CHANGE_FAILURE ||
        gst_element_get_state(pipeline, NULL, NULL, GST_CLOCK_TIME_NONE) == GST_STATE_CHANGE_FAILURE) {
        fail_with_error(pipeline, state == GST_STATE_PLAYING ? "could not start playing" : "could not change state",
                        NULL);
    }
}

/* What the counters were at a round's start. */
struct counts {
    gint pushed, entered, out, received;
    guint64 frames;
};

static struct counts counts_now(GstElement *overlay) {
    struct counts now = {g_atomic_int_get(&pushed), g_atomic_int_get(&entered), g_atomic_int_get(&frames_out),
                         g_atomic_int_get(&received), 0};
    g_object_get(overlay, "frames", &now.frames, NULL);
    return now;
}

static void print_round(const char *round, struct counts start, GstElement *overlay) {
    struct counts end = counts_now(overlay);
    printf("round %s pushed %d entered %d out %d received %d frames-property %" G_GUINT64_FORMAT "\n", round,
           end.pushed - start.pushed, end.entered - start.entered, end.out - start.out, end.received - start.received,
           end.frames - start.frames);
}

/* A round that plays to end of stream; prints its counts and the element's own statistics message. */
static void play_round(const char *round, GstElement *pipeline, GstElement *overlay) {
    struct counts start = counts_now(overlay);
    set_state(pipeline, GST_STATE_PLAYING);
    GstBus *bus = gst_element_get_bus(pipeline);
    gboolean ended = FALSE;
    while (!ended) {
        GstMessage *message = gst_bus_timed_pop_filtered(bus, 120 * GST_SECOND,
                                                         GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
        if (message == NULL) {
            printf("round %s did not end within 120 s\n", round);
            exit(1);
        }
        if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
            fail_with_error(pipeline, "failed while playing", message);
        }
        const GstStructure *stats = gst_message_get_structure(message);
        if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ELEMENT && gst_structure_has_name(stats, "lanehost-overlay-stats")) {
            guint64 frames, errors;
            gst_structure_get_uint64(stats, "frames", &frames);
            gst_structure_get_uint64(stats, "sequence-errors", &errors);
            printf("round %s actor-frames %" G_GUINT64_FORMAT " sequence-errors %" G_GUINT64_FORMAT "\n", round, frames,
                   errors);
        }
        ended = GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS;
        gst_message_unref(message);
    }
    gst_object_unref(bus);
    print_round(round, start, overlay);
}

/* Round a2: PLAYING until `frames` more have come out of the element, then READY while the source still pushes. */
static void play_round_stopped_midway(GstElement *pipeline, GstElement *overlay, gint frames) {
    struct counts start = counts_now(overlay);
    set_state(pipeline, GST_STATE_PLAYING);
    await_frames_out(start.out + frames);
    set_state(pipeline, GST_STATE_READY);
    print_round("a2", start, overlay);
}

static gboolean thread_alive(pid_t tid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d", (int)tid);
    return access(path, F_OK) == 0;
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    int frames = argc > 1 ? atoi(argv[1]) : 100;
    GstElement *overlay = gst_element_factory_make("lanehostoverlay", "overlay");
    if (overlay == NULL) {
        fprintf(stderr, "gst_rebind_check: GStreamer has no element lanehostoverlay (GST_PLUGIN_PATH?)\n");
        return 1;
    }
    gst_object_ref_sink(overlay); /* ours, across both pipelines */
    probe(overlay, "sink", count_frame, &entered);
    probe(overlay, "src", record_thread, NULL);
    if (argc > 2 && strcmp(argv[2], "keep-lane") == 0) {
        g_object_set(overlay, "release-lane", FALSE, NULL); /* the control: the lane stays with A's thread */
    }

    GstElement *a = pipeline_around("a", overlay, frames);
    play_round("a1", a, overlay);
    set_state(a, GST_STATE_READY);
    play_round_stopped_midway(a, overlay, frames / 2);
    play_round("a3", a, overlay);
    set_state(a, GST_STATE_NULL);
    pid_t last_a = frame_threads[g_atomic_int_get(&frames_out) - 1];
    gst_bin_remove(GST_BIN(a), overlay);
    gst_object_unref(a);

    GstElement *b = pipeline_around("b", overlay, frames);
    GstTaskPool *pool = g_object_new(fresh_thread_pool_get_type(), NULL);
    GstBus *bus = gst_element_get_bus(b);
    gst_bus_set_sync_handler(bus, on_stream_status, pool, NULL);
    gst_object_unref(bus);
    printf("moved at-frame %d old-thread-alive %s\n", g_atomic_int_get(&frames_out), thread_alive(last_a) ? "yes" : "no");
    play_round("b", b, overlay);
    set_state(b, GST_STATE_NULL);

    gint total = g_atomic_int_get(&frames_out);
    printf("threads");
    for (gint i = 0; i < total && i < MAX_FRAMES; i++) {
        if (i == 0 || frame_threads[i] != frame_threads[i - 1]) {
            printf(" %d@%d", (int)frame_threads[i], i);
        }
    }
    printf("\n");
    gst_object_unref(b);
    gst_object_unref(overlay); /* finalize: frees the guest instance */
    gst_object_unref(pool);
    printf("done\n");
    return 0;
}
