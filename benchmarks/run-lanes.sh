#!/usr/bin/env bash
# Runs the lane and call-gate benchmarks (LaneDriveBenchmark, CallGateBenchmark) once each, with a placement probe
# before and after each, then prints the lane targets' ratios (an empty drive against a raw FFM upcall, directly
# and through the host ABI's table). Writes everything to $LANEHOST_RESULTS/<UTC time>-lanes/.
#
#   benchmarks/run-lanes.sh            about 4.5 minutes on 2 vCPUs
#
# One run's drive/upcall ratio moves by more than the few ns the target is about; benchmarks/run-final-check.sh
# repeats the check in rounds. See benchmarks/common.sh for JAVA_HOME_25 and LANEHOST_RESULTS.
set -euo pipefail
source "$(dirname "$0")/common.sh"
start_run lanes
build
describe_machine
for bench in LaneDriveBenchmark CallGateBenchmark; do
    probe "before-$bench"
    "$JAVA" -jar "$JAR" "$bench" -f 1 -wi 3 -w 1s -i 5 -r 1s "${FORK_ARGS[@]}" -rf json -rff "$OUT/$bench.json" > "$OUT/$bench.txt" 2>&1
    probe "after-$bench"
    grep -E '^(Benchmark|[A-Za-z]+Benchmark\.)' "$OUT/$bench.txt" | grep -vE ':(placement|foreign|steal)' || true
done
"$JAVA" -cp "$JAR" dev.lanehost.benchmarks.JmhRatios "$OUT/LaneDriveBenchmark.json" \
    emptyDrive/rawUpcall tableDrive/rawTableUpcall emptyDriveJna/rawUpcall | tee "$OUT/ratios.txt"
echo "results in $OUT"
