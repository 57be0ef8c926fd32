    __shared__ unsigned long long full[STAGES], empty[STAGES];
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"((unsigned)__cvta_generic_to_shared(&full[s])), "r"(THREADS));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"((unsigned)__cvta_generic_to_shared(&empty[s])), "r"(THREADS / 32));
        }
    __syncthreads();
    for (int t = 0; t < PREFETCH; t++)
        if (t < k_tiles) {
            load_stage(a_tiles + t * A_STAGE_ELEMS, b_tiles + t * B_STAGE_ELEMS, &a_plan, &b_plan, t);
            asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"((unsigned)__cvta_generic_to_shared(&full[t])) : "memory");
        }
    for (int k_tile = 0; k_tile < k_tiles; k_tile++) {
        int t = k_tile + PREFETCH;
        if (t < k_tiles) {
            int slot = t % STAGES;
            if (t >= STAGES)
                mbar_wait((unsigned)__cvta_generic_to_shared(&empty[slot]), (t / STAGES - 1) & 1);
            load_stage(a_tiles + slot * A_STAGE_ELEMS, b_tiles + slot * B_STAGE_ELEMS, &a_plan, &b_plan, t);
            asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"((unsigned)__cvta_generic_to_shared(&full[slot])) : "memory");
        }
        int slot = k_tile % STAGES;
        mbar_wait((unsigned)__cvta_generic_to_shared(&full[slot]), (k_tile / STAGES) & 1);
        multiply_stage(acc, a_tiles + slot * A_STAGE_ELEMS, b_tiles + slot * B_STAGE_ELEMS, warp_row, warp_col);
        __syncwarp();
        if (threadIdx.x % 32 == 0)
            asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"((unsigned)__cvta_generic_to_shared(&empty[slot])) : "memory");
    }
