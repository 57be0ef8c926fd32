// out/gemm.cu: generated from gemm.md by tangle.py. Edit gemm.md, not this file.
/* ==== Reading and running this document ==== */
#line 87 "gemm.md"
/*
 * gemm.cu: C = alpha * op(A) * op(B) + beta * C on NVIDIA tensor cores through the WMMA API, verified.
 * Tangled from gemm.md, which explains every part; edit gemm.md and run make, not this file.
 *
 * Build  make [TYPE=F16_IN_F32_OUT] [MNK=16x16x16] [TRANSPOSE_A=0] [TRANSPOSE_B=0] [ARCH=90]
 *        for ARCH=90 that is, warning flags aside:
 *        nvcc -O3 -std=c++17 -lineinfo -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90,code=compute_90
 *             -o out/gemm out/gemm.cu -lcublas -lpthread
 * Run    out/gemm [options] [M N K]   (out/gemm --help lists the options)
 *
 * Kernels
 *   d_gemm_naive      one warp per FRAG_M x FRAG_N tile of C, straight from global memory: the baseline
 *   d_gemm<TILE>      the fast one: block tiles in shared memory, warp tiles of several fragments, a multi-stage
 *                     copy pipeline (TMA on sm_90+, cp.async on sm_80-89, loads before), alpha and beta
 *                     in the epilogue; TILE is a row of tile_table
 *   d_transpose       int8 only: an operand stored the other way, transposed for d_gemm
 *   d_round_tf32      tf32 only: the operands rounded to tf32 once, for d_gemm
 *   d_peak            mma_sync from registers, all loads amortized away: the WMMA ceiling (--peak)
 *   d_gemm_reference  one element of C per thread, tiles of 32 x 32 through shared memory, exact sums: the GPU verifier
 *   d_gemm_hopper<STEP>  sm_90a builds, 9.0 GPUs: consumer warpgroups multiply swizzled slabs with wgmma (f64:
 *                     mma.sync m16n8k16), fed from step 2 on by a producer warpgroup; STEP 1 .. 10 are the
 *                     last part's steps (--kernel=hopper: 10, whose tile is one of HOPPER_TILES, by shape;
 *                     its 128 x 256 stores C through shared memory, store_staged)
 *   d_gather_pieces   d_gemm_hopper's steps 7 to 10: adds the pieces of tiles split along K, applies alpha, beta
 *   d_transpose_wide  tf32 and f64 for d_gemm_hopper: an operand made K-major
 *   d_peak_hopper     the wgmma (f64: m16n8k16 mma.sync) ceiling, beside d_peak in --peak
 *
 * Exit status  0 verified (or --verify=off), 1 verification failed, 2 bad usage, 3 no usable GPU,
 *              4 out of memory, 5 CUDA or cuBLAS error, 6 file error
 *
 * Parts, in order
 *   Configuration                     the type pair, shape and transpositions; #error for a bad choice
 *   Headers and errors                die, CHECK_CUDA, CHECK_CUBLAS
 *   What each type pair means in C    input_t, accum_t, ... and TYPE_PAIR, the row of every per-type table
 *   Matrices in memory                layouts, padding, Shape, element_index
 *   The naive kernel                  d_gemm_naive and its helpers
 *   How fast can the tensor cores go? d_peak
 *   d_gemm: the tiled kernel          Tile, slabs, copies, steps 1 to 7, d_transpose, d_round_tf32, tile_table
 *   Verification                      the references, the error bound, the comparison
 *   The harness                       options, inputs, the GPU, timing, launches, cuBLAS, .npy, the report,
 *                                     run_gemm in phases, run_peak
 *   main
 *   Past WMMA: Hopper's warpgroup MMA d_gemm_hopper: swizzled slabs, wgmma, producer and consumers, the
 *                                     epilogue, the persistent grid, the last round, tiles by shape, f64 on
 *                                     mma.sync, the operands' roles swapped (tf32, int8: B read into registers),
 *                                     the host side, d_peak_hopper, the steps
 *   Appendix: testing the host code   --self-test
 */
/* ==== Configuration ==== */
#line 276 "gemm.md"
#ifndef CONFIG_ON_COMMAND_LINE
#define F16_IN_F32_OUT
#define MNK_16x16x16
#endif

#ifndef TRANSPOSE_A
#define TRANSPOSE_A 0   /* 1: A is stored K x M and used transposed */
#endif
#ifndef TRANSPOSE_B
#define TRANSPOSE_B 0   /* 1: B is stored N x K and used transposed */
#endif
#ifndef WITH_STEPS
#define WITH_STEPS 0    /* 1: also build steps 1 to 6 of d_gemm and 1 to 9 of d_gemm_hopper */
#endif
#line 299 "gemm.md"
#if defined(F16_IN_F32_OUT) + defined(F16_IN_OUT) + defined(U8_IN_I32_OUT) + \
    defined(I8_IN_I32_OUT) + defined(BF16_IN_F32_OUT) + defined(TF32_IN_F32_OUT) + \
    defined(F64_IN_OUT) == 0
#error "no type pair selected: define one of F16_IN_F32_OUT, F16_IN_OUT, U8_IN_I32_OUT, I8_IN_I32_OUT, BF16_IN_F32_OUT, TF32_IN_F32_OUT, F64_IN_OUT"
#elif defined(F16_IN_F32_OUT) + defined(F16_IN_OUT) + defined(U8_IN_I32_OUT) + \
    defined(I8_IN_I32_OUT) + defined(BF16_IN_F32_OUT) + defined(TF32_IN_F32_OUT) + \
    defined(F64_IN_OUT) > 1
#error "more than one type pair selected: define exactly one"
#endif

#if defined(MNK_16x16x16) + defined(MNK_32x8x16) + defined(MNK_8x32x16) + \
    defined(MNK_16x16x8) + defined(MNK_8x8x4) == 0
#error "no WMMA shape selected: define one of MNK_16x16x16, MNK_32x8x16, MNK_8x32x16, MNK_16x16x8, MNK_8x8x4"
#elif defined(MNK_16x16x16) + defined(MNK_32x8x16) + defined(MNK_8x32x16) + \
    defined(MNK_16x16x8) + defined(MNK_8x8x4) > 1
#error "more than one WMMA shape selected: define exactly one"
#endif

#if defined(MNK_16x16x16) || defined(MNK_32x8x16) || defined(MNK_8x32x16)
#define SHAPE_IS_16BIT_FAMILY 1   /* the shapes of the 16-bit and 8-bit types */
#else
#define SHAPE_IS_16BIT_FAMILY 0
#endif
#if defined(F16_IN_F32_OUT) && !SHAPE_IS_16BIT_FAMILY
#error "F16_IN_F32_OUT supports MNK_16x16x16, MNK_32x8x16, MNK_8x32x16"
#elif defined(F16_IN_OUT) && !SHAPE_IS_16BIT_FAMILY
#error "F16_IN_OUT supports MNK_16x16x16, MNK_32x8x16, MNK_8x32x16"
#elif defined(U8_IN_I32_OUT) && !SHAPE_IS_16BIT_FAMILY
#error "U8_IN_I32_OUT supports MNK_16x16x16, MNK_32x8x16, MNK_8x32x16"
#elif defined(I8_IN_I32_OUT) && !SHAPE_IS_16BIT_FAMILY
#error "I8_IN_I32_OUT supports MNK_16x16x16, MNK_32x8x16, MNK_8x32x16"
#elif defined(BF16_IN_F32_OUT) && !SHAPE_IS_16BIT_FAMILY
#error "BF16_IN_F32_OUT supports MNK_16x16x16, MNK_32x8x16, MNK_8x32x16"
#elif defined(TF32_IN_F32_OUT) && !defined(MNK_16x16x8)
#error "TF32_IN_F32_OUT supports only MNK_16x16x8"
#elif defined(F64_IN_OUT) && !defined(MNK_8x8x4)
#error "F64_IN_OUT supports only MNK_8x8x4"
#endif

#if TRANSPOSE_A != 0 && TRANSPOSE_A != 1
#error "TRANSPOSE_A must be 0 or 1"
#endif
#if TRANSPOSE_B != 0 && TRANSPOSE_B != 1
#error "TRANSPOSE_B must be 0 or 1"
#endif
/* ==== Headers and errors ==== */
#line 352 "gemm.md"
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cublas_v2.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

namespace wmma = nvcuda::wmma;
#line 392 "gemm.md"
#define EXIT_VERIFY_FAILED 1
#define EXIT_USAGE 2
#define EXIT_NO_GPU 3
#define EXIT_NO_MEMORY 4
#define EXIT_CUDA_ERROR 5
#define EXIT_IO_ERROR 6

static void die(int status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("gemm: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(status);
}
#line 418 "gemm.md"
static void cuda_failed(const char *call, cudaError_t status,
                        const char *file, int line)
{
    die(status == cudaErrorMemoryAllocation ? EXIT_NO_MEMORY : EXIT_CUDA_ERROR,
        "%s:%d: %s failed: %s", file, line, call, cudaGetErrorString(status));
}

#define CHECK_CUDA(call)                                                     \
    do {                                                                     \
        cudaError_t check_status_ = (call);                                  \
        if (check_status_ != cudaSuccess)                                    \
            cuda_failed(#call, check_status_, __FILE__, __LINE__);           \
    } while (0)

#define CHECK_LAUNCH() CHECK_CUDA(cudaGetLastError())

#define CHECK_CUBLAS(call)                                                   \
    do {                                                                     \
        cublasStatus_t check_status_ = (call);                               \
        if (check_status_ != CUBLAS_STATUS_SUCCESS)                          \
            die(EXIT_CUDA_ERROR, "%s:%d: %s failed: %s", __FILE__, __LINE__, \
                #call, cublasGetStatusString(check_status_));                \
    } while (0)
/* ==== What each type pair means in C ==== */
#line 470 "gemm.md"
/* TYPE_PAIR, the row of every per-type table (macros, so that #if can compare them too) */
#define PAIR_F16_IN_F32_OUT 0
#define PAIR_F16_IN_OUT 1
#define PAIR_U8_IN_I32_OUT 2
#define PAIR_I8_IN_I32_OUT 3
#define PAIR_BF16_IN_F32_OUT 4
#define PAIR_TF32_IN_F32_OUT 5
#define PAIR_F64_IN_OUT 6

#if defined(F16_IN_F32_OUT)
#define TYPE_PAIR PAIR_F16_IN_F32_OUT
#define TYPE_NAME "F16_IN_F32_OUT"
#define MIN_CC 70
#define IS_INTEGER 0
typedef half input_t, frag_t;
typedef float accum_t, scalar_t;
typedef double exact_t;
#define INPUT_TO_DOUBLE(x) ((double)__half2float(x))
#define INPUT_FROM_FLOAT(x) __float2half_rn(x)
#define ACCUM_TO_DOUBLE(x) ((double)(x))
#define ACCUM_FROM_FLOAT(x) ((float)(x))
#line 498 "gemm.md"
#elif defined(F16_IN_OUT)
#define TYPE_PAIR PAIR_F16_IN_OUT
#define TYPE_NAME "F16_IN_OUT"
#define MIN_CC 70
#define IS_INTEGER 0
typedef half input_t, frag_t, accum_t;
typedef float scalar_t;
typedef double exact_t;
#define INPUT_TO_DOUBLE(x) ((double)__half2float(x))
#define INPUT_FROM_FLOAT(x) __float2half_rn(x)
#define ACCUM_TO_DOUBLE(x) ((double)__half2float(x))
#define ACCUM_FROM_FLOAT(x) __float2half_rn(x)
#elif defined(U8_IN_I32_OUT)
#define TYPE_PAIR PAIR_U8_IN_I32_OUT
#define TYPE_NAME "U8_IN_I32_OUT"
#define MIN_CC 72
#define IS_INTEGER 1
typedef unsigned char input_t, frag_t;
typedef int accum_t, scalar_t;
typedef long long exact_t;
#define INPUT_TO_DOUBLE(x) ((double)(x))
#define INPUT_FROM_FLOAT(x) ((input_t)(x))
#define ACCUM_TO_DOUBLE(x) ((double)(x))
#define ACCUM_FROM_FLOAT(x) ((int)(x))
#elif defined(I8_IN_I32_OUT)
#define TYPE_PAIR PAIR_I8_IN_I32_OUT
#define TYPE_NAME "I8_IN_I32_OUT"
#define MIN_CC 72
#define IS_INTEGER 1
typedef signed char input_t, frag_t;
typedef int accum_t, scalar_t;
typedef long long exact_t;
#define INPUT_TO_DOUBLE(x) ((double)(x))
#define INPUT_FROM_FLOAT(x) ((input_t)(x))
#define ACCUM_TO_DOUBLE(x) ((double)(x))
#define ACCUM_FROM_FLOAT(x) ((int)(x))
#elif defined(BF16_IN_F32_OUT)
#define TYPE_PAIR PAIR_BF16_IN_F32_OUT
#define TYPE_NAME "BF16_IN_F32_OUT"
#define MIN_CC 80
#define IS_INTEGER 0
#define PTX_TYPE "bf16"
typedef __nv_bfloat16 input_t, frag_t;
typedef float accum_t, scalar_t;
typedef double exact_t;
#define INPUT_TO_DOUBLE(x) ((double)__bfloat162float(x))
#define INPUT_FROM_FLOAT(x) __float2bfloat16_rn(x)
#define ACCUM_TO_DOUBLE(x) ((double)(x))
#define ACCUM_FROM_FLOAT(x) ((float)(x))
#elif defined(TF32_IN_F32_OUT)
#define TYPE_PAIR PAIR_TF32_IN_F32_OUT
#define TYPE_NAME "TF32_IN_F32_OUT"
#define MIN_CC 80
#define IS_INTEGER 0
#define PTX_TYPE "tf32"
typedef float input_t, accum_t, scalar_t;
typedef wmma::precision::tf32 frag_t;
typedef double exact_t;
#define INPUT_TO_DOUBLE(x) ((double)tf32_round(x))  /* as the tensor cores see it */
#define INPUT_FROM_FLOAT(x) (x)
#define ACCUM_TO_DOUBLE(x) ((double)(x))
#define ACCUM_FROM_FLOAT(x) ((float)(x))
#elif defined(F64_IN_OUT)
#define TYPE_PAIR PAIR_F64_IN_OUT
#define TYPE_NAME "F64_IN_OUT"
#define MIN_CC 80
#define IS_INTEGER 0
#define PTX_TYPE "f64"
typedef double input_t, frag_t, accum_t, scalar_t, exact_t;
#define INPUT_TO_DOUBLE(x) ((double)(x))
#define INPUT_FROM_FLOAT(x) ((double)(x))
#define ACCUM_TO_DOUBLE(x) ((double)(x))
#define ACCUM_FROM_FLOAT(x) ((double)(x))
#endif
#line 580 "gemm.md"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < MIN_CC * 10
#error "this type pair needs a newer GPU than one this build is for: bf16, tf32 and f64 need sm_80 (drop 75 from ARCH)"
#endif

#define RATE_UNIT (IS_INTEGER ? "TOP/s" : "TFLOP/s")
#line 592 "gemm.md"
#if defined(MNK_16x16x16)
#define FRAG_M 16
#define FRAG_N 16
#define FRAG_K 16
#define SHAPE_NAME "16x16x16"
#define PTX_SHAPE "m16n16k16"
#elif defined(MNK_32x8x16)
#define FRAG_M 32
#define FRAG_N 8
#define FRAG_K 16
#define SHAPE_NAME "32x8x16"
#define PTX_SHAPE "m32n8k16"
#elif defined(MNK_8x32x16)
#define FRAG_M 8
#define FRAG_N 32
#define FRAG_K 16
#define SHAPE_NAME "8x32x16"
#define PTX_SHAPE "m8n32k16"
#elif defined(MNK_16x16x8)
#define FRAG_M 16
#define FRAG_N 16
#define FRAG_K 8
#define SHAPE_NAME "16x16x8"
#define PTX_SHAPE "m16n16k8"
#elif defined(MNK_8x8x4)
#define FRAG_M 8
#define FRAG_N 8
#define FRAG_K 4
#define SHAPE_NAME "8x8x4"
#define PTX_SHAPE "m8n8k4"
#endif
#line 636 "gemm.md"
__host__ __device__ static inline float tf32_round(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7f800000u) != 0x7f800000u) {   /* finite */
        bits += 0x1000u;
        bits &= 0xffffe000u;
    }
    memcpy(&value, &bits, sizeof value);
    return value;
}
#line 653 "gemm.md"
__host__ __device__ static inline float tf32_truncate(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7f800000u) != 0x7f800000u)   /* finite */
        bits &= 0xffffe000u;
    memcpy(&value, &bits, sizeof value);
    return value;
}
/* ==== Matrices in memory ==== */
#line 691 "gemm.md"
template <int TRANSPOSED> struct Layout { typedef wmma::row_major type; };
template <> struct Layout<1> { typedef wmma::col_major type; };

typedef Layout<TRANSPOSE_A>::type layout_a;   /* 1: stored K x M, rows of length M */
typedef Layout<TRANSPOSE_B>::type layout_b;   /* 1: stored N x K, rows of length K */
#line 722 "gemm.md"
#define ROUND_UP(value, multiple) ((((value) + (multiple) - 1) / (multiple)) * (multiple))

static void pad_matrix(void *padded, const void *source, size_t rows, size_t cols,
                       size_t rows_padded, size_t cols_padded, size_t element_size)
{
    char *dst = (char *)padded;
    const char *src = (const char *)source;
    size_t row_bytes = cols * element_size;
    size_t padded_row_bytes = cols_padded * element_size;

    for (size_t row = 0; row < rows; row++) {
        memcpy(dst + row * padded_row_bytes, src + row * row_bytes, row_bytes);
        memset(dst + row * padded_row_bytes + row_bytes, 0, padded_row_bytes - row_bytes);
    }
    memset(dst + rows * padded_row_bytes, 0, (rows_padded - rows) * padded_row_bytes);
}

static void extract_matrix(void *destination, const void *padded, size_t rows,
                           size_t cols, size_t cols_padded, size_t element_size)
{
    for (size_t row = 0; row < rows; row++)
        memcpy((char *)destination + row * cols * element_size,
               (const char *)padded + row * cols_padded * element_size,
               cols * element_size);
}
#line 755 "gemm.md"
typedef struct {
    int m, n, k;                          /* the problem as asked */
    int m_padded, n_padded, k_padded;     /* rounded up to the block tile */
    int rows_a, cols_a, rows_b, cols_b;   /* A and B as stored */
    int rows_a_padded, cols_a_padded, rows_b_padded, cols_b_padded;
} Shape;

static Shape make_shape(int m, int n, int k, int multiple_m, int multiple_n,
                        int multiple_k)
{
    Shape shape;
    shape.m = m;
    shape.n = n;
    shape.k = k;
    shape.m_padded = ROUND_UP(m, multiple_m);
    shape.n_padded = ROUND_UP(n, multiple_n);
    shape.k_padded = ROUND_UP(k, multiple_k);
    shape.rows_a = TRANSPOSE_A ? k : m;
    shape.cols_a = TRANSPOSE_A ? m : k;
    shape.rows_b = TRANSPOSE_B ? n : k;
    shape.cols_b = TRANSPOSE_B ? k : n;
    shape.rows_a_padded = TRANSPOSE_A ? shape.k_padded : shape.m_padded;
    shape.cols_a_padded = TRANSPOSE_A ? shape.m_padded : shape.k_padded;
    shape.rows_b_padded = TRANSPOSE_B ? shape.n_padded : shape.k_padded;
    shape.cols_b_padded = TRANSPOSE_B ? shape.k_padded : shape.n_padded;
    return shape;
}
#line 790 "gemm.md"
__host__ __device__ constexpr size_t element_index(bool transposed, int row, int col, int ld)
{
    return transposed ? (size_t)col * ld + row : (size_t)row * ld + col;
}

__host__ __device__ constexpr size_t a_index(int i, int kk, int ld)
{
    return element_index(TRANSPOSE_A, i, kk, ld);
}

__host__ __device__ constexpr size_t b_index(int kk, int j, int ld)
{
    return element_index(TRANSPOSE_B, kk, j, ld);
}
/* ==== The naive kernel: one warp per output tile ==== */
#line 814 "gemm.md"
typedef wmma::fragment<wmma::matrix_a, FRAG_M, FRAG_N, FRAG_K, frag_t, layout_a> fragment_a;
typedef wmma::fragment<wmma::matrix_b, FRAG_M, FRAG_N, FRAG_K, frag_t, layout_b> fragment_b;
typedef wmma::fragment<wmma::accumulator, FRAG_M, FRAG_N, FRAG_K, accum_t> fragment_c;
#line 827 "gemm.md"
#define FRAG_ROW_A (TRANSPOSE_A ? FRAG_M : FRAG_K)
#define FRAG_ROWS_A (TRANSPOSE_A ? FRAG_K : FRAG_M)
#define FRAG_ROW_B (TRANSPOSE_B ? FRAG_K : FRAG_N)
#define FRAG_ROWS_B (TRANSPOSE_B ? FRAG_N : FRAG_K)
#line 843 "gemm.md"
/* Smallest leading dimension (in elements) that holds `cols` and is a multiple of 32 bytes: staging buffers placed
   one after another then each start 32-byte aligned (rule 1), not only 16 (rule 2). */
#define ALIGNED_LD(cols, type) ROUND_UP((cols), 32 / sizeof(type))

template <typename Fragment, int ROWS, int COLS>
__device__ static inline void load_fragment(Fragment &fragment, const input_t *source,
                                            size_t ld, input_t *staging)
{
    if ((COLS * sizeof(input_t)) % 32 == 0) {
        wmma::load_matrix_sync(fragment, source, ld);
    } else {
        const int staged_ld = ALIGNED_LD(COLS, input_t);
        for (int e = threadIdx.x % 32; e < ROWS * COLS; e += 32)
            staging[(e / COLS) * staged_ld + e % COLS] = source[(size_t)(e / COLS) * ld + e % COLS];
        __syncwarp();
        wmma::load_matrix_sync(fragment, staging, staged_ld);
        __syncwarp();   /* every lane has its copy before the buffer is reused */
    }
}
#line 869 "gemm.md"
template <typename Fragment>
__device__ static inline void round_fragment(Fragment &fragment)
{
#if defined(TF32_IN_F32_OUT)
    for (int t = 0; t < fragment.num_elements; t++)
        fragment.x[t] = wmma::__float_to_tf32(fragment.x[t]);
#else
    (void)fragment;
#endif
}
#line 902 "gemm.md"
#define ACCUM_ZERO ACCUM_FROM_FLOAT(0.0f)

__device__ static inline float scale_accumulator(float alpha, float acc, float beta, float old)
{
    return alpha * acc + beta * old;
}

__device__ static inline double scale_accumulator(double alpha, double acc, double beta, double old)
{
    return alpha * acc + beta * old;
}

__device__ static inline half scale_accumulator(float alpha, half acc, float beta, half old)
{
    return __float2half_rn(alpha * __half2float(acc) + beta * __half2float(old));
}

__device__ static inline int scale_accumulator(int alpha, int acc, int beta, int old)
{
    return (int)((unsigned)alpha * (unsigned)acc + (unsigned)beta * (unsigned)old);   /* modulo 2^32 */
}
#line 934 "gemm.md"
#define NAIVE_WARPS 4
#define STAGED_A_ELEMS (FRAG_ROWS_A * ALIGNED_LD(FRAG_ROW_A, input_t))
#define STAGED_B_ELEMS (FRAG_ROWS_B * ALIGNED_LD(FRAG_ROW_B, input_t))
#define STAGED_C_LD ALIGNED_LD(FRAG_N, accum_t)

__global__ void __launch_bounds__(NAIVE_WARPS * 32)
d_gemm_naive(const input_t *a, const input_t *b, accum_t *c, Shape shape,
             scalar_t alpha, scalar_t beta)
{
    __shared__ __align__(32) input_t staging_a[NAIVE_WARPS][STAGED_A_ELEMS];
    __shared__ __align__(32) input_t staging_b[NAIVE_WARPS][STAGED_B_ELEMS];
    __shared__ __align__(32) accum_t staging_c[NAIVE_WARPS][FRAG_M * STAGED_C_LD];
    int warp = threadIdx.x / 32;
    long long tiles_n = shape.n_padded / FRAG_N;
    long long tile = (long long)blockIdx.x * NAIVE_WARPS + warp;
    if (tile >= (shape.m_padded / FRAG_M) * tiles_n)
        return;
    int row0 = (int)(tile / tiles_n) * FRAG_M;
    int col0 = (int)(tile % tiles_n) * FRAG_N;
    int lda = shape.cols_a_padded, ldb = shape.cols_b_padded;

    fragment_c acc;
    wmma::fill_fragment(acc, ACCUM_ZERO);
    for (int k0 = 0; k0 < shape.k_padded; k0 += FRAG_K) {
        fragment_a a_frag;
        fragment_b b_frag;
        load_fragment<fragment_a, FRAG_ROWS_A, FRAG_ROW_A>(a_frag, a + a_index(row0, k0, lda), lda, staging_a[warp]);
        load_fragment<fragment_b, FRAG_ROWS_B, FRAG_ROW_B>(b_frag, b + b_index(k0, col0, ldb), ldb, staging_b[warp]);
        round_fragment(a_frag);
        round_fragment(b_frag);
        wmma::mma_sync(acc, a_frag, b_frag, acc);
    }

    wmma::store_matrix_sync(staging_c[warp], acc, STAGED_C_LD, wmma::mem_row_major);
    __syncwarp();
    for (int e = threadIdx.x % 32; e < FRAG_M * FRAG_N; e += 32) {
        accum_t *dst = c + (size_t)(row0 + e / FRAG_N) * shape.n_padded + col0 + e % FRAG_N;
        accum_t old = beta != 0 ? *dst : ACCUM_ZERO;
        *dst = scale_accumulator(alpha, staging_c[warp][(e / FRAG_N) * STAGED_C_LD + e % FRAG_N], beta, old);
    }
}
/* ==== How fast can the tensor cores go? ==== */
#line 991 "gemm.md"
#define PEAK_CHAINS 8
#define PEAK_WARPS 8
#define PEAK_LD 64   /* elements per row of the peak operands: a multiple of 16 bytes for every type */

__global__ void __launch_bounds__(PEAK_WARPS * 32)
d_peak(const input_t *a, const input_t *b, accum_t *c, int iterations)
{
    fragment_a a_frag;
    fragment_b b_frag;
    fragment_c acc[PEAK_CHAINS];
    wmma::load_matrix_sync(a_frag, a, PEAK_LD);
    wmma::load_matrix_sync(b_frag, b, PEAK_LD);
    round_fragment(a_frag);
    round_fragment(b_frag);
#pragma unroll
    for (int chain = 0; chain < PEAK_CHAINS; chain++)
        wmma::fill_fragment(acc[chain], (accum_t)(chain + 1));
    for (int iteration = 0; iteration < iterations; iteration++)
#pragma unroll
        for (int chain = 0; chain < PEAK_CHAINS; chain++)
            wmma::mma_sync(acc[chain], a_frag, b_frag, acc[chain]);
#pragma unroll
    for (int chain = 1; chain < PEAK_CHAINS; chain++)
        for (int t = 0; t < acc[0].num_elements; t++)
            acc[0].x[t] += acc[chain].x[t];
    int warp = blockIdx.x * PEAK_WARPS + threadIdx.x / 32;
    wmma::store_matrix_sync(c + (size_t)warp * FRAG_M * FRAG_N, acc[0], FRAG_N, wmma::mem_row_major);
}
/* ==== d_gemm: the tiled kernel ==== */
#line 1060 "gemm.md"
/* The steps of d_gemm, in the order this chapter teaches them; each is the one before plus one mechanism. */
enum {
    STEP_SHARED_TILE = 1,   /* block tiles in shared memory, one fragment per warp */
    STEP_WARP_TILE,         /* warp tiles of several fragments */
    STEP_PIPELINE,          /* cp.async into several buffers, a full and an empty barrier per buffer */
    STEP_PADDING,           /* slab rows padded against bank conflicts */
    STEP_COPY_ENGINE,       /* sm_90: the TMA, A shared by a cluster */
    STEP_BLOCK_ORDER,       /* blocks in groups of GROUP_ROWS rows, for L2 */
    STEP_ROW_STORES,        /* the epilogue stores whole rows, 16 bytes per thread */
    LAST_STEP = STEP_ROW_STORES
};
#define GROUP_ROWS 8        /* step 6: rows of block tiles per group */
#line 1099 "gemm.md"
/* One tile configuration: a row of tile_table (Tile sizes per GPU, after the steps). */
typedef struct {
    int family;                     /* which type pairs it is for (tile_family) */
    int for_kib;                    /* the smallest shared memory per block it was chosen for, KiB (Tile sizes per GPU) */
    int block_m, block_n, block_k;  /* the block tile, and the slab depth along K */
    int warps_m, warps_n;           /* warps of the block, arranged warps_m x warps_n */
    int stages, in_flight;          /* step 3: slab buffers in shared memory; slabs requested ahead */
    int cluster;                    /* step 5: blocks of a cluster, sharing A's slabs through the TMA (sm_90) */
    int b_threads;                  /* step 5: 1 if B transposed is copied by the threads, beside the TMA */
    int engine_only;                /* step 5: 1 if only for builds with the TMA (sm_90) */
} Tile;

__host__ __device__ constexpr Tile tile_row(int index);   /* defined with the table */
__host__ __device__ constexpr int tile_count(void);       /* rows of this type pair */
#line 1140 "gemm.md"
#define TILE_TRANSPOSE_A (IS_INTEGER ? 0 : TRANSPOSE_A)   /* int8: A as M x K */
#define TILE_TRANSPOSE_B (IS_INTEGER ? 1 : TRANSPOSE_B)   /* int8: B as N x K */
#define PRETRANSPOSE_A (TILE_TRANSPOSE_A != TRANSPOSE_A)
#define PRETRANSPOSE_B (TILE_TRANSPOSE_B != TRANSPOSE_B)
#define PREROUND (TYPE_PAIR == PAIR_TF32_IN_F32_OUT)
#define PREPARE_A (PRETRANSPOSE_A || PREROUND)
#define PREPARE_B (PRETRANSPOSE_B || PREROUND)

typedef wmma::fragment<wmma::matrix_a, FRAG_M, FRAG_N, FRAG_K, frag_t, Layout<TILE_TRANSPOSE_A>::type> tile_fragment_a;
typedef wmma::fragment<wmma::matrix_b, FRAG_M, FRAG_N, FRAG_K, frag_t, Layout<TILE_TRANSPOSE_B>::type> tile_fragment_b;
#define TILE_FRAG_ROW_A (TILE_TRANSPOSE_A ? FRAG_M : FRAG_K)   /* a fragment's extent along a stored row */
#define TILE_FRAG_ROW_B (TILE_TRANSPOSE_B ? FRAG_K : FRAG_N)
#line 1181 "gemm.md"
/* Offset of element (row, col) of a slab `rows` high, cut into panels `panel` elements wide with rows
   `ld` apart. */
__host__ __device__ constexpr int tile_offset(int row, int col, int rows, int panel, int ld)
{
    return col / panel * rows * ld + row * ld + col % panel;
}

/* One operand's slab in shared memory. */
typedef struct {
    int rows, cols;             /* as stored: the operand's own orientation */
    int panel, ld;              /* panel width and row pitch, in elements */
    int panels, elems;          /* panels per slab; elements per slab, padding included */
    int box_rows, box_panels;   /* one block's share on the TMA path (see clusters, below) */
} Slab;

/* Wide fragments: panels of up to 128 elements, rows padded by 16 bytes (from step 4 on). Narrow: panels
   one fragment wide, 16-byte rows. `sharers` blocks copy a share each: whole panels when there are enough, else a
   band of rows. */
__host__ __device__ constexpr Slab make_slab(int rows, int cols, int frag_row, int sharers, bool padded)
{
    bool wide = frag_row * (int)sizeof(input_t) >= 32;
    int panel = wide ? (cols > 128 ? 128 : cols) : frag_row;
    int ld = wide ? panel + (padded ? 16 / (int)sizeof(input_t) : 0) : 16 / (int)sizeof(input_t);
    int panels = cols / panel;
    bool split_panels = panels > 1 && panels % sharers == 0;
    return Slab{rows, cols, panel, ld, panels, panels * rows * ld,
                split_panels ? rows : rows / sharers, split_panels ? panels / sharers : panels};
}

/* Where element (i, kk) of op(A)'s slab and element (kk, j) of op(B)'s lie. */
__host__ __device__ constexpr int a_offset(Slab a, int i, int kk)
{
    return TILE_TRANSPOSE_A ? tile_offset(kk, i, a.rows, a.panel, a.ld) : tile_offset(i, kk, a.rows, a.panel, a.ld);
}
__host__ __device__ constexpr int b_offset(Slab b, int kk, int j)
{
    return TILE_TRANSPOSE_B ? tile_offset(j, kk, b.rows, b.panel, b.ld) : tile_offset(kk, j, b.rows, b.panel, b.ld);
}
#line 1226 "gemm.md"
typedef struct {
    int block_m, block_n, block_k, warps_n, stages, in_flight, cluster;   /* from the table */
    int threads, warp_tile_m, warp_tile_n, frags_m, frags_n;
    Slab a, b;
    int staging_ld, staging_warp_elems;               /* the epilogue's staging area, per warp */
    int barrier_offset, shared_bytes;                 /* bytes: slabs or staging, then the barriers */
    bool b_by_threads;                                /* TMA path: B's slab by cp.async instead */
    bool pipelined, copy_engine, row_stores;          /* steps 3, 5 and 7 */
    int group_rows;                                   /* step 6: GROUP_ROWS; before it 1, row by row */
} TileGeometry;

/* Row `index` of the tile table as step `step` of the kernel uses it (d_gemm itself: LAST_STEP); defined
   with the kernel, assembled. */
__host__ __device__ constexpr TileGeometry tile_geometry(int index, int step = LAST_STEP);
#line 1251 "gemm.md"
#define CHUNK_ELEMS (16 / (int)sizeof(input_t))   /* elements per chunk */

/* One 16-byte chunk from global to shared memory; with ASYNC (step 3 on) the thread does not wait. */
template <bool ASYNC>
__device__ static inline void copy_chunk(void *shared_destination, const void *global_source);   /* step 3 */
#line 1269 "gemm.md"
/* One thread's share of copying one operand: where its first chunk of slab 0 comes from, where it goes. */
typedef struct {
    const input_t *source;   /* in global memory, slab 0 */
    int ld;                  /* row length of the operand in global memory */
    int offset;              /* in the shared-memory slab */
    int row;                 /* of the slab: past its last, a thread of a small slab copies nothing */
} CopyPlan;

/* Thread `thread`'s first chunk of a slab whose first element is `operand`: chunks are numbered down
   groups of 8 rows, then across. */
