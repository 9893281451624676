/*
 * test_ring_membarrier_refused.c - a process where membarrier(2) is refused, as a seccomp filter in a container
 * refuses it (or a kernel before 4.14, which lacks it): waiting answers LANEHOST_RING_UNSUPPORTED and takes its
 * announcement back, and polling still moves every byte. The program refuses the command itself, with a seccomp
 * filter that answers EPERM to membarrier and allows everything else (a few BPF instructions, no libseccomp), before
 * it makes its first wait; a filter holds for the whole process and cannot be lifted, hence a program of its own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>

#include "check.h"
#include "lanehost/lanehost_ring.h"

#if defined(__x86_64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define THIS_AUDIT_ARCH AUDIT_ARCH_RISCV64
#else
#error "test_ring_membarrier_refused: add this architecture's AUDIT_ARCH_ constant"
#endif

#define CAPACITY 4096u
#define STREAM_BYTES (UINT64_C(4) << 20)
/* Only a consumer asleep on nothing reaches it; a refused wait returns at once. */
#define LONG_TIMEOUT_NANOS (INT64_C(30) * 1000000000)

static alignas(128) uint8_t memory[LANEHOST_RING_MEMORY_LENGTH(CAPACITY)];

/* membarrier answers EPERM; every other call, and any call of another architecture's numbering, is allowed. */
static int refuse_membarrier(void) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_AUDIT_ARCH, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_membarrier, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {.len = (unsigned short)(sizeof(filter) / sizeof(filter[0])), .filter = filter};
    /* Without privileges a filter needs no_new_privs; TSYNC puts it on every thread (there is only this one yet). */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program);
}

static uint8_t pattern_byte(uint64_t position) {
    return (uint8_t)(position ^ (position >> 8) ^ (position >> 16));
}

static void aWaitWhereMembarrierIsRefusedAnswersUnsupportedAndWithdraws(void) {
    lanehost_ring ring = {0};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_init(&ring, memory, sizeof(memory), CAPACITY));

    CHECK_EQ(LANEHOST_RING_UNSUPPORTED, lanehost_ring_wait_readable(&ring, 1, LONG_TIMEOUT_NANOS));
    CHECK(!lanehost_ring_has_waiter(&ring)); /* a write after it must not make a wake for nobody */
    CHECK_EQ(1, lanehost_ring_write(&ring, "x", 1));
    CHECK_EQ(0, lanehost_ring_wake_count(&ring));

    /* What needs no fence still answers: bytes already there, and a zero timeout on too few. */
    CHECK_EQ(1, lanehost_ring_wait_readable(&ring, 1, LONG_TIMEOUT_NANOS));
    CHECK_EQ(LANEHOST_RING_TIMED_OUT, lanehost_ring_wait_readable(&ring, 2, 0));
    CHECK_EQ(LANEHOST_RING_UNSUPPORTED, lanehost_ring_wait_readable(&ring, 2, LONG_TIMEOUT_NANOS));
    CHECK(!lanehost_ring_has_waiter(&ring));
}

typedef struct producer {
    lanehost_ring ring;
    int64_t failed_status;
} producer;

static void *produce(void *argument) {
    producer *self = argument;
    uint8_t chunk[700]; /* not a divisor of the capacity: pieces wrap at every offset */
    uint64_t produced = 0;
    while (produced < STREAM_BYTES) {
        uint64_t length = STREAM_BYTES - produced < sizeof(chunk) ? STREAM_BYTES - produced : sizeof(chunk);
        for (uint64_t i = 0; i < length; i++) chunk[i] = pattern_byte(produced + i);
        int64_t wrote = lanehost_ring_write(&self->ring, chunk, length);
        if (wrote < 0) {
            self->failed_status = wrote;
            return NULL;
        }
        produced += (uint64_t)wrote;
        if (wrote == 0) sched_yield();
    }
    return NULL;
}

/* A consumer that tries to wait on an empty ring, is told to poll, and polls: every byte arrives, in order. */
static void pollingMovesEveryByteWhereWaitingIsUnsupported(void) {
    producer writer = {0};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_init(&writer.ring, memory, sizeof(memory), CAPACITY));
    lanehost_ring ring = {0};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_ring_wrap(&ring, memory, sizeof(memory)));
    CHECK_EQ(LANEHOST_RING_UNSUPPORTED, lanehost_ring_wait_readable(&ring, 1, LONG_TIMEOUT_NANOS));
    pthread_t thread;
    CHECK_EQ(0, pthread_create(&thread, NULL, produce, &writer));

    uint64_t consumed = 0, first_mismatch = UINT64_MAX, empty_polls = 0, failed_reads = 0;
    uint8_t buffer[1024];
    while (consumed < STREAM_BYTES) {
        int64_t got = lanehost_ring_read(&ring, buffer, sizeof(buffer));
        if (got < 0) {
            failed_reads++;
            break;
        }
        for (int64_t i = 0; i < got; i++) {
            if (first_mismatch == UINT64_MAX && buffer[i] != pattern_byte(consumed + (uint64_t)i)) {
                first_mismatch = consumed + (uint64_t)i;
            }
        }
        consumed += (uint64_t)got;
        if (got == 0) {
            empty_polls++;
            sched_yield();
        }
    }
    CHECK_EQ(0, pthread_join(thread, NULL));
    CHECK_EQ(0, writer.failed_status);
    CHECK_EQ(0, failed_reads);
    CHECK_EQ(STREAM_BYTES, consumed);
    CHECK_EQ(UINT64_MAX, first_mismatch);
    CHECK(!lanehost_ring_has_waiter(&ring));
    CHECK_EQ(0, lanehost_ring_wake_count(&ring)); /* the refused wait withdrew before the producer started */
    printf("     %" PRIu64 " bytes polled, %" PRIu64 " empty polls\n", consumed, empty_polls);
}

int main(void) {
    /* Allowed here first, so what the tests see is the filter's doing, not a kernel without membarrier. */
    CHECK((int)syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0) & MEMBARRIER_CMD_PRIVATE_EXPEDITED);
    CHECK_EQ(0, refuse_membarrier());
    errno = 0;
    CHECK_EQ(-1, syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0));
    CHECK_EQ(EPERM, errno);
    if (check_failures != 0) return CHECK_EXIT(); /* no refused membarrier: nothing below would test anything */

    RUN_TEST(aWaitWhereMembarrierIsRefusedAnswersUnsupportedAndWithdraws);
    RUN_TEST(pollingMovesEveryByteWhereWaitingIsUnsupported);
    return CHECK_EXIT();
}
