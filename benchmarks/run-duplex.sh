#!/usr/bin/env bash
# Runs the audio-duplex sample for 10 minutes under one collector, with `uptime` and the placement probe before and
# after, into benchmarks/results/<UTC time>-duplex-<gc>/ (the sample's output, gc.log and jackd's log gzipped, the
# plot, jackd's dated late-cycle lines). Build first: mvn -B -pl samples,benchmarks -am package -DskipTests
#
#   benchmarks/run-duplex.sh zgc|shenandoah|g1 [sample options, default: 600 --lead 3 --allocate 100]
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME_25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export PATH="$JAVA_HOME/bin:$PATH"
gc=$1
shift
case "$gc" in
    zgc) flag=-XX:+UseZGC ;;
    shenandoah) flag=-XX:+UseShenandoahGC ;;
    g1) flag=-XX:+UseG1GC ;;
    *) echo "collector: zgc, shenandoah or g1" >&2; exit 2 ;;
esac
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(600 --lead 3 --allocate 100)
OUT=benchmarks/results/$(date -u +%Y-%m-%dT%H%MZ)-duplex-$gc
mkdir -p "$OUT"
probe() { java -cp benchmarks/target/benchmarks.jar dev.lanehost.benchmarks.PlacementProbe "$1" 2>/dev/null | tee -a "$OUT/placement.txt"; }
{ echo "before: $(date -u +%H:%M:%SZ) $(uptime)"; } | tee -a "$OUT/uptime.txt"
probe before
LANEHOST_JAVA_OPTS="$flag -Xms1g -Xmx1g -XX:+AlwaysPreTouch -Xlog:gc*,safepoint:file=$OUT/gc.log:timenanos,uptime,level,tags" \
    bin/sample AudioDuplexDemo "${args[@]}" --out "$OUT" --wav-seconds 10 > "$OUT/duplex.txt" 2>&1 || echo "exit status $?" >> "$OUT/duplex.txt"
probe after
{ echo "after:  $(date -u +%H:%M:%SZ) $(uptime)"; } | tee -a "$OUT/uptime.txt"
rm -f "$OUT/duplex.wav" # 10 s of output, for listening; not kept with the numbers
gzip -f "$OUT"/gc.log "$OUT"/lanehost-duplex-*.log
echo "$OUT"
