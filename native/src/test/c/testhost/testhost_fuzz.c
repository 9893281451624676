/*
 * testhost_fuzz.c - every member of the host function table, called from several pthreads at once with
 * random and adversarial arguments, checking that each answer is a lanehost_status and that every failure
 * leaves a last_error sentence.
 *
 * One rule holds for every argument, because a C API cannot detect a wild pointer: a pointer is NULL, one no
 * process maps memory at (below 4096 or from 2^56 up: -1, 0xdeadbeef00000000, 8), or real memory of at least the
 * length passed with it. A length may still exceed its buffer when it is past the documented cap (64 MiB of gate
 * arguments, 16 MiB of signal payload) or negative as int64: the entries refuse those before reading a byte.
 * Handles are forged too: a real one with up to three bits flipped or one added or taken, stale ones (released
 * long ago), and well-formed ones (a valid check byte) of another instance, a later generation or an unused slot;
 * none may ever reach an object, so a ring reference forged from one this thread holds must be refused.
 *
 * A run:
 *  1. starts thread 0, the lane's driver: it looks the targets up and drives the lane once, binding it;
 *  2. then starts the other threads, which look the targets up too;
 *  3. each thread makes its calls, checking last_error after each one, then releases the rings it holds;
 *  4. thread 0 keeps driving the lane until every other thread has finished, so a blocking call to the
 *     lane's gate with any timeout is answered;
 *  5. the threads' reports are summed.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lanehost/lanehost_testhost.h"

_Static_assert(sizeof(lanehost_testhost_fuzz_report) == 264, "TestHost.FUZZ_REPORT reads 264 bytes");
_Static_assert(offsetof(lanehost_testhost_fuzz_report, invalid_statuses) == 208, "TestHost.FUZZ_REPORT's layout");
_Static_assert(offsetof(lanehost_testhost_fuzz_report, first_invalid_status) == 240, "TestHost.FUZZ_REPORT's layout");

/* Table members in the table's order: the indexes of by_entry. */
enum entry {
    LANE_LOOKUP, LANE_DRIVE, LANE_BIND, LANE_RELEASE, THREAD_WARM_UP, GATE_LOOKUP, GATE_CALL, GATE_CALL_ON_LANE,
    SIGNAL_LOOKUP, SIGNAL_FIRE, RING_LOOKUP, RING_RELEASE, LAST_ERROR
};
_Static_assert(LAST_ERROR + 1 == LANEHOST_TESTHOST_FUZZ_ENTRIES, "one index per member");

enum kind { KIND_LANE, KIND_GATE, KIND_SIGNAL, KIND_RING, KINDS };

#define MAX_THREADS 64u
#define MAX_ARGS_BYTES (UINT64_C(64) << 20)    /* HostEntries.MAX_ARGS_BYTES */
#define MAX_PAYLOAD_BYTES (UINT64_C(16) << 20) /* HostEntries.MAX_PAYLOAD_BYTES */
#define NO_CAP ((uint64_t)INT64_MAX)            /* a capacity without a documented cap: only negative is refused */
#define NEGATIVE (UINT64_C(1) << 63)
#define ARGS_BUFFER 4096u
/* The echo gate wraps its arguments in a one-entry map: a few bytes more than ARGS_BUFFER at most. */
#define RESULT_BUFFER 8192u
#define NAME_BUFFER 512u /* well past the 257 bytes an entry reads before refusing a name */
#define ERROR_BUFFER 1024u
#define HELD_RINGS 4u

typedef struct fuzz_run {
    const lanehost_api *api;
    uint64_t calls_per_thread;
    uint64_t seed;
    uint8_t *at_cap; /* MAX_ARGS_BYTES zero bytes for the calls exactly at a cap; NULL skips them */
    void *guarded;             /* two pages, the second unmapped */
    const char *unterminated;  /* 100 'a's without NUL at the end of the first page, then the unmapped one */
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    int lane_bound;                /* guarded by mutex: thread 0 has made its first drive */
    _Atomic int all_started;       /* no more threads will start */
    _Atomic uint32_t others_started;
    _Atomic uint32_t others_finished;
} fuzz_run;

typedef struct fuzz_thread {
    fuzz_run *run;
    pthread_t thread;
    uint32_t index;
    uint64_t random;
    /* Real handles this thread looked up (0 when the name is not exported). */
    uint64_t lane, echo_gate, throwing_gate, lane_gate, signal, one_shot;
    uint64_t held_rings[HELD_RINGS];
    uint32_t held_count;
    uint64_t released_ring; /* the last reference this thread released; releasing it again must be refused */
    lanehost_testhost_fuzz_report report;
    uint64_t out[3];
    lanehost_drive_counts counts;
    uint8_t args[ARGS_BUFFER];
    uint8_t result[RESULT_BUFFER];
    char name[NAME_BUFFER];
    char error[ERROR_BUFFER];
} fuzz_thread;

/* ---------------------------------------------------------------- randomness */

