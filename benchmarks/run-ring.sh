#!/usr/bin/env bash
# Builds the benchmarks and runs the SPSC ring comparison: placement probe, JMH throughput
# (RingThroughputBenchmark), placement probe, latency (RingLatency), placement probe. Everything
# printed is also written under $LANEHOST_RESULTS/<UTC date and time>[-mode]/: run-ring.txt (everything),
# environment.txt, ring-throughput.{json,txt}, ring-throughput-summary.md, ring-latency.txt, cpu-monitor.txt
# (what else ran), runtime-log.txt (the runtime's own log lines), build.txt.
#
#   benchmarks/run-ring.sh           the real run, about 7 minutes on 2 vCPUs (plus any wait for quiet)
#   benchmarks/run-ring.sh --smoke   every benchmark once, briefly: checks that all run and stop
#   benchmarks/run-ring.sh --rounds N ["SIZES"]
#                                    N rounds (about a minute a size) of every transport at each size (default
#                                    "4096 65536"), 6 x 0.5 s iterations a trial, in r<N>-c<size>/, pooled by
#                                    ThroughputSummary. Close placement seldom lasts long on a shared host: pooled
#                                    rounds give each placement enough iterations (RESULTS.md's 43-round figures).
#   benchmarks/run-ring.sh --before OLD.jar [ROUNDS]
#                                    before/after: for each round (default 2) and each size, the old
#                                    build's own transports, then this build's eight, back to back, so
#                                    both see the same machine; throughput only, 12 x 0.5 s iterations;
#                                    results in before-r<N>-c<size>/ and after-r<N>-c<size>/ under the run
#                                    directory, pooled by ThroughputSummary (old jar: build it from the old
#                                    commit first and copy it aside, e.g. to /tmp).
#
# See benchmarks/common.sh for JAVA_HOME_25 and LANEHOST_RESULTS.
set -euo pipefail
source "$(dirname "$0")/common.sh"
# The same flags the JMH forks get (@Fork jvmArgsAppend), for the plain mains.
JVM_FLAGS=(--enable-native-access=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED)

BEFORE_JAR=""
ROUNDS=""
if [[ "${1:-}" == "--before" ]]; then
    BEFORE_JAR="${2:?--before needs the old benchmarks.jar}"
    ROUNDS="${3:-2}"
    [[ -f "$BEFORE_JAR" ]] || { echo "no such jar: $BEFORE_JAR" >&2; exit 2; }
    start_run before-after
    JMH_ARGS=(-f 1 -wi 2 -w 1s -i 12 -r 500ms)
