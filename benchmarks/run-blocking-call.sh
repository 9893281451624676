#!/usr/bin/env bash
# The blocking gate call against its floor, every call timed, in one JVM (BlockingCallLatency): RUNS JVMs (default 4)
# of ROUNDS rounds (default 5) after one warm-up round each, then the close and far summaries of every run.
# Writes $LANEHOST_RESULTS/<UTC time>-blocking-call/.
#
#   benchmarks/run-blocking-call.sh            about 1.5 minutes on 2 vCPUs, build included
#   RUNS=8 ROUNDS=3 benchmarks/run-blocking-call.sh
#   ENTRY=cbor benchmarks/run-blocking-call.sh   the CBOR entry with a kept reply, as a native host calls (default: java)
#   ENTRY=java-list benchmarks/run-blocking-call.sh   the Java entry, the handler answering its arguments, the caller reading them
#
# See benchmarks/common.sh for JAVA_HOME_25 and LANEHOST_RESULTS. Each round times 200,000 calls of each side between
# placement probes; a round counts as close or far only if all three of its probes agree.
set -euo pipefail
source "$(dirname "$0")/common.sh"
RUNS="${RUNS:-4}"
ROUNDS="${ROUNDS:-5}"
ENTRY="${ENTRY:-java}"
if [[ ! "$RUNS" =~ ^[1-9][0-9]*$ || ! "$ROUNDS" =~ ^[1-9][0-9]*$ ]]; then
    echo "RUNS and ROUNDS must be whole numbers of at least 1, got RUNS='$RUNS' ROUNDS='$ROUNDS'" >&2
    exit 2
fi
if [[ "$ENTRY" != java && "$ENTRY" != java-list && "$ENTRY" != cbor ]]; then
    echo "ENTRY must be java, java-list or cbor, got '$ENTRY'" >&2
    exit 2
fi
start_run blocking-call
build
describe_machine
for r in $(seq 1 "$RUNS"); do
    probe "run$r"
    "$JAVA" --enable-native-access=ALL-UNNAMED -Xms512m -Xmx512m -XX:+AlwaysPreTouch \
        -Djava.util.logging.config.class=dev.lanehost.benchmarks.RuntimeLogFile -Dlanehost.benchmarks.log="$OUT/runtime-log.txt" \
        -cp "$JAR" dev.lanehost.benchmarks.BlockingCallLatency "$ROUNDS" 200000 1 "$ENTRY" > "$OUT/run$r.txt" 2>&1
done
for r in $(seq 1 "$RUNS"); do
    grep -E '^(close|far) ' "$OUT/run$r.txt" | grep -v 'no round' | sed "s/^/run $r: /"
done | tee "$OUT/summary.txt"
echo "results in $OUT"