__device__ static inline CopyPlan copy_plan(const input_t *operand, int ld, Slab slab, int thread)
{
    int chunks_per_row = slab.cols / CHUNK_ELEMS;
    int row = thread / (8 * chunks_per_row) * 8 + thread % 8;
    int col = thread / 8 % chunks_per_row * CHUNK_ELEMS;
    CopyPlan plan = {operand + (size_t)row * ld + col, ld, tile_offset(row, col, slab.rows, slab.panel, slab.ld), row};
    return plan;
}
#line 1293 "gemm.md"
/* source and destination point at this thread's first chunk of the slab, which is in row `row`. */
template <int THREADS, int ROWS, int COLS, int PANEL, int LD, bool ASYNC>
__device__ static inline void copy_slab(input_t *destination, const input_t *source, int ld, int row)
{
    const int chunk = CHUNK_ELEMS, chunks_per_row = COLS / chunk;
    const int threads_per_8_rows = 8 * chunks_per_row;
    /* Few chunks per row: a pass covers several groups of 8 rows. Many: 8 rows take several passes. */
    const int rows_per_pass = threads_per_8_rows <= THREADS ? THREADS / chunks_per_row : 8;
    const int row_passes = ROWS >= rows_per_pass ? ROWS / rows_per_pass : 1;
    const int column_passes = threads_per_8_rows <= THREADS ? 1 : threads_per_8_rows / THREADS;
    const int column_step = THREADS / 8 * chunk;
    static_assert(PANEL % chunk == 0, "panels are whole chunks: no fragment row is narrower than 16 bytes");
    static_assert((THREADS % threads_per_8_rows == 0 || threads_per_8_rows % THREADS == 0) &&
                  (ROWS % rows_per_pass == 0 || rows_per_pass % ROWS == 0),
                  "the block's threads must tile each slab in whole passes");
    if (ROWS < rows_per_pass && row >= ROWS)   /* a slab smaller than one pass (step 1) */
        return;
#pragma unroll
    for (int row_pass = 0; row_pass < row_passes; row_pass++)
#pragma unroll
        for (int column_pass = 0; column_pass < column_passes; column_pass++)
            copy_chunk<ASYNC>(
                destination + row_pass * rows_per_pass * LD + tile_offset(0, column_pass * column_step, ROWS, PANEL, LD),
                source + (size_t)row_pass * rows_per_pass * ld + column_pass * column_step);
}

/* Every thread of the block copies its chunks of slab k_tile of B, and of A unless the TMA brings it;
   asynchronously from step 3 on. */
template <int TILE, int STEP>
__device__ static inline void load_stage(input_t *a_tile, input_t *b_tile, const CopyPlan *a_plan,
                                         const CopyPlan *b_plan, int k_tile, bool with_a)
{
    constexpr TileGeometry tile = tile_geometry(TILE, STEP);
    constexpr Slab a = tile.a, b = tile.b;
    int k0 = k_tile * tile.block_k;
    if (with_a)
        copy_slab<tile.threads, a.rows, a.cols, a.panel, a.ld, tile.pipelined>(
            a_tile + a_plan->offset, a_plan->source + element_index(TILE_TRANSPOSE_A, 0, k0, a_plan->ld), a_plan->ld,
            a_plan->row);
    copy_slab<tile.threads, b.rows, b.cols, b.panel, b.ld, tile.pipelined>(
        b_tile + b_plan->offset, b_plan->source + element_index(TILE_TRANSPOSE_B, k0, 0, b_plan->ld), b_plan->ld,
        b_plan->row);
}
#line 1352 "gemm.md"
__device__ static inline void load_shared_a(tile_fragment_a &fragment, const input_t *pointer, unsigned ldm);
__device__ static inline void load_shared_b(tile_fragment_b &fragment, const input_t *pointer, unsigned ldm);

template <int TILE, int STEP>
__device__ static inline void multiply_stage(fragment_c (&acc)[tile_geometry(TILE, STEP).frags_m][tile_geometry(TILE, STEP).frags_n],
                                             const input_t *a_tile, const input_t *b_tile, int warp_row, int warp_col)
{
    constexpr TileGeometry tile = tile_geometry(TILE, STEP);
#pragma unroll
    for (int kk = 0; kk < tile.block_k; kk += FRAG_K) {
        tile_fragment_a a_frag[tile.frags_m];
        tile_fragment_b b_frag[tile.frags_n];
#pragma unroll
        for (int i = 0; i < tile.frags_m; i++)
            load_shared_a(a_frag[i], a_tile + a_offset(tile.a, warp_row + i * FRAG_M, kk), tile.a.ld);
#pragma unroll
        for (int j = 0; j < tile.frags_n; j++)
            load_shared_b(b_frag[j], b_tile + b_offset(tile.b, kk, warp_col + j * FRAG_N), tile.b.ld);
#pragma unroll
        for (int i = 0; i < tile.frags_m; i++)
#pragma unroll
            for (int j = 0; j < tile.frags_n; j++)
                wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
    }
}
#line 1420 "gemm.md"
/* The 32-bit shared-memory address that PTX instructions naming .shared take. */
__device__ static inline unsigned shared_address(const void *pointer)
{
    return (unsigned)__cvta_generic_to_shared(pointer);
}

/* Declared in step 1: with cp.async where ASYNC and the GPU has it, else through a register. */
template <bool ASYNC>
__device__ static inline void copy_chunk(void *shared_destination, const void *global_source)
{
#if __CUDA_ARCH__ >= 800
    if (ASYNC) {
        asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n"
                     ::"r"(shared_address(shared_destination)), "l"(global_source));
        return;
    }
#endif
    *(uint4 *)shared_destination = *(const uint4 *)global_source;
}
#line 1463 "gemm.md"
__device__ static inline void barrier_init(unsigned long long *barrier, unsigned count)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(count) : "memory");
#endif
}

/* sm_80: one arrival on the barrier, made when all the copies this thread has issued so far have landed. */
__device__ static inline void barrier_arrive_on_copies(unsigned long long *barrier)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(shared_address(barrier)) : "memory");
#endif
}
#line 1484 "gemm.md"
/* One arrival on the barrier at this offset in every block of the cluster (before sm_90: in this block). */
__device__ static inline void barrier_arrive(unsigned long long *barrier, int cluster);   /* defined in step 5 */
#line 1492 "gemm.md"
/* Waits until phase number `use` of the barrier has completed. */
#if __CUDA_ARCH__ >= 900
#define BARRIER_TEST "mbarrier.try_wait.parity.shared::cta.b64"
#else
#define BARRIER_TEST "mbarrier.test_wait.parity.shared::cta.b64"
#endif
__device__ static inline void barrier_wait(unsigned long long *barrier, int use)
{
#if __CUDA_ARCH__ >= 800
    unsigned done;
    do {
        asm volatile("{\n .reg .pred p;\n " BARRIER_TEST " p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(shared_address(barrier)), "r"(use & 1) : "memory");
    } while (!done);
#else
    __syncthreads();
#endif
}
#line 1607 "gemm.md"
#if __CUDA_ARCH__ >= 900
#define USE_TMA 1   /* slabs by the TMA, A shared by the cluster */
#else
#define USE_TMA 0   /* slabs by cp.async (plain loads before sm_80), each block on its own */
#endif

/* sm_90: one arrival that also tells the barrier to wait for `bytes` more bytes from the TMA. */
__device__ static inline void barrier_arrive_expect(unsigned long long *barrier, unsigned bytes)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(shared_address(barrier)), "r"(bytes) : "memory");
#endif
}

/* One arrival on the barrier at this offset in every block of the cluster (before sm_90: in this block). */
__device__ static inline void barrier_arrive(unsigned long long *barrier, int cluster)
{
#if __CUDA_ARCH__ >= 900
    for (int rank = 0; rank < cluster; rank++)
        asm volatile("{\n .reg .b32 remote;\n mapa.shared::cluster.u32 remote, %0, %1;\n"
                     " mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n"
                     ::"r"(shared_address(barrier)), "r"(rank) : "memory");
#elif __CUDA_ARCH__ >= 800
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(barrier)) : "memory");
#endif
}

/* sm_90: makes the barriers this thread initialised visible to the other blocks of the cluster. */
__device__ static inline void fence_barrier_init(void)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

/* Every thread of every block in the cluster arrives, then waits for all the others. The arrival is a release and
   the wait an acquire, in the memory model's sense (not a slab's release): whatever a thread wrote before arriving,
   its block's shared memory included, is visible to every thread of the cluster once it is past the wait. */
__device__ static inline void cluster_sync(void)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#else
    __syncthreads();
#endif
}

/* This block's number within its cluster. */
__device__ static inline unsigned cluster_rank(void)
{
    unsigned rank = 0;
#if __CUDA_ARCH__ >= 900
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
#endif
    return rank;
}
#line 1682 "gemm.md"
#define OVER_READ 16   /* bytes a box's rows read past their panel, into the padding: allocated past each operand */

/* Copies a box of the tensor to shared memory, to the same offset in every block of mask (0: this block
   only); each destination's barrier at the barrier's offset counts the bytes. */
__device__ static inline void copy_tensor(void *shared_destination, const CUtensorMap *map, int row, int panel,
                                          unsigned long long *barrier, unsigned short mask)
{
#if __CUDA_ARCH__ >= 900
    if (mask)
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%2, %3, %4}], [%5], %6;\n"
                     ::"r"(shared_address(shared_destination)), "l"(map), "r"(0), "r"(row), "r"(panel),
                       "r"(shared_address(barrier)), "h"(mask) : "memory");
    else
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5];\n"
                     ::"r"(shared_address(shared_destination)), "l"(map), "r"(0), "r"(row), "r"(panel),
                       "r"(shared_address(barrier)) : "memory");
#endif
}

/* One thread copies slab k_tile: this block's share of A to every block of the cluster, B to itself. */
template <int TILE, int STEP>
__device__ static inline void load_stage_tensor(input_t *a_tile, input_t *b_tile, const CUtensorMap *a_map,
                                                const CUtensorMap *b_map, int block_row, int block_col, int k_tile,
                                                unsigned long long *full, unsigned rank, bool with_b)
{
    constexpr TileGeometry tile = tile_geometry(TILE, STEP);
    constexpr Slab a = tile.a, b = tile.b;
    constexpr bool split_panels = a.box_panels < a.panels;
    static_assert(a.ld <= 256 && b.ld <= 256 && a.box_rows <= 256 && b.rows <= 256 && a.box_panels <= 256 &&
                  b.panels <= 256, "a box is at most 256 elements along each dimension");
    static_assert((a.ld - a.panel) * sizeof(input_t) <= OVER_READ && (b.ld - b.panel) * sizeof(input_t) <= OVER_READ,
                  "a box reads at most OVER_READ bytes past a row's panel");
    static_assert(a.box_rows * a.box_panels * tile.cluster == a.rows * a.panels,
                  "the blocks of a cluster share A's slab evenly");
    static_assert((a.elems + b.elems) * sizeof(input_t) < (1 << 20), "an mbarrier counts fewer than 2^20 bytes per phase");
    int k0 = k_tile * tile.block_k, m0 = block_row * tile.block_m, n0 = block_col * tile.block_n;
    int a_row = TILE_TRANSPOSE_A ? k0 : m0, a_panel = (TILE_TRANSPOSE_A ? m0 : k0) / a.panel;
    int b_row = TILE_TRANSPOSE_B ? n0 : k0, b_panel = (TILE_TRANSPOSE_B ? k0 : n0) / b.panel;
    if (split_panels) {
        a_tile += rank * a.box_panels * a.rows * a.ld;
        a_panel += rank * a.box_panels;
    } else {
        a_tile += rank * a.box_rows * a.ld;
        a_row += rank * a.box_rows;
    }
    copy_tensor(a_tile, a_map, a_row, a_panel, full, tile.cluster > 1 ? (1 << tile.cluster) - 1 : 0);
    if (with_b)
        copy_tensor(b_tile, b_map, b_row, b_panel, full, 0);
}
#line 1756 "gemm.md"
/* Block `block` of the grid takes block tile (block_row, block_col) of a blocks_m x blocks_n grid of them,
   in groups of `group_rows` rows; clusters of `cluster` blocks take neighbours along N. */
__device__ static inline void block_position(int block, int cluster, int group_rows, int blocks_m, int blocks_n,
                                             int *block_row, int *block_col)
{
    int id = block / cluster, clusters_n = blocks_n / cluster;
    int first_row = id / (group_rows * clusters_n) * group_rows;
    int rows_in_group = min(blocks_m - first_row, group_rows);
    int in_group = id % (group_rows * clusters_n);
    *block_row = first_row + in_group % rows_in_group;
    *block_col = in_group / rows_in_group * cluster + block % cluster;
}
#line 1790 "gemm.md"
#define C_VECTOR (16 / sizeof(accum_t))   /* accumulator elements per 16 bytes */

typedef union {
    uint4 bits;
    accum_t value[C_VECTOR];
} AccumVector;

template <int TILE, int STEP>
__device__ static inline void store_tile(fragment_c (&acc)[tile_geometry(TILE, STEP).frags_m][tile_geometry(TILE, STEP).frags_n],
                                         accum_t *staging, accum_t *c, int ldc, int row0, int col0,
                                         scalar_t alpha, scalar_t beta)
{
    constexpr TileGeometry tile = tile_geometry(TILE, STEP);
    if (!tile.row_stores) {   /* before step 7: fragment by fragment, one element per thread, as the naive kernel */
#pragma unroll
        for (int f = 0; f < tile.frags_m * tile.frags_n; f++) {
            wmma::store_matrix_sync(staging, acc[f / tile.frags_n][f % tile.frags_n], tile.staging_ld,
                                    wmma::mem_row_major);
            __syncwarp();
            for (int e = threadIdx.x % 32; e < FRAG_M * FRAG_N; e += 32) {
                int row = row0 + f / tile.frags_n * FRAG_M + e / FRAG_N, col = col0 + f % tile.frags_n * FRAG_N + e % FRAG_N;
                accum_t *destination = c + (size_t)row * ldc + col;
                accum_t old = beta != 0 ? *destination : ACCUM_ZERO;
                *destination = scale_accumulator(alpha, staging[e / FRAG_N * tile.staging_ld + e % FRAG_N], beta, old);
            }
            __syncwarp();
        }
        return;
    }
    const int vectors_per_row = tile.warp_tile_n / C_VECTOR;
#pragma unroll
    for (int i = 0; i < tile.frags_m; i++) {
#pragma unroll
        for (int j = 0; j < tile.frags_n; j++)
            wmma::store_matrix_sync(staging + j * FRAG_M * tile.staging_ld, acc[i][j], tile.staging_ld,
                                    wmma::mem_row_major);
        __syncwarp();
        for (int v = threadIdx.x % 32; v < FRAG_M * vectors_per_row; v += 32) {
            int row = v / vectors_per_row, col = v % vectors_per_row * C_VECTOR;
            AccumVector result, old;
            result.bits = *(const uint4 *)(staging + tile_offset(row, col, FRAG_M, FRAG_N, tile.staging_ld));
            uint4 *destination = (uint4 *)(c + (size_t)(row0 + i * FRAG_M + row) * ldc + col0 + col);
            old.bits = beta != 0 ? *destination : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (int e = 0; e < C_VECTOR; e++)
                result.value[e] = scale_accumulator(alpha, result.value[e], beta, old.value[e]);
            *destination = result.bits;
        }
        __syncwarp();   /* the staging area is rewritten for the next row of fragments */
    }
}
#line 1856 "gemm.md"
/* What the loop's producer side needs: where the slabs go, how their arrival is counted, where they come from. */
typedef struct {
    input_t *a_tiles, *b_tiles;         /* `stages` slabs of each */
    unsigned long long *full, *empty;   /* one barrier of each per stage */
    unsigned long long *b_copied;       /* TMA with B by the threads: B's slab has landed */
    CopyPlan a_plan, b_plan;            /* cp.async: this thread's chunks */
    const CUtensorMap *a_map, *b_map;   /* TMA: the operands */
    int block_row, block_col;           /* this block's tile of C */
    unsigned rank;                      /* this block's number in its cluster */
} Pipeline;

/* Request: once every warp (of the cluster) has released the buffer's previous slab, copy slab `next`. */
template <int TILE, int STEP>
__device__ static inline void request_slab(const Pipeline *pipe, int next)
{
    constexpr TileGeometry tile = tile_geometry(TILE, STEP);
    constexpr bool tma = USE_TMA && tile.copy_engine;
    int s = next % tile.stages;
    input_t *a_tile = pipe->a_tiles + s * tile.a.elems, *b_tile = pipe->b_tiles + s * tile.b.elems;
    bool b_by_threads = !tma || tile.b_by_threads;
    if (b_by_threads) {   /* every thread copies its chunks (of both slabs, without the TMA) */
        if (next >= tile.stages)   /* slab next - stages released: that is use next / stages - 1 of buffer s */
            barrier_wait(&pipe->empty[s], next / tile.stages - 1);
        load_stage<TILE, STEP>(a_tile, b_tile, &pipe->a_plan, &pipe->b_plan, next, !tma);
        barrier_arrive_on_copies(tma ? &pipe->b_copied[s] : &pipe->full[s]);
    }
    if (tma && threadIdx.x == next % (tile.threads / 32) * 32) {   /* one thread, a different warp each slab */
        if (next >= tile.stages && !b_by_threads)
            barrier_wait(&pipe->empty[s], next / tile.stages - 1);
        barrier_arrive_expect(&pipe->full[s], (tile.a.elems + (b_by_threads ? 0 : tile.b.elems)) * sizeof(input_t));
        load_stage_tensor<TILE, STEP>(a_tile, b_tile, pipe->a_map, pipe->b_map, pipe->block_row, pipe->block_col,
                                      next, &pipe->full[s], pipe->rank, !b_by_threads);
    }
}

/* Release: after the warp's last mma_sync on a slab, lane 0 frees its buffer in every block of the cluster. */
__device__ static inline void release_slab(unsigned long long *empty, int cluster)
{
    __syncwarp();   /* the other lanes' fragment loads are done too */
    if (threadIdx.x % 32 == 0)
        barrier_arrive(empty, cluster);
}
#line 1906 "gemm.md"
/* Row `index` of the tile table as step `step` of the kernel uses it: each mechanism on from its step. */
__host__ __device__ constexpr TileGeometry tile_geometry(int index, int step)
{
    Tile row = tile_row(index);
    if (step < STEP_WARP_TILE) {   /* one fragment per warp */
        row.block_m = row.warps_m * FRAG_M;
        row.block_n = row.warps_n * FRAG_N;
    }
    if (step < STEP_PIPELINE) {    /* one buffer, filled while every warp waits */
        row.stages = 1;
        row.in_flight = 0;
    }
    if (step < STEP_COPY_ENGINE) { /* every block on its own, copied by its threads */
        row.cluster = 1;
        row.b_threads = 0;
    }
    TileGeometry tile = {};
    tile.pipelined = step >= STEP_PIPELINE;
    tile.copy_engine = step >= STEP_COPY_ENGINE;
    tile.group_rows = step >= STEP_BLOCK_ORDER ? GROUP_ROWS : 1;
    tile.row_stores = step >= STEP_ROW_STORES;
    tile.block_m = row.block_m;
    tile.block_n = row.block_n;
    tile.block_k = row.block_k;
    tile.warps_n = row.warps_n;
    tile.stages = row.stages;
    tile.in_flight = row.in_flight;
    tile.cluster = row.cluster;
    tile.threads = row.warps_m * row.warps_n * 32;
    tile.warp_tile_m = row.block_m / row.warps_m;
    tile.warp_tile_n = row.block_n / row.warps_n;
    tile.frags_m = tile.warp_tile_m / FRAG_M;
    tile.frags_n = tile.warp_tile_n / FRAG_N;
    bool padded = step >= STEP_PADDING;
    tile.a = TILE_TRANSPOSE_A ? make_slab(row.block_k, row.block_m, TILE_FRAG_ROW_A, row.cluster, padded)
                              : make_slab(row.block_m, row.block_k, TILE_FRAG_ROW_A, row.cluster, padded);
    tile.b = TILE_TRANSPOSE_B ? make_slab(row.block_n, row.block_k, TILE_FRAG_ROW_B, 1, padded)
                              : make_slab(row.block_k, row.block_n, TILE_FRAG_ROW_B, 1, padded);
    tile.staging_ld = FRAG_N + 16 / (int)sizeof(accum_t);
    tile.staging_warp_elems = tile.frags_n * FRAG_M * tile.staging_ld;
    int pipeline = row.stages * (tile.a.elems + tile.b.elems) * (int)sizeof(input_t);
    int staging = row.warps_m * row.warps_n * tile.staging_warp_elems * (int)sizeof(accum_t);
    tile.barrier_offset = pipeline > staging ? pipeline : staging;
    tile.b_by_threads = row.b_threads && TILE_TRANSPOSE_B;
    tile.shared_bytes = tile.barrier_offset + (tile.b_by_threads ? 3 : 2) * row.stages * (int)sizeof(unsigned long long);
    return tile;
}
#line 1958 "gemm.md"
/* a_map and b_map are const __grid_constant__ parameters: read-only and left in the kernel's parameter memory, so
   the TMA may be given their address (CUDA C++ Programming Guide, "__grid_constant__"). */
template <int TILE, int STEP>
__global__ void __launch_bounds__(tile_geometry(TILE, STEP).threads, 1)
d_gemm(const input_t *__restrict__ a, const input_t *__restrict__ b, accum_t *__restrict__ c,
       Shape shape, scalar_t alpha, scalar_t beta, const __grid_constant__ CUtensorMap a_map,
       const __grid_constant__ CUtensorMap b_map)
{
    constexpr TileGeometry tile = tile_geometry(TILE, STEP);
    constexpr bool tma = USE_TMA && tile.copy_engine;
    constexpr int cluster = tma ? tile.cluster : 1, prefetch = tile.in_flight;
    static_assert(tile.pipelined ? prefetch >= 1 && prefetch < tile.stages : tile.stages == 1,
                  "one stage without a pipeline; with one, more stages than slabs in flight");
    extern __shared__ __align__(128) unsigned char shared_bytes[];
    Pipeline pipe;
    pipe.a_tiles = (input_t *)shared_bytes;
    pipe.b_tiles = pipe.a_tiles + tile.stages * tile.a.elems;
    block_position(blockIdx.x, tile.cluster, tile.group_rows, shape.m_padded / tile.block_m,
                   shape.n_padded / tile.block_n, &pipe.block_row, &pipe.block_col);
    int lda = TILE_TRANSPOSE_A ? shape.m_padded : shape.k_padded;
    int ldb = TILE_TRANSPOSE_B ? shape.k_padded : shape.n_padded;
    pipe.a_plan = copy_plan(a + element_index(TILE_TRANSPOSE_A, pipe.block_row * tile.block_m, 0, lda), lda, tile.a, threadIdx.x);
    pipe.b_plan = copy_plan(b + element_index(TILE_TRANSPOSE_B, 0, pipe.block_col * tile.block_n, ldb), ldb, tile.b, threadIdx.x);
    int warp = threadIdx.x / 32;
    int warp_row = warp / tile.warps_n * tile.warp_tile_m, warp_col = warp % tile.warps_n * tile.warp_tile_n;

    fragment_c acc[tile.frags_m][tile.frags_n];
#pragma unroll
    for (int i = 0; i < tile.frags_m; i++)
#pragma unroll
        for (int j = 0; j < tile.frags_n; j++)
            wmma::fill_fragment(acc[i][j], ACCUM_ZERO);

    if (tile.pipelined) {   /* from step 3: a pair of barriers per buffer, after the slabs */
        pipe.full = (unsigned long long *)(shared_bytes + tile.barrier_offset);
        pipe.empty = pipe.full + tile.stages;
        if (tma) {   /* from step 5: the TMA's operands */
            pipe.b_copied = pipe.empty + tile.stages;
            pipe.a_map = &a_map;
            pipe.b_map = &b_map;
        }
        if (threadIdx.x == 0)
            for (int s = 0; s < tile.stages; s++) {
                barrier_init(&pipe.full[s], tma ? 1 : tile.threads);
                barrier_init(&pipe.empty[s], tile.threads / 32 * cluster);
                if (tma && tile.b_by_threads)
                    barrier_init(&pipe.b_copied[s], tile.threads);
            }
        if (tma) {
            fence_barrier_init();
            cluster_sync();   /* every block's barriers are ready before anyone copies or arrives */
            pipe.rank = cluster_rank();
        } else {
            __syncthreads();   /* the barriers are ready before anyone copies or arrives */
        }
    }
#line 2021 "gemm.md"
    int k_tiles = shape.k_padded / tile.block_k;
    if (tile.pipelined) {
        for (int k_tile = -prefetch; k_tile < k_tiles; k_tile++) {
            if (k_tile + prefetch < k_tiles)
                request_slab<TILE, STEP>(&pipe, k_tile + prefetch);
            if (k_tile < 0)
                continue;
            int s = k_tile % tile.stages;
            barrier_wait(&pipe.full[s], k_tile / tile.stages);
            if (tma && tile.b_by_threads)
                barrier_wait(&pipe.b_copied[s], k_tile / tile.stages);
            multiply_stage<TILE, STEP>(acc, pipe.a_tiles + s * tile.a.elems, pipe.b_tiles + s * tile.b.elems,
                                       warp_row, warp_col);
            release_slab(&pipe.empty[s], cluster);
        }
    } else {   /* steps 1 and 2: one buffer, and every warp waits for every copy */
        for (int k_tile = 0; k_tile < k_tiles; k_tile++) {
            load_stage<TILE, STEP>(pipe.a_tiles, pipe.b_tiles, &pipe.a_plan, &pipe.b_plan, k_tile, true);
            __syncthreads();   /* the slab has landed */
            multiply_stage<TILE, STEP>(acc, pipe.a_tiles, pipe.b_tiles, warp_row, warp_col);
            __syncthreads();   /* every warp is done with it before the next slab overwrites it */
        }
    }
    __syncthreads();   /* all warps are done with the slabs: reuse them as staging */

    store_tile<TILE, STEP>(acc, (accum_t *)shared_bytes + warp * tile.staging_warp_elems, c, shape.n_padded,
                     pipe.block_row * tile.block_m + warp_row, pipe.block_col * tile.block_n + warp_col, alpha, beta);
    if (tma)
        cluster_sync();   /* the other blocks may still arrive on our barriers: stay until they are done */
}
#line 2073 "gemm.md"
/* The wmma.load instruction for a matrix ("a" or "b") in a layout ("row" or "col"), from shared memory. */
#define PTX_LOAD(matrix, layout) "wmma.load." matrix ".sync.aligned." layout "." PTX_SHAPE ".shared." PTX_TYPE

/* One wmma.load from shared memory into a fragment's registers: one double, or 2, 4 or 8 words. */
#define LOAD_SHARED(fragment, instruction, address, ldm)                                        \
    do {                                                                                        \
        unsigned *r = (unsigned *)(fragment).x;                                                 \
        if (sizeof((fragment).x[0]) == 8)                                                       \
            asm volatile(instruction " {%0}, [%1], %2;\n"                                       \
                         : "=d"(*(double *)(fragment).x) : "r"(address), "r"(ldm) : "memory");  \
        else if (sizeof((fragment).x) == 8)                                                     \
            asm volatile(instruction " {%0, %1}, [%2], %3;\n"                                   \
                         : "=r"(r[0]), "=r"(r[1]) : "r"(address), "r"(ldm) : "memory");        \
        else if (sizeof((fragment).x) == 16)                                                    \
            asm volatile(instruction " {%0, %1, %2, %3}, [%4], %5;\n"                           \
                         : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                       \
                         : "r"(address), "r"(ldm) : "memory");                                  \
        else                                                                                    \
            asm volatile(instruction " {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;\n"           \
                         : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]),                      \
                           "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])                       \
                         : "r"(address), "r"(ldm) : "memory");                                  \
    } while (0)

/* load_matrix_sync from shared memory, as a shared-memory load for every type pair. */
__device__ static inline void load_shared_a(tile_fragment_a &fragment, const input_t *pointer, unsigned ldm)
{
#ifdef PTX_TYPE
    if (TILE_TRANSPOSE_A)
        LOAD_SHARED(fragment, PTX_LOAD("a", "col"), shared_address(pointer), ldm);
    else
        LOAD_SHARED(fragment, PTX_LOAD("a", "row"), shared_address(pointer), ldm);
#else
    wmma::load_matrix_sync(fragment, pointer, ldm);
#endif
}

__device__ static inline void load_shared_b(tile_fragment_b &fragment, const input_t *pointer, unsigned ldm)
{
#ifdef PTX_TYPE
    if (TILE_TRANSPOSE_B)
        LOAD_SHARED(fragment, PTX_LOAD("b", "col"), shared_address(pointer), ldm);
    else
        LOAD_SHARED(fragment, PTX_LOAD("b", "row"), shared_address(pointer), ldm);
#else
    wmma::load_matrix_sync(fragment, pointer, ldm);
#endif
}
#line 2135 "gemm.md"
#if IS_INTEGER
#define TRANSPOSE_ROWS 64    /* K per tile */
#define TRANSPOSE_COLS 128   /* M or N per tile */

/* Padded int8 operands must be whole transposition tiles, for every tile configuration. */
__host__ __device__ constexpr bool tiles_suit_transposition(void)
{
    for (int index = 0; index < tile_count(); index++)
        if (tile_row(index).block_k % TRANSPOSE_ROWS || tile_row(index).block_m % TRANSPOSE_COLS ||
            tile_row(index).block_n % TRANSPOSE_COLS)
            return false;
    return true;
}

/* out (cols x rows) = in (rows x cols) transposed; rows are K, a multiple of TRANSPOSE_ROWS, and cols
   M or N, a multiple of TRANSPOSE_COLS. 256 threads per block. */
__global__ void __launch_bounds__(256) d_transpose(const input_t *__restrict__ in, input_t *__restrict__ out,
                                                   int rows, int cols)
{
    const int words = TRANSPOSE_ROWS / 4;   /* 4-byte words per output row */
    __shared__ unsigned tile[TRANSPOSE_COLS][words + 1];
    int tiles_across = cols / TRANSPOSE_COLS;
    size_t row0 = (size_t)(blockIdx.x / tiles_across) * TRANSPOSE_ROWS;
    size_t col0 = (size_t)(blockIdx.x % tiles_across) * TRANSPOSE_COLS;
    int lane = threadIdx.x % 32;

    /* A warp's group: words w of input rows 4q .. 4q + 3, 8 values of w by 4 of q. */
    const int groups_across = TRANSPOSE_COLS / 4 / 8;                  /* 8 words of a row each */
    const int groups = TRANSPOSE_ROWS / 4 / 4 * groups_across;          /* 4 row quads each */
    for (int group = threadIdx.x / 32; group < groups; group += blockDim.x / 32) {
        int w = group % groups_across * 8 + lane % 8;
        int q = group / groups_across * 4 + lane / 8;
        const input_t *from = in + (row0 + 4 * q) * cols + col0 + 4 * w;
        unsigned r0 = *(const unsigned *)from, r1 = *(const unsigned *)(from + cols);
        unsigned r2 = *(const unsigned *)(from + 2 * cols), r3 = *(const unsigned *)(from + 3 * cols);
        /* byte e of r_i is input (4q + i, 4w + e); output row 4w + e is byte e of r0, r1, r2, r3 */
        unsigned low01 = __byte_perm(r0, r1, 0x5140), low23 = __byte_perm(r2, r3, 0x5140);    /* bytes 0, 1 */
        unsigned high01 = __byte_perm(r0, r1, 0x7362), high23 = __byte_perm(r2, r3, 0x7362);  /* bytes 2, 3 */
        tile[4 * w + 0][q] = __byte_perm(low01, low23, 0x5410);
        tile[4 * w + 1][q] = __byte_perm(low01, low23, 0x7632);
        tile[4 * w + 2][q] = __byte_perm(high01, high23, 0x5410);
        tile[4 * w + 3][q] = __byte_perm(high01, high23, 0x7632);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < TRANSPOSE_COLS * (words / 4); i += blockDim.x) {
        int r = i / (words / 4), v = i % (words / 4) * 4;   /* words v .. v + 3 of output row r */
        *(uint4 *)&out[(col0 + r) * rows + row0 + 4 * v] =
            make_uint4(tile[r][v], tile[r][v + 1], tile[r][v + 2], tile[r][v + 3]);
    }
}

static void transpose_on_gpu(const input_t *in, input_t *out, int rows, int cols)
{
    /* One dimension: a grid's second stops at 65,535 blocks. */
    unsigned tiles = (unsigned)((rows / TRANSPOSE_ROWS) * (long long)(cols / TRANSPOSE_COLS));
    d_transpose<<<tiles, 256>>>(in, out, rows, cols);
    CHECK_LAUNCH();
}
#endif
#line 2199 "gemm.md"
#if PREROUND
__global__ void d_round_tf32(const float *__restrict__ in, float *__restrict__ out, size_t count)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        out[i] = wmma::__float_to_tf32(in[i]);
}

static void round_on_gpu(const input_t *in, input_t *out, int rows, int cols)
{
    d_round_tf32<<<1024, 256>>>(in, out, (size_t)rows * cols);
    CHECK_LAUNCH();
}
#endif
#line 2246 "gemm.md"
enum { TILES_16BIT, TILES_HALF_ACC, TILES_INT8, TILES_TF32, TILES_F64 };

/* Row `row` of the table; family -1 past the end. Largest first: the host takes the first
   row of its type pair that fits the GPU. The budgets, in KiB per block: 227 H100, H200,
   B200; 163 A100, A30, Orin; 99 RTX 30xx-50xx, L4; 64 T4, RTX 20xx. The 64 KiB rows' cluster and B^T by
   threads serve only a budget forced on sm_90 (T4 and RTX 20xx have no TMA). */
