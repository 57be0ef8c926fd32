#!/usr/bin/env python3
"""Make a variant of out/gemm.cu: override tile macros of one type branch, optionally double-buffer fragments.
usage: variant.py OUT.cu BRANCH NAME=VALUE... [dbuf] [noround] [minblocks=N]
BRANCH indexes the #if/#elif branches of the tile-size block of the current source (tune2.sh lists them)."""
import re, sys
out, branch, *rest = sys.argv[1:]
branch = int(branch)
src = open('out/gemm.cu').read()
start = src.index('#if defined(F64_IN_OUT)\n#define BLOCK_M')
end = src.index('#define THREADS', start)
block = src[start:end]
parts, current, depth = [], [], 0   # the top-level #if/#elif/#else/#endif branches; nested #ifs stay inside
for line in block.splitlines(keepends=True):
    directive = line.lstrip()
    boundary = (directive.startswith('#if') and depth == 0) or \
               (directive.startswith(('#elif', '#else')) and depth == 1) or \
               (directive.startswith('#endif') and depth == 1)
    if boundary and current:
        parts.append(''.join(current))
        current = []
    if directive.startswith('#if'):
        depth += 1
    elif directive.startswith('#endif'):
        depth -= 1
    current.append(line)
parts.append(''.join(current))
for kv in rest:
    if '=' not in kv:
        continue
    name, value = kv.split('=')
    parts[branch] = re.sub(r'(?m)^#define %s .*$' % name, '#define %s %s' % (name, value), parts[branch])
src = src[:start] + ''.join(parts) + src[end:]
if 'dbuf' in rest:
    a = src.index('__device__ static inline void multiply_stage(')
    b = src.index('\n}\n', a) + 3
    src = src[:a] + open(__file__.replace('variant.py', 'dbuf.cu')).read() + src[b:]
for r in rest:   # minblocks=N: the second argument of __launch_bounds__
    if r.startswith('minblocks='):
        src = src.replace('__launch_bounds__(THREADS)\nd_gemm(', '__launch_bounds__(THREADS, %s)\nd_gemm(' % r.split('=')[1])
        src = src.replace('D_GEMM_BOUNDS\nd_gemm(', '__launch_bounds__(THREADS, %s)\nd_gemm(' % r.split('=')[1])
if 'noround' in rest:
    src = src.replace('fragment.x[t] = wmma::__float_to_tf32(fragment.x[t]);', ';')
open(out, 'w').write(src)
