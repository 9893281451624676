/*
 * lanehost.h - the C ABI a native host sees: the statuses, the host function table (lanes, gates,
 * signals, rings, warm-up, last error) and the layout reports its tests compare with Java.
 * Every function here returns a value or a status and never aborts.
 */
#ifndef LANEHOST_H
#define LANEHOST_H

#include <stddef.h>
#include <stdint.h>

#include "lanehost/lanehost_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on every incompatible change of an exported function or shared layout. */
#define LANEHOST_ABI_VERSION 3u

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

/* ---- Statuses: one set for every entry of the host ABI ---- */

/* Every outcome of an entry; the numbers are dev.lanehost.callgate.CallStatus's (a test compares them). */
typedef enum lanehost_status {
    LANEHOST_OK = 0,
    LANEHOST_TIMED_OUT = 1,          /* gate call: not started, removed and never runs; running: result discarded.
                                        call_on_lane: older lane work used up max_turns */
    LANEHOST_CALLBACK_SUSPENDED = 2, /* call_on_lane: the handler returned a pending result; the actor is disrupted */
    LANEHOST_NOT_SERIALIZABLE = 3,   /* a handler's result that is no plain value: a cycle, nesting past the limit,
                                        or an unsupported type (arguments from the host that are no plain value
                                        are LANEHOST_INVALID_ARGUMENT) */
    LANEHOST_OUT_OF_MEMORY = 4,      /* the result does not fit the buffer (*result_length = size needed;
                                        every other non-OK status stores 0 there). The handler did run: a
                                        retry with a larger buffer runs it again. With *result_length 0: the
                                        result is past the gate's maxResultBytes, or encoding it ran out of
                                        memory */
    LANEHOST_CALLBACK_FAILED = 5,    /* the handler threw; the actor halts */
    LANEHOST_ACTOR_TERMINATED = 6,   /* the actor halted while the runtime runs */
    LANEHOST_REFUSED = 7,            /* admission: the gate's maxPending calls already occupy the actor, or its mailbox or lane is full;
                                        or the host ABI already has 2^18 ring references held (ring_lookup); or a
                                        table that has issued every handle it can (see "Handles") */
    LANEHOST_WRONG_THREAD = 8,       /* a lane bound to another live thread; a lane_release off the lane's bound
                                        thread, or of a lane bound to none; a drive or call_on_lane inside a turn
                                        of the lane; the blocking gate call on the actor's own lane thread */
    LANEHOST_INVALID_ARGUMENT = 9,   /* a handle this table never issued (forged or corrupt), of another kind or of
                                        another runtime's table, a ring reference released already; a NULL or
                                        implausible pointer, bad length, malformed CBOR or CBOR
                                        that is no plain value (a tag, undefined, nesting deeper than 64);
                                        gate_call_on_lane with a lane the gate's actor is not placed on */
    LANEHOST_CLOSED = 10,            /* the runtime or the host ABI is closed (or closing: a lookup that races the
                                        close answers this or a handle, never "not exported"); or the handle's object is: a
                                        gate that closed, a signal that can fire no more, a ring its Java owner
                                        closed (ring_lookup) */
    LANEHOST_INTERNAL_ERROR = 11     /* lanehost failed inside the entry (logged); not the caller's fault */
} lanehost_status;

/* The enumerator's name without the prefix ("OK", "TIMED_OUT", ...), or NULL for an unknown status. */
LANEHOST_EXPORT const char *lanehost_status_name(int32_t status);

/* ---- The host function table ---- */

