/*
 * host_tables.c - the host function tables (host_tables.h): trampolines that answer LANEHOST_CLOSED in C once
 * their entry is closed, the name-reading lookups, last_error, and the calling thread's sentence.
 */
#define _GNU_SOURCE /* process_vm_readv */
#include "host_tables.h"
#include "host_errors.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* ---------------------------------------------------------------- the Java-backed entries */

/* In the order Java passes their stubs; bit e of a table's mask opens entry e. */
enum entry {
    E_lane_lookup_n, E_lane_drive, E_lane_bind, E_lane_release, E_thread_warm_up, E_gate_lookup_n, E_gate_call,
    E_gate_call_on_lane, E_signal_lookup_n, E_signal_fire, E_ring_lookup_n, E_ring_release, ENTRIES
};

static const char *const ENTRY_NAMES[ENTRIES] = {
    "lane_lookup_n", "lane_drive", "lane_bind", "lane_release", "thread_warm_up", "gate_lookup_n", "gate_call",
    "gate_call_on_lane", "signal_lookup_n", "signal_fire", "ring_lookup_n", "ring_release",
};

typedef int32_t (*lookup_n_fn)(const char *name, uint64_t name_length, uint64_t *out);
typedef int32_t (*lane_drive_fn)(uint64_t lane, int32_t max_turns, lanehost_drive_counts *counts);
typedef int32_t (*handle_fn)(uint64_t handle);
typedef int32_t (*warm_up_fn)(void);
typedef int32_t (*signal_fire_fn)(uint64_t signal, const uint8_t *payload, uint64_t payload_length);
typedef int32_t (*ring_lookup_n_fn)(const char *name, uint64_t name_length, uint64_t *ring_out, void **memory_out,
                                    uint64_t *memory_length_out);

/*
 * One table: the mask and the stubs share a cache line that is only read once the table is open, so an entry
 * costs one line it already has, a test and an indirect jump over the bare upcall.
 */
typedef struct table_record {
    _Alignas(128) _Atomic uint32_t open_entries;
    void *stubs[ENTRIES];
    lanehost_api table;
} table_record;

static table_record records[LANEHOST_MAX_TABLES];
static _Atomic uint32_t tables_reserved;
static _Atomic int jvm_ended;

#define ALL_ENTRIES ((1u << ENTRIES) - 1u)

/* ---------------------------------------------------------------- answers given in C */

__attribute__((noinline, cold)) static int32_t closed(void) {
    return atomic_load_explicit(&jvm_ended, memory_order_relaxed)
               ? fail(LANEHOST_CLOSED, "lanehost_embed_shutdown ended the JVM: this table answers LANEHOST_CLOSED "
                                       "and runs nothing")
               : fail(LANEHOST_CLOSED, "the runtime or its host ABI is closed");
}

__attribute__((noinline, cold)) static int32_t closed_lookup_n(const char *name, uint64_t name_length, uint64_t *out) {
    (void)name, (void)name_length, (void)out;
    return closed();
}

__attribute__((noinline, cold)) static int32_t closed_lane_drive(uint64_t lane, int32_t max_turns, lanehost_drive_counts *counts) {
    (void)lane, (void)max_turns, (void)counts;
    return closed();
}

__attribute__((noinline, cold)) static int32_t closed_handle(uint64_t handle) {
    (void)handle;
    return closed();
}

__attribute__((noinline, cold)) static int32_t closed_warm_up(void) {
    return closed();
}

/* As every CLOSED answer of a gate call: *result_length is 0 when it can be written. */
__attribute__((noinline, cold)) static int32_t closed_gate_call(uint64_t gate, const uint8_t *args, uint64_t args_length, uint8_t *result,
                                uint64_t result_capacity, uint64_t *result_length, int64_t timeout_nanos) {
    (void)gate, (void)args, (void)args_length, (void)result, (void)result_capacity, (void)timeout_nanos;
    if (!implausible(result_length)) {
        *result_length = 0;
    }
    return closed();
}

__attribute__((noinline, cold)) static int32_t closed_gate_call_on_lane(uint64_t gate, uint64_t lane, const uint8_t *args, uint64_t args_length,
                                        uint8_t *result, uint64_t result_capacity, uint64_t *result_length,
                                        int32_t max_turns) {
    (void)lane, (void)max_turns;
    return closed_gate_call(gate, args, args_length, result, result_capacity, result_length, 0);
}

__attribute__((noinline, cold)) static int32_t closed_signal_fire(uint64_t signal, const uint8_t *payload, uint64_t payload_length) {
    (void)signal, (void)payload, (void)payload_length;
    return closed();
}

__attribute__((noinline, cold)) static int32_t closed_ring_lookup_n(const char *name, uint64_t name_length, uint64_t *ring_out, void **memory_out,
                                    uint64_t *memory_length_out) {
    (void)name, (void)name_length, (void)ring_out, (void)memory_out, (void)memory_length_out;
    return closed();
}

