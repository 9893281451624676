#!/bin/sh
# rounds.sh N: N JVMs of Framed (24 windows each), a placement probe before and after each.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
JAR=/work/main/benchmarks/target/benchmarks.jar
for i in $(seq 1 "$1"); do
  java -cp $JAR dev.lanehost.benchmarks.PlacementProbe now | tail -1 > r$i.txt
  java --enable-native-access=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp $JAR:. Framed 24 >> r$i.txt 2>&1
  java -cp $JAR dev.lanehost.benchmarks.PlacementProbe now | tail -1 >> r$i.txt
done
