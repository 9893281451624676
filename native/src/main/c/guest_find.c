/*
 * guest_find.c - a plugin finds itself: its bundle (the directory of its library), its jars (<bundle>/lib) and a JDK
 * 25+ (lanehost_guest.h says in which order it looks), naming every place it looked when it finds none.
 */
#define _GNU_SOURCE /* dladdr, realpath, strtok_r */
#include "guest_find.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "embed_internal.h"

#define LOOKED_CAPACITY 2048u
/* JDK homes under each of these are candidates, newest version first. */
static const char *const JDK_PARENTS[] = {"/usr/lib/jvm", "/usr/local/lib/jvm", "/opt/java", "/usr/java"};

/* The directory of the shared library holding `anchor`, resolved. */
int32_t bundle_of(const void *anchor, char *bundle, size_t capacity) {
    Dl_info info;
    if (dladdr(anchor, &info) == 0 || info.dli_fname == NULL || info.dli_fname[0] == '\0') {
        return fail(LANEHOST_INVALID_ARGUMENT, "the anchor %p is in no shared library: pass the address of a function "
                    "of the plugin", anchor);
    }
    char resolved[PATH_MAX];
    if (realpath(info.dli_fname, resolved) == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "the plugin library %s cannot be resolved to a path", info.dli_fname);
    }
    char *slash = strrchr(resolved, '/');
    *slash = '\0';
    if ((size_t)snprintf(bundle, capacity, "%s", resolved[0] ? resolved : "/") >= capacity) {
        return fail(LANEHOST_INVALID_ARGUMENT, "the bundle path %s is too long", resolved);
    }
    return LANEHOST_OK;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.jar in <bundle>/lib, in name order, as a class path (malloc'd). */
int32_t jars_of(const char *bundle, char **class_path_out) {
    char directory[PATH_MAX + 8];
    snprintf(directory, sizeof directory, "%s/lib", bundle);
    DIR *listing = opendir(directory);
    if (listing == NULL) {
        return fail(LANEHOST_INVALID_ARGUMENT, "the bundle has no %s directory with the plugin's jars", directory);
    }
    char *names[512];
    size_t count = 0;
    size_t length = 1;
    for (struct dirent *entry; (entry = readdir(listing)) != NULL && count < 512;) {
        size_t n = strlen(entry->d_name);
        if (n > 4 && strcmp(entry->d_name + n - 4, ".jar") == 0 && (names[count] = strdup(entry->d_name)) != NULL) {
            length += strlen(directory) + n + 2;
            count++;
        }
    }
    closedir(listing);
    if (count == 0) {
        return fail(LANEHOST_INVALID_ARGUMENT, "%s holds no *.jar: the plugin's jars belong there", directory);
    }
    qsort(names, count, sizeof names[0], by_name);
    char *class_path = malloc(length);
    if (class_path != NULL) {
        class_path[0] = '\0';
        for (size_t i = 0; i < count; i++) {
            strcat(strcat(strcat(class_path, i == 0 ? "" : ":"), directory), "/");
            strcat(class_path, names[i]);
        }
    }
    for (size_t i = 0; i < count; i++) {
        free(names[i]);
    }
    *class_path_out = class_path;
    return class_path == NULL ? fail(LANEHOST_OUT_OF_MEMORY, "no memory for the class path") : LANEHOST_OK;
}

/* The JDK's feature version (25 for "25.0.1") from <home>/release, 0 if it has no libjvm or no release file. */
static int jdk_version(const char *home) {
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/lib/server/libjvm.so", home);
    if (access(path, R_OK) != 0) {
        return 0;
    }
    snprintf(path, sizeof path, "%s/release", home);
    FILE *release = fopen(path, "r");
    int version = 0;
    char line[512];
    while (release != NULL && fgets(line, sizeof line, release) != NULL) {
        if (sscanf(line, "JAVA_VERSION=\"%d", &version) == 1) {
            break;
        }
    }
    if (release != NULL) {
        fclose(release);
    }
    return version;
}

/* Adds "where (why)" to the sentence of places looked at. */
static void looked_at(char *looked, const char *where, const char *why) {
    size_t used = strlen(looked);
    snprintf(looked + used, LOOKED_CAPACITY - used, "%s%.512s (%.64s)", used ? "; " : "", where, why);
}

/* Takes `home` if it is a JDK 25+; else notes why not. */
static int accept_jdk(const char *home, const char *from, char *out, char *looked) {
    int version = jdk_version(home);
    char where[PATH_MAX + 64];
    snprintf(where, sizeof where, "%s %s", from, home);
    if (version >= 25) {
        snprintf(out, PATH_MAX, "%s", home);
        return 1;
    }
    char why[64];
    snprintf(why, sizeof why, version == 0 ? "no JDK there" : "JDK %d, older than 25", version);
    looked_at(looked, where, why);
    return 0;
}

/* The newest JDK 25+ directly under `parent`. */
static int newest_under(const char *parent, char *out, char *looked) {
    DIR *listing = opendir(parent);
    if (listing == NULL) {
        looked_at(looked, parent, "no such directory");
        return 0;
    }
    int best = 0;
    for (struct dirent *entry; (entry = readdir(listing)) != NULL;) {
        if (entry->d_name[0] == '.') {
            continue;
        }
        char home[PATH_MAX + 256];
        snprintf(home, sizeof home, "%s/%s", parent, entry->d_name);
        int version = jdk_version(home);
        if (version >= 25 && version > best) {
            best = version;
            snprintf(out, PATH_MAX, "%.4095s", home);
        }
    }
    closedir(listing);
    if (best == 0) {
        looked_at(looked, parent, "no JDK 25+ in it");
    }
    return best > 0;
}

/* Reads <bundle>/lanehost.conf: java_home=, jvm_option= (one per line; '#' starts a comment). Missing is fine. */
void read_conf(const char *bundle, char *java_home, char options[][256], uint32_t *option_count) {
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/lanehost.conf", bundle);
    FILE *conf = fopen(path, "r");
    char line[PATH_MAX];
    while (conf != NULL && fgets(line, sizeof line, conf) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "java_home=", 10) == 0) {
            snprintf(java_home, PATH_MAX, "%s", line + 10);
        } else if (strncmp(line, "jvm_option=", 11) == 0 && *option_count < MAX_CONF_OPTIONS) {
            snprintf(options[(*option_count)++], 256, "%.255s", line + 11);
        }
    }
    if (conf != NULL) {
        fclose(conf);
    }
}

