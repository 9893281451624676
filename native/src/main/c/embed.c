/*
 * embed.c - liblanehost_embed: a C program starts the JVM and a lanehost runtime in its own process and gets
 * the host function table (lanehost_embed.h).
 *
 * libjvm is loaded with dlopen from a JDK named at run time rather than linked: the library (and the
 * programs built on it) then carry no JDK path from the build machine, and a user picks the JDK the way a
 * `java` launcher does, with JAVA_HOME.
 *
 * Start, in steps:
 *  1. Check the options; nothing touches the JVM before they are valid.
 *  2. Under jvm_lock: reuse the process's JVM (ours, or one already running, e.g. from the `java` launcher),
 *     else load $java_home/lib/server/libjvm.so and create it. The calling thread is attached for the call.
 *  3. Call dev.lanehost.nativeabi.EmbeddedRuntime.start(setupClass, hostAbiVersion); it never throws by
 *     contract and returns an object whose status() is read first. Every JNI call is followed by an
 *     exception check: a pending exception is described (class via Class.getName, message via
 *     Throwable.getMessage, itself checked) and cleared, never left for the JVM to trip over.
 *  4. Keep a global reference to that object for stop; detach the thread if step 2 attached it.
 * Stop calls EmbeddedRuntime.stop() through the global reference; shutdown (DestroyJavaVM) is refused while
 * jvm_users counts a start, a started runtime or a stop. All local references live in one local frame per
 * call, so a thread that stays attached leaks none.
 *
 * An upcall into a JVM that DestroyJavaVM ended cannot attach its thread: HotSpot aborts the process. The
 * tables' entries are liblanehost's C functions, which enter Java only while their entry is open; so shutdown
 * first has Java close every entry of every table for good (EmbeddedRuntime.shutDownTables, through the copy of
 * liblanehost Java loaded), keeping lanehost.h's promise that a late call, through the table or a function pointer
 * copied out of it, is answered, never crashed.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "lanehost/lanehost_embed.h"
#include "embed_internal.h"

#include <dlfcn.h>
#include <jni.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef JNI_VERSION_24
#error "liblanehost_embed needs the JNI headers of JDK 24 or newer (JNI_VERSION_24)"
#endif

/* More options than this is a garbage count, not a JVM command line. */
#define EMBED_MAX_JVM_OPTIONS 4096u
#define EMBED_NATIVE_ACCESS "--enable-native-access=ALL-UNNAMED"
#define EMBED_BOOTSTRAP "dev.lanehost.nativeabi.EmbeddedRuntime"

typedef jint(JNICALL *create_java_vm_fn)(JavaVM **, void **, void *);
typedef jint(JNICALL *get_created_java_vms_fn)(JavaVM **, jsize, jsize *);

/* Kept for the life of the process, as its handed_out_table node is: a handle stays unique, so a second stop (or
 * a stop of a handle no start returned) is answered, never a use of freed memory. */
struct lanehost_embed {
    jobject runtime; /* global reference to the EmbeddedRuntime; NULL once stopped */
    int stopped;     /* under jvm_lock: set by the stop that claims the runtime */
};

/* The process's JVM. Written once under jvm_lock; a JVM lives until lanehost_embed_shutdown or the process ends. */
static pthread_mutex_t jvm_lock = PTHREAD_MUTEX_INITIALIZER;
static JavaVM *process_jvm;
/* Starts in progress, started runtimes and stops in progress: what lanehost_embed_shutdown must wait for. */
static int jvm_users;
static int jvm_shut_down;
/* Why JNI_CreateJavaVM failed, if it did: HotSpot keeps state from a failed attempt (a retry with corrected
 * options came up without its class path), so a process gets one attempt and later starts repeat this. */
static char jvm_creation_failure[EMBED_ERROR_CAPACITY];
/* The class path and options the JVM was created with ("cp\noption\noption\n"), or NULL if it was already
 * running when we came (then they are unknown and later starts must pass none). */
static char *process_jvm_signature;

/* Every runtime a start handed out (one node per start, kept for the life of the process), so a stop can tell a
 * handle it returned from one it did not. Under jvm_lock. */
struct handed_out_table {
    lanehost_embed *embed;
    struct handed_out_table *next;
};
static struct handed_out_table *handed_out_tables;

