/* testhost.c - foreign pthreads that produce and consume through SPSC rings. */
#define _POSIX_C_SOURCE 200809L /* nanosleep, for the producer's pauses */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lanehost/lanehost_testhost.h"

struct lanehost_testhost_thread {
    pthread_t thread;
    lanehost_ring ring;
    int32_t role;
    uint64_t total;
    uint64_t random_state;
    uint64_t seed;
    uint32_t max_chunk;
    uint32_t flags;
    uint8_t *buffer;
    _Atomic int stop_requested;
    /* Results, written by the thread, read after pthread_join. */
    uint64_t moved;
    uint64_t first_mismatch;
    int32_t status;
};

uint32_t lanehost_testhost_abi_version(void) {
    return LANEHOST_TESTHOST_ABI_VERSION;
}

uint32_t lanehost_testhost_handle_bits(uint32_t field) {
    switch (field) {
    case 0: return LANEHOST_TESTHOST_HANDLE_SLOT_BITS;
    case 1: return LANEHOST_TESTHOST_HANDLE_GENERATION_BITS;
    case 2: return LANEHOST_TESTHOST_HANDLE_INSTANCE_BITS;
    case 3: return LANEHOST_TESTHOST_HANDLE_CHECK_BITS;
    default: return 0;
    }
}

uint64_t lanehost_testhost_handle_check(uint64_t handle) {
    uint32_t crc = 0;
    for (int shift = 56; shift >= 8; shift -= 8) {
        crc ^= (uint32_t)(handle >> shift) & 0xFFu;
        for (int bit = 0; bit < 8; bit++) {
            crc = (crc & 0x80u) != 0 ? ((crc << 1) ^ 0x07u) & 0xFFu : (crc << 1) & 0xFFu;
        }
    }
    return crc;
}

uint8_t lanehost_testhost_pattern_byte(uint64_t position, uint64_t seed) {
    /* Every byte depends on its position at three scales, so a lost, repeated or reordered chunk of
       any length below 2^32 changes what the consumer sees. */
    uint64_t mixed = position ^ (position >> 8) ^ (position >> 16) ^ (position >> 24) ^ seed ^ (seed >> 8);
    return (uint8_t)mixed;
}

void *lanehost_testhost_ring_alloc(uint64_t capacity) {
    if (lanehost_ring_check_capacity(capacity) != LANEHOST_RING_OK) return NULL;
    uint64_t length = LANEHOST_RING_MEMORY_LENGTH(capacity);
    /* aligned_alloc wants a size that is a multiple of the alignment: round up (capacity may be 64). */
    const uint64_t alignment = LANEHOST_RING_ALIGNMENT;
    void *memory = aligned_alloc((size_t)alignment, (size_t)((length + alignment - 1) & ~(alignment - 1)));
    if (memory == NULL) return NULL;
    lanehost_ring ring;
    if (lanehost_ring_init(&ring, memory, length, capacity) != LANEHOST_RING_OK) {
        free(memory);
        return NULL;
    }
    return memory;
}

void lanehost_testhost_ring_free(void *memory) {
    free(memory);
}

