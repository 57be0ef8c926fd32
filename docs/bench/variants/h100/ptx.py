#!/usr/bin/env python3
"""usage: ptx.py FILE.cu -- load fp16 fragments with the inline-PTX wmma.load...shared too (LOAD_BY_PTX)."""
import sys
path = sys.argv[1]
src = open(path).read()
src = src.replace('#if defined(BF16_IN_F32_OUT) || defined(TF32_IN_F32_OUT) || defined(F64_IN_OUT)\n#define LOAD_BY_PTX 1',
                  '#if !IS_INTEGER\n#define LOAD_BY_PTX 1')
src = src.replace('#if defined(BF16_IN_F32_OUT)\n#define PTX_TYPE "bf16"',
                  '#if defined(F16_IN_F32_OUT) || defined(F16_IN_OUT)\n#define PTX_TYPE "f16"\n'
                  '#elif defined(BF16_IN_F32_OUT)\n#define PTX_TYPE "bf16"')
assert '#if !IS_INTEGER\n#define LOAD_BY_PTX 1' in src and 'PTX_TYPE "f16"' in src
open(path, 'w').write(src)
