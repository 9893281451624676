#!/usr/bin/env bash
# The HOSTED lane turn (`hostedLaneTurns`) and the raw upcall beside it, started only when the placement probe reads
# far: on this machine far comes for under a minute at a time, shorter than a run of the usual length, so the script
# probes every 5 s and starts a short run (2 warm-up and 3 measured iterations of 1 s) at each far reading, with a
# probe after it, until MINUTES have passed. Writes $LANEHOST_RESULTS/<UTC time>-lane-turn-far/, one far<N>.txt a run,
# and prints each run's placement before and after and its two scores.
#
#   benchmarks/run-lane-turn-far.sh              10 minutes, build included
#   MINUTES=30 benchmarks/run-lane-turn-far.sh
#
# See benchmarks/common.sh for JAVA_HOME_25 and LANEHOST_RESULTS.
set -euo pipefail
source "$(dirname "$0")/common.sh"
MINUTES="${MINUTES:-10}"
if [[ ! "$MINUTES" =~ ^[1-9][0-9]*$ ]]; then
    echo "MINUTES must be a whole number of at least 1, got MINUTES='$MINUTES'" >&2
    exit 2
fi
start_run lane-turn-far
build
describe_machine
end=$(( $(date +%s) + 60 * MINUTES ))
runs=0
while (( $(date +%s) < end )); do
    before=$("$JAVA" -cp "$JAR" dev.lanehost.benchmarks.PlacementProbe before 2>/dev/null)
    echo "$(date -u +%T) $before" >> "$OUT/probes.txt"
    if [[ "$before" != *"(far"* ]]; then
        sleep 5
        continue
    fi
    runs=$((runs + 1))
    {
        echo "$before"
        "$JAVA" -jar "$JAR" 'LaneDriveBenchmark.(rawUpcall|hostedLaneTurns)$' -f 1 -wi 2 -w 1s -i 3 -r 1s "${FORK_ARGS[@]}" \
            -jvmArgsAppend "--enable-native-access=ALL-UNNAMED -XX:MaxTenuringThreshold=0" 2>&1 \
            | grep -E '^(Benchmark|LaneDriveBenchmark)' || true
        "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.PlacementProbe after 2>/dev/null
    } > "$OUT/far$runs.txt"
    placements=$(grep -o '(far\|(close\|(middle' "$OUT/far$runs.txt" | tr -d '(' | paste -sd/ -)
    scores=$(grep -E '^LaneDriveBenchmark\.' "$OUT/far$runs.txt" | awk '{printf "%s %s ns  ", $1, $4}')
    echo "run $runs ($placements): $scores"
done
echo "$runs runs began far; results in $OUT"
