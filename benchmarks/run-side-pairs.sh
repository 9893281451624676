#!/usr/bin/env bash
# A Java side of the SPSC ring against a C side, window by window in the same placement (RingSidePairs): for each
# of RUNS JVMs, the writer comparison then the reader comparison, each 40 groups of 100 ms windows at the distances
# 0, 64, 448, 512, 1024 and 2048 bytes; then each side's windows pooled over all the JVMs. About 2 minutes a run.
# Output under benchmarks/results/<UTC date and time>-side-pairs/: writer-run<N>.txt, reader-run<N>.txt (every
# window), pooled-writer.txt, pooled-reader.txt, build.txt.
#
#   benchmarks/run-side-pairs.sh [RUNS=12] [CHUNK=4096]
#
# It only packages (never `mvn install`). JAVA_HOME must be a JDK 25; by default the Temurin 25 under /usr/lib/jvm.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${1:-12}"
CHUNK="${2:-4096}"
export JAVA_HOME="${JAVA_HOME_25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
JAR=benchmarks/target/benchmarks.jar
OUT=benchmarks/results/$(date -u +%Y-%m-%dT%H%MZ)-side-pairs
mkdir -p "$OUT"

mvn -B -q -DskipTests -Dlanehost.docs.skip=true -pl benchmarks -am package > "$OUT/build.txt" 2>&1
for run in $(seq 1 "$RUNS"); do
    for side in writer reader; do
        "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$JAR" dev.lanehost.benchmarks.RingSidePairs \
            "$side" "$CHUNK" 40 100 0,64,448,512,1024,2048 > "$OUT/$side-run$run.txt"
        echo "run $run $side: $(head -1 "$OUT/$side-run$run.txt")"
    done
done
for side in writer reader; do
    "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.RingSidePairs --pool "$OUT"/$side-run*.txt | tee "$OUT/pooled-$side.txt"
done
