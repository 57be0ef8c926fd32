// The event time of an empty kernel of 384 threads, by its parameters (a pointer, or 256 bytes of tensor-map-sized
// data), its cluster barriers (none; arrive.release + wait at entry and exit; at entry only; at exit only; arrive.relaxed),
// its dynamic shared memory, its launch (plain: cluster=0; clusters of 1 or 2), its grid (16 or 132 blocks), and whether
// a 200 MiB memset (the suite's L2 eviction) runs before each: median and minimum of 100 after 10.
// empty-1.txt is the first run (kernels small, big, sync; evict 0 and 1; all sizes); empty-2.txt the second
// (kernels sync to relaxed, evict 1, 226 KiB only). Build: nvcc -O2 -std=c++17 -arch=sm_90a -o empty empty.cu
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cuda_runtime.h>
struct Big { alignas(64) unsigned char m[2][128]; float *c; int s[16]; };
__global__ void k_small(float *c) { if (c && threadIdx.x == 9999) c[0] = 1; }
__global__ void k_big(const __grid_constant__ Big p) { if (p.c && threadIdx.x == 9999) p.c[0] = 1; }
__global__ void k_sync(float *c) {   // cluster barrier at entry and exit, as d_gemm_hopper
  asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
  if (c && threadIdx.x == 9999) c[0] = 1;
  asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
}
__global__ void k_entry(float *c) {
  asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
  if (c && threadIdx.x == 9999) c[0] = 1;
}
__global__ void k_exit(float *c) {
  if (c && threadIdx.x == 9999) c[0] = 1;
  asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
}
__global__ void k_relaxed(float *c) {
  asm volatile("barrier.cluster.arrive.relaxed.aligned; barrier.cluster.wait.aligned;" ::: "memory");
  if (c && threadIdx.x == 9999) c[0] = 1;
  asm volatile("barrier.cluster.arrive.relaxed.aligned; barrier.cluster.wait.aligned;" ::: "memory");
}
int main() {
  void *ev; size_t evb = 200u << 20; cudaMalloc(&ev, evb);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  void *ks[6] = {(void *)k_small, (void *)k_big, (void *)k_sync, (void *)k_entry, (void *)k_exit, (void *)k_relaxed};
  const char *kn[6] = {"small", "big", "sync", "entry", "exit", "relaxed"};
  for (int k = 0; k < 6; k++) cudaFuncSetAttribute(ks[k], cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
  Big big = {}; float *cp = NULL;
  for (int evict = 0; evict < 2; evict++)
  for (int k = 0; k < 6; k++)
  for (int smem : {0, 100 * 1024, 226 * 1024})
  for (int cl : {0, 1, 2})
  for (int grid : {16, 132}) {
    cudaLaunchAttribute at; at.id = cudaLaunchAttributeClusterDimension;
    at.val.clusterDim.x = cl ? cl : 1; at.val.clusterDim.y = 1; at.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {}; cfg.gridDim = dim3(grid); cfg.blockDim = dim3(384);
    cfg.dynamicSmemBytes = smem; cfg.attrs = &at; cfg.numAttrs = cl ? 1 : 0;
    void *args1[] = {&cp}; void *args2[] = {&big};
    void **args = k == 1 ? args2 : args1;
    double t[100];
    for (int r = 0; r < 110; r++) {
      if (evict) cudaMemsetAsync(ev, r & 255, evb);
      cudaEventRecord(a);
      cudaError_t e = cudaLaunchKernelExC(&cfg, ks[k], args);
      if (e) { printf("err %s\n", cudaGetErrorString(e)); return 1; }
      cudaEventRecord(b); cudaEventSynchronize(b);
      float ms; cudaEventElapsedTime(&ms, a, b);
      if (r >= 10) t[r - 10] = ms * 1000;
    }
    std::sort(t, t + 100);
    printf("evict=%d kernel=%s smem=%dK cluster=%d grid=%d median_us=%.2f min_us=%.2f\n", evict, kn[k], smem / 1024, cl, grid, t[50], t[0]);
  }
  return 0;
}
