/*
 * lanehost.h - the C ABI a native host sees.
 *
 * Today it holds the library's ABI version and the ring layout report; the host function table
 * (lanes, gates, signals) arrives with the call-gate and embedding issues. Every function here
 * returns a value or a status and never aborts.
 */
#ifndef LANEHOST_H
#define LANEHOST_H

#include <stdint.h>

#include "lanehost/lanehost_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on every incompatible change of an exported function or shared layout. */
#define LANEHOST_ABI_VERSION 1u

#if defined(__GNUC__)
#define LANEHOST_EXPORT __attribute__((visibility("default")))
#else
#define LANEHOST_EXPORT
#endif

/* The ABI version this library was built with; the Java loader refuses a mismatch. */
LANEHOST_EXPORT uint32_t lanehost_abi_version(void);

/*
 * The ring layout as this header compiled it, for the Java test that compares it with
 * SpscByteRingDescriptor: the name of entry `index`, or NULL past the last entry.
 */
LANEHOST_EXPORT const char *lanehost_ring_layout_name(uint32_t index);

/* The value of the named layout entry; *found is set to 1 if the name is known, else 0. */
LANEHOST_EXPORT int64_t lanehost_ring_layout_value(const char *name, int32_t *found);

/* A human-readable message for a lanehost_ring_status (never NULL). */
LANEHOST_EXPORT const char *lanehost_ring_status_text(int64_t status);

/* ---- Call gates ---- */

/* Every outcome of a gate call; the numbers are dev.lanehost.callgate.CallStatus's (a test compares them). */
typedef enum lanehost_call_status {
    LANEHOST_CALL_OK = 0,
    LANEHOST_CALL_TIMED_OUT = 1,          /* not started: removed, never runs; running: result discarded */
    LANEHOST_CALL_CALLBACK_SUSPENDED = 2, /* callOnLane: the handler returned a pending result; actor disrupted */
    LANEHOST_CALL_NOT_SERIALIZABLE = 3,   /* a cycle, nesting past the limit, or an unsupported type */
    LANEHOST_CALL_OUT_OF_MEMORY = 4,      /* the result does not fit the buffer (*result_length = size needed;
                                             every other non-OK status stores 0 there) */
    LANEHOST_CALL_CALLBACK_FAILED = 5,    /* the handler threw; the actor halts */
    LANEHOST_CALL_ACTOR_TERMINATED = 6,
    LANEHOST_CALL_REFUSED = 7,            /* admission: the gate's maxPending calls already occupy the actor */
    LANEHOST_CALL_WRONG_THREAD = 8,       /* blocking entry on the actor's own lane thread, or callOnLane off it */
    LANEHOST_CALL_INVALID_ARGUMENT = 9,   /* bad handle, NULL pointer, bad length, malformed CBOR */
    LANEHOST_CALL_CLOSED = 10,            /* the gate or the runtime closed */
    LANEHOST_CALL_INTERNAL_ERROR = 11     /* lanehost failed inside the entry (logged); not the caller's fault */
} lanehost_call_status;

/* The enumerator's name without the prefix ("OK", "TIMED_OUT", ...), or NULL for an unknown status. */
LANEHOST_EXPORT const char *lanehost_call_status_name(int32_t status);

/*
 * The blocking gate entry: arguments and result are CBOR (RFC 8949); zero-length arguments mean none.
 * Blocks until the call's turn finishes or timeout_nanos pass.
 */
typedef int32_t (*lanehost_gate_call_fn)(uint64_t gate, const uint8_t *args, uint64_t args_length, uint8_t *result,
                                         uint64_t result_capacity, uint64_t *result_length, int64_t timeout_nanos);

/*
 * The lane entry, for a host callback on the lane's thread outside any turn: queues the call and drives
 * the lane until the result is ready; max_turns > 0 bounds the turns driven (TIMED_OUT), 0 is unbounded.
 */
typedef int32_t (*lanehost_gate_call_on_lane_fn)(uint64_t gate, uint64_t lane, const uint8_t *args,
                                                 uint64_t args_length, uint8_t *result, uint64_t result_capacity,
                                                 uint64_t *result_length, int32_t max_turns);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_H */
