#!/usr/bin/env bash
# interleaved A/B: before.jar vs after.jar, N rounds
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
ROUNDS=${1:-3}; OUT=/tmp/ab/out-$(date +%H%M); mkdir -p $OUT
for r in $(seq 1 $ROUNDS); do
  for v in before after; do
    uptime >> $OUT/uptime.txt
    java --enable-native-access=ALL-UNNAMED -cp /tmp/ab/$v.jar dev.lanehost.benchmarks.PlacementProbe 2>/dev/null | tail -1 | sed "s/^/r$r $v /" >> $OUT/placement.txt
    java -Djmh.ignoreLock=true -jar /tmp/ab/$v.jar 'LaneDriveBenchmark.(rawUpcall|hostedLaneTurns|laneTurns)$' -f 1 -wi 3 -i 5 -w 1 -r 1 -rf json -rff $OUT/lanes-$v-$r.json > $OUT/lanes-$v-$r.txt 2>&1
    java -Djmh.ignoreLock=true -jar /tmp/ab/$v.jar 'actors.PingPongBenchmark' -p contender=lanehost -f 1 -rf json -rff $OUT/pp-$v-$r.json > $OUT/pp-$v-$r.txt 2>&1
  done
done
echo $OUT
