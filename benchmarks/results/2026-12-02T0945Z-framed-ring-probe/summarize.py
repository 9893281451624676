# summarize.py r*.txt: per JVM, the placement before/after and the median GB/s of each ring with ratios.
import sys, re, statistics as st
for f in sorted(sys.argv[1:], key=lambda x: int(re.sub(r'\D', '', x) or 0)):
    lines = open(f).read().splitlines()
    probes = [re.search(r'trip ([\d.]+)', l)[1] for l in lines if 'placement' in l]
    d = {}
    for l in lines:
        m = re.match(r'w\d+ (\w+) GB/s=([\d.]+)', l)
        if m: d.setdefault(m[1], []).append(float(m[2]))
    if not d: print(f, 'no data'); continue
    med = {k: st.median(v) for k, v in d.items()}
    r = ' '.join(f"{k}/agrona {med[k]/med['agrona']:.2f}" for k in med if k not in ('agrona',))
    print(f, '/'.join(probes), ' '.join(f"{k} {v:.2f}" for k, v in med.items()), '|', r)
