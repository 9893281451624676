/*
 * lanehost_testhost.h - real foreign threads for tests, samples and benchmarks.
 *
 * The test host starts pthreads that Java never created, the way an audio engine or a frame loop
 * would, and drives lanehost from them. It moves bytes through SPSC rings: a producer thread
 * writes a known byte pattern, a consumer thread reads and verifies it, or either side runs free
 * until stopped (for benchmarks). It calls Java from its threads through upcalls and gate calls, and
 * fuzzes a host function table. Every function returns a status and never aborts.
 */
#ifndef LANEHOST_TESTHOST_H
#define LANEHOST_TESTHOST_H

#include <stdint.h>

#include "lanehost/lanehost.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LANEHOST_TESTHOST_ABI_VERSION 5u

/*
 * The handle layout the fuzzer forges handles with (low bits first: check byte, slot, generation, instance; the
 * kind above). Handles are opaque to real hosts; these must equal HandleTable's CHECK_BITS, SLOT_BITS,
 * GENERATION_BITS and INSTANCE_BITS, which HandleOwnershipTest compares through lanehost_testhost_handle_bits. The
 * check byte is CRC-8 (polynomial 0x07) of the 56 bits above it.
 */
#define LANEHOST_TESTHOST_HANDLE_CHECK_BITS 8u
#define LANEHOST_TESTHOST_HANDLE_SLOT_BITS 18u
#define LANEHOST_TESTHOST_HANDLE_GENERATION_BITS 24u
#define LANEHOST_TESTHOST_HANDLE_INSTANCE_BITS 10u

enum lanehost_testhost_role {
    LANEHOST_TESTHOST_PRODUCER = 1,
    LANEHOST_TESTHOST_CONSUMER = 2
};

enum lanehost_testhost_flags {
    /* Chunk sizes drawn uniformly from [1, max_chunk] with the seed; otherwise always max_chunk. */
    LANEHOST_TESTHOST_RANDOM_CHUNKS = 1,
    /* Producer writes lanehost_testhost_pattern_byte; consumer verifies every byte against it. */
    LANEHOST_TESTHOST_PATTERN = 2,
    /* Consumer sleeps in lanehost_ring_wait_readable on an empty ring instead of spinning; a wait that times
       out (LANEHOST_TESTHOST_WAIT_TIMEOUT_NANOS: only a lost wake-up reaches it) ends the thread with
       LANEHOST_RING_TIMED_OUT. Needs total > 0 (a stop request cannot reach a sleeping consumer). */
    LANEHOST_TESTHOST_WAIT = 4,
    /* Producer pauses 0 to 50 us after each chunk, drawn with the seed (none a quarter of the time), so a
       waiting consumer is sometimes asleep, sometimes on its way to sleep. Only the timing varies. */
    LANEHOST_TESTHOST_PAUSES = 8
};

#define LANEHOST_TESTHOST_WAIT_TIMEOUT_NANOS (INT64_C(30) * 1000000000)

/* Extra status of the test host, beyond lanehost_ring_status. */
#define LANEHOST_TESTHOST_OUT_OF_MEMORY (-100)
#define LANEHOST_TESTHOST_THREAD_FAILED (-101)

typedef struct lanehost_testhost_thread lanehost_testhost_thread;

LANEHOST_EXPORT uint32_t lanehost_testhost_abi_version(void);

/* The handle layout above: field 0 slot bits, 1 generation bits, 2 instance bits, 3 check bits; 0 for any other. */
LANEHOST_EXPORT uint32_t lanehost_testhost_handle_bits(uint32_t field);

/* The check byte a handle whose other 56 bits are `handle`'s would carry (the low 8 bits of `handle` are ignored). */
LANEHOST_EXPORT uint64_t lanehost_testhost_handle_check(uint64_t handle);

/* Members of lanehost_api that lanehost_testhost_call_every_entry calls, in the table's order. */
#define LANEHOST_TESTHOST_API_MEMBERS 17u

/*
 * On a new pthread: calls every member of *api once with well-formed arguments (names "x", handle `handle`,
 * small buffers), except those whose bit is set in `skip` (status -1), storing each status in statuses[0..16] in
 * the table's order, then asks the JVM (if the process
 * has one) whether that call attached the thread: *attached is 1 if it did, 0 if not, -1 if there is no JVM to ask.
 * For tests of a table whose runtime has closed (or whose JVM has ended): copy the table (a struct copy) or pass
 * the original. Returns 0, or LANEHOST_TESTHOST_THREAD_FAILED.
 */
LANEHOST_EXPORT int32_t lanehost_testhost_call_every_entry(const lanehost_api *api, uint64_t handle, uint32_t skip,
                                                           int32_t *statuses, int32_t *attached);

