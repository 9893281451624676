/*
 * test_shop.c - a cmocka suite that tests Java actors from C through the host function table, as the C test
 * harness of a product built on lanehost would. The actors are dev.lanehost.samples.ShopSetup's: a stock and a
 * ledger on the lane "shop", with the gates "restock", "take", "level", "sold" and the signal "delivery".
 *
 * Every test is a list of deterministic steps, each of three parts:
 *   1. act: a gate_call_on_lane (it runs the call on this thread and returns with its result) or a signal_fire
 *      (it only queues a letter on the lane);
 *   2. settle: lane_drive(shop, 0, &counts) until counts.remaining is 0, so everything the act caused (the sale the
 *      stock tells the ledger, the deliveries) has run, and the turns it took are checked;
 *   3. look: a query gate ("level", "sold") answers the exact state.
 * Only this thread drives the lane, so nothing runs between the steps and no test waits on a clock.
 *
 * The JVM is created once, by the group setup. Each test then gets a runtime of its own (a start after the first
 * reuses the process's JVM), so no test sees another's stock, and the test that halts the stock on purpose harms
 * none after it. The group teardown ends the JVM (lanehost_embed_shutdown), as a host does before it exits.
 *
 *     LANEHOST_CLASS_PATH=<lanehost's jars and the samples' classes> JAVA_HOME=<JDK 25+> \
 *         LD_PRELOAD=<JDK 25+>/lib/libjsig.so test_shop
 *
 * samples/pom.xml runs ctest with the first two set, and CMakeLists.txt's test command adds the third. Without
 * LANEHOST_CLASS_PATH the suite says it was skipped and why, and exits 77, which CTest counts as skipped
 * (SKIP_RETURN_CODE in CMakeLists.txt).
 *
 * cmocka installs its own SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGSYS handlers around every test and fixture, so after
 * the JVM started. HotSpot takes SIGSEGV in its own work (a compiled loop's safepoint poll when a GC or a handshake
 * stops the threads, a Java stack overflow); a handler of cmocka's in the place of HotSpot's ends the process at
 * random, with exit status 255 or 139 and no message. The JDK's libjsig, preloaded, keeps HotSpot's handlers where they
 * are and chains cmocka's behind them, so CMakeLists.txt runs the suite with LD_PRELOAD=$JAVA_HOME/lib/libjsig.so and
 * main() refuses to start without it.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <setjmp.h> /* cmocka.h needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lanehost/lanehost_embed.h"

#define SKIP_EXIT_CODE 77 /* CTest's SKIP_RETURN_CODE for this test */
#define SETUP_CLASS "dev.lanehost.samples.ShopSetup"

static const char *class_path;

/* One test's runtime: the table and the handles ShopSetup exports. */
typedef struct shop {
    lanehost_embed *embed;
    const lanehost_api *api;
    uint64_t lane, restock, take, level, sold, delivery;
} shop;

/* ---- HotSpot's fault handlers, kept in place by libjsig ---- */

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define FAULT_SIGNALS (sizeof fault_signals / sizeof fault_signals[0])
/* The handler the kernel ran for each of fault_signals once the JVM had started (the group setup records them). */
static void *jvm_handlers[FAULT_SIGNALS];

/* libjsig's own entry point, which HotSpot looks up when it installs its handlers: there only if libjsig is loaded. */
static bool libjsig_loaded(void) {
    return dlsym(RTLD_DEFAULT, "JVM_begin_signal_setting") != NULL;
}

/* The handler the kernel runs for `sig`, asked of the kernel: libjsig's sigaction answers with the chained one. */
static void *kernel_handler(int sig) {
    struct { void *handler; unsigned long flags; void *restorer; uint64_t mask; } action = {0};
    return syscall(SYS_rt_sigaction, sig, NULL, &action, sizeof action.mask) == 0 ? action.handler : NULL;
}

/* ---- Readable failures: a status by its name, with the sentence last_error left ---- */

static const char *status_name(int32_t status) {
    const char *name = lanehost_status_name(status);
    return name == NULL ? "(not a lanehost status)" : name;
}

