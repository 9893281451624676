/*
 * lanehost_biquad.c - an LV2 plugin whose DSP is a Java actor (dev.lanehost.samples.lv2.BiquadSetup): a biquad
 * low-pass with a cut-off and a resonance. The plugin reaches lanehost only through lanehost_guest.h, the host
 * function table and lanehost_ring.h.
 *
 * run(), in steps:
 *  1. A control port that changed becomes one record in the controls ring, stamped with the frame it applies from
 *     (written before that frame, so the effect sees it before it counts the frame).
 *  2. The input goes into the capture ring.
 *  3. Only where waiting is allowed (the host freewheels, or it is an offline host: below): if the playback ring
 *     holds less than this period needs, one blocking gate call ("pump") has the effect process what was captured.
 *     In real time run() never waits and never enters the JVM.
 *  4. Late frames are dropped: each frame of silence played by an underrun is owed, and the next frames the effect
 *     writes are exactly the ones whose time has passed (the frames for the slots the silence filled), so they are
 *     read and thrown away, counted. The frames in flight fall back to the lead: the delay is the reported latency.
 *  5. The output comes from the playback ring: whole frames, then silence for what is missing (an underrun, counted
 *     in frames and owed to step 4).
 *
 * When run() may wait: when the lv2:freeWheeling port is on, or when the host gave no urid:map feature. Every
 * real-time LV2 host passes urid:map (jalv, Ardour, Carla, Qtractor); offline tools such as lv2apply pass no
 * features at all and never set the freewheeling port, yet want exact output at any speed.
 */
#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanehost/lanehost_guest.h"
#include "lanehost/lanehost_ring.h"

#define BIQUAD_URI "https://lanehost.dev/lv2/biquad"
#define FRAME_BYTES sizeof(float)
#define DEFAULT_LEAD 1024u
#define MIN_LEAD 64u
#define MAX_LEAD 65536u
/* A gate call that takes longer than this has found a stuck runtime: the host gets silence instead of a hang. */
#define GATE_TIMEOUT_NANOS INT64_C(10000000000)

enum port {
    PORT_IN, PORT_OUT, PORT_CUTOFF, PORT_Q, PORT_LEAD, PORT_HOLD, PORT_FREEWHEEL,
    PORT_LATENCY, PORT_UNDERRUN_FRAMES, PORT_DROPPED_FRAMES, PORT_WAITS, PORT_COUNT
};

/* The controls ring's record: ControlRecord.java has the same layout. */
typedef struct lv2_biquad_record {
    uint64_t position;
    float cutoff;
    float q;
    uint32_t hold;
    uint32_t unused32;
    uint64_t unused64;
} lv2_biquad_record;
_Static_assert(sizeof(lv2_biquad_record) == 32, "ControlRecord.LENGTH");
_Static_assert(offsetof(lv2_biquad_record, cutoff) == 8, "ControlRecord.CUTOFF_OFFSET");
_Static_assert(offsetof(lv2_biquad_record, q) == 12, "ControlRecord.Q_OFFSET");
_Static_assert(offsetof(lv2_biquad_record, hold) == 16, "ControlRecord.HOLD_OFFSET");

enum ring_index { CAPTURE, CONTROLS, PLAYBACK, RING_COUNT };
static const char *const RING_NAMES[RING_COUNT] = {"capture", "controls", "playback"};
enum gate_index { GATE_ACTIVATE, GATE_PUMP, GATE_STOP, GATE_COUNT };
static const char *const GATE_NAMES[GATE_COUNT] = {"activate", "pump", "stop"};

typedef struct biquad {
    lanehost_guest *guest;
    const lanehost_api *api;
    uint64_t ring_handles[RING_COUNT];
    lanehost_ring rings[RING_COUNT];
    uint64_t gates[GATE_COUNT];
    int offline_host; /* no urid:map: may wait even when the freewheeling port is off */
    float *ports[PORT_COUNT];

    /* Written by activate() and run() only, which the host never calls at once. */
    uint32_t lead;
    uint64_t position;    /* frames written into the capture ring since activate() */
    uint64_t consumed;    /* frames read from the playback ring since activate(), dropped ones included */
    uint64_t owed;        /* silence frames played and not yet matched by a dropped late frame */
    uint64_t hold_position;
    float sent_cutoff, sent_q;
    uint32_t sent_hold;
    uint64_t underrun_frames, dropped_frames, waits, capture_lost;
} biquad;

static const lanehost_guest_options OPTIONS = {
    LANEHOST_GUEST_OPTIONS_HEAD, (const void *)&lv2_descriptor, "dev.lanehost.samples.lv2.BiquadSetup", NULL, NULL};

static float port_or(const biquad *self, enum port port, float otherwise) {
    return self->ports[port] != NULL ? *self->ports[port] : otherwise;
}

static void set_output(biquad *self, enum port port, double value) {
    if (self->ports[port] != NULL) {
        *self->ports[port] = (float)value;
    }
}

