#!/usr/bin/env python3
"""When (which minute of the run) each own-fault line of jackd's log fell: jackd's log has no timestamps, but the
probe prints the server-wide xrun count every 60 s, and the log has a line per xrun event ('JackTimedDriver::Process
XRun' or '...Process error'); an own-fault line's place among them, scaled to the xrun callbacks counted, dates it
to about a minute (approximate: the log's events and the callbacks do not match one to one)."""
import gzip, glob, re, sys, os
d = sys.argv[1]
log = glob.glob(os.path.join(d, 'lanehost-audio-path-*.log*'))[0]
lines = (gzip.open(log, 'rt') if log.endswith('.gz') else open(log)).read().splitlines()
progress = [(int(m.group(1)), int(m.group(2).replace(',', ''))) for m in
            (re.search(r'^\s+(\d+) s: .* xruns ([\d,]+),', l) for l in open(os.path.join(d, 'probe.txt'))) if m]
driver = 0
own = {'lanehost': [], 'plain': []}
for l in lines:
    if 'JackTimedDriver::Process XRun' in l or 'ProcessGraphAsyncMaster: Process error' in l:
        driver += 1
    m = re.search(r'client = (\w+) was not finished, state = Running', l)
    if m:
        own[m.group(1)].append(driver)
total = driver
final = [int(m.group(1)) for m in (re.search(r'xruns \(server-wide.*: lanehost (\d+)', l) for l in open(os.path.join(d, 'probe.txt'))) if m]
scale = final[0] / total if final and total else 1.0
own = {c: [round(i * scale) for i in idx] for c, idx in own.items()}
def when(n):
    prev_t, prev_x = 0, 0
    for t, x in progress:
        if n <= x:
            return f"{prev_t}-{t} s"
        prev_t, prev_x = t, x
    return f"after {prev_t} s (the last minute, or the stop)"
print(f"xrun events in the log: {total}, xrun callbacks: {final}; scaled by {scale:.2f}; progress: {progress}")
for c, idx in own.items():
    print(c, [f"xrun #{i}: {when(i)}" for i in idx])
