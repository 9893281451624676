import json,statistics,glob,sys,os
d=sys.argv[1]; res={}
for f in sorted(glob.glob(d+'/*.json')):
    v,r=os.path.basename(f)[:-5].rsplit('-',1)
    try: data=json.load(open(f))
    except Exception: continue
    for b in data:
        name=b['benchmark'].split('.')[-1]
        res.setdefault(name,{}).setdefault(v,{})[r]=b['primaryMetric']['score']
for n,dd in res.items():
    print(n, ' | '.join(f"{v}: {' '.join('%.1f'%x for x in rr.values())} med {statistics.median(rr.values()):.1f}" for v,rr in dd.items()))
# ratio tableDrive / rawTableUpcall per fork
if 'tableDrive' in res and 'rawTableUpcall' in res:
    for v in res['tableDrive']:
        rs=[res['tableDrive'][v][r]/res['rawTableUpcall'][v][r] for r in res['tableDrive'][v] if r in res['rawTableUpcall'][v]]
        print('ratio', v, ' '.join('%.3f'%x for x in rs), 'med %.3f'%statistics.median(rs))