/*
 * A host receives one `lanehost_api` per runtime: from the Java program that loaded it (a Java-first host)
 * or from lanehost_embed_start (a C program that embeds the JVM). Every entry is a C function of liblanehost that
 * checks whether its entry is still open and, if so, makes an FFM upcall into Java.
 *
 *  - Every entry returns a lanehost_status and never throws, aborts or crashes on bad input: NULL pointers,
 *    pointers no process maps memory at (below LANEHOST_LOWEST_ADDRESS or from 2^LANEHOST_ADDRESS_BITS up: -1,
 *    0xdeadbeef00000000, a small integer passed as a pointer), forged, corrupt, wrong-kind or other-runtime
 *    handles, negative or huge lengths are LANEHOST_INVALID_ARGUMENT, and leave nothing behind (no reference
 *    taken, nothing queued). Any other pointer is trusted, as a C function trusts its pointers: it must be NULL
 *    or real memory of the length passed with it.
 *  - Closing. After the runtime or the host ABI closes, every entry answers LANEHOST_CLOSED, in C, without entering
 *    the JVM, except: last_error (C alone, always: after a CLOSED answer it says "CLOSED: the runtime or its host
 *    ABI is closed"); ring_release, which still takes back a reference the host holds (OK; the ring's memory may
 *    then be freed) and answers CLOSED for any other value; and lane handles, which follow their runtime rather
 *    than the host ABI: until the runtime has closed they still drive their lane, and the first drive from the
 *    lane's thread after the runtime closes runs the lane's teardown there, then answers LANEHOST_CLOSED. So a
 *    host that keeps calling back until it sees LANEHOST_CLOSED, then joins its threads, shuts down cleanly
 *    whatever order Java closes things in. The table and its functions stay valid for the life of the process,
 *    and so does every function pointer copied out of it (the functions belong to this table alone and are never
 *    given to another): after a C program's lanehost_embed_shutdown every one of them answers LANEHOST_CLOSED
 *    without entering Java, whose JVM is gone. A call that races the shutdown itself is the host's race: join
 *    the threads that call the table before it. A process opens at most 1024 host ABIs in its life (each keeps
 *    its functions for good); the next is refused with a sentence.
 *  - Handles are opaque 64-bit numbers that carry their kind, the table (runtime) that issued them, their slot, a
 *    generation of the slot, and a check byte. No handle value is ever issued twice in a process's life: a slot
 *    is retired before its generation could wrap (after 2^24 objects), and a table refuses new objects
 *    (LANEHOST_REFUSED) only after issuing 2^42 handles, over four months of a host that does nothing but look up
 *    and release a ring in a loop. The check byte is a CRC-8 of the other 56 bits, and no issued handle has a check
 *    byte of 0x00 or 0xFF, so a value that differs from an issued handle in one, two or three bits, or by one
 *    (handle + 1, handle - 1), is never a handle any table issued: it can never reach another object. A handle
 *    this table issued whose object has since gone (its gate closed, its signal can fire no more) answers
 *    LANEHOST_CLOSED, a normal event in the object's life; a handle this table never issued, one of another kind,
 *    or one of another runtime's table is LANEHOST_INVALID_ARGUMENT, the host's mistake, and so is a ring
 *    reference released already (each ring_lookup gives a reference of its own, which one ring_release gives back).
 *    last_error says which. 0 is never a handle.
 *  - Names are UTF-8 of 1 to LANEHOST_MAX_NAME_BYTES bytes without NUL. The *_lookup_n entries take the name's
 *    length and read exactly that many bytes. The *_lookup entries take a NUL-terminated name and read at most
 *    LANEHOST_MAX_NAME_BYTES + 1 bytes of it, refusing one with no NUL among them; they read through
 *    process_vm_readv(2), so a name that runs into unmapped memory before its NUL is refused, not a crash (where
 *    a seccomp filter refuses that call, they read directly, and the name must be terminated or have that many
 *    readable bytes).
 *  - Threads: any thread may call the table, from any number of threads at once. The first call attaches a thread
 *    the JVM has not seen (0.2-2 ms, once; thread_warm_up does it ahead of time). The thread needs at least 128 KiB
 *    of stack (glibc's default is 8 MiB; musl's default, 128 KiB, is the least that works): with 96 KiB or less the
 *    JVM aborts the process as it attaches the thread, before lanehost runs; with a little more an entry answers
 *    LANEHOST_INTERNAL_ERROR ("... ran out of the calling thread's stack"). A lane's thread that makes a blocking
 *    gate_call drives no lane while it waits: a call to an actor on another lane waits for that lane's thread, so two
 *    lane threads calling into each other's lanes wait for each other until their timeouts.
 *  - After a non-OK status, last_error gives the calling thread a sentence saying what was wrong. As errno, there
 *    is one per thread in the process: with two runtimes' tables, either table's last_error gives the sentence the
 *    thread's last failing entry left, whichever table that entry was called through.
 *  - The table only grows: `size` is the number of bytes the runtime filled. Before calling a member added
 *    after version 1, check LANEHOST_API_HAS(api, member).
 *
 * Pointers cross as 64-bit integers on the Java side (LP64 only: Linux x86_64 and aarch64), so no entry
 * allocates a Java object per call for its arguments; lane_drive allocates nothing at all.
 */

#define LANEHOST_HOST_ABI_VERSION 1u
#define LANEHOST_MAX_NAME_BYTES 256u
/* No Linux process maps memory below this address (mmap_min_addr is at least 4096)... */
#define LANEHOST_LOWEST_ADDRESS 4096u
/* ...or from 2^56 up (x86_64 user space ends at 2^47, or 2^56 with five-level paging; aarch64's at 2^52). */
#define LANEHOST_ADDRESS_BITS 56u

