/*
 * host_tables.h - what liblanehost exports for lanehost's own Java side (dev.lanehost.nativeabi.HostTables),
 * not for hosts: the host function tables, whose entries are C functions of this library that decide, before any
 * upcall, whether an entry may still enter the JVM; and the calling thread's last-error sentence.
 *
 * A table, in steps:
 *  1. Java reserves the next of LANEHOST_MAX_TABLES trampoline sets for good (lanehost_tables_reserve): the set's
 *     number is the table's instance, carried in every handle the table issues, and never reused. It makes one
 *     upcall stub per Java-backed entry (names: lanehost_tables_entry_name) and opens the table over them
 *     (lanehost_tables_open).
 *  2. Every entry a host can obtain is a trampoline of that set: it loads the set's open-entries mask
 *     (acquire) and, if its bit is set, jumps to the stub; otherwise it answers LANEHOST_CLOSED in C.
 *  3. As Java closes things it clears bits (lanehost_tables_restrict; they never come back). The stubs stay
 *     (their arena is global), so a host thread that read the mask just before it was cleared still reaches
 *     Java, which answers CLOSED itself.
 *  4. lanehost_tables_shut_down (before DestroyJavaVM) clears every mask: from then on no entry of any
 *     table, copied or not, enters the JVM.
 */
#ifndef LANEHOST_HOST_TABLES_H
#define LANEHOST_HOST_TABLES_H

#include "lanehost/lanehost.h"

/*
 * Trampoline sets, so host ABIs a process can open in its life. Each keeps its functions for the life of the
 * process: a function pointer a host copied out of a closed table must never reach a later table. 1024 covers
 * a test suite that opens a runtime per test; a set costs ~0.4 KiB of code and 0.3 KiB of zeroed memory.
 */
#define LANEHOST_MAX_TABLES 1024u

/* The name of the Java-backed entry at `index` (its stub's place in lanehost_tables_open), or NULL past the last. */
LANEHOST_EXPORT const char *lanehost_tables_entry_name(uint32_t index);

/*
 * Takes the next of the process's LANEHOST_MAX_TABLES trampoline sets for good: its number is the table's instance.
 * LANEHOST_REFUSED once every set is taken, or after lanehost_tables_shut_down.
 */
LANEHOST_EXPORT int32_t lanehost_tables_reserve(uint32_t *instance_out);

/*
 * Opens the reserved table `instance` over `stub_count` stubs (one per entry name, in that order) and gives its
 * table. LANEHOST_INVALID_ARGUMENT for a set not reserved, opened already, or a wrong stub count or NULL stub.
 */
LANEHOST_EXPORT int32_t lanehost_tables_open(uint32_t instance, void *const *stubs, uint32_t stub_count,
                                             const lanehost_api **table_out);

/* Keeps only the entries whose bits (the entry's index) are set in `open_entries`; bits cleared stay cleared. */
LANEHOST_EXPORT void lanehost_tables_restrict(uint32_t instance, uint32_t open_entries);

/* Closes every entry of every table for good: the JVM is about to end. */
LANEHOST_EXPORT void lanehost_tables_shut_down(void);

/* The table's last_error entry (one function for every table: the sentence is the thread's). */
LANEHOST_EXPORT int32_t lanehost_last_error(char *buffer, uint64_t capacity, uint64_t *length_out);

/* Sets the calling thread's last-error sentence (what last_error answers); longer ones are cut. */
LANEHOST_EXPORT void lanehost_error_set(const uint8_t *text, uint64_t length);

#endif /* LANEHOST_HOST_TABLES_H */
