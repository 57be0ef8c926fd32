# Each whole tile of evict/force/ (fp16 and int8, B transposed): the bytes one block reads over its time, and
# A and B over the time. Run from the repository root: python3 docs/bench/variants/h200/pull-floor/pulls.py
import glob,re,math,sys
def rows(p):
    for line in open(p):
        d=dict(kv.split('=',1) for kv in line.split() if '=' in kv)
        if 'median_ms' in d: yield d
for f in sorted(glob.glob('docs/bench/variants/h200/evict/force/force-*.txt')):
    for d in rows(f):
        if d['split_tiles']!='0': continue
        m,n,k=int(d['m']),int(d['n']),int(d['k'])
        t=float(d['median_ms'])*1e-3
        bm,bn,bk=map(int,d['tile'].split('x'))
        sz={'F16_IN_F32_OUT':2,'TF32_IN_F32_OUT':4,'I8_IN_I32_OUT':1}[d['type']]
        if d['type'].startswith('TF32'): continue
        blocks=math.ceil(m/bm)*math.ceil(n/bn)
        rounds=math.ceil(blocks/132)
        per=(bm+bn)*k*sz*rounds
        print(f"{d['type'][:4]} {m:4}x{n:5}x{k:5} {d['tile']:10} c{d['cluster']} blocks={blocks:4} r={rounds} pull={per/t/1e9:6.1f}GB/s total={(m*k+n*k)*sz/t/1e12:.2f}TB/s ratio={float(d['cublas_median_ms'])/float(d['median_ms']):.3f}")