/* The calling thread's last sentence from the table (it survives the failure it describes). */
static const char *last_error(const shop *s) {
    static char text[512];
    uint64_t length = 0;
    if (s->api->last_error(text, sizeof text, &length) != LANEHOST_OK) {
        snprintf(text, sizeof text, "(last_error failed)");
    }
    return text;
}

static void status_is(const shop *s, int32_t expected, int32_t actual, const char *call, const char *file,
                      int line) {
    if (actual != expected) {
        print_error("%s answered %s, expected %s\n    last_error: %s\n", call, status_name(actual),
                    status_name(expected), actual == LANEHOST_OK ? "(none: the call succeeded)" : last_error(s));
        _fail(file, line);
    }
}

/* assert_status(s, LANEHOST_OK, s->api->lane_drive(...)): on a mismatch, names both statuses and the call. */
#define assert_status(s, expected, call) status_is((s), (expected), (call), #call, __FILE__, __LINE__)

static void number_is(const char *what, int64_t expected, int64_t actual, const char *file, int line) {
    if (actual != expected) {
        print_error("%s is %lld, expected %lld\n", what, (long long)actual, (long long)expected);
        _fail(file, line);
    }
}

/* Fails the test if the last error does not hold `expected`, quoting both. */
static void last_error_holds(const shop *s, const char *expected, const char *file, int line) {
    const char *text = last_error(s);
    if (strstr(text, expected) == NULL) {
        print_error("last_error is \"%s\"\n    expected it to contain \"%s\"\n", text, expected);
        _fail(file, line);
    }
}

#define assert_last_error_holds(s, expected) last_error_holds((s), (expected), __FILE__, __LINE__)

/* ---- CBOR by hand: the few shapes the shop's gates take and give ---- */

/* An item's head: major type `major`, argument `value` (at most 2^32 - 1 here). */
static size_t put_head(uint8_t *out, uint8_t major, uint32_t value) {
    if (value < 24) {
        out[0] = (uint8_t)(major << 5 | value);
        return 1;
    }
    if (value <= 0xFF) {
        out[0] = (uint8_t)(major << 5 | 24);
        out[1] = (uint8_t)value;
        return 2;
    }
    if (value <= 0xFFFF) {
        out[0] = (uint8_t)(major << 5 | 25);
        out[1] = (uint8_t)(value >> 8);
        out[2] = (uint8_t)value;
        return 3;
    }
    out[0] = (uint8_t)(major << 5 | 26);
    for (int i = 0; i < 4; i++) out[1 + i] = (uint8_t)(value >> (24 - 8 * i));
    return 5;
}

/* A text string; `out` must hold strlen(text) + 5 bytes. */
static size_t put_text(uint8_t *out, const char *text) {
    const size_t length = strlen(text);
    const size_t n = put_head(out, 3, (uint32_t)length);
    memcpy(out + n, text, length);
    return n + length;
}

/* {"item": item, "count": count}; `out` must hold strlen(item) + 22 bytes. */
static size_t put_order(uint8_t *out, const char *item, uint32_t count) {
    size_t n = put_head(out, 5, 2);
    n += put_text(out + n, "item");
    n += put_text(out + n, item);
    n += put_text(out + n, "count");
    n += put_head(out + n, 0, count);
    return n;
}

/* The unsigned integer a result holds, or -1 if it holds anything else. */
static int64_t unsigned_of(const uint8_t *in, uint64_t length) {
    if (length == 0 || in[0] >> 5 != 0) return -1;
    const uint8_t info = in[0] & 31;
    if (info < 24) return length == 1 ? info : -1;
    const uint64_t bytes = info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : 0;
    if (bytes == 0 || length != 1 + bytes) return -1;
    uint64_t value = 0;
    for (uint64_t i = 0; i < bytes; i++) value = value << 8 | in[1 + i];
    return value > INT64_MAX ? -1 : (int64_t)value;
}

#define CBOR_FALSE 0xF4
#define CBOR_TRUE 0xF5

/* ---- The steps ---- */