static uint64_t next(fuzz_thread *t) {
    uint64_t x = t->random; /* xorshift64*, as in testhost.c */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    t->random = x;
    return x * UINT64_C(2685821657736338717);
}

static uint64_t below(fuzz_thread *t, uint64_t bound) {
    return bound == 0 ? 0 : next(t) % bound;
}

/* ---------------------------------------------------------------- recording answers */

static int valid_status(int32_t status) {
    return status >= LANEHOST_OK && status <= LANEHOST_INTERNAL_ERROR;
}

static void count(fuzz_thread *t, enum entry entry, int32_t status) {
    lanehost_testhost_fuzz_report *r = &t->report;
    r->calls++;
    r->by_entry[entry]++;
    if (valid_status(status)) {
        r->by_status[status]++;
    } else if (r->invalid_statuses++ == 0) {
        r->first_invalid_status = status;
        r->first_invalid_entry = entry;
    }
}

static void wrong_answer(fuzz_thread *t, enum entry entry, int32_t status) {
    lanehost_testhost_fuzz_report *r = &t->report;
    if (r->wrong_answers++ == 0) {
        r->first_wrong_answer_status = status;
        r->first_wrong_answer_entry = entry;
    }
}

/*
 * After a failure last_error must say something: OK, a length > 0, and a NUL-terminated copy of that length
 * (cut to the buffer). After a success it must say nothing.
 */
static void check_last_error(fuzz_thread *t, enum entry entry, int32_t status) {
    uint64_t length = UINT64_MAX;
    memset(t->error, 0x7F, sizeof t->error);
    int32_t got = t->run->api->last_error(t->error, sizeof t->error, &length);
    count(t, LAST_ERROR, got);
    if (status == LANEHOST_OK) {
        if (got != LANEHOST_OK) {
            wrong_answer(t, LAST_ERROR, got);
        } else if (length != 0 || t->error[0] != '\0') {
            t->report.stale_errors++;
        }
        return;
    }
    uint64_t expected = length < sizeof t->error - 1 ? length : sizeof t->error - 1;
    int described = got == LANEHOST_OK && length > 0 && length != UINT64_MAX &&
                    memchr(t->error, '\0', sizeof t->error) == t->error + expected;
    if (!described && t->report.missing_errors++ == 0) {
        t->report.first_missing_error_status = status;
        t->report.first_missing_error_entry = entry;
    }
}

/* Every answer passes through here: counted, and last_error checked if the status is one at all. */
static int32_t answered(fuzz_thread *t, enum entry entry, int32_t status) {
    count(t, entry, status);
    if (valid_status(status)) check_last_error(t, entry, status);
    return status;
}

/* ---------------------------------------------------------------- arguments */

static const char *const REAL_NAMES[KINDS] = {
    LANEHOST_TESTHOST_FUZZ_LANE, LANEHOST_TESTHOST_FUZZ_ECHO_GATE, LANEHOST_TESTHOST_FUZZ_SIGNAL,
    LANEHOST_TESTHOST_FUZZ_RING,
};

static uint64_t real_handle(fuzz_thread *t, enum kind kind) {
    switch (kind) {
    case KIND_LANE: return t->lane;
    case KIND_GATE: {
        uint64_t gates[3] = {t->echo_gate, t->throwing_gate, t->lane_gate};
        return gates[below(t, 3)];
    }
    case KIND_SIGNAL: return below(t, 4) == 0 ? t->one_shot : t->signal;
    default: return t->held_count > 0 ? t->held_rings[below(t, t->held_count)] : t->released_ring;
    }
}

#define CHECK_BITS LANEHOST_TESTHOST_HANDLE_CHECK_BITS
#define SLOT_BITS LANEHOST_TESTHOST_HANDLE_SLOT_BITS
#define GENERATION_BITS LANEHOST_TESTHOST_HANDLE_GENERATION_BITS
#define SLOT_SHIFT CHECK_BITS
#define GENERATION_SHIFT (SLOT_SHIFT + SLOT_BITS)
#define INSTANCE_SHIFT (GENERATION_SHIFT + GENERATION_BITS)
#define FIELD(bits) ((UINT64_C(1) << (bits)) - 1)

/* `body` (its low byte ignored) with the check byte a table would give it: a well-formed forgery. */
static uint64_t well_formed(uint64_t body) {
    body &= ~FIELD(CHECK_BITS);
    return body | lanehost_testhost_handle_check(body);
}

/* A real handle with 1 to 3 distinct bits flipped (never a handle: handles are four bits apart). */
static uint64_t flipped(fuzz_thread *t, uint64_t real) {
    uint64_t pattern = 0;
    for (uint64_t bits = 1 + below(t, 3); __builtin_popcountll(pattern) < (int)bits;) {
        pattern |= UINT64_C(1) << below(t, 64);
    }
    return real ^ pattern;
}

