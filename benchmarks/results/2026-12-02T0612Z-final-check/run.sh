#!/usr/bin/env bash
# Final check of the lane and gate targets on HEAD: 3 rounds, placement probe around each benchmark, -prof gc.
set -uo pipefail
cd /work/main
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=/tmp/fc/head.jar
OUT=$1
mkdir -p "$OUT"
{ "$JAVA" -version 2>&1; uname -a; lscpu | grep -E '^(Model name|CPU\(s\))'; git rev-parse HEAD; } > "$OUT/machine.txt"
probe() { uptime | sed "s/^/$1 uptime:/" >> "$OUT/uptime.txt"; "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.PlacementProbe "$1" 2>/dev/null >> "$OUT/placement.txt"; }
for r in 1 2 3; do
  probe "r$r-before-lanes"
  "$JAVA" -jar "$JAR" 'LaneDriveBenchmark.(rawUpcall|emptyDrive|rawTableUpcall|tableDrive|laneTurns|hostedLaneTurns|tableTurns)$' \
     -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -rf json -rff "$OUT/r$r-lanes.json" > "$OUT/r$r-lanes.txt" 2>&1
  probe "r$r-after-lanes"
  "$JAVA" -jar "$JAR" 'CallGateBenchmark.(callOnLane|callOnLaneCbor|callOnLaneReply|tableCallOnLane|blockingCall|blockingCallCbor)$' \
     -p idle=default -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -rf json -rff "$OUT/r$r-gates.json" > "$OUT/r$r-gates.txt" 2>&1
  probe "r$r-after-gates"
done
for c in jvm lanehost; do
  "$JAVA" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -cp "$JAR" dev.lanehost.benchmarks.actors.IdleCpu "$c" 10 >> "$OUT/idle-cpu.txt" 2>&1
done
probe end
echo done > "$OUT/DONE"
