/* The Hopper rule's picks on the host, no GPU: out/gemm.cu's hopper_by_shape and hopper_whole_tiles for each
   "M N K" line on stdin, on SMS SMs (default 132) and the bandwidth given as argv[1] (bytes/s). One line out per
   shape: M N K, the tile as gpu_test.py names it (block M x N, then c and the cluster's blocks), and the tiles
   split along K. Whole clusters count as sms / cluster here; the run asks the GPU how many fit
   (cudaOccupancyMaxActiveClusters), 66 of two blocks on an H100 or H200. Built by tests/test_gpu_plan.py with
   -DGEMM_CU='"out/gemm.cu"' and a type pair and layout. */
#define main gemm_main
#include GEMM_CU
#undef main

int main(int argc, char **argv)
{
    double bandwidth = argc > 1 ? atof(argv[1]) : H200_BANDWIDTH;
    int sms = argc > 2 ? atoi(argv[2]) : 132;
    int m, n, k;
    while (scanf("%d %d %d", &m, &n, &k) == 3) {
        int kind = hopper_by_shape(m, n, k, sms, bandwidth);
        HopperTile tile = hopper_tile(kind);
        Shape stored = hopper_shape(m, n, k, kind), roles = hopper_roles(&stored, kind);
        int tiles = hopper_tiles(kind, &roles);
        int whole = hopper_whole_tiles(kind, tiles, sms / tile.cluster, roles.k_padded, bandwidth);
        printf("%d %d %d %dx%dc%d %d\n", m, n, k, tile.block_m, tile.block_n, tile.cluster, tiles - whole);
    }
    return 0;
}
