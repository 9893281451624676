/*
 * guest.c - lanehost as a guest in a program someone else wrote (lanehost_guest.h): a plugin finds its bundle, its
 * jars and a JDK by itself, and its instances share the process's one JVM and one runtime.
 *
 * Instantiate, in steps:
 *  1. Check the options; find the bundle (dladdr of the anchor), its class path (the jars in <bundle>/lib) and a JDK
 *     (options, lanehost.conf, JAVA_HOME, the usual directories), collecting every place looked at for the
 *     sentence if none is found.
 *  2. enter_jvm (embed.c) with -Xrs and lanehost.conf's options: creates the process's JVM the first time, joins
 *     it afterwards.
 *  3. dev.lanehost.nativeabi.GuestRuntime.instantiate(setup class, arguments): never throws; its status is read
 *     first. On OK the instance counts as a JVM user until it is freed.
 * Every instance ever made stays in a list for the life of the process (a few hundred bytes), so a pointer freed
 * twice or never returned is answered, never a use of freed memory.
 */
#define _GNU_SOURCE /* dladdr, realpath */
#include "lanehost/lanehost_guest.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "embed_internal.h"
#include "guest_find.h"

#define GUEST_RUNTIME "dev.lanehost.nativeabi.GuestRuntime"
#define MAX_ARGUMENTS 1024u

struct lanehost_guest {
    uint64_t id;
    const lanehost_api *api;
    int freed; /* under guest_lock */
    char name[LANEHOST_GUEST_NAME_CAPACITY];
    struct lanehost_guest *next;
};

static pthread_mutex_t guest_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lanehost_guest *guests; /* every instance made, under guest_lock */

const char *lanehost_guest_last_error(void) {
    return last_error;
}

/* ---------------------------------------------------------------- the Java side */

/* A String[] of the NULL-terminated arguments; NULL with a status set on failure. */
static jobjectArray java_arguments(JNIEnv *env, const char *const *arguments, int32_t *status) {
    uint32_t count = 0;
    while (arguments != NULL && arguments[count] != NULL && count <= MAX_ARGUMENTS) {
        count++;
    }
    if (count > MAX_ARGUMENTS) {
        *status = fail(LANEHOST_INVALID_ARGUMENT, "more than %u arguments (is the list NULL-terminated?)", MAX_ARGUMENTS);
        return NULL;
    }
    jclass string_class = (*env)->FindClass(env, "java/lang/String");
    jobjectArray array = string_class == NULL ? NULL : (*env)->NewObjectArray(env, (jsize)count, string_class, NULL);
    for (uint32_t i = 0; array != NULL && i < count; i++) {
        jstring value = (*env)->NewStringUTF(env, arguments[i]);
        if (value == NULL) {
            array = NULL;
            break;
        }
        (*env)->SetObjectArrayElement(env, array, (jsize)i, value);
        (*env)->DeleteLocalRef(env, value);
    }
    if (array == NULL) {
        char exception[1024];
        describe_exception(env, exception, sizeof exception);
        *status = fail(LANEHOST_OUT_OF_MEMORY, "the arguments could not become Java strings (%s)", exception);
    }
    return array;
}