_Thread_local char last_error[EMBED_ERROR_CAPACITY];

int32_t fail(int32_t status, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(last_error, sizeof last_error, format, arguments);
    va_end(arguments);
    return status;
}

const char *lanehost_embed_last_error(void) {
    return last_error;
}

/* ---------------------------------------------------------------- options */

static int32_t check_options(const lanehost_embed_options *options) {
    const size_t version1_size = offsetof(lanehost_embed_options, reserved) + sizeof options->reserved;
    if (options->size < version1_size) {
        return fail(LANEHOST_INVALID_ARGUMENT,
                    "options->size is %u, smaller than version 1's %zu bytes: start from LANEHOST_EMBED_OPTIONS_INIT",
                    options->size, version1_size);
    }
    if (options->version == 0 || options->version > LANEHOST_EMBED_OPTIONS_VERSION) {
        return fail(LANEHOST_INVALID_ARGUMENT,
                    "options->version is %u; this library knows versions 1..%u: start from LANEHOST_EMBED_OPTIONS_INIT",
                    options->version, LANEHOST_EMBED_OPTIONS_VERSION);
    }
    if (options->reserved != 0) {
        return fail(LANEHOST_INVALID_ARGUMENT, "options->reserved is %u; it must be 0", options->reserved);
    }
    if (options->setup_class == NULL || options->setup_class[0] == '\0') {
        return fail(LANEHOST_INVALID_ARGUMENT,
                    "options->setup_class is %s: name a public class implementing dev.lanehost.nativeabi.HostSetup",
                    options->setup_class == NULL ? "NULL" : "empty");
    }
    if (options->jvm_option_count > EMBED_MAX_JVM_OPTIONS) {
        return fail(LANEHOST_INVALID_ARGUMENT, "options->jvm_option_count is %u, more than the %u allowed",
                    options->jvm_option_count, EMBED_MAX_JVM_OPTIONS);
    }
    if (options->jvm_option_count > 0 && options->jvm_options == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "options->jvm_options is NULL but jvm_option_count is %u",
                    options->jvm_option_count);
    }
    for (uint32_t i = 0; i < options->jvm_option_count; i++) {
        if (options->jvm_options[i] == NULL) {
            return fail(LANEHOST_INVALID_ARGUMENT, "options->jvm_options[%u] is NULL", i);
        }
    }
    return LANEHOST_OK;
}

/* True if the options ask for no particular class path or JVM options: "whatever JVM runs". */
static int takes_running_jvm(const lanehost_embed_options *options) {
    return options->class_path == NULL && options->jvm_option_count == 0;
}

/* "class_path\noption\n...": what makes two starts ask for the same JVM. NULL if out of memory. */
static char *jvm_signature(const lanehost_embed_options *options) {
    const char *class_path = options->class_path == NULL ? "" : options->class_path;
    size_t length = strlen(class_path) + 2;
    for (uint32_t i = 0; i < options->jvm_option_count; i++) {
        length += strlen(options->jvm_options[i]) + 1;
    }
    char *signature = malloc(length);
    if (signature == NULL) {
        return NULL;
    }
    char *end = signature;
    end += sprintf(end, "%s\n", class_path);
    for (uint32_t i = 0; i < options->jvm_option_count; i++) {
        end += sprintf(end, "%s\n", options->jvm_options[i]);
    }
    return signature;
}

/* ---------------------------------------------------------------- the JVM */

/* "option option ...", cut short with "..." if it does not fit: which options a refusing JVM was given. */
static void quote_options(const JavaVMOption *options, jint count, char *buffer, size_t capacity) {
    size_t used = 0;
    buffer[0] = '\0';
    for (jint i = 0; i < count; i++) {
        int wrote = snprintf(buffer + used, capacity - used, "%s%s", i == 0 ? "" : " ", options[i].optionString);
        if (wrote < 0 || (size_t)wrote >= capacity - used) {
            snprintf(buffer + (capacity > 4 ? capacity - 4 : 0), capacity > 4 ? 4 : capacity, "...");
            return;
        }
        used += (size_t)wrote;
    }
}