/* ---------------------------------------------------------------- names */

/*
 * Copies the NUL-terminated name at `name` into buffer (LANEHOST_MAX_NAME_BYTES + 1 bytes) and returns its length,
 * or -1 with the sentence set. It reads through process_vm_readv, which stops at memory that is not mapped instead
 * of faulting, so a name that runs into an unmapped page is refused rather than crashing the process. Where the
 * call is refused (a seccomp filter that forbids it) it reads the bytes directly, as strnlen would.
 */
static int64_t read_name(const char *name, char *buffer) {
    const size_t most = LANEHOST_MAX_NAME_BYTES + 1u;
    if (name == NULL) {
        fail(LANEHOST_INVALID_ARGUMENT, "the name is NULL");
        return -1;
    }
    if (implausible(name)) {
        fail(LANEHOST_INVALID_ARGUMENT, "the name's address %p is not one a process maps memory at", (const void *)name);
        return -1;
    }
    /* Two pieces split at the page boundary: a transfer stops at the first piece it cannot read. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t first = page - ((uintptr_t)name & (page - 1u));
    if (first > most) {
        first = most;
    }
    struct iovec local = {buffer, most};
    struct iovec remote[2] = {{(void *)name, first}, {(void *)(name + first), most - first}};
    ssize_t read = process_vm_readv(getpid(), &local, 1, remote, most > first ? 2 : 1, 0);
    size_t readable;
    if (read >= 0) {
        readable = (size_t)read;
    } else if (errno == EFAULT) {
        readable = 0;
    } else {
        size_t length = strnlen(name, most); /* ENOSYS, EPERM: no way to look before reading */
        memcpy(buffer, name, length < most ? length + 1u : most);
        readable = length < most ? length + 1u : most;
    }
    void *end = memchr(buffer, '\0', readable);
    if (end == NULL) {
        if (readable < most) {
            fail(LANEHOST_INVALID_ARGUMENT, "the name at %p runs into unreadable memory before its NUL", (const void *)name);
        } else {
            fail(LANEHOST_INVALID_ARGUMENT, "the name at %p is longer than %u bytes (or not NUL-terminated)",
                 (const void *)name, LANEHOST_MAX_NAME_BYTES);
        }
        return -1;
    }
    return (char *)end - buffer;
}

__attribute__((noinline)) static int32_t lookup_terminated(const table_record *record, enum entry entry, const char *name, uint64_t *out) {
    if (!(atomic_load_explicit(&record->open_entries, memory_order_acquire) & (1u << entry))) {
        return closed();
    }
    char buffer[LANEHOST_MAX_NAME_BYTES + 1u];
    int64_t length = read_name(name, buffer);
    return length < 0 ? LANEHOST_INVALID_ARGUMENT
                      : ((lookup_n_fn)record->stubs[entry])(buffer, (uint64_t)length, out);
}

__attribute__((noinline)) static int32_t ring_lookup_terminated(const table_record *record, const char *name, uint64_t *ring_out,
                                      void **memory_out, uint64_t *memory_length_out) {
    if (!(atomic_load_explicit(&record->open_entries, memory_order_acquire) & (1u << E_ring_lookup_n))) {
        return closed();
    }
    char buffer[LANEHOST_MAX_NAME_BYTES + 1u];
    int64_t length = read_name(name, buffer);
    return length < 0 ? LANEHOST_INVALID_ARGUMENT
                      : ((ring_lookup_n_fn)record->stubs[E_ring_lookup_n])(buffer, (uint64_t)length, ring_out,
                                                                           memory_out, memory_length_out);
}

/* ---------------------------------------------------------------- one trampoline set per table */

/* Entry `e` of record `n`: its stub while the entry is open, else the C answer (same arguments: a tail call). */
#define FORWARD(n, e, type, closed_answer, ...)                                                                       \
    const table_record *record = &records[n];                                                                          \
    if (__builtin_expect(                                                                                             \
            (atomic_load_explicit(&record->open_entries, memory_order_acquire) & (1u << (e))) != 0, 1)) {             \
        return ((type)record->stubs[e])(__VA_ARGS__);                                                                  \
    }                                                                                                                  \
    return closed_answer(__VA_ARGS__)

