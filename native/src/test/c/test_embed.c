/*
 * test_embed.c - a C program that embeds the JVM through liblanehost_embed and drives a lane from its own
 * main thread. `test_embed options` needs no JVM (CTest runs it); every other scenario starts one and is
 * run by EmbedFromCTest, which passes the JDK and Maven's class path:
 *
 *     test_embed <scenario> <java_home> <class_path>
 *
 * Each start prints "start <what>: <STATUS> <last error>" so the Java test can check the sentences too.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <dlfcn.h>
#include <jni.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lanehost/lanehost_embed.h"

#define SETUP(name) "dev.lanehost.nativeabi.EmbedSetups$" name
#define SECONDS_30 30000000000LL

static const char *java_home;
static const char *class_path;

static int32_t start(const char *what, lanehost_embed_options *options, lanehost_embed **embed,
                     const lanehost_api **api) {
    int32_t status = lanehost_embed_start(options, embed, api);
    const char *name = lanehost_status_name(status);
    printf("start %s: %s %s\n", what, name == NULL ? "?" : name, lanehost_embed_last_error());
    fflush(stdout);
    return status;
}

static lanehost_embed_options options_for(const char *setup_class) {
    lanehost_embed_options options = LANEHOST_EMBED_OPTIONS_INIT;
    options.java_home = java_home;
    options.class_path = class_path;
    options.setup_class = setup_class;
    return options;
}

/* A failed start leaves no handle, no table, and a sentence. */
static void startFails(const char *what, lanehost_embed_options *options, int32_t expected) {
    lanehost_embed *embed = (lanehost_embed *)&embed; /* garbage the start must overwrite */
    const lanehost_api *api = (const lanehost_api *)&api;
    CHECK_EQ(expected, start(what, options, &embed, &api));
    CHECK(embed == NULL);
    CHECK(api == NULL);
    CHECK(strlen(lanehost_embed_last_error()) > 0);
}

/* ---- no JVM needed ---- */

static void badOptionsAreRefusedBeforeAnyJvm(void) {
    lanehost_embed *embed = NULL;
    const lanehost_api *api = NULL;
    lanehost_embed_options options = options_for(SETUP("Frames"));
    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, lanehost_embed_start(NULL, &embed, &api));
    CHECK(strstr(lanehost_embed_last_error(), "options is NULL") != NULL);
    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, lanehost_embed_start(&options, NULL, &api));
    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, lanehost_embed_start(&options, &embed, NULL));

    options.size = 8;
    startFails("size 8", &options, LANEHOST_INVALID_ARGUMENT);
    CHECK(strstr(lanehost_embed_last_error(), "LANEHOST_EMBED_OPTIONS_INIT") != NULL);
    options = options_for(SETUP("Frames"));
    options.version = 0;
    startFails("version 0", &options, LANEHOST_INVALID_ARGUMENT);
    options.version = LANEHOST_EMBED_OPTIONS_VERSION + 1;
    startFails("a newer version", &options, LANEHOST_INVALID_ARGUMENT);
    options = options_for(SETUP("Frames"));
    options.reserved = 7;
    startFails("reserved 7", &options, LANEHOST_INVALID_ARGUMENT);
    options = options_for(NULL);
    startFails("no setup class", &options, LANEHOST_INVALID_ARGUMENT);
    CHECK(strstr(lanehost_embed_last_error(), "setup_class is NULL") != NULL);
    options = options_for("");
    startFails("an empty setup class", &options, LANEHOST_INVALID_ARGUMENT);
    options = options_for(SETUP("Frames"));
    options.jvm_option_count = 2;
    startFails("options NULL with a count", &options, LANEHOST_INVALID_ARGUMENT);
    const char *with_null[] = {"-Xmx64m", NULL};
    options.jvm_options = with_null;
    startFails("a NULL option", &options, LANEHOST_INVALID_ARGUMENT);
    CHECK(strstr(lanehost_embed_last_error(), "jvm_options[1] is NULL") != NULL);

    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, lanehost_embed_stop(NULL));
    CHECK(strstr(lanehost_embed_last_error(), "embed is NULL") != NULL);
}

