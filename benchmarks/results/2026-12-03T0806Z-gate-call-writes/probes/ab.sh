#!/bin/bash
# usage: ab.sh pairs jarA jarB ...
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
pairs=$1; shift
for i in $(seq 1 $pairs); do for v in "$@"; do
  java --enable-native-access=ALL-UNNAMED -Xms512m -Xmx512m -XX:+AlwaysPreTouch -cp /tmp/$v.jar:/tmp/dist Dist 4 200000 $MODE | sed "s/^/$v /"
done; done