__host__ __device__ constexpr Tile tile_table(int row)
{
    constexpr Tile table[] = {
        /* family        KiB     block      warps  stages  ahead  cluster   B^T by  engine
                                m    n   k   m  n                          threads    only */
        {TILES_16BIT,    227, 256, 128, 64,  4, 2,      4,     2,       2,       0,      0},
        {TILES_16BIT,    163, 256, 128, 64,  4, 2,      3,     1,       2,       0,      0},
        {TILES_16BIT,     99, 256, 128, 32,  4, 2,      3,     2,       2,       0,      0},
        {TILES_16BIT,     64, 128, 128, 32,  2, 2,      3,     2,       2,       1,      0},
        {TILES_HALF_ACC, 163, 256, 256, 32,  2, 4,      4,     2,       2,       0,      0},
        {TILES_HALF_ACC,  99, 256, 128, 32,  4, 2,      3,     2,       2,       0,      0},
        {TILES_HALF_ACC,  64, 128, 128, 32,  2, 2,      3,     2,       4,       1,      0},
        {TILES_INT8,      99, 256, 128, 64,  4, 2,      4,     2,       2,       0,      0},
        {TILES_INT8,      64, 128, 256, 64,  2, 4,      2,     1,       2,       0,      0},
        {TILES_TF32,     163, 128, 256, 32,  2, 4,      3,     1,       2,       0,      1},
        {TILES_TF32,      99, 128, 256, 16,  2, 4,      3,     1,       2,       0,      0},
        {TILES_F64,      227, 128,  64, 16,  4, 2,      4,     2,       1,       0,      0},
        {TILES_F64,       99, 128,  64, 16,  4, 2,      3,     1,       1,       0,      0},
    };
    const int rows = (int)(sizeof table / sizeof table[0]);
    return row < rows ? table[row] : Tile{-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
}

/* Which rows each type pair takes, in TYPE_PAIR's order: fp16 and bf16 with float
   accumulators share theirs. */
__host__ __device__ constexpr int tile_family(int type_pair)
{
    constexpr int families[] = {TILES_16BIT, TILES_HALF_ACC, TILES_INT8, TILES_INT8,
                                TILES_16BIT, TILES_TF32,     TILES_F64};
    return families[type_pair];
}
#define TILE_FAMILY tile_family(TYPE_PAIR)
#line 2290 "gemm.md"
__host__ __device__ constexpr int tile_count(void)
{
    int count = 0;
    for (int row = 0; tile_table(row).family >= 0; row++)
        count += tile_table(row).family == TILE_FAMILY;
    return count;
}

__host__ __device__ constexpr Tile tile_row(int index)
{
    int row = 0;
    for (; tile_table(row).family >= 0; row++)
        if (tile_table(row).family == TILE_FAMILY && index-- == 0)
            break;
    return tile_table(row);   /* family -1 if there is no such row */
}

#define TILES tile_count()
static_assert(TILES >= 1 && TILES <= 4, "every type pair has one to four tile configurations");
#if IS_INTEGER
static_assert(tiles_suit_transposition(), "block tiles must be whole transposition tiles");
#endif
/* ==== Verification ==== */
#line 2361 "gemm.md"
#define INPUT_TO_EXACT(x) (IS_INTEGER ? (exact_t)(x) : (exact_t)INPUT_TO_DOUBLE(x))
#define ACCUM_TO_EXACT(x) (IS_INTEGER ? (exact_t)(x) : (exact_t)ACCUM_TO_DOUBLE(x))

/* An input as the tensor cores see it; `unrounded`: tf32 reached them as plain floats, which they truncate. */
__host__ __device__ static inline exact_t input_exact(input_t x, bool unrounded)
{
#if PREROUND
    if (unrounded)
        return (exact_t)tf32_truncate(x);
#endif
    (void)unrounded;
    return INPUT_TO_EXACT(x);
}
#line 2408 "gemm.md"
__host__ __device__ constexpr double unit_roundoff(void)
{
    /* in TYPE_PAIR's order:  F16_IN_F32_OUT F16_IN_OUT U8   I8   BF16_IN_F32  TF32_IN_F32  F64 */
    constexpr double table[] = {0x1p-24,       0x1p-11,   0.0, 0.0, 0x1p-24,     0x1p-24,     0x1p-53};
    return table[TYPE_PAIR];
}

__host__ __device__ constexpr double rounding_steps(int k)
{
    return TYPE_PAIR == PAIR_F64_IN_OUT ? (double)k + 2.0 : (double)((k + FRAG_K - 1) / FRAG_K) + 2.0;
}

__host__ __device__ static inline double error_bound(double abs_products, double abs_beta_c,
                                                     double abs_result, int k)
{
    return 2.0 * unit_roundoff() * (rounding_steps(k) * abs_products + abs_beta_c) + unit_roundoff() * abs_result;
}
#line 2440 "gemm.md"
__host__ __device__ static inline long long scale_exact(long long alpha, long long sum, long long beta,
                                                        long long old)
{
    unsigned long long wrapped = (unsigned long long)alpha * (unsigned long long)sum +
                                 (unsigned long long)beta * (unsigned long long)old;
    return (int)(unsigned)wrapped;   /* int32 arithmetic: modulo 2^32 */
}

__host__ __device__ static inline double scale_exact(double alpha, double sum, double beta, double old)
{
    return alpha * sum + beta * old;
}

/* Adds `count` products to sum and abs_sum, in order: the e-th of A's row is a[e * a_step], of B's column b[e *
   b_step]. Both references add every element's products through it, so they round alike. */
__host__ __device__ static inline void add_products(const input_t *a, size_t a_step, const input_t *b, size_t b_step,
                                                    int count, bool unrounded, exact_t *sum, double *abs_sum)
{
    for (int e = 0; e < count; e++) {
        exact_t product = input_exact(a[e * a_step], unrounded) * input_exact(b[e * b_step], unrounded);
        *sum += product;
        *abs_sum += fabs((double)product);
    }
}

/* Element (i, j) from its sums: alpha and beta applied, and its bound. */
__host__ __device__ static inline void finish_element(const accum_t *c_in, Shape shape, exact_t alpha, exact_t beta,
                                                      int i, int j, exact_t sum, double abs_sum, exact_t *result,
                                                      double *bound)
{
    exact_t old = beta != 0 ? ACCUM_TO_EXACT(c_in[(size_t)i * shape.n_padded + j]) : 0;
    *result = scale_exact(alpha, sum, beta, old);
    *bound = error_bound(fabs((double)alpha) * abs_sum, fabs((double)(beta * old)),
                         fabs((double)*result), shape.k);
}

static void reference_cpu(const input_t *a, const input_t *b, const accum_t *c_in, Shape shape,
                          exact_t alpha, exact_t beta, bool unrounded, exact_t *result, double *bound)
{
    size_t a_step = a_index(0, 1, shape.cols_a_padded), b_step = b_index(1, 0, shape.cols_b_padded);   /* along K */
    for (int i = 0; i < shape.m; i++)
        for (int j = 0; j < shape.n; j++) {
            exact_t sum = 0;
            double abs_sum = 0.0;
            add_products(a + a_index(i, 0, shape.cols_a_padded), a_step, b + b_index(0, j, shape.cols_b_padded),
                         b_step, shape.k, unrounded, &sum, &abs_sum);
            finish_element(c_in, shape, alpha, beta, i, j, sum, abs_sum, &result[(size_t)i * shape.n + j],
                           &bound[(size_t)i * shape.n + j]);
        }
}
#line 2497 "gemm.md"
#define REFERENCE_TILE 32   /* the GPU reference: a block's tile of C is 32 x 32, and it stages 32 of K at a time */

/* Thread (x, y) computes element (y, x) of each tile of C its block takes. The block stages 32 of K of the tile's
   rows of A and columns of B in shared memory, read once each, and every thread adds its 32 products from there. */
__global__ void __launch_bounds__(REFERENCE_TILE * REFERENCE_TILE)
    d_gemm_reference(const input_t *a, const input_t *b, const accum_t *c_in, Shape shape, exact_t alpha,
                     exact_t beta, bool unrounded, exact_t *result, double *bound)
{
    __shared__ input_t a_tile[REFERENCE_TILE][REFERENCE_TILE];   /* [row][k] */
    __shared__ input_t b_tile[REFERENCE_TILE][REFERENCE_TILE];   /* [k][column] */
    int x = threadIdx.x, y = threadIdx.y, j = blockIdx.x * REFERENCE_TILE + x;
    int a_row = TRANSPOSE_A ? x : y, a_k = TRANSPOSE_A ? y : x;   /* what a thread stages: a warp reads along */
    int b_k = TRANSPOSE_B ? x : y, b_col = TRANSPOSE_B ? y : x;   /* a stored row, consecutive addresses */
    int col = blockIdx.x * REFERENCE_TILE + b_col;
    for (int i0 = blockIdx.y * REFERENCE_TILE; i0 < shape.m; i0 += gridDim.y * REFERENCE_TILE) {   /* any M fits */
        int i = i0 + y;
        exact_t sum = 0;
        double abs_sum = 0.0;
        for (int k0 = 0; k0 < shape.k; k0 += REFERENCE_TILE) {
            if (i0 + a_row < shape.m && k0 + a_k < shape.k)
                a_tile[a_row][a_k] = a[a_index(i0 + a_row, k0 + a_k, shape.cols_a_padded)];
            if (k0 + b_k < shape.k && col < shape.n)
                b_tile[b_k][b_col] = b[b_index(k0 + b_k, col, shape.cols_b_padded)];
            __syncthreads();
            int count = shape.k - k0 < REFERENCE_TILE ? shape.k - k0 : REFERENCE_TILE;
            if (i < shape.m && j < shape.n)
                add_products(a_tile[y], 1, &b_tile[0][x], REFERENCE_TILE, count, unrounded, &sum, &abs_sum);
            __syncthreads();   /* before the next stage overwrites the tiles */
        }
        if (i < shape.m && j < shape.n)
            finish_element(c_in, shape, alpha, beta, i, j, sum, abs_sum, &result[(size_t)i * shape.n + j],
                           &bound[(size_t)i * shape.n + j]);
    }
}
#line 2540 "gemm.md"
typedef struct {
    long long failures;
    double worst_error, worst_bound, worst_ratio;
    int worst_i, worst_j;
} Verdict;

static Verdict compare_results(const accum_t *c_out, const exact_t *expected, const double *bound, int m, int n)
{
    Verdict verdict = {0, 0.0, 0.0, -1.0, 0, 0};
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            size_t at = (size_t)i * n + j;
            double value = ACCUM_TO_DOUBLE(c_out[at]);
            double error = isfinite(value) ? fabs((double)(ACCUM_TO_EXACT(c_out[at]) - expected[at])) : INFINITY;
            double ratio = error <= bound[at] ? (bound[at] > 0 ? error / bound[at] : 0.0)
                                              : (bound[at] > 0 ? error / bound[at] : INFINITY);
            if (!(error <= bound[at]))
                verdict.failures++;
            if (ratio > verdict.worst_ratio) {
                verdict.worst_ratio = ratio;
                verdict.worst_error = error;
                verdict.worst_bound = bound[at];
                verdict.worst_i = i;
                verdict.worst_j = j;
            }
        }
    }
    return verdict;
}
/* ==== The harness ==== */
#line 2609 "gemm.md"
enum { KERNEL_FAST, KERNEL_NAIVE, KERNEL_STEP1 };   /* then step2 .. step7 (step7 is fast), hopper, hopper1 .. 9 */
enum { VERIFY_AUTO, VERIFY_CPU, VERIFY_GPU, VERIFY_OFF };
enum { FORMAT_TEXT, FORMAT_KV, FORMAT_CSV };

#define MAX_DIMENSION (1 << 30)
#define MAX_PRINT_DIMENSION 32
#define CPU_VERIFY_LIMIT (1LL << 27)   /* multiply-adds: about a second on one core */
#define MAX_SHARED_LIMIT (1 << 20)     /* --shared-limit: more than any GPU has */

typedef struct {
    int m, n, k;
    int kernel, verify, format;
    int iterations, warmup;
    double alpha, beta;
    unsigned long long seed;
    int cublas, print, peak, self_test, help;
    const char *dump_prefix;
    int shared_limit;   /* bytes of shared memory per block to pretend the GPU has; 0: what it has */
    const char *shapes;   /* --shapes=FILE: one M N K a line, a run each */
    int cold_l2;          /* --cold-l2: evict the L2 cache before each timed run */
} Options;
#line 2638 "gemm.md"
static int parse_integer(const char *text, long long low, long long high, long long *value)
{
    char *end;
    errno = 0;
    long long parsed = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || parsed < low || parsed > high)
        return -1;
    *value = parsed;
    return 0;
}

static int parse_real(const char *text, double *value)
{
    char *end;
    errno = 0;
    double parsed = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !isfinite(parsed))
        return -1;
    *value = parsed;
    return 0;
}

static int parse_choice(const char *text, const char *const *choices, int count)
{
    for (int c = 0; c < count; c++)
        if (strcmp(text, choices[c]) == 0)
            return c;
    return -1;
}

/* --shared-limit: bytes, or KiB with a K (101376 and 99K are the same); -1 if neither. */
static int parse_shared_limit(const char *text)
{
    long long number;
    size_t length = strlen(text);
    if (length > 1 && text[length - 1] == 'K') {
        char kib[32];
        snprintf(kib, sizeof kib, "%.*s", (int)(length - 1), text);
        return parse_integer(kib, 1, MAX_SHARED_LIMIT / 1024, &number) == 0 ? (int)number * 1024 : -1;
    }
    return parse_integer(text, 1, MAX_SHARED_LIMIT, &number) == 0 ? (int)number : -1;
}

/* --kernel's choices, in the order of KERNEL_FAST, KERNEL_NAIVE, KERNEL_STEP1 ... */
#define KERNEL_HOPPER (KERNEL_STEP1 + LAST_STEP)   /* d_gemm_hopper, the last part */
/* then hopper2 .. hopper10 (hopper10 is hopper's step) */
#define KERNEL_HOPPER_STEP1 (KERNEL_HOPPER + 1)
#define HOPPER_STEPS 10
#define KERNELS (KERNEL_HOPPER_STEP1 + HOPPER_STEPS)
static const char *const KERNEL_NAMES[] = {
    "fast",    "naive",   "step1",   "step2",   "step3",   "step4",   "step5",   "step6",
    "step7",   "hopper",  "hopper1", "hopper2", "hopper3", "hopper4", "hopper5", "hopper6",
    "hopper7", "hopper8", "hopper9", "hopper10"};
static_assert(sizeof KERNEL_NAMES / sizeof KERNEL_NAMES[0] == KERNELS, "a name for every kernel");

/* The step of d_gemm that a --kernel choice runs: LAST_STEP for fast, 0 for the others. */
static int kernel_step(int kernel)
{
    return kernel == KERNEL_FAST ? LAST_STEP : kernel >= KERNEL_STEP1 && kernel < KERNEL_HOPPER ? kernel - KERNEL_STEP1 + 1 : 0;
}

/* The step of d_gemm_hopper that a --kernel choice runs: HOPPER_STEPS for hopper, 0 for the WMMA kernels. */
static int hopper_step(int kernel)
{
    return kernel == KERNEL_HOPPER ? HOPPER_STEPS : kernel >= KERNEL_HOPPER_STEP1 ? kernel - KERNEL_HOPPER_STEP1 + 1 : 0;
}

/* One option as getopt_long returns it, with its value and the word it came from: 0 to go on, 1 to stop
   (--help), -1 for a mistake (the message in error). */
static int parse_flag(int option, const char *value, const char *word, Options *options, char *error,
                      size_t error_size)
{
    static const char *const verifiers[] = {"auto", "cpu", "gpu", "off"};
    static const char *const formats[] = {"text", "kv", "csv"};
    long long number;
    switch (option) {
    case 'k':
        options->kernel = parse_choice(value, KERNEL_NAMES, KERNELS);
        if (!WITH_STEPS && ((kernel_step(options->kernel) > 0 && kernel_step(options->kernel) < LAST_STEP) ||
                            (hopper_step(options->kernel) > 0 && hopper_step(options->kernel) < HOPPER_STEPS))) {
            snprintf(error, error_size, "--kernel=%s needs the steps built in: make STEPS=1", value);
            return -1;
        }
        break;
    case 'v': options->verify = parse_choice(value, verifiers, 4); break;
    case 'f': options->format = parse_choice(value, formats, 3); break;
    case 'i':
    case 'w':
        if (parse_integer(value, option == 'i' ? 1 : 0, 1000000, &number) != 0) {
            snprintf(error, error_size, "--%s wants a whole number from %d to 1000000, not '%s'",
                     option == 'i' ? "iterations" : "warmup", option == 'i' ? 1 : 0, value);
            return -1;
        }
        *(option == 'i' ? &options->iterations : &options->warmup) = (int)number;
        break;
    case 'a':
    case 'b':
        if (parse_real(value, option == 'a' ? &options->alpha : &options->beta) != 0) {
            snprintf(error, error_size, "--%s wants a finite number, not '%s'", option == 'a' ? "alpha" : "beta", value);
            return -1;
        }
        break;
    case 's':
        if (parse_integer(value, 0, LLONG_MAX, &number) != 0) {
            snprintf(error, error_size, "--seed wants a non-negative whole number, not '%s'", value);
            return -1;
        }
        options->seed = (unsigned long long)number;
        break;
    case 'c': options->cublas = 1; break;
    case 'p': options->print = 1; break;
    case 'd': options->dump_prefix = value; break;
    case 'S': options->shapes = value; break;
    case 'L':
        options->shared_limit = parse_shared_limit(value);
        if (options->shared_limit < 0) {
            snprintf(error, error_size, "--shared-limit wants bytes (or KiB with a K, as in 99K) from 1 to %d, "
                     "not '%s'", MAX_SHARED_LIMIT, value);
            return -1;
        }
        break;
    case 'P': options->peak = 1; break;
    case 'E': options->cold_l2 = 1; break;
    case 'T': options->self_test = 1; break;
    case 'h': options->help = 1; return 1;
    case ':': snprintf(error, error_size, "option '%s' needs a value", word); return -1;
    default: snprintf(error, error_size, "unknown option '%s'", word); return -1;
    }
    if (options->kernel < 0 || options->verify < 0 || options->format < 0) {
        snprintf(error, error_size, "bad value '%s' for option '%s'", value, word);
        return -1;
    }
    return 0;
}

/* The sizes M N K, all three or none; then what the sizes and the type pair rule out. */
static int parse_sizes(int count, char **sizes, Options *options, char *error, size_t error_size)
{
    long long number;
    if (count != 0 && count != 3) {
        snprintf(error, error_size, "give all three sizes M N K, or none (got %d)", count);
        return -1;
    }
    for (int d = 0; d < count; d++) {
        if (parse_integer(sizes[d], 1, MAX_DIMENSION, &number) != 0) {
            snprintf(error, error_size, "size '%s' is not a whole number from 1 to %d", sizes[d], MAX_DIMENSION);
            return -1;
        }
        *(d == 0 ? &options->m : d == 1 ? &options->n : &options->k) = (int)number;
    }
    if (IS_INTEGER && (options->alpha != floor(options->alpha) || fabs(options->alpha) > INT_MAX ||
                       options->beta != floor(options->beta) || fabs(options->beta) > INT_MAX)) {
        snprintf(error, error_size, "%s wants whole numbers for --alpha and --beta", TYPE_NAME);
        return -1;
    }
    if (options->print && (options->m > MAX_PRINT_DIMENSION || options->n > MAX_PRINT_DIMENSION ||
                           options->k > MAX_PRINT_DIMENSION)) {
        snprintf(error, error_size, "--print is for sizes up to %d", MAX_PRINT_DIMENSION);
        return -1;
    }
    return 0;
}

static int parse_options(int argc, char **argv, Options *options, char *error, size_t error_size)
{
    static const struct option long_options[] = {
        {"kernel", required_argument, NULL, 'k'},   {"verify", required_argument, NULL, 'v'},
        {"iterations", required_argument, NULL, 'i'}, {"warmup", required_argument, NULL, 'w'},
        {"alpha", required_argument, NULL, 'a'},    {"beta", required_argument, NULL, 'b'},
        {"seed", required_argument, NULL, 's'},     {"cublas", no_argument, NULL, 'c'},
        {"print", no_argument, NULL, 'p'},          {"format", required_argument, NULL, 'f'},
        {"dump", required_argument, NULL, 'd'},     {"peak", no_argument, NULL, 'P'},
        {"self-test", no_argument, NULL, 'T'},      {"help", no_argument, NULL, 'h'},
        {"shared-limit", required_argument, NULL, 'L'}, {"shapes", required_argument, NULL, 'S'},
        {"cold-l2", no_argument, NULL, 'E'},        {NULL, 0, NULL, 0}};
    Options defaults = {4096, 4096, 4096, KERNEL_FAST, VERIFY_AUTO, FORMAT_TEXT, 10, 2,
                        1.0, 0.0, 1, 0, 0, 0, 0, 0, NULL, 0, NULL, 0};
    int option;

    *options = defaults;
    optind = 0;   /* restart getopt: the self-test parses many command lines */
    opterr = 0;   /* we print our own messages */
    while ((option = getopt_long(argc, argv, ":k:v:i:w:a:b:s:cpf:d:h", long_options, NULL)) != -1) {
        int status = parse_flag(option, optarg, argv[optind - 1], options, error, error_size);
        if (status != 0)
            return status < 0 ? -1 : 0;
    }
    if (options->shapes && (argc > optind || options->dump_prefix || options->print || options->peak)) {
        snprintf(error, error_size, "--shapes takes its sizes from the file: no M N K, --dump, --print "
                 "or --peak with it");
        return -1;
    }
    return parse_sizes(argc - optind, argv + optind, options, error, error_size);
}

static void print_usage(FILE *out)
{
    fprintf(out,
            "usage: gemm [options] [M N K]   (built for %s, WMMA %s, TRANSPOSE_A=%d TRANSPOSE_B=%d)\n"
            "  -k, --kernel=fast|naive|stepN|hopper|hopperN\n"
            "                                   d_gemm (default), d_gemm_naive, step N of d_gemm (1 to %d),\n"
            "                                   d_gemm_hopper or its step N (1 to %d; sm_90a builds, 9.0 GPUs)\n"
            "  -v, --verify=auto|cpu|gpu|off    reference to check against (default auto)\n"
            "  -i, --iterations=N               timed runs (default 10)\n"
            "  -w, --warmup=N                   untimed runs before them (default 2)\n"
            "  -a, --alpha=X  -b, --beta=X      C = alpha*op(A)*op(B) + beta*C (default 1, 0)\n"
            "  -s, --seed=N                     seed of the random inputs (default 1)\n"
            "  -c, --cublas                     also time cuBLAS\n"
            "      --cold-l2                    evict the L2 cache before each timed run (kernel and cuBLAS)\n"
            "  -p, --print                      print the matrices (sizes up to %d)\n"
            "  -f, --format=text|kv|csv         output format (default text)\n"
            "  -d, --dump=PREFIX                write PREFIX_{A,B,C_in,C_out}.npy\n"
            "      --shared-limit=BYTES         choose d_gemm's tiles as for a GPU with this much shared\n"
            "                                   memory per block (99K: an RTX 4090, 64K: a T4)\n"
            "      --shapes=FILE                a run for each line M N K of FILE, a report each;\n"
            "                                   exit status the worst\n"
            "      --peak                       measure the WMMA ceiling\n"
            "      --self-test                  test the host code (no GPU needed)\n"
            "  -h, --help                       this text\n"
            "exit status: 0 verified, 1 verification failed, 2 bad usage, 3 no usable GPU,\n"
            "             4 out of memory, 5 CUDA or cuBLAS error, 6 file error\n",
            TYPE_NAME, SHAPE_NAME, TRANSPOSE_A, TRANSPOSE_B, LAST_STEP, HOPPER_STEPS, MAX_PRINT_DIMENSION);
}
#line 2881 "gemm.md"
#define RANDOM_STEP 0x9e3779b97f4a7c15ull   /* what each draw adds to the state */

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += RANDOM_STEP);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double random_uniform(uint64_t *state)   /* in [-1, 1) */
{
    return (double)(next_random(state) >> 11) * 0x1p-52 - 1.0;
}

static uint64_t stream_state(uint64_t seed, uint64_t stream)   /* before a stream's first draw */
{
    return seed * 0x2545f4914f6cdd1dull + stream;
}

static int random_int(uint64_t *state, int low, int high)
{
    return low + (int)(next_random(state) % (uint64_t)(high - low + 1));
}

#define INT_INPUT_LOW (TYPE_PAIR == PAIR_U8_IN_I32_OUT ? 0 : -128)   /* u8 in [0, 255]; int8 in [-128, 127] */

#define FILL_THREADS 16

typedef struct {
    void *x;              /* input_t, or accum_t where `accum` */
    size_t begin, end;    /* the elements this part fills */
    uint64_t state;       /* the stream's state before its first draw */
    bool accum;
} FillPart;

static void *fill_part(void *argument)
{
    const FillPart *part = (const FillPart *)argument;
    uint64_t state = part->state + part->begin * RANDOM_STEP;   /* as after `begin` draws */
    int low = part->accum ? -128 : INT_INPUT_LOW;                 /* integers: 256 values from low */
    for (size_t e = part->begin; e < part->end; e++) {
        float value = IS_INTEGER ? (float)random_int(&state, low, low + 255) : (float)random_uniform(&state);
        if (part->accum)
            ((accum_t *)part->x)[e] = ACCUM_FROM_FLOAT(value);
        else
            ((input_t *)part->x)[e] = INPUT_FROM_FLOAT(value);
    }
    return NULL;
}

/* Stream `stream` of `seed` into x[0 .. count): in FILL_THREADS parts from 65,536 elements on, a part the
   calling thread's where a thread cannot start. */
static void fill_random(void *x, size_t count, uint64_t seed, uint64_t stream, bool accum)
{
    int parts = count < ((size_t)1 << 16) ? 1 : FILL_THREADS;
    FillPart part[FILL_THREADS];
    pthread_t thread[FILL_THREADS];
    bool started[FILL_THREADS] = {false};
    for (int p = 0; p < parts; p++) {
        FillPart one = {x, count * p / parts, count * (p + 1) / parts, stream_state(seed, stream), accum};
        part[p] = one;
        started[p] = p > 0 && pthread_create(&thread[p], NULL, fill_part, &part[p]) == 0;
    }
    for (int p = 0; p < parts; p++)
        if (!started[p])
            fill_part(&part[p]);
    for (int p = 0; p < parts; p++)
        if (started[p])
            pthread_join(thread[p], NULL);
}

static void fill_input(input_t *x, size_t count, uint64_t seed, uint64_t stream)
{
    fill_random(x, count, seed, stream, false);
}

static void fill_accum(accum_t *x, size_t count, uint64_t seed, uint64_t stream)
{
    fill_random(x, count, seed, stream, true);
}
#line 2979 "gemm.md"
/* Every step of d_gemm for each tile configuration of this type pair; NULL past the last configuration, and
   for the steps before the last in a build without them (WITH_STEPS 0). */
#define STEP_BUILT(step) (WITH_STEPS || (step) == LAST_STEP)
#define GEMM_KERNEL(step, index)                                                                          \
    ((index) < TILES && STEP_BUILT(step) ? (const void *)d_gemm<(index) < TILES ? (index) : 0,            \
                                                                STEP_BUILT(step) ? (step) : LAST_STEP>   \
                                         : NULL)
#define GEMM_STEP(step) {GEMM_KERNEL(step, 0), GEMM_KERNEL(step, 1), GEMM_KERNEL(step, 2), GEMM_KERNEL(step, 3)}
static const void *const GEMM_KERNELS[LAST_STEP][4] = {GEMM_STEP(1), GEMM_STEP(2), GEMM_STEP(3), GEMM_STEP(4),
                                                       GEMM_STEP(5), GEMM_STEP(6), GEMM_STEP(7)};
static_assert(LAST_STEP == 7, "a row of GEMM_KERNELS for every step");

/* The first, largest tile configuration that needs at most `budget` bytes of shared memory and suits the
   build's copy path; -1 if none. */
static int choose_tile(int budget, int copy_engine)
{
    for (int index = 0; index < TILES; index++)
        if (tile_geometry(index).shared_bytes <= budget && (copy_engine || !tile_row(index).engine_only))
            return index;
    return -1;
}

typedef struct {
    cudaDeviceProp properties;
    int cc;              /* compute capability times ten */
    int ptx_version;     /* of d_gemm as it runs here: 90 and up TMA, 80 and up cp.async, else loads */
    int copy_engine;     /* ptx_version >= 90: slabs by the TMA, clusters */
    int shared_budget;   /* shared memory per block d_gemm may have: the GPU's, or less with --shared-limit */
    char budget_from[96];   /* what set it, for messages: the GPU's name or "--shared-limit=99K" */
    int tile;            /* the row of the tile table that fits it */
    int step;            /* the step of d_gemm to run: LAST_STEP unless --kernel=stepN */
    double bandwidth;    /* bytes/s of its memory: clock x bus width x 2 (double data rate); d_gemm_hopper counts it */
} Gpu;

static void check_hopper(const Gpu *gpu, int kernel);   /* --kernel=hopper: can this GPU and build run it? (the last part) */
static double hopper_peak(const Options *options, const Gpu *gpu, double *median_ms);   /* the wgmma ceiling */

/* How a step of d_gemm fills its slabs, from the architecture it was compiled for and the tile configuration. */
static const char *copy_path_name(int ptx_version, int tile, int step)
{
    TileGeometry geometry = tile_geometry(tile, step);
    if (ptx_version < 80 || !geometry.pipelined)
        return "loads";
    if (ptx_version >= 90 && geometry.copy_engine)
        return geometry.b_by_threads ? "copy-engine+cp.async" : "copy-engine";
    return "cp.async";
}

static int compute_capability_ok(int major, int minor)
{
    return major * 10 + minor >= MIN_CC;
}

#define H100_BANDWIDTH 3.35e12   /* bytes/s, as an H100 SXM reports it: 2619 MHz x 5120 bits x 2 */

static void select_gpu(Gpu *gpu, const Options *options)
{
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0)
        die(EXIT_NO_GPU, "no usable CUDA GPU: %s",
            status != cudaSuccess ? cudaGetErrorString(status) : "no device found");
    CHECK_CUDA(cudaGetDeviceProperties(&gpu->properties, 0));
    gpu->cc = gpu->properties.major * 10 + gpu->properties.minor;
    if (!compute_capability_ok(gpu->properties.major, gpu->properties.minor))
        die(EXIT_NO_GPU, "%s needs compute capability %d.%d or newer; %s has %d.%d", TYPE_NAME,
            MIN_CC / 10, MIN_CC % 10, gpu->properties.name, gpu->properties.major, gpu->properties.minor);
    CHECK_CUDA(cudaSetDevice(0));
    int memory_khz = 0, bus_bits = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, 0));
    CHECK_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    gpu->bandwidth = 2.0 * memory_khz * 1e3 * bus_bits / 8;   /* H100 SXM 3.35 TB/s, H200 4.92 */
    if (!(gpu->bandwidth > 0))
        gpu->bandwidth = H100_BANDWIDTH;   /* none reported: count an H100 SXM's */
    gpu->shared_budget = (int)gpu->properties.sharedMemPerBlockOptin;
    snprintf(gpu->budget_from, sizeof gpu->budget_from, "%s", gpu->properties.name);
    if (options->shared_limit > 0 && options->shared_limit < gpu->shared_budget) {
        gpu->shared_budget = options->shared_limit;
        bool kib = options->shared_limit % 1024 == 0;
        snprintf(gpu->budget_from, sizeof gpu->budget_from, "--shared-limit=%d%s",
                 kib ? options->shared_limit / 1024 : options->shared_limit, kib ? "K" : "");
    }
    if (hopper_step(options->kernel))
        check_hopper(gpu, options->kernel);   /* the last part: compute capability 9.0, an sm_90a build, the shared memory */
    cudaFuncAttributes attributes;   /* every d_gemm of a binary is compiled for the same architecture */
    CHECK_CUDA(cudaFuncGetAttributes(&attributes, GEMM_KERNELS[LAST_STEP - 1][0]));
    gpu->ptx_version = attributes.ptxVersion;
    gpu->copy_engine = attributes.ptxVersion >= 90;
    gpu->tile = choose_tile(gpu->shared_budget, gpu->copy_engine);
    gpu->step = kernel_step(options->kernel) ? kernel_step(options->kernel) : LAST_STEP;
    if (gpu->tile < 0) {
        if (kernel_step(options->kernel) && !options->peak)
            die(EXIT_NO_GPU, "d_gemm needs at least %d bytes of shared memory per block for %s; %s allows %d",
                tile_geometry(TILES - 1).shared_bytes, TYPE_NAME, gpu->budget_from, gpu->shared_budget);
        gpu->tile = TILES - 1;   /* the naive kernel and the ceiling do not use it */
    }
    const void *kernel = GEMM_KERNELS[gpu->step - 1][gpu->tile];
    int shared_bytes = tile_geometry(gpu->tile, gpu->step).shared_bytes;
    if (shared_bytes <= (int)gpu->properties.sharedMemPerBlockOptin)
        CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
}
#line 3089 "gemm.md"
static void *allocate(size_t bytes, const char *what)
{
    void *memory = malloc(bytes > 0 ? bytes : 1);
    if (memory == NULL)
        die(EXIT_NO_MEMORY, "not enough host memory for %s (%.2f GiB)", what, bytes / 0x1p30);
    return memory;
}

static void check_device_memory(double bytes_needed)
{
    size_t free_bytes, total_bytes;
    CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (bytes_needed > (double)free_bytes)
        die(EXIT_NO_MEMORY, "this run needs %.2f GiB of device memory; %.2f GiB of %.2f GiB are free",
            bytes_needed / 0x1p30, free_bytes / 0x1p30, total_bytes / 0x1p30);
}
#line 3121 "gemm.md"
typedef struct {
    double median_ms, min_ms;
} Timing;

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* A buffer to read through the L2 cache before each timed run; no bytes: leave the cache as it is. */
typedef struct {
    void *buffer;
    size_t bytes;
    unsigned *sink;   /* where evict_l2 writes, so that its reads are not optimized away */
} Eviction;
static const Eviction NO_EVICTION = {NULL, 0, NULL};

/* Reads all of `buffer`, 16 bytes a load, so the L2 ends full of its clean lines; the dirty lines of the run before
   are written back now, not during the next timed run. */
__global__ void evict_l2(const uint4 *buffer, size_t count, unsigned *sink)
{
    unsigned folded = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = buffer[i];
        folded ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (folded == 0x9E3779B9u)   /* never: bytes all 0x5A fold to 0, which the compiler cannot know */
        *sink = folded;
}

static Timing time_runs(void (*launch)(const void *), const void *context, int warmup, int runs,
                        const Eviction *evict)
{
    cudaEvent_t start, stop;
    double *times = (double *)allocate(runs * sizeof(double), "timings");
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    for (int run = 0; run < warmup; run++)
        launch(context);
    for (int run = 0; run < runs; run++) {
        float ms;
        if (evict->bytes) {
            evict_l2<<<1024, 256>>>((const uint4 *)evict->buffer, evict->bytes / sizeof(uint4), evict->sink);
            CHECK_CUDA(cudaGetLastError());
        }
        CHECK_CUDA(cudaEventRecord(start));
        launch(context);
        CHECK_CUDA(cudaEventRecord(stop));
        CHECK_CUDA(cudaEventSynchronize(stop));
        CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
        times[run] = ms;
    }
    qsort(times, runs, sizeof(double), compare_doubles);
    Timing timing = {runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2, times[0]};
    CHECK_CUDA(cudaEventDestroy(start));
    CHECK_CUDA(cudaEventDestroy(stop));
    free(times);
    return timing;
}
#line 3203 "gemm.md"
typedef struct {
    Shape shape;
    int kernel;
    scalar_t alpha, beta;
    input_t *a, *b;
    accum_t *c;
    input_t *a_tiled, *b_tiled;   /* A and B as d_gemm reads them */
    int tile;                     /* d_gemm's row of the tile table */
    int step;                     /* which step of d_gemm (LAST_STEP: d_gemm itself) */
    int cluster;                  /* blocks per cluster: the tile's on the TMA path, else 1 */
    bool prepare_a, prepare_b;    /* a_tiled and b_tiled are copies of their own, prepared per launch */
    bool unrounded;               /* tf32 reaches the tensor cores unrounded (d_gemm_hopper): they truncate */
    int grid_clusters;            /* d_gemm_hopper: clusters in its persistent grid */
    int whole_tiles;              /* d_gemm_hopper: cluster tiles run whole; from step 7 the rest is split (slots) */
    int split_tiles;              /* the tiles of that split last round; 0 if none */
    accum_t *slots;               /* the pieces of a split last round, a block tile per block; NULL if none */
    int hopper;                   /* d_gemm_hopper: the step it launches, or HOPPER_SHORT; 0 for d_gemm */
    double bandwidth;             /* d_gemm_hopper: the GPU's memory bandwidth, bytes/s (Gpu's) */
    CUtensorMap a_map, b_map;     /* where the TMA finds the slabs of a_tiled and b_tiled */
} Run;

