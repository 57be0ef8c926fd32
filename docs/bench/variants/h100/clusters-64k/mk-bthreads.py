import re
src=open('out/gemm.cu').read()
def setrow(s, fam, kib, new):
    pat=re.compile(r'\{(%s),\s+%d,[^}]*\}' % (fam,kib))
    m=pat.search(s); assert m, (fam,kib)
    return s[:m.start()]+'{%s, %d, %s}'%(fam,kib,new)+s[m.end():]
V={'base3':[], 'bt99':[('TILES_HALF_ACC',99,'256,128,32,4,2,3,2,2,1'),('TILES_TF32',99,'128,256,16,2,4,3,1,2,1')]}
for name,rows in V.items():
    s=src
    for fam,kib,new in rows: s=setrow(s,fam,kib,new)
    open(f'{name}.cu','w').write(s)