static void aMissingJdkIsNamedNotCrashedOn(void) {
    lanehost_embed_options options = options_for(SETUP("Frames"));
    options.java_home = "/nonexistent-jdk";
    startFails("a JDK that is not there", &options, LANEHOST_INVALID_ARGUMENT);
    CHECK(strstr(lanehost_embed_last_error(), "/nonexistent-jdk/lib/server/libjvm.so") != NULL);
    CHECK(strstr(lanehost_embed_last_error(), "options->java_home") != NULL);

    options.java_home = NULL;
    setenv("JAVA_HOME", "/also-nonexistent", 1);
    startFails("JAVA_HOME that is not there", &options, LANEHOST_INVALID_ARGUMENT);
    CHECK(strstr(lanehost_embed_last_error(), "/also-nonexistent/lib/server/libjvm.so (from JAVA_HOME)") != NULL);
    unsetenv("JAVA_HOME");
    startFails("no JDK named", &options, LANEHOST_INVALID_ARGUMENT);
    CHECK(strstr(lanehost_embed_last_error(), "no JDK named") != NULL);
}

static void aShutdownWithoutAJvmIsOkAndFinal(void) {
    CHECK_EQ(LANEHOST_OK, lanehost_embed_shutdown());
    CHECK_EQ(LANEHOST_OK, lanehost_embed_shutdown()); /* idempotent */
    lanehost_embed_options options = options_for(SETUP("Frames"));
    options.java_home = "/nonexistent-jdk";
    startFails("after the shutdown", &options, LANEHOST_CLOSED);
    CHECK(strstr(lanehost_embed_last_error(), "lanehost_embed_shutdown was called before any JVM started") != NULL);
}

/* ---- with a JVM (EmbedFromCTest) ---- */

static const uint8_t HI[] = {0x62, 'h', 'i'}; /* CBOR text string "hi" */

/* The drive scenario's table, a struct copy of it, a pointer copied out of it, and handles: for the checks after
 * the shutdown. */
static const lanehost_api *kept_api;
static lanehost_api kept_copy;
static lanehost_gate_call_fn kept_gate_call;
static int32_t (*kept_gate_lookup)(const char *, uint64_t *);
static uint64_t kept_lane, kept_gate;

/*
 * After lanehost_embed_shutdown the JVM is gone, and an upcall into it would abort the process: every entry of a
 * table handed out before must answer CLOSED from C instead, with a last error that says so.
 */
static void aTableAnswersClosedAfterTheShutdown(const lanehost_api *api, uint64_t lane, uint64_t gate) {
    uint64_t handle = 7;
    uint8_t result[16];
    uint64_t length = 99;
    lanehost_drive_counts counts = {-1, -1, -1};
    CHECK_EQ(LANEHOST_CLOSED, api->lane_lookup("frame", &handle));
    CHECK_EQ(7, handle); /* untouched, as on any non-OK lookup */
    CHECK_EQ(LANEHOST_CLOSED, api->lane_drive(lane, 0, &counts));
    CHECK_EQ(-1, counts.turns); /* written only on OK */
    CHECK_EQ(LANEHOST_CLOSED, api->lane_bind(lane));
    CHECK_EQ(LANEHOST_CLOSED, api->lane_release(lane));
    CHECK_EQ(LANEHOST_CLOSED, api->thread_warm_up());
    CHECK_EQ(LANEHOST_CLOSED, api->gate_lookup("echo", &handle));
    CHECK_EQ(LANEHOST_CLOSED, api->gate_call(gate, HI, sizeof HI, result, sizeof result, &length, SECONDS_30));
    CHECK_EQ(0, length);
    length = 99;
    CHECK_EQ(LANEHOST_CLOSED, api->gate_call_on_lane(gate, lane, HI, sizeof HI, result, sizeof result, &length, 0));
    CHECK_EQ(0, length);
    CHECK_EQ(LANEHOST_CLOSED, api->signal_lookup("bell", &handle));
    CHECK_EQ(LANEHOST_CLOSED, api->signal_fire(1, NULL, 0));
    void *memory = NULL;
    CHECK_EQ(LANEHOST_CLOSED, api->ring_lookup("ring", &handle, &memory, &length));
    CHECK_EQ(LANEHOST_CLOSED, api->ring_release(1));
    CHECK_EQ(LANEHOST_CLOSED, api->lane_lookup_n("frame", 5, &handle));
    CHECK_EQ(LANEHOST_CLOSED, api->ring_lookup_n("ring", 4, &handle, &memory, &length));
    char error[256];
    uint64_t error_length = 0;
    CHECK_EQ(LANEHOST_OK, api->last_error(error, sizeof error, &error_length));
    CHECK(error_length > 0 && error_length == strlen(error));
    CHECK(strstr(error, "lanehost_embed_shutdown ended the JVM") != NULL);
    CHECK_EQ(LANEHOST_OK, api->last_error(error, 4, &error_length)); /* truncated, still NUL-terminated */
    CHECK_EQ(3, strlen(error));
    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, api->last_error(error, sizeof error, NULL));
    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, api->last_error(NULL, 8, &error_length));
}