/* The Hopper kernel of the last part ("Past WMMA"), as the harness calls it. */
static bool hopper_prepares(int operand, int step);   /* 0: A, 1: B */
static Shape hopper_shape(int m, int n, int k, int step);
static int hopper_kind(int kernel, int m, int n, int k, int sms, double bandwidth);   /* the step, or step 9's tile */
static TileGeometry hopper_geometry(int step);
static void setup_hopper(Run *run);
static void launch_hopper(const Run *run);
#line 3237 "gemm.md"
/* A tiled operand stored as rows x ld, viewed as panels: (element of the row, row, panel), panels `panel`
   elements apart. A box is box_panels panels of box_rows rows, each row ld_shared long: past the panel it
   reads the row's next elements into the padding, up to OVER_READ bytes past the operand's end. */
static void make_tensor_map(CUtensorMap *map, const input_t *operand, int rows, int ld, int panel, int ld_shared,
                            int box_rows, int box_panels, CUtensorMapSwizzle swizzle)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
    if (!encode) {
        cudaDriverEntryPointQueryResult found;
        CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000,
                                                    cudaEnableDefault, &found));
        if (found != cudaDriverEntryPointSuccess)
            die(EXIT_CUDA_ERROR, "the CUDA driver has no cuTensorMapEncodeTiled");
    }
    CUtensorMapDataType type = sizeof(input_t) == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                               : sizeof(input_t) == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                               : sizeof(input_t) == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32
                                                      : CU_TENSOR_MAP_DATA_TYPE_UINT64;
    cuuint64_t size[3] = {(cuuint64_t)ld, (cuuint64_t)rows, (cuuint64_t)(ld / panel)};
    cuuint64_t stride[2] = {(cuuint64_t)ld * sizeof(input_t), (cuuint64_t)panel * sizeof(input_t)};
    cuuint32_t box[3] = {(cuuint32_t)ld_shared, (cuuint32_t)box_rows, (cuuint32_t)box_panels};
    cuuint32_t step[3] = {1, 1, 1};
    CUresult result = encode(map, type, 3, (void *)operand, size, stride, box, step, CU_TENSOR_MAP_INTERLEAVE_NONE,
                             swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
        die(EXIT_CUDA_ERROR, "cuTensorMapEncodeTiled failed with error %d", (int)result);
}

static void make_tensor_maps(Run *run)
{
    const Shape *shape = &run->shape;
    TileGeometry tile = tile_geometry(run->tile);
    make_tensor_map(&run->a_map, run->a_tiled, TILE_TRANSPOSE_A ? shape->k_padded : shape->m_padded,
                    TILE_TRANSPOSE_A ? shape->m_padded : shape->k_padded, tile.a.panel, tile.a.ld, tile.a.box_rows,
                    tile.a.box_panels, CU_TENSOR_MAP_SWIZZLE_NONE);
    make_tensor_map(&run->b_map, run->b_tiled, TILE_TRANSPOSE_B ? shape->n_padded : shape->k_padded,
                    TILE_TRANSPOSE_B ? shape->k_padded : shape->n_padded, tile.b.panel, tile.b.ld, tile.b.rows,
                    tile.b.panels, CU_TENSOR_MAP_SWIZZLE_NONE);
}
#line 3284 "gemm.md"
/* d_gemm's operands as it reads them: int8 operands stored the other way transposed, tf32 operands rounded. */
static void prepare_operands(const Run *run)
{
#if IS_INTEGER
    if (PRETRANSPOSE_A)
        transpose_on_gpu(run->a, run->a_tiled, run->shape.rows_a_padded, run->shape.cols_a_padded);
    if (PRETRANSPOSE_B)
        transpose_on_gpu(run->b, run->b_tiled, run->shape.rows_b_padded, run->shape.cols_b_padded);
#elif PREROUND
    round_on_gpu(run->a, run->a_tiled, run->shape.rows_a_padded, run->shape.cols_a_padded);
    round_on_gpu(run->b, run->b_tiled, run->shape.rows_b_padded, run->shape.cols_b_padded);
#endif
    (void)run;   /* the other type pairs read A and B as they are */
}

static void launch_gemm(const void *context)
{
    const Run *run = (const Run *)context;
    const Shape *shape = &run->shape;
    if (hopper_step(run->kernel)) {
        launch_hopper(run);
    } else if (run->kernel == KERNEL_NAIVE) {
        long long tiles = (long long)(shape->m_padded / FRAG_M) * (shape->n_padded / FRAG_N);
        unsigned blocks = (unsigned)((tiles + NAIVE_WARPS - 1) / NAIVE_WARPS);
        d_gemm_naive<<<blocks, NAIVE_WARPS * 32>>>(run->a, run->b, run->c, *shape, run->alpha, run->beta);
    } else {
        prepare_operands(run);
        TileGeometry tile = tile_geometry(run->tile, run->step);
        unsigned blocks = (unsigned)((shape->m_padded / tile.block_m) * (shape->n_padded / tile.block_n));
        cudaLaunchAttribute cluster;
        cluster.id = cudaLaunchAttributeClusterDimension;
        cluster.val.clusterDim.x = run->cluster;
        cluster.val.clusterDim.y = 1;
        cluster.val.clusterDim.z = 1;
        cudaLaunchConfig_t config;
        config.gridDim = dim3(blocks);
        config.blockDim = dim3(tile.threads);
        config.dynamicSmemBytes = tile.shared_bytes;
        config.stream = 0;
        config.attrs = &cluster;
        config.numAttrs = run->cluster > 1 ? 1 : 0;
        Run args = *run;   /* the kernel's arguments; the launch takes a pointer to each */
        void *arguments[] = {&args.a_tiled, &args.b_tiled, &args.c, &args.shape,
                             &args.alpha, &args.beta, &args.a_map, &args.b_map};
        CHECK_CUDA(cudaLaunchKernelExC(&config, GEMM_KERNELS[run->step - 1][run->tile], arguments));
    }
    CHECK_LAUNCH();
}
#line 3345 "gemm.md"
typedef struct {
    int available;                  /* cuBLAS has no unsigned int8 GEMM */
    cudaDataType input, output;     /* of A and B, of C */
    cublasComputeType_t compute;    /* the arithmetic; alpha and beta are of its type, accum_t */
} CublasTypes;

/* One row per type pair, in TYPE_PAIR's order. */
static const CublasTypes CUBLAS_TYPES[] = {
    /* available  input        output      compute */
    {1,           CUDA_R_16F,  CUDA_R_32F, CUBLAS_COMPUTE_32F},            /* F16_IN_F32_OUT */
    {1,           CUDA_R_16F,  CUDA_R_16F, CUBLAS_COMPUTE_16F},            /* F16_IN_OUT */
    {0,           CUDA_R_8U,   CUDA_R_32I, CUBLAS_COMPUTE_32I},            /* U8_IN_I32_OUT */
    {1,           CUDA_R_8I,   CUDA_R_32I, CUBLAS_COMPUTE_32I},            /* I8_IN_I32_OUT */
    {1,           CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F},            /* BF16_IN_F32_OUT */
    {1,           CUDA_R_32F,  CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32},  /* TF32_IN_F32_OUT */
    {1,           CUDA_R_64F,  CUDA_R_64F, CUBLAS_COMPUTE_64F},            /* F64_IN_OUT */
};
#define HAS_CUBLAS (CUBLAS_TYPES[TYPE_PAIR].available)
#line 3366 "gemm.md"
typedef struct {
    Run run;
    cublasHandle_t handle;
    cublasStatus_t status;
} CublasRun;

static void launch_cublas(const void *context)
{
    CublasRun *cublas = (CublasRun *)context;
    const Shape *shape = &cublas->run.shape;
    CublasTypes types = CUBLAS_TYPES[TYPE_PAIR];
    accum_t alpha = (accum_t)cublas->run.alpha, beta = (accum_t)cublas->run.beta;
    cublas->status = cublasGemmEx(cublas->handle, TRANSPOSE_B ? CUBLAS_OP_T : CUBLAS_OP_N,
                                  TRANSPOSE_A ? CUBLAS_OP_T : CUBLAS_OP_N, shape->n, shape->m, shape->k,
                                  &alpha, cublas->run.b, types.input, shape->cols_b_padded,
                                  cublas->run.a, types.input, shape->cols_a_padded, &beta,
                                  cublas->run.c, types.output, shape->n_padded, types.compute,
                                  CUBLAS_GEMM_DEFAULT);
}
#line 3397 "gemm.md"
static void write_npy(const char *prefix, const char *name, const char *descr, const void *data,
                      size_t rows, size_t cols, size_t element_size)
{
    char path[4096], temporary[4160], header[160];
    snprintf(path, sizeof path, "%s_%s.npy", prefix, name);
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    int length = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }",
                          descr, rows, cols);
    int padded = ROUND_UP(10 + length + 1, 64) - 10;   /* header bytes, newline included */
    memset(header + length, ' ', padded - length - 1);
    header[padded - 1] = '\n';
    unsigned char preamble[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                                  (unsigned char)(padded & 0xff), (unsigned char)(padded >> 8)};

    FILE *file = fopen(temporary, "wb");
    if (file == NULL)
        die(EXIT_IO_ERROR, "cannot write %s: %s", path, strerror(errno));
    int ok = fwrite(preamble, 1, 10, file) == 10 && fwrite(header, 1, padded, file) == (size_t)padded &&
             fwrite(data, element_size, rows * cols, file) == rows * cols;
    ok = (fclose(file) == 0) && ok;
    if (!ok || rename(temporary, path) != 0) {
        int saved = errno;
        remove(temporary);
        die(EXIT_IO_ERROR, "cannot write %s: %s", path, strerror(saved));
    }
}
#line 3430 "gemm.md"
typedef struct {
    const char *input, *accum;   /* NumPy's type strings for A and B, and for C */
    int widen;                   /* 1: NumPy has no such type; A and B are widened, exactly, to float32 */
} NpyTypes;

/* One row per type pair, in TYPE_PAIR's order. */
static const NpyTypes NPY_TYPES[] = {
    {"<f2", "<f4", 0},   /* F16_IN_F32_OUT */
    {"<f2", "<f2", 0},   /* F16_IN_OUT */
    {"|u1", "<i4", 0},   /* U8_IN_I32_OUT */
    {"|i1", "<i4", 0},   /* I8_IN_I32_OUT */
    {"<f4", "<f4", 1},   /* BF16_IN_F32_OUT: no bfloat16 in NumPy */
    {"<f4", "<f4", 0},   /* TF32_IN_F32_OUT: stored as float */
    {"<f8", "<f8", 0},   /* F64_IN_OUT */
};
#define NPY_ACCUM (NPY_TYPES[TYPE_PAIR].accum)

static void dump_inputs(const char *prefix, const input_t *a, const input_t *b, const Shape *shape)
{
    NpyTypes npy = NPY_TYPES[TYPE_PAIR];
    const char *names[2] = {"A", "B"};
    const input_t *sources[2] = {a, b};
    size_t rows[2] = {(size_t)shape->rows_a, (size_t)shape->rows_b}, cols[2] = {(size_t)shape->cols_a, (size_t)shape->cols_b};
    for (int s = 0; s < 2; s++) {
        if (!npy.widen) {
            write_npy(prefix, names[s], npy.input, sources[s], rows[s], cols[s], sizeof(input_t));
            continue;
        }
        float *widened = (float *)allocate(rows[s] * cols[s] * sizeof(float), "the dump");
        for (size_t e = 0; e < rows[s] * cols[s]; e++)
            widened[e] = (float)INPUT_TO_DOUBLE(sources[s][e]);
        write_npy(prefix, names[s], npy.input, widened, rows[s], cols[s], sizeof(float));
        free(widened);
    }
}
#line 3474 "gemm.md"
#define MAX_FIELDS 48

typedef struct {
    const char *keys[MAX_FIELDS];
    char values[MAX_FIELDS][128];
    int count;
} Report;

static void report_add(Report *report, const char *key, const char *format, ...)
{
    va_list args;
    if (report->count == MAX_FIELDS)
        return;
    report->keys[report->count] = key;
    va_start(args, format);
    vsnprintf(report->values[report->count], sizeof report->values[0], format, args);
    va_end(args);
    for (char *p = report->values[report->count]; *p; p++)   /* machine formats: no spaces or commas */
        if (*p == ' ' || *p == ',')
            *p = '_';
    report->count++;
}

/* One field of a report: text, a whole number, or a real number with its format; a NAN is printed "na". */
typedef struct {
    const char *key;
    const char *format;   /* "%s": text; "%lld": integer; any other: real */
    const char *text;
    long long integer;
    double real;
} Field;

#define TEXT(key, text) {(key), "%s", (text), 0, 0.0}
#define INTEGER(key, value) {(key), "%lld", NULL, (long long)(value), 0.0}
#define REAL(key, format, value) {(key), (format), NULL, 0, (value)}

static void report_fields(Report *report, const Field *fields, int count)
{
    for (int f = 0; f < count; f++) {
        const Field *field = &fields[f];
        if (field->text)
            report_add(report, field->key, "%s", field->text);
        else if (strcmp(field->format, "%lld") == 0)
            report_add(report, field->key, "%lld", field->integer);
        else if (isnan(field->real))
            report_add(report, field->key, "na");
        else
            report_add(report, field->key, field->format, field->real);
    }
}

static const char *report_get(const Report *report, const char *key)
{
    for (int f = 0; f < report->count; f++)
        if (strcmp(report->keys[f], key) == 0)
            return report->values[f];
    return "na";
}

static void report_print(const Report *report, int format)
{
    for (int f = 0; f < report->count; f++)
        printf("%s%s", f ? (format == FORMAT_CSV ? "," : " ") : "",
               format == FORMAT_CSV ? report->keys[f] : "");
    if (format == FORMAT_CSV)
        printf("\n");
    for (int f = 0; f < report->count; f++) {
        if (format == FORMAT_CSV)
            printf("%s%s", f ? "," : "", report->values[f]);
        else
            printf("%s%s=%s", f ? " " : "", report->keys[f], report->values[f]);
    }
    printf("\n");
}

static void print_inputs(const char *name, const input_t *x, int rows, int cols)
{
    printf("%s (%d x %d, as stored):\n", name, rows, cols);
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            printf(" %9.4g", INPUT_TO_DOUBLE(x[(size_t)r * cols + c]));
        printf("\n");
    }
}

static void print_accums(const char *name, const accum_t *x, int rows, int cols)
{
    printf("%s (%d x %d):\n", name, rows, cols);
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            printf(" %9.4g", ACCUM_TO_DOUBLE(x[(size_t)r * cols + c]));
        printf("\n");
    }
}
#line 3576 "gemm.md"
typedef struct {
    Shape shape;
    int verify;                                          /* VERIFY_CPU, VERIFY_GPU or VERIFY_OFF */
    int use_cublas;
    size_t count_a, count_b, count_c;                    /* elements, unpadded */
    size_t bytes_a_padded, bytes_b_padded, bytes_c_padded;
    input_t *a, *b, *a_padded, *b_padded;                /* on the host */
    accum_t *c_in, *c_out, *c_padded;
    exact_t *expected;                                   /* the reference, and each element's bound */
    double *bound;
    Run run;                                             /* on the GPU: what the kernels get */
    Verdict verdict;
    Timing timing, cublas_timing;
    int cublas_ran;
    int cublas_version;                                  /* cublasGetVersion, when cuBLAS ran */
    double pad_ms, h2d_ms, d2h_ms, extract_ms, reference_ms;   /* host-side steps */
} Gemm;

static double milliseconds_since(double start)
{
    return (seconds_now() - start) * 1e3;
}
#line 3604 "gemm.md"
static Shape gemm_shape(int m, int n, int k, int tile_index, int hopper)   /* hopper: Run's */
{
    if (hopper)
        return hopper_shape(m, n, k, hopper);
    TileGeometry tile = tile_geometry(tile_index);
    return make_shape(m, n, k, tile.block_m, tile.block_n * tile.cluster, tile.block_k);
}

