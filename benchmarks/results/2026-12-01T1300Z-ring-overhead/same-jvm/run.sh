#!/bin/bash
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
cd /tmp/ovh && rm -rf out && mkdir out && $J/javac -d out -cp /work/main/spsc-ring/target/classes $(find src -name '*.java') || exit 1
for c in ${CHUNKS:-64 512}; do $J/java --enable-native-access=ALL-UNNAMED -cp out:/work/main/spsc-ring/target/classes Ab $c ${ROUNDS:-30}; done