/* The byte at stream position `position` of the pattern for `seed`; Java mirrors it. */
LANEHOST_EXPORT uint8_t lanehost_testhost_pattern_byte(uint64_t position, uint64_t seed);

/* C-allocated, 128-byte-aligned ring memory of LANEHOST_RING_MEMORY_LENGTH(capacity) bytes, formatted. NULL on failure. */
LANEHOST_EXPORT void *lanehost_testhost_ring_alloc(uint64_t capacity);
LANEHOST_EXPORT void lanehost_testhost_ring_free(void *memory);

/*
 * Starts a pthread that plays `role` on the ring at memory: it moves `total` bytes (0 = until
 * lanehost_testhost_stop), in chunks of at most max_chunk bytes, spinning when the ring is full or
 * empty (a LANEHOST_TESTHOST_WAIT consumer sleeps instead). On success *out receives the thread and the
 * result is LANEHOST_RING_OK; LANEHOST_TESTHOST_WAIT with total 0 or for a producer is
 * LANEHOST_RING_INVALID_ARGUMENT.
 */
LANEHOST_EXPORT int32_t lanehost_testhost_start(lanehost_testhost_thread **out, int32_t role, void *memory,
                                                uint64_t memory_length, uint64_t total, uint64_t seed,
                                                uint32_t max_chunk, uint32_t flags);

/* Asks a thread started with total = 0 to stop after its current chunk. */
LANEHOST_EXPORT void lanehost_testhost_stop(lanehost_testhost_thread *thread);

/*
 * Waits for the thread, frees it, and reports: bytes moved, the stream position of the first byte
 * that failed verification (UINT64_MAX if none), and the thread's status.
 */
LANEHOST_EXPORT int32_t lanehost_testhost_join(lanehost_testhost_thread *thread, uint64_t *moved,
                                               uint64_t *first_mismatch);

/*
 * Runs one side on the calling thread: moves exactly `total` bytes in chunks of `chunk` bytes,
 * spinning until done, with no verification. Returns bytes moved or a negative status. Used by
 * benchmarks as the C side of C->C and as the native floor.
 */
LANEHOST_EXPORT int64_t lanehost_testhost_transfer(int32_t role, void *memory, uint64_t memory_length,
                                                   uint64_t total, uint32_t chunk);

/*
 * One side on the calling thread, chunk by chunk through the caller's `buffer` of `chunk` bytes: the
 * producer writes it into the ring `chunks` times, the consumer reads `chunks` chunks into it, spinning
 * while the ring is full or empty. A chunk that moves only in part goes on from where it stopped, so each
 * byte of the buffer meets the same offset within a page of the ring's data every time (a Java side doing
 * the same can be compared with this one copy for copy). Returns the bytes moved or a negative status
 * (INVALID_ARGUMENT for a null buffer, a chunk of 0 or an unknown role).
 */
LANEHOST_EXPORT int64_t lanehost_testhost_move_chunks(int32_t role, void *memory, uint64_t memory_length, void *buffer,
                                                      uint64_t chunks, uint32_t chunk);

/*
 * Both sides on the calling thread: `pairs` times, writes `chunk` bytes and reads them back. Returns the
 * bytes read, or a negative status (INVALID_ARGUMENT for a chunk of 0 or larger than the capacity, or a
 * ring that moved less than a chunk: one that was not empty). The C floor of a transfer's fixed cost.
 */
LANEHOST_EXPORT int64_t lanehost_testhost_echo(void *memory, uint64_t memory_length, uint64_t pairs, uint32_t chunk);

/* ---- Foreign threads calling into Java (FFM upcall stubs, or any C function pointer) ---- */

/* An upcall: Java code behind an FFM upcall stub (or a JNA callback), called from a test-host pthread. */
typedef int32_t (*lanehost_testhost_upcall)(int64_t argument);

/*
 * Starts a new pthread that calls fn(argument) `calls` times, storing each result in results[i], and
 * joins it before returning: the caller sees every upcall made from one thread Java never created.
 * Returns LANEHOST_RING_OK, LANEHOST_RING_INVALID_ARGUMENT (NULL fn or results) or
 * LANEHOST_TESTHOST_THREAD_FAILED.
 */
LANEHOST_EXPORT int32_t lanehost_testhost_call_on_new_thread(lanehost_testhost_upcall fn, int64_t argument,
                                                             uint32_t calls, int32_t *results);

/* A pthread kept alive between batches of upcalls, so a benchmark pays the JVM attach once. */
typedef struct lanehost_testhost_caller lanehost_testhost_caller;