static int32_t status_of_create_failure(jint code, const char *libjvm, const JavaVMOption *options, jint count) {
    char given[EMBED_ERROR_CAPACITY / 2];
    quote_options(options, count, given, sizeof given);
    switch (code) {
    case JNI_EVERSION:
        return fail(LANEHOST_INVALID_ARGUMENT,
                    "the JVM in %s does not support JNI version 24: lanehost needs a JDK 25 or newer", libjvm);
    case JNI_EINVAL:
        return fail(LANEHOST_INVALID_ARGUMENT, "the JVM refused one of its options (%s); its message is on stderr",
                    given);
    case JNI_ENOMEM:
        return fail(LANEHOST_OUT_OF_MEMORY, "the JVM could not allocate its memory (its message is on stderr)");
    case JNI_EEXIST:
        return fail(LANEHOST_CLOSED, "libjvm says a JVM was already created in this process");
    default:
        return fail(LANEHOST_INVALID_ARGUMENT,
                    "JNI_CreateJavaVM failed with %d (an unrecognised option or a broken JDK; options: %s; the JVM's "
                    "message is on stderr)",
                    (int)code, given);
    }
}

static int32_t create_jvm(const lanehost_embed_options *options, JavaVM **jvm_out, JNIEnv **env_out) {
    const char *java_home = options->java_home;
    const char *from = "options->java_home";
    if (java_home == NULL) {
        java_home = getenv("JAVA_HOME");
        from = "JAVA_HOME";
    }
    if (java_home == NULL || java_home[0] == '\0') {
        return fail(LANEHOST_INVALID_ARGUMENT,
                    "no JDK named: set options->java_home or the JAVA_HOME environment variable to a JDK 25 or newer");
    }
    char libjvm[2048];
    if ((size_t)snprintf(libjvm, sizeof libjvm, "%s/lib/server/libjvm.so", java_home) >= sizeof libjvm) {
        return fail(LANEHOST_INVALID_ARGUMENT, "%s is longer than %zu bytes", from, sizeof libjvm - 32);
    }
    /* RTLD_GLOBAL as the java launcher does, so the JDK's own libraries resolve against this libjvm. */
    void *library = dlopen(libjvm, RTLD_NOW | RTLD_GLOBAL);
    if (library == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "no JVM at %s (from %s): %s; point it at a JDK 25 or newer", libjvm,
                    from, dlerror());
    }
    create_java_vm_fn create = (create_java_vm_fn)dlsym(library, "JNI_CreateJavaVM");
    if (create == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "%s has no JNI_CreateJavaVM; it is not a JVM", libjvm);
    }

    uint32_t count = 0;
    JavaVMOption *vm_options = calloc(options->jvm_option_count + 2u, sizeof *vm_options);
    char *class_path = NULL;
    if (vm_options == NULL) {
        return fail(LANEHOST_OUT_OF_MEMORY, "no memory for %u JVM options", options->jvm_option_count + 2u);
    }
    if (options->class_path != NULL) {
        static const char property[] = "-Djava.class.path=";
        class_path = malloc(sizeof property + strlen(options->class_path));
        if (class_path == NULL) {
            free(vm_options);
            return fail(LANEHOST_OUT_OF_MEMORY, "no memory for the class path option");
        }
        strcpy(class_path, property);
        strcat(class_path, options->class_path);
        vm_options[count++].optionString = class_path;
    }
    vm_options[count++].optionString = (char *)EMBED_NATIVE_ACCESS;
    for (uint32_t i = 0; i < options->jvm_option_count; i++) {
        vm_options[count++].optionString = (char *)options->jvm_options[i];
    }
    JavaVMInitArgs arguments;
    memset(&arguments, 0, sizeof arguments);
    arguments.version = EMBED_JNI_VERSION;
    arguments.nOptions = (jint)count;
    arguments.options = vm_options;
    arguments.ignoreUnrecognized = JNI_FALSE; /* a mistyped option is an error, not silently nothing */

    JavaVM *jvm = NULL;
    JNIEnv *env = NULL;
    jint code = create(&jvm, (void **)&env, &arguments);
    int32_t status = code == JNI_OK ? LANEHOST_OK : status_of_create_failure(code, libjvm, vm_options, (jint)count);
    free(class_path);
    free(vm_options);
    if (status != LANEHOST_OK) {
        snprintf(jvm_creation_failure, sizeof jvm_creation_failure, "%s", last_error);
        return status;
    }
    *jvm_out = jvm;
    *env_out = env;
    return LANEHOST_OK;
}

