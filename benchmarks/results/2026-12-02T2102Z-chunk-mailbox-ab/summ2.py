import json, glob, statistics as st, os, sys
out = sys.argv[1] if len(sys.argv) > 1 else '/tmp/expab/out2'
def med(f, name, params=None):
    try:
        d = json.load(open(f))
    except Exception:
        return None
    for b in d:
        if b['benchmark'].endswith('.' + name) and (params is None or all(b['params'].get(k) == v for k, v in params.items())):
            raw = [x for fork in b['primaryMetric']['rawData'] for x in fork]
            return st.median(raw)
    return None
rows = [('hostedLaneTurns old', 'lanes-{v}-old-{r}.json', 'hostedLaneTurns', None, 1),
        ('hostedLaneTurns young', 'lanes-{v}-young-{r}.json', 'hostedLaneTurns', None, 1),
        ('laneTurns old', 'lanes-{v}-old-{r}.json', 'laneTurns', None, 1),
        ('laneTurns young', 'lanes-{v}-young-{r}.json', 'laneTurns', None, 1),
        ('rawUpcall old', 'lanes-{v}-old-{r}.json', 'rawUpcall', None, 1),
        ('ping-pong 1 pair (M rt/s)', 'pp-{v}-{r}.json', 'roundTrips', {'pairs': '1'}, 1e6),
        ('ping-pong 64 pairs (M rt/s)', 'pp-{v}-{r}.json', 'roundTrips', {'pairs': '64'}, 1e6)]
for label, pat, name, params, scale in rows:
    cells, ratios = [], []
    for r in range(1, 9):
        b = med(os.path.join(out, pat.format(v='base', r=r)), name, params)
        e = med(os.path.join(out, pat.format(v='exp', r=r)), name, params)
        if b is None or e is None:
            continue
        cells.append(f'{b/scale:.1f} → {e/scale:.1f}')
        ratios.append(e / b)
    if ratios:
        print(f'| {label} | ' + ' | '.join(cells) + f' | **{st.median(ratios):.2f}×** |')