/*
 * A handle for an entry expecting `kind`: the real one half the time, else 0, random bits, a real handle of
 * another kind, a released ring reference, a corruption of a real one (bits flipped, off by one), or a well-formed
 * forgery with the right kind: another instance (another runtime's table), a generation about half the generation
 * cycle away (2^23 reuses of one slot, far more than any run makes), or a slot index past every slot in use. So a
 * forgery never names a reference another thread holds: those must release OK.
 */
static uint64_t some_handle(fuzz_thread *t, enum kind kind) {
    uint64_t real = real_handle(t, kind);
    uint64_t generation = (real >> GENERATION_SHIFT) & FIELD(GENERATION_BITS);
    uint64_t generation_mask = FIELD(GENERATION_BITS) << GENERATION_SHIFT;
    uint64_t slot_mask = FIELD(SLOT_BITS) << SLOT_SHIFT;
    switch (below(t, 18)) {
    case 0: return 0;
    case 1: return next(t);
    case 2: return real_handle(t, (enum kind)((kind + 1 + below(t, KINDS - 1)) % KINDS));
    case 3: return well_formed((real & ~generation_mask)
                               | (((generation + (FIELD(GENERATION_BITS) + 1) / 2
                                    + below(t, UINT64_C(1) << (GENERATION_BITS - 3))) & FIELD(GENERATION_BITS))
                                  << GENERATION_SHIFT));
    case 4: return well_formed((real & ~slot_mask)
                               | ((((real >> SLOT_SHIFT) + (UINT64_C(1) << (SLOT_BITS - 2))
                                    + below(t, UINT64_C(1) << (SLOT_BITS - 2))) & FIELD(SLOT_BITS)) << SLOT_SHIFT));
    case 5: return well_formed(real ^ ((1 + below(t, FIELD(LANEHOST_TESTHOST_HANDLE_INSTANCE_BITS))) << INSTANCE_SHIFT));
    case 6: return UINT64_MAX - below(t, 3);
    case 7: return t->released_ring;
    case 8: return flipped(t, real);
    case 9: return below(t, 2) == 0 ? real + 1 : real - 1;
    default: return real;
    }
}

/* NULL, an address no process maps memory at, or the pointer itself (most of the time). */
static void *maybe_bad(fuzz_thread *t, void *pointer) {
    switch (below(t, 16)) {
    case 0: return NULL;
    case 1: return (void *)(uintptr_t)UINT64_C(0xdeadbeef00000000);
    case 2: return (void *)(uintptr_t)UINT64_MAX;
    case 3: return (void *)(uintptr_t)(1 + below(t, 4095));
    default: return pointer;
    }
}

/* True for a pointer maybe_bad gave that is real memory. */
static int usable(const void *pointer) {
    uintptr_t address = (uintptr_t)pointer;
    return address >= 4096 && (address >> 56) == 0;
}

/* A length for a buffer of `available` bytes: within it, or past `cap` (refused before any read). */
static uint64_t some_length(fuzz_thread *t, uint64_t available, uint64_t cap) {
    switch (below(t, 12)) {
    case 0: return 0;
    case 1: return available;
    case 2: return cap + 1;
    case 3: return cap + 1 + below(t, UINT32_MAX);
    case 4: return NEGATIVE;
    case 5: return NEGATIVE + below(t, NEGATIVE);
    case 6: return UINT64_MAX;
    default: return 1 + below(t, available);
    }
}

static int32_t some_max_turns(fuzz_thread *t) {
    switch (below(t, 10)) {
    case 0: return 0;
    case 1: return INT32_MAX;
    case 2: return -1;
    case 3: return INT32_MIN;
    case 4: return (int32_t)(uint32_t)next(t);
    default: return 1 + (int32_t)below(t, 16);
    }
}

static int64_t some_timeout(fuzz_thread *t) {
    switch (below(t, 10)) {
    case 0: return 0;
    case 1: return INT64_MAX;
    case 2: return -1;
    case 3: return INT64_MIN;
    case 4: return (int64_t)next(t);
    case 5: return 1 + (int64_t)below(t, 1000000); /* up to a millisecond */
    default: return 1000000000; /* a second: the worker gates answer long before, the lane's once driven */
    }
}

static const char *const BAD_UTF8[] = {
    "\xFF", "\x80", "\xC0\x80", "\xC3", "\xE2\x82", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF8\x88\x80\x80\x80",
    "fuzz.lane\xC3", "fuzz\xFE.echo",
};

static void fill(fuzz_thread *t, char *to, size_t length, int ascii) {
    for (size_t i = 0; i < length; i++) {
        to[i] = ascii ? (char)('a' + below(t, 26)) : (char)(1 + below(t, 255));
    }
    to[length] = '\0';
}

