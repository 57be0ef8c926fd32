__device__ static inline void multiply_stage(fragment_c (&acc)[FRAGS_M][FRAGS_N], const input_t *a_tile,
                                             const input_t *b_tile, int warp_row, int warp_col)
{
    fragment_a a_frag[2][FRAGS_M];
    fragment_b b_frag[2][FRAGS_N];
#pragma unroll
    for (int i = 0; i < FRAGS_M; i++) {
        wmma::load_matrix_sync(a_frag[0][i], a_tile + A_SMEM_OFFSET(warp_row + i * FRAG_M, 0), A_LD);
        round_fragment(a_frag[0][i]);
    }
#pragma unroll
    for (int j = 0; j < FRAGS_N; j++) {
        wmma::load_matrix_sync(b_frag[0][j], b_tile + B_SMEM_OFFSET(0, warp_col + j * FRAG_N), B_LD);
        round_fragment(b_frag[0][j]);
    }
#pragma unroll
    for (int step = 0; step < BLOCK_K / FRAG_K; step++) {
        const int now = step % 2, next = 1 - now;
        if (step + 1 < BLOCK_K / FRAG_K) {
#pragma unroll
            for (int i = 0; i < FRAGS_M; i++) {
                wmma::load_matrix_sync(a_frag[next][i], a_tile + A_SMEM_OFFSET(warp_row + i * FRAG_M, (step + 1) * FRAG_K), A_LD);
                round_fragment(a_frag[next][i]);
            }
#pragma unroll
            for (int j = 0; j < FRAGS_N; j++) {
                wmma::load_matrix_sync(b_frag[next][j], b_tile + B_SMEM_OFFSET((step + 1) * FRAG_K, warp_col + j * FRAG_N), B_LD);
                round_fragment(b_frag[next][j]);
            }
        }
#pragma unroll
        for (int i = 0; i < FRAGS_M; i++)
#pragma unroll
            for (int j = 0; j < FRAGS_N; j++)
                wmma::mma_sync(acc[i][j], a_frag[now][i], b_frag[now][j], acc[i][j]);
    }
}
