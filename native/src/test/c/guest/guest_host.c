/*
 * guest_host.c - a host that knows nothing of lanehost or Java: it dlopens a plugin from a bundle directory and
 * uses it, the way a plugin host, a media framework or a test runner does. One scenario per run (GuestHostTest):
 *
 *   find <bundle>             one instance; its name and one call
 *   no-jdk <bundle>           no JDK anywhere (the test hides them): instantiate fails with one sentence, the host
 *                             carries on
 *   two <bundle>              two instances called at once from two threads keep separate sums; freeing one leaves
 *                             the other working
 *   reload <bundle> <n>       dlopen, instantiate, call, free, dlclose, n times; threads counted
 *   churn <bundle> <n>        n short-lived threads, each making one call; threads and memory before and after
 *   idle <bundle>             the process's CPU time over two seconds after the last instance is freed
 *   start <bundle>            milliseconds from dlopen to the first answered call: the first instance (which starts
 *                             the JVM) and a second one
 *   signals <bundle> <when>   the host's SIGINT/SIGTERM handlers and a SIGSEGV handler for its own faults, installed
 *                             before the JVM starts ("before") or after it ("after", run with libjsig preloaded),
 *                             all still working, and the JVM's own SIGSEGV use too
 *
 * It prints "ok <scenario>" and exits 0 when every check holds, else names the check that failed and exits 1.
 */
#define _GNU_SOURCE /* RTLD_NOLOAD */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct guest_plugin guest_plugin;
typedef struct plugin_api {
    void *library;
    guest_plugin *(*new_instance)(const char *tag);
    const char *(*name)(const guest_plugin *plugin);
    int32_t (*add)(guest_plugin *plugin, int64_t value, int64_t *sum);
    int32_t (*java_faults)(guest_plugin *plugin, int64_t count, int64_t *caught);
    int32_t (*free_instance)(guest_plugin *plugin);
    const char *(*error)(void);
} plugin_api;

static int failures;

#define CHECK(condition, ...)                                                                                          \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #condition);                                                \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static int load(const char *bundle, plugin_api *api) {
    char path[4096];
    snprintf(path, sizeof path, "%s/libguest_plugin.so", bundle);
    api->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (api->library == NULL) {
        printf("FAIL dlopen %s: %s\n", path, dlerror());
        return 0;
    }
    *(void **)&api->new_instance = dlsym(api->library, "guest_plugin_new");
    *(void **)&api->name = dlsym(api->library, "guest_plugin_name");
    *(void **)&api->add = dlsym(api->library, "guest_plugin_add");
    *(void **)&api->java_faults = dlsym(api->library, "guest_plugin_java_faults");
    *(void **)&api->free_instance = dlsym(api->library, "guest_plugin_free");
    *(void **)&api->error = dlsym(api->library, "guest_plugin_error");
    return api->new_instance != NULL && api->error != NULL;
}

/* A /proc/self/status field in its own unit (Threads: count, VmRSS: kB). */
static long status_field(const char *field) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long value = -1;
    size_t length = strlen(field);
    while (status != NULL && fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, field, length) == 0) {
            value = strtol(line + length, NULL, 10);
        }
    }
    if (status != NULL) {
        fclose(status);
    }
    return value;
}

static guest_plugin *instance(plugin_api *api, const char *tag) {
    guest_plugin *plugin = api->new_instance(tag);
    CHECK(plugin != NULL, "instantiate %s: %s", tag, api->error());
    return plugin;
}

/* ---------------------------------------------------------------- scenarios */

static void find(plugin_api *api) {
    guest_plugin *plugin = instance(api, "find");
    if (plugin == NULL) return;
    int64_t sum = 0;
    CHECK(api->add(plugin, 42, &sum) == 0 && sum == 42, "sum %lld", (long long)sum);
    printf("instance %s\n", api->name(plugin));
    CHECK(api->free_instance(plugin) == 0, "free: %s", api->error());
}

static void no_jdk(plugin_api *api) {
    guest_plugin *plugin = api->new_instance("nothing");
    CHECK(plugin == NULL, "an instance without a JDK");
    printf("refused: %s\n", api->error());
    printf("host still running\n");
}

typedef struct adder {
    plugin_api *api;
    guest_plugin *plugin;
    int64_t step;
    int64_t last;
    int32_t status;
} adder;

