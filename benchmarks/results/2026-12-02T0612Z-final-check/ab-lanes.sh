#!/usr/bin/env bash
# A/B of lane turn benchmarks: rounds alternate the jars; args: OUT ROUNDS jar...
set -uo pipefail
OUT=$1; ROUNDS=$2; shift 2
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
mkdir -p "$OUT"
for r in $(seq 1 $ROUNDS); do
  for spec in "$@"; do
    name=${spec%%=*}; jar=${spec#*=}
    "$JAVA" -cp "$jar" dev.lanehost.benchmarks.PlacementProbe "r$r-$name" 2>/dev/null >> "$OUT/placement.txt"
    "$JAVA" -jar "$jar" "LaneDriveBenchmark.(rawUpcall|hostedLaneTurns|laneTurns)$" -f 1 -wi 3 -w 1s -i 5 -r 1s \
        -rf json -rff "$OUT/r$r-$name.json" > "$OUT/r$r-$name.txt" 2>&1
    grep -E '^LaneDrive' "$OUT/r$r-$name.txt" | sed "s/^/r$r $name /"
  done
done