/* What a drive did. Written only when lane_drive returns LANEHOST_OK. */
typedef struct lanehost_drive_counts {
    int32_t turns;     /* turns this drive ran */
    int32_t reserved;  /* written as 0 */
    int64_t remaining; /* letters still queued on the lane when the drive returned */
} lanehost_drive_counts;

LANEHOST_STATIC_ASSERT(sizeof(lanehost_drive_counts) == 16, "lanehost_drive_counts is two 64-bit words");

/* Blocking gate call; args and result are CBOR (RFC 8949), zero-length args mean none. result_length must not be
 * NULL; result may be NULL only with result_capacity 0, which is a sizing call: the handler runs (with whatever
 * effects it has) and the call answers LANEHOST_OUT_OF_MEMORY with the result's size in *result_length (a result
 * is at least one byte, CBOR null). A result larger than the gate's maxResultBytes (CallGate.open; 16 MiB by
 * default) answers LANEHOST_OUT_OF_MEMORY with *result_length 0, whatever the buffer: no buffer would take it. timeout_nanos bounds the whole wait, the short spin before parking included, and has no "unbounded" value
 * (unlike max_turns below); negative is LANEHOST_INVALID_ARGUMENT. 0 does not wait: the call is queued and its
 * outcome looked at once, so it answers LANEHOST_TIMED_OUT unless the actor had already finished it (OK then).
 * A call that times out before its turn started is cancelled and never runs; one whose handler is already running
 * runs to its end and its result is discarded (the gate counts it). */
typedef int32_t (*lanehost_gate_call_fn)(uint64_t gate, const uint8_t *args, uint64_t args_length, uint8_t *result,
                                         uint64_t result_capacity, uint64_t *result_length, int64_t timeout_nanos);

/* Gate call for a host callback on the lane's own thread, outside any turn: queues the call and drives the
 * lane until the result is ready; max_turns > 0 bounds the turns driven (LANEHOST_TIMED_OUT), 0 is unbounded.
 * It drives as lane_drive does, binding too: a lane no thread holds is bound to the calling thread, which is then
 * the only one that may drive it (LANEHOST_WRONG_THREAD for the others while it lives).
 * The gate's actor must be placed on that lane: else LANEHOST_INVALID_ARGUMENT ("actor ... is placed ..., not on
 * lane ..."), and nothing is queued. result, result_capacity and result_length as for gate_call. */
typedef int32_t (*lanehost_gate_call_on_lane_fn)(uint64_t gate, uint64_t lane, const uint8_t *args,
                                                 uint64_t args_length, uint8_t *result, uint64_t result_capacity,
                                                 uint64_t *result_length, int32_t max_turns);

