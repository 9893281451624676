#!/usr/bin/env bash
# A Java side of the SPSC ring against a C side, window by window in the same placement (RingSidePairs): for each
# of RUNS JVMs, the writer comparison then the reader comparison, each 40 groups of 100 ms windows at the distances
# 0, 64, 448, 512, 1024 and 2048 bytes; then each side's windows pooled over all the JVMs. About 2 minutes a run.
# Output under $LANEHOST_RESULTS/<UTC date and time>-side-pairs/: writer-run<N>.txt, reader-run<N>.txt (every
# window), pooled-writer.txt, pooled-reader.txt, build.txt.
#
#   benchmarks/run-side-pairs.sh [RUNS=12] [CHUNK=4096]
#
# See benchmarks/common.sh for JAVA_HOME_25 and LANEHOST_RESULTS.
set -euo pipefail
source "$(dirname "$0")/common.sh"
RUNS="${1:-12}"
CHUNK="${2:-4096}"
start_run side-pairs
build
describe_machine
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
