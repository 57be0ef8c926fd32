# usage: mbar.py FILE.cu D -- replace the __syncthreads pipeline of d_gemm (source of commit 635523f)
# with the mbarrier pipeline of mbar.cu, D slabs in flight. The code that gemm.md now contains.
import sys
p, prefetch = sys.argv[1], sys.argv[2]
s = open(p).read()
a = s.index('    for (int stage = 0; stage < STAGES - 1; stage++) {')
b = s.index('    copy_async_wait<0>();\n    __syncthreads();   /* all warps are done')
s = s[:a] + open(__file__.replace('mbar.py', 'mbar.cu')).read() + s[b:]
helper = '''#define PREFETCH %s
__device__ static inline void mbar_wait(unsigned address, unsigned parity)
{
    unsigned done;
    do {
        asm volatile("{\\n .reg .pred p;\\n mbarrier.try_wait.parity.shared::cta.b64 p, [%%1], %%2;\\n selp.u32 %%0, 1, 0, p;\\n}\\n"
                     : "=r"(done) : "r"(address), "r"(parity) : "memory");
    } while (!done);
}
''' % prefetch
k = s.index('__global__ void D_GEMM_BOUNDS') if '__global__ void D_GEMM_BOUNDS' in s else s.index('__global__ void __launch_bounds__(THREADS, ')
s = s[:k] + helper + s[k:]
open(p, 'w').write(s)
