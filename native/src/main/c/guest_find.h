/*
 * guest_find.h - how a plugin finds its bundle, its jars and a JDK (guest_find.c), for guest.c. Each sets the thread's
 * sentence (embed_internal.h) when it fails.
 */
#ifndef LANEHOST_GUEST_FIND_H
#define LANEHOST_GUEST_FIND_H

#include <stddef.h>
#include <stdint.h>

/* lanehost.conf's jvm_option= lines a bundle may give. */
#define MAX_CONF_OPTIONS 64u

/* The directory of the shared library holding `anchor`, resolved. */
int32_t bundle_of(const void *anchor, char *bundle, size_t capacity);

/* Every *.jar in <bundle>/lib, in name order, as a class path (malloc'd). */
int32_t jars_of(const char *bundle, char **class_path_out);

/* Reads <bundle>/lanehost.conf: java_home= into java_home (PATH_MAX bytes), jvm_option= lines into options. */
void read_conf(const char *bundle, char *java_home, char options[][256], uint32_t *option_count);

/* The first of the places lanehost_guest.h lists that holds a JDK 25+, into out (PATH_MAX bytes). */
int32_t find_jdk(const char *bundle, const char *explicit, const char *conf_home, char *out);

#endif /* LANEHOST_GUEST_FIND_H */
