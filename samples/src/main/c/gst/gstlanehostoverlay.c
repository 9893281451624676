/*
 * gstlanehostoverlay.c - lanehostoverlay, a GStreamer video filter whose frames a Java actor processes in place,
 * on GStreamer's own streaming thread (docs/samples.md, "GStreamer element"). Java half: OverlaySetup.
 *
 * The element in steps:
 *  1. start() (the application's thread, READY -> PAUSED), the first time only: lanehost_guest_instantiate, which
 *     starts or joins the process's JVM and creates an OverlaySetup instance; then the lane "frames" and the gates
 *     "overlay", "frame" and "stats" are looked up under the instance's names. The instance lives as long as the
 *     element, so the actor's state (frames counted, the running CRC) goes on across READY and across pipelines.
 *  2. Each buffer (the streaming thread): if a property changed, gate "overlay" with [0xRRGGBB, strength]; then gate
 *     "frame" with [address, length, width, height, stride, sequence] of the frame GStreamer mapped: the actor
 *     wraps that memory and writes it in place. Both are gate_call_on_lane: the streaming thread drives the lane
 *     itself until its call is answered, so the actor's turns run right here, in frame order.
 *  3. After each buffer, lane_release (property release-lane): the lane binds to the first thread that drives it
 *     and is never taken from a live one, and GStreamer's streaming threads come from a task pool whose threads
 *     live on after the element stops streaming. No callback of the element runs on the streaming thread when it
 *     stops (stop() runs on the application's thread, after it has left), so each buffer lets go. Released, the
 *     lane binds to whichever streaming thread brings the next buffer; the cost is measured in docs/samples.md.
 *  4. End of stream (the streaming thread): gate "stats", posted as the element message lanehost-overlay-stats.
 *  5. finalize (whoever drops the last reference, after streaming has ended): lanehost_guest_free, then one drive
 *     from this thread, which runs the actor's teardown the free queued on its lane, and a release.
 */
#include <gst/gst.h>
#include <gst/video/gstvideofilter.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lanehost/lanehost_guest.h"

/* GST_PLUGIN_DEFINE names the package the plugin belongs to through this macro. */
#define PACKAGE "lanehost"
#define SETUP_CLASS "dev.lanehost.samples.gst.OverlaySetup"
#define DEFAULT_COLOR 0xFF8000u
#define DEFAULT_STRENGTH 96u
/* A CBOR array of at most 6 unsigned integers of at most 9 bytes each, with room to spare. */
#define CBOR_CAPACITY 64u

#define GST_TYPE_LANEHOST_OVERLAY (gst_lanehost_overlay_get_type())
G_DECLARE_FINAL_TYPE(GstLanehostOverlay, gst_lanehost_overlay, GST, LANEHOST_OVERLAY, GstVideoFilter)

struct _GstLanehostOverlay {
    GstVideoFilter parent;
    /* Properties, under the object lock: any thread may set them; the streaming thread reads them per buffer. */
    guint color;
    guint strength;
    gboolean release_lane;
    gboolean overlay_changed;
    guint64 frames; /* the actor's count, as the last "frame" call answered */
    /* Written by start() before streaming begins, read by the streaming thread and finalize after it. */
    lanehost_guest *guest;
    const lanehost_api *api;
    uint64_t lane;
    uint64_t overlay_gate;
    uint64_t frame_gate;
    uint64_t stats_gate;
    /* The streaming thread's own: frames handed to Java, and nanoseconds spent in the calls and the releases. */
    guint64 handed;
    guint64 call_nanos;
    guint64 release_nanos;
};

G_DEFINE_TYPE(GstLanehostOverlay, gst_lanehost_overlay, GST_TYPE_VIDEO_FILTER)

enum { PROP_0, PROP_COLOR, PROP_STRENGTH, PROP_RELEASE_LANE, PROP_FRAMES, PROP_INSTANCE };

/* Any address in this library names the bundle to the guest layer (dladdr): the options themselves will do. */
static const lanehost_guest_options GUEST_OPTIONS = {LANEHOST_GUEST_OPTIONS_HEAD, &GUEST_OPTIONS, SETUP_CLASS, NULL, NULL};

/* ---------------------------------------------------------------- CBOR: unsigned integers and arrays of them */

static size_t put_head(uint8_t *out, uint8_t major, uint64_t value) {
    int bytes = value < 24 ? 0 : value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFFFFFFu ? 4 : 8;
    out[0] = (uint8_t)(major << 5 | (bytes == 0 ? value : bytes == 1 ? 24 : bytes == 2 ? 25 : bytes == 4 ? 26 : 27));
    for (int i = 0; i < bytes; i++) {
        out[1 + i] = (uint8_t)(value >> (8 * (bytes - 1 - i)));
    }
    return 1 + (size_t)bytes;
}

