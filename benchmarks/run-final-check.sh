#!/usr/bin/env bash
# The lane and gate targets' check as RESULTS.md part 2 quotes it ("re-checked on the final code"): ROUNDS rounds
# (default 3) of the lane-drive and call-gate benchmarks with -prof gc, a placement probe before and after each
# benchmark run, then each round's ratios against the raw FFM upcall. Writes benchmarks/results/<UTC time>-final-check/.
#
#   benchmarks/run-final-check.sh            about 3 minutes a round on 2 vCPUs
#   ROUNDS=1 benchmarks/run-final-check.sh
#
# It only packages (never `mvn install`). JAVA_HOME_25 names a JDK 25; by default the Temurin 25 under /usr/lib/jvm.
# The floor and the drive run in one JVM, one after the other: read a round's ratio with its placement lines (close
# ~80-130 ns, far ~430-560 ns round trip here), and compare rounds, not single figures.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME_25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
JAR=benchmarks/target/benchmarks.jar
ROUNDS="${ROUNDS:-3}"
OUT=benchmarks/results/$(date -u +%Y-%m-%dT%H%MZ)-final-check
mkdir -p "$OUT"
mvn -B -q -DskipTests -pl benchmarks -am package > "$OUT/build.txt" 2>&1
{ "$JAVA" -version 2>&1; uname -a; lscpu | grep -E '^(Model name|CPU\(s\))'; git rev-parse HEAD; } > "$OUT/machine.txt"
probe() { uptime | sed "s/^/$1 uptime:/" >> "$OUT/uptime.txt"; "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.PlacementProbe "$1" 2>/dev/null | tee -a "$OUT/placement.txt"; }
for r in $(seq 1 "$ROUNDS"); do
    probe "r$r-before-lanes"
    "$JAVA" -jar "$JAR" 'LaneDriveBenchmark.(rawUpcall|emptyDrive|rawTableUpcall|tableDrive|laneTurns|hostedLaneTurns|tableTurns)$' \
        -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -rf json -rff "$OUT/r$r-lanes.json" > "$OUT/r$r-lanes.txt" 2>&1
    probe "r$r-after-lanes"
    "$JAVA" -jar "$JAR" 'CallGateBenchmark.(callOnLane|callOnLaneCbor|callOnLaneReply|tableCallOnLane|blockingCall|blockingCallCbor)$' \
        -p idle=default -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -rf json -rff "$OUT/r$r-gates.json" > "$OUT/r$r-gates.txt" 2>&1
    probe "r$r-after-gates"
done
python3 - "$OUT" "$ROUNDS" <<'PY' | tee "$OUT/ratios.txt"
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def scores(path):
    found = {}
    for b in json.load(open(path)):
        name = b["benchmark"].rsplit(".", 1)[1]
        raw = [x for fork in b["primaryMetric"]["rawData"] for x in fork]
        found[name] = (b["primaryMetric"]["score"], statistics.median(raw))
    return found
print("round  emptyDrive/rawUpcall (mean, median of iterations)  tableDrive/rawTableUpcall (mean, median)")
for r in range(1, rounds + 1):
    s = scores(f"{out}/r{r}-lanes.json")
    def ratio(a, b, i):
        return s[a][i] / s[b][i]
    print(f"r{r}     {ratio('emptyDrive', 'rawUpcall', 0):.2f}x  {ratio('emptyDrive', 'rawUpcall', 1):.2f}x"
          f"                                  {ratio('tableDrive', 'rawTableUpcall', 0):.2f}x  {ratio('tableDrive', 'rawTableUpcall', 1):.2f}x")
PY
echo "results in $OUT (placement.txt: the probe before and after each benchmark run)"
