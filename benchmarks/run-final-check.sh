#!/usr/bin/env bash
# The lane and gate targets' check as RESULTS.md's lane and gate rows quote it: ROUNDS rounds
# (default 3) of the lane-drive and call-gate benchmarks with -prof gc, a placement probe before and after each
# benchmark run, then each round's ratios against the raw FFM upcall. Writes $LANEHOST_RESULTS/<UTC time>-final-check/.
#
#   benchmarks/run-final-check.sh            about 4.5 minutes a round on 2 vCPUs
#   ROUNDS=1 benchmarks/run-final-check.sh
#
# See benchmarks/common.sh for JAVA_HOME_25 and LANEHOST_RESULTS.
# The floor and the drive run in one JVM, one after the other: read a round's ratio with its placement lines (close
# ~80-130 ns, far ~430-560 ns round trip here), and compare rounds, not single figures.
set -euo pipefail
source "$(dirname "$0")/common.sh"
ROUNDS="${ROUNDS:-3}"
start_run final-check
build
describe_machine
for r in $(seq 1 "$ROUNDS"); do
    probe "r$r-before-lanes"
    "$JAVA" -jar "$JAR" 'LaneDriveBenchmark.(rawUpcall|emptyDrive|rawTableUpcall|tableDrive|laneTurns|hostedLaneTurns|tableTurns)$' \
        -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc "${FORK_ARGS[@]}" -rf json -rff "$OUT/r$r-lanes.json" > "$OUT/r$r-lanes.txt" 2>&1
    probe "r$r-after-lanes"
    "$JAVA" -jar "$JAR" 'CallGateBenchmark.(callOnLane|callOnLaneCbor|callOnLaneReply|tableCallOnLane|blockingCall|blockingCallCbor)$' \
        -p idle=default -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc "${FORK_ARGS[@]}" -rf json -rff "$OUT/r$r-gates.json" > "$OUT/r$r-gates.txt" 2>&1
    probe "r$r-after-gates"
done
for r in $(seq 1 "$ROUNDS"); do
    echo "round $r:"
    "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.JmhRatios "$OUT/r$r-lanes.json" emptyDrive/rawUpcall tableDrive/rawTableUpcall \
        | sed 's/^/  /'
done | tee "$OUT/ratios.txt"
echo "results in $OUT (placement.txt: the probe before and after each benchmark run)"
