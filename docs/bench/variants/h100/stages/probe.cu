#include <stdio.h>
__global__ void k(int *p) { if (p) *p = 1; }
int main(void) { cudaFuncAttributes a; cudaError_t e = cudaFuncGetAttributes(&a, k); printf("probe %s ptxVersion=%d binaryVersion=%d\n", cudaGetErrorString(e), a.ptxVersion, a.binaryVersion); return 0; }
