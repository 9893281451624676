#!/usr/bin/env bash
# usage: bench-ab2.sh OUT ROUNDS REGEX jarA jarB ...   (interleaved; JSON per jar per round)
set -u
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=$1; ROUNDS=$2; REGEX=$3; shift 3
mkdir -p $OUT
for r in $(seq 1 $ROUNDS); do
  for v in "$@"; do
    $JAVA -cp /work/bench-$v/benchmarks.jar dev.lanehost.benchmarks.PlacementProbe "$v-$r" 2>/dev/null >> $OUT/placement.txt
    $JAVA -jar /work/bench-$v/benchmarks.jar "$REGEX" -f 1 -wi 3 -w 1s -i 5 -r 1s -rf json -rff $OUT/$v-$r.json > $OUT/$v-$r.txt 2>&1
  done
done
echo done > $OUT/DONE