/* Backs off politely: these threads share two cores with the JVM. */
static void spin_wait(uint32_t *spins) {
    if (++*spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else {
        sched_yield();
    }
}

static uint64_t next_random(uint64_t *state) {
    /* xorshift64*: cheap, seeded, identical in the Java tests. */
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(2685821657736338717);
}

static uint64_t next_chunk(lanehost_testhost_thread *self, uint64_t remaining) {
    uint64_t chunk = self->max_chunk;
    if (self->flags & LANEHOST_TESTHOST_RANDOM_CHUNKS) {
        chunk = 1 + next_random(&self->random_state) % self->max_chunk;
    }
    return chunk < remaining ? chunk : remaining;
}

/* LANEHOST_TESTHOST_PAUSES: 0 to 50 us, a quarter of the time none. */
static void random_pause(lanehost_testhost_thread *self) {
    const uint64_t draw = next_random(&self->random_state) % 200;
    if (draw >= 50) {
        struct timespec pause = {0, (long)((draw - 50) * 333)};
        nanosleep(&pause, NULL);
    }
}

static void *run_producer(lanehost_testhost_thread *self) {
    const int pattern = (self->flags & LANEHOST_TESTHOST_PATTERN) != 0;
    uint64_t position = 0;
    while (self->total == 0 ? !atomic_load_explicit(&self->stop_requested, memory_order_relaxed)
                            : position < self->total) {
        uint64_t chunk = next_chunk(self, self->total == 0 ? UINT64_MAX : self->total - position);
        if (pattern) {
            for (uint64_t i = 0; i < chunk; i++) {
                self->buffer[i] = lanehost_testhost_pattern_byte(position + i, self->seed);
            }
        }
        uint64_t done = 0;
        uint32_t spins = 0;
        while (done < chunk) {
            int64_t written = lanehost_ring_write(&self->ring, self->buffer + done, chunk - done);
            if (written < 0) {
                self->status = (int32_t)written;
                self->moved = position + done;
                return NULL;
            }
            if (written == 0) {
                if (self->total == 0 && atomic_load_explicit(&self->stop_requested, memory_order_relaxed)) {
                    self->moved = position + done;
                    return NULL;
                }
                spin_wait(&spins);
            } else {
                spins = 0;
            }
            done += (uint64_t)written;
        }
        position += chunk;
        if (self->flags & LANEHOST_TESTHOST_PAUSES) random_pause(self);
    }
    self->moved = position;
    return NULL;
}

static void *run_consumer(lanehost_testhost_thread *self) {
    const int pattern = (self->flags & LANEHOST_TESTHOST_PATTERN) != 0;
    uint64_t position = 0;
    uint32_t spins = 0;
    while (self->total == 0 ? !atomic_load_explicit(&self->stop_requested, memory_order_relaxed)
                            : position < self->total) {
        uint64_t chunk = next_chunk(self, self->total == 0 ? UINT64_MAX : self->total - position);
        int64_t got = lanehost_ring_read(&self->ring, self->buffer, chunk);
        if (got < 0) {
            self->status = (int32_t)got;
            break;
        }
        if (got == 0 && (self->flags & LANEHOST_TESTHOST_WAIT)) {
            /* The whole chunk (the producer will write it: it is no more than what is left), so writes of
               part of it wake this thread early and it sleeps again. */
            const uint64_t min_bytes = chunk < self->ring.capacity ? chunk : self->ring.capacity;
            const int64_t waited = lanehost_ring_wait_readable(&self->ring, min_bytes, LANEHOST_TESTHOST_WAIT_TIMEOUT_NANOS);
            if (waited < 0 && waited != LANEHOST_RING_INTERRUPTED) {
                self->status = (int32_t)waited;
                break;
            }
            continue;
        }
        if (got == 0) {
            spin_wait(&spins);
            continue;
        }
        spins = 0;
        if (pattern && self->first_mismatch == UINT64_MAX) {
            for (int64_t i = 0; i < got; i++) {
                if (self->buffer[i] != lanehost_testhost_pattern_byte(position + (uint64_t)i, self->seed)) {
                    self->first_mismatch = position + (uint64_t)i;
                    break;
                }
            }
        }
        position += (uint64_t)got;
    }
    self->moved = position;
    return NULL;
}

static void *run(void *argument) {
    lanehost_testhost_thread *self = argument;
    return self->role == LANEHOST_TESTHOST_PRODUCER ? run_producer(self) : run_consumer(self);
}

int32_t lanehost_testhost_start(lanehost_testhost_thread **out, int32_t role, void *memory, uint64_t memory_length,
                                uint64_t total, uint64_t seed, uint32_t max_chunk, uint32_t flags) {
    if (out == NULL || memory == NULL || max_chunk == 0 ||
        (role != LANEHOST_TESTHOST_PRODUCER && role != LANEHOST_TESTHOST_CONSUMER) ||
        ((flags & LANEHOST_TESTHOST_WAIT) && (role != LANEHOST_TESTHOST_CONSUMER || total == 0))) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    *out = NULL;
    lanehost_testhost_thread *self = calloc(1, sizeof(*self));
    if (self == NULL) return LANEHOST_TESTHOST_OUT_OF_MEMORY;
    int status = lanehost_ring_wrap(&self->ring, memory, memory_length);
    if (status != LANEHOST_RING_OK) {
        free(self);
        return status;
    }
    self->buffer = malloc(max_chunk);
    if (self->buffer == NULL) {
        free(self);
        return LANEHOST_TESTHOST_OUT_OF_MEMORY;
    }
    self->role = role;
    self->total = total;
    self->seed = seed;
    self->random_state = seed * UINT64_C(0x9E3779B97F4A7C15) + 1; /* never zero */
    self->max_chunk = max_chunk;
    self->flags = flags;
    self->first_mismatch = UINT64_MAX;
    atomic_init(&self->stop_requested, 0);
    if (pthread_create(&self->thread, NULL, run, self) != 0) {
        free(self->buffer);
        free(self);
        return LANEHOST_TESTHOST_THREAD_FAILED;
    }
    *out = self;
    return LANEHOST_RING_OK;
}

void lanehost_testhost_stop(lanehost_testhost_thread *thread) {
    if (thread != NULL) atomic_store_explicit(&thread->stop_requested, 1, memory_order_relaxed);
}

int32_t lanehost_testhost_join(lanehost_testhost_thread *thread, uint64_t *moved, uint64_t *first_mismatch) {
    if (thread == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    pthread_join(thread->thread, NULL);
    if (moved != NULL) *moved = thread->moved;
    if (first_mismatch != NULL) *first_mismatch = thread->first_mismatch;
    int32_t status = thread->status;
    free(thread->buffer);
    free(thread);
    return status;
}

int64_t lanehost_testhost_transfer(int32_t role, void *memory, uint64_t memory_length, uint64_t total, uint32_t chunk) {
    if (chunk == 0 || (role != LANEHOST_TESTHOST_PRODUCER && role != LANEHOST_TESTHOST_CONSUMER)) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    lanehost_ring ring;
    int status = lanehost_ring_wrap(&ring, memory, memory_length);
    if (status != LANEHOST_RING_OK) return status;
    /* One buffer per calling thread, kept between calls, so a benchmark's floor measures only the ring. */
    static _Thread_local uint8_t *buffer = NULL;
    static _Thread_local uint32_t buffer_length = 0;
    if (buffer_length < chunk) {
        uint8_t *grown = realloc(buffer, chunk);
        if (grown == NULL) return LANEHOST_TESTHOST_OUT_OF_MEMORY;
        memset(grown, 0, chunk);
        buffer = grown;
        buffer_length = chunk;
    }
    uint64_t moved = 0;
    uint32_t spins = 0;
    while (moved < total) {
        uint64_t want = total - moved < chunk ? total - moved : chunk;
        int64_t n = role == LANEHOST_TESTHOST_PRODUCER ? lanehost_ring_write(&ring, buffer, want)
                                                        : lanehost_ring_read(&ring, buffer, want);
        if (n < 0) return n;
        if (n == 0) {
            spin_wait(&spins);
        } else {
            spins = 0;
            moved += (uint64_t)n;
        }
    }
    return (int64_t)moved;
}

int64_t lanehost_testhost_move_chunks(int32_t role, void *memory, uint64_t memory_length, void *buffer, uint64_t chunks,
                                      uint32_t chunk) {
    if (buffer == NULL || chunk == 0 || (role != LANEHOST_TESTHOST_PRODUCER && role != LANEHOST_TESTHOST_CONSUMER)) {
        return LANEHOST_RING_INVALID_ARGUMENT;
    }
    lanehost_ring ring;
    int status = lanehost_ring_wrap(&ring, memory, memory_length);
    if (status != LANEHOST_RING_OK) return status;
    uint8_t *bytes = buffer;
    uint32_t spins = 0;
    for (uint64_t i = 0; i < chunks; i++) {
        for (uint64_t done = 0; done < chunk;) {
            int64_t n = role == LANEHOST_TESTHOST_PRODUCER ? lanehost_ring_write(&ring, bytes + done, chunk - done)
                                                            : lanehost_ring_read(&ring, bytes + done, chunk - done);
            if (n < 0) return n;
            if (n == 0) {
                spin_wait(&spins);
            } else {
                spins = 0;
                done += (uint64_t)n;
            }
        }
    }
    return (int64_t)(chunks * chunk);
}

int64_t lanehost_testhost_echo(void *memory, uint64_t memory_length, uint64_t pairs, uint32_t chunk) {
    lanehost_ring ring;
    int status = lanehost_ring_wrap(&ring, memory, memory_length);
    if (status != LANEHOST_RING_OK) return status;
    if (chunk == 0 || chunk > ring.capacity) return LANEHOST_RING_INVALID_ARGUMENT;
    uint8_t *source = calloc(chunk, 1);
    uint8_t *destination = malloc(chunk);
    if (source == NULL || destination == NULL) {
        free(source);
        free(destination);
        return LANEHOST_TESTHOST_OUT_OF_MEMORY;
    }
    int64_t result = 0;
    for (uint64_t i = 0; i < pairs; i++) {
        int64_t written = lanehost_ring_write(&ring, source, chunk);
        int64_t read = written == (int64_t)chunk ? lanehost_ring_read(&ring, destination, chunk) : written;
        if (read != (int64_t)chunk) {
            result = read < 0 ? read : LANEHOST_RING_INVALID_ARGUMENT;
            break;
        }
        result += read;
    }
    free(source);
    free(destination);
    return result;
}

/* ---- foreign threads calling into Java ---- */

typedef struct call_batch {
    lanehost_testhost_upcall fn;
    int64_t argument;
    uint32_t calls;
    int32_t *results;
} call_batch;

static void *run_calls(void *argument) {
    call_batch *batch = argument;
    for (uint32_t i = 0; i < batch->calls; i++) {
        batch->results[i] = batch->fn(batch->argument);
    }
    return NULL;
}

int32_t lanehost_testhost_call_on_new_thread(lanehost_testhost_upcall fn, int64_t argument, uint32_t calls,
                                             int32_t *results) {
    if (fn == NULL || (results == NULL && calls > 0)) return LANEHOST_RING_INVALID_ARGUMENT;
    call_batch batch = {fn, argument, calls, results};
    pthread_t thread;
    if (pthread_create(&thread, NULL, run_calls, &batch) != 0) return LANEHOST_TESTHOST_THREAD_FAILED;
    pthread_join(thread, NULL);
    return LANEHOST_RING_OK;
}

struct lanehost_testhost_caller {
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    lanehost_testhost_upcall fn;
    int64_t argument;
    uint64_t requested; /* calls asked for by the current batch; 0 = none pending */
    int64_t sum;
    int done;           /* the current batch finished */
    int stop;
};

/*
 * The start and stop both request-driven pthreads below share (a caller, a host thread): a mutex and a
 * condition guarding the request fields, and a stop flag the thread checks while it waits.
 */
static int32_t worker_start(pthread_t *thread, pthread_mutex_t *mutex, pthread_cond_t *changed,
                            void *(*run)(void *), void *argument) {
    pthread_mutex_init(mutex, NULL);
    pthread_cond_init(changed, NULL);
    if (pthread_create(thread, NULL, run, argument) != 0) {
        pthread_cond_destroy(changed);
        pthread_mutex_destroy(mutex);
        return LANEHOST_TESTHOST_THREAD_FAILED;
    }
    return LANEHOST_RING_OK;
}

static void worker_stop(pthread_t thread, pthread_mutex_t *mutex, pthread_cond_t *changed, int *stop) {
    pthread_mutex_lock(mutex);
    *stop = 1;
    pthread_cond_broadcast(changed);
    pthread_mutex_unlock(mutex);
    pthread_join(thread, NULL);
    pthread_cond_destroy(changed);
    pthread_mutex_destroy(mutex);
}

static void *run_caller(void *argument) {
    lanehost_testhost_caller *caller = argument;
    pthread_mutex_lock(&caller->mutex);
    for (;;) {
        while (caller->requested == 0 && !caller->stop) pthread_cond_wait(&caller->changed, &caller->mutex);
        if (caller->stop) break;
        uint64_t calls = caller->requested;
        pthread_mutex_unlock(&caller->mutex);
        int64_t sum = 0;
        for (uint64_t i = 0; i < calls; i++) sum += caller->fn(caller->argument);
        pthread_mutex_lock(&caller->mutex);
        caller->sum = sum;
        caller->requested = 0;
        caller->done = 1;
        pthread_cond_broadcast(&caller->changed);
    }
    pthread_mutex_unlock(&caller->mutex);
    return NULL;
}

int32_t lanehost_testhost_caller_start(lanehost_testhost_caller **out, lanehost_testhost_upcall fn, int64_t argument) {
    if (out == NULL || fn == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    *out = NULL;
    lanehost_testhost_caller *caller = calloc(1, sizeof(*caller));
    if (caller == NULL) return LANEHOST_TESTHOST_OUT_OF_MEMORY;
    caller->fn = fn;
    caller->argument = argument;
    int32_t started = worker_start(&caller->thread, &caller->mutex, &caller->changed, run_caller, caller);
    if (started != LANEHOST_RING_OK) {
        free(caller);
        return started;
    }
    *out = caller;
    int64_t warm = lanehost_testhost_caller_run(caller, 1); /* the JVM attaches the thread here, once */
    return warm < 0 ? (int32_t)warm : LANEHOST_RING_OK;
}

int64_t lanehost_testhost_caller_run(lanehost_testhost_caller *caller, uint64_t calls) {
    if (caller == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    if (calls == 0) return 0;
    pthread_mutex_lock(&caller->mutex);
    caller->done = 0;
    caller->requested = calls;
    pthread_cond_broadcast(&caller->changed);
    while (!caller->done) pthread_cond_wait(&caller->changed, &caller->mutex);
    int64_t sum = caller->sum;
    pthread_mutex_unlock(&caller->mutex);
    return sum;
}

void lanehost_testhost_caller_stop(lanehost_testhost_caller *caller) {
    if (caller == NULL) return;
    worker_stop(caller->thread, &caller->mutex, &caller->changed, &caller->stop);
    free(caller);
}

/* ---- gate calls from foreign threads ---- */

typedef struct gate_call {
    lanehost_testhost_upcall drive;
    lanehost_gate_call_fn call;
    lanehost_gate_call_on_lane_fn call_on_lane;
    uint64_t gate;
    uint64_t lane;
    const uint8_t *args;
    uint64_t args_length;
    uint8_t *result;
    uint64_t result_capacity;
    uint64_t *result_length;
    int64_t timeout_nanos;
    int32_t max_turns;
    int32_t status;
} gate_call;

static void *run_gate_call(void *argument) {
    gate_call *c = argument;
    if (c->call_on_lane != NULL) {
        c->status = c->call_on_lane(c->gate, c->lane, c->args, c->args_length, c->result, c->result_capacity,
                                    c->result_length, c->max_turns);
    } else {
        if (c->drive != NULL) c->drive(0);
        c->status = c->call(c->gate, c->args, c->args_length, c->result, c->result_capacity, c->result_length,
                            c->timeout_nanos);
    }
    return NULL;
}

static int32_t run_gate_call_thread(gate_call *c, int32_t *status) {
    if (status == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    pthread_t thread;
    if (pthread_create(&thread, NULL, run_gate_call, c) != 0) return LANEHOST_TESTHOST_THREAD_FAILED;
    pthread_join(thread, NULL);
    *status = c->status;
    return LANEHOST_RING_OK;
}

int32_t lanehost_testhost_gate_call_on_new_thread(lanehost_testhost_upcall drive, lanehost_gate_call_fn fn, uint64_t gate,
                                                  const uint8_t *args, uint64_t args_length, uint8_t *result,
                                                  uint64_t result_capacity, uint64_t *result_length,
                                                  int64_t timeout_nanos, int32_t *status) {
    if (fn == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    gate_call c = {drive, fn, NULL, gate, 0, args, args_length, result, result_capacity, result_length,
                   timeout_nanos, 0, 0};
    return run_gate_call_thread(&c, status);
}

int32_t lanehost_testhost_gate_call_on_lane_on_new_thread(lanehost_gate_call_on_lane_fn fn, uint64_t gate, uint64_t lane,
                                                          const uint8_t *args, uint64_t args_length, uint8_t *result,
                                                          uint64_t result_capacity, uint64_t *result_length,
                                                          int32_t max_turns, int32_t *status) {
    if (fn == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    gate_call c = {NULL, NULL, fn, gate, lane, args, args_length, result, result_capacity, result_length, 0,
                   max_turns, 0};
    return run_gate_call_thread(&c, status);
}

/* ---- a host thread that calls the host ABI table on request ---- */

struct lanehost_testhost_host_thread {
    const lanehost_api *api;
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    int pending; /* a request is waiting for the thread */
    int stop;
    int32_t op;
    uint64_t lane;
    uint64_t gate;
    int32_t max_turns;
    const uint8_t *args;
    uint64_t args_length;
    uint8_t *result;
    uint64_t result_capacity;
    uint64_t *result_length;
    int64_t timeout_nanos;
    lanehost_drive_counts *counts;
    uint64_t repeat; /* calls per request; 1 unless a benchmark asks for a batch */
    int32_t status;
    uint64_t ok_calls;
    uint64_t last_nanos; /* CLOCK_MONOTONIC time the last request's calls took, all repeats */
};

static int32_t host_thread_call(lanehost_testhost_host_thread *t) {
    const lanehost_api *api = t->api;
    switch (t->op) {
    case LANEHOST_TESTHOST_DRIVE: return api->lane_drive(t->lane, t->max_turns, t->counts);
    case LANEHOST_TESTHOST_BIND: return api->lane_bind(t->lane);
    case LANEHOST_TESTHOST_RELEASE: return api->lane_release(t->lane);
    case LANEHOST_TESTHOST_WARM_UP: return api->thread_warm_up();
    case LANEHOST_TESTHOST_GATE_CALL:
        return api->gate_call(t->gate, t->args, t->args_length, t->result, t->result_capacity, t->result_length,
                              t->timeout_nanos);
    case LANEHOST_TESTHOST_GATE_CALL_ON_LANE:
        return api->gate_call_on_lane(t->gate, t->lane, t->args, t->args_length, t->result, t->result_capacity,
                                      t->result_length, t->max_turns);
    default: return LANEHOST_INVALID_ARGUMENT;
    }
}

static void *run_host_thread(void *argument) {
    lanehost_testhost_host_thread *t = argument;
    pthread_mutex_lock(&t->mutex);
    while (1) {
        while (!t->pending && !t->stop) pthread_cond_wait(&t->changed, &t->mutex);
        if (t->stop) break;
        pthread_mutex_unlock(&t->mutex);
        int32_t status = LANEHOST_OK;
        uint64_t ok_calls = 0;
        struct timespec began, ended;
        clock_gettime(CLOCK_MONOTONIC, &began);
        for (uint64_t i = 0; i < t->repeat; i++) { /* outside the lock: a call may take as long as it likes */
            status = host_thread_call(t);
            ok_calls += status == LANEHOST_OK;
        }
        clock_gettime(CLOCK_MONOTONIC, &ended);
        pthread_mutex_lock(&t->mutex);
        t->last_nanos = (uint64_t)(ended.tv_sec - began.tv_sec) * 1000000000u + (uint64_t)ended.tv_nsec - (uint64_t)began.tv_nsec;
        t->status = status;
        t->ok_calls = ok_calls;
        t->pending = 0;
        pthread_cond_broadcast(&t->changed);
    }
    pthread_mutex_unlock(&t->mutex);
    return NULL;
}

/* With the mutex held and the request's fields set: hands the request to the thread and waits for it to finish. */
static void host_thread_await_request(lanehost_testhost_host_thread *t) {
    t->pending = 1;
    pthread_cond_broadcast(&t->changed);
    while (t->pending) pthread_cond_wait(&t->changed, &t->mutex);
}

int32_t lanehost_testhost_host_thread_start(lanehost_testhost_host_thread **out, const lanehost_api *api) {
    if (out == NULL || api == NULL) return LANEHOST_RING_INVALID_ARGUMENT;
    *out = NULL;
    lanehost_testhost_host_thread *t = calloc(1, sizeof(*t));
    if (t == NULL) return LANEHOST_TESTHOST_OUT_OF_MEMORY;
    t->api = api;
    int32_t started = worker_start(&t->thread, &t->mutex, &t->changed, run_host_thread, t);
    if (started != LANEHOST_RING_OK) {
        free(t);
        return started;
    }
    *out = t;
    return LANEHOST_RING_OK;
}

/* With the mutex not held: sets a request's fields, has the thread make it `times` times, and returns with the mutex
 * held so the caller can read the outcome. */
static void host_thread_request(lanehost_testhost_host_thread *t, int32_t op, uint64_t lane, uint64_t gate,
                                int32_t max_turns, const uint8_t *args, uint64_t args_length, uint8_t *result,
                                uint64_t result_capacity, uint64_t *result_length, int64_t timeout_nanos,
                                lanehost_drive_counts *counts, uint64_t times) {
    pthread_mutex_lock(&t->mutex);
    t->op = op;
    t->lane = lane;
    t->gate = gate;
    t->max_turns = max_turns;
    t->args = args;
    t->args_length = args_length;
    t->result = result;
    t->result_capacity = result_capacity;
    t->result_length = result_length;
    t->timeout_nanos = timeout_nanos;
    t->counts = counts;
    t->repeat = times;
    host_thread_await_request(t);
}

int32_t lanehost_testhost_host_thread_run(lanehost_testhost_host_thread *t, int32_t op, uint64_t lane, uint64_t gate,
                                          int32_t max_turns, const uint8_t *args, uint64_t args_length,
                                          uint8_t *result, uint64_t result_capacity, uint64_t *result_length,
                                          int64_t timeout_nanos, lanehost_drive_counts *counts) {
    if (t == NULL) return LANEHOST_INVALID_ARGUMENT;
    host_thread_request(t, op, lane, gate, max_turns, args, args_length, result, result_capacity, result_length,
                        timeout_nanos, counts, 1);
    int32_t status = t->status;
    pthread_mutex_unlock(&t->mutex);
    return status;
}

int64_t lanehost_testhost_host_thread_run_repeat(lanehost_testhost_host_thread *t, int32_t op, uint64_t lane,
                                                 uint64_t gate, int32_t max_turns, const uint8_t *args,
                                                 uint64_t args_length, uint8_t *result, uint64_t result_capacity,
                                                 uint64_t *result_length, int64_t timeout_nanos, uint64_t times) {
    if (t == NULL) return LANEHOST_INVALID_ARGUMENT;
    if (times == 0) return 0;
    host_thread_request(t, op, lane, gate, max_turns, args, args_length, result, result_capacity, result_length,
                        timeout_nanos, NULL, times);
    int64_t ok_calls = (int64_t)t->ok_calls;
    pthread_mutex_unlock(&t->mutex);
    return ok_calls;
}

int64_t lanehost_testhost_host_thread_drive_repeat(lanehost_testhost_host_thread *t, uint64_t lane, int32_t max_turns,
                                                   uint64_t times) {
    return lanehost_testhost_host_thread_run_repeat(t, LANEHOST_TESTHOST_DRIVE, lane, 0, max_turns, NULL, 0, NULL, 0,
                                                    NULL, 0, times);
}

uint64_t lanehost_testhost_host_thread_last_nanos(lanehost_testhost_host_thread *t) {
    if (t == NULL) return 0;
    pthread_mutex_lock(&t->mutex);
    uint64_t nanos = t->last_nanos;
    pthread_mutex_unlock(&t->mutex);
    return nanos;
}

void lanehost_testhost_host_thread_stop(lanehost_testhost_host_thread *t) {
    if (t == NULL) return;
    worker_stop(t->thread, &t->mutex, &t->changed, &t->stop);
    free(t);
}