static void drivesFramesAndCallsGatesFromItsOwnLoop(void) {
    lanehost_embed_options options = options_for(SETUP("Frames"));
    options.java_home = NULL; /* JAVA_HOME, which EmbedFromCTest sets */
    const char *jvm_options[] = {"-Xmx256m", "-Dlanehost.embed.test=yes"};
    options.jvm_options = jvm_options;
    options.jvm_option_count = 2;
    lanehost_embed *embed = NULL;
    const lanehost_api *api = NULL;
    if (start("Frames", &options, &embed, &api) != LANEHOST_OK) {
        CHECK(0);
        return;
    }
    CHECK_EQ(0, strlen(lanehost_embed_last_error()));
    CHECK_EQ(LANEHOST_HOST_ABI_VERSION, api->abi_version);
    CHECK(LANEHOST_API_HAS(api, last_error));

    uint64_t frame = 0, echo = 0, frames = 0;
    CHECK_EQ(LANEHOST_OK, api->lane_lookup("frame", &frame));
    CHECK_EQ(LANEHOST_OK, api->gate_lookup("echo", &echo));
    CHECK_EQ(LANEHOST_OK, api->gate_lookup("frames", &frames));

    lanehost_drive_counts counts = {-1, -1, -1};
    CHECK_EQ(LANEHOST_OK, api->lane_drive(frame, 0, &counts)); /* binds the lane to this thread */
    CHECK_EQ(1, counts.turns);                                 /* the lane actor's start */
    CHECK_EQ(0, counts.remaining);

    uint8_t result[64];
    uint64_t length = 0;
    for (int i = 1; i <= 5; i++) {
        /* echo answers "hi" and forwards it to the lane actor: one letter waits on the lane. */
        memset(result, 0, sizeof result);
        CHECK_EQ(LANEHOST_OK, api->gate_call(echo, HI, sizeof HI, result, sizeof result, &length, SECONDS_30));
        CHECK_EQ(sizeof HI, length);
        CHECK_EQ(0, memcmp(HI, result, sizeof HI));
        CHECK_EQ(LANEHOST_OK, api->lane_drive(frame, 0, &counts));
        CHECK_EQ(1, counts.turns);
        CHECK_EQ(0, counts.remaining);
    }

    /* The lane actor's count, read by a call that runs as its turn on this thread: [5, "lanehost-lane-frame"]. */
    static const uint8_t expected[] = {0x82, 0x05, 0x73, 'l', 'a', 'n', 'e', 'h', 'o', 's', 't', '-', 'l', 'a', 'n',
                                       'e', '-', 'f', 'r', 'a', 'm', 'e'};
    CHECK_EQ(LANEHOST_OK, api->gate_call_on_lane(frames, frame, NULL, 0, result, sizeof result, &length, 0));
    CHECK_EQ(sizeof expected, length);
    CHECK_EQ(0, memcmp(expected, result, sizeof expected));

    /* The blocking entry on the lane's own thread would wait for itself: refused with a sentence. */
    CHECK_EQ(LANEHOST_WRONG_THREAD, api->gate_call(frames, NULL, 0, result, sizeof result, &length, SECONDS_30));
    char error[256];
    uint64_t error_length = 0;
    CHECK_EQ(LANEHOST_OK, api->last_error(error, sizeof error, &error_length));
    CHECK(error_length > 0);
    CHECK(strstr(error, "uses gate_call_on_lane") != NULL); /* the C entry's name, not Java's callOnLane */
    CHECK(strstr(error, "callOnLane") == NULL);

    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, api->lane_drive(12345, 0, NULL)); /* answered, not crashed */

    CHECK_EQ(LANEHOST_OK, lanehost_embed_stop(embed));
    CHECK_EQ(0, strlen(lanehost_embed_last_error()));
    /* A second stop of the same handle is answered, not a use of freed memory; so is a pointer no start returned. */
    CHECK_EQ(LANEHOST_CLOSED, lanehost_embed_stop(embed));
    CHECK(strstr(lanehost_embed_last_error(), "stopped already") != NULL);
    int not_a_handle = 0;
    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, lanehost_embed_stop((lanehost_embed *)(void *)&not_a_handle));
    CHECK(strstr(lanehost_embed_last_error(), "is not a handle lanehost_embed_start returned") != NULL);
    /* The table outlives the runtime and answers CLOSED. */
    CHECK_EQ(LANEHOST_CLOSED, api->lane_drive(frame, 0, NULL));
    CHECK_EQ(LANEHOST_CLOSED, api->gate_call(echo, HI, sizeof HI, result, sizeof result, &length, SECONDS_30));
    kept_api = api;
    kept_copy = *api;
    kept_gate_call = api->gate_call;
    kept_gate_lookup = api->gate_lookup;
    kept_lane = frame;
    kept_gate = echo;
}