static size_t put_uints(uint8_t *out, const uint64_t *values, size_t count) {
    size_t n = put_head(out, 4, count);
    for (size_t i = 0; i < count; i++) {
        n += put_head(out + n, 0, values[i]);
    }
    return n;
}

/* Reads one unsigned integer at *pos; FALSE if the bytes there are not one. */
static gboolean get_uint(const uint8_t *in, size_t length, size_t *pos, uint64_t *value) {
    if (*pos >= length || in[*pos] >> 5 != 0) {
        return FALSE;
    }
    uint8_t info = in[(*pos)++] & 0x1F;
    int bytes = info < 24 ? 0 : info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : -1;
    if (bytes < 0 || *pos + (size_t)bytes > length) {
        return FALSE;
    }
    *value = bytes == 0 ? info : 0;
    for (int i = 0; i < bytes; i++) {
        *value = *value << 8 | in[(*pos)++];
    }
    return TRUE;
}

/* ---------------------------------------------------------------- calls on the lane */

static guint64 now_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (guint64)now.tv_sec * 1000000000u + (guint64)now.tv_nsec;
}

/* A gate call on the lane from the streaming thread; a failure is posted as an element error naming `what`. */
static gboolean call_on_lane(GstLanehostOverlay *self, uint64_t gate, const char *what, const uint64_t *args,
                             size_t count, uint8_t *result, uint64_t *result_length) {
    uint8_t cbor[CBOR_CAPACITY];
    size_t length = put_uints(cbor, args, count);
    guint64 start = now_nanos();
    int32_t status = self->api->gate_call_on_lane(gate, self->lane, cbor, length, result, CBOR_CAPACITY,
                                                  result_length, 0);
    self->call_nanos += now_nanos() - start;
    if (status != LANEHOST_OK) {
        char sentence[512];
        uint64_t sentence_length;
        self->api->last_error(sentence, sizeof sentence, &sentence_length);
        GST_ELEMENT_ERROR(self, LIBRARY, FAILED, ("the Java actor's gate \"%s\" answered status %d", what, status),
                          ("%s", sentence));
        return FALSE;
    }
    return TRUE;
}

/* Step 3: lets go of the lane, so the next buffer may come on another streaming thread. */
static gboolean release_lane(GstLanehostOverlay *self) {
    GST_OBJECT_LOCK(self);
    gboolean release = self->release_lane;
    GST_OBJECT_UNLOCK(self);
    if (!release) {
        return TRUE;
    }
    guint64 start = now_nanos();
    int32_t status = self->api->lane_release(self->lane);
    self->release_nanos += now_nanos() - start;
    if (status != LANEHOST_OK) {
        char sentence[512];
        uint64_t sentence_length;
        self->api->last_error(sentence, sizeof sentence, &sentence_length);
        GST_ELEMENT_ERROR(self, LIBRARY, FAILED, ("releasing the lane answered status %d", status), ("%s", sentence));
        return FALSE;
    }
    return TRUE;
}

/* ---------------------------------------------------------------- the element's steps */

static gboolean lookup(GstLanehostOverlay *self, const char *local, const char *kind, uint64_t *handle) {
    char name[LANEHOST_GUEST_NAME_CAPACITY];
    int32_t status = lanehost_guest_exported(self->guest, local, name, sizeof name);
    if (status == LANEHOST_OK) {
        status = strcmp(kind, "lane") == 0 ? self->api->lane_lookup(name, handle)
                                           : self->api->gate_lookup(name, handle);
    }
    if (status != LANEHOST_OK) {
        GST_ELEMENT_ERROR(self, LIBRARY, INIT, ("the Java side exports no %s \"%s\" (status %d)", kind, local, status),
                          (NULL));
        return FALSE;
    }
    return TRUE;
}

/* Step 1. */
static gboolean gst_lanehost_overlay_start(GstBaseTransform *transform) {
    GstLanehostOverlay *self = GST_LANEHOST_OVERLAY(transform);
    if (self->guest != NULL) {
        return TRUE; /* started before: the same lane and actor take the frames on */
    }
    lanehost_guest *guest;
    int32_t status = lanehost_guest_instantiate(&GUEST_OPTIONS, NULL, &guest);
    if (status != LANEHOST_OK) {
        GST_ELEMENT_ERROR(self, LIBRARY, INIT, ("lanehost could not start its Java side (status %d)", status),
                          ("%s", lanehost_guest_last_error()));
        return FALSE;
    }
    GST_OBJECT_LOCK(self); /* the property "instance" reads it from any thread */
    self->guest = guest;
    GST_OBJECT_UNLOCK(self);
    self->api = lanehost_guest_api(guest);
    if (!lookup(self, "frames", "lane", &self->lane) || !lookup(self, "overlay", "gate", &self->overlay_gate) ||
        !lookup(self, "frame", "gate", &self->frame_gate) || !lookup(self, "stats", "gate", &self->stats_gate)) {
        GST_OBJECT_LOCK(self);
        self->guest = NULL;
        GST_OBJECT_UNLOCK(self);
        lanehost_guest_free(guest);
        return FALSE;
    }
    GST_INFO_OBJECT(self, "lanehost instance %s", lanehost_guest_name(guest));
    return TRUE;
}