/* A blocking gate call with a CBOR argument; OK or the status, said on stderr (never from real-time run()). */
static int32_t call_gate(biquad *self, enum gate_index gate, const uint8_t *args, uint64_t length) {
    uint8_t result[64];
    uint64_t result_length = 0;
    int32_t status = self->api->gate_call(self->gates[gate], args, length, result, sizeof result, &result_length,
                                          GATE_TIMEOUT_NANOS);
    if (status != LANEHOST_OK) {
        char sentence[512];
        uint64_t sentence_length = 0;
        self->api->last_error(sentence, sizeof sentence, &sentence_length);
        fprintf(stderr, "lanehost biquad %s: gate %s answered %d: %s\n", lanehost_guest_name(self->guest),
                GATE_NAMES[gate], status, sentence);
    }
    return status;
}

static const uint8_t CBOR_NULL[] = {0xf6};

static void put_be32(uint8_t *at, uint32_t value) {
    at[0] = (uint8_t)(value >> 24);
    at[1] = (uint8_t)(value >> 16);
    at[2] = (uint8_t)(value >> 8);
    at[3] = (uint8_t)value;
}

static void put_float(uint8_t *at, float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    at[0] = 0xfa; /* CBOR single-precision float */
    put_be32(at + 1, bits);
}

static void cleanup(LV2_Handle handle);

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate, const char *bundle_path,
                              const LV2_Feature *const *features) {
    (void)descriptor;
    (void)bundle_path; /* the guest finds the bundle itself, from this library's own path */
    biquad *self = calloc(1, sizeof *self);
    if (self == NULL) {
        return NULL;
    }
    self->offline_host = 1;
    for (int i = 0; features != NULL && features[i] != NULL; i++) {
        if (strcmp(features[i]->URI, LV2_URID__map) == 0) {
            self->offline_host = 0;
        }
    }
    char rate_argument[64];
    snprintf(rate_argument, sizeof rate_argument, "sample_rate=%.17g", rate);
    const char *arguments[] = {rate_argument, NULL};
    if (lanehost_guest_instantiate(&OPTIONS, arguments, &self->guest) != LANEHOST_OK) {
        fprintf(stderr, "lanehost biquad: %s\n", lanehost_guest_last_error());
        free(self);
        return NULL;
    }
    self->api = lanehost_guest_api(self->guest);
    char name[LANEHOST_GUEST_NAME_CAPACITY];
    int32_t status = LANEHOST_OK;
    for (int i = 0; status == LANEHOST_OK && i < RING_COUNT; i++) {
        void *memory = NULL;
        uint64_t length = 0;
        lanehost_guest_exported(self->guest, RING_NAMES[i], name, sizeof name);
        status = self->api->ring_lookup(name, &self->ring_handles[i], &memory, &length);
        if (status == LANEHOST_OK && lanehost_ring_wrap(&self->rings[i], memory, length) != LANEHOST_RING_OK) {
            status = LANEHOST_INTERNAL_ERROR;
        }
    }
    for (int i = 0; status == LANEHOST_OK && i < GATE_COUNT; i++) {
        lanehost_guest_exported(self->guest, GATE_NAMES[i], name, sizeof name);
        status = self->api->gate_lookup(name, &self->gates[i]);
    }
    if (status != LANEHOST_OK) {
        fprintf(stderr, "lanehost biquad: looking up %s answered %d\n", name, status);
        cleanup(self);
        return NULL;
    }
    return self;
}

static void connect_port(LV2_Handle handle, uint32_t port, void *data) {
    biquad *self = handle;
    if (port < PORT_COUNT) {
        self->ports[port] = data;
    }
}

static void activate(LV2_Handle handle) {
    biquad *self = handle;
    call_gate(self, GATE_STOP, CBOR_NULL, sizeof CBOR_NULL); /* no frame reaches the playback ring from here on */
    uint8_t scratch[4096];
    while (lanehost_ring_readable(&self->rings[PLAYBACK]) > 0) {
        lanehost_ring_read(&self->rings[PLAYBACK], scratch, sizeof scratch);
    }
    float lead = nearbyintf(port_or(self, PORT_LEAD, DEFAULT_LEAD));
    self->lead = lead < MIN_LEAD ? MIN_LEAD : lead > MAX_LEAD ? MAX_LEAD : (uint32_t)lead;
    self->sent_cutoff = port_or(self, PORT_CUTOFF, 1000);
    self->sent_q = port_or(self, PORT_Q, 0.707f);
    self->sent_hold = 0;
    self->position = self->consumed = self->owed = 0;
    uint8_t args[1 + 5 + 5 + 5] = {0x83, 0x1a}; /* [lead (uint32), cutoff, q] */
    put_be32(args + 2, self->lead);
    put_float(args + 6, self->sent_cutoff);
    put_float(args + 11, self->sent_q);
    call_gate(self, GATE_ACTIVATE, args, sizeof args); /* returns once the lead is primed: no start-up underrun */
    set_output(self, PORT_LATENCY, self->lead);
}