/* A JVM already running in this process that we did not create (e.g. this is a `java` process), or NULL. */
static JavaVM *running_jvm(void) {
    get_created_java_vms_fn created = (get_created_java_vms_fn)dlsym(RTLD_DEFAULT, "JNI_GetCreatedJavaVMs");
    JavaVM *jvm = NULL;
    jsize count = 0;
    if (created != NULL && created(&jvm, 1, &count) == JNI_OK && count > 0) {
        return jvm;
    }
    return NULL;
}

void release_jvm_user(void) {
    pthread_mutex_lock(&jvm_lock);
    jvm_users--;
    pthread_mutex_unlock(&jvm_lock);
}

/*
 * Step 2: the process's JVM, the calling thread attached to it; *attached says whether this call attached it
 * (and so must detach it). On OK the caller is counted in jvm_users until it calls release_jvm_user.
 */
int32_t enter_jvm(const lanehost_embed_options *options, JNIEnv **env_out, int *attached) {
    *attached = 0;
    pthread_mutex_lock(&jvm_lock);
    int32_t status = LANEHOST_OK;
    if (jvm_shut_down) {
        int had_jvm = process_jvm != NULL;
        pthread_mutex_unlock(&jvm_lock);
        return fail(LANEHOST_CLOSED, had_jvm
                    ? "lanehost_embed_shutdown ended this process's JVM; no runtime can start any more"
                    : "lanehost_embed_shutdown was called before any JVM started; it is final: no runtime can start "
                      "after it in this process");
    }
    if (jvm_creation_failure[0] != '\0') {
        pthread_mutex_unlock(&jvm_lock);
        return fail(LANEHOST_CLOSED, "creating this process's JVM failed earlier and is not tried twice (%s); "
                    "correct the options and start a new process", jvm_creation_failure);
    }
    if (process_jvm == NULL) {
        process_jvm = running_jvm();
        process_jvm_signature = NULL;
        if (process_jvm == NULL) {
            char *signature = jvm_signature(options);
            if (signature == NULL) {
                status = fail(LANEHOST_OUT_OF_MEMORY, "no memory for the JVM's options");
            } else if ((status = create_jvm(options, &process_jvm, env_out)) == LANEHOST_OK) {
                process_jvm_signature = signature;
                jvm_users++;
                *attached = 1; /* creating the JVM attached this thread */
            } else {
                free(signature);
            }
            pthread_mutex_unlock(&jvm_lock);
            return status;
        }
    }
    if (!takes_running_jvm(options)) {
        char *signature = jvm_signature(options);
        if (signature == NULL) {
            status = fail(LANEHOST_OUT_OF_MEMORY, "no memory for the JVM's options");
        } else if (process_jvm_signature == NULL) {
            status = fail(LANEHOST_INVALID_ARGUMENT,
                          "a JVM lanehost did not start already runs in this process; its class path and options "
                          "cannot change: pass class_path NULL and no jvm_options");
        } else if (strcmp(signature, process_jvm_signature) != 0) {
            status = fail(LANEHOST_INVALID_ARGUMENT,
                          "the JVM of this process already runs with another class path or other options (a process "
                          "has one JVM): pass the first start's, or class_path NULL and no jvm_options");
        }
        free(signature);
    }
    JavaVM *jvm = process_jvm;
    if (status == LANEHOST_OK) {
        jvm_users++;
    }
    pthread_mutex_unlock(&jvm_lock);
    if (status != LANEHOST_OK) {
        return status;
    }
    jint code = (*jvm)->GetEnv(jvm, (void **)env_out, EMBED_JNI_VERSION);
    if (code == JNI_EDETACHED) {
        JavaVMAttachArgs attach = {EMBED_JNI_VERSION, "lanehost-embed", NULL};
        code = (*jvm)->AttachCurrentThread(jvm, (void **)env_out, &attach);
        if (code != JNI_OK) {
            release_jvm_user();
            return fail(LANEHOST_INTERNAL_ERROR, "attaching this thread to the JVM failed with %d", (int)code);
        }
        *attached = 1;
    } else if (code != JNI_OK) {
        release_jvm_user();
        return fail(LANEHOST_INTERNAL_ERROR, "the running JVM does not support JNI version 24 (GetEnv: %d)", (int)code);
    }
    return LANEHOST_OK;
}

