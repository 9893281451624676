/*
 * lanehost.h - the C ABI a native host sees.
 *
 * Today it holds the library's ABI version and the ring layout report; the host function table
 * (lanes, gates, signals) arrives with the call-gate and embedding issues. Every function here
 * returns a value or a status and never aborts.
 */
#ifndef LANEHOST_H
#define LANEHOST_H

#include <stdint.h>

#include "lanehost/lanehost_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on every incompatible change of an exported function or shared layout. */
#define LANEHOST_ABI_VERSION 1u

#if defined(__GNUC__)
#define LANEHOST_EXPORT __attribute__((visibility("default")))
#else
#define LANEHOST_EXPORT
#endif

/* The ABI version this library was built with; the Java loader refuses a mismatch. */
LANEHOST_EXPORT uint32_t lanehost_abi_version(void);

/*
 * The ring layout as this header compiled it, for the Java test that compares it with
 * SpscByteRingDescriptor: the name of entry `index`, or NULL past the last entry.
 */
LANEHOST_EXPORT const char *lanehost_ring_layout_name(uint32_t index);

/* The value of the named layout entry; *found is set to 1 if the name is known, else 0. */
LANEHOST_EXPORT int64_t lanehost_ring_layout_value(const char *name, int32_t *found);

/* A human-readable message for a lanehost_ring_status (never NULL). */
LANEHOST_EXPORT const char *lanehost_ring_status_text(int64_t status);

#ifdef __cplusplus
}
#endif

#endif /* LANEHOST_H */
