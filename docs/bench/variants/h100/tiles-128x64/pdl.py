#!/usr/bin/env python3
"""Patch a copy of out/gemm.cu for the `pdl` variant: d_gather_pieces is launched with programmatic dependent
launch (it waits with griddepcontrol.wait before reading the slots), and the pieces kernel lets it launch early
(griddepcontrol.launch_dependents). Usage: pdl.py IN OUT."""
import sys
s = open(sys.argv[1]).read()


def patch(old, new):
    global s
    if s.count(old) != 1:
        sys.exit("pdl.py: %r found %d times" % (old, s.count(old)))
    s = s.replace(old, new)


patch("    scalar_t sum = 0;\n#pragma unroll 4\n",
      "#if __CUDA_ARCH__ >= 900\n    asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");\n#endif\n"
      "    scalar_t sum = 0;\n#pragma unroll 4\n")
patch("#if HOPPER_BUILT\n    constexpr HopperTile tile = hopper_tile(STEP);\n    extern __shared__",
      "#if HOPPER_BUILT\n    if (PIECES)\n        asm volatile(\"griddepcontrol.launch_dependents;\");\n"
      "    constexpr HopperTile tile = hopper_tile(STEP);\n    extern __shared__")
patch("    CHECK_CUDA(cudaLaunchKernel(hopper_gather_kernel(step), dim3(blocks), dim3(GATHER_THREADS), gather_arguments, 0, 0));",
      "    cudaLaunchConfig_t gather = {};\n    gather.gridDim = dim3(blocks);\n    gather.blockDim = dim3(GATHER_THREADS);\n"
      "    cudaLaunchAttribute early;\n    early.id = cudaLaunchAttributeProgrammaticStreamSerialization;\n"
      "    early.val.programmaticStreamSerializationAllowed = 1;\n    gather.attrs = &early;\n    gather.numAttrs = 1;\n"
      "    CHECK_CUDA(cudaLaunchKernelExC(&gather, hopper_gather_kernel(step), gather_arguments));")
open(sys.argv[2], "w").write(s)
