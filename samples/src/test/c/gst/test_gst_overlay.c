/*
 * test_gst_overlay.c - the GStreamer element lanehostoverlay under gst-check's GstHarness (CTest): the harness
 * pushes frames from this thread, which is then the streaming thread that drives the element's lane, and every byte
 * that comes out is checked against the blend computed here, independently of the Java actor that did it.
 *
 * It needs the element's bundle on GST_PLUGIN_PATH with its jars in <bundle>/lib (Maven puts them there) and a JDK
 * 25+ (JAVA_HOME, or where lanehost_guest.h says it looks); without the bundle it exits 77 and says why.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#define WIDTH 8
#define HEIGHT 4
#define FRAME_BYTES (WIDTH * HEIGHT * 4)
#define CAPS "video/x-raw,format=RGBx,width=8,height=4,framerate=30/1"

/* The blend docs/samples.md gives, written here from that sentence, not from the Java code. */
static guint8 blended(guint8 channel, guint8 overlay, guint strength) {
    return (guint8)((channel * (255u - strength) + overlay * strength + 127u) / 255u);
}

/* Frame `n`'s bytes: every byte different from its neighbours and from frame n - 1's. */
static GstBuffer *frame_of(guint n, guint8 *copy) {
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, FRAME_BYTES, NULL);
    for (guint i = 0; i < FRAME_BYTES; i++) {
        copy[i] = (guint8)(i * 37u + n * 11u + 5u);
    }
    gst_buffer_fill(buffer, 0, copy, FRAME_BYTES);
    return buffer;
}

/* Pushes frame n and checks every byte that comes out against the blend with `color` and `strength`. */
static void push_and_check(GstHarness *h, guint n, guint color, guint strength) {
    guint8 input[FRAME_BYTES];
    fail_unless_equals_int(gst_harness_push(h, frame_of(n, input)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(h);
    fail_unless(out != NULL, "frame %u did not come out", n);
    GstMapInfo map;
    fail_unless(gst_buffer_map(out, &map, GST_MAP_READ));
    fail_unless_equals_uint64(map.size, FRAME_BYTES);
    const guint8 overlay[3] = {(guint8)(color >> 16), (guint8)(color >> 8), (guint8)color};
    for (guint i = 0; i < FRAME_BYTES; i++) {
        guint8 expected = i % 4 == 3 ? input[i] : blended(input[i], overlay[i % 4], strength);
        fail_unless(map.data[i] == expected, "frame %u byte %u is %u, expected %u", n, i, map.data[i], expected);
    }
    gst_buffer_unmap(out, &map);
    gst_buffer_unref(out);
}

static guint64 frames_of(GstHarness *h) {
    guint64 frames = 0;
    g_object_get(h->element, "frames", &frames, NULL);
    return frames;
}

GST_START_TEST(everyFrameIsBlendedByTheJavaActor)
{
    GstHarness *h = gst_harness_new("lanehostoverlay");
    g_object_set(h->element, "color", 0x2040C0u, "strength", 128u, NULL);
    gst_harness_set_src_caps_str(h, CAPS);
    for (guint n = 0; n < 30; n++) {
        push_and_check(h, n, 0x2040C0u, 128u);
    }
    fail_unless_equals_uint64(frames_of(h), 30);
    gst_harness_teardown(h);
}
GST_END_TEST;

GST_START_TEST(aPropertyChangeReachesTheActorBeforeTheNextFrame)
{
    GstHarness *h = gst_harness_new("lanehostoverlay");
    g_object_set(h->element, "strength", 0u, NULL);
    gst_harness_set_src_caps_str(h, CAPS);
    push_and_check(h, 0, 0xFF8000u, 0); /* strength 0: the frame comes out as it went in */
    g_object_set(h->element, "color", 0x102030u, "strength", 255u, NULL);
    push_and_check(h, 1, 0x102030u, 255u); /* all the way to the new colour, from this frame on */
    g_object_set(h->element, "strength", 64u, NULL);
    push_and_check(h, 2, 0x102030u, 64u);
    fail_unless_equals_uint64(frames_of(h), 3);
    gst_harness_teardown(h);
}
GST_END_TEST;

GST_START_TEST(theActorWritesTheMappedBufferInPlace)
{
    GstHarness *h = gst_harness_new("lanehostoverlay");
    gst_harness_set_src_caps_str(h, CAPS);
    guint8 input[FRAME_BYTES];
    GstBuffer *in = frame_of(0, input);
    GstMapInfo map;
    fail_unless(gst_buffer_map(in, &map, GST_MAP_READ));
    const guint8 *where = map.data;
    gst_buffer_unmap(in, &map);
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK); /* the harness holds the only reference: writable */
    GstBuffer *out = gst_harness_pull(h);
    fail_unless(gst_buffer_map(out, &map, GST_MAP_READ));
    fail_unless(map.data == where, "the frame was copied: it came out at %p, not %p", (void *)map.data, (void *)where);
    fail_unless(memcmp(map.data, input, FRAME_BYTES) != 0, "the frame came out unchanged");
    gst_buffer_unmap(out, &map);
    gst_buffer_unref(out);
    gst_harness_teardown(h);
}
GST_END_TEST;

static Suite *lanehost_overlay_suite(void) {
    Suite *suite = suite_create("lanehostoverlay");
    TCase *cases = tcase_create("element");
    tcase_add_test(cases, everyFrameIsBlendedByTheJavaActor);
    tcase_add_test(cases, aPropertyChangeReachesTheActorBeforeTheNextFrame);
    tcase_add_test(cases, theActorWritesTheMappedBufferInPlace);
    suite_add_tcase(suite, cases);
    return suite;
}

/* Why the element cannot run here, or NULL if it can. */
static const char *why_skipped(void) {
    static char why[1024];
    const char *bundle = g_getenv("GST_PLUGIN_PATH");
    if (bundle == NULL) {
        return "GST_PLUGIN_PATH is not set: CTest sets it to the element's bundle";
    }
    gchar *lib = g_build_filename(bundle, "lib", NULL);
    GDir *jars = g_dir_open(lib, 0, NULL);
    gboolean has_jar = FALSE;
    for (const gchar *name; jars != NULL && !has_jar && (name = g_dir_read_name(jars)) != NULL;) {
        has_jar = g_str_has_suffix(name, ".jar");
    }
    if (jars != NULL) {
        g_dir_close(jars);
    }
    if (!has_jar) {
        snprintf(why, sizeof why, "%s holds no jars: Maven copies them there before the test phase (mvn verify)", lib);
    }
    g_free(lib);
    GstElementFactory *factory = has_jar ? gst_element_factory_find("lanehostoverlay") : NULL;
    if (has_jar && factory == NULL) {
        snprintf(why, sizeof why, "GStreamer found no element lanehostoverlay in %s", bundle);
        return why;
    }
    if (factory != NULL) {
        gst_object_unref(factory);
    }
    return has_jar ? NULL : why;
}

int main(int argc, char **argv) {
    gst_check_init(&argc, &argv);
    const char *why = why_skipped();
    if (why != NULL) {
        printf("SKIPPED: %s\n", why);
        return 77;
    }
    return gst_check_run_suite(lanehost_overlay_suite(), "lanehost_overlay", __FILE__);
}