void leave_jvm(int attached) {
    if (attached) {
        (*process_jvm)->DetachCurrentThread(process_jvm);
    }
}

/* ---------------------------------------------------------------- exceptions and strings */

/* Copies a Java string (modified UTF-8) into buffer; "" on NULL or failure. Clears what it raises. */
void copy_string(JNIEnv *env, jstring string, char *buffer, size_t capacity) {
    buffer[0] = '\0';
    if (string == NULL) {
        return;
    }
    const char *chars = (*env)->GetStringUTFChars(env, string, NULL);
    if (chars == NULL) {
        (*env)->ExceptionClear(env);
        return;
    }
    snprintf(buffer, capacity, "%s", chars);
    (*env)->ReleaseStringUTFChars(env, string, chars);
}

/* Calls a no-argument String method; "" and any exception cleared if it throws. */
static void call_string_method(JNIEnv *env, jobject target, const char *class_name, const char *method, char *buffer,
                               size_t capacity) {
    buffer[0] = '\0';
    jclass type = (*env)->FindClass(env, class_name);
    jmethodID id = type == NULL ? NULL : (*env)->GetMethodID(env, type, method, "()Ljava/lang/String;");
    jstring value = id == NULL ? NULL : (jstring)(*env)->CallObjectMethod(env, target, id);
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
        snprintf(buffer, capacity, "(its %s() threw)", method);
        return;
    }
    copy_string(env, value, buffer, capacity);
}

/*
 * "class: message" of the pending exception, which is cleared. Runs no user code but getMessage(), whose own
 * exception is cleared too. Never leaves an exception pending.
 */
void describe_exception(JNIEnv *env, char *buffer, size_t capacity) {
    jthrowable thrown = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
    if (thrown == NULL) {
        snprintf(buffer, capacity, "(no exception)");
        return;
    }
    char name[256];
    char message[1024];
    jclass type = (*env)->GetObjectClass(env, thrown);
    call_string_method(env, type, "java/lang/Class", "getName", name, sizeof name); /* final in the JDK */
    call_string_method(env, thrown, "java/lang/Throwable", "getMessage", message, sizeof message);
    snprintf(buffer, capacity, "%s%s%s", name[0] ? name : "(an exception of unknown class)", message[0] ? ": " : "",
             message);
}

/* ---------------------------------------------------------------- start and stop */

/*
 * A class of the class path (the bootstrap class, the guests' runtime), from the application class loader. Not FindClass: it picks the loader of the Java
 * frame below the caller, and a thread inside an FFM downcall has only the JDK's own frames there (the boot
 * loader, which cannot see the class path). NULL with the exception pending if it cannot be loaded.
 */
jclass load_class(JNIEnv *env, const char *class_name) {
    jclass loader_class = (*env)->FindClass(env, "java/lang/ClassLoader");
    jmethodID system_loader = loader_class == NULL ? NULL
        : (*env)->GetStaticMethodID(env, loader_class, "getSystemClassLoader", "()Ljava/lang/ClassLoader;");
    jmethodID load_class = system_loader == NULL ? NULL
        : (*env)->GetMethodID(env, loader_class, "loadClass", "(Ljava/lang/String;)Ljava/lang/Class;");
    if (load_class == NULL) {
        return NULL;
    }
    jobject loader = (*env)->CallStaticObjectMethod(env, loader_class, system_loader);
    jstring name = (*env)->ExceptionCheck(env) ? NULL : (*env)->NewStringUTF(env, class_name);
    if (name == NULL) {
        return NULL;
    }
    return (jclass)(*env)->CallObjectMethod(env, loader, load_class, name);
}

