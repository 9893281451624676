import json,glob,sys,statistics as st,os
# per-round median GB/s of each (jar, transport); ratios paired by round
base=sys.argv[1]
def med(f):
    out={}
    try: d=json.load(open(f))
    except Exception: return out
    for b in d:
        t=b['params']['transport']
        its=[x for fork in b['primaryMetric']['rawData'] for x in fork]
        out[t]=st.median(its)/1000  # ops/us * 512 B? keep relative
    return out
rounds={}
for f in glob.glob(base+'/*/r*/ring-throughput.json'):
    jar=f.split('/')[-3]; r=int(f.split('/')[-2][1:])
    rounds.setdefault(r,{})[jar]=med(f)
full=[r for r in sorted(rounds) if all(j in rounds[r] and rounds[r][j] for j in sys.argv[2:])]
print('rounds',len(full))
jars=sys.argv[2:]
def ratio(a,ta,b,tb):
    xs=[rounds[r][a][ta]/rounds[r][b][tb] for r in full if ta in rounds[r][a] and tb in rounds[r][b]]
    return f"{st.median(xs):.3f} (p25 {sorted(xs)[len(xs)//4]:.3f}, p75 {sorted(xs)[3*len(xs)//4]:.3f}, n {len(xs)})"
for j in jars[1:]:
    for t in ['javaToJava','javaToC']:
        print(f"{j}/{t} over base/{t}:", ratio(j,t,'base',t))
for j in jars:
    for t in ['javaToJava']:
        for p in ['agrona','disruptor','jctools']:
            print(f"{j}/{t} over base/{p}:", ratio(j,t,'base',p))
