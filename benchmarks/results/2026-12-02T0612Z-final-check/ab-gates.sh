#!/usr/bin/env bash
set -uo pipefail
OUT=$1; ROUNDS=$2; shift 2
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
mkdir -p "$OUT"
for r in $(seq 1 $ROUNDS); do
  for spec in "$@"; do
    name=${spec%%=*}; jar=${spec#*=}
    "$JAVA" -cp "$jar" dev.lanehost.benchmarks.PlacementProbe "r$r-$name" 2>/dev/null >> "$OUT/placement.txt"
    "$JAVA" -jar "$jar" 'CallGateBenchmark.(blockingCall|blockingCallCbor|callOnLane)$' -p idle=default -f 1 -wi 2 -w 1s -i 3 -r 1s -prof gc \
        -rf json -rff "$OUT/r$r-$name.json" > "$OUT/r$r-$name.txt" 2>&1
    tail -1 "$OUT/placement.txt" | cut -c1-60
    grep -E '^CallGate' "$OUT/r$r-$name.txt" | grep -E 'p0.50|p0.99 |norm' | sed "s/^/r$r $name /" | awk '{print $1,$2,$3,$(NF-1)}'
  done
done
