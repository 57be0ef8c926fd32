// Microbenchmark: int8 transposition variants (rows x cols -> cols x rows).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
typedef signed char input_t;
#define TT 64
__global__ void v0(const input_t *__restrict__ in, input_t *__restrict__ out, int rows, int cols)
{
    __shared__ input_t tile[TT][TT + 4];
    const int words = TT / 4;
    int tiles_across = cols / TT;
    size_t row0 = (size_t)(blockIdx.x / tiles_across) * TT;
    size_t col0 = (size_t)(blockIdx.x % tiles_across) * TT;
    for (int i = threadIdx.x; i < TT * words; i += blockDim.x) {
        int r = i / words, c = i % words * 4;
        *(unsigned *)&tile[r][c] = *(const unsigned *)&in[(row0 + r) * cols + col0 + c];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < TT * words; i += blockDim.x) {
        int r = i / words, c = i % words * 4;
        unsigned word = 0;
        for (int e = 0; e < 4; e++)
            word |= (unsigned)(unsigned char)tile[c + e][r] << (8 * e);
        *(unsigned *)&out[(col0 + r) * rows + row0 + c] = word;
    }
}
// v0 with a tile of 64 rows x WC columns
template <int WC>
__global__ void vw(const input_t *__restrict__ in, input_t *__restrict__ out, int rows, int cols)
{
    __shared__ input_t tile[TT][WC + 4];
    const int words = WC / 4;
    int tiles_across = cols / WC;
    size_t row0 = (size_t)(blockIdx.x / tiles_across) * TT;
    size_t col0 = (size_t)(blockIdx.x % tiles_across) * WC;
#pragma unroll
    for (int i = threadIdx.x; i < TT * words; i += 256) {
        int r = i / words, c = i % words * 4;
        *(unsigned *)&tile[r][c] = *(const unsigned *)&in[(row0 + r) * cols + col0 + c];
    }
    __syncthreads();
#pragma unroll
    for (int i = threadIdx.x; i < WC * (TT / 4); i += 256) {
        int r = i / (TT / 4), c = i % (TT / 4) * 4;
        unsigned word = 0;
        for (int e = 0; e < 4; e++)
            word |= (unsigned)(unsigned char)tile[c + e][r] << (8 * e);
        *(unsigned *)&out[(col0 + r) * rows + row0 + c] = word;
    }
}
// register 4x4 byte transposition, input tile 64 rows x RC columns, output rows stored as uint4
template <int RC>
__global__ void __launch_bounds__(256) vr(const input_t *__restrict__ in, input_t *__restrict__ out, int rows, int cols)
{
    __shared__ unsigned t[RC][TT / 4 + 1];   /* output tile: RC rows of 16 words */
    int tiles_across = cols / RC;
    size_t row0 = (size_t)(blockIdx.x / tiles_across) * TT;
    size_t col0 = (size_t)(blockIdx.x % tiles_across) * RC;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
    for (int p = warp; p < (TT / 4) * (RC / 4) / 32; p += 8) {
        /* 32 (q, w) pairs per warp: w over 8 consecutive words, q over 4 row quads */
        int wgroups = RC / 4 / 8;
        int w = (p % wgroups) * 8 + lane % 8, q = (p / wgroups) * 4 + lane / 8;
        const input_t *src = in + (row0 + 4 * q) * cols + col0 + 4 * w;
        unsigned a0 = *(const unsigned *)src, a1 = *(const unsigned *)(src + cols);
        unsigned a2 = *(const unsigned *)(src + 2 * cols), a3 = *(const unsigned *)(src + 3 * cols);
        unsigned lo01 = __byte_perm(a0, a1, 0x5140), lo23 = __byte_perm(a2, a3, 0x5140);
        unsigned hi01 = __byte_perm(a0, a1, 0x7362), hi23 = __byte_perm(a2, a3, 0x7362);
        t[4 * w + 0][q] = __byte_perm(lo01, lo23, 0x5410);
        t[4 * w + 1][q] = __byte_perm(lo01, lo23, 0x7632);
        t[4 * w + 2][q] = __byte_perm(hi01, hi23, 0x5410);
        t[4 * w + 3][q] = __byte_perm(hi01, hi23, 0x7632);
    }
    __syncthreads();
#pragma unroll
    for (int i = threadIdx.x; i < RC * 4; i += 256) {
        int r = i / 4, v = i % 4 * 4;
        *(uint4 *)&out[(col0 + r) * rows + row0 + 4 * v] = make_uint4(t[r][v], t[r][v + 1], t[r][v + 2], t[r][v + 3]);
    }
}
__global__ void flush(int *p, size_t n) { for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] += 1; }
static int cmpf(const void *a, const void *b) { float x = *(float *)a, y = *(float *)b; return x < y ? -1 : x > y; }
int main()
{
    int sizes[][2] = {{4096, 4096}, {8192, 8192}, {4160, 4224}, {64, 128}, {4194368, 128}};
    for (int s = 0; s < 5; s++) {
        int rows = sizes[s][0], cols = sizes[s][1];
        size_t n = (size_t)rows * cols;
        input_t *h = (input_t *)malloc(n), *ref = (input_t *)malloc(n), *got = (input_t *)malloc(n);
        for (size_t i = 0; i < n; i++) h[i] = (input_t)(rand() >> 7);
        for (size_t r = 0; r < (size_t)rows; r++) for (size_t c = 0; c < (size_t)cols; c++) ref[c * rows + r] = h[r * cols + c];
        input_t *din, *dout; int *fl; size_t fln = 64u << 20;
        CK(cudaMalloc(&din, n)); CK(cudaMalloc(&dout, n)); CK(cudaMalloc(&fl, fln * 4));
        CK(cudaMemcpy(din, h, n, cudaMemcpyHostToDevice));
        cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
        for (int v = 0; v < 6; v++) {
            const char *name[] = {"copy", "v0 64x64", "vw 64x128", "vw 64x256", "vr 64x128", "vr 64x256"};
            float t[2][20];
            for (int f = 0; f < 2; f++) for (int it = -2; it < 20; it++) {
                CK(cudaMemset(dout, 0, n));
                if (f) flush<<<1024, 256>>>(fl, fln);
                cudaEventRecord(e0);
                unsigned g64 = (unsigned)((rows / 64) * (long long)(cols / 64));
                switch (v) {
                case 0: cudaMemcpyAsync(dout, din, n, cudaMemcpyDeviceToDevice); break;
                case 1: v0<<<g64, 256>>>(din, dout, rows, cols); break;
                case 2: vw<128><<<g64 / 2, 256>>>(din, dout, rows, cols); break;
                case 3: if (cols % 256 == 0) vw<256><<<g64 / 4, 256>>>(din, dout, rows, cols); break;
                case 4: vr<128><<<g64 / 2, 256>>>(din, dout, rows, cols); break;
                case 5: if (cols % 256 == 0) vr<256><<<g64 / 4, 256>>>(din, dout, rows, cols); break;
                }
                cudaEventRecord(e1); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
                if (it >= 0) cudaEventElapsedTime(&t[f][it], e0, e1);
            }
            CK(cudaMemcpy(got, dout, n, cudaMemcpyDeviceToHost));
            int ok = v == 0 ? 1 : memcmp(got, ref, n) == 0;
            if ((v == 3 || v == 5) && cols % 256) continue;
            qsort(t[0], 20, 4, cmpf); qsort(t[1], 20, 4, cmpf);
            printf("%6dx%-6d %-10s %s warm %7.2f us  flushed %7.2f us  (%.0f GB/s flushed)\n", rows, cols, name[v], ok ? "ok  " : "FAIL",
                   t[0][10] * 1e3, t[1][10] * 1e3, 2.0 * n / (t[1][10] * 1e-3) / 1e9);
        }
        cudaFree(din); cudaFree(dout); cudaFree(fl); free(h); free(ref); free(got);
    }
    return 0;
}
