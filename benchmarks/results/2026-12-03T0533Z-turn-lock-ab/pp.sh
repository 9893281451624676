#!/bin/bash
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
OUT=/tmp/ab3/out; cd $OUT
for round in "$@"; do
 for v in old new; do
  jar=/tmp/ab-$v.jar
  java -cp $jar dev.lanehost.benchmarks.PlacementProbe "$round-$v" 2>/dev/null | tee -a placement.txt | cut -c1-60
  java -Djmh.ignoreLock=true -jar $jar 'actors.PingPongBenchmark' -p contender=lanehost -f 1 -rf json -rff pp-$v-$round.json > pp-$v-$round.txt 2>&1
  echo "$round $v pingpong $(grep -E '^PingPong' pp-$v-$round.txt | awk '{print $3, $(NF-3)}' | tr '\n' ' ')"
  java -cp $jar dev.lanehost.benchmarks.PlacementProbe "$round-$v-after" 2>/dev/null | tee -a placement.txt | cut -c1-60
 done
done
