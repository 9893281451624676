#!/usr/bin/env bash
# Runs the lane and call-gate benchmarks (LaneDriveBenchmark, CallGateBenchmark) with a placement probe
# before and after each, writing everything to benchmarks/results/<UTC time>-lanes/.
#
#   benchmarks/run-lanes.sh            about 3 minutes on 2 vCPUs
#
# It only packages (never `mvn install`). JAVA_HOME must be a JDK 25; by default the Temurin 25 under /usr/lib/jvm.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME_25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
JAR=benchmarks/target/benchmarks.jar
OUT=benchmarks/results/$(date -u +%Y-%m-%dT%H%MZ)-lanes
mkdir -p "$OUT"
mvn -B -q -DskipTests -pl benchmarks -am package > "$OUT/build.txt" 2>&1
probe() { "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.PlacementProbe "$1" 2>/dev/null | tee -a "$OUT/placement.txt"; }
for bench in LaneDriveBenchmark CallGateBenchmark; do
    probe "before-$bench"
    "$JAVA" -jar "$JAR" "$bench" -f 1 -wi 3 -w 1s -i 5 -r 1s -rf json -rff "$OUT/$bench.json" > "$OUT/$bench.txt" 2>&1
    probe "after-$bench"
    grep -E '^(Benchmark|[A-Za-z]+Benchmark\.)' "$OUT/$bench.txt" | grep -vE ':(placement|foreign|steal)' || true
done
echo "results in $OUT"