/* Step 2. */
static GstFlowReturn gst_lanehost_overlay_transform_frame_ip(GstVideoFilter *filter, GstVideoFrame *frame) {
    GstLanehostOverlay *self = GST_LANEHOST_OVERLAY(filter);
    GST_OBJECT_LOCK(self);
    gboolean changed = self->overlay_changed;
    uint64_t overlay[2] = {self->color, self->strength};
    self->overlay_changed = FALSE;
    GST_OBJECT_UNLOCK(self);
    uint8_t result[CBOR_CAPACITY];
    uint64_t result_length;
    gboolean ok = !changed || call_on_lane(self, self->overlay_gate, "overlay", overlay, 2, result, &result_length);
    uint64_t height = (uint64_t)GST_VIDEO_FRAME_HEIGHT(frame);
    uint64_t stride = (uint64_t)GST_VIDEO_FRAME_PLANE_STRIDE(frame, 0);
    uint64_t args[6] = {(uint64_t)(uintptr_t)GST_VIDEO_FRAME_PLANE_DATA(frame, 0), stride * height,
                        (uint64_t)GST_VIDEO_FRAME_WIDTH(frame), height, stride, self->handed};
    ok = ok && call_on_lane(self, self->frame_gate, "frame", args, 6, result, &result_length);
    size_t pos = 0;
    uint64_t frames = 0;
    if (ok && (!get_uint(result, result_length, &pos, &frames) || frames != self->handed + 1)) {
        GST_ELEMENT_ERROR(self, LIBRARY, FAILED, ("the actor counted %" G_GUINT64_FORMAT " frames after frame %"
                          G_GUINT64_FORMAT, frames, self->handed + 1), (NULL));
        ok = FALSE;
    }
    self->handed++;
    ok = release_lane(self) && ok;
    GST_OBJECT_LOCK(self);
    self->frames = frames;
    GST_OBJECT_UNLOCK(self);
    return ok ? GST_FLOW_OK : GST_FLOW_ERROR;
}

/* Step 4. */
static gboolean gst_lanehost_overlay_sink_event(GstBaseTransform *transform, GstEvent *event) {
    GstLanehostOverlay *self = GST_LANEHOST_OVERLAY(transform);
    if (GST_EVENT_TYPE(event) == GST_EVENT_EOS && self->guest != NULL) {
        uint8_t result[CBOR_CAPACITY];
        uint64_t result_length;
        uint64_t stats[3] = {0, 0, 0};
        size_t pos = 1;
        gboolean ok = call_on_lane(self, self->stats_gate, "stats", NULL, 0, result, &result_length);
        ok = release_lane(self) && ok;
        if (ok && result_length > 0 && result[0] == 0x83 && get_uint(result, result_length, &pos, &stats[0]) &&
            get_uint(result, result_length, &pos, &stats[1]) && get_uint(result, result_length, &pos, &stats[2])) {
            GstStructure *s = gst_structure_new("lanehost-overlay-stats", "frames", G_TYPE_UINT64, stats[0], "crc32",
                                                G_TYPE_UINT, (guint)stats[1], "sequence-errors", G_TYPE_UINT64,
                                                stats[2], "handed", G_TYPE_UINT64, self->handed, "call-ns",
                                                G_TYPE_UINT64, self->call_nanos, "release-ns", G_TYPE_UINT64,
                                                self->release_nanos, NULL);
            gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), s));
        }
    }
    return GST_BASE_TRANSFORM_CLASS(gst_lanehost_overlay_parent_class)->sink_event(transform, event);
}

/* Step 5. */
static void gst_lanehost_overlay_finalize(GObject *object) {
    GstLanehostOverlay *self = GST_LANEHOST_OVERLAY(object);
    if (self->guest != NULL) {
        if (lanehost_guest_free(self->guest) != LANEHOST_OK) {
            GST_WARNING_OBJECT(self, "freeing the lanehost instance: %s", lanehost_guest_last_error());
        }
        if (self->api->lane_drive(self->lane, 0, NULL) == LANEHOST_OK) {
            self->api->lane_release(self->lane);
        }
    }
    G_OBJECT_CLASS(gst_lanehost_overlay_parent_class)->finalize(object);
}

