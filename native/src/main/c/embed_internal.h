/*
 * embed_internal.h - what embed.c shares with guest.c inside liblanehost_embed (hidden: never exported).
 */
#ifndef LANEHOST_EMBED_INTERNAL_H
#define LANEHOST_EMBED_INTERNAL_H

#include <jni.h>
#include <stddef.h>
#include <stdint.h>

#include "lanehost/lanehost_embed.h"

/* The JNI version asked of the JVM: JDK 24 is the first to know it, so an older JDK is refused at creation
 * with a clear sentence instead of failing later on lanehost's class files (which need 25). */
#define EMBED_JNI_VERSION JNI_VERSION_24
/* Sized for a sentence that quotes a class path or a JVM path. */
#define EMBED_ERROR_CAPACITY 4096
/* Local references one call creates at most; the frame is popped before returning. */
#define EMBED_LOCAL_FRAME 32

/* The calling thread's last sentence (lanehost_embed_last_error, lanehost_guest_last_error). */
extern _Thread_local char last_error[EMBED_ERROR_CAPACITY];

/* Sets the thread's sentence and returns status. */
int32_t fail(int32_t status, const char *format, ...) __attribute__((format(printf, 2, 3)));

/*
 * The process's JVM (created with options' JDK, class path and JVM options if there is none yet), the calling thread
 * attached to it; *attached says whether this call attached it. On OK the caller is counted as a JVM user until it
 * calls release_jvm_user (lanehost_embed_shutdown is refused while any is counted).
 */
int32_t enter_jvm(const lanehost_embed_options *options, JNIEnv **env_out, int *attached);
void leave_jvm(int attached);
void release_jvm_user(void);

/* A class of the class path, from the application class loader; NULL with the exception pending if not found. */
jclass load_class(JNIEnv *env, const char *class_name);

/* "class: message" of the pending exception, which is cleared. */
void describe_exception(JNIEnv *env, char *buffer, size_t capacity);

/* Copies a Java string into buffer; "" on NULL or failure. */
void copy_string(JNIEnv *env, jstring string, char *buffer, size_t capacity);

#endif /* LANEHOST_EMBED_INTERNAL_H */
