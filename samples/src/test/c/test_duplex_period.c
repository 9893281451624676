/*
 * test_duplex_period.c - the duplex client's period (duplex_period.h) without a JACK server: this test plays both the
 * callback (lanehost_duplex_period, one call a period) and the effect (it moves every captured frame into the playback
 * ring after each period, unless it is held), so every interleaving is fixed and nothing is timed.
 *
 * The effect is the identity and input frame s is s + 1, so a frame played with value v > 0 is the input of slot
 * v - 1 and its delay is its own slot less that; silence is 0. Each case reads the monitor ring back as
 * DuplexMonitor does and checks the delay and the counters exactly.
 */
#include "duplex_period.h"

#include <stdio.h>
#include <stdlib.h>

#define PERIOD 64u
#define LEAD_PERIODS 3u
#define LEAD (PERIOD * LEAD_PERIODS)
#define AUDIO_RING_BYTES 4096u       /* 1,024 frames: room for the lead and a hold of several periods */
#define MONITOR_RING_BYTES (1u << 16) /* 4,096 monitor frames: every period a case plays */

static int failures;

#define CHECK(condition, ...)                                                    \
    do {                                                                         \
        if (!(condition)) {                                                      \
            failures++;                                                          \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #condition);      \
            fprintf(stderr, __VA_ARGS__);                                        \
            fputc('\n', stderr);                                                 \
        }                                                                        \
    } while (0)

typedef struct fixture {
    void *memory[3];
    lanehost_duplex_frame monitor_frames[PERIOD];
    lanehost_duplex duplex;
    uint64_t slot; /* the next period's first slot */
    int held;
} fixture;

static void ring(fixture *f, int index, lanehost_ring *ring, uint64_t capacity) {
    f->memory[index] = aligned_alloc(LANEHOST_RING_ALIGNMENT, LANEHOST_RING_MEMORY_LENGTH(capacity));
    if (f->memory[index] == NULL || lanehost_ring_init(ring, f->memory[index], LANEHOST_RING_MEMORY_LENGTH(capacity),
                                                       capacity) != LANEHOST_RING_OK) {
        fprintf(stderr, "could not make a ring of %llu bytes\n", (unsigned long long)capacity);
        exit(1);
    }
}

/* The rings, and the lead primed with silence as DuplexEffect's first turn does. */
static void open_fixture(fixture *f) {
    *f = (fixture){0};
    ring(f, 0, &f->duplex.capture, AUDIO_RING_BYTES);
    ring(f, 1, &f->duplex.playback, AUDIO_RING_BYTES);
    ring(f, 2, &f->duplex.monitor, MONITOR_RING_BYTES);
    f->duplex.monitor_frames = f->monitor_frames;
    f->duplex.monitor_frames_length = PERIOD;
    const float silence[LEAD] = {0};
    lanehost_ring_write(&f->duplex.playback, silence, sizeof silence);
}

static void close_fixture(fixture *f) {
    for (int i = 0; i < 3; i++) free(f->memory[i]);
}

/* The effect's turn: up to `frames` captured frames through the identity into the playback ring. */
static void effect_moves(fixture *f, uint64_t frames) {
    float chunk[PERIOD];
    while (frames > 0) {
        uint64_t n = lanehost_ring_readable(&f->duplex.capture) / sizeof(float);
        n = n < frames ? n : frames;
        n = n < PERIOD ? n : PERIOD;
        if (n == 0) return;
        lanehost_ring_read(&f->duplex.capture, chunk, n * sizeof(float));
        lanehost_ring_write(&f->duplex.playback, chunk, n * sizeof(float));
        frames -= n;
    }
}

/* One callback period, then the effect's turn unless it is held. */
static void period(fixture *f) {
    float in[PERIOD];
    float out[PERIOD];
    for (uint32_t i = 0; i < PERIOD; i++) in[i] = (float)(f->slot + i + 1);
    lanehost_duplex_period(&f->duplex, in, out, PERIOD);
    f->slot += PERIOD;
    if (!f->held) effect_moves(f, UINT64_MAX);
}

/* What the monitor ring says: the delay of the last input played, silence played and late frames dropped. */
typedef struct monitor_reading {
    uint64_t slots;
    int64_t last_delay;
    int64_t max_delay;
    uint64_t silence;
    uint64_t dropped;
    uint64_t out_of_order; /* inputs played out of order or twice */
} monitor_reading;

static monitor_reading read_monitor(fixture *f) {
    monitor_reading r = {.last_delay = -1, .max_delay = -1};
    uint64_t last_input = 0; /* the last input slot played, plus one */
    lanehost_duplex_frame frame;
    while (lanehost_ring_read(&f->duplex.monitor, &frame, sizeof frame) == (int64_t)sizeof frame) {
        r.dropped += frame.dropped_before;
        if (!(frame.flags & LANEHOST_DUPLEX_PLAYED)) {
            r.silence++;
        } else if (frame.out > 0) {
            const uint64_t input = (uint64_t)frame.out; /* input slot + 1 */
            if (input <= last_input) r.out_of_order++;
            last_input = input;
            r.last_delay = (int64_t)r.slots - (int64_t)(input - 1);
            if (r.last_delay > r.max_delay) r.max_delay = r.last_delay;
        }
        r.slots++;
    }
    return r;
}

