/* The Hopper rule's picks on the host, no GPU, since stop 72's swap per tile: out/gemm.cu's hopper_by_shape and
   hopper_whole_tiles for each shape read from stdin ("M N K" a line), on 132 SMs and the bandwidth given (bytes/s,
   default the H200's). One line out per shape: M N K, the tile, the tiles split, the cluster, the kind, whether its
   roles are swapped. It compiles against a gemm.cu from before the swap per tile too (no HOPPER_SWAPS there:
   hopper_roles without the kind, no `swapped`), and replaces ../swap-split/sim.cu. */
#define main gemm_main
#include GEMM_CU
#undef main

int main(int argc, char **argv)
{
    double bandwidth = argc > 1 ? atof(argv[1]) : H200_BANDWIDTH;
    int m, n, k;
    while (scanf("%d %d %d", &m, &n, &k) == 3) {
        int kind = hopper_by_shape(m, n, k, 132, bandwidth);
        HopperTile tile = hopper_tile(kind);
#ifdef HOPPER_SWAPS
        Shape stored = hopper_shape(m, n, k, kind), roles = hopper_roles(&stored, kind);
        const char *swapped = tile.swapped ? " swapped" : "";
#else
        Shape stored = hopper_shape(m, n, k, kind), roles = hopper_roles(&stored);
        const char *swapped = HOPPER_SWAP ? " swapped" : "";
#endif
        int tiles = hopper_tiles(kind, &roles);
        int whole = hopper_whole_tiles(kind, tiles, 132 / tile.cluster, roles.k_padded, bandwidth);
        printf("%d %d %d %dx%dx%d %d c%d k%d%s\n", m, n, k, tile.block_m, tile.block_n, tile.block_k, tiles - whole,
               tile.cluster, kind, swapped);
    }
    return 0;
}
