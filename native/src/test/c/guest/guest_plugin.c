/*
 * guest_plugin.c - a plugin as an unmodified host would load one: a shared library, dlopened, whose instances each
 * keep a running sum in a Java actor of their own (TestGuestSetup) and answer it through their own gate. The host
 * (guest_host.c) never links lanehost; this library brings it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanehost/lanehost_guest.h"

typedef struct guest_plugin {
    lanehost_guest *guest;
    const lanehost_api *api;
    uint64_t add;
    uint64_t fault;
} guest_plugin;

static _Thread_local char plugin_error[4096];

static const lanehost_guest_options OPTIONS = {
    LANEHOST_GUEST_OPTIONS_HEAD, (const void *)&OPTIONS, "dev.lanehost.nativeabi.TestGuestSetup", NULL, NULL};

LANEHOST_EXPORT const char *guest_plugin_error(void) {
    return plugin_error;
}

/* CBOR for a signed 64-bit integer (RFC 8949 major types 0 and 1). */
static size_t put_int(uint8_t *out, int64_t value) {
    uint8_t major = value < 0 ? 0x20 : 0x00;
    uint64_t magnitude = value < 0 ? (uint64_t)(-(value + 1)) : (uint64_t)value;
    if (magnitude < 24) {
        out[0] = (uint8_t)(major | magnitude);
        return 1;
    }
    out[0] = (uint8_t)(major | 27);
    for (int i = 0; i < 8; i++) {
        out[1 + i] = (uint8_t)(magnitude >> (56 - 8 * i));
    }
    return 9;
}

static int get_int(const uint8_t *in, uint64_t length, int64_t *value) {
    if (length == 0) {
        return 0;
    }
    uint8_t major = in[0] & 0xE0;
    uint8_t info = in[0] & 0x1F;
    uint64_t magnitude = 0;
    size_t bytes = info < 24 ? 0 : info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : 99;
    if ((major != 0x00 && major != 0x20) || bytes == 99 || length != 1 + bytes) {
        return 0;
    }
    magnitude = bytes == 0 ? info : 0;
    for (size_t i = 0; i < bytes; i++) {
        magnitude = magnitude << 8 | in[1 + i];
    }
    *value = major == 0 ? (int64_t)magnitude : -1 - (int64_t)magnitude;
    return 1;
}

static int look_up(guest_plugin *plugin, const char *local, uint64_t *gate) {
    char name[LANEHOST_GUEST_NAME_CAPACITY];
    if (lanehost_guest_exported(plugin->guest, local, name, sizeof name) != LANEHOST_OK) {
        snprintf(plugin_error, sizeof plugin_error, "%s", lanehost_guest_last_error());
        return 0;
    }
    int32_t status = plugin->api->gate_lookup(name, gate);
    if (status != LANEHOST_OK) {
        snprintf(plugin_error, sizeof plugin_error, "gate_lookup(%s): status %d", name, (int)status);
        return 0;
    }
    return 1;
}

/* A new instance whose setup gets "tag=<tag>"; NULL with guest_plugin_error() set if it fails. */
LANEHOST_EXPORT guest_plugin *guest_plugin_new(const char *tag) {
    char argument[256];
    snprintf(argument, sizeof argument, "tag=%s", tag);
    const char *arguments[] = {argument, NULL};
    guest_plugin *plugin = calloc(1, sizeof *plugin);
    if (plugin == NULL) {
        snprintf(plugin_error, sizeof plugin_error, "no memory");
        return NULL;
    }
    int32_t status = lanehost_guest_instantiate(&OPTIONS, arguments, &plugin->guest);
    if (status != LANEHOST_OK) {
        snprintf(plugin_error, sizeof plugin_error, "status %d: %s", (int)status, lanehost_guest_last_error());
        free(plugin);
        return NULL;
    }
    plugin->api = lanehost_guest_api(plugin->guest);
    if (!look_up(plugin, "add", &plugin->add) || !look_up(plugin, "fault", &plugin->fault)) {
        lanehost_guest_free(plugin->guest);
        free(plugin);
        return NULL;
    }
    return plugin;
}

LANEHOST_EXPORT const char *guest_plugin_name(const guest_plugin *plugin) {
    return lanehost_guest_name(plugin->guest);
}

/* Adds value to the instance's sum through its gate; the new sum in *sum. A lanehost_status. */
LANEHOST_EXPORT int32_t guest_plugin_add(guest_plugin *plugin, int64_t value, int64_t *sum) {
    uint8_t args[9];
    uint8_t result[16];
    uint64_t length = 0;
    int32_t status = plugin->api->gate_call(plugin->add, args, put_int(args, value), result, sizeof result, &length,
                                            INT64_C(30000000000));
    if (status == LANEHOST_OK && !get_int(result, length, sum)) {
        snprintf(plugin_error, sizeof plugin_error, "the sum is not a CBOR integer");
        return LANEHOST_INTERNAL_ERROR;
    }
    return status;
}

/* Has the instance's actor overflow its stack `count` times in Java (SIGSEGVs the JVM handles itself). */
LANEHOST_EXPORT int32_t guest_plugin_java_faults(guest_plugin *plugin, int64_t count, int64_t *caught) {
    uint8_t args[9];
    uint8_t result[16];
    uint64_t length = 0;
    int32_t status = plugin->api->gate_call(plugin->fault, args, put_int(args, count), result, sizeof result, &length,
                                            INT64_C(60000000000));
    return status == LANEHOST_OK && !get_int(result, length, caught) ? LANEHOST_INTERNAL_ERROR : status;
}

LANEHOST_EXPORT int32_t guest_plugin_free(guest_plugin *plugin) {
    int32_t status = lanehost_guest_free(plugin->guest);
    if (status != LANEHOST_OK) {
        snprintf(plugin_error, sizeof plugin_error, "status %d: %s", (int)status, lanehost_guest_last_error());
    }
    free(plugin);
    return status;
}
