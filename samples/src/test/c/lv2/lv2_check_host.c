/*
 * lv2_check_host.c - a minimal LV2 host for the LV2 sample's tests: it loads the plugin from its bundle with dlopen
 * and calls its descriptor as any host does (no lilv, whose headers Debian ships apart), and records what it saw.
 *
 *   lv2_check_host phases BUNDLE IN.f32 OUT.f32 LEAD CUTOFF Q
 *       A real-time host (it passes urid:map) in five phases of 128-frame periods, each line "phase NAME start S
 *       end E underrun_frames U dropped_frames D waits W latency L" as it ends:
 *       exact   freewheeling on: run() may wait for the effect, so every period is exact;
 *       held    the hold port on (a stalled effect, on purpose), still freewheeling: the effect stops at the hold's
 *               frame, and every period past what it wrote before plays silence, counted;
 *       resumed hold off, freewheeling: the late frames are dropped and the delay is the latency again;
 *       live    freewheeling off, runs back to back as fast as the machine goes: run() never waits, whatever
 *               the effect manages (underruns as they come);
 *       settled freewheeling on again.
 *   lv2_check_host cycle BUNDLE COUNT
 *       COUNT times: instantiate (no features, as lv2apply), activate, 32 periods, deactivate, cleanup; a line
 *       "cycle I rss_kib R threads T" after cycles 1, 10 and every 100th and the last.
 */
#include <dlfcn.h>
#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERIOD 128u

enum { PORT_IN, PORT_OUT, PORT_CUTOFF, PORT_Q, PORT_LEAD, PORT_HOLD, PORT_FREEWHEEL, PORT_LATENCY,
       PORT_UNDERRUN_FRAMES, PORT_DROPPED_FRAMES, PORT_WAITS, PORT_COUNT };

static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    (void)uri;
    return 1; /* the plugin only looks for the feature; it maps nothing */
}

static const LV2_Descriptor *load(const char *bundle) {
    char path[4096];
    snprintf(path, sizeof path, "%s/lanehost_biquad.so", bundle);
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        return NULL;
    }
    LV2_Descriptor_Function descriptor = (LV2_Descriptor_Function)dlsym(library, "lv2_descriptor");
    return descriptor != NULL ? descriptor(0) : NULL;
}

typedef struct {
    float values[PORT_COUNT];
    float in[PERIOD], out[PERIOD];
} ports;

static void connect_all(const LV2_Descriptor *d, LV2_Handle h, ports *p) {
    for (uint32_t i = 0; i < PORT_COUNT; i++) {
        d->connect_port(h, i, i == PORT_IN ? (void *)p->in : i == PORT_OUT ? (void *)p->out : (void *)&p->values[i]);
    }
}

static int phases(const char *bundle, const char *in_path, const char *out_path, float lead, float cutoff, float q) {
    const LV2_Descriptor *d = load(bundle);
    FILE *in = fopen(in_path, "rb");
    FILE *out = fopen(out_path, "wb");
    if (d == NULL || in == NULL || out == NULL) {
        fprintf(stderr, "cannot start: plugin %p, %s, %s\n", (const void *)d, in_path, out_path);
        return 1;
    }
    LV2_URID_Map map = {NULL, map_uri};
    LV2_Feature map_feature = {LV2_URID__map, &map};
    const LV2_Feature *features[] = {&map_feature, NULL};
    LV2_Handle h = d->instantiate(d, 48000, bundle, features);
    if (h == NULL) {
        return 1;
    }
    ports p = {0};
    p.values[PORT_CUTOFF] = cutoff;
    p.values[PORT_Q] = q;
    p.values[PORT_LEAD] = lead;
    connect_all(d, h, &p);
    d->activate(h);
    static const struct { const char *name; float hold, freewheel; uint32_t periods; } PHASES[] = {
        {"exact", 0, 1, 375}, {"held", 1, 1, 100}, {"resumed", 0, 1, 375}, {"live", 0, 0, 375}, {"settled", 0, 1, 375}};
    uint64_t frame = 0;
    for (size_t i = 0; i < sizeof PHASES / sizeof PHASES[0]; i++) {
        uint64_t start = frame;
        p.values[PORT_HOLD] = PHASES[i].hold;
        p.values[PORT_FREEWHEEL] = PHASES[i].freewheel;
        for (uint32_t n = 0; n < PHASES[i].periods; n++, frame += PERIOD) {
            if (fread(p.in, sizeof(float), PERIOD, in) != PERIOD) {
                fprintf(stderr, "the input ends before frame %llu\n", (unsigned long long)frame);
                return 1;
            }
            d->run(h, PERIOD);
            fwrite(p.out, sizeof(float), PERIOD, out);
        }
        printf("phase %s start %llu end %llu underrun_frames %.0f dropped_frames %.0f waits %.0f latency %.0f\n",
               PHASES[i].name, (unsigned long long)start, (unsigned long long)frame, p.values[PORT_UNDERRUN_FRAMES],
               p.values[PORT_DROPPED_FRAMES], p.values[PORT_WAITS], p.values[PORT_LATENCY]);
        fflush(stdout);
    }
    d->deactivate(h);
    d->cleanup(h);
    fclose(in);
    return fclose(out) == 0 ? 0 : 1;
}

/* VmRSS (KiB) and Threads from /proc/self/status. */
static void usage_now(long *rss_kib, long *threads) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    while (status != NULL && fgets(line, sizeof line, status) != NULL) {
        sscanf(line, "VmRSS: %ld", rss_kib);
        sscanf(line, "Threads: %ld", threads);
    }
    if (status != NULL) {
        fclose(status);
    }
}

static int cycle(const char *bundle, long count) {
    const LV2_Descriptor *d = load(bundle);
    if (d == NULL) {
        return 1;
    }
    ports p = {0};
    p.values[PORT_CUTOFF] = 1000;
    p.values[PORT_Q] = 0.707f;
    p.values[PORT_LEAD] = 256;
    for (long i = 1; i <= count; i++) {
        LV2_Handle h = d->instantiate(d, 48000, bundle, NULL);
        if (h == NULL) {
            fprintf(stderr, "cycle %ld: instantiate failed\n", i);
            return 1;
        }
        connect_all(d, h, &p);
        d->activate(h);
        for (int n = 0; n < 32; n++) {
            for (uint32_t k = 0; k < PERIOD; k++) {
                p.in[k] = (float)((n * PERIOD + k) % 100) / 100.0f;
            }
            d->run(h, PERIOD);
        }
        d->deactivate(h);
        d->cleanup(h);
        if (i == 1 || i == 10 || i % 100 == 0 || i == count) {
            long rss = 0, threads = 0;
            usage_now(&rss, &threads);
            printf("cycle %ld rss_kib %ld threads %ld underrun_frames %.0f\n", i, rss, threads,
                   p.values[PORT_UNDERRUN_FRAMES]);
            fflush(stdout);
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 8 && strcmp(argv[1], "phases") == 0) {
        return phases(argv[2], argv[3], argv[4], (float)atof(argv[5]), (float)atof(argv[6]), (float)atof(argv[7]));
    }
    if (argc == 4 && strcmp(argv[1], "cycle") == 0) {
        return cycle(argv[2], atol(argv[3]));
    }
    fprintf(stderr, "usage: %s phases BUNDLE IN.f32 OUT.f32 LEAD CUTOFF Q | cycle BUNDLE COUNT\n", argv[0]);
    return 2;
}
