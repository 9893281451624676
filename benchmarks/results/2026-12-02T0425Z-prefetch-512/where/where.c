#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <link.h>
int main(void) {
    void *(*volatile f)(void *, const void *, size_t) = memcpy;
    void *d = dlsym(RTLD_DEFAULT, "memcpy");
    Dl_info info; dladdr(d, &info);
    printf("c: &memcpy libc+0x%lx, dlsym libc+0x%lx (%s)\n", (uintptr_t)f - (uintptr_t)info.dli_fbase, (uintptr_t)d - (uintptr_t)info.dli_fbase, info.dli_fname);
    return 0;
}