#define TRAMPOLINE_SET(n)                                                                                              \
    static int32_t lane_lookup_##n(const char *name, uint64_t *out) {                                                  \
        return lookup_terminated(&records[n], E_lane_lookup_n, name, out);                                             \
    }                                                                                                                  \
    static int32_t lane_lookup_n_##n(const char *name, uint64_t length, uint64_t *out) {                               \
        FORWARD(n, E_lane_lookup_n, lookup_n_fn, closed_lookup_n, name, length, out);                                  \
    }                                                                                                                  \
    static int32_t lane_drive_##n(uint64_t lane, int32_t max_turns, lanehost_drive_counts *counts) {                   \
        FORWARD(n, E_lane_drive, lane_drive_fn, closed_lane_drive, lane, max_turns, counts);                           \
    }                                                                                                                  \
    static int32_t lane_bind_##n(uint64_t lane) {                                                                      \
        FORWARD(n, E_lane_bind, handle_fn, closed_handle, lane);                                                       \
    }                                                                                                                  \
    static int32_t lane_release_##n(uint64_t lane) {                                                                   \
        FORWARD(n, E_lane_release, handle_fn, closed_handle, lane);                                                    \
    }                                                                                                                  \
    static int32_t thread_warm_up_##n(void) {                                                                          \
        const table_record *record = &records[n];                                                                      \
        if (atomic_load_explicit(&record->open_entries, memory_order_acquire) & (1u << E_thread_warm_up)) {           \
            return ((warm_up_fn)record->stubs[E_thread_warm_up])();                                                    \
        }                                                                                                              \
        return closed_warm_up();                                                                                       \
    }                                                                                                                  \
    static int32_t gate_lookup_##n(const char *name, uint64_t *out) {                                                  \
        return lookup_terminated(&records[n], E_gate_lookup_n, name, out);                                             \
    }                                                                                                                  \
    static int32_t gate_lookup_n_##n(const char *name, uint64_t length, uint64_t *out) {                               \
        FORWARD(n, E_gate_lookup_n, lookup_n_fn, closed_lookup_n, name, length, out);                                  \
    }                                                                                                                  \
    static int32_t gate_call_##n(uint64_t gate, const uint8_t *args, uint64_t args_length, uint8_t *result,            \
                                 uint64_t result_capacity, uint64_t *result_length, int64_t timeout_nanos) {           \
        FORWARD(n, E_gate_call, lanehost_gate_call_fn, closed_gate_call, gate, args, args_length, result,              \
                result_capacity, result_length, timeout_nanos);                                                        \
    }                                                                                                                  \
    static int32_t gate_call_on_lane_##n(uint64_t gate, uint64_t lane, const uint8_t *args, uint64_t args_length,      \
                                         uint8_t *result, uint64_t result_capacity, uint64_t *result_length,           \
                                         int32_t max_turns) {                                                          \
        FORWARD(n, E_gate_call_on_lane, lanehost_gate_call_on_lane_fn, closed_gate_call_on_lane, gate, lane, args,    \
                args_length, result, result_capacity, result_length, max_turns);                                       \
    }                                                                                                                  \
    static int32_t signal_lookup_##n(const char *name, uint64_t *out) {                                                \
        return lookup_terminated(&records[n], E_signal_lookup_n, name, out);                                           \
    }                                                                                                                  \
    static int32_t signal_lookup_n_##n(const char *name, uint64_t length, uint64_t *out) {                             \
        FORWARD(n, E_signal_lookup_n, lookup_n_fn, closed_lookup_n, name, length, out);                                \
    }                                                                                                                  \
    static int32_t signal_fire_##n(uint64_t signal, const uint8_t *payload, uint64_t payload_length) {                 \
        FORWARD(n, E_signal_fire, signal_fire_fn, closed_signal_fire, signal, payload, payload_length);                \
    }                                                                                                                  \
    static int32_t ring_lookup_##n(const char *name, uint64_t *ring_out, void **memory_out,                            \
                                   uint64_t *memory_length_out) {                                                      \
        return ring_lookup_terminated(&records[n], name, ring_out, memory_out, memory_length_out);                     \
    }                                                                                                                  \
    static int32_t ring_lookup_n_##n(const char *name, uint64_t length, uint64_t *ring_out, void **memory_out,         \
                                     uint64_t *memory_length_out) {                                                    \
        FORWARD(n, E_ring_lookup_n, ring_lookup_n_fn, closed_ring_lookup_n, name, length, ring_out, memory_out,       \
                memory_length_out);                                                                                    \
    }                                                                                                                  \
    static int32_t ring_release_##n(uint64_t ring) {                                                                   \
        FORWARD(n, E_ring_release, handle_fn, closed_handle, ring);                                                    \
    }

