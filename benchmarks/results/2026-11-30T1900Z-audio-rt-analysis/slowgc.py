#!/usr/bin/env python3
"""Lines up the lanehost client's slow callbacks (slow-callbacks.txt: start nanoTime, uptime ms, duration us) with the
JVM's log (-Xlog:gc*,safepoint:...:timenanos,...): safepoints (their [start, end]) and ZGC concurrent phases."""
import gzip, re, sys, os
d = sys.argv[1]
slow = []
for line in open(os.path.join(d, 'slow-callbacks.txt')):
    if line.startswith('#') or not line.strip():
        continue
    s, up, us = line.split()
    slow.append((int(s), float(us) * 1e3))
safepoints = []   # (start, end, name)
phases = []       # (start, end, name) concurrent phases
pat_time = re.compile(r'\[(\d+)ns\]')
pat_sp = re.compile(r'Safepoint "([^"]+)".*Reaching safepoint: (\d+) ns.*Total: (\d+) ns')
pat_ph = re.compile(r'GC\(\d+\) [yYoO]?:? ?(Concurrent [^0-9]*?|Pause [^0-9]*?) ([0-9.]+)ms')
opener = gzip.open if os.path.exists(os.path.join(d, 'gc.log.gz')) else open
path = os.path.join(d, 'gc.log.gz') if opener is gzip.open else os.path.join(d, 'gc.log')
first = last = None
with opener(path, 'rt') as f:
    for line in f:
        m = pat_time.search(line)
        if not m:
            continue
        t = int(m.group(1))
        first = first or t
        last = t
        sp = pat_sp.search(line)
        if sp:
            total = int(sp.group(3))
            safepoints.append((t - total, t, sp.group(1)))
            continue
        ph = pat_ph.search(line)
        if ph and 'gc,phases' in line:
            ms = float(ph.group(2))
            phases.append((t - int(ms * 1e6), t, ph.group(1).strip()))
conc = [p for p in phases if p[2].startswith('Concurrent')]
span = (last - first) if first else 1
conc_time = sum(e - s for s, e, _ in conc)
sp_time = sum(e - s for s, e, _ in safepoints)
print(f"log span {span/1e9:.1f} s; safepoints {len(safepoints)} ({sp_time/1e6:.1f} ms in all); ZGC concurrent phases {len(conc)} "
      f"({conc_time/1e9:.1f} s, {100*conc_time/span:.1f} % of the time)")
def overlaps(a0, a1, b0, b1, slack=0):
    return a0 <= b1 + slack and b0 <= a1 + slack
in_sp = in_conc = 0
over_period = [(s, n) for s, n in slow if n > 2_666_667]
rows = []
for s, n in slow:
    e = s + n
    sps = [x for x in safepoints if overlaps(s, e, x[0], x[1])]
    cs = [x for x in conc if overlaps(s, e, x[0], x[1])]
    in_sp += bool(sps)
    in_conc += bool(cs)
    rows.append((s, n, sps, cs))
print(f"slow callbacks (> half a period) kept: {len(slow)}; overlapping a safepoint: {in_sp}; during a ZGC concurrent phase: {in_conc}")
print(f"longer than a period: {len(over_period)}")
for s, n, sps, cs in rows:
    if n > 1_000_000:
        print(f"  {(s-first)/1e9 if first else 0:8.3f} s into the log: {n/1e6:6.2f} ms; safepoints {[ (x[2], round((x[1]-x[0])/1e3,1)) for x in sps]}; "
              f"concurrent {[x[2] for x in cs]}")
