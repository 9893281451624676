#!/bin/bash
# A/B: base = b97222e (turn lock on the cell), new = the turn lock as the mailbox consumer lock, home stored only when it changes. Interleaved rounds.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
OUT=/tmp/ab3/out; mkdir -p $OUT; cd $OUT
for round in 4 5 6; do
 for v in old new; do
  jar=/tmp/ab-$v.jar
  java -cp $jar dev.lanehost.benchmarks.PlacementProbe "$round-$v" 2>/dev/null | tee -a placement.txt | cut -c1-70
  java -Djmh.ignoreLock=true -jar $jar 'LaneDriveBenchmark.(rawUpcall|hostedLaneTurns|laneTurns)$' -f 1 -wi 3 -i 5 -w 1 -r 1 -jvmArgsAppend "--enable-native-access=ALL-UNNAMED -XX:MaxTenuringThreshold=0" -rf json -rff lanes-$v-$round.json > lanes-$v-$round.txt 2>&1
  echo "$round $v lanes $(grep -E '^LaneDrive' lanes-$v-$round.txt | awk '{print $1, $4}' | sed 's/LaneDriveBenchmark.//' | tr '\n' ' ') load=$(cut -d' ' -f1 /proc/loadavg)"
  java -Djmh.ignoreLock=true -jar $jar 'actors.PingPongBenchmark' -p contender=lanehost -f 1 -rf json -rff pp-$v-$round.json > pp-$v-$round.txt 2>&1
  echo "$round $v pingpong $(grep -E '^PingPong' pp-$v-$round.txt | awk '{print $3, $(NF-3)}' | tr '\n' ' ')"
  java -Djmh.ignoreLock=true -jar $jar 'actors.FanOutFanInBenchmark' -p contender=lanehost -f 1 -rf json -rff fo-$v-$round.json > fo-$v-$round.txt 2>&1
  echo "$round $v fanout $(grep -E '^FanOut' fo-$v-$round.txt | awk '{print $(NF-3)}' | tr '\n' ' ')"
 done
done