static void plan_memory(Gemm *gemm, const Options *options, const Gpu *gpu)
{
    gemm->run.hopper = hopper_step(options->kernel) ? hopper_kind(options->kernel, options->m, options->n, options->k,
                                                                  gpu->properties.multiProcessorCount, gpu->bandwidth)
                                                     : 0;
    gemm->run.bandwidth = gpu->bandwidth;
    Shape shape = gemm->shape = gemm_shape(options->m, options->n, options->k, gpu->tile, gemm->run.hopper);
    gemm->verify = options->verify;
    if (gemm->verify == VERIFY_AUTO)
        gemm->verify = (long long)shape.m * shape.n * shape.k <= CPU_VERIFY_LIMIT ? VERIFY_CPU : VERIFY_GPU;
    gemm->use_cublas = options->cublas && HAS_CUBLAS;
    gemm->count_a = (size_t)shape.rows_a * shape.cols_a;
    gemm->count_b = (size_t)shape.rows_b * shape.cols_b;
    gemm->count_c = (size_t)shape.m * shape.n;
    gemm->bytes_a_padded = (size_t)shape.rows_a_padded * shape.cols_a_padded * sizeof(input_t);
    gemm->bytes_b_padded = (size_t)shape.rows_b_padded * shape.cols_b_padded * sizeof(input_t);
    gemm->bytes_c_padded = (size_t)shape.m_padded * shape.n_padded * sizeof(accum_t);
    gemm->run.prepare_a = hopper_step(options->kernel) ? hopper_prepares(0, gemm->run.hopper) : PREPARE_A;
    gemm->run.prepare_b = hopper_step(options->kernel) ? hopper_prepares(1, gemm->run.hopper) : PREPARE_B;
    double bytes_tiled = (gemm->run.prepare_a ? (double)gemm->bytes_a_padded : 0.0) +
                         (gemm->run.prepare_b ? (double)gemm->bytes_b_padded : 0.0);
    check_device_memory((double)gemm->bytes_a_padded + gemm->bytes_b_padded + bytes_tiled +
                        gemm->bytes_c_padded * (gemm->use_cublas ? 2.0 : 1.0) +
                        (options->cold_l2 ? 2.0 * gpu->properties.l2CacheSize : 0.0) +
                        (gemm->verify == VERIFY_GPU ? (double)gemm->count_c * (sizeof(exact_t) + sizeof(double)) : 0.0));
}
#line 3644 "gemm.md"
static void make_inputs(Gemm *gemm, const Options *options)
{
    gemm->a = (input_t *)allocate(gemm->count_a * sizeof(input_t), "A");
    gemm->b = (input_t *)allocate(gemm->count_b * sizeof(input_t), "B");
    gemm->c_in = (accum_t *)allocate(gemm->count_c * sizeof(accum_t), "C");
    gemm->c_out = (accum_t *)allocate(gemm->count_c * sizeof(accum_t), "the result");
    fill_input(gemm->a, gemm->count_a, options->seed, 1);
    fill_input(gemm->b, gemm->count_b, options->seed, 2);
    fill_accum(gemm->c_in, gemm->count_c, options->seed, 3);
    if (options->dump_prefix) {
        dump_inputs(options->dump_prefix, gemm->a, gemm->b, &gemm->shape);
        write_npy(options->dump_prefix, "C_in", NPY_ACCUM, gemm->c_in, gemm->shape.m, gemm->shape.n, sizeof(accum_t));
    }
}
#line 3664 "gemm.md"
static void upload(Gemm *gemm, const Options *options, const Gpu *gpu)
{
    const Shape *shape = &gemm->shape;
    double start = seconds_now();
    gemm->a_padded = (input_t *)allocate(gemm->bytes_a_padded, "padded A");
    gemm->b_padded = (input_t *)allocate(gemm->bytes_b_padded, "padded B");
    gemm->c_padded = (accum_t *)allocate(gemm->bytes_c_padded, "padded C");
    pad_matrix(gemm->a_padded, gemm->a, shape->rows_a, shape->cols_a, shape->rows_a_padded, shape->cols_a_padded,
               sizeof(input_t));
    pad_matrix(gemm->b_padded, gemm->b, shape->rows_b, shape->cols_b, shape->rows_b_padded, shape->cols_b_padded,
               sizeof(input_t));
    pad_matrix(gemm->c_padded, gemm->c_in, shape->m, shape->n, shape->m_padded, shape->n_padded, sizeof(accum_t));
    gemm->pad_ms = milliseconds_since(start);

    Run *run = &gemm->run;
    run->shape = *shape;
    run->kernel = options->kernel;
    run->unrounded = PREROUND && hopper_step(run->kernel);
    run->alpha = (scalar_t)options->alpha;
    run->beta = (scalar_t)options->beta;
    run->tile = gpu->tile;
    run->step = gpu->step;
    run->cluster = run->hopper               ? hopper_geometry(run->hopper).cluster
                   : gpu->copy_engine           ? tile_geometry(gpu->tile, gpu->step).cluster
                                                : 1;
    CHECK_CUDA(cudaMalloc(&run->a, gemm->bytes_a_padded + OVER_READ));
    CHECK_CUDA(cudaMalloc(&run->b, gemm->bytes_b_padded + OVER_READ));
    CHECK_CUDA(cudaMalloc(&run->c, gemm->bytes_c_padded));
    run->a_tiled = run->a;
    run->b_tiled = run->b;
    if (run->prepare_a)
        CHECK_CUDA(cudaMalloc(&run->a_tiled, gemm->bytes_a_padded + OVER_READ));
    if (run->prepare_b)
        CHECK_CUDA(cudaMalloc(&run->b_tiled, gemm->bytes_b_padded + OVER_READ));
    if (hopper_step(run->kernel))
        setup_hopper(run);
    else if (gpu->copy_engine)
        make_tensor_maps(run);
    start = seconds_now();
    CHECK_CUDA(cudaMemcpy(run->a, gemm->a_padded, gemm->bytes_a_padded, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(run->b, gemm->b_padded, gemm->bytes_b_padded, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(run->c, gemm->c_padded, gemm->bytes_c_padded, cudaMemcpyHostToDevice));
    gemm->h2d_ms = milliseconds_since(start);
}
#line 3715 "gemm.md"
static void reference_gpu(const Run *run, exact_t alpha, exact_t beta, exact_t *expected, double *bound)
{
    size_t count = (size_t)run->shape.m * run->shape.n;
    exact_t *expected_device;
    double *bound_device;
    CHECK_CUDA(cudaMalloc(&expected_device, count * sizeof(exact_t)));
    CHECK_CUDA(cudaMalloc(&bound_device, count * sizeof(double)));
    int row_tiles = (run->shape.m + REFERENCE_TILE - 1) / REFERENCE_TILE;
    dim3 grid((run->shape.n + REFERENCE_TILE - 1) / REFERENCE_TILE, row_tiles < 65535 ? row_tiles : 65535);
    d_gemm_reference<<<grid, dim3(REFERENCE_TILE, REFERENCE_TILE)>>>(run->a, run->b, run->c, run->shape, alpha, beta,
                                                                      run->unrounded, expected_device, bound_device);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(expected, expected_device, count * sizeof(exact_t), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(bound, bound_device, count * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(expected_device));
    CHECK_CUDA(cudaFree(bound_device));
}

static void compute_reference(Gemm *gemm)
{
    if (gemm->verify == VERIFY_OFF)
        return;
    const Run *run = &gemm->run;
    gemm->expected = (exact_t *)allocate(gemm->count_c * sizeof(exact_t), "the reference");
    gemm->bound = (double *)allocate(gemm->count_c * sizeof(double), "the error bounds");
    double start = seconds_now();
    if (gemm->verify == VERIFY_CPU)
        reference_cpu(gemm->a_padded, gemm->b_padded, gemm->c_padded, gemm->shape, (exact_t)run->alpha,
                      (exact_t)run->beta, run->unrounded, gemm->expected, gemm->bound);
    else
        reference_gpu(run, (exact_t)run->alpha, (exact_t)run->beta, gemm->expected, gemm->bound);
    gemm->reference_ms = milliseconds_since(start);
}
#line 3755 "gemm.md"
static void run_once_and_check(Gemm *gemm, const Options *options)
{
    const Shape *shape = &gemm->shape;
    launch_gemm(&gemm->run);
    CHECK_CUDA(cudaDeviceSynchronize());
    double start = seconds_now();
    CHECK_CUDA(cudaMemcpy(gemm->c_padded, gemm->run.c, gemm->bytes_c_padded, cudaMemcpyDeviceToHost));
    gemm->d2h_ms = milliseconds_since(start);
    start = seconds_now();
    extract_matrix(gemm->c_out, gemm->c_padded, shape->m, shape->n, shape->n_padded, sizeof(accum_t));
    gemm->extract_ms = milliseconds_since(start);
    if (gemm->verify != VERIFY_OFF)
        gemm->verdict = compare_results(gemm->c_out, gemm->expected, gemm->bound, shape->m, shape->n);
    if (options->dump_prefix)
        write_npy(options->dump_prefix, "C_out", NPY_ACCUM, gemm->c_out, shape->m, shape->n, sizeof(accum_t));
}
#line 3778 "gemm.md"
static void time_cublas(Gemm *gemm, const Options *options, const Eviction *evict);

static void time_kernels(Gemm *gemm, const Options *options)
{
    Eviction evict = NO_EVICTION;
    if (options->cold_l2) {
        int l2_bytes = 0;
        CHECK_CUDA(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0));
        evict.bytes = 2 * (size_t)l2_bytes;
        CHECK_CUDA(cudaMalloc(&evict.buffer, evict.bytes + sizeof(unsigned)));
        CHECK_CUDA(cudaMemset(evict.buffer, 0x5A, evict.bytes));
        evict.sink = (unsigned *)((char *)evict.buffer + evict.bytes);
    }
    gemm->timing = time_runs(launch_gemm, &gemm->run, options->warmup, options->iterations, &evict);
    if (gemm->use_cublas)
        time_cublas(gemm, options, &evict);
    CHECK_CUDA(cudaFree(evict.buffer));
}

static void time_cublas(Gemm *gemm, const Options *options, const Eviction *evict)
{
    const Shape *shape = &gemm->shape;
    CublasRun cublas = {gemm->run, NULL, CUBLAS_STATUS_SUCCESS};
    CHECK_CUDA(cudaMalloc(&cublas.run.c, gemm->bytes_c_padded));
    pad_matrix(gemm->c_padded, gemm->c_in, shape->m, shape->n, shape->m_padded, shape->n_padded, sizeof(accum_t));
    CHECK_CUDA(cudaMemcpy(cublas.run.c, gemm->c_padded, gemm->bytes_c_padded, cudaMemcpyHostToDevice));
    CHECK_CUBLAS(cublasCreate(&cublas.handle));
    CHECK_CUBLAS(cublasGetVersion(cublas.handle, &gemm->cublas_version));
    launch_cublas(&cublas);
    if (cublas.status == CUBLAS_STATUS_SUCCESS) {
        gemm->cublas_timing = time_runs(launch_cublas, &cublas, options->warmup, options->iterations, evict);
        gemm->cublas_ran = cublas.status == CUBLAS_STATUS_SUCCESS;
    }
    if (!gemm->cublas_ran)
        fprintf(stderr, "gemm: warning: cuBLAS declined this problem: %s\n", cublasGetStatusString(cublas.status));
    CHECK_CUBLAS(cublasDestroy(cublas.handle));
    CHECK_CUDA(cudaFree(cublas.run.c));
}
#line 3822 "gemm.md"
#define RATE(timing, operations) ((operations) / ((timing).median_ms * 1e-3) / 1e12)

/* The tile and the copy path of the kernel that ran. */
static TileGeometry run_tile(const Run *run)
{
    return run->hopper ? hopper_geometry(run->hopper) : tile_geometry(run->tile, run->step);
}

static const char *run_copy_path(const Gpu *gpu, const Run *run)
{
    return hopper_step(run->kernel) ? "copy-engine" : copy_path_name(gpu->ptx_version, run->tile, run->step);
}

static void report_gemm(Report *report, const Gemm *gemm, const Options *options, const Gpu *gpu)
{
    const Shape *shape = &gemm->shape;
    double operations = 2.0 * shape->m * shape->n * shape->k;
    TileGeometry tile = run_tile(&gemm->run);
    char tile_name[48];
    snprintf(tile_name, sizeof tile_name, "%dx%dx%d", tile.block_m, tile.block_n, tile.block_k);
    const char *verify_name = gemm->verify == VERIFY_OFF ? "off" : gemm->verify == VERIFY_CPU ? "cpu" : "gpu";
    const Field fields[] = {
        TEXT("mode", "gemm"),                        TEXT("type", TYPE_NAME),
        TEXT("mnk", SHAPE_NAME),                     INTEGER("transpose_a", TRANSPOSE_A),
        INTEGER("transpose_b", TRANSPOSE_B),         INTEGER("m", shape->m),
        INTEGER("n", shape->n),                      INTEGER("k", shape->k),
        TEXT("kernel", KERNEL_NAMES[options->kernel]), INTEGER("step", kernel_step(options->kernel)),
        REAL("alpha", "%.17g", (double)gemm->run.alpha),
        REAL("beta", "%.17g", (double)gemm->run.beta),
        INTEGER("seed", options->seed),              INTEGER("iterations", options->iterations),
        REAL("median_ms", "%.6f", gemm->timing.median_ms),
        REAL("min_ms", "%.6f", gemm->timing.min_ms),
        REAL("rate", "%.3f", RATE(gemm->timing, operations)),
        TEXT("unit", RATE_UNIT),                     TEXT("verify", verify_name),
        TEXT("result", gemm->verify == VERIFY_OFF ? "off" : gemm->verdict.failures ? "fail" : "pass"),
        INTEGER("failures", gemm->verdict.failures),
        REAL("max_err", "%.3e", gemm->verdict.worst_error),
        REAL("bound", "%.3e", gemm->verdict.worst_bound),
        INTEGER("worst_i", gemm->verdict.worst_i),   INTEGER("worst_j", gemm->verdict.worst_j),
        REAL("cublas_median_ms", "%.6f", gemm->cublas_ran ? gemm->cublas_timing.median_ms : NAN),
        REAL("cublas_rate", "%.3f", gemm->cublas_ran ? RATE(gemm->cublas_timing, operations) : NAN),
        TEXT("gpu", gpu->properties.name),           INTEGER("cc", gpu->cc),
        INTEGER("sms", gpu->properties.multiProcessorCount),
        TEXT("tile", tile_name),                     INTEGER("warps", tile.threads / 32),
        INTEGER("stages", tile.stages),              INTEGER("cluster", gemm->run.cluster),
        INTEGER("shared_bytes", tile.shared_bytes),  INTEGER("shared_budget", gpu->shared_budget),
        TEXT("copy_path", run_copy_path(gpu, &gemm->run)),
        INTEGER("split_tiles", gemm->run.split_tiles),
        INTEGER("cold_l2", options->cold_l2),       INTEGER("cublas_version", gemm->cublas_version),
        REAL("pad_ms", "%.3f", gemm->pad_ms),        REAL("h2d_ms", "%.3f", gemm->h2d_ms),
        REAL("d2h_ms", "%.3f", gemm->d2h_ms),        REAL("extract_ms", "%.3f", gemm->extract_ms),
        REAL("reference_ms", "%.3f", gemm->reference_ms),
    };
    report_fields(report, fields, sizeof fields / sizeof fields[0]);
}
#line 3884 "gemm.md"
static void print_text_report(const Report *report, const Gemm *gemm, const Options *options, const Gpu *gpu)
{
    const Shape *shape = &gemm->shape;
    const Verdict *verdict = &gemm->verdict;
    TileGeometry tile = run_tile(&gemm->run);
    const char *kernel_name = options->kernel == KERNEL_FAST ? "d_gemm" : KERNEL_NAMES[options->kernel];
    printf("%s, WMMA %s, TRANSPOSE_A=%d TRANSPOSE_B=%d on %s (sm_%d, %d SMs)\n", TYPE_NAME, SHAPE_NAME,
           TRANSPOSE_A, TRANSPOSE_B, gpu->properties.name, gpu->cc, gpu->properties.multiProcessorCount);
    if (options->kernel != KERNEL_NAIVE)
        printf("tiles    %d x %d x %d, %d warps, %d stages, clusters of %d, %.1f of %.1f KiB shared, %s\n",
               tile.block_m, tile.block_n, tile.block_k, tile.threads / 32, tile.stages, gemm->run.cluster,
               tile.shared_bytes / 1024.0, gpu->shared_budget / 1024.0,
               run_copy_path(gpu, &gemm->run));
    printf("problem  M=%d N=%d K=%d, padded to %d x %d x %d, alpha=%g beta=%g, seed %llu\n", shape->m,
           shape->n, shape->k, shape->m_padded, shape->n_padded, shape->k_padded, (double)gemm->run.alpha,
           (double)gemm->run.beta, options->seed);
    printf("%-8s median %.3f ms, min %.3f ms over %d runs: %s %s\n",
           kernel_name, gemm->timing.median_ms, gemm->timing.min_ms,
           options->iterations, report_get(report, "rate"), RATE_UNIT);
    if (gemm->cublas_ran)
        printf("cuBLAS   median %.3f ms: %s %s; this kernel reaches %.1f%% of it\n", gemm->cublas_timing.median_ms,
               report_get(report, "cublas_rate"), RATE_UNIT,
               100.0 * gemm->cublas_timing.median_ms / gemm->timing.median_ms);
    else if (options->cublas)
        printf("cuBLAS   not available for %s\n", TYPE_NAME);
    printf("host     pad %.1f ms, copy to GPU %.1f ms, copy back %.1f ms, extract %.1f ms, reference %.1f ms\n",
           gemm->pad_ms, gemm->h2d_ms, gemm->d2h_ms, gemm->extract_ms, gemm->reference_ms);
    if (gemm->verify == VERIFY_OFF)
        printf("verify   off\n");
    else
        printf("verify   %s reference: %s, %lld of %zu elements outside their bound; worst C[%d][%d]: "
               "error %.3e, bound %.3e\n", gemm->verify == VERIFY_CPU ? "cpu" : "gpu",
               verdict->failures ? "FAIL" : "PASS", verdict->failures, gemm->count_c, verdict->worst_i,
               verdict->worst_j, verdict->worst_error, verdict->worst_bound);
}

static void free_gemm(Gemm *gemm)
{
    if (gemm->run.prepare_a)
        CHECK_CUDA(cudaFree(gemm->run.a_tiled));
    if (gemm->run.prepare_b)
        CHECK_CUDA(cudaFree(gemm->run.b_tiled));
    CHECK_CUDA(cudaFree(gemm->run.a));
    CHECK_CUDA(cudaFree(gemm->run.b));
    CHECK_CUDA(cudaFree(gemm->run.c));
    CHECK_CUDA(cudaFree(gemm->run.slots));
    void *host[] = {gemm->a, gemm->b, gemm->c_in, gemm->c_out, gemm->a_padded, gemm->b_padded, gemm->c_padded,
                    gemm->expected, gemm->bound};
    for (size_t h = 0; h < sizeof host / sizeof host[0]; h++)
        free(host[h]);
}
#line 3939 "gemm.md"
static int run_gemm(const Options *options, const Gpu *gpu)
{
    Gemm gemm;
    memset(&gemm, 0, sizeof gemm);
    plan_memory(&gemm, options, gpu);
    make_inputs(&gemm, options);
    upload(&gemm, options, gpu);
    compute_reference(&gemm);
    run_once_and_check(&gemm, options);
    time_kernels(&gemm, options);

    Report report = {{NULL}, {{0}}, 0};
    report_gemm(&report, &gemm, options, gpu);
    if (options->print) {
        print_inputs("A", gemm.a, gemm.shape.rows_a, gemm.shape.cols_a);
        print_inputs("B", gemm.b, gemm.shape.rows_b, gemm.shape.cols_b);
        print_accums("C before", gemm.c_in, gemm.shape.m, gemm.shape.n);
        print_accums("C after", gemm.c_out, gemm.shape.m, gemm.shape.n);
    }
    if (options->format == FORMAT_TEXT)
        print_text_report(&report, &gemm, options, gpu);
    else
        report_print(&report, options->format);
    free_gemm(&gemm);
    return gemm.verdict.failures ? EXIT_VERIFY_FAILED : 0;
}
#line 3974 "gemm.md"
#define PEAK_ITERATIONS 16384

typedef struct {
    input_t *a, *b;
    accum_t *c;
    int blocks;
} PeakRun;

static void launch_peak(const void *context)
{
    const PeakRun *peak = (const PeakRun *)context;
    d_peak<<<peak->blocks, PEAK_WARPS * 32>>>(peak->a, peak->b, peak->c, PEAK_ITERATIONS);
    CHECK_LAUNCH();
}

static int run_peak(const Options *options, const Gpu *gpu)
{
    size_t count = PEAK_LD * PEAK_LD;
    PeakRun peak = {NULL, NULL, NULL, gpu->properties.multiProcessorCount * 4};
    size_t bytes_c = (size_t)peak.blocks * PEAK_WARPS * FRAG_M * FRAG_N * sizeof(accum_t);
    input_t *host = (input_t *)allocate(count * sizeof(input_t), "the peak operands");
    CHECK_CUDA(cudaMalloc(&peak.a, count * sizeof(input_t)));
    CHECK_CUDA(cudaMalloc(&peak.b, count * sizeof(input_t)));
    CHECK_CUDA(cudaMalloc(&peak.c, bytes_c));
    fill_input(host, count, options->seed, 4);
    CHECK_CUDA(cudaMemcpy(peak.a, host, count * sizeof(input_t), cudaMemcpyHostToDevice));
    fill_input(host, count, options->seed, 5);
    CHECK_CUDA(cudaMemcpy(peak.b, host, count * sizeof(input_t), cudaMemcpyHostToDevice));

    Timing timing = time_runs(launch_peak, &peak, options->warmup, options->iterations, &NO_EVICTION);
    double operations = 2.0 * FRAG_M * FRAG_N * FRAG_K * PEAK_CHAINS * PEAK_ITERATIONS * peak.blocks * PEAK_WARPS;
    double rate = operations / (timing.median_ms * 1e-3) / 1e12;
    double hopper_ms = 0.0, hopper_rate = hopper_peak(options, gpu, &hopper_ms);   /* 0: no wgmma here */
    if (options->format == FORMAT_TEXT) {
        printf("%s, WMMA %s on %s: mma_sync from registers runs at %.1f %s (median of %d runs, %.3f ms)\n",
               TYPE_NAME, SHAPE_NAME, gpu->properties.name, rate, RATE_UNIT, options->iterations, timing.median_ms);
        if (hopper_rate > 0)
            printf("%s on %s: wgmma from shared memory runs at %.1f %s (median of %d runs, %.3f ms)\n", TYPE_NAME,
                   gpu->properties.name, hopper_rate, RATE_UNIT, options->iterations, hopper_ms);
    } else {
        const Field fields[] = {
            TEXT("mode", "peak"),     TEXT("type", TYPE_NAME),   TEXT("mnk", SHAPE_NAME),
            REAL("median_ms", "%.6f", timing.median_ms),         REAL("rate", "%.3f", rate),
            REAL("hopper_rate", "%.3f", hopper_rate > 0 ? hopper_rate : NAN),
            TEXT("unit", RATE_UNIT),  TEXT("gpu", gpu->properties.name),
            INTEGER("cc", gpu->cc),   INTEGER("sms", gpu->properties.multiProcessorCount),
        };
        Report report = {{NULL}, {{0}}, 0};
        report_fields(&report, fields, sizeof fields / sizeof fields[0]);
        report_print(&report, options->format);
    }
    CHECK_CUDA(cudaFree(peak.a));
    CHECK_CUDA(cudaFree(peak.b));
    CHECK_CUDA(cudaFree(peak.c));
    free(host);
    return 0;
}
/* ==== main ==== */
#line 4042 "gemm.md"
#define MAX_SHAPES 4096

/* --shapes=FILE: one "M N K" a line, blank lines and # comments skipped, each checked as the command
   line's sizes are. The count, or -1 with the file, line and reason in `error`. */
static int read_shapes(const char *path, const Options *options, int (*shapes)[3], char *error,
                       size_t error_size)
{
    FILE *file = fopen(path, "r");
    if (file == NULL)
        die(EXIT_IO_ERROR, "cannot read --shapes file '%s': %s", path, strerror(errno));
    char line[256], why[200] = "";
    int count = 0;
    for (int number = 1; fgets(line, sizeof line, file) != NULL; number++) {
        char text[4][32], *sizes[3] = {text[0], text[1], text[2]};
        int found = sscanf(line, "%31s %31s %31s %31s", text[0], text[1], text[2], text[3]);
        Options one = *options;
        if (strchr(line, '\n') == NULL && !feof(file))
            snprintf(why, sizeof why, "a line longer than %d characters", (int)sizeof line - 2);
        else if (found <= 0 || text[0][0] == '#')
            continue;
        else if (count == MAX_SHAPES)
            snprintf(why, sizeof why, "more than %d shapes", MAX_SHAPES);
        else if (parse_sizes(found, sizes, &one, why, sizeof why) == 0) {
            shapes[count][0] = one.m, shapes[count][1] = one.n, shapes[count][2] = one.k;
            count++;
            continue;
        }
        snprintf(error, error_size, "--shapes=%s, line %d: %s", path, number, why);
        fclose(file);
        return -1;
    }
    fclose(file);
    if (count == 0)
        snprintf(error, error_size, "--shapes=%s holds no M N K line", path);
    return count > 0 ? count : -1;
}

/* One run per shape, one report each; the exit status is the worst. */
static int run_shapes(const Options *options, const Gpu *gpu, int (*shapes)[3], int count)
{
    int worst = 0;
    for (int s = 0; s < count; s++) {
        Options one = *options;
        one.m = shapes[s][0], one.n = shapes[s][1], one.k = shapes[s][2];
        int status = run_gemm(&one, gpu);
        worst = status > worst ? status : worst;
    }
    return worst;
}
#line 4094 "gemm.md"
static int self_test(void);   /* the appendix */

int main(int argc, char **argv)
{
    Options options;
    char error[256] = "";
    if (parse_options(argc, argv, &options, error, sizeof error) != 0)
        die(EXIT_USAGE, "%s (see gemm --help)", error);
    if (options.help) {
        print_usage(stdout);
        return 0;
    }
    if (options.self_test)
        return self_test();
    static int shapes[MAX_SHAPES][3];
    int count = options.shapes ? read_shapes(options.shapes, &options, shapes, error, sizeof error) : 0;
    if (count < 0)
        die(EXIT_USAGE, "%s", error);
    Gpu gpu;
    select_gpu(&gpu, &options);
    if (options.peak)
        return run_peak(&options, &gpu);
    return options.shapes ? run_shapes(&options, &gpu, shapes, count) : run_gemm(&options, &gpu);
}
/* ==== Past WMMA: Hopper's warpgroup MMA ==== */
#line 4369 "gemm.md"
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define HOPPER_BUILT 1   /* this compilation is for sm_90a: wgmma and setmaxnreg exist */
#else
#define HOPPER_BUILT 0
#endif
#define HOPPER_WGMMA (TYPE_PAIR != PAIR_F64_IN_OUT)   /* f64 has no wgmma: its consumers use mma.sync */
#define HOPPER_16BIT (TYPE_PAIR == PAIR_F16_IN_F32_OUT || TYPE_PAIR == PAIR_F16_IN_OUT || \
                      TYPE_PAIR == PAIR_BF16_IN_F32_OUT)
#define HOPPER_MN_OK HOPPER_16BIT   /* operands read MN-major as well as K-major (by descriptor) */
#define HOPPER_ROW 128                             /* bytes per row of the swizzled layout */
#define HOPPER_K (32 / (int)sizeof(input_t))       /* K of one wgmma */

__device__ int hopper_built = HOPPER_BUILT;   /* what the host asks: was the GPU's code built for sm_90a? */

/* A wgmma operand in shared memory: start address, leading and stride byte offsets, 128-byte swizzle. */
__device__ static inline unsigned long long operand_descriptor(const void *start, unsigned leading, unsigned stride)
{
    return (unsigned long long)(shared_address(start) >> 4 & 0x3FFF) |
           (unsigned long long)(leading >> 4 & 0x3FFF) << 16 |
           (unsigned long long)(stride >> 4 & 0x3FFF) << 32 | 1ull << 62;
}
#line 4393 "gemm.md"
/* The A and B below are roles: the kernel's A (64 rows per wgmma) and B (read by descriptor). With B as stored,
   tf32 swaps them in every tile, int8 and uint8 in step 9's small tiles (tf32: B as stored, below):
   C^T = B^T A^T, B in A's role and the tile stored transposed. Each macro takes s, the tile's `swapped`. */
#define HOPPER_SWAPS ((TYPE_PAIR == PAIR_TF32_IN_F32_OUT || IS_INTEGER) && !TRANSPOSE_B)   /* some tile swaps */
#define HOPPER_SWAP_ALL (HOPPER_SWAPS && TYPE_PAIR == PAIR_TF32_IN_F32_OUT)                /* every tile swaps */
#define HOPPER_A_STORED_MN(s) ((s) || TRANSPOSE_A)                          /* A's role is stored MN-major */
#define HOPPER_B_STORED_MN(s) ((s) ? TRANSPOSE_A : !TRANSPOSE_B)            /* B's role is stored MN-major */
#define HOPPER_A_REGS(s) (HOPPER_A_STORED_MN(s) && (TYPE_PAIR == PAIR_TF32_IN_F32_OUT || (s)))   /* in registers */
#define HOPPER_PAIRED(s) (IS_INTEGER && HOPPER_A_REGS(s))   /* 8-bit A in registers: a thread's two rows adjacent */
/* A's role stored MN-major: elements per panel along M. 8-bit A in registers takes 64-byte panels with the 64-byte
   swizzle, since a 64-row tile has no 128-byte row along M. */
#define HOPPER_A_PANEL(s) (HOPPER_PAIRED(s) ? 64 : HOPPER_ROW / (int)sizeof(input_t))
#define HOPPER_A_MN(s) (HOPPER_A_STORED_MN(s) && (HOPPER_MN_OK || HOPPER_A_REGS(s)))   /* A's role read as stored */
#define HOPPER_B_MN(s) (HOPPER_B_STORED_MN(s) && HOPPER_MN_OK)                        /* B's role read as stored */
#define HOPPER_TRANSPOSE_A(s) (HOPPER_A_STORED_MN(s) && !HOPPER_A_MN(s))   /* A's role transposed to K-major first */
#define HOPPER_TRANSPOSE_B(s) (HOPPER_B_STORED_MN(s) && !HOPPER_B_MN(s))   /* B's role transposed to K-major first */
#define HOPPER_ANY_A_REGS (HOPPER_A_REGS(0) || HOPPER_A_REGS(HOPPER_SWAPS))     /* some tile loads A's role */
#line 4428 "gemm.md"
enum {   /* the steps of d_gemm_hopper: --kernel=hopper1 .. hopper10 (hopper10 is --kernel=hopper's step) */
    HOPPER_ALONE = 1,          /* wgmma on swizzled slabs; one warpgroup copies and multiplies */
    HOPPER_PRODUCER,           /* a producer warpgroup copies, one consumer warpgroup multiplies */
    HOPPER_TWO_CONSUMERS,      /* two consumers: twice the rows per slab of B */
    HOPPER_IN_FLIGHT,          /* one wgmma group in flight while the next is issued */
    HOPPER_CLUSTER,            /* clusters of two along M share B's slabs */
    HOPPER_PERSISTENT,         /* as many clusters as fit at once, each looping over tiles */
    HOPPER_SPLIT,              /* a short last round of tiles split along K among all clusters */
    HOPPER_FILL,               /* at most half as many tiles as clusters: all of them split along K */
    HOPPER_BY_SHAPE,           /* the tile chosen by the problem's shape, from HOPPER_TILES (hopper_kind) */
    HOPPER_STAGED,             /* step 9's tiles; the 128 x 256 one stores C through shared memory */
    HOPPER_LAST = HOPPER_STAGED,
    /* not steps: the other tiles steps 9 and 10 choose from */
    HOPPER_SHORT,              /* F16_IN_OUT: 64 rows per consumer, as the other type pairs have */
    HOPPER_NARROW,             /* 64 x 128, one consumer, no cluster, more stages: for small M */
    HOPPER_NARROW_64,          /* 64 x 64, the same: twice the tiles */
    HOPPER_MEDIUM,             /* 128 x 128, two consumers, clusters of two along N sharing A */
    HOPPER_NARROW_192,         /* 64 x 192, one consumer: a third fewer tiles than 64 x 128 */
    HOPPER_SWAPPED_64,         /* roles swapped (B as stored: tf32, int8, uint8): 128 x 64, two consumers, no cluster */
    HOPPER_SWAPPED_128,        /* the same, 128 x 128 */
    HOPPER_KINDS_END
};

/* d_gemm_hopper for every step, then step 9's other tiles; steps before the last only in builds with them
   (WITH_STEPS), HOPPER_SHORT only for F16_IN_OUT (for the others it is the last step's tile), the tiles after
   HOPPER_NARROW only for the wgmma type pairs (f64 keeps 64 x 128), the swapped ones only where the roles swap. */
#define HOPPER_STEP_BUILT(step)                                                     \
    ((step) == HOPPER_SHORT          ? TYPE_PAIR == PAIR_F16_IN_OUT                 \
     : (step) == HOPPER_NARROW       ? true                                         \
     : (step) >= HOPPER_SWAPPED_64   ? (bool)HOPPER_SWAPS                           \
     : (step) > HOPPER_NARROW        ? (bool)HOPPER_WGMMA                           \
                                     : WITH_STEPS || (step) == HOPPER_LAST)
#define HOPPER_BUILT_KIND(step) (HOPPER_STEP_BUILT(step) ? (step) : HOPPER_LAST)
#line 4466 "gemm.md"
typedef struct {
    int block_m, block_n, block_k;   /* the block tile; block_k: the elements of K in one 128-byte row */
    int consumers;                   /* warpgroups that multiply, block_m / consumers rows each */
    bool producer;                   /* a warpgroup that only copies (step 2 on); before, the consumer copies */
    int stages;                      /* slabs in shared memory */
    int pending;                     /* wgmma groups a consumer leaves in flight: 0 or 1 */
    int cluster;                     /* blocks per cluster: along M sharing B's slabs, or (share_a) along N */
    bool share_a;                    /* step 9's 128-row tiles: the cluster's blocks side by side share A's slabs */
    int cluster_m, cluster_n;        /* the cluster tile: its rows and columns of C */
    bool persistent;                 /* a grid of what fits at once, each cluster looping over tiles */
    bool split;                      /* a short last round split along K (step 7, "The last round") */
    bool fill;                       /* too few tiles to fill the GPU: all split (step 8) */
    bool memory_bound;               /* step 9's small tiles: a tile's time counts its bytes too */
    bool swapped;                    /* roles swapped, C^T = B^T A^T (the role macros' s) */
    bool a_regs;                     /* A's role loaded into registers (HOPPER_A_REGS) */
    bool staged;                     /* step 10: C stored through a buffer of STAGED_BYTES per consumer warp */
    int threads;                     /* the consumers and the producer warpgroup */
    int a_bytes, b_bytes;            /* one slab of each */
    int shared_bytes;                /* the stages, the barriers, the buffers, 1 KiB to align the first slab */
} HopperTile;
#line 4491 "gemm.md"
#define HOPPER_SHARED (227 * 1024)   /* shared memory a block of a 9.0 GPU may have */
/* Stages that fit beside the 1 KiB of alignment: a stage is its two slabs and its two 8-byte barriers. */
#define HOPPER_STAGES_FIT(stage_bytes) ((HOPPER_SHARED - 1024) / ((stage_bytes) + 16))
#define STAGED_COLS 32                                           /* columns of C per pass through a buffer (step 10) */
#define STAGED_ELEMENTS (16 * STAGED_COLS)                       /* a warp's buffer: 16 rows of them */
#define STAGED_BYTES (STAGED_ELEMENTS * (int)sizeof(accum_t))

__host__ __device__ constexpr HopperTile hopper_tile(int step = HOPPER_LAST)
{
    HopperTile tile = {};
    bool small = step >= HOPPER_NARROW;   /* step 9's tiles for small M or N */
    bool tall = TYPE_PAIR == PAIR_F16_IN_OUT && step != HOPPER_SHORT && !small;   /* half accumulators: 128 rows */
    bool swapped = step == HOPPER_SWAPPED_64 || step == HOPPER_SWAPPED_128;   /* two consumers, no cluster */
    tile.swapped = HOPPER_SWAP_ALL || (HOPPER_SWAPS && small);   /* tf32: every tile; 8-bit: step 9's small ones */
    tile.a_regs = (tile.swapped || TRANSPOSE_A) && (tile.swapped || TYPE_PAIR == PAIR_TF32_IN_F32_OUT);   /* HOPPER_A_REGS */
    tile.consumers = (step >= HOPPER_TWO_CONSUMERS && !small) || step == HOPPER_MEDIUM || swapped ? 2 : 1;
    tile.block_m = (tall ? 128 : 64) * tile.consumers;
    bool n64 = step == HOPPER_NARROW_64 || step == HOPPER_SWAPPED_64;   /* block_n, where not 256 */
    bool n128 = step == HOPPER_NARROW || step == HOPPER_MEDIUM || step == HOPPER_SWAPPED_128;
    bool n192 = step == HOPPER_NARROW_192;
    int columns = n64 ? 64 : n128 ? 128 : n192 ? 192 : 256;
    tile.block_n = HOPPER_WGMMA ? columns : 128;   /* f64: 64 accumulators per thread, 128 registers */
    tile.block_k = HOPPER_ROW / (int)sizeof(input_t);
    tile.a_bytes = tile.block_m * HOPPER_ROW;
    tile.b_bytes = tile.block_n * HOPPER_ROW;
    tile.stages = tall ? 3 : HOPPER_WGMMA ? 4 : 6;
    if (small)   /* as many stages as the 227 KiB hold */
        tile.stages = HOPPER_STAGES_FIT(tile.a_bytes + tile.b_bytes);
    tile.pending = step >= HOPPER_IN_FLIGHT ? 1 : 0;
    tile.cluster = step >= HOPPER_CLUSTER && (!small || tile.consumers == 2) && !swapped ? 2 : 1;
    tile.share_a = small && tile.cluster > 1;   /* step 9's 128-row tiles */
    tile.cluster_m = tile.share_a ? tile.block_m : tile.block_m * tile.cluster;
    tile.cluster_n = tile.share_a ? tile.block_n * tile.cluster : tile.block_n;
    tile.persistent = step >= HOPPER_PERSISTENT;
    tile.split = step >= HOPPER_SPLIT;
    tile.fill = step >= HOPPER_FILL;
    tile.memory_bound = small;
    tile.staged = step == HOPPER_STAGED && HOPPER_WGMMA && !tile.swapped;
    tile.producer = step >= HOPPER_PRODUCER;
    tile.threads = (tile.consumers + tile.producer) * 128;
    tile.shared_bytes = 1024 + tile.stages * (tile.a_bytes + tile.b_bytes) + 2 * tile.stages * 8 +
                        (tile.staged ? tile.consumers * 4 * STAGED_BYTES : 0);
    return tile;
}
static_assert(hopper_tile(HOPPER_STAGED).shared_bytes <= HOPPER_SHARED, "step 10's buffers fit beside its stages");
#line 4542 "gemm.md"
__device__ static inline unsigned long long slab_descriptor(const unsigned char *slab, bool mn_major, int first,
                                                            int k_step)
{
    constexpr int panel = HOPPER_ROW / (int)sizeof(input_t), block_k = hopper_tile().block_k;
    if (mn_major)   /* panels of `panel` elements along M or N, block_k rows of K each */
        return operand_descriptor(slab + (first / panel * block_k + k_step * HOPPER_K) * HOPPER_ROW,
                                  block_k * HOPPER_ROW, 8 * HOPPER_ROW);
    /* K-major: a wgmma's K lies within one swizzled 128-byte row, so the leading offset is not used; 16 fills it */
    return operand_descriptor(slab + first * HOPPER_ROW + k_step * HOPPER_K * (int)sizeof(input_t), 16,
                              8 * HOPPER_ROW);
}
#line 4577 "gemm.md"
#define WGMMA_L16 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
#define WGMMA_L32 WGMMA_L16 ", %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define WGMMA_L48 WGMMA_L32 ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47"
#define WGMMA_L64 WGMMA_L48 ", %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define WGMMA_L96 WGMMA_L64 ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define WGMMA_L128 WGMMA_L96 ", %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, " \
    "%110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define WGMMA_D8(c, d, i) c(d[i]), c(d[i + 1]), c(d[i + 2]), c(d[i + 3]), c(d[i + 4]), c(d[i + 5]), \
    c(d[i + 6]), c(d[i + 7])
#define WGMMA_D16(c, d, i) WGMMA_D8(c, d, i), WGMMA_D8(c, d, i + 8)
#define WGMMA_D32(c, d, i) WGMMA_D16(c, d, i), WGMMA_D16(c, d, i + 16)
#define WGMMA_D48(c, d, i) WGMMA_D32(c, d, i), WGMMA_D16(c, d, i + 32)
#define WGMMA_D64(c, d, i) WGMMA_D32(c, d, i), WGMMA_D32(c, d, i + 32)
#define WGMMA_D96(c, d, i) WGMMA_D64(c, d, i), WGMMA_D32(c, d, i + 64)
#define WGMMA_D128(c, d, i) WGMMA_D64(c, d, i), WGMMA_D64(c, d, i + 64)
#define WGMMA_SCALE_D(index) "{\n .reg .pred p;\n setp.ne.b32 p, %" #index ", 0;\n wgmma.mma_async.sync.aligned."
#line 4599 "gemm.md"
#if TYPE_PAIR == PAIR_F16_IN_OUT
#define WGMMA_TYPES "k16.f16.f16.f16"
#elif TYPE_PAIR == PAIR_F16_IN_F32_OUT
#define WGMMA_TYPES "k16.f32.f16.f16"
#elif TYPE_PAIR == PAIR_BF16_IN_F32_OUT
#define WGMMA_TYPES "k16.f32.bf16.bf16"
#elif TYPE_PAIR == PAIR_TF32_IN_F32_OUT
#define WGMMA_TYPES "k8.f32.tf32.tf32"
#elif TYPE_PAIR == PAIR_I8_IN_I32_OUT
#define WGMMA_TYPES "k32.s32.s8.s8"
#elif TYPE_PAIR == PAIR_U8_IN_I32_OUT
#define WGMMA_TYPES "k32.s32.u8.u8"
#endif

/* After the accumulators: A's and B's descriptors (operands ia, ib), then what each type pair has: negation for
   the floating types, the transposes (operands ta, tb) for the 16-bit ones. */
#if HOPPER_16BIT
#define WGMMA_TAIL(ia, ib, ta, tb) "}, %" #ia ", %" #ib ", p, 1, 1, %" #ta ", %" #tb ";\n}\n"
#define WGMMA_IN(a, b, scale) "l"(a), "l"(b), "r"((int)(scale)), "n"(HOPPER_A_MN(0)), "n"(HOPPER_B_MN(0))   /* never swapped */
#elif TYPE_PAIR == PAIR_TF32_IN_F32_OUT
#define WGMMA_TAIL(ia, ib, ta, tb) "}, %" #ia ", %" #ib ", p, 1, 1;\n}\n"
#define WGMMA_IN(a, b, scale) "l"(a), "l"(b), "r"((int)(scale))
#else
#define WGMMA_TAIL(ia, ib, ta, tb) "}, %" #ia ", %" #ib ", p;\n}\n"
#define WGMMA_IN(a, b, scale) "l"(a), "l"(b), "r"((int)(scale))
#endif
/* One wgmma of 64 x n: its accumulator list and operands, and the number of the scale-d operand. */
#define WGMMA_N(n, list, outputs, is, tail, a, b, scale) \
    asm volatile(WGMMA_SCALE_D(is) "m64n" #n WGMMA_TYPES " {" list tail : outputs : WGMMA_IN(a, b, scale))
/* For fp16 at n = 256 (WGMMA_256, below) the text comes out as
     { .reg .pred p; setp.ne.b32 p, %130, 0;
       wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, ..., %127}, %128, %129, p, 1, 1, %131, %132; }
   %0 to %127 the accumulators, %128 and %129 A's and B's descriptors, %130 scale-d, %131 and %132 tA and tB. */
#line 4638 "gemm.md"

#if TYPE_PAIR == PAIR_F16_IN_OUT
typedef unsigned wgmma_acc_t;   /* two halves per register: n / 4 registers */
#define WGMMA_REGS 64           /* for n = 256 */
#define WGMMA_256(d, a, b, s) WGMMA_N(256, WGMMA_L64, WGMMA_D64("+r", d, 0), 66, WGMMA_TAIL(64, 65, 67, 68), a, b, s)
#define WGMMA_192(d, a, b, s) WGMMA_N(192, WGMMA_L48, WGMMA_D48("+r", d, 0), 50, WGMMA_TAIL(48, 49, 51, 52), a, b, s)
#define WGMMA_128(d, a, b, s) WGMMA_N(128, WGMMA_L32, WGMMA_D32("+r", d, 0), 34, WGMMA_TAIL(32, 33, 35, 36), a, b, s)
#define WGMMA_64(d, a, b, s) WGMMA_N(64, WGMMA_L16, WGMMA_D16("+r", d, 0), 18, WGMMA_TAIL(16, 17, 19, 20), a, b, s)
#elif HOPPER_WGMMA
#if IS_INTEGER
typedef int wgmma_acc_t;
#define WGMMA_OUT "+r"
#else
typedef float wgmma_acc_t;
#define WGMMA_OUT "+f"
#endif
#define WGMMA_REGS 128          /* n / 2 registers: 128 for n = 256 */
#define WGMMA_256(d, a, b, s) \
    WGMMA_N(256, WGMMA_L128, WGMMA_D128(WGMMA_OUT, d, 0), 130, WGMMA_TAIL(128, 129, 131, 132), a, b, s)
#define WGMMA_192(d, a, b, s) WGMMA_N(192, WGMMA_L96, WGMMA_D96(WGMMA_OUT, d, 0), 98, WGMMA_TAIL(96, 97, 99, 100), a, b, s)
#define WGMMA_128(d, a, b, s) WGMMA_N(128, WGMMA_L64, WGMMA_D64(WGMMA_OUT, d, 0), 66, WGMMA_TAIL(64, 65, 67, 68), a, b, s)
#define WGMMA_64(d, a, b, s) WGMMA_N(64, WGMMA_L32, WGMMA_D32(WGMMA_OUT, d, 0), 34, WGMMA_TAIL(32, 33, 35, 36), a, b, s)
#else
typedef double wgmma_acc_t;   /* f64: 16 rows x 64 columns of mma.sync results, laid out as wgmma's */
#define WGMMA_REGS 32
#endif
/* Accumulator registers per thread for one 64-row wgmma of a tile of `step` (f64: one 16 x 64 subtile). */
#define HOPPER_REGS(step) (HOPPER_WGMMA ? WGMMA_REGS * hopper_tile(step).block_n / 256 : WGMMA_REGS)

#if HOPPER_WGMMA
/* wgmma of 64 x N x HOPPER_K from A's descriptor and B's into d; scale false starts d from zero. */
template <int N>
__device__ static inline void wgmma(wgmma_acc_t (&d)[WGMMA_REGS * N / 256], unsigned long long a, unsigned long long b,
                                    bool scale)
{
    static_assert(N == 256 || N == 192 || N == 128 || N == 64, "wgmma widths this kernel uses");
    if constexpr (N == 256)
        WGMMA_256(d, a, b, scale);
    else if constexpr (N == 192)
        WGMMA_192(d, a, b, scale);
    else if constexpr (N == 128)
        WGMMA_128(d, a, b, scale);
    else
        WGMMA_64(d, a, b, scale);
}
#endif
#line 4694 "gemm.md"
#if HOPPER_BUILT
#define HOPPER_ASM(text) asm volatile(text ::: "memory")
#else
#define HOPPER_ASM(text)
#endif
#if HOPPER_BUILT && HOPPER_WGMMA
#define WGMMA_ASM(text) asm volatile(text ::: "memory")
#else
#define WGMMA_ASM(text)
#endif
__device__ static inline void wgmma_fence(void) { WGMMA_ASM("wgmma.fence.sync.aligned;\n"); }
__device__ static inline void wgmma_commit(void) { WGMMA_ASM("wgmma.commit_group.sync.aligned;\n"); }
template <int PENDING>
__device__ static inline void wgmma_wait(void)
{
#if HOPPER_BUILT && HOPPER_WGMMA
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
#endif
}
__device__ static inline void producer_registers(void) { HOPPER_ASM("setmaxnreg.dec.sync.aligned.u32 40;\n"); }
__device__ static inline void consumer_registers(void) { HOPPER_ASM("setmaxnreg.inc.sync.aligned.u32 232;\n"); }

__device__ static inline void settle(float &r) { asm volatile("" : "+f"(r)::"memory"); }
__device__ static inline void settle(unsigned &r) { asm volatile("" : "+r"(r)::"memory"); }
__device__ static inline void settle(int &r) { asm volatile("" : "+r"(r)::"memory"); }
__device__ static inline void settle(double &r) { asm volatile("" : "+d"(r)::"memory"); }
#line 4736 "gemm.md"
/* Requests the slab k_tile of an operand from row (along M or N) mn0 on, into `slab`. */
__device__ static inline void copy_operand(void *slab, const CUtensorMap *map, bool mn_major, int mn0, int k_tile,
                                           unsigned long long *full, unsigned short mask,
                                           int panel = HOPPER_ROW / (int)sizeof(input_t))
{
    constexpr int block_k = hopper_tile().block_k;
    if (mn_major)
        copy_tensor(slab, map, k_tile * block_k, mn0 / panel, full, mask);
    else
        copy_tensor(slab, map, mn0, k_tile, full, mask);
}

/* Where a block's tile number `index` of C lies: clusters take tiles in groups of GROUP_ROWS rows (block_position,
   d_gemm's step 6, block order for L2 reuse), and the block of rank `rank` takes its cluster tile's rows from
   rank * block_m (share_a: columns from rank * block_n). */
template <int STEP>
__device__ static inline void hopper_position(int index, int rank, const Shape *shape, int *m0, int *n0)
{
    constexpr HopperTile tile = hopper_tile(STEP);
    int row, col;
    block_position(index, 1, GROUP_ROWS, shape->m_padded / tile.cluster_m, shape->n_padded / tile.cluster_n, &row,
                   &col);
    *m0 = row * tile.cluster_m + (tile.share_a ? 0 : rank * tile.block_m);
    *n0 = col * tile.cluster_n + (tile.share_a ? rank * tile.block_n : 0);
}
#line 4767 "gemm.md"
/* A block's work (from step 5, its cluster's), one piece at a time: slabs k_begin .. k_end - 1 of tile number
   `tile`. A piece is a whole tile, except where steps 7 and 8 split tiles along K ("The last round"). */
typedef struct {
    int tile, k_begin, k_end;
    int slot;   /* the last round's pieces: where the piece's sums go */
} Piece;

/* Step 7's last round: tiles from `whole` on are cut into pieces, whose sums go to `slots`. */
typedef struct {
    int whole;
    accum_t *slots;
} LastRound;

template <int STEP, bool PIECES>
__device__ static inline bool next_piece(int n, const Shape *shape, const LastRound *last, Piece *piece);

/* One thread requests slab k_tile of A and of B, from rows m0 and n0 of C on, into buffer s; full[s] completes
   when both have arrived. */
template <int STEP>
__device__ static inline void request_stage(unsigned char *slabs, int s, unsigned long long *full,
                                            const CUtensorMap *a_map, const CUtensorMap *b_map, int m0, int n0,
                                            int k_tile, int rank)
{
    constexpr HopperTile tile = hopper_tile(STEP);
    unsigned char *a_slab = slabs + s * (tile.a_bytes + tile.b_bytes), *b_slab = a_slab + tile.a_bytes;
    barrier_arrive_expect(&full[s], tile.a_bytes + tile.b_bytes);
    unsigned short everyone = tile.cluster > 1 ? (1 << tile.cluster) - 1 : 0;   /* multicast to the cluster */
    if (tile.share_a) {   /* rank 0 requests A's slab for every block; each block its own B */
        if (rank == 0)
            copy_operand(a_slab, a_map, HOPPER_A_MN(tile.swapped), m0, k_tile, &full[s], everyone,
                         HOPPER_A_PANEL(tile.swapped));
        copy_operand(b_slab, b_map, HOPPER_B_MN(tile.swapped), n0, k_tile, &full[s], 0);
        return;
    }
    copy_operand(a_slab, a_map, HOPPER_A_MN(tile.swapped), m0, k_tile, &full[s], 0, HOPPER_A_PANEL(tile.swapped));
    if (tile.cluster > 1)   /* step 5: this block's share of B's slab, to every block of the cluster */
        copy_operand(b_slab + rank * (tile.b_bytes / tile.cluster), b_map, HOPPER_B_MN(tile.swapped),
                     n0 + rank * (tile.block_n / tile.cluster), k_tile, &full[s], everyone);
    else
        copy_operand(b_slab, b_map, HOPPER_B_MN(tile.swapped), n0, k_tile, &full[s], 0);
}
#line 4813 "gemm.md"
/* Accumulator sets per consumer thread: one per 64-row wgmma (f64: one per 16-row mma.sync of a warp's 32 rows). */
#define HOPPER_SUBTILES(step) (HOPPER_WGMMA ? hopper_tile(step).block_m / hopper_tile(step).consumers / 64 : 2)

/* Slab n of a piece (numbered from 0) into the accumulators d; slab 0 starts them from zero. */
template <int STEP>
__device__ static inline void multiply_slab(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)],
                                            const unsigned char *a_slab, const unsigned char *b_slab, int consumer,
                                            int n);