/* A name for a lookup of `kind`: the real one a third of the time, else NULL, empty, too long, unterminated... */
static const char *some_name(fuzz_thread *t, enum kind kind) {
    char *name = t->name;
    switch (below(t, 15)) {
    case 0: return NULL;
    case 1: return "";
    case 2: return REAL_NAMES[(kind + 1 + below(t, KINDS - 1)) % KINDS];
    case 3: fill(t, name, 1 + below(t, LANEHOST_MAX_NAME_BYTES), 1); return name;
    case 4: fill(t, name, LANEHOST_MAX_NAME_BYTES, 1); return name;       /* the longest allowed: unknown */
    case 5: fill(t, name, LANEHOST_MAX_NAME_BYTES + 1, 1); return name;   /* one byte too long */
    case 6: fill(t, name, NAME_BUFFER - 1, 0); return name;               /* no NUL within 256 bytes */
    case 7: return BAD_UTF8[below(t, sizeof BAD_UTF8 / sizeof BAD_UTF8[0])];
    case 8: fill(t, name, 1 + below(t, LANEHOST_MAX_NAME_BYTES), 0); return name;
    case 9: return "\xE5\x90\x8D\xE5\x89\x8D"; /* valid UTF-8, unknown */
    default: return kind == KIND_GATE && below(t, 3) == 0 ? LANEHOST_TESTHOST_FUZZ_LANE_GATE : REAL_NAMES[kind];
    }
}

typedef struct sample {
    const char *bytes;
    size_t length;
} sample;

#define SAMPLE(literal) {literal, sizeof(literal) - 1}

/* Well-formed CBOR the codec accepts, and CBOR crafted to be refused (each a different rule). */
static const sample VALID_CBOR[] = {
    SAMPLE("\x00"), SAMPLE("\x18\x64"), SAMPLE("\x3B\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF"), SAMPLE("\x63" "abc"),
    SAMPLE("\x82\x01\x02"), SAMPLE("\xA1\x61k\x01"), SAMPLE("\xF5"), SAMPLE("\xF6"), SAMPLE("\x44\x01\x02\x03\x04"),
    SAMPLE("\xFB\x40\x09\x21\xFB\x54\x44\x2D\x18"), SAMPLE("\x9F\x01\x02\xFF"), SAMPLE("\xC2\x42\x01\x00"),
    SAMPLE("\xA2\x61" "a" "\x81\x01\x61" "b" "\xA0"),
};
static const sample REFUSED_CBOR[] = {
    SAMPLE("\x5B\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF"), /* a byte string of 2^64 - 1 bytes */
    SAMPLE("\x9B\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF"), /* an array of 2^63 - 1 items */
    SAMPLE("\xBA\x80\x00\x00\x00"),                 /* a map of 2^31 entries */
    SAMPLE("\x7A\xFF\xFF\xFF\xFF"),                 /* a text string of 2^32 - 1 bytes */
    SAMPLE("\x9F\x01\x02"),                          /* indefinite-length, never ended */
    SAMPLE("\x62\xC3\x28"),                          /* text that is not UTF-8 */
    SAMPLE("\xA2\x61" "a" "\x01\x61" "a" "\x02"),   /* a duplicate key */
    SAMPLE("\xA1\x80\x01"),                          /* an array as a key */
    SAMPLE("\xF7"), SAMPLE("\xF8\x20"), SAMPLE("\xFC"), SAMPLE("\xFF"), SAMPLE("\x1C"),
    SAMPLE("\xC1\x1A\x00\x00\x00\x01"),              /* a tag the codec does not take */
    SAMPLE("\xC2\x5B\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF"), /* a bignum of 2^64 - 1 bytes */
    SAMPLE("\x01\x02"),                              /* trailing bytes */
    SAMPLE("\x5F\x41" "a" "\x61" "b" "\xFF"),        /* a text chunk in an indefinite byte string */
};

static uint64_t copy_sample(fuzz_thread *t, const sample *s) {
    memcpy(t->args, s->bytes, s->length);
    return s->length;
}

/* Gate arguments written into t->args; returns their length (at most ARGS_BUFFER). */
static uint64_t some_cbor(fuzz_thread *t) {
    switch (below(t, 10)) {
    case 0:
    case 1:
    case 2: return copy_sample(t, &VALID_CBOR[below(t, sizeof VALID_CBOR / sizeof VALID_CBOR[0])]);
    case 3: return copy_sample(t, &REFUSED_CBOR[below(t, sizeof REFUSED_CBOR / sizeof REFUSED_CBOR[0])]);
    case 4: { /* nested arrays around a 0: past the depth limit half the time */
        uint64_t depth = 1 + below(t, 128);
        memset(t->args, 0x81, depth);
        t->args[depth] = 0;
        return depth + 1;
    }
    case 5: { /* a valid sample cut short */
        const sample *s = &VALID_CBOR[below(t, sizeof VALID_CBOR / sizeof VALID_CBOR[0])];
        uint64_t length = copy_sample(t, s);
        return length > 1 ? 1 + below(t, length - 1) : length;
    }
    case 6: { /* a valid sample with one byte changed */
        uint64_t length = copy_sample(t, &VALID_CBOR[below(t, sizeof VALID_CBOR / sizeof VALID_CBOR[0])]);
        t->args[below(t, length)] = (uint8_t)next(t);
        return length;
    }
    default: { /* random bytes */
        uint64_t length = 1 + below(t, below(t, 2) == 0 ? 16 : ARGS_BUFFER);
        for (uint64_t i = 0; i < length; i++) t->args[i] = (uint8_t)next(t);
        return length;
    }
    }
}

