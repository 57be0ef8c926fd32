import re
src=open('out/gemm.cu').read()
def setrow(s, fam, kib, new):
    pat=re.compile(r'\{(%s),\s+%d,[^}]*\}' % (fam,kib))
    m=pat.search(s); assert m, (fam,kib)
    return s[:m.start()]+'{%s, %d, %s}'%(fam,kib,new)+s[m.end():]
V={'base2':[],
 'k64':[('TILES_16BIT',99,'192,128,64,3,2,2,1,2,0'),('TILES_HALF_ACC',99,'192,128,64,3,2,2,1,2,0')],
 'ah1':[('TILES_16BIT',99,'256,128,32,4,2,3,1,2,0'),('TILES_HALF_ACC',99,'256,128,32,4,2,3,1,2,0')],
}
for name,rows in V.items():
    s=src
    for fam,kib,new in rows: s=setrow(s,fam,kib,new)
    open(f'{name}.cu','w').write(s)
