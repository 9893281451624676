# paired.py FILES: windows paired (each window ran every ring in turn, 100 ms each); JVMs whose probes before and
# after were both far (> 300 ns) or both close (< 200 ns); median and quartiles of each ring's ratio to Agrona.
import sys, re, statistics as st
groups = {'far': {}, 'close': {}}
for f in sys.argv[1:]:
    lines = open(f).read().splitlines()
    probes = [float(re.search(r'trip ([\d.]+)', l)[1]) for l in lines if 'placement' in l]
    kind = 'far' if min(probes) > 300 else 'close' if max(probes) < 200 else None
    if kind is None: continue
    w = {}
    for l in lines:
        m = re.match(r'w(\d+) (\w+) GB/s=([\d.]+)', l)
        if m: w.setdefault(m[1], {})[m[2]] = float(m[3])
    for v in w.values():
        for k in v:
            if k != 'agrona': groups[kind].setdefault(k, []).append(v[k] / v['agrona'])
for kind, g in groups.items():
    for k, v in g.items():
        q = st.quantiles(v, n=4)
        print(f"{kind} {k}/agrona median {st.median(v):.2f} (p25 {q[0]:.2f}, p75 {q[2]:.2f}, {len(v)} windows)")