static void *add_many(void *argument) {
    adder *a = argument;
    for (int i = 0; i < 1000 && a->status == 0; i++) {
        a->status = a->api->add(a->plugin, a->step, &a->last);
    }
    return NULL;
}

static void two(plugin_api *api) {
    guest_plugin *first = instance(api, "first");
    guest_plugin *second = instance(api, "second");
    if (first == NULL || second == NULL) return;
    printf("instances %s %s\n", api->name(first), api->name(second));
    CHECK(strcmp(api->name(first), api->name(second)) != 0, "two instances share a name");
    adder a = {api, first, 1, 0, 0};
    adder b = {api, second, 1000, 0, 0};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, add_many, &a);
    pthread_create(&tb, NULL, add_many, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(a.status == 0 && a.last == 1000, "first: status %d sum %lld", a.status, (long long)a.last);
    CHECK(b.status == 0 && b.last == 1000000, "second: status %d sum %lld", b.status, (long long)b.last);
    CHECK(api->free_instance(first) == 0, "free first: %s", api->error());
    int64_t sum = 0;
    CHECK(api->add(second, 1, &sum) == 0 && sum == 1000001, "second after the first's free: %lld", (long long)sum);
    CHECK(api->free_instance(second) == 0, "free second: %s", api->error());
}

static void reload(const char *bundle, int times) {
    long threads_after_first = 0;
    for (int i = 0; i < times; i++) {
        plugin_api api;
        if (!load(bundle, &api)) return;
        guest_plugin *plugin = instance(&api, "reload");
        if (plugin == NULL) return;
        int64_t sum = 0;
        CHECK(api.add(plugin, i, &sum) == 0 && sum == i, "load %d: sum %lld", i, (long long)sum);
        CHECK(api.free_instance(plugin) == 0, "free: %s", api.error());
        CHECK(dlclose(api.library) == 0, "dlclose: %s", dlerror());
        if (i == 0) threads_after_first = status_field("Threads:");
    }
    long threads = status_field("Threads:");
    printf("reloaded %d times; threads after the first load %ld, after the last %ld\n", times, threads_after_first,
           threads);
    CHECK(threads <= threads_after_first + 2, "threads grew from %ld to %ld", threads_after_first, threads);
}

static void *one_call(void *argument) {
    adder *a = argument;
    a->status = a->api->add(a->plugin, 1, &a->last);
    return NULL;
}

static void churn(plugin_api *api, int count) {
    guest_plugin *plugin = instance(api, "churn");
    if (plugin == NULL) return;
    adder warm = {api, plugin, 1, 0, 0};
    for (int i = 0; i < 200; i++) { /* the JVM's own growth (compiled code, metaspace) happens here, not below */
        pthread_t thread;
        pthread_create(&thread, NULL, one_call, &warm);
        pthread_join(thread, NULL);
    }
    long threads_before = status_field("Threads:");
    long rss_before = status_field("VmRSS:");
    int failed = 0;
    for (int i = 0; i < count; i++) {
        adder a = {api, plugin, 1, 0, 0};
        pthread_t thread;
        pthread_create(&thread, NULL, one_call, &a);
        pthread_join(thread, NULL);
        failed += a.status != 0;
    }
    long threads_after = status_field("Threads:");
    long rss_after = status_field("VmRSS:");
    printf("%d short-lived threads: threads %ld -> %ld, RSS %ld -> %ld kB\n", count, threads_before, threads_after,
           rss_before, rss_after);
    CHECK(failed == 0, "%d calls failed", failed);
    CHECK(threads_after <= threads_before + 2, "threads grew");
    CHECK(api->free_instance(plugin) == 0, "free: %s", api->error());
}

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void idle(plugin_api *api) {
    guest_plugin *plugin = instance(api, "idle");
    if (plugin == NULL) return;
    int64_t sum = 0;
    CHECK(api->add(plugin, 1, &sum) == 0, "call");
    CHECK(api->free_instance(plugin) == 0, "free: %s", api->error());
    struct timespec settle = {0, 500000000}; /* a measurement window, not a synchronisation */
    nanosleep(&settle, NULL);
    double before = cpu_seconds();
    struct timespec window = {2, 0};
    nanosleep(&window, NULL);
    double used = cpu_seconds() - before;
    printf("idle: %.1f ms of CPU in 2 s with no instance live, %ld threads\n", used * 1000, status_field("Threads:"));
}