/* Calls `gate` on the shop's lane with `args`, expecting OK; returns the result's length in `result`. */
static uint64_t call_ok(const shop *s, uint64_t gate, const char *gate_name, const uint8_t *args, size_t args_length,
                        uint8_t *result, size_t result_capacity, const char *file, int line) {
    uint64_t result_length = 0;
    char call[128];
    snprintf(call, sizeof call, "gate_call_on_lane(\"%s\")", gate_name);
    status_is(s, LANEHOST_OK,
              s->api->gate_call_on_lane(gate, s->lane, args, args_length, result, result_capacity, &result_length, 0),
              call, file, line);
    return result_length;
}

/* A gate that answers a count: "restock" with an order, "level" and "sold" with an item's name. */
static int64_t count_from(const shop *s, uint64_t gate, const char *gate_name, const uint8_t *args, size_t args_length,
                          const char *file, int line) {
    uint8_t result[16];
    const uint64_t length = call_ok(s, gate, gate_name, args, args_length, result, sizeof result, file, line);
    const int64_t count = unsigned_of(result, length);
    if (count < 0) {
        print_error("gate \"%s\" answered %llu bytes starting 0x%02x, expected an unsigned integer\n", gate_name,
                    (unsigned long long)length, length > 0 ? result[0] : 0);
        _fail(file, line);
    }
    return count;
}

static int64_t restock_at(const shop *s, const char *item, uint32_t count, const char *file, int line) {
    uint8_t order[64];
    return count_from(s, s->restock, "restock", order, put_order(order, item, count), file, line);
}

static bool take_at(const shop *s, const char *item, uint32_t count, const char *file, int line) {
    uint8_t order[64];
    uint8_t result[16];
    const uint64_t length = call_ok(s, s->take, "take", order, put_order(order, item, count), result, sizeof result,
                                    file, line);
    if (length != 1 || (result[0] != CBOR_TRUE && result[0] != CBOR_FALSE)) {
        print_error("gate \"take\" answered %llu bytes starting 0x%02x, expected true or false\n",
                    (unsigned long long)length, length > 0 ? result[0] : 0);
        _fail(file, line);
    }
    return result[0] == CBOR_TRUE;
}

static int64_t query_at(const shop *s, uint64_t gate, const char *gate_name, const char *item, const char *file,
                        int line) {
    uint8_t name[64];
    return count_from(s, gate, gate_name, name, put_text(name, item), file, line);
}

/* Drives the lane until nothing is queued; returns the turns that took. */
static int64_t settle_at(const shop *s, const char *file, int line) {
    int64_t turns = 0;
    lanehost_drive_counts counts;
    do {
        status_is(s, LANEHOST_OK, s->api->lane_drive(s->lane, 0, &counts), "lane_drive(shop, 0)", file, line);
        turns += counts.turns;
    } while (counts.remaining != 0);
    return turns;
}

/* Each answers as the step's value, failing the test at the caller's line if the call does not succeed. */
#define restock(s, item, count) restock_at((s), (item), (count), __FILE__, __LINE__)
#define take(s, item, count) take_at((s), (item), (count), __FILE__, __LINE__)
#define level_of(s, item) query_at((s), (s)->level, "level", (item), __FILE__, __LINE__)
#define sold_of(s, item) query_at((s), (s)->sold, "sold", (item), __FILE__, __LINE__)
#define settle(s) settle_at((s), __FILE__, __LINE__)
/* assert_count("level of apple", 5, level_of(s, "apple")): says what was counted. */
#define assert_count(what, expected, actual) number_is((what), (expected), (actual), __FILE__, __LINE__)

/* ---- Fixtures ---- */

static int start_shop(shop *s) {
    lanehost_embed_options options = LANEHOST_EMBED_OPTIONS_INIT;
    options.class_path = class_path; /* the JDK: JAVA_HOME */
    options.setup_class = SETUP_CLASS;
    const int32_t status = lanehost_embed_start(&options, &s->embed, &s->api);
    if (status != LANEHOST_OK) {
        print_error("lanehost_embed_start(%s) answered %s: %s\n", SETUP_CLASS, status_name(status),
                    lanehost_embed_last_error());
        return -1;
    }
    return 0;
}

static int lookup(const shop *s, int32_t (*lookup_fn)(const char *, uint64_t *), const char *name, uint64_t *out) {
    const int32_t status = lookup_fn(name, out);
    if (status != LANEHOST_OK) {
        print_error("looking up \"%s\" answered %s: %s\n", name, status_name(status), last_error(s));
        return -1;
    }
    return 0;
}

