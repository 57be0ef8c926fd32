"""Writes the two sources of this experiment from out/gemm.cu of 54486a0: f-base2.cu (the code, plus a line in
hopper_kind that takes the tile from HOPPER_FORCE) and f-n192.cu (the same, with step 8's 64 x 128 tile made
64 x 192: a wgmma of N = 192 for the float and integer accumulators, not F16_IN_OUT's or tf32's A in registers).
python3 variant.py out/gemm.cu DIR"""
import sys

src = open(sys.argv[1]).read()
force = "    return step < HOPPER_BY_SHAPE ? step : hopper_by_shape(m, n, k, sms);"
assert src.count(force) == 1
base = src.replace(force, '    if (step >= HOPPER_BY_SHAPE && getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n'
                   + force)
edits = [
    ("#define WGMMA_D128(c, d, i) WGMMA_D64(c, d, i), WGMMA_D64(c, d, i + 64)",
     "#define WGMMA_D128(c, d, i) WGMMA_D64(c, d, i), WGMMA_D64(c, d, i + 64)\n"
     "#define WGMMA_D96(c, d, i) WGMMA_D64(c, d, i), WGMMA_D32(c, d, i + 64)\n"
     '#define WGMMA_L96 WGMMA_L64 ", ' + ", ".join("%%%d" % i for i in range(64, 96)) + '"'),
    ("#define WGMMA_64(d, a, b, s) WGMMA_N(64, WGMMA_L32, WGMMA_D32(WGMMA_OUT, d, 0), 34, "
     "WGMMA_TAIL(32, 33, 35, 36), a, b, s)",
     "#define WGMMA_64(d, a, b, s) WGMMA_N(64, WGMMA_L32, WGMMA_D32(WGMMA_OUT, d, 0), 34, "
     "WGMMA_TAIL(32, 33, 35, 36), a, b, s)\n"
     "#define WGMMA_192(d, a, b, s) WGMMA_N(192, WGMMA_L96, WGMMA_D96(WGMMA_OUT, d, 0), 98, "
     "WGMMA_TAIL(96, 97, 99, 100), a, b, s)"),
    ('static_assert(N == 256 || N == 128 || N == 64, "wgmma widths this kernel uses");', ""),
    ("    else if constexpr (N == 128)\n        WGMMA_128(d, a, b, scale);",
     "    else if constexpr (N == 128)\n        WGMMA_128(d, a, b, scale);\n"
     "    else if constexpr (N == 192)\n        WGMMA_192(d, a, b, scale);"),
    ("int columns = n64 ? 64 : n128 ? 128 : 256;",
     "int columns = n64 ? 64 : step == HOPPER_NARROW ? 192 : n128 ? 128 : 256;"),
]
n192 = base
for old, new in edits:
    assert n192.count(old) == 1, old
    n192 = n192.replace(old, new)
open(sys.argv[2] + "/f-base2.cu", "w").write(base)
open(sys.argv[2] + "/f-n192.cu", "w").write(n192)