static double now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e3 + (double)now.tv_nsec / 1e6;
}

/* Plugin hosts instantiate while scanning and when a session opens: how long until an instance answers. */
static void start(const char *bundle) {
    double begin = now_ms();
    plugin_api api;
    if (!load(bundle, &api)) return;
    guest_plugin *first = instance(&api, "first");
    int64_t sum = 0;
    if (first == NULL || api.add(first, 1, &sum) != 0) return;
    double first_ready = now_ms();
    guest_plugin *second = instance(&api, "second");
    if (second == NULL || api.add(second, 1, &sum) != 0) return;
    double second_ready = now_ms();
    printf("start: first instance %.1f ms from dlopen to its first answer, a later one %.2f ms\n", first_ready - begin,
           second_ready - first_ready);
    CHECK(api.free_instance(first) == 0 && api.free_instance(second) == 0, "free: %s", api.error());
}

/* ---------------------------------------------------------------- signals */

static volatile sig_atomic_t interrupts, terminations;
static sigjmp_buf fault_return;
static volatile sig_atomic_t faults;

static void on_interrupt(int signal) {
    (void)signal;
    interrupts++;
}

static void on_terminate(int signal) {
    (void)signal;
    terminations++;
}

static void on_fault(int signal) {
    (void)signal;
    faults++;
    siglongjmp(fault_return, 1);
}

static void install(int signal, void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, NULL);
}

/* The host's own bug, caught by its own handler. */
static volatile int *volatile nowhere = (volatile int *)(uintptr_t)16;

static void fault_on_purpose(void) {
    if (sigsetjmp(fault_return, 1) == 0) {
        *nowhere = 1;
    }
}

static void signals(plugin_api *api, const char *when) {
    int before = strcmp(when, "before") == 0;
    if (before) {
        install(SIGINT, on_interrupt);
        install(SIGTERM, on_terminate);
        install(SIGSEGV, on_fault);
    }
    guest_plugin *plugin = instance(api, "signals"); /* the JVM starts here */
    if (plugin == NULL) return;
    if (!before) {
        install(SIGINT, on_interrupt);
        install(SIGTERM, on_terminate);
        install(SIGSEGV, on_fault); /* replaces HotSpot's: only libjsig, preloaded, keeps both */
    }
    raise(SIGINT);
    raise(SIGTERM);
    fault_on_purpose();
    fault_on_purpose();
    int64_t caught = 0;
    CHECK(api->java_faults(plugin, 20, &caught) == 0 && caught == 20, "the JVM's own stack overflows: %lld",
          (long long)caught);
    raise(SIGINT);
    fault_on_purpose();
    printf("signals installed %s the JVM: SIGINT %d, SIGTERM %d, own faults %d, Java stack overflows %lld\n", when,
           (int)interrupts, (int)terminations, (int)faults, (long long)caught);
    CHECK(interrupts == 2 && terminations == 1 && faults == 3, "the host's handlers saw what it raised");
    CHECK(api->free_instance(plugin) == 0, "free: %s", api->error());
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: guest_host <scenario> <bundle> [n|when]\n");
        return 2;
    }
    const char *scenario = argv[1];
    const char *bundle = argv[2];
    if (strcmp(scenario, "reload") == 0) {
        reload(bundle, argc > 3 ? atoi(argv[3]) : 100);
    } else if (strcmp(scenario, "start") == 0) {
        start(bundle);
    } else {
        plugin_api api;
        if (!load(bundle, &api)) return 1;
        if (strcmp(scenario, "find") == 0) find(&api);
        else if (strcmp(scenario, "no-jdk") == 0) no_jdk(&api);
        else if (strcmp(scenario, "two") == 0) two(&api);
        else if (strcmp(scenario, "churn") == 0) churn(&api, argc > 3 ? atoi(argv[3]) : 10000);
        else if (strcmp(scenario, "idle") == 0) idle(&api);
        else if (strcmp(scenario, "signals") == 0) signals(&api, argc > 3 ? argv[3] : "before");
        else {
            fprintf(stderr, "unknown scenario %s\n", scenario);
            return 2;
        }
    }
    if (failures == 0) printf("ok %s\n", scenario);
    return failures == 0 ? 0 : 1;
}