/* Step 1. A full controls ring keeps the change for the next run(). */
static void send_controls(biquad *self) {
    float cutoff = port_or(self, PORT_CUTOFF, self->sent_cutoff);
    float q = port_or(self, PORT_Q, self->sent_q);
    uint32_t hold = port_or(self, PORT_HOLD, 0) > 0.5f;
    if (cutoff == self->sent_cutoff && q == self->sent_q && hold == self->sent_hold) {
        return;
    }
    lv2_biquad_record record = {self->position, cutoff, q, hold, 0, 0};
    if (lanehost_ring_write_frames(&self->rings[CONTROLS], &record, 1, sizeof record) == 1) {
        if (hold && !self->sent_hold) {
            self->hold_position = self->position;
        }
        self->sent_cutoff = cutoff;
        self->sent_q = q;
        self->sent_hold = hold;
    }
}

static uint64_t playback_frames(const biquad *self) {
    return lanehost_ring_readable(&self->rings[PLAYBACK]) / FRAME_BYTES;
}

/* Step 3: the frames this run needs that the effect will write (a held effect writes none past its hold). */
static void wait_for_effect(biquad *self, uint32_t frames) {
    uint64_t need = self->owed + frames;
    if (self->sent_hold) {
        uint64_t will_exist = self->lead + self->hold_position;
        uint64_t can_come = will_exist > self->consumed ? will_exist - self->consumed : 0;
        need = need < can_come ? need : can_come;
    }
    if (playback_frames(self) < need) {
        self->waits++;
        call_gate(self, GATE_PUMP, CBOR_NULL, sizeof CBOR_NULL);
    }
}

static void run(LV2_Handle handle, uint32_t frames) {
    biquad *self = handle;
    float *in = self->ports[PORT_IN];
    float *out = self->ports[PORT_OUT];
    send_controls(self);
    if (frames > 0 && in != NULL && out != NULL) {
        int64_t put = lanehost_ring_write_frames(&self->rings[CAPTURE], in, frames, FRAME_BYTES);
        put = put < 0 ? 0 : put;
        self->capture_lost += frames - (uint64_t)put;
        self->position += (uint64_t)put;
        if (self->offline_host || port_or(self, PORT_FREEWHEEL, 0) > 0.5f) {
            wait_for_effect(self, frames);
        }
        /* Step 4, with the output buffer as scratch: it is written for real in step 5. */
        for (uint64_t late; self->owed > 0 && (late = playback_frames(self)) > 0;) {
            late = late < self->owed ? late : self->owed;
            late = late < frames ? late : frames;
            lanehost_ring_read(&self->rings[PLAYBACK], out, late * FRAME_BYTES);
            self->owed -= late;
            self->consumed += late;
            self->dropped_frames += late;
        }
        int64_t got = lanehost_ring_read_frames(&self->rings[PLAYBACK], out, frames, FRAME_BYTES, 0);
        got = got < 0 ? 0 : got;
        self->consumed += (uint64_t)got;
        self->underrun_frames += frames - (uint64_t)got;
        self->owed += frames - (uint64_t)got;
    }
    set_output(self, PORT_LATENCY, self->lead);
    set_output(self, PORT_UNDERRUN_FRAMES, (double)self->underrun_frames);
    set_output(self, PORT_DROPPED_FRAMES, (double)self->dropped_frames);
    set_output(self, PORT_WAITS, (double)self->waits);
}

static void deactivate(LV2_Handle handle) {
    call_gate(handle, GATE_STOP, CBOR_NULL, sizeof CBOR_NULL);
}

static void cleanup(LV2_Handle handle) {
    biquad *self = handle;
    if (self->gates[GATE_STOP] != 0) {
        call_gate(self, GATE_STOP, CBOR_NULL, sizeof CBOR_NULL); /* no turn touches the rings after this */
    }
    if (self->capture_lost > 0) {
        fprintf(stderr, "lanehost biquad %s: %llu input frames lost (the effect stalled longer than its capture ring)\n",
                lanehost_guest_name(self->guest), (unsigned long long)self->capture_lost);
    }
    /* Java's side first: the rings' memory lives until the references below are given back. */
    if (lanehost_guest_free(self->guest) != LANEHOST_OK) {
        fprintf(stderr, "lanehost biquad: %s\n", lanehost_guest_last_error());
    }
    for (int i = 0; i < RING_COUNT; i++) {
        if (self->ring_handles[i] != 0) {
            self->api->ring_release(self->ring_handles[i]);
        }
    }
    free(self);
}

static const LV2_Descriptor DESCRIPTOR = {
    BIQUAD_URI, instantiate, connect_port, activate, run, deactivate, cleanup, NULL};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index == 0 ? &DESCRIPTOR : NULL;
}