/* The accumulators, once their last wgmma is done: settled, so that no later read is moved before the wait. */
template <int STEP>
__device__ static inline void settle_accumulators(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)])
{
#pragma unroll
    for (int sub = 0; sub < HOPPER_SUBTILES(STEP); sub++)
#pragma unroll
        for (int r = 0; r < HOPPER_REGS(STEP); r++)
            settle(d[sub][r]);
}

/* Step 1, without a producer: the warpgroup's first thread requests the first `stages` slabs of the piece; once
   the warpgroup's wgmmas on a slab are done, it requests the slab `stages` further on into the same buffer. */
template <int STEP>
__device__ static inline void copy_and_consume(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)],
                                               unsigned char *slabs, unsigned long long *full,
                                               const CUtensorMap *a_map, const CUtensorMap *b_map,
                                               const Piece *piece, int m0, int n0)
{
    constexpr HopperTile tile = hopper_tile(STEP);
    int slabs_k = piece->k_end - piece->k_begin;   /* a step-1 block has one piece: buffers and phases from 0 */
    if (threadIdx.x == 0)
        for (int n = 0; n < tile.stages && n < slabs_k; n++)
            request_stage<STEP>(slabs, n, full, a_map, b_map, m0, n0, piece->k_begin + n, 0);
    for (int n = 0; n < slabs_k; n++) {
        int s = n % tile.stages;
        barrier_wait(&full[s], n / tile.stages);
        const unsigned char *a_slab = slabs + s * (tile.a_bytes + tile.b_bytes), *b_slab = a_slab + tile.a_bytes;
        multiply_slab<STEP>(d, a_slab, b_slab, 0, n);
        wgmma_wait<0>();
        __syncthreads();   /* every warp's wgmmas are done with buffer s */
        if (threadIdx.x == 0 && n + tile.stages < slabs_k)
            request_stage<STEP>(slabs, s, full, a_map, b_map, m0, n0, piece->k_begin + n + tile.stages, 0);
    }
    settle_accumulators<STEP>(d);
}
#line 4864 "gemm.md"
#if HOPPER_WGMMA
template <int STEP>   /* A's role from registers (tf32; 8-bit with the roles swapped): step 9 */
__device__ static inline void multiply_regs(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)],
                                            const unsigned char *a_slab, const unsigned char *b_slab, int consumer,
                                            int n);

template <int STEP>
__device__ static inline void multiply_slab(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)],
                                            const unsigned char *a_slab, const unsigned char *b_slab, int consumer,
                                            int n)
{
    constexpr HopperTile tile = hopper_tile(STEP);
    if constexpr (tile.a_regs) {
        multiply_regs<STEP>(d, a_slab, b_slab, consumer, n);
    } else {
        wgmma_fence();
#pragma unroll
        for (int k_step = 0; k_step < tile.block_k / HOPPER_K; k_step++)
#pragma unroll
            for (int sub = 0; sub < HOPPER_SUBTILES(STEP); sub++)
                wgmma<tile.block_n>(d[sub],
                                    slab_descriptor(a_slab, HOPPER_A_MN(tile.swapped),
                                                    (consumer * HOPPER_SUBTILES(STEP) + sub) * 64, k_step),
                                    slab_descriptor(b_slab, HOPPER_B_MN(tile.swapped), 0, k_step),
                                    n != 0 || k_step > 0);
        wgmma_commit();
    }
}
#endif
#line 4909 "gemm.md"
typedef struct __align__(2 * sizeof(accum_t)) {
    accum_t value[2];
} AccumPair;

/* Element e (0 or 1) of pair `half` (0: upper row, 1: eight rows below) of columns 8j.. of the accumulators. */
template <int REGS>
__device__ static inline accum_t accumulator(const wgmma_acc_t (&d)[REGS], int j, int half, int e)
{
#if TYPE_PAIR == PAIR_F16_IN_OUT
    return __ushort_as_half((unsigned short)(d[2 * j + half] >> (16 * e)));
#else
    return (accum_t)d[(4 * j + 2 * half + e) % REGS];
#endif
}

#define HOPPER_COLS(step) (HOPPER_WGMMA ? hopper_tile(step).block_n : 64)   /* columns of one accumulator set */

/* Where accumulator set `sub` of this consumer thread starts in C, for the tile at (m0, n0). */
__device__ static inline void accumulator_origin(int sub, int subtiles, int warpgroup, bool paired, int m0, int n0,
                                                 int *row, int *col)
{
    int warp = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
    if (HOPPER_WGMMA) {   /* warp w: rows 16w .. 16w + 15 of each 64-row wgmma, every column */
        *row = m0 + (warpgroup * subtiles + sub) * 64 + warp * 16 + lane / 4 * (paired ? 2 : 1);
        *col = n0 + lane % 4 * 2;
    } else {              /* f64, warp w: 32 rows from 32 (w / 2), 64 columns from 64 (w mod 2) */
        *row = m0 + warpgroup * 64 + warp / 2 * 32 + sub * 16 + lane / 4;
        *col = n0 + warp % 2 * 64 + lane % 4 * 2;
    }
}
#line 4944 "gemm.md"
/* C = alpha * d + beta * C for one accumulator set, this thread's elements from (row, col); rows from `rows` on
   are padding, not stored. A thread's second row is 8 below its first, or the next (HOPPER_PAIRED: int8). */
template <int STEP>
__device__ static inline void store_hopper(const wgmma_acc_t (&d)[HOPPER_REGS(STEP)], accum_t *c, int ldc, int row,
                                           int col, int rows, scalar_t alpha, scalar_t beta)
{
    constexpr bool swapped = hopper_tile(STEP).swapped;
    constexpr int below = HOPPER_PAIRED(swapped) ? 1 : 8;
#pragma unroll
    for (int j = 0; j < HOPPER_COLS(STEP) / 8; j++)
#pragma unroll
        for (int half = 0; half < 2; half++) {
            if (row + below * half >= rows)
                continue;
            if (swapped) {   /* the accumulators hold C^T: their (r, c) is C's (c, r), ldc apart along r */
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    accum_t *element = c + (size_t)(col + 8 * j + e) * ldc + row + below * half;
                    *element = scale_accumulator(alpha, accumulator(d, j, half, e), beta, beta != 0 ? *element : ACCUM_ZERO);
                }
                continue;
            }
            AccumPair *destination = (AccumPair *)(c + (size_t)(row + below * half) * ldc + col + 8 * j);
            AccumPair old = {{ACCUM_ZERO, ACCUM_ZERO}}, result;
            if (beta != 0)
                old = *destination;
            for (int e = 0; e < 2; e++)
                result.value[e] = scale_accumulator(alpha, accumulator(d, j, half, e), beta, old.value[e]);
            *destination = result;
        }
}
#line 4990 "gemm.md"
/* Step 2's roles (below): the producer's thread, and a consumer warpgroup's multiplication of a piece. */
template <int STEP, bool PIECES>
__device__ static inline void produce(unsigned char *slabs, unsigned long long *full, unsigned long long *empty,
                                      const CUtensorMap *a_map, const CUtensorMap *b_map, const Shape *shape,
                                      const LastRound *last, int rank);
template <int STEP>
__device__ static inline void consume(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)], unsigned char *slabs,
                                      unsigned long long *full, unsigned long long *empty, const Piece *piece,
                                      int consumer, int *use);
template <int STEP>
__device__ static inline void store_staged(const wgmma_acc_t (&d)[HOPPER_REGS(STEP)], accum_t *buffer, accum_t *c,
                                           int ldc, int row, int col, int rows, scalar_t alpha, scalar_t beta);
#define HOPPER_RELEASERS (HOPPER_WGMMA ? 1 : 4)   /* arrivals per consumer on `empty`: one, or each warp's (f64) */

/* cluster_sync with a relaxed arrival, for a kernel's start. barrier.cluster is where every thread of the cluster
   meets (an instruction, not an mbarrier); cluster_sync arrives with release, which cost about 0.6 us in a cluster
   launch (H100). Here fence_barrier_init already made the mbarriers' initialisation visible to the cluster, so the
   arrival need order no earlier write. */
__device__ static inline void cluster_start(void)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#endif
}

template <int STEP, bool PIECES = false>
__global__ void __launch_bounds__(hopper_tile(STEP).threads, 1)
d_gemm_hopper(accum_t *__restrict__ c, Shape shape, scalar_t alpha, scalar_t beta,
              const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, LastRound last)
{
#if HOPPER_BUILT
    if (PIECES)   /* programmatic dependent launch (Running it): d_gather_pieces may start; it waits for our end */
        HOPPER_ASM("griddepcontrol.launch_dependents;");
    constexpr HopperTile tile = hopper_tile(STEP);
    extern __shared__ __align__(1024) unsigned char shared_raw[];
    unsigned char *slabs = shared_raw + (-shared_address(shared_raw) & 1023);   /* the swizzle needs 1 KiB */
    /* each stage a slab of A (a_bytes), then one of B (b_bytes); after the last stage, the barriers */
    unsigned long long *full = (unsigned long long *)(slabs + tile.stages * (tile.a_bytes + tile.b_bytes));
    unsigned long long *empty = full + tile.stages;
    if (threadIdx.x == 0)
        for (int s = 0; s < tile.stages; s++) {
            barrier_init(&full[s], 1);
            if (tile.producer)   /* from step 2: the consumers release each buffer */
                barrier_init(&empty[s], tile.consumers * HOPPER_RELEASERS * tile.cluster);
        }
    fence_barrier_init();
    if (tile.cluster > 1)
        cluster_start();   /* both blocks' mbarriers are initialised before either copies */
    else
        __syncthreads();   /* the barriers are ready before anyone copies or waits */
#line 5050 "gemm.md"
    int rank = tile.cluster > 1 ? cluster_rank() : 0, warpgroup = threadIdx.x / 128;
    if (tile.producer && warpgroup == tile.consumers) {
        producer_registers();
        if (threadIdx.x % 128 == 0)
            produce<STEP, PIECES>(slabs, full, empty, &a_map, &b_map, &shape, &last, rank);
    } else {
        if (tile.producer)
            consumer_registers();
        wgmma_acc_t d[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)];
        int use = 0;
        Piece piece;
        if (!tile.producer)   /* step 1: one piece, the block's tile (copy_and_consume's phases start at 0) */
            piece = Piece{(int)blockIdx.x, 0, shape.k_padded / tile.block_k, 0};
        for (int n = 0; tile.producer ? next_piece<STEP, PIECES>(n, &shape, &last, &piece) : n == 0; n++) {
            int m0, n0;
            hopper_position<STEP>(piece.tile, rank, &shape, &m0, &n0);
            if (tile.producer)
                consume<STEP>(d, slabs, full, empty, &piece, warpgroup, &use);
            else
                copy_and_consume<STEP>(d, slabs, full, &a_map, &b_map, &piece, m0, n0);
            accum_t *slot = last.slots + (size_t)(piece.slot * tile.cluster + rank) * tile.block_m * tile.block_n;
#pragma unroll
            for (int sub = 0; sub < HOPPER_SUBTILES(STEP); sub++) {
                int row, col;
                accumulator_origin(sub, HOPPER_SUBTILES(STEP), warpgroup, HOPPER_PAIRED(tile.swapped),
                                   PIECES ? 0 : m0, PIECES ? 0 : n0, &row, &col);
                if (PIECES)   /* the sums alone, as a tile of C with rows of block_n (swapped: block_m) */
                    store_hopper<STEP>(d[sub], slot, tile.swapped ? tile.block_m : tile.block_n, row, col, shape.m - m0,
                                       1, 0);
                else if (tile.staged)   /* step 10: through this warp's buffer, which follows the barriers */
                    store_staged<STEP>(d[sub], (accum_t *)(empty + tile.stages) + threadIdx.x / 32 * STAGED_ELEMENTS,
                                       c, shape.n_padded, row, col, shape.m, alpha, beta);
                else
                    store_hopper<STEP>(d[sub], c, tile.swapped ? shape.m_padded : shape.n_padded, row, col, shape.m,
                                       alpha, beta);
            }
        }
    }
#endif
}
#line 5115 "gemm.md"
/* The producer's thread: every slab of every piece of this block, in order, through the stages. */
template <int STEP, bool PIECES>
__device__ static inline void produce(unsigned char *slabs, unsigned long long *full, unsigned long long *empty,
                                      const CUtensorMap *a_map, const CUtensorMap *b_map, const Shape *shape,
                                      const LastRound *last, int rank)
{
    constexpr HopperTile tile = hopper_tile(STEP);
    int use = 0;
    Piece piece;
    for (int n = 0; next_piece<STEP, PIECES>(n, shape, last, &piece); n++) {
        int m0, n0;
        hopper_position<STEP>(piece.tile, rank, shape, &m0, &n0);
        for (int k_tile = piece.k_begin; k_tile < piece.k_end; k_tile++, use++) {
            int s = use % tile.stages;
            if (use >= tile.stages)
                barrier_wait(&empty[s], use / tile.stages - 1);
            request_stage<STEP>(slabs, s, full, a_map, b_map, m0, n0, k_tile, rank);
        }
    }
    if (tile.cluster > 1)   /* the other block's consumers arrive on our `empty`: stay until our last slabs are free */
        for (int done = use - tile.stages; done < use; done++)
            if (done >= 0)
                barrier_wait(&empty[done % tile.stages], done / tile.stages);
}
#line 5148 "gemm.md"
/* A consumer is done with the slab in buffer s: one arrival on `empty` in every block of the cluster, from the
   warpgroup once its wgmmas are done, or (f64) from each warp once its lanes' loads are, as d_gemm's release_slab. */
__device__ static inline void release_buffer(unsigned long long *empty, int cluster)
{
    if (!HOPPER_WGMMA)
        release_slab(empty, cluster);
    else if (threadIdx.x % 128 == 0)
        barrier_arrive(empty, cluster);
}

/* One consumer warpgroup's multiplication of a piece: its slabs of K into the accumulators d. */
template <int STEP>
__device__ static inline void consume(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)], unsigned char *slabs,
                                      unsigned long long *full, unsigned long long *empty, const Piece *piece,
                                      int consumer, int *use)
{
    constexpr HopperTile tile = hopper_tile(STEP);
    int previous = -1;
    for (int k_tile = piece->k_begin; k_tile < piece->k_end; k_tile++, (*use)++) {
        int s = *use % tile.stages;
        barrier_wait(&full[s], *use / tile.stages);
        const unsigned char *a_slab = slabs + s * (tile.a_bytes + tile.b_bytes), *b_slab = a_slab + tile.a_bytes;
        multiply_slab<STEP>(d, a_slab, b_slab, consumer, k_tile - piece->k_begin);
        wgmma_wait<tile.pending>();   /* at most `pending` groups (before step 4: none) still reading their slabs */
        if (!tile.pending) {   /* this slab's group is done: so is its buffer */
            release_buffer(&empty[s], tile.cluster);
        } else {               /* step 4: the group before is done; this one may still read its slab */
            if (previous >= 0)
                release_buffer(&empty[previous], tile.cluster);
            previous = s;
        }
    }
    wgmma_wait<0>();
    if (tile.pending && previous >= 0)
        release_buffer(&empty[previous], tile.cluster);
    settle_accumulators<STEP>(d);
}
#line 5281 "gemm.md"
/* The H100 and H200 SXM's dense tensor rates, TFLOP/s (TOP/s), in TYPE_PAIR's order (NVIDIA datasheets). */
static const double HOPPER_RATED[] = {989, 989, 1979, 1979, 989, 494, 67};
#define HOPPER_SPLIT_SECONDS 15e-6   /* what a split adds: two launches and the slots' traffic (fitted on an H200) */

__host__ __device__ static inline int split_parts(int clusters, int tiles, int k_tiles);   /* pieces per tile, below */

/* The bytes of A and B that one cluster tile reads over K. */
static double hopper_tile_bytes(HopperTile tile, int k_padded)
{
    return (double)(tile.cluster_m + tile.cluster_n) * k_padded * sizeof(input_t);
}
static bool hopper_fills(HopperTile tile, int tiles, int clusters, int k_padded, double seconds,
                         double bandwidth);   /* step 8 */

/* How many of `tiles` run whole on `clusters` clusters: all of them unless the step splits a last round of at
   most clusters / 2 tiles after at least one whole round, where a tile's time less one piece's is at least twice
   HOPPER_SPLIT_SECONDS. A tile's time is its work at the cluster's share of the rated speed. */
static int hopper_whole_tiles(int step, int tiles, int clusters, int k_padded, double bandwidth)
{
    HopperTile tile = hopper_tile(step);
    double seconds = 2.0 * tile.cluster_m * tile.cluster_n * k_padded / (HOPPER_RATED[TYPE_PAIR] * 1e12 / clusters);
    if (tile.memory_bound)   /* step 9's small tiles: at least their operands' bytes at the cluster's share */
        seconds = fmax(seconds, hopper_tile_bytes(tile, k_padded) / (bandwidth / clusters));
    int last = tiles % clusters;
    double saved = last > 0 ? seconds * (1 - 1.0 / split_parts(clusters, last, k_padded / tile.block_k)) : 0;
    bool split = tile.split && tiles > clusters && last > 0 && 2 * last <= clusters &&
                 saved >= 2 * HOPPER_SPLIT_SECONDS;
    bool fill = tile.fill && hopper_fills(tile, tiles, clusters, k_padded, seconds, bandwidth);
    return split ? tiles - last : fill ? 0 : tiles;
}
#line 5318 "gemm.md"
/* The pieces each tile of a last round of `tiles` is cut into along K: one per cluster, at most one per slab. */
__host__ __device__ static inline int split_parts(int clusters, int tiles, int k_tiles)
{
    return clusters / tiles < k_tiles ? clusters / tiles : k_tiles;
}

/* Piece n of the work of `cluster` in a last round of `tiles` tiles (numbered from 0 here): one piece, n = 0, summed
   in slot `cluster`; the clusters past tiles x parts have none. False if there is no such piece. */
__host__ __device__ static inline bool share_piece(int n, int cluster, int clusters, int tiles, int k_tiles,
                                                   Piece *piece)
{
    int parts = split_parts(clusters, tiles, k_tiles), part = cluster / tiles;
    if (n > 0 || part >= parts)
        return false;
    piece->tile = cluster % tiles;
    piece->k_begin = (int)((long long)k_tiles * part / parts);
    piece->k_end = (int)((long long)k_tiles * (part + 1) / parts);
    piece->slot = cluster;
    return true;
}

/* The slot of the piece of tile `tile` (of a last round of `tiles`) in the share of cluster `other`; -1 if that
   share has none. */
__host__ __device__ static inline int piece_slot(int other, int clusters, int tiles, int tile, int k_tiles)
{
    return other / tiles < split_parts(clusters, tiles, k_tiles) && other % tiles == tile ? other : -1;
}

/* The cluster tiles of step `step` in a problem padded for it, as the kernel sees it. */
__host__ __device__ static inline int hopper_tiles(int step, const Shape *shape)
{
    HopperTile tile = hopper_tile(step);
    return shape->m_padded / tile.cluster_m * (shape->n_padded / tile.cluster_n);
}

/* This cluster's piece number n: without PIECES its whole tiles, number `cluster` and every `clusters`-th after
   it, below last->whole; with PIECES its one piece of the tiles from last->whole on. */
template <int STEP, bool PIECES>
__device__ static inline bool next_piece(int n, const Shape *shape, const LastRound *last, Piece *piece)
{
    constexpr HopperTile tile = hopper_tile(STEP);
    int clusters = gridDim.x / tile.cluster, cluster = blockIdx.x / tile.cluster;
    int k_tiles = shape->k_padded / tile.block_k;
    if (!PIECES) {
        *piece = Piece{cluster + n * clusters, 0, k_tiles, 0};
        return piece->tile < last->whole;
    }
    bool found = share_piece(n, cluster, clusters, hopper_tiles(STEP, shape) - last->whole, k_tiles, piece);
    piece->tile += last->whole;
    return found;
}
#line 5380 "gemm.md"
#define GATHER_THREADS 256                      /* a block of d_gather_pieces */
#define GATHER_ELEMENTS ((int)(GATHER_THREADS * C_VECTOR))   /* of a block tile, per block: 16 bytes a thread */
#define HOPPER_MAX_CLUSTERS GATHER_THREADS      /* the most clusters a split round is dealt to: one thread each */

/* The slots of the pieces of tile `tile` (of a last round of `tiles`), in cluster order, into `slots`; returns how
   many. Thread i asks about cluster i; a ballot per warp places the found ones in order. */
__device__ static inline int gather_slots(int *slots, int *warp_found, int clusters, int tiles, int tile, int k_tiles)
{
    int other = threadIdx.x, warp = other / 32, lane = other % 32, count = 0, before = 0;
    int slot = other < clusters ? piece_slot(other, clusters, tiles, tile, k_tiles) : -1;
    unsigned found = __ballot_sync(0xFFFFFFFFu, slot >= 0);
    if (lane == 0)
        warp_found[warp] = __popc(found);
    __syncthreads();
    for (int w = 0; w < GATHER_THREADS / 32; w++) {
        before += w < warp ? warp_found[w] : 0;
        count += warp_found[w];
    }
    if (slot >= 0)
        slots[before + __popc(found & ((1u << lane) - 1))] = slot;
    __syncthreads();
    return count;
}

template <int STEP>
__global__ void __launch_bounds__(GATHER_THREADS) d_gather_pieces(accum_t *__restrict__ c, Shape shape, scalar_t alpha,
                                                                  scalar_t beta, LastRound last, int clusters)
{
    constexpr HopperTile tile = hopper_tile(STEP);
    constexpr int cols = tile.swapped ? tile.block_m : tile.block_n, size = tile.block_m * tile.block_n;
    static_assert(size % GATHER_ELEMENTS == 0 && cols % C_VECTOR == 0, "whole blocks, whole vectors in a row");
    __shared__ int slots[HOPPER_MAX_CLUSTERS], warp_found[GATHER_THREADS / 32];
    int block_tile = blockIdx.x / (size / GATHER_ELEMENTS);
    int e = (blockIdx.x % (size / GATHER_ELEMENTS) * GATHER_THREADS + threadIdx.x) * C_VECTOR;   /* its first */
    int round_tile = block_tile / tile.cluster, rank = block_tile % tile.cluster;
    int tiles = hopper_tiles(STEP, &shape) - last.whole, k_tiles = shape.k_padded / tile.block_k;
    int count = gather_slots(slots, warp_found, clusters, tiles, round_tile, k_tiles);
    int m0, n0;
    hopper_position<STEP>(last.whole + round_tile, rank, &shape, &m0, &n0);
    if (m0 + (tile.swapped ? e % cols : e / cols) >= shape.m)
        return;   /* padding rows: no piece stored them. Swapped, a vector may end in some: their slots are
                     zeroed, so C's padding, zero, stays zero */
    HOPPER_ASM("griddepcontrol.wait;");   /* launched early: the pieces are complete and visible after this */
    scalar_t sum[C_VECTOR] = {};
#pragma unroll 4
    for (int i = 0; i < count; i++) {
        AccumVector piece = *(const AccumVector *)&last.slots[(size_t)(slots[i] * tile.cluster + rank) * size + e];
#pragma unroll
        for (int j = 0; j < C_VECTOR; j++)
            sum[j] += (scalar_t)piece.value[j];
    }
    int ldc = tile.swapped ? shape.m_padded : shape.n_padded, top = tile.swapped ? n0 : m0;
    int left = tile.swapped ? m0 : n0;
    AccumVector *element = (AccumVector *)(c + (size_t)(top + e / cols) * ldc + left + e % cols), old, result;
#pragma unroll
    for (int j = 0; j < C_VECTOR; j++)
        old.value[j] = ACCUM_ZERO;
    if (beta != 0)
        old = *element;
#pragma unroll
    for (int j = 0; j < C_VECTOR; j++)
        result.value[j] = scale_accumulator(alpha, (accum_t)sum[j], beta, old.value[j]);
    *element = result;
}
#line 5463 "gemm.md"
#define HOPPER_FILL_SECONDS 100e-6   /* a shorter tile runs whole */

static bool hopper_fills_small(HopperTile tile, int tiles, int clusters, int k_padded, double seconds,
                               double bandwidth);   /* step 9's small tiles, and tf32's swapped roles */

/* Whether every one of `tiles` is split: at most half as many as `clusters`, each `seconds` of work, at least
   HOPPER_FILL_SECONDS. */
static bool hopper_fills(HopperTile tile, int tiles, int clusters, int k_padded, double seconds, double bandwidth)
{
    if (tile.memory_bound || tile.swapped)   /* step 9's small tiles and tf32's swapped roles: step 9 */
        return hopper_fills_small(tile, tiles, clusters, k_padded, seconds, bandwidth);
    return 2 * tiles <= clusters && seconds >= HOPPER_FILL_SECONDS;
}
#line 5508 "gemm.md"
#define HOPPER_BLOCK_PULL 90e9       /* bytes/s that one block of a 64-wide tile reads when few run; H200 */
#define HOPPER_PULL_PER_64 30e9      /* and each 64 columns more (64 x 128: 120e9); fitted on forced tiles, H200 */
#define HOPPER_SWAP_PULL 60e9        /* the same with the roles swapped, tiles 64 wide; tf32's, H200 (8-bit: not fitted) */
#define HOPPER_SWAP_PULL_WIDE 77e9   /* the same, tiles wider than 64 (wgmma's N) */

/* What one block of a whole small tile reads, bytes/s. A wider tile's stage holds more bytes for each wait on a
   barrier, so it reads more. With the roles swapped a block loads A's role into registers, which slows it, the
   more so in a tile 64 wide (measured on an H200, L2 evicted by reads). */
static double hopper_pull(HopperTile tile)
{
    if (tile.swapped)
        return tile.block_n == 64 ? HOPPER_SWAP_PULL : HOPPER_SWAP_PULL_WIDE;
    return HOPPER_BLOCK_PULL + HOPPER_PULL_PER_64 * (tile.block_n / 64 - 1);
}

/* The clusters per tile from which every tile is split. Step 8's is 2: at most one tile per two clusters, two pieces
   a tile or more. Step 9's small tiles, whole, read at most HOPPER_BLOCK_PULL a block, so they are split while they
   cannot draw the memory's bandwidth: the pull over one SM's part of the bandwidth, rounded (H100 4, H200 2; with
   the roles swapped, 2). The 64-wide pull serves every width: forced runs confirmed the 4 and 2 it gives
   (hopper_by_shape times each width at its own pull). */
static int hopper_fill_share(HopperTile tile, int clusters, double bandwidth)
{
    double pull = tile.swapped ? HOPPER_SWAP_PULL : HOPPER_BLOCK_PULL;
    int share = (int)(pull * clusters * tile.cluster / bandwidth + 0.5);   /* per block */
    return tile.memory_bound && share > 2 ? share : 2;
}

/* Step 8's hopper_fills for step 9's small tiles and for swapped roles: few enough for `clusters` (a share each),
   each `seconds` of work, at least HOPPER_FILL_SECONDS. With the roles swapped: as soon as the split saves
   HOPPER_SPLIT_SECONDS, a whole small tile timed by its bytes at its pull (hopper_pull). */
static bool hopper_fills_small(HopperTile tile, int tiles, int clusters, int k_padded, double seconds,
                               double bandwidth)
{
    if (tiles * hopper_fill_share(tile, clusters, bandwidth) > clusters)
        return false;
    if (!tile.swapped)
        return seconds >= HOPPER_FILL_SECONDS;
    if (tile.memory_bound)
        seconds = hopper_tile_bytes(tile, k_padded) / (tile.cluster * hopper_pull(tile));
    return seconds * (1 - 1.0 / split_parts(clusters, tiles, k_padded / tile.block_k)) >= HOPPER_SPLIT_SECONDS;
}
#line 5564 "gemm.md"
/* One of step 9's tiles: a kind of d_gemm_hopper and its speed per flop, in percent of the 128 x 256 tile's; and
   its speed where 8-bit A's role comes through registers (roles swapped: int8 with B as stored), measured against
   the 128 x 256 tile with B transposed first on big squares (H100). */
typedef struct {
    int kind;
    int speed, paired_speed;
} HopperChoice;

static const HopperChoice HOPPER_TILES[] = {
    {HOPPER_LAST, TYPE_PAIR == PAIR_F16_IN_OUT ? 103 : 100, 100},   /* clusters of two 128 x 256 (F16_IN_OUT: 256 x 256) */
    {HOPPER_SHORT, 100, 100},                                       /* F16_IN_OUT: clusters of two 128 x 256 */
    {HOPPER_NARROW, 75, 67},                                        /* 64 x 128, no cluster */
    {HOPPER_NARROW_64, 62, 37},                                     /* 64 x 64 */
    {HOPPER_MEDIUM, 87, 75},                                        /* 128 x 128, two consumers, clusters sharing A */
    {HOPPER_NARROW_192, 71, 81},                                    /* 64 x 192 */
    {HOPPER_SWAPPED_64, 62, 49},                                    /* roles swapped: 128 x 64, no cluster */
    {HOPPER_SWAPPED_128, 87, 70},                                   /* roles swapped: 128 x 128, no cluster */
};
#line 5587 "gemm.md"
static Shape hopper_shape(int m, int n, int k, int step);   /* padded to the step's tiles (Running it) */
static Shape hopper_roles(const Shape *shape, int step);    /* M and N as the kernel sees them */

/* The tile of HOPPER_TILES whose rounds take the least time on `sms` SMs. For each tile:
   - a round is one tile per cluster; it takes one tile's flops at the cluster's part of the rated speed, times the
     tile's speed; tiles that are all split along K (step 8) take one piece's fraction of a round;
   - small tiles left whole take at least their bytes at their pull per block (hopper_pull), each round;
   - no tile beats reading A and B once at the bandwidth, and a split costs HOPPER_SPLIT_SECONDS on top; with the
     roles swapped there is no such floor (tf32's pulls were fitted without one);
   - an operand transposed first adds its pass: its bytes read and written at the bandwidth.
   On a tie, the tile with the shorter rounds, then the first. `bandwidth` is the GPU's memory bandwidth, bytes/s,
   from its memory clock and bus width (Gpu). */
static int hopper_by_shape(int m, int n, int k, int sms, double bandwidth)
{
    int best = HOPPER_LAST;
    double best_total = 0, best_time = 0;
    double once = (double)(m + n) * k * sizeof(input_t) / bandwidth;   /* unpadded, the same for every tile */
    for (int i = 0; i < (int)(sizeof HOPPER_TILES / sizeof HOPPER_TILES[0]); i++) {
        int kind = HOPPER_TILES[i].kind;
        if (!HOPPER_STEP_BUILT(kind))
            continue;
        HopperTile tile = hopper_tile(kind);
        Shape stored = hopper_shape(m, n, k, kind), padded = hopper_roles(&stored, kind);
        int tiles = hopper_tiles(kind, &padded);
        int clusters = sms / tile.cluster > 0 ? sms / tile.cluster : 1;
        bool split = hopper_whole_tiles(kind, tiles, clusters, padded.k_padded, bandwidth) == 0;
        double rounds = split ? 1.0 / split_parts(clusters, tiles, padded.k_padded / tile.block_k)   /* a piece */
                              : (double)((tiles + clusters - 1) / clusters);
        double flops = 2.0 * tile.cluster_m * tile.cluster_n * padded.k_padded;   /* one cluster tile */
        int speed = HOPPER_PAIRED(tile.swapped) ? HOPPER_TILES[i].paired_speed : HOPPER_TILES[i].speed;
        double time = rounds * flops / (HOPPER_RATED[TYPE_PAIR] * 1e12 / clusters * speed / 100);
        if (tile.memory_bound && !split)   /* whole: their bytes at the pull, each round */
            time = fmax(time, rounds * hopper_tile_bytes(tile, padded.k_padded) / (tile.cluster * hopper_pull(tile)));
        double total = (tile.memory_bound && !tile.swapped ? fmax(time, once) : time) +   /* A and B read once */
                       (split ? HOPPER_SPLIT_SECONDS : 0);
        double prepared = (hopper_prepares(0, kind) ? (double)m * k : 0) + (hopper_prepares(1, kind) ? (double)n * k : 0);
        total += 2 * prepared * sizeof(input_t) / bandwidth;   /* operands transposed first: read and written */
        if (i == 0 || total < best_total || (total == best_total && time < best_time)) {
            best = kind;
            best_total = total;
            best_time = time;
        }
    }
    return best;
}
#line 5663 "gemm.md"
/* Step 10: store_hopper through this warp's buffer of 16 rows x STAGED_COLS, a pass per STAGED_COLS columns. The
   warp writes its pairs, then reads rows of 16-byte vectors back: a store instruction covers four whole 128-byte
   rows of C (F16_IN_OUT: eight of 64), not 8 rows x 32 bytes. Vector v of row r lies at v ^ (r mod vectors):
   the pairs of eight rows, 128 bytes apart, land in different banks. */
