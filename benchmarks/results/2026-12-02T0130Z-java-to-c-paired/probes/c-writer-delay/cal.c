#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int delay = atoi(argv[1]);
    struct timespec a, b; uint64_t sink = 1;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < 10000000; i++) for (int k = 0; k < delay; k++) { sink = sink * 3 + 1; __asm__ volatile("" : "+r"(sink)); }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("delay %d: %.2f ns (%lu)\n", delay, ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e7, (unsigned long)(sink & 1));
}
