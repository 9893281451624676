/* check.h - the few assertions the C tests need; a failed check names the test, line and values. */
#ifndef LANEHOST_CHECK_H
#define LANEHOST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static const char *check_current_test = "?";
static int check_failures = 0;

#define CHECK_EQ(expected, actual)                                                                  \
    do {                                                                                            \
        long long check_e = (long long)(expected), check_a = (long long)(actual);                   \
        if (check_e != check_a) {                                                                   \
            fprintf(stderr, "FAIL %s (%s:%d): %s == %lld, expected %s == %lld\n", check_current_test, \
                    __FILE__, __LINE__, #actual, check_a, #expected, check_e);                      \
            check_failures++;                                                                       \
        }                                                                                           \
    } while (0)

#define CHECK(condition) CHECK_EQ(1, (condition) ? 1 : 0)

#define RUN_TEST(test)                                                                              \
    do {                                                                                            \
        check_current_test = #test;                                                                 \
        int check_before = check_failures;                                                          \
        test();                                                                                     \
        printf("%s %s\n", check_failures == check_before ? "ok  " : "FAIL", #test);                 \
    } while (0)

#define CHECK_EXIT() (check_failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE)

#endif