template <int STEP>
__device__ static inline void store_staged(const wgmma_acc_t (&d)[HOPPER_REGS(STEP)], accum_t *buffer, accum_t *c,
                                           int ldc, int row, int col, int rows, scalar_t alpha, scalar_t beta)
{
    constexpr int vectors = STAGED_COLS / C_VECTOR;   /* per row of the buffer */
    int lane = threadIdx.x % 32, top = row - lane / 4, left = col - lane % 4 * 2;   /* the warp's first element */
#pragma unroll
    for (int pass = 0; pass < HOPPER_COLS(STEP) / STAGED_COLS; pass++) {
        __syncwarp();   /* the last pass has read the buffer */
#pragma unroll
        for (int j = 0; j < STAGED_COLS / 8; j++)
#pragma unroll
            for (int half = 0; half < 2; half++) {
                int r = lane / 4 + 8 * half, x = 8 * j + lane % 4 * 2;   /* in the buffer */
                AccumPair pair = {{accumulator(d, pass * STAGED_COLS / 8 + j, half, 0),
                                   accumulator(d, pass * STAGED_COLS / 8 + j, half, 1)}};
                *(AccumPair *)(buffer + r * STAGED_COLS + (x / C_VECTOR ^ r % vectors) * C_VECTOR + x % C_VECTOR) = pair;
            }
        __syncwarp();
#pragma unroll
        for (int i = lane; i < 16 * vectors; i += 32) {
            int r = i / vectors, v = i % vectors;
            if (top + r >= rows)
                continue;
            AccumVector value, old;
            value.bits = *(const uint4 *)(buffer + r * STAGED_COLS + (v ^ r % vectors) * C_VECTOR);
            uint4 *destination = (uint4 *)(c + (size_t)(top + r) * ldc + left + pass * STAGED_COLS + v * C_VECTOR);
            old.bits = beta != 0 ? *destination : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (int e = 0; e < C_VECTOR; e++)
                value.value[e] = scale_accumulator(alpha, value.value[e], beta, old.value[e]);
            *destination = value.bits;
        }
    }
}
#line 5749 "gemm.md"
#if !HOPPER_WGMMA || HOPPER_ANY_A_REGS
/* The byte offset of element (mn, k) in a swizzled slab, K-major or MN-major (The swizzled layout). */
__device__ static inline int slab_offset(bool mn_major, int mn, int k)
{
    constexpr int per_row = HOPPER_ROW / (int)sizeof(input_t), block_k = hopper_tile().block_k;
    int row = mn_major ? mn / per_row * block_k + k : mn;   /* the 128-byte row */
    int byte = (mn_major ? mn % per_row : k) * (int)sizeof(input_t);
    return row * HOPPER_ROW + ((byte / 16 ^ row % 8) * 16) + byte % 16;
}

#endif

#if !HOPPER_WGMMA
/* Elements 4t .. 4t + 3 of K of row or column mn of a K-major slab: two 16-byte loads. */
__device__ static inline void load_four(const unsigned char *slab, int mn, int t, double (&v)[4])
{
#pragma unroll
    for (int h = 0; h < 4; h += 2) {
        double2 pair = *(const double2 *)(slab + slab_offset(false, mn, 4 * t + h));
        v[h] = pair.x;
        v[h + 1] = pair.y;
    }
}
#endif
#line 5779 "gemm.md"
#if !HOPPER_WGMMA
/* d[i..i+3] += a x b, 16 x 8 x 16 in f64: .row.col names A's fragment by rows and B's by columns, the layout
   the thread fragments above describe; then the types of D, A, B and C. */
#define MMA_F64(d, i, a, b)                                                                                  \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "                     \
                 "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};\n"           \
                 : "+d"(d[i]), "+d"(d[i + 1]), "+d"(d[i + 2]), "+d"(d[i + 3])                                \
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),   \
                   "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]))

template <int STEP>
__device__ static inline void multiply_slab(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)],
                                            const unsigned char *a_slab, const unsigned char *b_slab, int consumer,
                                            int n)
{
    int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4, warp = threadIdx.x % 128 / 32;
    int row = consumer * 64 + warp / 2 * 32 + g, col = warp % 2 * 64 + g;
    double a[2][8], upper[4], lower[4], b[4];
#pragma unroll
    for (int sub = 0; sub < 2; sub++) {
        load_four(a_slab, row + 16 * sub, t, upper);
        load_four(a_slab, row + 16 * sub + 8, t, lower);
#pragma unroll
        for (int j = 0; j < 4; j++) {
            a[sub][2 * j] = upper[j];
            a[sub][2 * j + 1] = lower[j];
        }
    }
    if (n == 0)   /* -0.0: with CUDA 13.0, starting this mma from +0.0 gave wrong rows (see above) */
#pragma unroll
        for (int r = 0; r < WGMMA_REGS; r++)
            d[0][r] = d[1][r] = -0.0;
#pragma unroll
    for (int j = 0; j < 8; j++) {   /* each of B's loads serves two mma.syncs */
        load_four(b_slab, col + 8 * j, t, b);
        MMA_F64(d[0], 4 * j, a[0], b);
        MMA_F64(d[1], 4 * j, a[1], b);
    }
}
#endif
#line 5885 "gemm.md"
#if HOPPER_ANY_A_REGS
/* The byte offset of element (mn, k) of A's role where HOPPER_PAIRED(s): panels of 64 bytes along M, block_k rows of
   K each, with the 64-byte swizzle (16-byte chunk c of 128-byte line l at c XOR (l mod 4)). */
__host__ __device__ static inline int paired_offset(int mn, int k)
{
    constexpr int block_k = hopper_tile().block_k;
    int plain = (mn / 64 * block_k + k) * 64 + mn % 64;
    return plain ^ (plain >> 7 & 3) << 4;
}

/* A warp's 16 rows of A's role at K k0 .. k0 + 31 come from one ldmatrix.x4.trans of 16-bit elements, each a row
   pair (2g, 2g + 1). Lanes 8i .. 8i + 7 give the addresses of matrix i's eight lines: one K, 16 bytes (8 pairs)
   from the warp's first row. .trans hands lane l, from each matrix, lines 2t and 2t + 1 at pair g (t = l mod 4,
   g = l / 4). So matrices
   0 and 1 hold the K 4t .. 4t + 3 that lane l needs, 2 and 3 the same 16 on. Each matrix's eight lines have
   eight distinct K mod 8, so the 64-byte swizzle puts them in eight different banks: matrix 0 has 4t and 4t + 1
   for t = 0, 1, and 4t + 2, 4t + 3 for t = 2, 3; matrix 1 the others. */
__host__ __device__ static inline int paired_k(int lane, int k0)
{
    int matrix = lane / 8, line = lane % 8, t = line / 2;   /* t: of the lanes that receive the line */
    return k0 + 16 * (matrix / 2) + 4 * t + line % 2 + 2 * ((matrix % 2) ^ (t / 2));
}

__device__ static inline void paired_load(const unsigned char *a_slab, int row, int k0, unsigned (&x)[4])
{
#if HOPPER_BUILT
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
                 : "r"(shared_address(a_slab + paired_offset(row, paired_k(threadIdx.x % 32, k0)))));
#else
    x[0] = x[1] = x[2] = x[3] = 0;
#endif
}
#endif
#line 5925 "gemm.md"
#if HOPPER_ANY_A_REGS
/* Bytes of y:x chosen by the four nibbles of `selector`, as __byte_perm does (the CPU's copy is for the self-test). */
__host__ __device__ static inline unsigned byte_perm(unsigned x, unsigned y, unsigned selector)
{
#ifdef __CUDA_ARCH__
    return __byte_perm(x, y, selector);
#else
    unsigned long long both = (unsigned long long)y << 32 | x;
    unsigned result = 0;
    for (int i = 0; i < 4; i++)
        result |= (unsigned)(both >> 8 * (selector >> 4 * i & 7) & 0xFF) << 8 * i;
    return result;
#endif
}

/* Lane l's four registers of the fragment (row 2g, then 2g + 1; K 4t .. 4t + 3, then 16 on) from paired_load's x.
   x[i] holds matrix i's lines 2t and 2t + 1 at pair g, each 16 bits with row 2g in the low byte: K 4t, 4t + 1 in
   x[0] and 4t + 2, 4t + 3 in x[1] (t = 2, 3: the other way round), the same 16 on in x[2] and x[3]. */
__host__ __device__ static inline void paired_fragment(const unsigned (&x)[4], int t, unsigned (&a)[4])
{
    bool late = t >= 2;
    for (int h = 0; h < 2; h++) {
        unsigned low = late ? x[2 * h + 1] : x[2 * h], high = late ? x[2 * h] : x[2 * h + 1];
        a[2 * h] = byte_perm(low, high, 0x6420);
        a[2 * h + 1] = byte_perm(low, high, 0x7531);
    }
}
#endif
#line 5958 "gemm.md"
#if HOPPER_ANY_A_REGS
/* A wgmma of 64 x n with A from this thread's four registers a[0..3] (operands i0 .. i3); tf32 names A and B not
   negated (1, 1), the 8-bit types have no such operands */
#if IS_INTEGER
#define WGMMA_A_NEGATE ""
#else
#define WGMMA_A_NEGATE ", 1, 1"
#endif
#define WGMMA_A_REGS(n, list, outputs, i0, i1, i2, i3, ib, is, a, b, scale)                                 \
    asm volatile(WGMMA_SCALE_D(is) "m64n" #n WGMMA_TYPES " {" list "}, {%" #i0 ", %" #i1 ", %" #i2        \
                 ", %" #i3 "}, %" #ib ", p" WGMMA_A_NEGATE ";\n}\n"                                        \
                 : outputs : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"((int)(scale)))

template <int N>
__device__ static inline void wgmma_a_regs(wgmma_acc_t (&d)[WGMMA_REGS * N / 256], const unsigned (&a)[4],
                                          unsigned long long b, bool scale)
{
    if constexpr (N == 256)
        WGMMA_A_REGS(256, WGMMA_L128, WGMMA_D128(WGMMA_OUT, d, 0), 128, 129, 130, 131, 132, 133, a, b, scale);
    else if constexpr (N == 192)
        WGMMA_A_REGS(192, WGMMA_L96, WGMMA_D96(WGMMA_OUT, d, 0), 96, 97, 98, 99, 100, 101, a, b, scale);
    else if constexpr (N == 128)
        WGMMA_A_REGS(128, WGMMA_L64, WGMMA_D64(WGMMA_OUT, d, 0), 64, 65, 66, 67, 68, 69, a, b, scale);
    else
        WGMMA_A_REGS(64, WGMMA_L32, WGMMA_D32(WGMMA_OUT, d, 0), 32, 33, 34, 35, 36, 37, a, b, scale);
}
#line 5989 "gemm.md"
/* Slab n of a piece with A's role in register set SET: slabs alternate between two sets, as a group in flight still
   reads the last slab's. Set 1 loads its K steps in reverse, so the two copies of this code differ and the compiler
   cannot merge them into one set of registers. */
template <int STEP, int SET>
__device__ static inline void multiply_set(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)],
                                           const unsigned char *a_slab, const unsigned char *b_slab, int consumer, int n)
{
    constexpr int k_steps = hopper_tile(STEP).block_k / HOPPER_K;
    int lane = threadIdx.x % 32, row = consumer * 64 + threadIdx.x % 128 / 32 * 16, t = lane % 4;
    unsigned a[k_steps][4];
#pragma unroll
    for (int j = 0; j < k_steps; j++) {
        int k_step = SET ? k_steps - 1 - j : j;
        if constexpr (HOPPER_PAIRED(hopper_tile(STEP).swapped)) {   /* one ldmatrix: rows 2g and 2g + 1, K 4t .. 4t + 3 and 16 on */
            unsigned x[4];
            paired_load(a_slab, row, k_step * HOPPER_K, x);
            paired_fragment(x, t, a[k_step]);
        } else {
#pragma unroll
            for (int i = 0; i < 4; i++)   /* (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4) of this K step */
                a[k_step][i] = *(const unsigned *)(a_slab + slab_offset(true, row + lane / 4 + 8 * (i % 2),
                                                                      k_step * HOPPER_K + t + 4 * (i / 2)));
        }
    }
    wgmma_fence();
#pragma unroll
    for (int k_step = 0; k_step < k_steps; k_step++)
        wgmma_a_regs<hopper_tile(STEP).block_n>(d[0], a[k_step],
                                                slab_descriptor(b_slab, HOPPER_B_MN(hopper_tile(STEP).swapped), 0, k_step),
                                                n != 0 || k_step > 0);
    wgmma_commit();
}

template <int STEP>
__device__ static inline void multiply_regs(wgmma_acc_t (&d)[HOPPER_SUBTILES(STEP)][HOPPER_REGS(STEP)],
                                            const unsigned char *a_slab, const unsigned char *b_slab, int consumer,
                                            int n)
{
    if (n % 2)
        multiply_set<STEP, 1>(d, a_slab, b_slab, consumer, n);
    else
        multiply_set<STEP, 0>(d, a_slab, b_slab, consumer, n);
}
#endif
#line 6049 "gemm.md"
#if !IS_INTEGER
/* out (cols x rows) = in (rows x cols) transposed. 32 x 8 threads per block, a 32 x 32 tile each (the last
   ones cut at the edges: f64's padded K is a multiple of 16). */
__global__ void d_transpose_wide(const input_t *__restrict__ in, input_t *__restrict__ out, int rows, int cols)
{
    __shared__ input_t tile[32][33];
    int tiles_across = (cols + 31) / 32;
    int row0 = blockIdx.x / tiles_across * 32, col0 = blockIdx.x % tiles_across * 32;
    for (int r = threadIdx.y; r < 32; r += 8)
        if (row0 + r < rows && col0 + (int)threadIdx.x < cols)
            tile[r][threadIdx.x] = in[(size_t)(row0 + r) * cols + col0 + threadIdx.x];
    __syncthreads();
    for (int r = threadIdx.y; r < 32; r += 8)
        if (col0 + r < cols && row0 + (int)threadIdx.x < rows)
            out[(size_t)(col0 + r) * rows + row0 + threadIdx.x] = tile[threadIdx.x][r];
}
#endif

/* An operand made K-major for d_gemm_hopper: stored rows x cols, written cols x rows. */
static void transpose_for_hopper(const input_t *in, input_t *out, int rows, int cols)
{
#if IS_INTEGER
    transpose_on_gpu(in, out, rows, cols);
#else
    long long blocks = (long long)((rows + 31) / 32) * ((cols + 31) / 32);
    d_transpose_wide<<<(unsigned)blocks, dim3(32, 8)>>>(in, out, rows, cols);
    CHECK_LAUNCH();
#endif
}

/* Whether the tile of `step` has the problem's A (operand 0) or B transposed first, whichever role it has. */
static bool hopper_prepares(int operand, int step)
{
    bool swapped = hopper_tile(step).swapped;
    return (operand == 0) != swapped ? HOPPER_TRANSPOSE_A(swapped) : HOPPER_TRANSPOSE_B(swapped);
}
#line 6095 "gemm.md"
#if IS_INTEGER   /* an int8 operand transposed first is transposed in tiles this wide along M or N (s: swapped) */
#define HOPPER_WHOLE_M(s) (HOPPER_TRANSPOSE_A(s) ? TRANSPOSE_COLS : 1)
#define HOPPER_WHOLE_N(s) (HOPPER_TRANSPOSE_B(s) ? TRANSPOSE_COLS : 1)
#else
#define HOPPER_WHOLE_M(s) 1
#define HOPPER_WHOLE_N(s) 1
#endif

static int common_multiple(int a, int b)   /* the least multiple of a that b divides: for 192 and 128, 384 */
{
    int multiple = a;
    while (multiple % b != 0)
        multiple += a;
    return multiple;
}

static Shape hopper_shape(int m, int n, int k, int step)
{
    HopperTile tile = hopper_tile(step);
    /* the kernel's multiples, along N and M when swapped */
    int rows = common_multiple(tile.cluster_m, HOPPER_WHOLE_M(tile.swapped));
    int cols = common_multiple(tile.cluster_n, HOPPER_WHOLE_N(tile.swapped));
    return make_shape(m, n, k, tile.swapped ? cols : rows, tile.swapped ? rows : cols, tile.block_k);
}

/* The problem as the tile of `step` sees it: M and N exchanged when the operands swap roles. */
static Shape hopper_roles(const Shape *shape, int step)
{
    Shape roles = *shape;
    if (hopper_tile(step).swapped) {
        roles.m = shape->n;
        roles.n = shape->m;
        roles.m_padded = shape->n_padded;
        roles.n_padded = shape->m_padded;
    }
    return roles;
}
#line 6137 "gemm.md"
static void make_hopper_maps(Run *run)
{
    Shape roles = hopper_roles(&run->shape, run->hopper);
    const Shape *shape = &roles;
    HopperTile tile = hopper_tile(run->hopper);
    bool swapped = tile.swapped;
    const input_t *a = swapped ? run->b_tiled : run->a_tiled, *b = swapped ? run->a_tiled : run->b_tiled;
    int panel = HOPPER_ROW / (int)sizeof(input_t);
    int b_share = tile.share_a ? tile.block_n : tile.block_n / tile.cluster;   /* the box one block requests */
    CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
    if (HOPPER_A_MN(swapped))   /* A stored K x M */
        make_tensor_map(&run->a_map, a, shape->k_padded, shape->m_padded, HOPPER_A_PANEL(swapped),
                        HOPPER_A_PANEL(swapped), tile.block_k, tile.block_m / HOPPER_A_PANEL(swapped),
                        HOPPER_PAIRED(swapped) ? CU_TENSOR_MAP_SWIZZLE_64B : swizzle);
    else               /* A as M x K */
        make_tensor_map(&run->a_map, a, shape->m_padded, shape->k_padded, panel, panel, tile.block_m, 1,
                        swizzle);
    if (HOPPER_B_MN(swapped))   /* B stored K x N */
        make_tensor_map(&run->b_map, b, shape->k_padded, shape->n_padded, panel, panel, tile.block_k,
                        b_share / panel, swizzle);
    else               /* B as N x K */
        make_tensor_map(&run->b_map, b, shape->n_padded, shape->k_padded, panel, panel, b_share, 1,
                        swizzle);
}
#line 6167 "gemm.md"
static TileGeometry hopper_geometry(int step)
{
    HopperTile hopper = hopper_tile(step);
    TileGeometry tile = {};
    tile.block_m = hopper.block_m;
    tile.block_n = hopper.block_n;
    tile.block_k = hopper.block_k;
    tile.threads = hopper.threads;
    tile.stages = hopper.stages;
    tile.cluster = hopper.cluster;
    tile.shared_bytes = hopper.shared_bytes;
    return tile;
}

/* A 9.0 GPU whose loaded code was built for sm_90a: where wgmma runs. */
static bool hopper_runs_here(const Gpu *gpu)
{
    int built = 0;
    CHECK_CUDA(cudaMemcpyFromSymbol(&built, hopper_built, sizeof built));
    return gpu->cc == 90 && built;
}

#define HOPPER_KERNEL(step) ((const void *)d_gemm_hopper<HOPPER_BUILT_KIND(step)>)
#define HOPPER_PIECES(step) ((const void *)d_gemm_hopper<HOPPER_BUILT_KIND(step), true>)
#define HOPPER_GATHER(step) ((const void *)d_gather_pieces<HOPPER_BUILT_KIND(step)>)
static const void *const HOPPER_KERNELS[HOPPER_KINDS_END - 1] = {
    HOPPER_KERNEL(1),  HOPPER_KERNEL(2),  HOPPER_KERNEL(3),  HOPPER_KERNEL(4),  HOPPER_KERNEL(5),
    HOPPER_KERNEL(6),  HOPPER_KERNEL(7),  HOPPER_KERNEL(8),  HOPPER_KERNEL(9),  HOPPER_KERNEL(10),
    HOPPER_KERNEL(11), HOPPER_KERNEL(12), HOPPER_KERNEL(13), HOPPER_KERNEL(14), HOPPER_KERNEL(15),
    HOPPER_KERNEL(16), HOPPER_KERNEL(17)};
static_assert(HOPPER_LAST == 10 && HOPPER_LAST == HOPPER_STEPS && HOPPER_KINDS_END == 18,
              "a kernel and a --kernel name for every step");

/* Step 7's second launch, for the last round, and the gathering of its pieces: from step 7 on, per tile of step
   10 (steps 7 to 9 use the last step's, which have the same geometry; pieces store from registers). */
static const void *const HOPPER_PIECES_KERNELS[HOPPER_KINDS_END - HOPPER_LAST] = {
    HOPPER_PIECES(10), HOPPER_PIECES(11), HOPPER_PIECES(12), HOPPER_PIECES(13), HOPPER_PIECES(14), HOPPER_PIECES(15),
    HOPPER_PIECES(16), HOPPER_PIECES(17)};
static const void *const HOPPER_GATHER_KERNELS[HOPPER_KINDS_END - HOPPER_LAST] = {
    HOPPER_GATHER(10), HOPPER_GATHER(11), HOPPER_GATHER(12), HOPPER_GATHER(13), HOPPER_GATHER(14), HOPPER_GATHER(15),
    HOPPER_GATHER(16), HOPPER_GATHER(17)};

static const void *hopper_pieces_kernel(int kind)
{
    return HOPPER_PIECES_KERNELS[kind < HOPPER_LAST ? 0 : kind - HOPPER_LAST];
}

static const void *hopper_gather_kernel(int kind)
{
    return HOPPER_GATHER_KERNELS[kind < HOPPER_LAST ? 0 : kind - HOPPER_LAST];
}
#line 6225 "gemm.md"
static int hopper_kind(int kernel, int m, int n, int k, int sms, double bandwidth)
{
    int step = hopper_step(kernel);
    if (step < HOPPER_BY_SHAPE)
        return step;
    int kind = hopper_by_shape(m, n, k, sms, bandwidth);
    return step == HOPPER_BY_SHAPE && kind == HOPPER_LAST ? HOPPER_BY_SHAPE : kind;   /* step 9: its own 128 x 256 */
}

static void check_hopper(const Gpu *gpu, int kernel)
{
    const char *name = KERNEL_NAMES[kernel];
    int step = hopper_step(kernel);
    if (!hopper_runs_here(gpu))
        die(EXIT_NO_GPU, "--kernel=%s needs a GPU of compute capability 9.0 and a build for it (make ARCH=90a); "
            "%s has %d.%d%s", name, gpu->properties.name, gpu->cc / 10, gpu->cc % 10,
            gpu->cc == 90 ? " but this build has no sm_90a code" : "");
    for (int kind = step; kind < (step >= HOPPER_BY_SHAPE ? HOPPER_KINDS_END : step + 1); kind++) {   /* and step 9's tiles */
        if (!HOPPER_STEP_BUILT(kind))   /* its stand-in, the last step's kernel, has a tile of its own */
            continue;
        HopperTile tile = hopper_tile(kind);
        if (tile.shared_bytes > gpu->shared_budget)
            die(EXIT_NO_GPU, "--kernel=%s needs %d bytes of shared memory per block; %s allows %d", name,
                tile.shared_bytes, gpu->budget_from, gpu->shared_budget);
        CHECK_CUDA(cudaFuncSetAttribute(HOPPER_KERNELS[kind - 1], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        tile.shared_bytes));
        if (tile.split)
            CHECK_CUDA(cudaFuncSetAttribute(hopper_pieces_kernel(kind), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            tile.shared_bytes));
    }
}
#line 6263 "gemm.md"
/* The launch of `clusters` clusters; `attribute` is where the cluster size goes. A tile without a cluster is a
   plain grid: launched as clusters of one, a launch took 1 to 4 us longer (H100). */
static cudaLaunchConfig_t hopper_launch(int step, int clusters, cudaLaunchAttribute *attribute)
{
    HopperTile hopper = hopper_tile(step);
    attribute->id = cudaLaunchAttributeClusterDimension;
    attribute->val.clusterDim.x = hopper.cluster;
    attribute->val.clusterDim.y = 1;
    attribute->val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(clusters * hopper.cluster);
    config.blockDim = dim3(hopper.threads);
    config.dynamicSmemBytes = hopper.shared_bytes;
    config.attrs = attribute;
    config.numAttrs = hopper.cluster > 1;
    return config;
}

/* Once per run: the tensor maps, and how many clusters the grid has (persistent: what fits at once). */
static void setup_hopper(Run *run)
{
    make_hopper_maps(run);
    int step = run->hopper;
    HopperTile tile = hopper_tile(step);
    Shape roles = hopper_roles(&run->shape, step);
    int tiles = hopper_tiles(step, &roles);
    int fit = 0;
    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t config = hopper_launch(step, tiles, &attribute);
    config.numAttrs = 1;   /* the query needs the cluster's size, even of one block */
    CHECK_CUDA(cudaOccupancyMaxActiveClusters(&fit, HOPPER_KERNELS[step - 1], &config));
    if (fit < 1)
        die(EXIT_CUDA_ERROR, "no cluster of d_gemm_hopper fits on this GPU");
    run->whole_tiles = fit <= HOPPER_MAX_CLUSTERS ? hopper_whole_tiles(step, tiles, fit, roles.k_padded, run->bandwidth)
                                                   : tiles;
    run->split_tiles = tiles - run->whole_tiles;
    run->grid_clusters = tile.persistent && fit < tiles ? fit : tiles;
    if (run->split_tiles > 0) {   /* step 7: every cluster takes a piece, into a slot of its own (a block tile each) */
        run->grid_clusters = fit;
        size_t bytes = (size_t)fit * tile.cluster * tile.block_m * tile.block_n * sizeof(accum_t);
        CHECK_CUDA(cudaMalloc(&run->slots, bytes));
        CHECK_CUDA(cudaMemset(run->slots, 0, bytes));   /* padding rows no piece stores: the gather adds zeros */
    }
}
#line 6317 "gemm.md"

static void launch_hopper(const Run *run)
{
    const Shape *shape = &run->shape;
    if (run->prepare_a)
        transpose_for_hopper(run->a, run->a_tiled, shape->rows_a_padded, shape->cols_a_padded);
    if (run->prepare_b)
        transpose_for_hopper(run->b, run->b_tiled, shape->rows_b_padded, shape->cols_b_padded);
    int step = run->hopper;
    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t config = hopper_launch(step, run->grid_clusters, &attribute);
    Run copy = *run;   /* the kernel's arguments; the launch takes a pointer to each */
    copy.shape = hopper_roles(&run->shape, step);
    LastRound last = {run->whole_tiles, run->slots};
    void *arguments[] = {&copy.c, &copy.shape, &copy.alpha, &copy.beta, &copy.a_map, &copy.b_map, &last};
    if (run->whole_tiles > 0)   /* step 8 may split every tile */
        CHECK_CUDA(cudaLaunchKernelExC(&config, HOPPER_KERNELS[step - 1], arguments));
    if (!run->slots)
        return;
    /* step 7: the last round's pieces, then their sums into C */
    HopperTile tile = hopper_tile(step);
    unsigned blocks = (unsigned)(run->split_tiles * tile.cluster * (tile.block_m * tile.block_n / GATHER_ELEMENTS));
    CHECK_CUDA(cudaLaunchKernelExC(&config, hopper_pieces_kernel(step), arguments));
    int clusters = run->grid_clusters;
    void *gather_arguments[] = {&copy.c, &copy.shape, &copy.alpha, &copy.beta, &last, &clusters};
    cudaLaunchAttribute early;   /* the gather may start before the pieces end: it waits in the kernel */
    early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    early.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t gather = {};
    gather.gridDim = dim3(blocks);
    gather.blockDim = dim3(GATHER_THREADS);
    gather.attrs = &early;
    gather.numAttrs = 1;
    CHECK_CUDA(cudaLaunchKernelExC(&gather, hopper_gather_kernel(step), gather_arguments));
}
#line 6370 "gemm.md"
#define HOPPER_PEAK_WARPGROUPS 3
#define HOPPER_PEAK_ITERATIONS 8192
#define HOPPER_PEAK_BYTES ((128 + 256) * HOPPER_ROW)   /* a slab of A and one of B */

__global__ void __launch_bounds__(HOPPER_PEAK_WARPGROUPS * 128, 1)
d_peak_hopper(const uint4 *operands, wgmma_acc_t *sums, int iterations)
{
#if HOPPER_BUILT
    wgmma_acc_t d[WGMMA_REGS];
#endif
#if HOPPER_BUILT && HOPPER_WGMMA
    extern __shared__ __align__(1024) unsigned char shared_raw[];
    unsigned char *slabs = shared_raw + (-shared_address(shared_raw) & 1023);
    for (int i = threadIdx.x; i < HOPPER_PEAK_BYTES / 16; i += blockDim.x)
        ((uint4 *)slabs)[i] = operands[i];
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");   /* for the tensor cores' reads */
    __syncthreads();
    for (int iteration = 0; iteration < iterations; iteration++) {
        wgmma_fence();
#pragma unroll
        for (int k_step = 0; k_step < hopper_tile().block_k / HOPPER_K; k_step++)
            wgmma<256>(d, slab_descriptor(slabs, false, threadIdx.x / 128 % 2 * 64, k_step),
                       slab_descriptor(slabs + 128 * HOPPER_ROW, false, 0, k_step), iteration > 0 || k_step > 0);
        wgmma_commit();
        wgmma_wait<1>();
    }
    wgmma_wait<0>();
#elif HOPPER_BUILT   /* f64: sixteen m16n8k16 mma.syncs per warp in eight chains, operands in registers */
    const double *values = (const double *)operands;
    int lane = threadIdx.x % 32;
    double a[8], b[4];
    for (int i = 0; i < 8; i++)
        a[i] = values[lane * 8 + i];
    for (int i = 0; i < 4; i++)
        b[i] = values[256 + lane * 4 + i];
    for (int r = 0; r < WGMMA_REGS; r++)
        d[r] = -0.0;
    for (int iteration = 0; iteration < iterations; iteration++)
#pragma unroll
        for (int j = 0; j < 16; j++)   /* as many mma.syncs per warp as a slab of d_gemm_hopper */
            MMA_F64(d, 4 * (j % 8), a, b);
#endif
#if HOPPER_BUILT
    wgmma_acc_t sum = 0;
#pragma unroll
    for (int r = 0; r < WGMMA_REGS; r++) {
        settle(d[r]);
        sum += d[r];
    }
    sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;   /* so that nothing is left out */
#endif
}
#line 6427 "gemm.md"
typedef struct {
    uint4 *operands;
    wgmma_acc_t *sums;
    int blocks;
} HopperPeak;

static void launch_hopper_peak(const void *context)
{
    const HopperPeak *peak = (const HopperPeak *)context;
    d_peak_hopper<<<peak->blocks, HOPPER_PEAK_WARPGROUPS * 128, HOPPER_PEAK_BYTES + 1024>>>(
        peak->operands, peak->sums, HOPPER_PEAK_ITERATIONS);
    CHECK_LAUNCH();
}

static double hopper_peak(const Options *options, const Gpu *gpu, double *median_ms)
{
    if (!hopper_runs_here(gpu))
        return 0.0;
    HopperPeak peak = {NULL, NULL, gpu->properties.multiProcessorCount};
    CHECK_CUDA(cudaFuncSetAttribute(d_peak_hopper, cudaFuncAttributeMaxDynamicSharedMemorySize, HOPPER_PEAK_BYTES + 1024));
    size_t count = HOPPER_PEAK_BYTES / sizeof(input_t);
    input_t *host = (input_t *)allocate(HOPPER_PEAK_BYTES, "the wgmma peak operands");
    fill_input(host, count, options->seed, 6);
    CHECK_CUDA(cudaMalloc(&peak.operands, HOPPER_PEAK_BYTES));
    CHECK_CUDA(cudaMalloc(&peak.sums, (size_t)peak.blocks * HOPPER_PEAK_WARPGROUPS * 128 * sizeof(wgmma_acc_t)));
    CHECK_CUDA(cudaMemcpy(peak.operands, host, HOPPER_PEAK_BYTES, cudaMemcpyHostToDevice));
    Timing timing = time_runs(launch_hopper_peak, &peak, options->warmup, options->iterations, &NO_EVICTION);
    CHECK_CUDA(cudaFree(peak.operands));
    CHECK_CUDA(cudaFree(peak.sums));
    free(host);
    *median_ms = timing.median_ms;
    double operations = 2.0 * 64 * hopper_tile().block_n * hopper_tile().block_k * HOPPER_PEAK_ITERATIONS *
                        HOPPER_PEAK_WARPGROUPS * peak.blocks;
    return operations / (timing.median_ms * 1e-3) / 1e12;
}
/* ==== Appendix: testing the host code without a GPU ==== */
#line 6641 "gemm.md"
static int self_test_failures;

#define H200_BANDWIDTH 4.92e12   /* bytes/s, as the GPU reports it (3201 MHz x 6144 bits x 2): and H100_BANDWIDTH */

static void expect(int condition, const char *what)
{
    printf("%s  %s\n", condition ? "ok  " : "FAIL", what);
    if (!condition)
        self_test_failures++;
}

static void test_padding(int rows, int cols, int rows_padded, int cols_padded)
{
    const int guard = 64;
    size_t count = (size_t)rows * cols, padded_count = (size_t)rows_padded * cols_padded;
    int *source = (int *)allocate(count * sizeof(int), "test");
    int *padded = (int *)allocate((padded_count + guard) * sizeof(int), "test");
    int *back = (int *)allocate(count * sizeof(int), "test");
    int content_ok = 1, guard_ok = 1;
    for (size_t e = 0; e < count; e++)
        source[e] = (int)e + 1;
    for (size_t e = 0; e < padded_count + guard; e++)
        padded[e] = -1;
    pad_matrix(padded, source, rows, cols, rows_padded, cols_padded, sizeof(int));
    for (int r = 0; r < rows_padded; r++)
        for (int c = 0; c < cols_padded; c++) {
            int want = r < rows && c < cols ? source[(size_t)r * cols + c] : 0;
            content_ok &= padded[(size_t)r * cols_padded + c] == want;
        }
    for (int g = 0; g < guard; g++)
        guard_ok &= padded[padded_count + g] == -1;
    extract_matrix(back, padded, rows, cols, cols_padded, sizeof(int));
    char what[128];
    snprintf(what, sizeof what, "pad %dx%d to %dx%d: data copied, padding zero", rows, cols, rows_padded, cols_padded);
    expect(content_ok, what);
    snprintf(what, sizeof what, "pad %dx%d to %dx%d: nothing written past the buffer", rows, cols, rows_padded, cols_padded);
    expect(guard_ok, what);
    snprintf(what, sizeof what, "extract %dx%d from %dx%d gives the original", rows, cols, rows_padded, cols_padded);
    expect(memcmp(back, source, count * sizeof(int)) == 0, what);
    free(source);
    free(padded);
    free(back);
}

static void test_tf32_round(void)
{
    expect(tf32_round(1.0f) == 1.0f, "tf32: 1 stays 1");
    expect(tf32_round(1.0f + 0x1p-11f) == 1.0f + 0x1p-10f, "tf32: a tie rounds away from zero");
    expect(tf32_round(-1.0f - 0x1p-11f) == -1.0f - 0x1p-10f, "tf32: a negative tie rounds away from zero");
    expect(tf32_round(1.0f + 0x1p-12f) == 1.0f, "tf32: below half an ulp rounds down");
    expect(tf32_round(1.0f + 0x1p-11f + 0x1p-20f) == 1.0f + 0x1p-10f, "tf32: above half an ulp rounds up");
    expect(isinf(tf32_round(INFINITY)) && isnan(tf32_round(NAN)), "tf32: infinity and NaN pass through");
    expect(tf32_truncate(1.0f + 0x1p-11f + 0x1p-20f) == 1.0f && tf32_truncate(-1.0f - 0x1p-10f - 0x1p-12f) ==
               -1.0f - 0x1p-10f, "tf32: truncation drops the 13 low bits toward zero");
    expect(isinf(tf32_truncate(INFINITY)) && isnan(tf32_truncate(NAN)), "tf32: truncation keeps infinity and NaN");
}

