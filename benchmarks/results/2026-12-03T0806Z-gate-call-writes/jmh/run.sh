#!/bin/bash
# Old (base.jar, 6e745fb) and new (new.jar, fa89a37) CallGateBenchmark, interleaved by round, placement probed around each.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
OUT=$(cd "$(dirname "$0")" && pwd)
for r in 1 2 3; do for v in base new; do
  java -cp /tmp/$v.jar dev.lanehost.benchmarks.PlacementProbe "r$r-$v-before" 2>/dev/null >> $OUT/placement.txt
  java -jar /tmp/$v.jar 'CallGateBenchmark.(callOnLane|callOnLaneCbor|callOnLaneReply|blockingCall|blockingCallCbor|floorCall)$' \
     -p idle=default -p handoff=queue -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -jvmArgsPrepend "--sun-misc-unsafe-memory-access=allow" \
     -rf json -rff $OUT/r$r-$v.json > $OUT/r$r-$v.txt 2>&1
  java -cp /tmp/$v.jar dev.lanehost.benchmarks.PlacementProbe "r$r-$v-after" 2>/dev/null >> $OUT/placement.txt
done; done
