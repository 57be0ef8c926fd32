# int8 rows of a suite CSV (argument) against docs/bench/suite-h200.csv (stop 68): per shape with B as stored the
# old and new median ms, tile, split tiles, TB/s and ratio to cuBLAS; each layout's geometric mean of the ratio.
#   python3 docs/bench/variants/h200/int8-regs/compare.py docs/bench/variants/h200/int8-regs/logs/suite-int8.csv
import csv, math, sys
old=[r for r in csv.DictReader(open('docs/bench/suite-h200.csv')) if r['type']=='I8_IN_I32_OUT' and r['kernel']=='hopper']
new=[r for r in csv.DictReader(open(sys.argv[1])) if r['kernel']=='hopper']
key=lambda r:(r['transpose_b'],r['m'],r['n'],r['k'])
o={key(r):r for r in old}
for tb in '01':
    lo=[];ln=[];
    for r in new:
        if r['transpose_b']!=tb: continue
        p=o.get(key(r))
        if not p or not r['ratio'] or not p['ratio']: 
            print('  ', tb, r['m'],r['n'],r['k'], 'new ms', r['median_ms'], 'old ms', p and p['median_ms'], r['tile']); continue
        lo.append(math.log(float(p['ratio']))); ln.append(math.log(float(r['ratio'])))
        if tb=='0': print(tb, r['m'],r['n'],r['k'], 'old', p['median_ms'], p['tile'], p['split_tiles'], p['tbs'], '-> new', r['median_ms'], r['tile'], r['split_tiles'], r['tbs'], 'ratio', p['ratio'], '->', r['ratio'])
    print('tb', tb, 'geomean old %.3f new %.3f' % (math.exp(sum(lo)/len(lo)), math.exp(sum(ln)/len(ln))), len(lo))