/* After a failed start the JVM is still there: the right setup class starts and stops. */
static void startsAfterwardsInTheSameJvm(void) {
    lanehost_embed_options options = options_for(SETUP("Frames"));
    options.class_path = NULL; /* whatever the running JVM has */
    lanehost_embed *embed = NULL;
    const lanehost_api *api = NULL;
    CHECK_EQ(LANEHOST_OK, start("Frames again", &options, &embed, &api));
    if (embed != NULL) {
        uint64_t frame = 0;
        CHECK_EQ(LANEHOST_OK, api->lane_lookup("frame", &frame));
        CHECK_EQ(LANEHOST_OK, api->lane_drive(frame, 0, NULL));
        CHECK_EQ(LANEHOST_OK, lanehost_embed_stop(embed));
    }
}

static void anUnknownSetupClassIsAnInvalidArgument(void) {
    lanehost_embed_options options = options_for("no.such.Setup");
    startFails("no.such.Setup", &options, LANEHOST_INVALID_ARGUMENT);
    startsAfterwardsInTheSameJvm();
}

static void aThrowingSetupIsACallbackFailure(void) {
    lanehost_embed_options options = options_for(SETUP("Throwing"));
    startFails("Throwing", &options, LANEHOST_CALLBACK_FAILED);
    startsAfterwardsInTheSameJvm();
}

static void aThrowingConstructorIsACallbackFailure(void) {
    lanehost_embed_options options = options_for(SETUP("ThrowingConstructor"));
    startFails("ThrowingConstructor", &options, LANEHOST_CALLBACK_FAILED);
    startsAfterwardsInTheSameJvm();
}

static void anExceptionWhoseMessageThrowsIsStillReported(void) {
    lanehost_embed_options options = options_for(SETUP("ThrowingUnreadably"));
    startFails("ThrowingUnreadably", &options, LANEHOST_CALLBACK_FAILED);
    startsAfterwardsInTheSameJvm();
}

static void aClassThatIsNoSetupIsAnInvalidArgument(void) {
    lanehost_embed_options options = options_for(SETUP("NotASetup"));
    startFails("NotASetup", &options, LANEHOST_INVALID_ARGUMENT);
    options = options_for(SETUP("NoPublicConstructor"));
    startFails("NoPublicConstructor", &options, LANEHOST_INVALID_ARGUMENT);
    startsAfterwardsInTheSameJvm();
}