/* Step 1's JDK: the first of the places lanehost_guest.h lists that holds a JDK 25+. */
int32_t find_jdk(const char *bundle, const char *explicit, const char *conf_home, char *out) {
    char looked[LOOKED_CAPACITY] = "";
    const char *environment = getenv("JAVA_HOME");
    if (explicit != NULL && accept_jdk(explicit, "options->java_home", out, looked)) {
        return LANEHOST_OK;
    }
    if (conf_home[0] != '\0' && accept_jdk(conf_home, "lanehost.conf java_home", out, looked)) {
        return LANEHOST_OK;
    }
    if (conf_home[0] == '\0') {
        char where[PATH_MAX + 32];
        snprintf(where, sizeof where, "%.4000s/lanehost.conf", bundle);
        looked_at(looked, where, "no java_home=");
    }
    if (environment != NULL && environment[0] != '\0') {
        if (accept_jdk(environment, "JAVA_HOME", out, looked)) {
            return LANEHOST_OK;
        }
    } else {
        looked_at(looked, "JAVA_HOME", "not set");
    }
    const char *directories = getenv("LANEHOST_JDK_DIRS"); /* replaces the usual directories when set */
    if (directories != NULL) {
        char copy[PATH_MAX];
        snprintf(copy, sizeof copy, "%s", directories);
        for (char *saved = NULL, *parent = strtok_r(copy, ":", &saved); parent != NULL;
             parent = strtok_r(NULL, ":", &saved)) {
            if (newest_under(parent, out, looked)) {
                return LANEHOST_OK;
            }
        }
    } else {
        for (size_t i = 0; i < sizeof JDK_PARENTS / sizeof JDK_PARENTS[0]; i++) {
            if (newest_under(JDK_PARENTS[i], out, looked)) {
                return LANEHOST_OK;
            }
        }
    }
    return fail(LANEHOST_INVALID_ARGUMENT, "lanehost found no JDK 25 or newer; it looked at: %s. Install one or name it "
                "in lanehost.conf (java_home=/path/to/jdk)", looked);
}