static int stop_shop(shop *s) {
    const int32_t stopped = lanehost_embed_stop(s->embed);
    free(s);
    if (stopped != LANEHOST_OK) {
        print_error("lanehost_embed_stop answered %s: %s\n", status_name(stopped), lanehost_embed_last_error());
        return -1;
    }
    return 0;
}

/* A fresh runtime: the lane's first drive runs the actors' starts (the stock exports "delivery" in its own). */
static int open_shop(void **state) {
    shop *s = calloc(1, sizeof *s);
    if (s == NULL || start_shop(s) != 0) {
        free(s);
        return -1;
    }
    lanehost_drive_counts counts = {0};
    int32_t drive = LANEHOST_OK;
    if (lookup(s, s->api->lane_lookup, "shop", &s->lane) != 0) goto failed;
    drive = s->api->lane_drive(s->lane, 0, &counts);
    if (drive != LANEHOST_OK || counts.turns != 2 || counts.remaining != 0) {
        print_error("the first drive answered %s with %d turns and %lld letters left, expected OK, 2 (the actors' "
                    "starts) and 0%s%s\n", status_name(drive), counts.turns, (long long)counts.remaining,
                    drive == LANEHOST_OK ? "" : ": ", drive == LANEHOST_OK ? "" : last_error(s));
        goto failed;
    }
    if (lookup(s, s->api->gate_lookup, "restock", &s->restock) != 0 ||
        lookup(s, s->api->gate_lookup, "take", &s->take) != 0 ||
        lookup(s, s->api->gate_lookup, "level", &s->level) != 0 ||
        lookup(s, s->api->gate_lookup, "sold", &s->sold) != 0 ||
        lookup(s, s->api->signal_lookup, "delivery", &s->delivery) != 0) {
        goto failed;
    }
    *state = s;
    return 0;
failed: /* cmocka runs no teardown after a failed setup */
    stop_shop(s);
    return -1;
}

static int close_shop(void **state) {
    shop *s = *state;
    *state = NULL;
    return s == NULL ? 0 : stop_shop(s);
}

/* The JVM, once for the process: a missing JDK or a class path without the shop fails here, in one message. */
static int create_jvm(void **state) {
    (void)state;
    void *first = NULL;
    if (open_shop(&first) != 0) {
        return -1;
    }
    for (size_t i = 0; i < FAULT_SIGNALS; i++) {
        jvm_handlers[i] = kernel_handler(fault_signals[i]);
        if (jvm_handlers[i] == NULL || jvm_handlers[i] == (void *)SIG_DFL || jvm_handlers[i] == (void *)SIG_IGN) {
            print_error("the JVM started, yet the kernel runs no handler of its for %s\n", strsignal(fault_signals[i]));
            close_shop(&first);
            return -1;
        }
    }
    return close_shop(&first);
}

static int end_jvm(void **state) {
    (void)state;
    const int32_t status = lanehost_embed_shutdown();
    if (status != LANEHOST_OK) {
        print_error("lanehost_embed_shutdown answered %s: %s\n", status_name(status), lanehost_embed_last_error());
        return -1;
    }
    return 0;
}

/* ---- The tests ---- */

static void aNewShopHasNothingInStockAndNothingQueued(void **state) {
    const shop *s = *state;
    assert_count("turns to settle", 0, settle(s));
    assert_count("level of apple", 0, level_of(s, "apple"));
    assert_count("sold of apple", 0, sold_of(s, "apple"));
}

static void aRestockAnswersTheNewLevel(void **state) {
    const shop *s = *state;
    assert_count("level after restocking 3 apples", 3, restock(s, "apple", 3));
    assert_count("level after restocking 2 more", 5, restock(s, "apple", 2));
    assert_count("level after restocking 300 pears", 300, restock(s, "pear", 300));
    assert_count("turns to settle", 0, settle(s)); /* a restock sends nothing */
    assert_count("level of apple", 5, level_of(s, "apple"));
    assert_count("level of pear", 300, level_of(s, "pear"));
}