/* The table set n hands out; `size` and the version are written when it opens. */
#define TABLE_OF_SET(n)                                                                                                \
    {0, 0, lane_lookup_##n, lane_drive_##n, lane_bind_##n, lane_release_##n, thread_warm_up_##n, gate_lookup_##n,      \
     gate_call_##n, gate_call_on_lane_##n, signal_lookup_##n, signal_fire_##n, ring_lookup_##n, ring_release_##n,     \
     lanehost_last_error, lane_lookup_n_##n, gate_lookup_n_##n, signal_lookup_n_##n, ring_lookup_n_##n},

/*
 * Set numbers as octal literals spelled digit by digit (00000 .. 01777 is 0 .. 1023), so one token is both a
 * function-name suffix and the record's index. Each level pastes one more digit.
 */
#define SETS_8(M, p) M(p##0) M(p##1) M(p##2) M(p##3) M(p##4) M(p##5) M(p##6) M(p##7)
#define SETS_64(M, p)                                                                                                  \
    SETS_8(M, p##0) SETS_8(M, p##1) SETS_8(M, p##2) SETS_8(M, p##3) SETS_8(M, p##4) SETS_8(M, p##5) SETS_8(M, p##6)  \
    SETS_8(M, p##7)
#define SETS_512(M, p)                                                                                                 \
    SETS_64(M, p##0) SETS_64(M, p##1) SETS_64(M, p##2) SETS_64(M, p##3) SETS_64(M, p##4) SETS_64(M, p##5)           \
    SETS_64(M, p##6) SETS_64(M, p##7)
#define SETS_1024(M) SETS_512(M, 00) SETS_512(M, 01)

SETS_1024(TRAMPOLINE_SET)

static const lanehost_api SET_TABLES[] = {SETS_1024(TABLE_OF_SET)};

_Static_assert(sizeof SET_TABLES / sizeof SET_TABLES[0] == LANEHOST_MAX_TABLES, "one table per trampoline set");

/* ---------------------------------------------------------------- opening and closing */

const char *lanehost_tables_entry_name(uint32_t index) {
    return index < ENTRIES ? ENTRY_NAMES[index] : NULL;
}

int32_t lanehost_tables_reserve(uint32_t *instance_out) {
    if (instance_out == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "instance_out is NULL");
    }
    if (atomic_load_explicit(&jvm_ended, memory_order_acquire)) {
        return fail(LANEHOST_REFUSED, "lanehost_embed_shutdown ended the JVM: no table opens after it");
    }
    uint32_t instance = atomic_fetch_add_explicit(&tables_reserved, 1u, memory_order_relaxed);
    if (instance >= LANEHOST_MAX_TABLES) {
        atomic_store_explicit(&tables_reserved, LANEHOST_MAX_TABLES, memory_order_relaxed); /* never wraps */
        return fail(LANEHOST_REFUSED,
                    "this process has opened %u host ABIs, the most it can: each keeps its table and its handles for "
                    "the life of the process, so that no function pointer or handle a host kept ever reaches a later "
                    "one; share one host ABI per runtime instead of opening one per use",
                    LANEHOST_MAX_TABLES);
    }
    *instance_out = instance;
    return LANEHOST_OK;
}

int32_t lanehost_tables_open(uint32_t instance, void *const *stubs, uint32_t stub_count,
                             const lanehost_api **table_out) {
    if (stubs == NULL || table_out == NULL || stub_count != ENTRIES) {
        return fail(LANEHOST_INVALID_ARGUMENT, "lanehost_tables_open needs %u stubs and table_out", ENTRIES);
    }
    if (instance >= atomic_load_explicit(&tables_reserved, memory_order_relaxed)) {
        return fail(LANEHOST_INVALID_ARGUMENT, "table %u was never reserved", instance);
    }
    for (uint32_t e = 0; e < ENTRIES; e++) {
        if (stubs[e] == NULL) {
            return fail(LANEHOST_INVALID_ARGUMENT, "the stub for %s is NULL", ENTRY_NAMES[e]);
        }
    }
    table_record *record = &records[instance];
    if (record->table.size != 0) {
        return fail(LANEHOST_INVALID_ARGUMENT, "table %u is open already", instance);
    }
    memcpy(record->stubs, stubs, sizeof record->stubs);
    record->table = SET_TABLES[instance];
    record->table.abi_version = LANEHOST_HOST_ABI_VERSION;
    record->table.size = (uint32_t)sizeof(lanehost_api);
    if (!atomic_load_explicit(&jvm_ended, memory_order_acquire)) {
        atomic_store_explicit(&record->open_entries, ALL_ENTRIES, memory_order_release); /* publishes the stubs */
    }
    *table_out = &record->table;
    return LANEHOST_OK;
}

void lanehost_tables_restrict(uint32_t instance, uint32_t open_entries) {
    if (instance < LANEHOST_MAX_TABLES) {
        atomic_fetch_and_explicit(&records[instance].open_entries, open_entries, memory_order_release);
    }
}

void lanehost_tables_shut_down(void) {
    atomic_store_explicit(&jvm_ended, 1, memory_order_release);
    uint32_t opened = atomic_load_explicit(&tables_reserved, memory_order_acquire);
    for (uint32_t instance = 0; instance < opened && instance < LANEHOST_MAX_TABLES; instance++) {
        atomic_store_explicit(&records[instance].open_entries, 0u, memory_order_seq_cst);
    }
}