/* Starts the caller pthread; it makes one warm-up call (attaching to the JVM) before returning. */
LANEHOST_EXPORT int32_t lanehost_testhost_caller_start(lanehost_testhost_caller **out, lanehost_testhost_upcall fn,
                                                       int64_t argument);

/*
 * Has the caller pthread call fn(argument) `calls` times back to back; returns the sum of the results
 * (so nothing is optimised away) or a negative status. Blocks until the batch is done.
 */
LANEHOST_EXPORT int64_t lanehost_testhost_caller_run(lanehost_testhost_caller *caller, uint64_t calls);

/* Ends the caller pthread and frees it. */
LANEHOST_EXPORT void lanehost_testhost_caller_stop(lanehost_testhost_caller *caller);

/*
 * Starts a pthread that, if drive is not NULL, first calls drive(0) (binding a lane to itself), then makes
 * one blocking gate call through fn with the given buffers; joins it and stores the call's status in
 * *status. Returns LANEHOST_RING_OK or LANEHOST_TESTHOST_THREAD_FAILED / LANEHOST_RING_INVALID_ARGUMENT.
 */
LANEHOST_EXPORT int32_t lanehost_testhost_gate_call_on_new_thread(lanehost_testhost_upcall drive, lanehost_gate_call_fn fn,
                                                                  uint64_t gate, const uint8_t *args, uint64_t args_length,
                                                                  uint8_t *result, uint64_t result_capacity,
                                                                  uint64_t *result_length, int64_t timeout_nanos,
                                                                  int32_t *status);

/* Starts a pthread that makes one lane gate call through fn (binding the lane if unbound); joins it. */
LANEHOST_EXPORT int32_t lanehost_testhost_gate_call_on_lane_on_new_thread(lanehost_gate_call_on_lane_fn fn, uint64_t gate,
                                                                          uint64_t lane, const uint8_t *args,
                                                                          uint64_t args_length, uint8_t *result,
                                                                          uint64_t result_capacity, uint64_t *result_length,
                                                                          int32_t max_turns, int32_t *status);

/* ---- A host thread: a pthread that calls the host ABI table on request, the way a host's callback would ---- */

enum lanehost_testhost_op {
    LANEHOST_TESTHOST_DRIVE = 1,             /* api->lane_drive(lane, max_turns, counts) */
    LANEHOST_TESTHOST_BIND = 2,              /* api->lane_bind(lane) */
    LANEHOST_TESTHOST_RELEASE = 3,           /* api->lane_release(lane) */
    LANEHOST_TESTHOST_WARM_UP = 4,           /* api->thread_warm_up() */
    LANEHOST_TESTHOST_GATE_CALL = 5,         /* api->gate_call(gate, args..., timeout_nanos) */
    LANEHOST_TESTHOST_GATE_CALL_ON_LANE = 6  /* api->gate_call_on_lane(gate, lane, args..., max_turns) */
};

typedef struct lanehost_testhost_host_thread lanehost_testhost_host_thread;

/* Starts the pthread; it makes no call until asked. */
LANEHOST_EXPORT int32_t lanehost_testhost_host_thread_start(lanehost_testhost_host_thread **out, const lanehost_api *api);

/* Has the host thread make one call (`op`, with the arguments it uses) and returns its lanehost_status. */
LANEHOST_EXPORT int32_t lanehost_testhost_host_thread_run(lanehost_testhost_host_thread *thread, int32_t op, uint64_t lane,
                                                          uint64_t gate, int32_t max_turns, const uint8_t *args,
                                                          uint64_t args_length, uint8_t *result, uint64_t result_capacity,
                                                          uint64_t *result_length, int64_t timeout_nanos,
                                                          lanehost_drive_counts *counts);

/* Has the host thread make the call `op` `times` times back to back (a benchmark's batch; the counts pointer is
 * NULL); returns how many returned LANEHOST_OK. */
LANEHOST_EXPORT int64_t lanehost_testhost_host_thread_run_repeat(lanehost_testhost_host_thread *thread, int32_t op,
                                                                 uint64_t lane, uint64_t gate, int32_t max_turns,
                                                                 const uint8_t *args, uint64_t args_length,
                                                                 uint8_t *result, uint64_t result_capacity,
                                                                 uint64_t *result_length, int64_t timeout_nanos,
                                                                 uint64_t times);

/* Has the host thread call api->lane_drive(lane, max_turns, NULL) `times` times back to back (a benchmark's
 * batch); returns how many returned LANEHOST_OK. */
LANEHOST_EXPORT int64_t lanehost_testhost_host_thread_drive_repeat(lanehost_testhost_host_thread *thread, uint64_t lane,
                                                                   int32_t max_turns, uint64_t times);