/* Step 3 on an attached thread inside a local frame. */
static int32_t instantiate_in_java(JNIEnv *env, const char *setup_class, const char *const *arguments,
                                   struct lanehost_guest *guest) {
    char exception[2048];
    jclass runtime = load_class(env, GUEST_RUNTIME);
    if (runtime == NULL || (*env)->ExceptionCheck(env)) {
        describe_exception(env, exception, sizeof exception);
        return fail(LANEHOST_INVALID_ARGUMENT, "%s cannot be loaded (%s): the bundle's lib directory must hold "
                    "lanehost-native and its dependencies", GUEST_RUNTIME, exception);
    }
    jmethodID instantiate = (*env)->GetStaticMethodID(env, runtime, "instantiate",
                                                      "(Ljava/lang/String;[Ljava/lang/String;)L" "dev/lanehost/nativeabi/GuestRuntime;");
    jmethodID status_of = instantiate == NULL ? NULL : (*env)->GetMethodID(env, runtime, "status", "()I");
    jmethodID failure_of = status_of == NULL ? NULL : (*env)->GetMethodID(env, runtime, "failure", "()Ljava/lang/String;");
    jmethodID id_of = failure_of == NULL ? NULL : (*env)->GetMethodID(env, runtime, "id", "()J");
    jmethodID name_of = id_of == NULL ? NULL : (*env)->GetMethodID(env, runtime, "name", "()Ljava/lang/String;");
    jmethodID table_of = name_of == NULL ? NULL : (*env)->GetMethodID(env, runtime, "tableAddress", "()J");
    if (table_of == NULL) {
        describe_exception(env, exception, sizeof exception);
        return fail(LANEHOST_INTERNAL_ERROR, "the lanehost-native in the bundle does not match liblanehost_embed (%s)",
                    exception);
    }
    int32_t status = LANEHOST_OK;
    jobjectArray java_args = java_arguments(env, arguments, &status);
    jstring name = java_args == NULL ? NULL : (*env)->NewStringUTF(env, setup_class);
    if (name == NULL) {
        return status != LANEHOST_OK ? status : fail(LANEHOST_OUT_OF_MEMORY, "no memory for the setup class name");
    }
    jobject result = (*env)->CallStaticObjectMethod(env, runtime, instantiate, name, java_args);
    if ((*env)->ExceptionCheck(env) || result == NULL) {
        describe_exception(env, exception, sizeof exception);
        return fail(LANEHOST_INTERNAL_ERROR, "GuestRuntime.instantiate failed: %s", exception);
    }
    status = (*env)->CallIntMethod(env, result, status_of);
    if (status != LANEHOST_OK) {
        copy_string(env, (jstring)(*env)->CallObjectMethod(env, result, failure_of), last_error, sizeof last_error);
        (*env)->ExceptionClear(env);
        return status;
    }
    guest->id = (uint64_t)(*env)->CallLongMethod(env, result, id_of);
    copy_string(env, (jstring)(*env)->CallObjectMethod(env, result, name_of), guest->name, sizeof guest->name);
    guest->api = (const lanehost_api *)(uintptr_t)(*env)->CallLongMethod(env, result, table_of);
    if ((*env)->ExceptionCheck(env)) {
        describe_exception(env, exception, sizeof exception);
        return fail(LANEHOST_INTERNAL_ERROR, "reading the new instance failed: %s", exception);
    }
    return LANEHOST_OK;
}

/* ---------------------------------------------------------------- the entries */

int32_t lanehost_guest_instantiate(const lanehost_guest_options *options, const char *const *arguments,
                                   lanehost_guest **out) {
    last_error[0] = '\0';
    if (out != NULL) {
        *out = NULL;
    }
    if (options == NULL || out == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "%s is NULL", options == NULL ? "options" : "out");
    }
    if (options->size < sizeof(lanehost_guest_options) || options->version != LANEHOST_GUEST_OPTIONS_VERSION) {
        return fail(LANEHOST_INVALID_ARGUMENT, "options size %u / version %u are not this library's (%zu / %u): start "
                    "from LANEHOST_GUEST_OPTIONS_HEAD", options->size, options->version, sizeof(lanehost_guest_options),
                    LANEHOST_GUEST_OPTIONS_VERSION);
    }
    if (options->anchor == NULL || options->setup_class == NULL || options->setup_class[0] == '\0') {
        return fail(LANEHOST_INVALID_ARGUMENT, "options->%s is not set", options->anchor == NULL ? "anchor" : "setup_class");
    }
    char bundle[PATH_MAX];
    int32_t status = bundle_of(options->anchor, bundle, sizeof bundle);
    char conf_home[PATH_MAX] = "";
    static char conf_options[MAX_CONF_OPTIONS][256]; /* read under guest_lock */
    uint32_t conf_count = 0;
    char jdk[PATH_MAX];
    char *class_path = NULL;
    struct lanehost_guest *guest = calloc(1, sizeof *guest);
    if (guest == NULL) {
        return fail(LANEHOST_OUT_OF_MEMORY, "no memory for an instance");
    }
    pthread_mutex_lock(&guest_lock);
    if (status == LANEHOST_OK) {
        read_conf(bundle, conf_home, conf_options, &conf_count);
        status = find_jdk(bundle, options->java_home, conf_home, jdk);
    }
    if (status == LANEHOST_OK && options->class_path == NULL) {
        status = jars_of(bundle, &class_path);
    }
    const char *jvm_options[MAX_CONF_OPTIONS + 2];
    uint32_t option_count = 0;
    jvm_options[option_count++] = "-Xrs"; /* SIGINT, SIGTERM, SIGHUP, SIGQUIT stay the host's */
    static char aot_option[PATH_MAX + 32]; /* under guest_lock */
    snprintf(aot_option, sizeof aot_option, "-XX:AOTCache=%.4000s/lanehost.aot", bundle);
    if (status == LANEHOST_OK && access(aot_option + strlen("-XX:AOTCache="), R_OK) == 0) {
        jvm_options[option_count++] = aot_option; /* the bundle's ahead-of-time cache: a faster first instance */
    }
    for (uint32_t i = 0; i < conf_count; i++) {
        jvm_options[option_count++] = conf_options[i];
    }
    JNIEnv *env = NULL;
    int attached = 0;
    if (status == LANEHOST_OK) {
        lanehost_embed_options embed = LANEHOST_EMBED_OPTIONS_INIT;
        embed.java_home = jdk;
        embed.class_path = options->class_path != NULL ? options->class_path : class_path;
        embed.jvm_options = jvm_options;
        embed.jvm_option_count = option_count;
        status = enter_jvm(&embed, &env, &attached);
    }
    free(class_path);
    if (status == LANEHOST_OK) {
        if ((*env)->PushLocalFrame(env, EMBED_LOCAL_FRAME) != JNI_OK) {
            (*env)->ExceptionClear(env);
            status = fail(LANEHOST_OUT_OF_MEMORY, "no memory for JNI local references");
        } else {
            status = instantiate_in_java(env, options->setup_class, arguments, guest);
            (*env)->PopLocalFrame(env, NULL);
        }
        leave_jvm(attached);
        if (status != LANEHOST_OK) {
            release_jvm_user(); /* on OK the instance keeps it until its free */
        }
    }
    if (status != LANEHOST_OK) {
        pthread_mutex_unlock(&guest_lock);
        free(guest);
        return status;
    }
    guest->next = guests;
    guests = guest;
    pthread_mutex_unlock(&guest_lock);
    *out = guest;
    return LANEHOST_OK;
}

