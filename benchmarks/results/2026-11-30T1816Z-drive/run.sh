#!/usr/bin/env bash
# Interleaved before/after: ROUNDS rounds of one JMH fork each, placement probe beside each.
set -u
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=${OUT:-/tmp/drive-bench/$(date -u +%H%M)}
ROUNDS=${ROUNDS:-5}
mkdir -p "$OUT"
B='LaneDriveBenchmark.(rawUpcall|rawTableUpcall|emptyDrive|tableDrive|tableTurns|laneTurns)$'
for r in $(seq 1 $ROUNDS); do
  for v in before after; do
    echo "round $r $v $(date -u +%T) $(uptime)" >> "$OUT/log.txt"
    $JAVA -cp /tmp/drive-$v.jar dev.lanehost.benchmarks.PlacementProbe "$v-$r" 2>/dev/null >> "$OUT/placement.txt"
    $JAVA -jar /tmp/drive-$v.jar "$B" -f 1 -wi 3 -w 1s -i 5 -r 1s -rf json -rff "$OUT/$v-$r.json" > "$OUT/$v-$r.txt" 2>&1
  done
done
echo done >> "$OUT/log.txt"
