#!/usr/bin/env bash
# bench-ab.sh OUT ROUNDS "JMH ARGS" name=jar name=jar ...: interleaved rounds, placement probe around each JVM.
set -uo pipefail
OUT=$1; ROUNDS=$2; ARGS=$3; shift 3
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
mkdir -p "$OUT"
for r in $(seq 1 "$ROUNDS"); do
  for spec in "$@"; do
    name=${spec%%=*}; jar=${spec#*=}
    { echo "r$r $name before $(uptime)"; "$JAVA" -cp "$jar" dev.lanehost.benchmarks.PlacementProbe "r$r-$name-before" 2>/dev/null; } >> "$OUT/placement.txt"
    "$JAVA" -Djmh.ignoreLock=true -jar "$jar" $ARGS -f 1 -foe true -rf json -rff "$OUT/r$r-$name.json" > "$OUT/r$r-$name.txt" 2>&1
    { "$JAVA" -cp "$jar" dev.lanehost.benchmarks.PlacementProbe "r$r-$name-after" 2>/dev/null; } >> "$OUT/placement.txt"
  done
done
echo done > "$OUT/DONE"
