#!/bin/bash
# rounds.sh OUT N: N rounds of {plain, cbor} x {default heap, pre-touched heap}, one worker, 3 s each; slow = over 5 us.
OUT=$1; N=$2; J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; CP=/tmp/tail:/work/main/benchmarks/target/benchmarks.jar
mkdir -p $OUT
for r in $(seq 1 $N); do
  p=$($J -cp $CP dev.lanehost.benchmarks.PlacementProbe r$r 2>/dev/null); echo "$p" >> $OUT/placement.txt
  for m in plain cbor; do
    for h in default pretouch; do
      extra=""; [ $h = pretouch ] && extra="-Xms512m -Xmx512m -XX:+AlwaysPreTouch"
      line=$($J --enable-native-access=ALL-UNNAMED $extra -cp $CP Tail $m 3 1 2>&1 | grep "calls,")
      echo "r$r $m $h $line" | tee -a $OUT/tail.txt
    done
  done
done
