#!/bin/bash
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
for i in $(seq 1 ${PAIRS:-6}); do
  for v in base new; do
    java --enable-native-access=ALL-UNNAMED -Xms512m -Xmx512m -XX:+AlwaysPreTouch -cp /tmp/$v.jar dev.lanehost.benchmarks.BlockingCallLatency 3 200000 1 > $v-$i.txt 2>&1
    echo "$v $i: $(grep -E '^(close|far) ' $v-$i.txt | grep -v 'no round' | grep rounds)"
  done
done
