#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <stdint.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(){
  uint8_t *src = aligned_alloc(4096, 8192); uint8_t *ring = aligned_alloc(4096, 1<<20);
  memset(src,1,8192); memset(ring,0,1<<20);
  void *(*volatile cp)(void*,const void*,size_t) = memcpy;
  for (int rep=0; rep<3; rep++)
  for (int off=0; off<64; off+=8) {
    size_t pos=0; int n=2000000; double t0=now();
    for (int i=0;i<n;i++){ cp(ring+pos, src+off, 4096); pos=(pos+4096)&((1<<20)-1);} 
    double t=now()-t0; printf("src off %2d: %.1f ns/copy\n", off, t/n);
  }
  uint8_t *m = malloc(4096); printf("malloc(4096) mod 64 = %lu\n", (unsigned long)((uintptr_t)m % 64));
}
