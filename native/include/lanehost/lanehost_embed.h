/*
 * lanehost_embed.h - the C-first way in: a C program starts a JVM inside its own process, a lanehost runtime
 * in it, and receives the host function table (lanehost_api, lanehost.h) to drive lanes and call gates from
 * its own threads. Link with -llanehost_embed; libjvm is not linked but loaded at run time from a JDK 25+.
 *
 *     lanehost_embed_options options = LANEHOST_EMBED_OPTIONS_INIT;
 *     options.class_path = "lanehost-native.jar:...:my-setup.jar";
 *     options.setup_class = "com.example.MySetup";           // implements dev.lanehost.nativeabi.HostSetup
 *     lanehost_embed *embed;
 *     const lanehost_api *api;
 *     if (lanehost_embed_start(&options, &embed, &api) != LANEHOST_OK) {
 *         fprintf(stderr, "%s\n", lanehost_embed_last_error());
 *         return 1;
 *     }
 *     uint64_t frame;
 *     api->lane_lookup("frame", &frame);
 *     while (running) api->lane_drive(frame, 0, NULL);       // the host's own loop, on this thread
 *     lanehost_embed_stop(embed);                             // the lane's actors are torn down here
 *     lanehost_embed_shutdown();                              // before the process exits
 *
 * Every function here returns a lanehost_status and never aborts on bad input. A JVM that fails to start
 * prints its own diagnostics to stderr (and for a few, such as a heap it cannot reserve, HotSpot ends the
 * process itself); lanehost_embed_last_error() says what happened in one sentence.
 */
#ifndef LANEHOST_EMBED_H
#define LANEHOST_EMBED_H

#include <stdint.h>

#include "lanehost/lanehost.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a field is added to lanehost_embed_options; older values stay accepted. */
#define LANEHOST_EMBED_OPTIONS_VERSION 1u

/*
 * How to start the JVM and the runtime. Start from LANEHOST_EMBED_OPTIONS_INIT (it fills `size` and `version`
 * and leaves everything else empty), then set what you need. Strings are NUL-terminated UTF-8 and are copied
 * during lanehost_embed_start: they need not outlive the call.
 */
typedef struct lanehost_embed_options {
    uint32_t size;    /* sizeof(lanehost_embed_options) as the caller compiled it */
    uint32_t version; /* LANEHOST_EMBED_OPTIONS_VERSION as the caller compiled it */

    /*
     * The JDK (25 or newer) whose $java_home/lib/server/libjvm.so is loaded. NULL: the JAVA_HOME environment
     * variable. Used only by the start that creates the process's JVM.
     */
    const char *java_home;

    /*
     * The JVM's class path (entries separated by ':'): lanehost-native and its dependencies (lanehost-lanes,
     * lanehost-call-gate, lanehost-spsc-ring, lanehost-affinity-native, lanehost-native-loader) and the setup
     * class. Becomes -Djava.class.path.
     */
    const char *class_path;

    /*
     * Required: the binary name ("com.example.MySetup") of a public class with a public no-argument constructor
     * that implements dev.lanehost.nativeabi.HostSetup. Its setup() exports the lanes, gates, signals and rings
     * the host looks up in the table.
     */
    const char *setup_class;

    /* Further JVM options ("-Xmx256m", "-XX:+UseZGC", "-Dkey=value"); may be NULL when the count is 0.
     * --enable-native-access=ALL-UNNAMED is always added. */
    const char *const *jvm_options;
    uint32_t jvm_option_count;
    uint32_t reserved; /* must be 0 */
} lanehost_embed_options;

#define LANEHOST_EMBED_OPTIONS_INIT \
    { (uint32_t)sizeof(lanehost_embed_options), LANEHOST_EMBED_OPTIONS_VERSION, NULL, NULL, NULL, NULL, 0u, 0u }

/* One started runtime; opaque. From a successful lanehost_embed_start; after lanehost_embed_stop, passing it
 * again answers LANEHOST_CLOSED. */
typedef struct lanehost_embed lanehost_embed;

/*
 * Starts a HOSTED lanehost runtime in this process's JVM and runs the setup class against it.
 *
 *  1. The first start in a process loads libjvm from java_home (else $JAVA_HOME) and creates the JVM with
 *     class_path and jvm_options, unless a JVM already runs in the process (the host's own, or this is a
 *     `java` process): that one is used as it is, class_path and jvm_options must be NULL and 0, and its
 *     owner must not end it while a runtime is started. A process has one JVM for the rest of its life: later starts reuse it and
 *     must pass the same class_path and jvm_options, or NULL and 0 to take the running JVM's. A JVM that
 *     refuses to be created is not tried again in that process (HotSpot keeps state from the failed attempt);
 *     a libjvm that is not found may be looked for again with another java_home.
 *  2. dev.lanehost.nativeabi.EmbeddedRuntime builds the runtime and its host ABI, creates the setup class and
 *     calls its setup(runtime, abi). If setup throws, the runtime closes again.
 *  3. *out receives the handle for lanehost_embed_stop, *api_out the runtime's function table.
 *
 * Any thread may call it; it leaves the calling thread as it found it (attached to the JVM only for the call).
 * On a non-OK status *out and *api_out are set to NULL and lanehost_embed_last_error() says why:
 *   LANEHOST_INVALID_ARGUMENT  NULL pointers, a size/version/reserved the library does not know, no setup_class,
 *                              no libjvm under java_home/JAVA_HOME, a JDK older than the JNI version 24 asked
 *                              for, an option the JVM refuses (the last error lists the options given; the
 *                              JVM names the bad one on stderr), a class path without lanehost, a setup class
 *                              not found or not a HostSetup with a public no-arg constructor, or another class
 *                              path or option list than the running JVM's
 *   LANEHOST_CALLBACK_FAILED   the setup class's constructor or setup() threw (its class and message are in
 *                              the last error); nothing of that runtime is left running
 *   LANEHOST_OUT_OF_MEMORY     the JVM or this library could not allocate
 *   LANEHOST_CLOSED            lanehost_embed_shutdown ended the JVM, or creating it failed earlier in this
 *                              process (the last error repeats why)
 *   LANEHOST_INTERNAL_ERROR    anything else (the last error names it)
 */
