/*
 * lanehost_guest.h - lanehost inside a program someone else wrote: a plugin (an LV2 plugin, a GStreamer element,
 * a test runner's suite) that an unmodified host loads with dlopen, calls on threads it owns, and unloads when it
 * pleases. Link with -llanehost_embed (part of liblanehost_embed); libjvm is loaded at run time.
 *
 *     static const lanehost_guest_options OPTIONS = {
 *         LANEHOST_GUEST_OPTIONS_HEAD, (const void *)&lv2_descriptor,   // anchor: any function of the plugin
 *         "com.example.DelaySetup" };                                      // implements dev.lanehost.nativeabi.GuestSetup
 *     const char *arguments[] = {"sample_rate=48000", NULL};
 *     lanehost_guest *guest;
 *     if (lanehost_guest_instantiate(&OPTIONS, arguments, &guest) != LANEHOST_OK) {
 *         fprintf(stderr, "%s\n", lanehost_guest_last_error());           // one line: what was looked for
 *         return NULL;                                                     // the host carries on
 *     }
 *     const lanehost_api *api = lanehost_guest_api(guest);
 *     char name[LANEHOST_GUEST_NAME_CAPACITY];
 *     lanehost_guest_exported(guest, "capture", name, sizeof name);       // "DelaySetup#1/capture"
 *     api->ring_lookup(name, &ring, &memory, &length);
 *     ...
 *     lanehost_guest_free(guest);                                          // only this instance's objects go
 *
 * What the guest does for a plugin:
 *  - Finds itself. The bundle is the directory of the shared library that holds `anchor` (dladdr). Its jars are
 *    every *.jar in <bundle>/lib, in name order (or `class_path` if set). The JDK (25 or newer) is, in this order:
 *    `java_home` if set; `java_home=` in <bundle>/lanehost.conf; $JAVA_HOME; the newest JDK 25+ under
 *    /usr/lib/jvm, /usr/local/lib/jvm, /opt/java and /usr/java (or, if set, under the
 *    ':'-separated directories of $LANEHOST_JDK_DIRS instead). When none is found, instantiate fails with one
 *    sentence that names every place it looked, and nothing is started.
 *  - Starts fast. When the bundle holds lanehost.aot, an ahead-of-time cache (JDK 25, -XX:AOTCache) made by
 *    dev.lanehost.nativeabi.GuestTraining with the bundle's class path, the JVM starts from it. Later instances
 *    join the running JVM in milliseconds.
 *  - One JVM and one runtime per process. The first instance starts the JVM (or joins one already running) and a
 *    HOSTED runtime with its host ABI; every later instance, of this plugin or another bundle's, shares them. Each
 *    instance gets a name of its own ("<setup class's simple name>#<n>", n never reused in the process) and
 *    exports its lanes, gates, signals and rings under "<name>/<local name>". Freeing an instance closes what its
 *    setup registered with its GuestInstance (gates, rings, actors, free hooks), nothing else. Freeing the last
 *    leaves the JVM and the runtime idle (parked threads, no CPU) for the next instance: a process cannot create
 *    a second JVM, so neither is ever ended.
 *  - Stays resident. liblanehost_embed is linked with -z nodelete, so a host that dlcloses and reloads a plugin
 *    (plugin scanners do it hundreds of times) finds the same JVM, runtime and state on the next load. Link the
 *    plugin itself with -Wl,-z,nodelete too if any thread it started may outlive its cleanup.
 *  - Signals. The JVM is started with -Xrs, so SIGINT, SIGTERM, SIGHUP and SIGQUIT stay the host's (Ctrl-C ends a
 *    host as it did without lanehost; no thread dump on SIGQUIT). HotSpot installs its own handlers for SIGSEGV,
 *    SIGBUS, SIGFPE, SIGILL, SIGTRAP and SIGUSR2 and chains to the handlers the host installed before the JVM
 *    started, so a host's handler for its own faults keeps working. A host that installs such a handler after the
 *    JVM started replaces HotSpot's and breaks the JVM, unless HotSpot's libjsig.so is preloaded
 *    (LD_PRELOAD=$JAVA_HOME/lib/libjsig.so), which chains them. Options from lanehost.conf (`jvm_option=`) follow
 *    -Xrs and may add to it.
 *  - Threads. A host thread is attached to the JVM by its first call into a table (or lanehost_guest_* call) and
 *    detached when it exits, so a host that makes a thread per job leaks nothing.
 *
 * Every function here returns a lanehost_status, never aborts on bad input, and may be called from any thread.
 */
