/* test_constant_report.c - the name/value report every lanehost C library builds its exports on. */
#include <string.h>

#include "check.h"
#include "constant_report.h"

static const report_entry TABLE[] = {
    {"FIRST", 1},
    {"NEGATIVE", -7},
    {"WIDE", INT64_C(1) << 40},
};

static void names_are_listed_in_order_then_null(void) {
    CHECK(strcmp("FIRST", report_name(TABLE, REPORT_LENGTH(TABLE), 0)) == 0);
    CHECK(strcmp("WIDE", report_name(TABLE, REPORT_LENGTH(TABLE), 2)) == 0);
    CHECK(report_name(TABLE, REPORT_LENGTH(TABLE), 3) == NULL);
    CHECK(report_name(TABLE, REPORT_LENGTH(TABLE), UINT32_MAX) == NULL);
    CHECK(report_name(TABLE, 0, 0) == NULL);
}

static void a_known_name_gives_its_value_and_found(void) {
    int32_t found = -1;
    CHECK_EQ(-7, report_value(TABLE, REPORT_LENGTH(TABLE), "NEGATIVE", &found));
    CHECK_EQ(1, found);
    found = -1;
    CHECK(report_value(TABLE, REPORT_LENGTH(TABLE), "WIDE", &found) == (INT64_C(1) << 40));
    CHECK_EQ(1, found);
    CHECK_EQ(1, report_value(TABLE, REPORT_LENGTH(TABLE), "FIRST", NULL)); /* found may be NULL */
}

static void an_unknown_or_null_name_is_not_found_and_zero(void) {
    int32_t found = -1;
    CHECK_EQ(0, report_value(TABLE, REPORT_LENGTH(TABLE), "FIRS", &found)); /* a prefix is not a match */
    CHECK_EQ(0, found);
    found = -1;
    CHECK_EQ(0, report_value(TABLE, REPORT_LENGTH(TABLE), NULL, &found));
    CHECK_EQ(0, found);
    found = -1;
    CHECK_EQ(0, report_value(TABLE, 0, "FIRST", &found));
    CHECK_EQ(0, found);
    CHECK_EQ(0, report_value(TABLE, REPORT_LENGTH(TABLE), NULL, NULL));
}

int main(void) {
    RUN_TEST(names_are_listed_in_order_then_null);
    RUN_TEST(a_known_name_gives_its_value_and_found);
    RUN_TEST(an_unknown_or_null_name_is_not_found_and_zero);
    return CHECK_EXIT();
}
