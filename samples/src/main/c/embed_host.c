/*
 * embed_host.c - the C-first way in, as a program a user would write: it starts a JVM inside itself with
 * liblanehost_embed (lanehost_embed.h), lets the Java class dev.lanehost.samples.EmbedSetup export a lane and
 * a gate, then runs its own 60 Hz loop on its main thread: every frame drives the lane "frame" (bounded to 8
 * turns) and every 30th frame asks the gate "score" for the game's score with a CBOR map.
 *
 *     usage: embed_host <class path> [frames, default 300]
 *
 * The class path must hold lanehost and the setup class; samples/target/lanehost-demo.jar holds both.
 * JAVA_HOME names the JDK (25+) whose libjvm is loaded.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lanehost/lanehost_embed.h"

#define NANOS_PER_SECOND INT64_C(1000000000)
#define RATE_HZ 60
#define MAX_TURNS 8

static void sleep_until(const struct timespec *at) {
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, at, NULL) == EINTR) {
    }
}

static void advance(struct timespec *at, int64_t nanos) {
    at->tv_nsec += nanos;
    while (at->tv_nsec >= NANOS_PER_SECOND) {
        at->tv_nsec -= NANOS_PER_SECOND;
        at->tv_sec++;
    }
}

/* {"frame": n} in CBOR, for n < 65536: a map of one pair, a 5-byte text key, an unsigned integer. */
static size_t encode_query(uint8_t *out, uint32_t frame) {
    size_t n = 0;
    out[n++] = 0xA1;
    out[n++] = 0x65;
    memcpy(out + n, "frame", 5);
    n += 5;
    if (frame < 24) {
        out[n++] = (uint8_t)frame;
    } else if (frame < 256) {
        out[n++] = 0x18;
        out[n++] = (uint8_t)frame;
    } else {
        out[n++] = 0x19;
        out[n++] = (uint8_t)(frame >> 8);
        out[n++] = (uint8_t)frame;
    }
    return n;
}

/* The unsigned integer a CBOR result holds, or -1 for anything else. */
static int64_t decode_unsigned(const uint8_t *in, uint64_t length) {
    if (length == 0 || in[0] >> 5 != 0) return -1;
    const uint8_t info = in[0] & 31;
    if (info < 24) return length == 1 ? info : -1;
    const uint64_t bytes = info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : 0;
    if (bytes == 0 || length != 1 + bytes) return -1;
    uint64_t value = 0;
    for (uint64_t i = 0; i < bytes; i++) value = value << 8 | in[1 + i];
    return value > INT64_MAX ? -1 : (int64_t)value;
}

static void print_last_error(const lanehost_api *api, const char *what, int32_t status) {
    char text[256];
    uint64_t length = 0;
    api->last_error(text, sizeof text, &length);
    fprintf(stderr, "embed_host: %s: %s: %s\n", what, lanehost_status_name(status), text);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s <class path> [frames, default 300]\n", argv[0]);
        return 2;
    }
    const long frames = argc == 3 ? strtol(argv[2], NULL, 10) : 300;
    if (frames <= 0 || frames > 1000000) {
        fprintf(stderr, "embed_host: frames must be 1..1000000, got '%s'\n", argv[2]);
        return 2;
    }

    lanehost_embed_options options = LANEHOST_EMBED_OPTIONS_INIT;
    options.class_path = argv[1];
    options.setup_class = "dev.lanehost.samples.EmbedSetup";
    lanehost_embed *embed;
    const lanehost_api *api;
    int32_t status = lanehost_embed_start(&options, &embed, &api);
    if (status != LANEHOST_OK) {
        fprintf(stderr, "embed_host: lanehost_embed_start: %s: %s\n", lanehost_status_name(status),
                lanehost_embed_last_error());
        return 1;
    }
    printf("embed_host: JVM started, lanehost table version %u; %ld frames at %d Hz\n", api->abi_version, frames,
           RATE_HZ);

    uint64_t lane = 0;
    uint64_t gate = 0;
    status = api->lane_lookup("frame", &lane);
    if (status != LANEHOST_OK) print_last_error(api, "lane_lookup(\"frame\")", status);
    if (status == LANEHOST_OK) {
        status = api->gate_lookup("score", &gate);
        if (status != LANEHOST_OK) print_last_error(api, "gate_lookup(\"score\")", status);
    }

    long turns = 0;
    long failed_drives = 0;
    long calls_ok = 0;
    int64_t score = -1;
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    for (long frame = 0; status == LANEHOST_OK && frame < frames; frame++) {
        advance(&deadline, NANOS_PER_SECOND / RATE_HZ);
        sleep_until(&deadline);
        lanehost_drive_counts counts;
        const int32_t drive = api->lane_drive(lane, MAX_TURNS, &counts);
        if (drive == LANEHOST_OK) {
            turns += counts.turns;
        } else if (failed_drives++ == 0) {
            print_last_error(api, "lane_drive", drive);
        }
        if (frame % 30 == 29) {
            uint8_t query[16];
            uint8_t result[16];
            uint64_t result_length = 0;
            /* The actor lives on the lane this thread drives: call_on_lane runs the call right here, inside this
               frame (the blocking gate_call would wait for a drive that this very thread has to make). */
            const int32_t call = api->gate_call_on_lane(gate, lane, query, encode_query(query, (uint32_t)frame), result,
                                                        sizeof result, &result_length, 0);
            if (call == LANEHOST_OK && (score = decode_unsigned(result, result_length)) >= 0) {
                calls_ok++;
                printf("embed_host: frame %ld: score %lld\n", frame + 1, (long long)score);
            } else {
                print_last_error(api, "gate_call_on_lane(\"score\")", call);
            }
        }
    }
    printf("embed_host: %ld frames, %ld turns, %ld drives failed, %ld score calls answered, final score %lld\n",
           frames, turns, failed_drives, calls_ok, (long long)score);

    const int32_t stopped = lanehost_embed_stop(embed);
    const int32_t shut_down = lanehost_embed_shutdown();
    if (stopped != LANEHOST_OK || shut_down != LANEHOST_OK) {
        fprintf(stderr, "embed_host: stop %s, shutdown %s: %s\n", lanehost_status_name(stopped),
                lanehost_status_name(shut_down), lanehost_embed_last_error());
        return 1;
    }
    return status == LANEHOST_OK && failed_drives == 0 && calls_ok == frames / 30 ? 0 : 1;
}
