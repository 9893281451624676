#!/usr/bin/env python3
"""jackd's late-cycle lines grouped by cycle (a group ends at the driver's 'Process error' line): for each cycle where
the lanehost client was still running (own fault), was the plain client late in the same cycle too?"""
import gzip, glob, os, sys
for d in sys.argv[1:]:
    log = glob.glob(os.path.join(d, 'lanehost-audio-path-*.log*'))[0]
    lines = (gzip.open(log, 'rt') if log.endswith('.gz') else open(log)).read().splitlines()
    groups, current = [], []
    for l in lines:
        if 'was not finished' in l:
            current.append(l)
        elif 'Process error' in l or 'Process XRun' in l:
            if current:
                groups.append(current)
            current = []
    if current:
        groups.append(current)
    own = [g for g in groups if any('lanehost was not finished, state = Running' in l for l in g)]
    shared = [g for g in own if any('client = plain' in l for l in g)]
    plain_own = [g for g in groups if any('plain was not finished, state = Running' in l for l in g)]
    print(f"{os.path.basename(d)}: late cycles {len(groups)}; lanehost own-fault {len(own)}, of which plain also late in that cycle {len(shared)},"
          f" lanehost alone {len(own) - len(shared)}; plain own-fault {len(plain_own)}")
