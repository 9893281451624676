/*
 * constant_report.h - the name/value report a lanehost C library exports so Java can check its mirror of
 * the library's constants and struct layouts: a table of names and values, read by index (to list every
 * name) and by name (to compare one value).
 *
 * Each library keeps its own table and wraps these two functions in its own exported pair
 * (lanehost_ring_layout_name/_value, lanehost_api_layout_name/_value,
 * lanehost_affinity_constant_name/_value). Static inline, so every library compiles its own hidden copy
 * and no symbol is shared between the libraries.
 */
#ifndef LANEHOST_CONSTANT_REPORT_H
#define LANEHOST_CONSTANT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct report_entry {
    const char *name;
    int64_t value;
} report_entry;

/* The number of entries of a table defined as an array in the same file. */
#define REPORT_LENGTH(table) (sizeof(table) / sizeof((table)[0]))

/* The name at index, or NULL past the last entry: a reader lists the names by counting up to NULL. */
static inline const char *report_name(const report_entry *table, size_t length, uint32_t index) {
    return index < length ? table[index].name : NULL;
}

/*
 * The value of the entry called name. *found, if found is not NULL, becomes 1 when the table has the name
 * and 0 when it does not (or name is NULL); the result is then 0.
 */
static inline int64_t report_value(const report_entry *table, size_t length, const char *name, int32_t *found) {
    for (size_t i = 0; name != NULL && i < length; i++) {
        if (strcmp(table[i].name, name) == 0) {
            if (found != NULL) *found = 1;
            return table[i].value;
        }
    }
    if (found != NULL) *found = 0;
    return 0;
}

#endif