typedef struct lanehost_api {
    uint32_t abi_version; /* LANEHOST_HOST_ABI_VERSION of the runtime that filled the table */
    uint32_t size;        /* bytes of this struct the runtime filled */

    /* The handle of the lane exported under `name`. A name nothing is exported under (yet: exports made later,
     * e.g. by a lane actor's start at the lane's first drive, are found from then on) is LANEHOST_INVALID_ARGUMENT,
     * and last_error names it; so for gate_lookup, signal_lookup and ring_lookup. Once a close has begun, a lookup
     * answers LANEHOST_CLOSED, or, if it raced the close's start, the handle (whose later use answers CLOSED); never
     * "not exported". */
    int32_t (*lane_lookup)(const char *name, uint64_t *lane_out);
    /*
     * Lends the calling thread to the lane for at most max_turns turns (0: until its queue is empty). It does not
     * wait for a sender preempted between queueing a letter and linking it: after a few looks it returns with that
     * letter still counted in counts->remaining, for the next drive. The first drive binds the lane to the calling thread; a lane whose bound thread has ended rebinds to
     * the next thread that drives it; a live bound thread is never displaced (LANEHOST_WRONG_THREAD).
     * counts may be NULL. Allocates nothing.
     */
    int32_t (*lane_drive)(uint64_t lane, int32_t max_turns, lanehost_drive_counts *counts);
    /* Binds the lane to the calling thread now (OK if already bound to it). */
    int32_t (*lane_bind)(uint64_t lane);
    /*
     * From the bound thread, outside a drive: unbinds the lane (e.g. in a host's stop callback), so the next thread
     * that drives or binds it binds it. LANEHOST_WRONG_THREAD, and nothing changes, if the lane is not bound to the
     * calling thread: bound to another thread (last_error names it), or bound to no thread at all (never driven or
     * bound, or released already; last_error says so). LANEHOST_WRONG_THREAD too from inside a drive of the lane.
     */
    int32_t (*lane_release)(uint64_t lane);
    /*
     * Attaches the calling thread to the JVM and warms the drive path without binding any lane: call it from
     * a thread-init hook so the first real-time drive costs tens of microseconds on a quiet machine (milliseconds on
     * a loaded one), not the milliseconds of attach and cold code; the warm-up itself takes those milliseconds. Safe from any number of threads. It cannot run this table's own entries for you: before the
     * real-time thread's first drive, drive a lane from an ordinary thread through lane_drive, with a lane_release
     * now and then (so that entry's bind path is compiled too), and drive each real lane once and release it (its
     * actors start there, not in the real-time callback). The samples' JACK host does both.
     */
    int32_t (*thread_warm_up)(void);

    /* The handle of the gate exported under `name`. */
    int32_t (*gate_lookup)(const char *name, uint64_t *gate_out);
    lanehost_gate_call_fn gate_call;
    lanehost_gate_call_on_lane_fn gate_call_on_lane;

    /* The handle of the signal exported under `name`. */
    int32_t (*signal_lookup)(const char *name, uint64_t *signal_out);
    /* Fires the signal with a copy of payload (payload_length 0: none). LANEHOST_CLOSED once it can fire no more. */
    int32_t (*signal_fire)(uint64_t signal, const uint8_t *payload, uint64_t payload_length);

    /*
     * The ring exported under `name`: a reference and the ring's memory, for lanehost_ring_wrap. The memory
     * stays valid until this reference is released, whatever Java does meanwhile. A ring its Java owner has
     * closed is LANEHOST_CLOSED (references taken before keep its memory). Each call gives a reference of its own
     * (a host may hold 2^18 at once per host ABI; the next is LANEHOST_REFUSED).
     */
    int32_t (*ring_lookup)(const char *name, uint64_t *ring_out, void **memory_out, uint64_t *memory_length_out);
    /* Gives a ring reference back; its memory may then be freed. A reference released already is
     * LANEHOST_INVALID_ARGUMENT (before the close; CLOSED after it): it is never counted against another. */
    int32_t (*ring_release)(uint64_t ring);

    /*
     * The calling thread's last failure, errno-style: the sentence the most recent non-OK entry on this thread
     * left (a success does not clear it, so a real-time drive pays nothing for it). Read it right after a
     * non-OK status. Copies at most capacity - 1 bytes and a NUL into buffer (buffer may be NULL when capacity
     * is 0) and stores the full length without the NUL in *length_out (required: NULL is
     * LANEHOST_INVALID_ARGUMENT, which, like any failure, replaces the sentence); length 0 if no entry has
     * failed on this thread yet.
     */
    int32_t (*last_error)(char *buffer, uint64_t capacity, uint64_t *length_out);

    /* ---- Added later than the members above: check LANEHOST_API_HAS(api, lane_lookup_n) before calling them. ---- */

    /* As lane_lookup, with the name's length: exactly name_length bytes are read (1..LANEHOST_MAX_NAME_BYTES). */
    int32_t (*lane_lookup_n)(const char *name, uint64_t name_length, uint64_t *lane_out);
    /* As gate_lookup, with the name's length. */
    int32_t (*gate_lookup_n)(const char *name, uint64_t name_length, uint64_t *gate_out);
    /* As signal_lookup, with the name's length. */
    int32_t (*signal_lookup_n)(const char *name, uint64_t name_length, uint64_t *signal_out);
    /* As ring_lookup, with the name's length. */
    int32_t (*ring_lookup_n)(const char *name, uint64_t name_length, uint64_t *ring_out, void **memory_out,
                             uint64_t *memory_length_out);
} lanehost_api;

/* True if the runtime filled `member` of *api (a table from a newer or older runtime). */
#define LANEHOST_API_HAS(api, member) \
    ((api) != NULL && (uint64_t)(api)->size >= offsetof(lanehost_api, member) + sizeof((api)->member))

/*
 * The host ABI table's layout as this header compiled it, for the Java test that compares it with
 * HostAbiDescriptor: the name of entry `index`, or NULL past the last entry.
 */
LANEHOST_EXPORT const char *lanehost_api_layout_name(uint32_t index);

/* The value of the named layout entry; *found is set to 1 if the name is known, else 0. */
LANEHOST_EXPORT int64_t lanehost_api_layout_value(const char *name, int32_t *found);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_H */