/* How long the host thread's last request took (CLOCK_MONOTONIC nanoseconds, all its calls), measured on it. */
LANEHOST_EXPORT uint64_t lanehost_testhost_host_thread_last_nanos(lanehost_testhost_host_thread *thread);

/* Ends the pthread (it exits: the JVM detaches it) and frees it. */
LANEHOST_EXPORT void lanehost_testhost_host_thread_stop(lanehost_testhost_host_thread *thread);

/* ---- Fuzzing the host function table ---- */

/*
 * The names the fuzzer looks up as real targets. The runtime under test exports them before the run:
 * a lane, a gate whose handler echoes its arguments (on a worker actor), a gate whose handler throws (on a
 * worker actor), a gate whose handler echoes on an actor placed on that lane, a multishot signal, a one-shot
 * signal and a ring. Missing ones are only looked up in vain (LANEHOST_INVALID_ARGUMENT), which is no error.
 */
#define LANEHOST_TESTHOST_FUZZ_LANE "fuzz.lane"
#define LANEHOST_TESTHOST_FUZZ_ECHO_GATE "fuzz.echo"
#define LANEHOST_TESTHOST_FUZZ_THROWING_GATE "fuzz.throw"
#define LANEHOST_TESTHOST_FUZZ_LANE_GATE "fuzz.lane.echo"
#define LANEHOST_TESTHOST_FUZZ_SIGNAL "fuzz.signal"
#define LANEHOST_TESTHOST_FUZZ_ONE_SHOT_SIGNAL "fuzz.once"
#define LANEHOST_TESTHOST_FUZZ_RING "fuzz.ring"

/* The members of lanehost_api the fuzzer calls, in the table's order (indexes of by_entry). */
#define LANEHOST_TESTHOST_FUZZ_ENTRIES 13u
/* lanehost_status values 0..LANEHOST_INTERNAL_ERROR (indexes of by_status). */
#define LANEHOST_TESTHOST_FUZZ_STATUSES 12u

/* What a fuzz run saw. The "first_*" fields are -1 when their count is 0. */
typedef struct lanehost_testhost_fuzz_report {
    uint64_t calls;                                       /* entry calls made, last_error checks included */
    uint64_t by_status[LANEHOST_TESTHOST_FUZZ_STATUSES];  /* returns per valid lanehost_status */
    uint64_t by_entry[LANEHOST_TESTHOST_FUZZ_ENTRIES];    /* calls per table member, in table order */
    uint64_t invalid_statuses;  /* returns outside 0..LANEHOST_INTERNAL_ERROR */
    uint64_t missing_errors;    /* non-OK returns after which last_error gave no text (or failed itself) */
    uint64_t stale_errors;      /* OK returns after which last_error still gave text */
    uint64_t wrong_answers;     /* calls that must succeed and did not: lookups of the names above, the
                                   lane driver's own drives, releases of references the thread holds */
    int32_t first_invalid_status;
    int32_t first_invalid_entry;
    int32_t first_missing_error_status;
    int32_t first_missing_error_entry;
    int32_t first_wrong_answer_status;
    int32_t first_wrong_answer_entry;
} lanehost_testhost_fuzz_report;

/*
 * Calls every member of *api from `threads` new pthreads at once, `calls_per_thread` calls each (plus a
 * last_error check after each), with arguments drawn from `seed`: unknown, stale, forged and wrong-kind
 * handles, NULL for every pointer, lengths at, just above and far above the documented caps and negative
 * as int64, negative max_turns and timeouts, empty, over-long, unterminated, invalid-UTF-8 and unknown names,
 * zero and one-byte last_error buffers, random bytes as CBOR, mixed with valid calls on the targets above.
 * Pointers are always NULL or real memory of at least the length passed (a C API cannot detect a wild
 * pointer); a length beyond the buffer is only ever one beyond the documented cap, which is refused unread.
 *
 * Thread 0 drives the lane: it binds it before the others start and keeps driving it until they finish,
 * so a blocking call to the lane's gate from any other thread is answered. Returns the calls made, or
 * LANEHOST_RING_INVALID_ARGUMENT (NULL api or report, threads 0 or > 64), LANEHOST_TESTHOST_OUT_OF_MEMORY or
 * LANEHOST_TESTHOST_THREAD_FAILED; *report is filled whenever the run happened.
 */
LANEHOST_EXPORT int64_t lanehost_testhost_fuzz(const lanehost_api *api, uint32_t threads, uint64_t calls_per_thread,
                                               uint64_t seed, lanehost_testhost_fuzz_report *report);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_TESTHOST_H */