/* ---------------------------------------------------------------- the calls */

static void lookup_targets(fuzz_thread *t) {
    const lanehost_api *api = t->run->api;
    struct {
        enum entry entry;
        int32_t (*lookup)(const char *, uint64_t *);
        const char *name;
        uint64_t *out;
        int must_exist;
    } targets[] = {
        {LANE_LOOKUP, api->lane_lookup, LANEHOST_TESTHOST_FUZZ_LANE, &t->lane, 1},
        {GATE_LOOKUP, api->gate_lookup, LANEHOST_TESTHOST_FUZZ_ECHO_GATE, &t->echo_gate, 1},
        {GATE_LOOKUP, api->gate_lookup, LANEHOST_TESTHOST_FUZZ_THROWING_GATE, &t->throwing_gate, 1},
        {GATE_LOOKUP, api->gate_lookup, LANEHOST_TESTHOST_FUZZ_LANE_GATE, &t->lane_gate, 1},
        {SIGNAL_LOOKUP, api->signal_lookup, LANEHOST_TESTHOST_FUZZ_SIGNAL, &t->signal, 1},
        /* Another thread may already have fired the one-shot, which leaves the table. */
        {SIGNAL_LOOKUP, api->signal_lookup, LANEHOST_TESTHOST_FUZZ_ONE_SHOT_SIGNAL, &t->one_shot, 0},
    };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        *targets[i].out = 0;
        int32_t status = answered(t, targets[i].entry, targets[i].lookup(targets[i].name, targets[i].out));
        if (status != LANEHOST_OK) {
            *targets[i].out = 0;
            if (targets[i].must_exist) wrong_answer(t, targets[i].entry, status);
        }
    }
}

static void release_ring(fuzz_thread *t, uint32_t slot) {
    uint64_t reference = t->held_rings[slot];
    t->held_rings[slot] = t->held_rings[--t->held_count];
    int32_t status = answered(t, RING_RELEASE, t->run->api->ring_release(reference));
    if (status != LANEHOST_OK) wrong_answer(t, RING_RELEASE, status);
    t->released_ring = reference;
}

static void call_ring_lookup(fuzz_thread *t) {
    const char *name = some_name(t, KIND_RING);
    uint64_t *ring_out = maybe_bad(t, &t->out[0]);
    void *memory = NULL;
    void **memory_out = maybe_bad(t, &memory);
    uint64_t *length_out = maybe_bad(t, &t->out[1]);
    int32_t status = answered(t, RING_LOOKUP, t->run->api->ring_lookup(name, ring_out, memory_out, length_out));
    int real = name != NULL && strcmp(name, LANEHOST_TESTHOST_FUZZ_RING) == 0;
    if (real && usable(ring_out) && usable(memory_out) && usable(length_out) && status != LANEHOST_OK) {
        wrong_answer(t, RING_LOOKUP, status);
    }
    if (status != LANEHOST_OK) return;
    lanehost_ring ring;
    if (lanehost_ring_wrap(&ring, memory, *length_out) != LANEHOST_RING_OK) wrong_answer(t, RING_LOOKUP, status);
    t->held_rings[t->held_count++] = *ring_out;
    if (t->held_count == HELD_RINGS) release_ring(t, (uint32_t)below(t, HELD_RINGS));
}

static void call_ring_release(fuzz_thread *t) {
    if (t->held_count > 0 && below(t, 2) == 0) {
        release_ring(t, (uint32_t)below(t, t->held_count));
        return;
    }
    if (t->released_ring != 0 && below(t, 2) == 0) {
        int32_t status = answered(t, RING_RELEASE, t->run->api->ring_release(t->released_ring));
        /* a double release: refused, and never counted against a reference another lookup took */
        if (status != LANEHOST_INVALID_ARGUMENT) wrong_answer(t, RING_RELEASE, status);
        return;
    }
    uint64_t reference = some_handle(t, KIND_RING);
    for (uint32_t slot = 0; slot < t->held_count; slot++) {
        if (t->held_rings[slot] == reference) { /* some_handle gave back one this thread holds */
            release_ring(t, slot);
            return;
        }
    }
    int32_t status = answered(t, RING_RELEASE, t->run->api->ring_release(reference));
    if (status == LANEHOST_OK) wrong_answer(t, RING_RELEASE, status); /* a forgery released someone's reference */
}

/* Checks what a gate call stored in *result_length against its status. */
static void check_result_length(fuzz_thread *t, enum entry entry, int32_t status, const uint64_t *result_length,
                                uint64_t capacity) {
    if (!usable(result_length)) return;
    int fits = *result_length > 0 && *result_length <= capacity;
    if ((status == LANEHOST_OK && !fits) ||
        (status == LANEHOST_OUT_OF_MEMORY && *result_length <= capacity) ||
        (status != LANEHOST_OK && status != LANEHOST_OUT_OF_MEMORY && *result_length != 0)) {
        wrong_answer(t, entry, status);
    }
}