elif [[ "${1:-}" == "--rounds" ]]; then
    ROUNDS="${2:?--rounds needs a number of rounds}"
    read -r -a ROUND_CHUNKS <<< "${3:-4096 65536}"
    [[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "--rounds: not a positive number: $ROUNDS" >&2; exit 2; }
    start_run rounds
    # Short trials, many of them: each iteration is classified by the placement probes around it afterwards.
    JMH_ARGS=(-f 1 -wi 1 -w 1s -i 6 -r 500ms)
elif [[ "${1:-}" == "--smoke" ]]; then
    start_run smoke
    # One short iteration each: enough to see every transport start, move bytes and stop.
    JMH_ARGS=(-f 1 -wi 1 -w 500ms -i 2 -r 500ms)
    LATENCY_ARGS=(rounds=1 messages=20000 warmup=1)
elif [[ -n "${1:-}" ]]; then
    echo "unknown option: $1 (expected --smoke, --rounds N [\"SIZES\"] or --before OLD.jar [ROUNDS])" >&2
    exit 2
else
    start_run ""
    # 3 x 1 s warm-up, then 16 x 0.5 s measured per trial: the vCPU placement changes every few
    # seconds, so many short iterations, each tagged with the placement around it, beat a few long ones.
    JMH_ARGS=(-f 1 -wi 3 -w 1s -i 16 -r 500ms)
    LATENCY_ARGS=(rounds=7 messages=100000 warmup=2)
fi
# The old build has no RuntimeLogFile to send its log lines to a file.
[[ -n "$BEFORE_JAR" ]] || JMH_ARGS+=("${FORK_ARGS[@]}")
LOG="$OUT/run-ring.txt"
: > "$LOG"

say() { printf '%s\n' "$*" | tee -a "$LOG"; }
probe() { "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.PlacementProbe "$1" 2>/dev/null | tee -a "$LOG"; }
WARNINGS='^WARNING: .*sun.misc.Unsafe\|^WARNING: Please consider reporting\|^WARNING: A terminally deprecated'

# Percent of both vCPUs busy over two seconds, from /proc/stat.
busy_percent() {
    local _ u n s i w q sq st t1 i1 t2 i2
    read -r _ u n s i w q sq st _ < /proc/stat; t1=$((u + n + s + i + w + q + sq + st)); i1=$((i + w))
    sleep 2
    read -r _ u n s i w q sq st _ < /proc/stat; t2=$((u + n + s + i + w + q + sq + st)); i2=$((i + w))
    echo $(( 100 * ((t2 - t1) - (i2 - i1)) / (t2 - t1 > 0 ? t2 - t1 : 1) ))
}

# The machine is shared: another engineer's build or test run takes both vCPUs and makes every figure
# meaningless. Wait (up to QUIET_WAIT_SECONDS, default 30 min) until it is idle, then run anyway.
wait_until_quiet() {
    local deadline=$((SECONDS + ${QUIET_WAIT_SECONDS:-1800})) busy
    while busy=$(busy_percent); [ "$busy" -gt 15 ]; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            say "machine still busy (${busy}% CPU): running anyway, figures will be disturbed"
            return
        fi
        say "machine busy (${busy}% CPU, load $(cut -d' ' -f1-3 /proc/loadavg)): waiting for it to go quiet"
        sleep 20
    done
    say "machine quiet (${busy}% CPU busy over 2 s)"
}

# Every 10 s, what else is running: the top processes by CPU over half a second. A line that is not
# this run's java (benchmarks.jar / ForkedMain) at high %CPU means the figures of that moment are disturbed.
monitor() {
    while sleep 10; do
        echo "--- $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
        top -b -c -n 2 -d 0.5 -w 160 | awk '/^top -/ { n++ } n == 2' | sed -n '8,11p' | awk '{ $2=$3=$4=$5=$6=$7=$8=""; print }'
    done
}

say "== build: mvn -B -q -DskipTests -Dlanehost.docs.skip=true -pl benchmarks -am package"
build

say "== environment"
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -n1), $(nproc) vCPUs ($(lscpu | sed -n 's/^Hypervisor vendor: *//p') guest)"
    echo "kernel: $(uname -srm)"
    echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
    echo "java: $("$JAVA" -version 2>&1 | tr '\n' ' ')"
    echo "git: $(git rev-parse --abbrev-ref HEAD) $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (uncommitted changes)')"
    echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee -a "$LOG" > "$OUT/environment.txt"

monitor > "$OUT/cpu-monitor.txt" 2>&1 &
MONITOR=$!
trap 'kill "$MONITOR" 2>/dev/null || true' EXIT

say "== placement probe"
wait_until_quiet
probe before-throughput

if [[ -n "$ROUNDS" && -z "$BEFORE_JAR" ]]; then
    # Every transport once at each size a round, rounds back to back: the host seldom leaves the two vCPUs close
    # for long, so close-placement figures come from many short trials pooled, each iteration classified by the
    # probes around it. 43 rounds of 4 and 64 KiB took 54 minutes here, with seven transports (nine now).
    for round in $(seq 1 "$ROUNDS"); do
        for chunk in "${ROUND_CHUNKS[@]}"; do
            dir="$OUT/r$round-c$chunk"; mkdir -p "$dir"
            say "== round $round of $ROUNDS, $chunk B: load $(cut -d' ' -f1-3 /proc/loadavg)"
            "$JAVA" -jar "$JAR" RingThroughputBenchmark -p chunk="$chunk" "${JMH_ARGS[@]}" -rf json -rff "$dir/ring-throughput.json" 2>&1 \
                | grep -v --line-buffered "$WARNINGS" > "$dir/ring-throughput.txt"
        done
    done
    "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.ThroughputSummary "$OUT"/r*-c* \
        | tee "$OUT/ring-throughput-summary.md" | tee -a "$LOG"
    probe after-throughput
    say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
    say "== done: results in $OUT/"
    exit 0
fi

if [[ -n "$BEFORE_JAR" ]]; then
    # Our transports of the old build (cToC included: the C floor compiles the ring header too). A build older
    # than the segmentToC transport does not have it: BEFORE_TRANSPORTS=javaToJava,cToC,cToJava,javaToC.
    OURS=${BEFORE_TRANSPORTS:-javaToJava,cToC,cToJava,javaToC,segmentToC}
    # Another engineer's JMH run may hold JMH's lock file; the runs here are ours alone, so skip it.
    for round in $(seq 1 "$ROUNDS"); do
        for chunk in 512 4096 65536; do
            for side in before after; do
                dir="$OUT/$side-r$round-c$chunk"; mkdir -p "$dir"
                if [[ $side == before ]]; then jar="$BEFORE_JAR"; transports=(-p transport=$OURS); else jar="$JAR"; transports=(); fi
                say "== round $round, $chunk B, $side: load $(cut -d' ' -f1-3 /proc/loadavg)"
                "$JAVA" -Djmh.ignoreLock=true -jar "$jar" RingThroughputBenchmark -p chunk=$chunk "${transports[@]}" \
                    "${JMH_ARGS[@]}" -rf json -rff "$dir/ring-throughput.json" 2>&1 \
                    | grep -v --line-buffered "$WARNINGS" \
                    > "$dir/ring-throughput.txt"
                grep -E '^RingThroughputBenchmark.transfer ' "$dir/ring-throughput.txt" | tee -a "$LOG" || true
            done
        done
    done
    befores=(); for d in "$OUT"/before-*; do befores+=("before:$d"); done
    "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.ThroughputSummary "$OUT"/after-* "${befores[@]}" \
        | tee "$OUT/ring-throughput-summary.md" | tee -a "$LOG"
    probe after-throughput
    say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
    say "== done: results in $OUT/"
    exit 0
fi

say "== JMH: java -jar $JAR RingThroughputBenchmark ${JMH_ARGS[*]} -rf json -rff $OUT/ring-throughput.json"
"$JAVA" -jar "$JAR" RingThroughputBenchmark "${JMH_ARGS[@]}" -rf json -rff "$OUT/ring-throughput.json" 2>&1 \
    | grep -v --line-buffered "$WARNINGS" \
    | tee "$OUT/ring-throughput.txt" | tee -a "$LOG"
"$JAVA" -cp "$JAR" dev.lanehost.benchmarks.ThroughputSummary "$OUT" \
    | tee "$OUT/ring-throughput-summary.md" | tee -a "$LOG"

say "== placement probe"
probe after-throughput

wait_until_quiet
say "== latency: java ${JVM_FLAGS[*]} -cp $JAR dev.lanehost.benchmarks.RingLatency ${LATENCY_ARGS[*]}"
"$JAVA" "${JVM_FLAGS[@]}" -cp "$JAR" dev.lanehost.benchmarks.RingLatency "${LATENCY_ARGS[@]}" 2>&1 \
    | tee "$OUT/ring-latency.txt" | tee -a "$LOG"

say "== placement probe"
probe after-latency
say "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
say "== done: results in $OUT/"