/* ---------------------------------------------------------------- properties and registration */

static void gst_lanehost_overlay_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    GstLanehostOverlay *self = GST_LANEHOST_OVERLAY(object);
    GST_OBJECT_LOCK(self);
    switch (id) {
    case PROP_COLOR:
        self->color = g_value_get_uint(value);
        self->overlay_changed = TRUE;
        break;
    case PROP_STRENGTH:
        self->strength = g_value_get_uint(value);
        self->overlay_changed = TRUE;
        break;
    case PROP_RELEASE_LANE:
        self->release_lane = g_value_get_boolean(value);
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
    GST_OBJECT_UNLOCK(self);
}

static void gst_lanehost_overlay_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    GstLanehostOverlay *self = GST_LANEHOST_OVERLAY(object);
    GST_OBJECT_LOCK(self);
    switch (id) {
    case PROP_COLOR:
        g_value_set_uint(value, self->color);
        break;
    case PROP_STRENGTH:
        g_value_set_uint(value, self->strength);
        break;
    case PROP_RELEASE_LANE:
        g_value_set_boolean(value, self->release_lane);
        break;
    case PROP_FRAMES:
        g_value_set_uint64(value, self->frames);
        break;
    case PROP_INSTANCE:
        g_value_set_string(value, self->guest != NULL ? lanehost_guest_name(self->guest) : NULL);
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
    GST_OBJECT_UNLOCK(self);
}

static void gst_lanehost_overlay_class_init(GstLanehostOverlayClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    GstBaseTransformClass *transform_class = GST_BASE_TRANSFORM_CLASS(klass);
    object_class->set_property = gst_lanehost_overlay_set_property;
    object_class->get_property = gst_lanehost_overlay_get_property;
    object_class->finalize = gst_lanehost_overlay_finalize;
    const GParamFlags writable = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;
    const GParamFlags readable = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
    g_object_class_install_property(object_class, PROP_COLOR, g_param_spec_uint("color", "Color",
        "Overlay colour as 0xRRGGBB, sent to the Java actor through its gate \"overlay\"", 0, 0xFFFFFF,
        DEFAULT_COLOR, writable));
    g_object_class_install_property(object_class, PROP_STRENGTH, g_param_spec_uint("strength", "Strength",
        "How far each pixel moves toward the colour, 0 (not at all) to 255 (all the way)", 0, 255,
        DEFAULT_STRENGTH, writable));
    g_object_class_install_property(object_class, PROP_RELEASE_LANE, g_param_spec_boolean("release-lane",
        "Release lane", "Release the lane after every buffer, so that another streaming thread may bind it "
        "(off: the lane stays bound to the first streaming thread for good)", TRUE, writable));
    g_object_class_install_property(object_class, PROP_FRAMES, g_param_spec_uint64("frames", "Frames",
        "Frames the Java actor has processed", 0, G_MAXUINT64, 0, readable));
    g_object_class_install_property(object_class, PROP_INSTANCE, g_param_spec_string("instance", "Instance",
        "The lanehost guest instance's name, once started", NULL, readable));
    gst_element_class_set_static_metadata(element_class, "lanehost overlay", "Filter/Effect/Video",
        "Blends RGBx frames toward a colour in a Java actor, in place, on the streaming thread (lanehost)", "lanehost");
    GstCaps *caps = gst_caps_from_string(GST_VIDEO_CAPS_MAKE("RGBx"));
    gst_element_class_add_pad_template(element_class, gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
    gst_element_class_add_pad_template(element_class, gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
    gst_caps_unref(caps);
    transform_class->start = GST_DEBUG_FUNCPTR(gst_lanehost_overlay_start);
    transform_class->sink_event = GST_DEBUG_FUNCPTR(gst_lanehost_overlay_sink_event);
    GST_VIDEO_FILTER_CLASS(klass)->transform_frame_ip = GST_DEBUG_FUNCPTR(gst_lanehost_overlay_transform_frame_ip);
}

static void gst_lanehost_overlay_init(GstLanehostOverlay *self) {
    self->color = DEFAULT_COLOR;
    self->strength = DEFAULT_STRENGTH;
    self->release_lane = TRUE;
    self->overlay_changed = TRUE; /* the first buffer sends the defaults */
}

static gboolean plugin_init(GstPlugin *plugin) {
    return gst_element_register(plugin, "lanehostoverlay", GST_RANK_NONE, GST_TYPE_LANEHOST_OVERLAY);
}

/* The macro leaves GstPluginDesc's padding to zero initialisation, which -Wextra would report. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, lanehost,
                  "Java actors on GStreamer's streaming threads, through lanehost's execution lanes", plugin_init,
                  "0.1.0", "unknown", "lanehost", "https://github.com/lanehost/lanehost")