static void aClassPathWithoutLanehostIsAnInvalidArgument(void) {
    lanehost_embed_options options = options_for(SETUP("Frames"));
    options.class_path = "/nonexistent/classes";
    startFails("without lanehost", &options, LANEHOST_INVALID_ARGUMENT);
}

static void aSecondJvmConfigurationIsRefused(void) {
    lanehost_embed_options options = options_for(SETUP("Frames"));
    lanehost_embed *embed = NULL;
    const lanehost_api *api = NULL;
    CHECK_EQ(LANEHOST_OK, start("Frames", &options, &embed, &api));
    char other[8192];
    snprintf(other, sizeof other, "%s:/somewhere/else.jar", class_path);
    lanehost_embed_options different = options_for(SETUP("Frames"));
    different.class_path = other;
    startFails("another class path", &different, LANEHOST_INVALID_ARGUMENT);
    const char *jvm_options[] = {"-Xmx64m"};
    different = options_for(SETUP("Frames"));
    different.jvm_options = jvm_options;
    different.jvm_option_count = 1;
    startFails("other JVM options", &different, LANEHOST_INVALID_ARGUMENT);
    /* The same configuration again is a second runtime in the same JVM, with its own table. */
    lanehost_embed *second = NULL;
    const lanehost_api *second_api = NULL;
    CHECK_EQ(LANEHOST_OK, start("Frames, same class path", &options, &second, &second_api));
    CHECK(second_api != api);
    CHECK_EQ(LANEHOST_OK, lanehost_embed_stop(second));
    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, lanehost_embed_shutdown());
    printf("shutdown with a runtime started: %s\n", lanehost_embed_last_error());
    CHECK_EQ(LANEHOST_OK, lanehost_embed_stop(embed));
}

static void aJvmOptionTheJvmRefusesIsAnInvalidArgument(void) {
    lanehost_embed_options options = options_for(SETUP("Frames"));
    const char *jvm_options[] = {"-XX:+NoSuchLanehostFlag"};
    options.jvm_options = jvm_options;
    options.jvm_option_count = 1;
    startFails("an unknown JVM option", &options, LANEHOST_INVALID_ARGUMENT);
    /* A process gets one attempt at creating its JVM: a corrected start says why it cannot. */
    options.jvm_option_count = 0;
    startFails("corrected", &options, LANEHOST_CLOSED);
    CHECK(strstr(lanehost_embed_last_error(), "the JVM refused one of its options") != NULL);
    CHECK(strstr(lanehost_embed_last_error(), "-XX:+NoSuchLanehostFlag") != NULL);
}