LANEHOST_EXPORT int32_t lanehost_embed_start(const lanehost_embed_options *options, lanehost_embed **out,
                                             const lanehost_api **api_out);

/*
 * Closes the runtime's host ABI (every later call through its table answers LANEHOST_CLOSED; last_error still
 * answers OK with the thread's last sentence) and then the runtime, and frees `embed`. From any thread but one of
 * the runtime's own lanes' turns; call it once per started runtime.
 *
 * It waits for handlers that are running. Nothing interrupts a turn: the runtime's close halts the lanes' actors at
 * once, lets the worker threads finish the turns they are in (up to 5 s for all of them together, then 1 s more for
 * a turn still running; a turn that never returns is left running on its daemon thread, and logged), and only then
 * halts the other actors. A handler that sleeps 2 s makes stop take about that long. A blocked gate caller whose
 * call is still queued when its actor halts is answered within about 20 ms (LANEHOST_CLOSED at a stop), even if the
 * turn ahead of it never returns. So call stop from a thread that may block (never a real-time callback), and make
 * long handlers end first: have Java close the gates or tell the handlers to return (a flag the setup exposes, a
 * signal) before stopping.
 *
 * A lane's actors are torn down (their stopped() hooks, arenas) on the lane's own thread: on this thread if it
 * is the lane's bound thread, else at the bound thread's next lane_drive, which then answers LANEHOST_CLOSED at
 * once (it does not wait for the worker threads' turns).
 * So a host whose lanes run on threads of their own calls this while those threads still drive, lets each drive
 * until it answers LANEHOST_CLOSED, then joins them. A lane whose thread has already ended, or that is not driven
 * within a grace period, is torn down on this thread instead, and the log says so with a warning.
 *
 * Rings the setup exported and left open are closed last (Java lets go of them): a ring's memory then lives only
 * while this host holds a reference from ring_lookup, and ring_release (still answered after stop) frees it. A
 * callback that reads the ring keeps getting underruns until then (lanehost_ring_owner_closed answers 1 once this
 * call has closed the rings, to tell it why: a lane thread whose drive has just answered LANEHOST_CLOSED may still
 * read 0, since the rings close after the lanes; look again after this function returns); release after that
 * callback has stopped.
 *
 * The JVM keeps running (a process cannot create a second one, so a later start reuses it), and the table's
 * functions stay callable, answering LANEHOST_CLOSED, until lanehost_embed_shutdown.
 *
 * LANEHOST_OK; LANEHOST_INVALID_ARGUMENT for NULL or a pointer no start returned; LANEHOST_CLOSED for a runtime
 * stopped already (a second stop, or one racing the first); LANEHOST_INTERNAL_ERROR if closing threw (the runtime
 * counts as stopped anyway; the last error says what threw). Only if this thread cannot enter the JVM at all
 * (LANEHOST_OUT_OF_MEMORY, or LANEHOST_INTERNAL_ERROR with a last error about attaching) is nothing stopped, and
 * embed may be stopped again. The runtime's table is kept for the life of the process too (it answers
 * LANEHOST_CLOSED after the stop): about 10 KB of the JVM's code cache per start, room for some 20,000 starts with the
 * default code cache (see the native README). The handle's few bytes are kept for the life of the process, so a stale handle is
 * always answered, never a use of freed memory.
 */
LANEHOST_EXPORT int32_t lanehost_embed_stop(lanehost_embed *embed);

/*
 * Ends the JVM this library created (DestroyJavaVM): runs its shutdown hooks, waits for its non-daemon threads.
 * Call it once before the process exits, after every lanehost_embed_stop and once no host thread is inside a
 * call of any table. First it closes every entry of every table in the process for good (the entries are C
 * functions of liblanehost that then answer LANEHOST_CLOSED; last_error: "lanehost_embed_shutdown ended the JVM
 * ..."), so a table, a copy of one or a function pointer kept from one, called later, still answers without
 * entering Java, where an upcall would abort the process. A call still running inside Java when
 * the shutdown begins is not covered: its thread may never come back (it blocks at the JVM's last safepoint, so a
 * pthread_join on it hangs), so join every thread that calls a table before calling this. Exiting without it works but skips the shutdown hooks and lets C++ static
 * destructors in libjvm race the JVM's own threads at exit.
 *
 * It is final: afterwards every lanehost_embed_start answers LANEHOST_CLOSED (HotSpot cannot create a JVM twice
 * in a process), also when it was called before any JVM started. LANEHOST_OK, also when no JVM was ever started
 * or it was already shut down;
 * LANEHOST_INVALID_ARGUMENT while a runtime is still started or starting, or if the JVM was not started by this
 * library (then its owner ends it); LANEHOST_INTERNAL_ERROR if DestroyJavaVM fails.
 */
LANEHOST_EXPORT int32_t lanehost_embed_shutdown(void);

/*
 * The calling thread's last lanehost_embed_start/stop/shutdown failure as one sentence, or "" after a success. Never
 * NULL; valid until the thread's next lanehost_embed_* call. Failures of the table's own entries are read
 * with api->last_error instead.
 */
LANEHOST_EXPORT const char *lanehost_embed_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_EMBED_H */
