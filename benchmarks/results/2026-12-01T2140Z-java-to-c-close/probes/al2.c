#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <stdint.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(){
  uint8_t *dst = aligned_alloc(4096, 8192); uint8_t *ring = aligned_alloc(4096, 1<<20);
  memset(dst,1,8192); memset(ring,0,1<<20);
  void *(*volatile cp)(void*,const void*,size_t) = memcpy;
  for (int rep=0; rep<2; rep++)
  for (int off=0; off<64; off+=16) {
    size_t pos=0; int n=2000000; double t0=now();
    for (int i=0;i<n;i++){ cp(dst+off, ring+pos, 4096); pos=(pos+4096)&((1<<20)-1);} 
    double t=now()-t0; printf("dst off %2d: %.1f ns/copy\n", off, t/n);
  }
}