static void eachDeliveryIsOneTurnOfTheNextDrive(void **state) {
    const shop *s = *state;
    static const uint8_t pear[] = {'p', 'e', 'a', 'r'};
    for (int i = 0; i < 3; i++) {
        assert_status(s, LANEHOST_OK, s->api->signal_fire(s->delivery, pear, sizeof pear));
    }
    lanehost_drive_counts counts;
    assert_status(s, LANEHOST_OK, s->api->lane_drive(s->lane, 1, &counts)); /* one turn, one delivery */
    assert_count("turns of a drive bounded to 1", 1, counts.turns);
    assert_count("letters left after it", 2, counts.remaining);
    assert_count("turns to settle the other two", 2, settle(s));
    assert_count("level of pear", 3, level_of(s, "pear"));
}

static void aSaleReachesTheLedgerInTheDriveAfterTheTake(void **state) {
    const shop *s = *state;
    restock(s, "apple", 5);
    assert_true(take(s, "apple", 2));
    /* The take's turn told the ledger; that letter waits for the next drive. */
    assert_count("turns to settle after the take", 1, settle(s));
    assert_count("level of apple", 3, level_of(s, "apple"));
    assert_count("sold of apple", 2, sold_of(s, "apple"));
    assert_true(take(s, "apple", 3));
    assert_count("turns to settle after the second take", 1, settle(s));
    assert_count("level of apple", 0, level_of(s, "apple"));
    assert_count("sold of apple", 5, sold_of(s, "apple"));
}

static void aTakeOfMoreThanIsInStockChangesNothing(void **state) {
    const shop *s = *state;
    restock(s, "apple", 1);
    assert_false(take(s, "apple", 2));
    assert_false(take(s, "plum", 1)); /* never stocked */
    assert_count("turns to settle", 0, settle(s)); /* no sale, nothing told */
    assert_count("level of apple", 1, level_of(s, "apple"));
    assert_count("sold of apple", 0, sold_of(s, "apple"));
}

static void aHandleTheTableNeverIssuedIsAnInvalidArgument(void **state) {
    const shop *s = *state;
    uint8_t name[16];
    const size_t name_length = put_text(name, "apple");
    uint8_t result[16];
    uint64_t length = 99;
    assert_status(s, LANEHOST_INVALID_ARGUMENT,
                  s->api->gate_call_on_lane(12345, s->lane, name, name_length, result, sizeof result, &length, 0));
    assert_last_error_holds(s, "0x3039 is not a gate handle"); /* 12345 */
    assert_count("result length of a failed call", 0, (int64_t)length);
    /* A real handle of the wrong kind: the lane where a gate belongs, a gate where a lane belongs. */
    assert_status(s, LANEHOST_INVALID_ARGUMENT,
                  s->api->gate_call_on_lane(s->lane, s->lane, name, name_length, result, sizeof result, &length, 0));
    assert_last_error_holds(s, "is not a gate handle");
    assert_status(s, LANEHOST_INVALID_ARGUMENT, s->api->lane_drive(s->level, 0, NULL));
    assert_last_error_holds(s, "is not a lane handle");
    /* None of it reached the shop. */
    assert_count("turns to settle", 0, settle(s));
    assert_count("level of apple", 0, level_of(s, "apple"));
}

static void malformedArgumentsAreRefusedBeforeTheStockSeesThem(void **state) {
    const shop *s = *state;
    static const uint8_t truncated[] = {0xA2, 0x64, 'i', 't'}; /* a map of two pairs, cut inside its first key */
    uint8_t result[16];
    uint64_t length = 0;
    assert_status(s, LANEHOST_INVALID_ARGUMENT, s->api->gate_call_on_lane(s->restock, s->lane, truncated,
                                                                          sizeof truncated, result, sizeof result,
                                                                          &length, 0));
    assert_last_error_holds(s, "CBOR");
    assert_count("level after restocking 4 apples", 4, restock(s, "apple", 4)); /* the stock goes on */
}

