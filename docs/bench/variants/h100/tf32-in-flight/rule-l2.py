"""Would a bound on the bytes every small tile reads from L2 (tiles x (cluster_m + cluster_n) x K x bytes at L2
bandwidth) pick better? A Python copy of hopper_by_shape for fp16 and for tf32 with the roles swapped, checked
against the program's picks in suite-h100.csv, scored on the forced runs of ../refit/ and ../heldout/ (fp16) and
forced-dbl.txt (tf32, B as stored). python3 rule-l2.py > rule-l2.txt"""
import csv, math, os, re, sys
H=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'heldout'); REFIT=H+'/../refit'
SMS=132
def up(x,a): return (x+a-1)//a*a
def parts(c,t,kt): return min(c//t,kt)
def tiles_of(swap):
    sh = 2 if swap else 4
    return {8: dict(cm=256,cn=256,cluster=2,small=False,share=2,speed=100),
            10: dict(cm=64,cn=128,cluster=1,small=True,share=sh,speed=75),
            11: dict(cm=64,cn=64,cluster=1,small=True,share=sh,speed=62),
            12: dict(cm=128,cn=256,cluster=2,small=True,share=sh,speed=87)}
def whole_tiles(t,tiles,clusters,k,rated,by,bk):
    s=2*t['cm']*t['cn']*k/(rated/clusters)
    if t['small']: s=max(s,(t['cm']+t['cn'])*k*by/(3.35e12/clusters))
    last=tiles%clusters
    saved=s*(1-1/parts(clusters,last,k//bk)) if last else 0
    if tiles>clusters and last and 2*last<=clusters and saved>=30e-6: return tiles-last
    return 0 if tiles*t['share']<=clusters and s>=100e-6 else tiles
def pick(m,n,k,cfg,l2=None,pull=90e9):
    rated,by,bk,swap=cfg
    if swap: m,n=n,m
    best=None
    for kind,t in tiles_of(swap).items():
        mp,np_,kp=up(m,t['cm']),up(n,t['cn']),up(k,bk)
        tiles,clusters=(mp//t['cm'])*(np_//t['cn']),SMS//t['cluster']
        split=whole_tiles(t,tiles,clusters,kp,rated,by,bk)==0
        rounds=1/parts(clusters,tiles,kp//bk) if split else math.ceil(tiles/clusters)
        time=rounds*2*t['cm']*t['cn']*kp/(rated/clusters*t['speed']/100)
        if t['small'] and not split and tiles*t['share']<=clusters:
            time=max(time,(t['cm']+t['cn'])*kp*by/(t['cluster']*pull))
        if l2 and t['small']:
            time=max(time, tiles*(t['cm']+t['cn'])*kp*by/l2)
        time+=15e-6 if split else 0
        if best is None or time<best[0]: best=(time,kind)
    return best[1]
KIND_OF={}
for bk in (64,32):
    KIND_OF.update({"128x256x%d"%bk:8,"64x128x%d"%bk:10,"64x64x%d"%bk:11,"128x128x%d"%bk:12})
def load(files):
    runs={}
    for path,tb,kind in files:
        for line in open(path):
            if 'median_ms=' in line:
                d=dict(re.findall(r"(\w+)=(\S+)",line))
                e=runs.setdefault((tb,int(d['m']),int(d['n']),int(d['k'])),{'cublas':[]})
                e[kind]=float(d['median_ms']); e['cublas'].append(float(d['cublas_median_ms']))
                e.setdefault('tile_'+kind,d['tile'])
    return runs
def score(runs,cfg,**rule):
    rs=[]
    for s,e in runs.items():
        cb=sorted(e['cublas'])[len(e['cublas'])//2]
        rs.append((cb/e[str(pick(*s[1:],cfg,**rule))],s))
    return math.exp(sum(math.log(r) for r,_ in rs)/len(rs)), min(rs)
F16=(989e12,2,64,False); T32=(494e12,4,32,True)
suite=load([(os.path.join(REFIT,"o-%s-%s.txt"%(tb,k)),tb,k) for tb in "01" for k in ("8","10","11","12")])
held=load([(os.path.join(H,"h-1-%s.txt"%k),"1",k) for k in ("none","8","10","11","12")])
# tf32 forced dbl: kinds from file, need per kind: parse tile to kind
tf={}
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'forced-dbl.txt')):
    if 'median_ms=' in line:
        d=dict(re.findall(r"(\w+)=(\S+)",line))
        e=tf.setdefault(('0',int(d['m']),int(d['n']),int(d['k'])),{'cublas':[]})
        e[str(KIND_OF[d['tile']])]=float(d['median_ms']); e['cublas'].append(float(d['cublas_median_ms']))
# check copy on tf32 picks
prog={}
for r in csv.DictReader(open(os.path.join(H, '..', '..', '..', 'suite-h100.csv'))):
    if r['type']=='TF32_IN_F32_OUT' and r['kernel']=='hopper' and r['transpose_b']=='0':
        prog[(int(r['m']),int(r['n']),int(r['k']))]=KIND_OF[r['tile']]
wrong=[s for s,k in prog.items() if pick(*s,T32)!=k]
print('tf32 copy wrong:',wrong)
progf={}
for r in csv.DictReader(open(os.path.join(H, '..', '..', '..', 'suite-h100.csv'))):
    if r['type']=='F16_IN_F32_OUT' and r['kernel']=='hopper':
        progf[(int(r['m']),int(r['n']),int(r['k']))]=KIND_OF[r['tile']]
print('f16 copy wrong:',[s for s,k in progf.items() if pick(*s,F16)!=k])
for l2 in (None,5e12,6e12,7e12,8e12,9e12,10e12,12e12):
    a,aw=score(suite,F16,l2=l2); b,bw=score(held,F16,l2=l2); c,cw=score(tf,T32,l2=l2)
    print(l2, 'f16 suite %.4f (%.3f %s) held %.4f (%.3f %s) tf32B0 %.4f (%.3f %s)'%(a,aw[0],aw[1][1:],b,bw[0],bw[1][1:],c,cw[0],cw[1][1:]))