/*
 * A gate call. Half of them are well-formed apart from their CBOR (real handles and buffers, a small capacity
 * now and then), so calls reach the handlers; the rest draw every argument on its own.
 */
static void call_gate(fuzz_thread *t, int on_lane) {
    const lanehost_api *api = t->run->api;
    int well_formed = below(t, 2) == 0;
    uint64_t gate = well_formed ? real_handle(t, KIND_GATE) : some_handle(t, KIND_GATE);
    uint64_t args_length = some_cbor(t);
    const uint8_t *args = well_formed ? t->args : maybe_bad(t, t->args);
    if (!well_formed && below(t, 4) == 0) args_length = some_length(t, args_length, MAX_ARGS_BYTES);
    uint8_t *result = well_formed ? t->result : maybe_bad(t, t->result);
    uint64_t capacity = below(t, 3) != 0 ? RESULT_BUFFER
                        : well_formed    ? below(t, 16)
                                         : some_length(t, RESULT_BUFFER, NO_CAP);
    uint64_t *result_length = well_formed ? &t->out[2] : maybe_bad(t, &t->out[2]);
    t->out[2] = UINT64_C(0xDEADBEEF);
    int32_t status;
    if (on_lane) {
        uint64_t lane = well_formed ? t->lane : some_handle(t, KIND_LANE);
        int32_t max_turns = well_formed ? (int32_t)below(t, 4) : some_max_turns(t);
        status = answered(t, GATE_CALL_ON_LANE, api->gate_call_on_lane(gate, lane, args, args_length, result, capacity,
                                                                       result_length, max_turns));
    } else {
        int64_t timeout = well_formed ? (int64_t)below(t, 2) * 1000000000 + (int64_t)below(t, 1000000)
                                      : some_timeout(t);
        status = answered(t, GATE_CALL, api->gate_call(gate, args, args_length, result, capacity, result_length,
                                                       timeout));
    }
    check_result_length(t, on_lane ? GATE_CALL_ON_LANE : GATE_CALL, status, result_length, capacity);
}

static void call_last_error(fuzz_thread *t) {
    char *buffer = maybe_bad(t, t->error);
    uint64_t capacity = below(t, 4) == 0 ? 1 : some_length(t, ERROR_BUFFER, NO_CAP);
    uint64_t *length_out = maybe_bad(t, &t->out[0]);
    memset(t->error, 0x7F, sizeof t->error);
    int32_t status = t->run->api->last_error(buffer, capacity, length_out);
    if (status == LANEHOST_OK && usable(buffer) && capacity > 0 && memchr(buffer, '\0', capacity) == NULL) {
        wrong_answer(t, LAST_ERROR, status); /* not NUL-terminated within its capacity */
    }
    answered(t, LAST_ERROR, status); /* only now: its own last_error check overwrites the buffer */
}

static void call_lane_drive(fuzz_thread *t) {
    uint64_t lane = some_handle(t, KIND_LANE);
    int32_t max_turns = some_max_turns(t);
    lanehost_drive_counts *counts = maybe_bad(t, &t->counts);
    int32_t status = answered(t, LANE_DRIVE, t->run->api->lane_drive(lane, max_turns, counts));
    if (t->index == 0 && lane == t->lane && lane != 0 && max_turns >= 0 && (counts == NULL || usable(counts)) &&
        status != LANEHOST_OK) {
        wrong_answer(t, LANE_DRIVE, status); /* the driver's own lane */
    }
}

/* The driver never lets its lane go: another thread would bind it, and the driver's drives must succeed. */
static void call_lane_release(fuzz_thread *t) {
    uint64_t lane = some_handle(t, KIND_LANE);
    if (t->index == 0 && lane == t->lane) {
        lane = 0;
    }
    answered(t, LANE_RELEASE, t->run->api->lane_release(lane));
}

/* The lookup with a NUL-terminated name, or half the time its _n twin with the name's length (or a wrong one). */
static void call_lookup(fuzz_thread *t, enum entry entry, int32_t (*lookup)(const char *, uint64_t *),
                        int32_t (*lookup_n)(const char *, uint64_t, uint64_t *), enum kind kind) {
    const char *name = some_name(t, kind);
    uint64_t *out = maybe_bad(t, &t->out[0]);
    int32_t status;
    if (below(t, 2) == 0) {
        switch (below(t, 16)) {
        case 0: name = t->run->unterminated; break; /* runs into a page that is not mapped: refused, no crash */
        case 1: name = maybe_bad(t, (void *)name); break;
        default: break;
        }
        status = answered(t, entry, lookup(name, out));
    } else {
        uint64_t length = name == NULL ? below(t, 3) : strlen(name);
        if (below(t, 8) == 0) {
            name = maybe_bad(t, (void *)name);
            length = some_length(t, length, LANEHOST_MAX_NAME_BYTES);
            if (usable(name) && length <= LANEHOST_MAX_NAME_BYTES && length > strlen(name) + 1) {
                length = strlen(name) + 1; /* no further than it is readable: a length is trusted */
            }
        }
        status = answered(t, entry, lookup_n(name, length, out));
        if (!usable(name) || length != (name == NULL ? 0 : strlen(name))) return;
    }
    if (usable(name) && usable(out) && status != LANEHOST_OK &&
        (name == REAL_NAMES[kind] || strcmp(name, LANEHOST_TESTHOST_FUZZ_LANE_GATE) == 0)) {
        wrong_answer(t, entry, status);
    }
}