#define INPUT_FROM_INT(v) INPUT_FROM_FLOAT((float)(v))   /* exact for the small values of these tests */
#define ACCUM_FROM_INT(v) ACCUM_FROM_FLOAT((float)(v))

/* A 3x4 times 4x2 product small enough to check by hand; every value is exact in every type. */
static void test_reference(void)
{
    static const int a_logical[3][4] = {{1, 2, 0, 1}, {0, 1, 3, 2}, {2, 0, 1, 1}};
    static const int b_logical[4][2] = {{1, 0}, {2, 1}, {0, 3}, {1, 1}};
    static const int want[3][2] = {{13, 7}, {9, 25}, {7, 9}};   /* 2 * A B + 1 * ones */
    Shape shape = make_shape(3, 2, 4, 16, 16, 16);
    input_t *a = (input_t *)calloc((size_t)shape.rows_a_padded * shape.cols_a_padded, sizeof(input_t));
    input_t *b = (input_t *)calloc((size_t)shape.rows_b_padded * shape.cols_b_padded, sizeof(input_t));
    accum_t *c = (accum_t *)calloc((size_t)shape.m_padded * shape.n_padded, sizeof(accum_t));
    exact_t result[6];
    double bound[6];
    int all_ok = 1;
    for (int i = 0; i < 3; i++)
        for (int kk = 0; kk < 4; kk++)
            a[a_index(i, kk, shape.cols_a_padded)] = INPUT_FROM_INT(a_logical[i][kk]);
    for (int kk = 0; kk < 4; kk++)
        for (int j = 0; j < 2; j++)
            b[b_index(kk, j, shape.cols_b_padded)] = INPUT_FROM_INT(b_logical[kk][j]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            c[(size_t)i * shape.n_padded + j] = ACCUM_FROM_INT(1);
    reference_cpu(a, b, c, shape, 2, 1, false, result, bound);
    for (int e = 0; e < 6; e++)
        all_ok &= result[e] == want[e / 2][e % 2];
    expect(all_ok, "reference: 2 * A B + C matches the hand-computed product (with this build's transpositions)");

    accum_t out[6];
    for (int e = 0; e < 6; e++)
        out[e] = ACCUM_FROM_INT(want[e / 2][e % 2]);
    Verdict verdict = compare_results(out, result, bound, 3, 2);
    expect(verdict.failures == 0, "compare: the exact answer passes");
    out[3] = ACCUM_FROM_INT(want[1][1] + 1);
    verdict = compare_results(out, result, bound, 3, 2);
    expect(verdict.failures == 1 && verdict.worst_i == 1 && verdict.worst_j == 1,
           "compare: one element off by one fails, and is reported at C[1][1]");
#if !IS_INTEGER
    out[3] = (accum_t)NAN;
    verdict = compare_results(out, result, bound, 3, 2);
    expect(verdict.failures == 1, "compare: NaN never passes");
#endif
    free(a);
    free(b);
    free(c);
}

/* Integer types: one element past int32, K products of the largest magnitude, times 3, minus 5 * 7. */
static void test_int32_wrap(void)
{
    if (!IS_INTEGER)
        return;
    const int k = 140000, value = INT_INPUT_LOW == 0 ? 255 : -128;
    Shape shape = make_shape(1, 1, k, 16, 16, 16);
    input_t *a = (input_t *)calloc((size_t)shape.rows_a_padded * shape.cols_a_padded, sizeof(input_t));
    input_t *b = (input_t *)calloc((size_t)shape.rows_b_padded * shape.cols_b_padded, sizeof(input_t));
    accum_t *c = (accum_t *)calloc((size_t)shape.m_padded * shape.n_padded, sizeof(accum_t));
    exact_t result[1];
    double bound[1];
    for (int kk = 0; kk < k; kk++) {
        a[a_index(0, kk, shape.cols_a_padded)] = INPUT_FROM_INT(value);
        b[b_index(kk, 0, shape.cols_b_padded)] = INPUT_FROM_INT(value);
    }
    c[0] = ACCUM_FROM_INT(7);
    reference_cpu(a, b, c, shape, 3, -5, false, result, bound);
    long long exact = 3LL * k * value * value - 35, low = exact % 4294967296LL;
    if (low >= 2147483648LL)
        low -= 4294967296LL;
    expect(exact > INT_MAX && result[0] == low, "reference: an int32 result past INT_MAX wraps modulo 2^32");
    free(a);
    free(b);
    free(c);
}

static void test_error_bound(void)
{
    if (IS_INTEGER) {
        expect(error_bound(100.0, 10.0, 50.0, 4096) == 0.0, "bound: integer results must be exact");
        return;
    }
    expect(error_bound(0.0, 0.0, 0.0, 4096) == 0.0, "bound: zero terms allow zero error");
    expect(error_bound(100.0, 0.0, 0.0, 4096) > error_bound(100.0, 0.0, 0.0, 64),
           "bound: grows with K");
    expect(error_bound(100.0, 0.0, 0.0, 4096) < 100.0 * 0.5,
           "bound: at K=4096 it stays below half the sum of |products| (a lost term would show)");
}

static void test_parse(void)
{
    char error[256];
    Options options;
    char *good[] = {(char *)"gemm", (char *)"--kernel=naive", (char *)"-v", (char *)"cpu", (char *)"100",
                    (char *)"200", (char *)"300"};
    int ok = parse_options(7, good, &options, error, sizeof error) == 0;
    expect(ok && options.m == 100 && options.n == 200 && options.k == 300 && options.kernel == KERNEL_NAIVE &&
               options.verify == VERIFY_CPU, "parse: sizes and options are read");
    const char *bad[][4] = {{"gemm", "0", "1", "1"},   {"gemm", "-5", "1", "1"},  {"gemm", "abc", "1", "1"},
                            {"gemm", "1e30", "1", "1"}, {"gemm", "1", "2", NULL},  {"gemm", "--verify=maybe", NULL, NULL},
                            {"gemm", "--iterations=0", NULL, NULL}, {"gemm", "--bogus", NULL, NULL},
                            {"gemm", "--alpha=nan", NULL, NULL}, {"gemm", "99999999999999999999", "1", "1"}};
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        int argc = 0;
        char *argv[4];
        while (argc < 4 && bad[t][argc] != NULL) {
            argv[argc] = (char *)bad[t][argc];
            argc++;
        }
        char what[128];
        snprintf(what, sizeof what, "parse: rejects '%s%s%s'", argv[1], argc > 2 ? " " : "", argc > 2 ? argv[2] : "");
        expect(parse_options(argc, argv, &options, error, sizeof error) != 0 && error[0] != '\0', what);
    }
    char *hopper3[] = {(char *)"gemm", (char *)"--kernel=hopper3"};
    int parsed = parse_options(2, hopper3, &options, error, sizeof error) == 0;
    expect(WITH_STEPS ? parsed && hopper_step(options.kernel) == 3 : !parsed && strstr(error, "STEPS=1") != NULL,
           "parse: --kernel=hopper3 is step 3 of d_gemm_hopper, built with STEPS=1");
    expect(hopper_step(KERNEL_HOPPER) == HOPPER_STEPS && hopper_step(KERNEL_HOPPER_STEP1) == 1 &&
               hopper_step(KERNEL_FAST) == 0 && kernel_step(KERNEL_HOPPER_STEP1) == 0,
           "parse: hopper is the last step of d_gemm_hopper, and no step of d_gemm");
    char *fraction[] = {(char *)"gemm", (char *)"--alpha=1.5"};
    if (IS_INTEGER)
        expect(parse_options(2, fraction, &options, error, sizeof error) != 0, "parse: integer types reject alpha=1.5");
}

static void test_inputs_and_shapes(void)
{
    input_t first[256], second[256], other[256];
    fill_input(first, 256, 7, 1);
    fill_input(second, 256, 7, 1);
    fill_input(other, 256, 8, 1);
    int nonzero = 0;
    for (int e = 0; e < 256; e++)
        nonzero += INPUT_TO_DOUBLE(first[e]) != 0.0;
    expect(memcmp(first, second, sizeof first) == 0, "inputs: the same seed gives the same matrix");
    expect(memcmp(first, other, sizeof first) != 0, "inputs: another seed gives another matrix");
    expect(nonzero > 200, "inputs: not all zero");
    size_t count = ((size_t)1 << 16) + 3;   /* filled in FILL_THREADS parts */
    input_t *parts = (input_t *)allocate(count * sizeof(input_t), "the threaded fill");
    fill_input(parts, count, 7, 1);
    uint64_t state = stream_state(7, 1);
    bool same = memcmp(parts, first, sizeof first) == 0;
    for (size_t e = 0; e < count; e++) {   /* one stream, drawn in order */
        float value = IS_INTEGER ? (float)random_int(&state, INT_INPUT_LOW, INT_INPUT_LOW + 255)
                                 : (float)random_uniform(&state);
        input_t one = INPUT_FROM_FLOAT(value);
        same &= memcmp(&one, &parts[e], sizeof one) == 0;
    }
    free(parts);
    expect(same, "inputs: a matrix filled by threads, part by part, holds the values of one stream drawn in order");

    int padded_ok = 1;
    for (int index = 0; index < TILES; index++) {
        TileGeometry tile = tile_geometry(index);
        int n_multiple = tile.block_n * tile.cluster;
        Shape padded = gemm_shape(1000, 777, 333, index, 0);
        padded_ok &= padded.m_padded % tile.block_m == 0 && padded.m_padded >= 1000 &&
                     padded.m_padded < 1000 + tile.block_m && padded.n_padded % n_multiple == 0 &&
                     padded.n_padded >= 777 && padded.n_padded < 777 + n_multiple &&
                     padded.k_padded % tile.block_k == 0 && padded.k_padded >= 333 && padded.k_padded < 333 + tile.block_k;
    }
    expect(padded_ok, "shape: padded sizes are the next multiples of each block tile, and of the cluster along N");
    int hopper_ok = 1;
    for (int step = 1; step < HOPPER_KINDS_END; step++) {
        HopperTile tile = hopper_tile(step);
        Shape stored = hopper_shape(1000, 777, 333, step), padded = hopper_roles(&stored, step);   /* the kernel's */
        hopper_ok &= padded.m_padded % tile.cluster_m == 0 && padded.m_padded >= padded.m &&
                     padded.n_padded % tile.cluster_n == 0 && padded.n_padded >= padded.n &&
                     padded.k_padded % tile.block_k == 0 && padded.k_padded >= 333 &&
                     padded.m + padded.n == 1777 && stored.m == 1000;
        for (int m = 1; m <= 300; m += 299) {   /* int8: whole transposition tiles, at any M */
            Shape small = hopper_shape(m, 7, 33, step), roles = hopper_roles(&small, step);   /* the kernel's M, N */
            hopper_ok &= roles.m_padded % HOPPER_WHOLE_M(tile.swapped) + roles.n_padded % HOPPER_WHOLE_N(tile.swapped) == 0;
        }
    }
    expect(hopper_ok, "shape: every step of d_gemm_hopper pads to whole cluster tiles and slabs "
                      "(int8: and whole transposition tiles)");
    int tall = TYPE_PAIR == PAIR_F16_IN_OUT;   /* 132 SMs, as an H100 */
    expect(hopper_kind(KERNEL_HOPPER, 8192, 8192, 8192, 132, H100_BANDWIDTH) == HOPPER_LAST &&
               hopper_kind(KERNEL_HOPPER, 4096, 4096, 4096, 132, H100_BANDWIDTH) == HOPPER_LAST &&
               hopper_kind(KERNEL_HOPPER, 2048, 2048, 2048, 132, H100_BANDWIDTH) ==
                   (tall ? HOPPER_SHORT : HOPPER_LAST) &&
               hopper_kind(KERNEL_HOPPER, 5000, 5000, 5000, 132, H100_BANDWIDTH) ==
                   (tall ? HOPPER_SHORT : HOPPER_LAST) &&
               hopper_kind(KERNEL_HOPPER_STEP1 + HOPPER_FILL - 1, 2048, 2048, 2048, 132, H100_BANDWIDTH) ==
                   HOPPER_FILL &&
               hopper_kind(KERNEL_FAST, 2048, 2048, 2048, 132, H100_BANDWIDTH) == 0 &&
               hopper_tile(HOPPER_SHORT).block_m == (tall ? 128 : hopper_tile().block_m),
           "hopper: F16_IN_OUT's --kernel=hopper takes 128-row tiles where 256 would idle its last round");
    int step9 = KERNEL_HOPPER_STEP1 + HOPPER_BY_SHAPE - 1;
    expect(hopper_kind(step9, 8192, 8192, 8192, 132, H100_BANDWIDTH) == HOPPER_BY_SHAPE &&
               hopper_kind(step9, 16, 4096, 4096, 132, H100_BANDWIDTH) ==
                   hopper_kind(KERNEL_HOPPER, 16, 4096, 4096, 132, H100_BANDWIDTH) &&
               hopper_tile(HOPPER_STAGED).staged == (HOPPER_WGMMA && !HOPPER_SWAP_ALL) &&
               !hopper_tile(HOPPER_BY_SHAPE).staged && !hopper_tile(HOPPER_NARROW).staged &&
               hopper_tile(HOPPER_STAGED).stages == hopper_tile(HOPPER_BY_SHAPE).stages,
           "hopper: step 9 takes step 10's small tiles and its own 128 x 256, which stores from registers; step "
           "10's stores through shared memory, in as many stages");
    Shape shape = gemm_shape(1000, 777, 333, 0, 0);
    expect(shape.rows_a == (TRANSPOSE_A ? 333 : 1000) && shape.cols_b == (TRANSPOSE_B ? 333 : 777),
           "shape: stored shapes follow the transpositions");
    expect(compute_capability_ok(MIN_CC / 10, MIN_CC % 10) && !compute_capability_ok(6, 1) &&
               !compute_capability_ok((MIN_CC - 1) / 10, (MIN_CC - 1) % 10),
           "gpu check: " TYPE_NAME " accepts its minimum compute capability and rejects older ones");
}

/* Step 8: the tiles it chooses from, and its choices at the shapes measured. */
static void test_hopper_tiles(void)
{
    HopperTile skinny = hopper_tile(hopper_kind(KERNEL_HOPPER, 16, 4096, 4096, 132, H100_BANDWIDTH));
    expect(skinny.block_m == 64 && skinny.cluster == 1 &&
               hopper_tile(hopper_kind(KERNEL_HOPPER, 4096, 14336, 4096, 132, H100_BANDWIDTH)).cluster == 2 &&
               hopper_kind(KERNEL_HOPPER_STEP1 + HOPPER_FILL - 1, 16, 4096, 4096, 132, H100_BANDWIDTH) == HOPPER_FILL,
           "hopper: step 9 takes 64-row tiles without a cluster where M is small, 256-row cluster tiles where M is large");
    int small_ok = 1;
    for (int kind = HOPPER_NARROW; kind < HOPPER_KINDS_END; kind++) {
        HopperTile tile = hopper_tile(kind);
        bool swapped = kind >= HOPPER_SWAPPED_64;   /* two consumers, no cluster */
        small_ok &= tile.cluster == (swapped ? 1 : tile.consumers) && tile.share_a == (tile.cluster == 2) &&
                    tile.cluster_n == tile.cluster * tile.block_n && tile.memory_bound && tile.shared_bytes <= HOPPER_SHARED &&
                    HOPPER_STAGES_FIT(tile.a_bytes + tile.b_bytes) == tile.stages &&
                    tile.stages > hopper_tile(HOPPER_FILL).stages;
    }
    expect(small_ok, "hopper: step 9's small tiles fill the 227 KiB with stages, more than the 256-row cluster tiles; "
                     "the 128-row ones share A in clusters of two, except the swapped ones");
    if (TYPE_PAIR == PAIR_F16_IN_F32_OUT || TYPE_PAIR == PAIR_BF16_IN_F32_OUT)   /* the choices measured */
        expect(hopper_kind(KERNEL_HOPPER, 16, 4096, 4096, 132, H100_BANDWIDTH) == HOPPER_NARROW_64 &&
                   hopper_kind(KERNEL_HOPPER, 256, 4096, 14336, 132, H100_BANDWIDTH) == HOPPER_NARROW &&
                   hopper_kind(KERNEL_HOPPER, 256, 8192, 8192, 132, H100_BANDWIDTH) == HOPPER_MEDIUM &&
                   hopper_kind(KERNEL_HOPPER, 256, 6144, 4096, 132, H100_BANDWIDTH) == HOPPER_NARROW_192 &&
                   hopper_kind(KERNEL_HOPPER, 256, 8192, 28672, 132, H100_BANDWIDTH) == HOPPER_LAST &&
                   hopper_whole_tiles(HOPPER_LAST, 32, 66, 28672, H100_BANDWIDTH) == 0 &&
                   hopper_kind(KERNEL_HOPPER, 16, 2048, 8192, 132, H100_BANDWIDTH) == HOPPER_NARROW_64 &&
                   hopper_whole_tiles(HOPPER_NARROW, 16, 132, 8192, H100_BANDWIDTH) == 0 &&
                   hopper_kind(KERNEL_HOPPER, 16, 4096, 14336, 132, H100_BANDWIDTH) == HOPPER_NARROW_64 &&
                   hopper_kind(KERNEL_HOPPER, 16, 4096, 14336, 132, H200_BANDWIDTH) == HOPPER_NARROW &&
                   hopper_whole_tiles(HOPPER_NARROW, 32, 132, 14336, H200_BANDWIDTH) == 0 &&
                   hopper_kind(KERNEL_HOPPER, 128, 4096, 14336, 132, H200_BANDWIDTH) == HOPPER_MEDIUM,
               "hopper: step 9 takes 64 x 64 tiles at 16 x 4096 x 4096, 64 x 128 at 256 x 4096 x 14336, 128 x 128 "
               "at 256 x 8192 x 8192, 64 x 192 at 256 x 6144 x 4096, split 128 x 256 at 256 x 8192 x 28672, "
               "64 x 64 at 16 x 2048 x 8192 (64 x 128 would split); at 16 x 4096 x 14336 whole 64 x 64 on an H100, "
               "split 64 x 128 on an H200; split 128 x 128 at 128 x 4096 x 14336 on an H200");
    if (HOPPER_SWAP_ALL)   /* tf32 with B as stored: whole small tiles at their bytes' time: measured */
        expect(hopper_kind(KERNEL_HOPPER, 16, 4096, 4096, 132, H100_BANDWIDTH) == HOPPER_NARROW_64 &&
                   hopper_kind(KERNEL_HOPPER, 128, 4096, 14336, 132, H200_BANDWIDTH) == HOPPER_SWAPPED_128 &&
                   hopper_whole_tiles(HOPPER_SWAPPED_128, 32, 132, 14336, H200_BANDWIDTH) == 0 &&
                   hopper_kind(KERNEL_HOPPER, 777, 480, 8192, 132, H100_BANDWIDTH) == HOPPER_LAST &&
                   hopper_whole_tiles(HOPPER_NARROW_64, 64, 132, 4096, H200_BANDWIDTH) == 0 &&
                   hopper_whole_tiles(HOPPER_NARROW, 16, 132, 1024, H200_BANDWIDTH) == 16 &&
                   hopper_kind(KERNEL_HOPPER, 777, 1000, 4096, 132, H200_BANDWIDTH) == HOPPER_LAST &&
                   hopper_kind(KERNEL_HOPPER, 16, 14336, 4096, 132, H200_BANDWIDTH) == HOPPER_SWAPPED_64 &&
                   hopper_kind(KERNEL_HOPPER, 64, 14336, 4096, 132, H200_BANDWIDTH) == HOPPER_SWAPPED_64 &&
                   hopper_kind(KERNEL_HOPPER, 128, 14336, 4096, 132, H200_BANDWIDTH) == HOPPER_SWAPPED_128 &&
                   hopper_kind(KERNEL_HOPPER, 16, 6144, 4096, 132, H200_BANDWIDTH) == HOPPER_SWAPPED_64 &&
                   hopper_whole_tiles(HOPPER_SWAPPED_64, 48, 132, 4096, H200_BANDWIDTH) == 0 &&
                   hopper_kind(KERNEL_HOPPER, 128, 4096, 4096, 132, H200_BANDWIDTH) == HOPPER_SWAPPED_128 &&
                   hopper_whole_tiles(HOPPER_SWAPPED_128, 32, 132, 4096, H200_BANDWIDTH) == 0 &&
                   hopper_whole_tiles(HOPPER_SWAPPED_64, 112, 132, 4096, H200_BANDWIDTH) == 112,
               "hopper: tf32 with B as stored takes 64 x 64 tiles at 16 x 4096 x 4096, split 128 x 128 without a cluster "
               "at 128 x 4096 x 14336 (one column of tiles, B's rows loaded once) and split 128 x 256 at 777 x 480 x 8192 "
               "and 777 x 1000 x 4096; it splits 64 x 64 tiles at 16 x 4096 x 4096, not 64 x 128 at K = 1024; "
               "at 16 to 128 x 14336 x 4096 it takes one round of whole 128-row tiles without a cluster, and split "
               "ones at 16 x 6144 x 4096 (128 x 64) and 128 x 4096 x 4096 (128 x 128)");
    if (HOPPER_SWAPS && IS_INTEGER)   /* int8 with B as stored: the choices measured (H100) */
        expect(hopper_tile(hopper_kind(KERNEL_HOPPER, 16, 8192, 8192, 132, H100_BANDWIDTH)).swapped &&
                   hopper_kind(KERNEL_HOPPER, 256, 4096, 14336, 132, H100_BANDWIDTH) == HOPPER_NARROW &&
                   hopper_kind(KERNEL_HOPPER, 2048, 2048, 2048, 132, H100_BANDWIDTH) == HOPPER_LAST &&
                   hopper_kind(KERNEL_HOPPER, 5000, 5000, 5000, 132, H100_BANDWIDTH) == HOPPER_LAST &&
                   hopper_prepares(1, HOPPER_LAST) && !hopper_prepares(1, HOPPER_NARROW) &&
                   !hopper_tile(HOPPER_LAST).swapped && hopper_tile(HOPPER_SWAPPED_64).swapped,
               "hopper: int8 with B as stored swaps the roles in step 9's small tiles, which read B as stored (16 x "
               "8192 x 8192, 64 x 128 at 256 x 4096 x 14336), and keeps 128 x 256 with B transposed first at 2048^3 "
               "and 5000^3");
    int most = hopper_tile(HOPPER_NARROW).swapped ? 66 : 33;   /* a quarter of the SMs' worth; roles swapped: half */
    expect(hopper_whole_tiles(HOPPER_NARROW, 16, 132, 14336, H100_BANDWIDTH) == 0 &&
               hopper_whole_tiles(HOPPER_NARROW, 16, 132, 1024, H100_BANDWIDTH) == 16 &&
               hopper_whole_tiles(HOPPER_NARROW, most, 132, 65536, H100_BANDWIDTH) == 0 &&
               hopper_whole_tiles(HOPPER_NARROW, most + 1, 132, 65536, H100_BANDWIDTH) == most + 1 &&
               hopper_whole_tiles(HOPPER_NARROW, 66, 132, 65536, H200_BANDWIDTH) == 0 &&
               hopper_whole_tiles(HOPPER_NARROW, 67, 132, 65536, H200_BANDWIDTH) == 67,
           "hopper: step 9 splits 64-row tiles that take long to read, at most a quarter of the SMs' worth on an "
           "H100 (roles swapped: half), half on an H200's faster memory");
}

/* Step 6's last round: on a few counts of tiles, slabs and clusters, every slab of every tile of the round is in
   exactly one piece, and the slots d_gather_pieces reads for a tile are exactly its pieces'. */
#if HOPPER_PAIRED(HOPPER_SWAPS)
/* paired_load and paired_fragment on the CPU: ldmatrix.x4.trans played on a slab whose every byte names its
   (row, K), for each warp's rows of a 128-row slab and each K step: every lane ends with the fragment wgmma wants
   of rows 2g and 2g + 1, and no matrix's eight lines share a bank. */
static void test_paired_load(void)
{
    constexpr int block_k = hopper_tile().block_k;
    static int label[128 * block_k];   /* byte offset -> row * block_k + K */
    for (int mn = 0; mn < 128; mn++)
        for (int k = 0; k < block_k; k++)
            label[paired_offset(mn, k)] = mn * block_k + k;
    bool right = true, banks = true;
    for (int row = 0; row < 128; row += 16)
        for (int k0 = 0; k0 < block_k; k0 += HOPPER_K) {
            for (int matrix = 0; matrix < 4; matrix++) {
                int used = 0;   /* the 16-byte bank groups (of 8 in 128 bytes) the matrix's lines fall in */
                for (int line = 0; line < 8; line++)
                    used |= 1 << paired_offset(row, paired_k(8 * matrix + line, k0)) % 128 / 16;
                banks &= used == 0xFF;
            }
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4;
                unsigned x[4], a[4];
                for (int matrix = 0; matrix < 4; matrix++) {   /* lines 2t, 2t + 1 at pair g: four bytes */
                    x[matrix] = 0;
                    for (int b = 0; b < 4; b++) {
                        int line = 8 * matrix + 2 * t + b / 2;   /* the lane that gave this line's address */
                        int offset = paired_offset(row, paired_k(line, k0)) + 2 * g + b % 2;
                        int mn = label[offset] / block_k, k = label[offset] % block_k;
                        x[matrix] |= (unsigned)(k | (mn % 2) << 7) << 8 * b;   /* the byte: its K and row's parity */
                        right &= mn / 2 == (row + 2 * g) / 2;                 /* from the lane's row pair */
                    }
                }
                paired_fragment(x, t, a);
                for (int i = 0; i < 4; i++)   /* a[i]: row 2g + i % 2, K 4t .. 4t + 3 from 16 (i / 2) */
                    for (int b = 0; b < 4; b++)
                        right &= (a[i] >> 8 * b & 0xFF) == (unsigned)((k0 + 16 * (i / 2) + 4 * t + b) | i % 2 << 7);
            }
        }
    expect(right, "8-bit A's role in registers: one ldmatrix.x4.trans and paired_fragment give each lane its rows "
                  "2g, 2g + 1 at K 4t .. 4t + 3 and 16 on");
    expect(banks, "8-bit A's role in registers: each ldmatrix matrix's eight lines lie in eight different banks");
}
#endif

static void test_pieces(void)
{
    static const int cases[][3] = {{2, 512, 66}, {34, 128, 66}, {16, 16, 66}, {33, 3, 66}, {1, 1, 66}, {7, 5, 30},
                                   {30, 2, 66}, {1, 100, 132}};
    int covered_once = 1, slots_match = 1;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int tiles = cases[c][0], k_tiles = cases[c][1], clusters = cases[c][2];
        int *covered = (int *)calloc((size_t)tiles * k_tiles, sizeof(int)), *pieces = (int *)calloc(tiles, sizeof(int));
        if (!covered || !pieces)
            die(EXIT_NO_MEMORY, "not enough host memory for the self-test");
        Piece piece;
        for (int cluster = 0; cluster < clusters; cluster++)
            for (int n = 0; share_piece(n, cluster, clusters, tiles, k_tiles, &piece); n++) {
                for (int k = piece.k_begin; k < piece.k_end; k++)
                    covered[(size_t)piece.tile * k_tiles + k]++;
                pieces[piece.tile]++;
                slots_match &= piece.slot == cluster &&
                               piece_slot(cluster, clusters, tiles, piece.tile, k_tiles) == piece.slot;
            }
        for (size_t e = 0; e < (size_t)tiles * k_tiles; e++)
            covered_once &= covered[e] == 1;
        for (int tile = 0; tile < tiles; tile++) {   /* d_gather_pieces finds as many slots as there are pieces */
            int found = 0;
            for (int other = 0; other < clusters; other++)
                found += piece_slot(other, clusters, tiles, tile, k_tiles) >= 0;
            slots_match &= found == pieces[tile];
        }
        free(covered);
        free(pieces);
    }
    expect(covered_once, "hopper: every slab of a split last round is in exactly one piece");
    expect(slots_match, "hopper: the slots gathered for a tile of the last round are exactly its pieces'");
    bool fast = HOPPER_RATED[TYPE_PAIR] > 1000;   /* int8: a tile at K = 4096 saves under 2 x HOPPER_SPLIT_SECONDS */
    expect(hopper_whole_tiles(HOPPER_SPLIT, 2048, 66, 4096, H100_BANDWIDTH) == (fast ? 2048 : 2046) &&
               hopper_whole_tiles(HOPPER_SPLIT, 1020, 66, 16384, H100_BANDWIDTH) == 990 &&
               hopper_whole_tiles(HOPPER_SPLIT, 1024, 66, 16384, H100_BANDWIDTH) == 1024 &&
               hopper_whole_tiles(HOPPER_SPLIT, 16, 66, 16384, H100_BANDWIDTH) == 16 &&
               hopper_whole_tiles(HOPPER_SPLIT, 1020, 66, 256, H100_BANDWIDTH) == 1020 &&
               hopper_whole_tiles(HOPPER_PERSISTENT, 2048, 66, 16384, H100_BANDWIDTH) == 2048,
           "hopper: step 7 splits a last round of at most half the clusters' long tiles after a whole round, no other");
    expect(hopper_whole_tiles(HOPPER_FILL, 16, 66, 65536, H100_BANDWIDTH) == 0 &&
               hopper_whole_tiles(HOPPER_FILL, 33, 66, 65536, H100_BANDWIDTH) == 0 &&
               hopper_whole_tiles(HOPPER_FILL, 34, 66, 65536, H100_BANDWIDTH) == 34 &&
               hopper_whole_tiles(HOPPER_FILL, 16, 66, 1024, H100_BANDWIDTH) == 16 &&
               hopper_whole_tiles(HOPPER_FILL, 1020, 66, 16384, H100_BANDWIDTH) == 990 &&
               hopper_whole_tiles(HOPPER_FILL, 2048, 66, 8192, H100_BANDWIDTH) ==
                   hopper_whole_tiles(HOPPER_SPLIT, 2048, 66, 8192, H100_BANDWIDTH),
           "hopper: step 8 also splits every tile when there are at most half as many as clusters, each long enough");
}

/* The tile table: each row fits the budget it is for and is what a GPU with that budget gets. */
static void test_tiles(void)
{
    int fits = 1, chosen = 1, ordered = 1, whole = 1;   /* chosen: the row itself, or a larger row that fits */
    int without_engine = 1;   /* builds without the TMA never get an engine_only row, and get one if any fits */
    for (int index = 0; index < TILES; index++) {
        Tile row = tile_row(index);
        TileGeometry tile = tile_geometry(index);
        fits &= row.family == TILE_FAMILY && tile.shared_bytes <= row.for_kib * 1024;
        int choice = choose_tile(row.for_kib * 1024, 1);
        chosen &= choice >= 0 && choice <= index && tile_geometry(choice).shared_bytes <= row.for_kib * 1024;
        int other = choose_tile(row.for_kib * 1024, 0);
        without_engine &= other >= choice && !tile_row(other).engine_only;
        ordered &= index == 0 || tile.shared_bytes < tile_geometry(index - 1).shared_bytes;
        whole &= row.block_m % (row.warps_m * FRAG_M) == 0 && row.block_n % (row.warps_n * FRAG_N) == 0 &&
                 row.block_k % FRAG_K == 0 && tile.a.elems % (128 / sizeof(input_t)) == 0 &&
                 tile.b.elems % (128 / sizeof(input_t)) == 0;
    }
    expect(TILES == tile_count() && TILES >= 1, "tiles: " TYPE_NAME " has tile configurations");
    expect(fits, "tiles: every configuration fits the shared memory it is chosen for");
    expect(chosen, "tiles: a GPU with a configuration's budget gets it, or a larger one that fits");
    expect(ordered, "tiles: configurations come largest first");
    expect(whole, "tiles: warps hold whole fragments, slabs keep 128-byte alignment");
    expect(without_engine && !tile_row(TILES - 1).engine_only,
           "tiles: without the TMA, the first row that fits and is not engine_only");
    expect(choose_tile(tile_geometry(TILES - 1).shared_bytes - 1, 1) == -1 && choose_tile(1 << 30, 1) == 0,
           "tiles: too small a budget gets none, a huge one the largest");
}

static void test_npy(void)
{
    char directory[] = "/tmp/gemm-self-test-XXXXXX";
    if (mkdtemp(directory) == NULL) {
        expect(0, "npy: could not make a temporary directory");
        return;
    }
    char prefix[64], path[96];
    snprintf(prefix, sizeof prefix, "%s/t", directory);
    snprintf(path, sizeof path, "%s_C.npy", prefix);
    int data[6] = {1, -2, 3, -4, 5, -6};
    write_npy(prefix, "C", "<i4", data, 2, 3, sizeof(int));
    unsigned char bytes[256];
    FILE *file = fopen(path, "rb");
    size_t length = file ? fread(bytes, 1, sizeof bytes, file) : 0;
    if (file)
        fclose(file);
    int header = length >= 10 ? bytes[8] | bytes[9] << 8 : -1;
    expect(length >= 10 && memcmp(bytes, "\x93NUMPY\x01\x00", 8) == 0, "npy: magic string and version 1.0");
    expect(header > 0 && (10 + header) % 64 == 0 && bytes[10 + header - 1] == '\n', "npy: header padded to 64 bytes");
    expect(length == (size_t)(10 + header) + sizeof data && memcmp(bytes + 10 + header, data, sizeof data) == 0,
           "npy: the data follows the header, unchanged");
    expect(header > 0 && strstr((const char *)bytes + 10, "'shape': (2, 3)") != NULL, "npy: the header gives the shape");
    remove(path);
    rmdir(directory);
}

static int self_test(void)
{
    printf("self-test of the host code, built for %s %s TRANSPOSE_A=%d TRANSPOSE_B=%d\n", TYPE_NAME, SHAPE_NAME,
           TRANSPOSE_A, TRANSPOSE_B);
    test_padding(1, 1, 128, 256);
    test_padding(127, 61, 128, 64);
    test_padding(128, 64, 128, 64);   /* no padding needed */
    test_padding(1000, 777, 1024, 1024);
    test_tf32_round();
    test_reference();
    test_int32_wrap();
    test_error_bound();
    test_parse();
    test_inputs_and_shapes();
    test_hopper_tiles();
#if HOPPER_PAIRED(HOPPER_SWAPS)
    test_paired_load();
#endif
    test_pieces();
    test_tiles();
    test_npy();
    printf("self-test: %d failed\n", self_test_failures);
    return self_test_failures ? 1 : 0;
}