#ifndef LANEHOST_GUEST_H
#define LANEHOST_GUEST_H

#include <stddef.h>
#include <stdint.h>

#include "lanehost/lanehost.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LANEHOST_GUEST_OPTIONS_VERSION 1u
/* An instance's name and its exported names fit in this many bytes with their NUL. */
#define LANEHOST_GUEST_NAME_CAPACITY (LANEHOST_MAX_NAME_BYTES + 1u)

typedef struct lanehost_guest_options {
    uint32_t size;    /* sizeof(lanehost_guest_options) as the caller compiled it */
    uint32_t version; /* LANEHOST_GUEST_OPTIONS_VERSION */
    /* Required: an address inside the plugin's shared library (a function of it); its directory is the bundle. */
    const void *anchor;
    /* Required: the binary name of a public class implementing dev.lanehost.nativeabi.GuestSetup, in the bundle's jars. */
    const char *setup_class;
    /* Optional: the JDK to use (else lanehost.conf, $JAVA_HOME, the usual locations). Only the first instance's counts. */
    const char *java_home;
    /* Optional: the class path (else every *.jar in <bundle>/lib). Only the first instance's counts. */
    const char *class_path;
} lanehost_guest_options;

#define LANEHOST_GUEST_OPTIONS_HEAD (uint32_t)sizeof(lanehost_guest_options), LANEHOST_GUEST_OPTIONS_VERSION

/* One instance of a plugin; opaque. */
typedef struct lanehost_guest lanehost_guest;

/*
 * Creates an instance: starts or joins the process's JVM and runtime, then creates the setup class and calls its
 * setup(GuestInstance) with `arguments` (a NULL-terminated list of "key=value" strings, or NULL), which the Java side
 * reads as instance.argument(key). On a non-OK status *out is NULL and lanehost_guest_last_error() says why:
 *   LANEHOST_INVALID_ARGUMENT  NULL pointers, unknown options size or version, an anchor no shared library holds,
 *                              no jars in the bundle, no JDK 25+ anywhere it looked (the sentence lists them), a
 *                              setup class that is not found or not a GuestSetup, a malformed argument
 *   LANEHOST_CALLBACK_FAILED   the setup threw (its class and message are in the sentence); what it had registered
 *                              is closed again
 *   LANEHOST_OUT_OF_MEMORY, LANEHOST_CLOSED, LANEHOST_INTERNAL_ERROR as for lanehost_embed_start
 */
LANEHOST_EXPORT int32_t lanehost_guest_instantiate(const lanehost_guest_options *options, const char *const *arguments,
                                                   lanehost_guest **out);

/* The function table every instance shares (the process's runtime's); NULL for a NULL guest. */
LANEHOST_EXPORT const lanehost_api *lanehost_guest_api(const lanehost_guest *guest);

/* The instance's name ("DelaySetup#1"); "" for a NULL guest. Valid until lanehost_guest_free. */
LANEHOST_EXPORT const char *lanehost_guest_name(const lanehost_guest *guest);

/*
 * Writes "<instance name>/<local>" into buffer (capacity bytes, LANEHOST_GUEST_NAME_CAPACITY is always enough for a
 * local name the setup could export): the name to look an instance's export up under. LANEHOST_INVALID_ARGUMENT for
 * NULL arguments or a buffer too small (nothing useful written).
 */
LANEHOST_EXPORT int32_t lanehost_guest_exported(const lanehost_guest *guest, const char *local, char *buffer,
                                                size_t capacity);

/*
 * Frees the instance: runs its free hooks, closes the gates and rings it registered, kills the actors it owns
 * (a lane actor's teardown runs at its lane's next drive, or on this thread if the lane's thread has ended), and
 * frees `guest`. The process's JVM and runtime stay. LANEHOST_INVALID_ARGUMENT for NULL or a pointer
 * lanehost_guest_instantiate did not return; LANEHOST_CLOSED if it was freed already.
 */
LANEHOST_EXPORT int32_t lanehost_guest_free(lanehost_guest *guest);

/* The calling thread's sentence about its last failed lanehost_guest_* call (never NULL). */
LANEHOST_EXPORT const char *lanehost_guest_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_GUEST_H */