static void call_one(fuzz_thread *t) {
    const lanehost_api *api = t->run->api;
    switch ((enum entry)below(t, LANEHOST_TESTHOST_FUZZ_ENTRIES)) {
    case LANE_LOOKUP: call_lookup(t, LANE_LOOKUP, api->lane_lookup, api->lane_lookup_n, KIND_LANE); break;
    case LANE_DRIVE: call_lane_drive(t); break;
    case LANE_BIND: answered(t, LANE_BIND, api->lane_bind(some_handle(t, KIND_LANE))); break;
    case LANE_RELEASE: call_lane_release(t); break;
    case THREAD_WARM_UP: answered(t, THREAD_WARM_UP, api->thread_warm_up()); break;
    case GATE_LOOKUP: call_lookup(t, GATE_LOOKUP, api->gate_lookup, api->gate_lookup_n, KIND_GATE); break;
    case GATE_CALL: call_gate(t, 0); break;
    case GATE_CALL_ON_LANE: call_gate(t, 1); break;
    case SIGNAL_LOOKUP: call_lookup(t, SIGNAL_LOOKUP, api->signal_lookup, api->signal_lookup_n, KIND_SIGNAL); break;
    case SIGNAL_FIRE: {
        for (uint32_t i = 0; i < 64; i++) t->args[i] = (uint8_t)next(t);
        if (below(t, 2) == 0) { /* well-formed */
            answered(t, SIGNAL_FIRE, api->signal_fire(real_handle(t, KIND_SIGNAL), t->args, below(t, 64)));
        } else {
            answered(t, SIGNAL_FIRE, api->signal_fire(some_handle(t, KIND_SIGNAL), maybe_bad(t, t->args),
                                                      some_length(t, ARGS_BUFFER, MAX_PAYLOAD_BYTES)));
        }
        break;
    }
    case RING_LOOKUP: call_ring_lookup(t); break;
    case RING_RELEASE: call_ring_release(t); break;
    case LAST_ERROR: call_last_error(t); break;
    }
}

/* Exactly at the caps (read in full) and one byte past them (refused unread), once per run. */
static void call_at_caps(fuzz_thread *t) {
    const lanehost_api *api = t->run->api;
    const uint8_t *at_cap = t->run->at_cap;
    if (at_cap == NULL) return;
    uint64_t length = 0;
    answered(t, GATE_CALL, api->gate_call(t->echo_gate, at_cap, MAX_ARGS_BYTES, t->result, RESULT_BUFFER, &length,
                                          INT64_MAX));
    int32_t status = answered(t, GATE_CALL, api->gate_call(t->echo_gate, at_cap, MAX_ARGS_BYTES + 1, t->result,
                                                           RESULT_BUFFER, &length, INT64_MAX));
    if (status != LANEHOST_INVALID_ARGUMENT) wrong_answer(t, GATE_CALL, status);
    status = answered(t, SIGNAL_FIRE, api->signal_fire(t->signal, at_cap, MAX_PAYLOAD_BYTES));
    if (t->signal != 0 && status != LANEHOST_OK) wrong_answer(t, SIGNAL_FIRE, status);
    status = answered(t, SIGNAL_FIRE, api->signal_fire(t->signal, at_cap, MAX_PAYLOAD_BYTES + 1));
    if (status != LANEHOST_INVALID_ARGUMENT) wrong_answer(t, SIGNAL_FIRE, status);
}

static void *run_thread(void *argument) {
    fuzz_thread *t = argument;
    fuzz_run *run = t->run;
    lookup_targets(t);
    if (t->index == 0) {
        if (t->lane != 0) {
            int32_t status = answered(t, LANE_DRIVE, run->api->lane_drive(t->lane, 0, &t->counts));
            if (status != LANEHOST_OK) wrong_answer(t, LANE_DRIVE, status);
        }
        pthread_mutex_lock(&run->mutex);
        run->lane_bound = 1;
        pthread_cond_broadcast(&run->changed);
        pthread_mutex_unlock(&run->mutex);
        call_at_caps(t);
    }
    for (uint64_t i = 0; i < run->calls_per_thread; i++) call_one(t);
    while (t->held_count > 0) release_ring(t, t->held_count - 1);
    if (t->index != 0) {
        atomic_fetch_add(&run->others_finished, 1);
        return NULL;
    }
    /* Answer the others' calls to the lane's gate until they are all done. */
    while (!atomic_load(&run->all_started) || atomic_load(&run->others_finished) < atomic_load(&run->others_started)) {
        if (t->lane == 0) {
            sched_yield();
            continue;
        }
        t->counts.turns = 0;
        int32_t status = run->api->lane_drive(t->lane, 0, &t->counts);
        if (status != LANEHOST_OK) {
            wrong_answer(t, LANE_DRIVE, status);
            t->lane = 0;
        } else if (t->counts.turns == 0) {
            sched_yield();
        }
    }
    return NULL;
}

