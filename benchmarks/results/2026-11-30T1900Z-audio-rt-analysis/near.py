#!/usr/bin/env python3
"""For each slow callback (slow-callbacks.txt) and each own-fault late-cycle line (late-cycles.txt) of a run, the
JVM log lines (gc.log.gz, timenanos) within a window around it: what the JVM was doing then."""
import gzip, os, re, sys
d = sys.argv[1]
before = int(float(sys.argv[2]) * 1e6) if len(sys.argv) > 2 else 30_000_000
after = int(float(sys.argv[3]) * 1e6) if len(sys.argv) > 3 else 30_000_000
pat = re.compile(r'\[(\d+)ns\]')
log = []
with gzip.open(os.path.join(d, 'gc.log.gz'), 'rt') as f:
    for line in f:
        m = pat.search(line)
        if m:
            log.append((int(m.group(1)), line.rstrip()))
events = []
for line in open(os.path.join(d, 'slow-callbacks.txt')):
    if not line.startswith('#') and line.strip():
        s, up, us = line.split()
        events.append((int(s), f"slow callback {float(us)/1e3:.2f} ms at uptime {float(up)/1e3:.3f} s"))
late = os.path.join(d, 'late-cycles.txt')
if os.path.exists(late):
    for line in open(late):
        if 'Running' in line:
            t, up, text = line.split(' ', 2)
            events.append((int(t), f"jackd own-fault line read at uptime {float(up)/1e3:.3f} s: {text.strip()}"))
for t, what in sorted(events):
    print(f"== {what}")
    for lt, text in log:
        if t - before <= lt <= t + after:
            print(f"   {(lt - t)/1e6:+8.2f} ms  {text[:230]}")
