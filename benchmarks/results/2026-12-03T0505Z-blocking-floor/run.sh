#!/usr/bin/env bash
# usage: run.sh OUTDIR JAR... : rounds of floor (queue) and blockingCall busySpin/default per jar, interleaved
set -u
OUT=$1; shift
mkdir -p $OUT
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
ROUNDS=${ROUNDS:-2}
for r in $(seq 1 $ROUNDS); do
  for jar in "$@"; do
    n=$(basename $(dirname $jar))-$(basename $jar .jar)
    $J -cp $jar dev.lanehost.benchmarks.PlacementProbe "r$r $n" 2>/dev/null | tee -a $OUT/placement.txt
    $J -jar $jar 'CallGateBenchmark.(floorCall|blockingCall)$' -p handoff=queue -p idle=${IDLE:-busySpin,default} -f 1 -wi 3 -w 1s -i 4 -r 1s -rf json -rff $OUT/r$r-$n.json > $OUT/r$r-$n.txt 2>&1
    grep -E "p0.50|p0.99 " $OUT/r$r-$n.txt | grep Benchmark | sed "s/^/r$r $n /" | awk '{print $1,$2,$3,$5,$8}'
  done
done
