#!/usr/bin/env bash
# own-rounds.sh OUT HH:MM: 512 B rounds: base (ours, Agrona, the C floor) and own (ours), in turn, until HH:MM.
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=$1; END=$(date -d "$2" +%s); mkdir -p "$OUT"
round=0
while [ $(date +%s) -lt $END ]; do
  round=$((round+1))
  for spec in "base:javaToJava,javaToC,agrona,cToC" "own:javaToJava,javaToC"; do
    jar=${spec%%:*}; transports=${spec#*:}
    dir="$OUT/$jar/r$round"; mkdir -p "$dir"
    echo "$(date -u +%H:%M:%S) round $round $jar load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/log.txt"
    $JAVA -Djmh.ignoreLock=true -jar /tmp/ab/$jar.jar RingThroughputBenchmark -p chunk=512 \
      -p transport=$transports -f 1 -wi 1 -w 1s -i 6 -r 500ms \
      -rf json -rff "$dir/ring-throughput.json" 2>&1 | grep -v '^WARNING' > "$dir/ring-throughput.txt"
  done
done
echo done >> "$OUT/log.txt"
