/*
 * testhost_entries.c - every member of a host function table called once from a pthread Java never saw, and
 * whether that attached the thread to the JVM: how a test shows that a closed table answers in C alone.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <jni.h>
#include <pthread.h>
#include <string.h>

#include "lanehost/lanehost_testhost.h"

typedef jint(JNICALL *get_created_java_vms_fn)(JavaVM **, jsize, jsize *);

typedef struct every_entry {
    const lanehost_api *api;
    uint64_t handle;
    uint32_t skip;
    int32_t *statuses;
    int32_t attached;
} every_entry;

/* 1 if the calling thread is attached to the process's JVM, 0 if not, -1 if there is no JVM to ask. */
static int32_t thread_attached(void) {
    get_created_java_vms_fn created = (get_created_java_vms_fn)dlsym(RTLD_DEFAULT, "JNI_GetCreatedJavaVMs");
    JavaVM *jvm = NULL;
    jsize count = 0;
    if (created == NULL || created(&jvm, 1, &count) != JNI_OK || count == 0) {
        return -1;
    }
    void *env = NULL;
    jint code = (*jvm)->GetEnv(jvm, &env, JNI_VERSION_1_8);
    return code == JNI_EDETACHED ? 0 : code == JNI_OK ? 1 : -1;
}

static void *call_every_entry(void *argument) {
    every_entry *e = argument;
    const lanehost_api *api = e->api;
    uint64_t out[3] = {0, 0, 0};
    void *memory = NULL;
    lanehost_drive_counts counts;
    uint8_t args[1] = {0xF6}; /* CBOR null */
    uint8_t result[64];
    char text[256];
    int32_t *s = e->statuses;
    for (uint32_t i = 0; i < LANEHOST_TESTHOST_API_MEMBERS; i++) s[i] = -1;
#define CALL(i, call) if (!(e->skip & (1u << (i)))) s[i] = (call)
    CALL(0, api->lane_lookup("x", &out[0]));
    CALL(1, api->lane_drive(e->handle, 0, &counts));
    CALL(2, api->lane_bind(e->handle));
    CALL(3, api->lane_release(e->handle));
    CALL(4, api->thread_warm_up());
    CALL(5, api->gate_lookup("x", &out[0]));
    CALL(6, api->gate_call(e->handle, args, 1, result, sizeof result, &out[1], 1000000));
    CALL(7, api->gate_call_on_lane(e->handle, e->handle, args, 1, result, sizeof result, &out[1], 0));
    CALL(8, api->signal_lookup("x", &out[0]));
    CALL(9, api->signal_fire(e->handle, args, 1));
    CALL(10, api->ring_lookup("x", &out[0], &memory, &out[2]));
    CALL(11, api->ring_release(e->handle));
    CALL(12, api->last_error(text, sizeof text, &out[0]));
    CALL(13, api->lane_lookup_n("x", 1, &out[0]));
    CALL(14, api->gate_lookup_n("x", 1, &out[0]));
    CALL(15, api->signal_lookup_n("x", 1, &out[0]));
    CALL(16, api->ring_lookup_n("x", 1, &out[0], &memory, &out[2]));
#undef CALL
    e->attached = thread_attached();
    return NULL;
}

int32_t lanehost_testhost_call_every_entry(const lanehost_api *api, uint64_t handle, uint32_t skip, int32_t *statuses,
                                           int32_t *attached) {
    every_entry e = {api, handle, skip, statuses, -1};
    pthread_t thread;
    if (pthread_create(&thread, NULL, call_every_entry, &e) != 0 || pthread_join(thread, NULL) != 0) {
        return LANEHOST_TESTHOST_THREAD_FAILED;
    }
    *attached = e.attached;
    return 0;
}
