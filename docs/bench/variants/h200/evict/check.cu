// How --cold-l2 should evict the L2: time a read of a buffer (32 MiB, which fits in the L2, and 112 MiB, B of
// 16 x 14336 x 4096 fp16, which does not) after each way of evicting, median of 20, CUDA events around the read
// alone. Ways: none (the buffer read just before), a write of twice the L2 (cudaMemsetAsync, as --cold-l2 did
// until this change), a read of twice the L2 (evict_l2, as it does now), and the write then the read.
//   nvcc -O2 -arch=sm_90 -o out/exp/evict-check docs/bench/variants/h200/evict/check.cu
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void read_all(const uint4 *buffer, size_t count, unsigned *sink)
{
    unsigned folded = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = buffer[i];
        folded ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (folded == 0x9E3779B9u)
        *sink = folded;
}

static int compare(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

int main(void)
{
    int l2 = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    size_t evict_bytes = 2 * (size_t)l2;
    void *evict, *data;
    unsigned *sink;
    CHECK(cudaMalloc(&evict, evict_bytes));
    CHECK(cudaMalloc(&data, 112u << 20));
    CHECK(cudaMalloc(&sink, 4));
    CHECK(cudaMemset(evict, 0x5A, evict_bytes));
    CHECK(cudaMemset(data, 0x33, 112u << 20));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const char *ways[] = {"none", "write", "read", "write+read"};
    size_t sizes[] = {32u << 20, 112u << 20};
    printf("l2_bytes=%d evict_bytes=%zu\n", l2, evict_bytes);
    for (int s = 0; s < 2; s++)
        for (int w = 0; w < 4; w++) {
            float times[20];
            for (int run = 0; run < 23; run++) {
                if (w == 0)
                    read_all<<<1024, 256>>>((const uint4 *)data, sizes[s] / 16, sink);
                if (w == 1 || w == 3)
                    CHECK(cudaMemsetAsync(evict, run & 0xFF, evict_bytes));
                if (w == 2 || w == 3)
                    read_all<<<1024, 256>>>((const uint4 *)evict, evict_bytes / 16, sink);
                CHECK(cudaEventRecord(start));
                read_all<<<1024, 256>>>((const uint4 *)data, sizes[s] / 16, sink);
                CHECK(cudaEventRecord(stop));
                CHECK(cudaEventSynchronize(stop));
                if (run >= 3)
                    CHECK(cudaEventElapsedTime(&times[run - 3], start, stop));
            }
            qsort(times, 20, sizeof(float), compare);
            double ms = (times[9] + times[10]) / 2;
            printf("read %3zu MiB after evict=%-10s median %.4f ms min %.4f ms  %.3f TB/s\n", sizes[s] >> 20,
                   ways[w], ms, times[0], sizes[s] / (ms * 1e-3) / 1e12);
        }
    return 0;
}
