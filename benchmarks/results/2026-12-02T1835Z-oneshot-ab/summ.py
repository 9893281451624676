import json,glob,sys,statistics,re,os
d=sys.argv[1]
rows={}
for p in sorted(glob.glob(d+'/*.json')):
    m=re.match(r'(lanes|pp)-(before|after)-(\d+)\.json',os.path.basename(p))
    kind,v,r=m.groups()
    try: data=json.load(open(p))
    except Exception: continue
    for b in data:
        name=b['benchmark'].split('.')[-1]
        if b.get('params'): name+='['+','.join(f'{k}={v2}' for k,v2 in b['params'].items() if k!='contender')+']'
        its=[x for fork in b['primaryMetric']['rawData'] for x in fork]
        rows.setdefault(name,{}).setdefault(v,{})[int(r)]=(statistics.median(its),b['primaryMetric']['scoreUnit'])
for name,vs in rows.items():
    rounds=sorted(set(vs.get('before',{}))|set(vs.get('after',{})))
    line=[]
    for r in rounds:
        b=vs.get('before',{}).get(r); a=vs.get('after',{}).get(r)
        if b and a: line.append(f"r{r}: {b[0]:.4g} -> {a[0]:.4g} ({a[0]/b[0]:.3f}x)")
    unit=next(iter(next(iter(vs.values())).values()))[1]
    print(f"{name} [{unit}]: "+'; '.join(line))
print(open(d+'/placement.txt').read())
