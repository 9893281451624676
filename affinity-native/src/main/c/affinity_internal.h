/* affinity_internal.h - what the library's C files share and do not export. */
#ifndef LANEHOST_AFFINITY_INTERNAL_H
#define LANEHOST_AFFINITY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lanehost/lanehost_affinity.h"

/* Largest CPU mask we ask the kernel about: 65536 CPUs, far above any NR_CPUS a kernel builds with. */
#define AFFINITY_MAX_MASK_WORDS 1024u

/* Forgets the previous call's errno and detail: every exported function starts with this (contract step 4). */
void affinity_clear_errno(void);

/* Longest text lanehost_affinity_last_detail returns, NUL included; longer texts are cut. */
#define AFFINITY_DETAIL_LENGTH 4352u

/* Sets what lanehost_affinity_last_detail reports on this thread, printf-style. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void affinity_set_detail(const char *format, ...);

/* Remembers `err` for lanehost_affinity_last_errno and maps it to the status that says the most. */
int32_t affinity_status_from_errno(int err);

/* Reads a small text file whole into buffer (NUL-terminated). NOT_FOUND, MALFORMED if it does not fit. */
int32_t affinity_read_text(const char *path, char *buffer, size_t size);

/* Parses a decimal int, surrounding whitespace allowed. MALFORMED otherwise. */
int32_t affinity_parse_int(const char *text, int32_t *value);

/*
 * Parses the kernel's list syntax ("0-3,8,10-11", a trailing newline, an empty list) into words,
 * zeroing them first. BUFFER_TOO_SMALL if a CPU does not fit in word_count words, MALFORMED on bad text.
 */
int32_t affinity_parse_cpu_list(const char *text, uint64_t *words, uint32_t word_count);

/* The lowest set bit of words, or -1 if none. */
int32_t affinity_first_cpu(const uint64_t *words, uint32_t word_count);

#endif
