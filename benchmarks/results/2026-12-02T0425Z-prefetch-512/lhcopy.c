#include <stddef.h>
#include <stdint.h>
#include <string.h>
/* experiment: a short ring write's copy in C, optionally fetching the lines a later write fills */
void lh_copy_ahead(uint8_t *dst, const uint8_t *src, size_t n, uint8_t *ahead, size_t ahead_len, int mode) {
    if (mode & 1) for (size_t o = 0; o < ahead_len; o += 64) __builtin_prefetch(ahead + o, 1, 3);
    if (mode & 2) {
        __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
    } else {
        memcpy(dst, src, n);
    }
}
