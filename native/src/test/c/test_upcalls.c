/* test_upcalls.c - the test host's foreign threads call a function pointer the way they call Java upcalls. */
#include <pthread.h>
#include <stdatomic.h>

#include "check.h"
#include "lanehost/lanehost_testhost.h"

static pthread_t first_caller;
static _Atomic int calls_made;
static _Atomic int calls_on_other_threads;

static int32_t record_call(int64_t argument) {
    int n = atomic_fetch_add(&calls_made, 1);
    if (n == 0) {
        first_caller = pthread_self();
    } else if (!pthread_equal(first_caller, pthread_self())) {
        atomic_fetch_add(&calls_on_other_threads, 1);
    }
    return (int32_t)(argument + n);
}

static void callsOnANewThreadComeFromOneForeignThread(void) {
    atomic_store(&calls_made, 0);
    atomic_store(&calls_on_other_threads, 0);
    int32_t results[5] = {0};
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_call_on_new_thread(record_call, 100, 5, results));
    CHECK_EQ(5, atomic_load(&calls_made));
    CHECK_EQ(0, atomic_load(&calls_on_other_threads));
    CHECK(!pthread_equal(first_caller, pthread_self()));
    for (int i = 0; i < 5; i++) CHECK_EQ(100 + i, results[i]);
}

static void aCallerThreadRunsBatchesAndStops(void) {
    atomic_store(&calls_made, 0);
    atomic_store(&calls_on_other_threads, 0);
    lanehost_testhost_caller *caller = NULL;
    CHECK_EQ(LANEHOST_RING_OK, lanehost_testhost_caller_start(&caller, record_call, 0));
    CHECK_EQ(1, atomic_load(&calls_made)); /* the warm-up call */
    /* results are 0 + n for n = 1..10 */
    CHECK_EQ(55, lanehost_testhost_caller_run(caller, 10));
    CHECK_EQ(0, lanehost_testhost_caller_run(caller, 0));
    CHECK_EQ(11, atomic_load(&calls_made));
    CHECK_EQ(0, atomic_load(&calls_on_other_threads));
    lanehost_testhost_caller_stop(caller);
}

static void badArgumentsAreRefused(void) {
    int32_t results[1];
    lanehost_testhost_caller *caller = NULL;
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_testhost_call_on_new_thread(NULL, 0, 1, results));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_testhost_call_on_new_thread(record_call, 0, 1, NULL));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_testhost_caller_start(&caller, NULL, 0));
    CHECK_EQ(LANEHOST_RING_INVALID_ARGUMENT, lanehost_testhost_caller_run(NULL, 1));
    lanehost_testhost_caller_stop(NULL);
}

int main(void) {
    RUN_TEST(callsOnANewThreadComeFromOneForeignThread);
    RUN_TEST(aCallerThreadRunsBatchesAndStops);
    RUN_TEST(badArgumentsAreRefused);
    return CHECK_EXIT();
}