/* ---------------------------------------------------------------- the run */

static void add_report(lanehost_testhost_fuzz_report *sum, const lanehost_testhost_fuzz_report *part) {
    sum->calls += part->calls;
    for (uint32_t i = 0; i < LANEHOST_TESTHOST_FUZZ_STATUSES; i++) sum->by_status[i] += part->by_status[i];
    for (uint32_t i = 0; i < LANEHOST_TESTHOST_FUZZ_ENTRIES; i++) sum->by_entry[i] += part->by_entry[i];
    if (sum->invalid_statuses == 0 && part->invalid_statuses > 0) {
        sum->first_invalid_status = part->first_invalid_status;
        sum->first_invalid_entry = part->first_invalid_entry;
    }
    if (sum->missing_errors == 0 && part->missing_errors > 0) {
        sum->first_missing_error_status = part->first_missing_error_status;
        sum->first_missing_error_entry = part->first_missing_error_entry;
    }
    if (sum->wrong_answers == 0 && part->wrong_answers > 0) {
        sum->first_wrong_answer_status = part->first_wrong_answer_status;
        sum->first_wrong_answer_entry = part->first_wrong_answer_entry;
    }
    sum->invalid_statuses += part->invalid_statuses;
    sum->missing_errors += part->missing_errors;
    sum->stale_errors += part->stale_errors;
    sum->wrong_answers += part->wrong_answers;
}

static void clear_report(lanehost_testhost_fuzz_report *report) {
    memset(report, 0, sizeof *report);
    report->first_invalid_status = report->first_invalid_entry = -1;
    report->first_missing_error_status = report->first_missing_error_entry = -1;
    report->first_wrong_answer_status = report->first_wrong_answer_entry = -1;
}

int64_t lanehost_testhost_fuzz(const lanehost_api *api, uint32_t threads, uint64_t calls_per_thread, uint64_t seed,
                               lanehost_testhost_fuzz_report *report) {
    if (api == NULL || report == NULL || threads == 0 || threads > MAX_THREADS || !LANEHOST_API_HAS(api, last_error)) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    clear_report(report);
    fuzz_thread *all = calloc(threads, sizeof *all);
    if (all == NULL) return LANEHOST_TESTHOST_OUT_OF_MEMORY;
    fuzz_run run = {.api = api, .calls_per_thread = calls_per_thread, .seed = seed, .at_cap = calloc(1, MAX_ARGS_BYTES)};
    long page = sysconf(_SC_PAGESIZE);
    run.guarded = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (run.guarded == MAP_FAILED || munmap((char *)run.guarded + page, (size_t)page) != 0) {
        free(all);
        free(run.at_cap);
        return LANEHOST_TESTHOST_OUT_OF_MEMORY;
    }
    memset((char *)run.guarded + page - 100, 'a', 100);
    run.unterminated = (const char *)run.guarded + page - 100;
    pthread_mutex_init(&run.mutex, NULL);
    pthread_cond_init(&run.changed, NULL);
    atomic_init(&run.all_started, 0);
    atomic_init(&run.others_started, 0);
    atomic_init(&run.others_finished, 0);

    uint32_t started = 0;
    for (uint32_t i = 0; i < threads; i++) {
        fuzz_thread *t = &all[i];
        t->run = &run;
        t->index = i;
        t->random = (seed + i) * UINT64_C(0x9E3779B97F4A7C15) + 1;
        if (t->random == 0) t->random = 1; /* xorshift never leaves 0 */
        clear_report(&t->report);
        if (pthread_create(&t->thread, NULL, run_thread, t) != 0) break;
        started++;
        if (i == 0) {
            pthread_mutex_lock(&run.mutex);
            while (!run.lane_bound) pthread_cond_wait(&run.changed, &run.mutex);
            pthread_mutex_unlock(&run.mutex);
        } else {
            atomic_fetch_add(&run.others_started, 1);
        }
    }
    atomic_store(&run.all_started, 1);
    for (uint32_t i = 0; i < started; i++) {
        pthread_join(all[i].thread, NULL);
        add_report(report, &all[i].report);
    }
    pthread_cond_destroy(&run.changed);
    pthread_mutex_destroy(&run.mutex);
    free(run.at_cap);
    munmap(run.guarded, (size_t)page);
    free(all);
    return started == threads ? (int64_t)report->calls : LANEHOST_TESTHOST_THREAD_FAILED;
}