/* Step 3 on an attached thread inside a local frame: the EmbeddedRuntime, or a status and last error. */
static int32_t start_runtime(JNIEnv *env, const char *setup_class, jobject *runtime_out, const lanehost_api **api_out) {
    char exception[2048];
    jclass bootstrap = load_class(env, EMBED_BOOTSTRAP);
    if (bootstrap == NULL || (*env)->ExceptionCheck(env)) {
        describe_exception(env, exception, sizeof exception);
        return fail(LANEHOST_INVALID_ARGUMENT,
                    "%s cannot be loaded (%s): the class path must hold lanehost-native and its dependencies, "
                    "built for this JDK",
                    EMBED_BOOTSTRAP, exception);
    }
    jmethodID start = (*env)->GetStaticMethodID(env, bootstrap, "start",
                                                "(Ljava/lang/String;I)Ldev/lanehost/nativeabi/EmbeddedRuntime;");
    jmethodID status_of = start == NULL ? NULL : (*env)->GetMethodID(env, bootstrap, "status", "()I");
    jmethodID failure_of = status_of == NULL ? NULL : (*env)->GetMethodID(env, bootstrap, "failure", "()Ljava/lang/String;");
    jmethodID table_of = failure_of == NULL ? NULL : (*env)->GetMethodID(env, bootstrap, "tableAddress", "()J");
    if (table_of == NULL) {
        describe_exception(env, exception, sizeof exception);
        return fail(LANEHOST_INTERNAL_ERROR,
                    "the lanehost-native on the class path does not match liblanehost_embed (%s)", exception);
    }
    jstring name = (*env)->NewStringUTF(env, setup_class);
    if (name == NULL) {
        describe_exception(env, exception, sizeof exception);
        return fail(LANEHOST_OUT_OF_MEMORY, "the setup class name could not become a Java string (%s)", exception);
    }
    jobject runtime = (*env)->CallStaticObjectMethod(env, bootstrap, start, name, (jint)LANEHOST_HOST_ABI_VERSION);
    jint status = LANEHOST_INTERNAL_ERROR;
    if (!(*env)->ExceptionCheck(env) && runtime != NULL) {
        status = (*env)->CallIntMethod(env, runtime, status_of);
    }
    if ((*env)->ExceptionCheck(env) || runtime == NULL) {
        describe_exception(env, exception, sizeof exception);
        /* Java answers an exhausted heap itself; this is one so exhausted that even its answer could not be made. */
        return fail(strstr(exception, "OutOfMemoryError") != NULL ? LANEHOST_OUT_OF_MEMORY : LANEHOST_INTERNAL_ERROR,
                    "EmbeddedRuntime.start failed: %s", exception);
    }
    if (status != LANEHOST_OK) {
        jstring failure = (jstring)(*env)->CallObjectMethod(env, runtime, failure_of);
        if ((*env)->ExceptionCheck(env)) {
            describe_exception(env, exception, sizeof exception);
            return fail(status, "lanehost_embed_start failed and its reason could not be read (%s)", exception);
        }
        copy_string(env, failure, last_error, sizeof last_error);
        return status;
    }
    jlong table = (*env)->CallLongMethod(env, runtime, table_of);
    jobject global = (*env)->ExceptionCheck(env) ? NULL : (*env)->NewGlobalRef(env, runtime);
    if (global == NULL) {
        describe_exception(env, exception, sizeof exception);
        /* The runtime started but cannot be handed out: close it again so nothing is left running. */
        jmethodID stop = (*env)->GetMethodID(env, bootstrap, "stop", "()Ljava/lang/String;");
        if (stop != NULL) {
            (*env)->CallObjectMethod(env, runtime, stop);
        }
        (*env)->ExceptionClear(env);
        return fail(LANEHOST_OUT_OF_MEMORY, "the started runtime could not be kept (%s); it was stopped", exception);
    }
    *runtime_out = global;
    *api_out = (const lanehost_api *)(uintptr_t)table;
    return LANEHOST_OK;
}

