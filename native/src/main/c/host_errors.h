/*
 * host_errors.h - inside liblanehost (hidden): the calling thread's sentence (host_errors.c), for host_tables.c.
 */
#ifndef LANEHOST_HOST_ERRORS_H
#define LANEHOST_HOST_ERRORS_H

#include <stdint.h>

/* Sets the calling thread's sentence to "<STATUS>: <formatted>" and returns status. */
int32_t fail(int32_t status, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* True for a pointer no Linux process maps memory at (lanehost.h: LANEHOST_LOWEST_ADDRESS, LANEHOST_ADDRESS_BITS). */
int implausible(const void *pointer);

#endif /* LANEHOST_HOST_ERRORS_H */