static uint64_t counter(_Atomic uint64_t *c) {
    return atomic_load_explicit(c, memory_order_relaxed);
}

/* Held for five periods with three in the playback ring: two periods of silence, then the delay is the lead again. */
static void lateFramesDroppedAfterAnUnderrunBringTheDelayBackToTheLead(void) {
    fixture f;
    open_fixture(&f);
    for (int i = 0; i < 10; i++) period(&f);
    f.held = 1;
    for (int i = 0; i < 5; i++) period(&f);
    f.held = 0;
    effect_moves(&f, UINT64_MAX); /* the effect catches up before the next period */
    for (int i = 0; i < 10; i++) period(&f);
    const monitor_reading r = read_monitor(&f);
    CHECK(r.slots == 25 * PERIOD, "%llu slots", (unsigned long long)r.slots);
    CHECK(r.silence == 2 * PERIOD, "silence played: %llu frames", (unsigned long long)r.silence);
    CHECK(counter(&f.duplex.underrun_frames) == 2 * PERIOD, "underrun_frames %llu",
          (unsigned long long)counter(&f.duplex.underrun_frames));
    CHECK(r.dropped == r.silence, "late frames dropped %llu, silence played %llu", (unsigned long long)r.dropped,
          (unsigned long long)r.silence);
    CHECK(counter(&f.duplex.dropped_late_frames) == r.dropped, "dropped_late_frames %llu",
          (unsigned long long)counter(&f.duplex.dropped_late_frames));
    CHECK(r.last_delay == LEAD, "the delay after the underrun: %lld frames, the lead is %u", (long long)r.last_delay, LEAD);
    CHECK(r.max_delay == LEAD, "the delay never grew: max %lld frames", (long long)r.max_delay);
    CHECK(r.out_of_order == 0, "%llu inputs played out of order or twice", (unsigned long long)r.out_of_order);
    CHECK(f.duplex.owed == 0, "still owed: %llu", (unsigned long long)f.duplex.owed);
    CHECK(lanehost_ring_underrun_count(&f.duplex.playback) == 2, "underruns in the ring's header: %llu",
          (unsigned long long)lanehost_ring_underrun_count(&f.duplex.playback));
    close_fixture(&f);
}

/* The late frames come back a little at a time (the effect moves 16 frames a turn for a while): each period drops what
   has come, the rest stays owed and is played as silence meanwhile, and once the effect has caught up the delay is the
   lead again. */
static void lateFramesThatComeBackInPiecesAreDroppedAsTheyCome(void) {
    fixture f;
    open_fixture(&f);
    for (int i = 0; i < 4; i++) period(&f);
    f.held = 1;
    for (int i = 0; i < 4; i++) period(&f);
    for (int i = 0; i < 6; i++) {
        period(&f);
        effect_moves(&f, 16);
    }
    f.held = 0;
    for (int i = 0; i < 10; i++) period(&f);
    const monitor_reading r = read_monitor(&f);
    CHECK(r.silence > PERIOD, "silence played: %llu frames", (unsigned long long)r.silence);
    CHECK(r.dropped == r.silence, "late frames dropped %llu, silence played %llu", (unsigned long long)r.dropped,
          (unsigned long long)r.silence);
    CHECK(counter(&f.duplex.underrun_frames) == r.silence && counter(&f.duplex.dropped_late_frames) == r.dropped,
          "counters %llu / %llu", (unsigned long long)counter(&f.duplex.underrun_frames),
          (unsigned long long)counter(&f.duplex.dropped_late_frames));
    CHECK(r.last_delay == LEAD, "the delay after the underruns: %lld frames, the lead is %u", (long long)r.last_delay,
          LEAD);
    CHECK(r.max_delay == LEAD, "the delay never grew: max %lld frames", (long long)r.max_delay);
    CHECK(r.out_of_order == 0, "%llu inputs played out of order or twice", (unsigned long long)r.out_of_order);
    close_fixture(&f);
}

int main(void) {
    lateFramesDroppedAfterAnUnderrunBringTheDelayBackToTheLead();
    printf("%s lateFramesDroppedAfterAnUnderrunBringTheDelayBackToTheLead\n", failures ? "FAILED" : "ok");
    const int before = failures;
    lateFramesThatComeBackInPiecesAreDroppedAsTheyCome();
    printf("%s lateFramesThatComeBackInPiecesAreDroppedAsTheyCome\n", failures > before ? "FAILED" : "ok");
    return failures == 0 ? 0 : 1;
}