int32_t lanehost_embed_start(const lanehost_embed_options *options, lanehost_embed **out,
                             const lanehost_api **api_out) {
    last_error[0] = '\0';
    if (out != NULL) {
        *out = NULL;
    }
    if (api_out != NULL) {
        *api_out = NULL;
    }
    if (options == NULL || out == NULL || api_out == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "%s is NULL", options == NULL ? "options" : out == NULL ? "out" : "api_out");
    }
    int32_t status = check_options(options);
    if (status != LANEHOST_OK) {
        return status;
    }
    lanehost_embed *embed = calloc(1, sizeof *embed);
    struct handed_out_table *node = malloc(sizeof *node);
    if (embed == NULL || node == NULL) {
        free(embed);
        free(node);
        return fail(LANEHOST_OUT_OF_MEMORY, "no memory for a lanehost_embed");
    }
    JNIEnv *env = NULL;
    int attached = 0;
    status = enter_jvm(options, &env, &attached);
    if (status == LANEHOST_OK) {
        if ((*env)->PushLocalFrame(env, EMBED_LOCAL_FRAME) != JNI_OK) {
            (*env)->ExceptionClear(env);
            status = fail(LANEHOST_OUT_OF_MEMORY, "no memory for JNI local references");
        } else {
            status = start_runtime(env, options->setup_class, &embed->runtime, api_out);
            (*env)->PopLocalFrame(env, NULL);
        }
        leave_jvm(attached);
        if (status != LANEHOST_OK) {
            release_jvm_user();
        }
    }
    if (status != LANEHOST_OK) {
        free(embed);
        free(node);
        *api_out = NULL;
        return status;
    }
    node->embed = embed;
    pthread_mutex_lock(&jvm_lock);
    node->next = handed_out_tables;
    handed_out_tables = node;
    pthread_mutex_unlock(&jvm_lock);
    *out = embed; /* counted in jvm_users until its stop */
    return LANEHOST_OK;
}

/* Claims embed for this stop (claiming 0) or gives it back (claiming 0 after a stop that stopped nothing): a
 * handle no start returned answers INVALID_ARGUMENT, a stopped one (or one being stopped) CLOSED. */
static int32_t claim_stop(lanehost_embed *embed, int claiming) {
    pthread_mutex_lock(&jvm_lock);
    struct handed_out_table *node = handed_out_tables;
    while (node != NULL && node->embed != embed) {
        node = node->next;
    }
    int32_t status = LANEHOST_OK;
    if (node == NULL) {
        status = fail(LANEHOST_INVALID_ARGUMENT, "embed %p is not a handle lanehost_embed_start returned", (void *)embed);
    } else if (!claiming) {
        embed->stopped = 0;
    } else if (embed->stopped) {
        status = fail(LANEHOST_CLOSED, "this runtime is stopped already (lanehost_embed_stop was called for it before)");
    } else {
        embed->stopped = 1;
    }
    pthread_mutex_unlock(&jvm_lock);
    return status;
}

int32_t lanehost_embed_stop(lanehost_embed *embed) {
    last_error[0] = '\0';
    if (embed == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "embed is NULL");
    }
    int32_t status = claim_stop(embed, 1);
    if (status != LANEHOST_OK) {
        return status;
    }
    /* A lanehost_embed exists only after a start that found or created process_jvm: no options to check. */
    static const lanehost_embed_options running = LANEHOST_EMBED_OPTIONS_INIT;
    JNIEnv *env = NULL;
    int attached = 0;
    status = enter_jvm(&running, &env, &attached);
    if (status != LANEHOST_OK) {
        claim_stop(embed, 0); /* nothing was closed: the handle may be stopped again */
        return status;
    }
    char exception[2048];
    if ((*env)->PushLocalFrame(env, EMBED_LOCAL_FRAME) != JNI_OK) {
        describe_exception(env, exception, sizeof exception);
        leave_jvm(attached);
        release_jvm_user();
        claim_stop(embed, 0);
        return fail(LANEHOST_OUT_OF_MEMORY, "no memory for JNI local references (%s); nothing was stopped", exception);
    }
    jclass type = (*env)->GetObjectClass(env, embed->runtime);
    jmethodID stop = (*env)->GetMethodID(env, type, "stop", "()Ljava/lang/String;");
    jstring failure = stop == NULL ? NULL : (jstring)(*env)->CallObjectMethod(env, embed->runtime, stop);
    if ((*env)->ExceptionCheck(env)) {
        describe_exception(env, exception, sizeof exception);
        status = fail(LANEHOST_INTERNAL_ERROR, "EmbeddedRuntime.stop failed: %s", exception);
    } else if (failure != NULL) {
        copy_string(env, failure, last_error, sizeof last_error);
        status = LANEHOST_INTERNAL_ERROR;
    }
    (*env)->PopLocalFrame(env, NULL);
    (*env)->DeleteGlobalRef(env, embed->runtime);
    embed->runtime = NULL;
    leave_jvm(attached);
    release_jvm_user(); /* this call */
    release_jvm_user(); /* the runtime */
    return status; /* embed is kept (16 bytes): a later stop of it answers CLOSED */
}