/* True if `guest` is one lanehost_guest_instantiate returned. Under guest_lock. */
static int known(const lanehost_guest *guest) {
    for (const struct lanehost_guest *node = guests; node != NULL; node = node->next) {
        if (node == guest) {
            return 1;
        }
    }
    return 0;
}

const lanehost_api *lanehost_guest_api(const lanehost_guest *guest) {
    return guest == NULL ? NULL : guest->api;
}

const char *lanehost_guest_name(const lanehost_guest *guest) {
    return guest == NULL ? "" : guest->name;
}

int32_t lanehost_guest_exported(const lanehost_guest *guest, const char *local, char *buffer, size_t capacity) {
    if (guest == NULL || local == NULL || buffer == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "%s is NULL", guest == NULL ? "guest" : local == NULL ? "local" : "buffer");
    }
    int written = snprintf(buffer, capacity, "%s/%s", guest->name, local);
    if (written < 0 || (size_t)written >= capacity) {
        return fail(LANEHOST_INVALID_ARGUMENT, "the exported name %s/%s needs %d bytes; the buffer has %zu", guest->name,
                    local, written + 1, capacity);
    }
    return LANEHOST_OK;
}

int32_t lanehost_guest_free(lanehost_guest *guest) {
    last_error[0] = '\0';
    if (guest == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "guest is NULL");
    }
    pthread_mutex_lock(&guest_lock);
    int32_t status = !known(guest) ? fail(LANEHOST_INVALID_ARGUMENT, "%p is not an instance lanehost_guest_instantiate "
                                          "returned", (void *)guest)
                     : guest->freed ? fail(LANEHOST_CLOSED, "the instance %s was freed already", guest->name)
                                    : LANEHOST_OK;
    if (status != LANEHOST_OK) {
        pthread_mutex_unlock(&guest_lock);
        return status;
    }
    static const lanehost_embed_options running = LANEHOST_EMBED_OPTIONS_INIT;
    JNIEnv *env = NULL;
    int attached = 0;
    status = enter_jvm(&running, &env, &attached);
    if (status == LANEHOST_OK) {
        char exception[2048];
        if ((*env)->PushLocalFrame(env, EMBED_LOCAL_FRAME) != JNI_OK) {
            describe_exception(env, exception, sizeof exception);
            status = fail(LANEHOST_OUT_OF_MEMORY, "no memory for JNI local references (%s)", exception);
        } else {
            jclass runtime = load_class(env, GUEST_RUNTIME);
            jmethodID free_id = runtime == NULL || (*env)->ExceptionCheck(env)
                                    ? NULL : (*env)->GetStaticMethodID(env, runtime, "free", "(J)Ljava/lang/String;");
            jstring failure = free_id == NULL ? NULL
                              : (jstring)(*env)->CallStaticObjectMethod(env, runtime, free_id, (jlong)guest->id);
            if (free_id == NULL || (*env)->ExceptionCheck(env)) {
                describe_exception(env, exception, sizeof exception);
                status = fail(LANEHOST_INTERNAL_ERROR, "GuestRuntime.free failed: %s", exception);
            } else if (failure != NULL) {
                copy_string(env, failure, last_error, sizeof last_error);
                status = LANEHOST_INTERNAL_ERROR; /* freed all the same: what failed is in the sentence */
            }
            (*env)->PopLocalFrame(env, NULL);
        }
        leave_jvm(attached);
        release_jvm_user(); /* this call */
        if (status == LANEHOST_OK || status == LANEHOST_INTERNAL_ERROR) {
            guest->freed = 1;
            release_jvm_user(); /* the instance */
        }
    }
    pthread_mutex_unlock(&guest_lock);
    return status;
}