static void aHandlerThatThrowsIsACallbackFailureAndHaltsItsActorOnly(void **state) {
    const shop *s = *state;
    restock(s, "apple", 2);
    uint8_t order[64];
    uint8_t result[16];
    uint64_t length = 0;
    /* restock refuses a count of 0 by throwing: the call fails and the stock halts (the runtime logs the halt with
       the exception's stack trace, on stderr: expected here). */
    assert_status(s, LANEHOST_CALLBACK_FAILED,
                  s->api->gate_call_on_lane(s->restock, s->lane, order, put_order(order, "apple", 0), result,
                                            sizeof result, &length, 0));
    assert_last_error_holds(s, "java.lang.IllegalArgumentException");
    uint8_t name[16];
    assert_status(s, LANEHOST_ACTOR_TERMINATED, s->api->gate_call_on_lane(s->level, s->lane, name,
                                                                          put_text(name, "apple"), result,
                                                                          sizeof result, &length, 0));
    assert_count("sold of apple", 0, sold_of(s, "apple")); /* the ledger, another actor of the lane, lives on */
}

/* cmocka has installed its handlers for this test; through libjsig they are chained, and HotSpot's still run first. */
static void theJvmsFaultHandlersStayInPlaceWhileATestRuns(void **state) {
    (void)state;
    for (size_t i = 0; i < FAULT_SIGNALS; i++) {
        void *now = kernel_handler(fault_signals[i]);
        if (now != jvm_handlers[i]) {
            print_error("the kernel runs %p for %s during a test, not the JVM's %p: the handler cmocka installed "
                        "replaced HotSpot's\n", now, strsignal(fault_signals[i]), jvm_handlers[i]);
            fail();
        }
    }
}

static void theBlockingCallOnTheLanesOwnThreadIsRefused(void **state) {
    const shop *s = *state;
    uint8_t name[16];
    uint8_t result[16];
    uint64_t length = 0;
    /* The stock's turns run on this thread, inside its drives: a blocking call would wait for itself. */
    assert_status(s, LANEHOST_WRONG_THREAD,
                  s->api->gate_call(s->level, name, put_text(name, "apple"), result, sizeof result, &length, 0));
    assert_last_error_holds(s, "gate_call_on_lane");
}

int main(void) {
    class_path = getenv("LANEHOST_CLASS_PATH");
    if (class_path == NULL || class_path[0] == '\0') {
        printf("SKIPPED: LANEHOST_CLASS_PATH is not set: it names lanehost's jars and the samples' classes for the "
               "JVM this suite starts (Maven's samples build sets it for ctest: mvn -pl samples -am verify)\n");
        return SKIP_EXIT_CODE;
    }
    if (!libjsig_loaded()) {
        printf("FAILED: the JDK's libjsig is not preloaded. cmocka installs its own SIGSEGV, SIGBUS, SIGFPE and SIGILL "
               "handlers around every test, after the JVM started, and HotSpot takes SIGSEGV in its own work: without "
               "libjsig, which keeps HotSpot's handlers and chains cmocka's behind them, the suite ends at random. Run "
               "it with LD_PRELOAD=$JAVA_HOME/lib/libjsig.so (its CTest command does)\n");
        return EXIT_FAILURE;
    }
#define SHOP_TEST(test) cmocka_unit_test_setup_teardown(test, open_shop, close_shop)
    const struct CMUnitTest tests[] = {
        SHOP_TEST(theJvmsFaultHandlersStayInPlaceWhileATestRuns), /* first: without them the rest may die unexplained */
        SHOP_TEST(aNewShopHasNothingInStockAndNothingQueued),
        SHOP_TEST(aRestockAnswersTheNewLevel),
        SHOP_TEST(eachDeliveryIsOneTurnOfTheNextDrive),
        SHOP_TEST(aSaleReachesTheLedgerInTheDriveAfterTheTake),
        SHOP_TEST(aTakeOfMoreThanIsInStockChangesNothing),
        SHOP_TEST(aHandleTheTableNeverIssuedIsAnInvalidArgument),
        SHOP_TEST(malformedArgumentsAreRefusedBeforeTheStockSeesThem),
        SHOP_TEST(aHandlerThatThrowsIsACallbackFailureAndHaltsItsActorOnly),
        SHOP_TEST(theBlockingCallOnTheLanesOwnThreadIsRefused),
    };
    return cmocka_run_group_tests_name("shop", tests, create_jvm, end_jvm);
}