/* Has Java close every entry of every host table for good (no upcall after this), on an attached thread. */
static int32_t close_every_table(JavaVM *jvm) {
    JNIEnv *env = NULL;
    int attached = 0;
    jint code = (*jvm)->GetEnv(jvm, (void **)&env, EMBED_JNI_VERSION);
    if (code == JNI_EDETACHED) {
        JavaVMAttachArgs attach = {EMBED_JNI_VERSION, "lanehost-embed", NULL};
        if ((*jvm)->AttachCurrentThread(jvm, (void **)&env, &attach) != JNI_OK) {
            return fail(LANEHOST_INTERNAL_ERROR, "attaching this thread to close the host tables failed");
        }
        attached = 1;
    } else if (code != JNI_OK) {
        return fail(LANEHOST_INTERNAL_ERROR, "the JVM does not support JNI version 24 (GetEnv: %d)", (int)code);
    }
    int32_t status = LANEHOST_OK;
    char exception[2048];
    if ((*env)->PushLocalFrame(env, EMBED_LOCAL_FRAME) != JNI_OK) {
        describe_exception(env, exception, sizeof exception);
        status = fail(LANEHOST_OUT_OF_MEMORY, "no memory for JNI local references (%s)", exception);
    } else {
        jclass bootstrap = load_class(env, EMBED_BOOTSTRAP);
        if (bootstrap == NULL || (*env)->ExceptionCheck(env)) {
            (*env)->ExceptionClear(env); /* no lanehost on the class path: no table was ever opened */
            (*env)->PopLocalFrame(env, NULL);
            return LANEHOST_OK;
        }
        jmethodID close = (*env)->GetStaticMethodID(env, bootstrap, "shutDownTables", "()V");
        if (close != NULL) {
            (*env)->CallStaticVoidMethod(env, bootstrap, close);
        }
        if (close == NULL || (*env)->ExceptionCheck(env)) {
            describe_exception(env, exception, sizeof exception);
            status = fail(LANEHOST_INTERNAL_ERROR, "closing the host tables failed (%s); the JVM is kept", exception);
        }
        (*env)->PopLocalFrame(env, NULL);
    }
    if (attached && status != LANEHOST_OK) {
        (*jvm)->DetachCurrentThread(jvm);
    }
    return status;
}

int32_t lanehost_embed_shutdown(void) {
    last_error[0] = '\0';
    pthread_mutex_lock(&jvm_lock);
    if (jvm_shut_down) {
        pthread_mutex_unlock(&jvm_lock);
        return LANEHOST_OK;
    }
    if (jvm_users > 0) {
        int users = jvm_users;
        pthread_mutex_unlock(&jvm_lock);
        return fail(LANEHOST_INVALID_ARGUMENT,
                    "%d runtime(s) are started or starting: lanehost_embed_stop each before the shutdown", users);
    }
    if (process_jvm != NULL && process_jvm_signature == NULL) {
        pthread_mutex_unlock(&jvm_lock);
        return fail(LANEHOST_INVALID_ARGUMENT, "lanehost_embed did not start this process's JVM; its owner ends it");
    }
    jvm_shut_down = 1;
    JavaVM *jvm = process_jvm;
    pthread_mutex_unlock(&jvm_lock);
    if (jvm == NULL) {
        return LANEHOST_OK;
    }
    int32_t closed = close_every_table(jvm);
    if (closed != LANEHOST_OK) {
        return closed; /* the JVM is kept: ending it now could crash a host thread that calls late */
    }
    /* Attaches this thread if it is not, runs the shutdown hooks, waits for non-daemon threads. */
    jint code = (*jvm)->DestroyJavaVM(jvm);
    return code == JNI_OK ? LANEHOST_OK : fail(LANEHOST_INTERNAL_ERROR, "DestroyJavaVM failed with %d", (int)code);
}
