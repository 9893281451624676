import json,glob,sys,statistics as st
base=sys.argv[1]
def med(f):
    out={}
    try: d=json.load(open(f))
    except Exception: return out
    for b in d:
        its=[x for fork in b['primaryMetric']['rawData'] for x in fork]
        out[b['params']['transport']]=st.median(its)*512/1e6 if False else st.median(its)/1000
    return out
R={}
for f in glob.glob(base+'/*/r*/ring-throughput.json'):
    R.setdefault(int(f.split('/')[-2][1:]),{})[f.split('/')[-3]]=med(f)
full=[r for r in sorted(R) if all(len(R[r].get(j,{}))==6 for j in ('base','backoff'))]
print('rounds',len(full))
ts=['javaToJava','cToJava','agrona','disruptor','jctools','cToC']
for j in ('base','backoff'):
    print(j, ' '.join(f"{t}={st.median(R[r][j][t] for r in full):.2f}" for t in ts))
for t in ts:
    xs=[R[r]['backoff'][t]/R[r]['base'][t] for r in full]
    print(f"backoff/base {t}: {st.median(xs):.3f}")
for j in ('base','backoff'):
    for p in ['agrona','disruptor','jctools']:
        xs=[R[r][j]['javaToJava']/R[r][j][p] for r in full]
        print(f"{j}: javaToJava/{p} {st.median(xs):.3f} (p25 {sorted(xs)[len(xs)//4]:.3f} p75 {sorted(xs)[3*len(xs)//4]:.3f})")
