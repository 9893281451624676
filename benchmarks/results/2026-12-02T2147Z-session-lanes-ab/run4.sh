#!/bin/bash
# A/B of the session: base = 2791d2f (linked mailbox, atomic lane count), exp = 145c5e1 (chunked mailbox after review, driver-counted lane sends).
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
OUT=/tmp/ab4/out; mkdir -p $OUT; cd $OUT
for round in 1 2 3; do
 for v in base exp; do
  for tag in old young; do
   if [ $tag = old ]; then gc="-XX:MaxTenuringThreshold=0"; else gc="-Xmn600m -XX:MaxTenuringThreshold=15"; fi
   java -Djmh.ignoreLock=true -jar /tmp/ab4/$v.jar 'LaneDriveBenchmark.(rawUpcall|hostedLaneTurns|laneTurns)$' -f 1 -wi 3 -i 5 -w 1 -r 1 -jvmArgsAppend "--enable-native-access=ALL-UNNAMED $gc" -rf json -rff lanes-$v-$tag-$round.json > lanes-$v-$tag-$round.txt 2>&1
   echo "$round $v $tag $(grep -E '^LaneDrive' lanes-$v-$tag-$round.txt | awk '{print $1, $4}' | sed 's/LaneDriveBenchmark.//' | tr '\n' ' ') load=$(cut -d' ' -f1 /proc/loadavg)"
  done
  java -Djmh.ignoreLock=true -jar /tmp/ab4/$v.jar 'actors.PingPongBenchmark' -p contender=lanehost -f 1 -rf json -rff pp-$v-$round.json > pp-$v-$round.txt 2>&1
  echo "$round $v pingpong $(grep -E '^PingPong|lanehost' pp-$v-$round.txt | grep -E 'thrpt|avgt' | awk '{print $1, $2, $3, $(NF-2)}' | tr '\n' ' ')"
 done
done
