#!/usr/bin/env bash
# Runs the audio-duplex sample for 10 minutes under one collector, with `uptime` and the placement probe before and
# after, into $LANEHOST_RESULTS/<UTC time>-duplex-<gc>/ (the sample's output, gc.log and jackd's log gzipped, the
# plot, jackd's dated late-cycle lines). Build first: mvn -B -pl samples,benchmarks -am package -DskipTests
#
#   benchmarks/run-duplex.sh zgc|shenandoah|g1 [sample options, default: 600 --lead 3 --allocate 100]
set -euo pipefail
source "$(dirname "$0")/common.sh"
export PATH="$JAVA_HOME/bin:$PATH"
gc=${1:-}
shift || true
case "$gc" in
    zgc) flag=-XX:+UseZGC ;;
    shenandoah) flag=-XX:+UseShenandoahGC ;;
    g1) flag=-XX:+UseG1GC ;;
    *) echo "collector: zgc, shenandoah or g1" >&2; exit 2 ;;
esac
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(600 --lead 3 --allocate 100)
start_run "duplex-$gc"
describe_machine
{ echo "before: $(date -u +%H:%M:%SZ) $(uptime)"; } | tee -a "$OUT/uptime.txt"
probe before
LANEHOST_JAVA_OPTS="$flag -Xms1g -Xmx1g -XX:+AlwaysPreTouch -Xlog:gc*,safepoint:file=$OUT/gc.log:timenanos,uptime,level,tags" \
    bin/sample AudioDuplexDemo "${args[@]}" --out "$OUT" --wav-seconds 10 > "$OUT/duplex.txt" 2>&1 || echo "exit status $?" >> "$OUT/duplex.txt"
probe after
{ echo "after:  $(date -u +%H:%M:%SZ) $(uptime)"; } | tee -a "$OUT/uptime.txt"
rm -f "$OUT/duplex.wav" # 10 s of output, for listening; not kept with the numbers
gzip -f "$OUT"/gc.log "$OUT"/lanehost-duplex-*.log
echo "$OUT"