/* A host that runs a JVM of its own (created here with JNI): lanehost uses it, but does not end it. */
static void aJvmTheHostStartedIsUsedButNotShutDown(void) {
    char path[8192];
    snprintf(path, sizeof path, "%s/lib/server/libjvm.so", java_home);
    void *libjvm = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    CHECK(libjvm != NULL);
    if (libjvm == NULL) {
        return;
    }
    jint (*create)(JavaVM **, void **, void *) = (jint(*)(JavaVM **, void **, void *))dlsym(libjvm, "JNI_CreateJavaVM");
    snprintf(path, sizeof path, "-Djava.class.path=%s", class_path);
    JavaVMOption jvm_options[] = {{path, NULL}, {"--enable-native-access=ALL-UNNAMED", NULL}};
    JavaVMInitArgs arguments = {JNI_VERSION_24, 2, jvm_options, JNI_FALSE};
    JavaVM *jvm = NULL;
    JNIEnv *env = NULL;
    CHECK_EQ(JNI_OK, create(&jvm, (void **)&env, &arguments));
    if (jvm == NULL) {
        return;
    }
    (*jvm)->DetachCurrentThread(jvm);

    lanehost_embed_options options = options_for(SETUP("Frames"));
    startFails("the host's JVM with a class path", &options, LANEHOST_INVALID_ARGUMENT);
    options.class_path = NULL;
    options.java_home = "/nonexistent-jdk"; /* not needed: no libjvm is loaded */
    lanehost_embed *embed = NULL;
    const lanehost_api *api = NULL;
    CHECK_EQ(LANEHOST_OK, start("the host's JVM", &options, &embed, &api));
    if (embed != NULL) {
        uint64_t frame = 0;
        CHECK_EQ(LANEHOST_OK, api->lane_lookup("frame", &frame));
        CHECK_EQ(LANEHOST_OK, api->lane_drive(frame, 0, NULL));
        CHECK_EQ(LANEHOST_OK, lanehost_embed_stop(embed));
    }
    CHECK_EQ(LANEHOST_INVALID_ARGUMENT, lanehost_embed_shutdown());
    printf("shutdown of the host's JVM: %s\n", lanehost_embed_last_error());
    CHECK_EQ(JNI_OK, (*jvm)->DestroyJavaVM(jvm)); /* its owner ends it */
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "options") == 0) {
        RUN_TEST(badOptionsAreRefusedBeforeAnyJvm);
        RUN_TEST(aMissingJdkIsNamedNotCrashedOn);
        RUN_TEST(aShutdownWithoutAJvmIsOkAndFinal); /* last: nothing starts after it */
        return CHECK_EXIT();
    }
    if (argc != 4) {
        fprintf(stderr, "usage: test_embed options | test_embed <scenario> <java_home> <class_path>\n");
        return 2;
    }
    java_home = argv[2];
    class_path = argv[3];
    static const struct {
        const char *name;
        void (*run)(void);
        int lanehost_owns_the_jvm;
    } scenarios[] = {
        {"drive", drivesFramesAndCallsGatesFromItsOwnLoop, 1},
        {"unknown-setup", anUnknownSetupClassIsAnInvalidArgument, 1},
        {"throwing-setup", aThrowingSetupIsACallbackFailure, 1},
        {"throwing-constructor", aThrowingConstructorIsACallbackFailure, 1},
        {"unreadable-message", anExceptionWhoseMessageThrowsIsStillReported, 1},
        {"not-a-setup", aClassThatIsNoSetupIsAnInvalidArgument, 1},
        {"no-lanehost", aClassPathWithoutLanehostIsAnInvalidArgument, 1},
        {"second-configuration", aSecondJvmConfigurationIsRefused, 1},
        {"refused-jvm-option", aJvmOptionTheJvmRefusesIsAnInvalidArgument, 1},
        {"running-jvm", aJvmTheHostStartedIsUsedButNotShutDown, 0},
    };
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        if (strcmp(argv[1], scenarios[i].name) == 0) {
            check_current_test = scenarios[i].name;
            scenarios[i].run();
            if (scenarios[i].lanehost_owns_the_jvm) {
                /* Like a well-behaved host: end the JVM, after which nothing starts. */
                CHECK_EQ(LANEHOST_OK, lanehost_embed_shutdown());
                if (kept_api != NULL) {
                    aTableAnswersClosedAfterTheShutdown(kept_api, kept_lane, kept_gate);
                    aTableAnswersClosedAfterTheShutdown(&kept_copy, kept_lane, kept_gate); /* the struct copy */
                    uint8_t result[16];
                    uint64_t length = 99;
                    uint64_t handle = 7;
                    CHECK_EQ(LANEHOST_CLOSED, kept_gate_call(kept_gate, HI, sizeof HI, result, sizeof result, &length, 0));
                    CHECK_EQ(0, length);
                    CHECK_EQ(LANEHOST_CLOSED, kept_gate_lookup("echo", &handle));
                    CHECK_EQ(7, handle);
                }
                lanehost_embed_options options = options_for(SETUP("Frames"));
                lanehost_embed *embed = NULL;
                const lanehost_api *api = NULL;
                CHECK_EQ(LANEHOST_CLOSED, start("after the shutdown", &options, &embed, &api));
            }
            printf("%s %s\n", check_failures == 0 ? "ok  " : "FAIL", scenarios[i].name);
            return CHECK_EXIT();
        }
    }
    fprintf(stderr, "test_embed: no scenario named '%s'\n", argv[1]);
    return 2;
}
