#!/usr/bin/env bash
# Runs the actor benchmarks against Apache Pekko (dev.lanehost.benchmarks.actors: ping-pong, fan-out/fan-in, spawn
# storm, unbalanced load, round trip; each with lanehost, pekkoDefault and pekkoTuned in the same JMH run), with a
# placement probe and `uptime` before and after each, then the idle-CPU probe for a bare JVM, lanehost and both
# Pekko configurations, writing everything to $LANEHOST_RESULTS/<UTC time>-actors/.
#
#   benchmarks/run-actors.sh           about 5 minutes on 2 vCPUs
#
# Everything runs under `nice -n 19`: the machine is shared, and measurements of others (audio) come first;
# JMH's lock is ignored, so another JMH run cannot stop this one (what else ran shows in uptime.txt).
# Comparing builds (the single worker today, the worker pool later) needs only a rebuilt jar and another run.
# See benchmarks/common.sh for JAVA_HOME_25 and LANEHOST_RESULTS.
set -euo pipefail
source "$(dirname "$0")/common.sh"
start_run actors
build
describe_machine
probe() {
    uptime | sed "s/^/$1 uptime:/" | tee -a "$OUT/uptime.txt"
    nice -n 19 "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.PlacementProbe "$1" 2>/dev/null | tee -a "$OUT/placement.txt"
}
for bench in PingPongBenchmark FanOutFanInBenchmark SpawnStormBenchmark UnbalancedLoadBenchmark RoundTripBenchmark; do
    probe "before-$bench"
    # warm-up and measurement as each class's annotations say; -foe: a leak found at teardown stops the benchmark
    # A failed trial (a leak found at teardown, or a contender that crashes) ends this benchmark, not the run.
    nice -n 19 "$JAVA" -Djmh.ignoreLock=true -jar "$JAR" "actors.$bench" -f 1 -foe true "${FORK_ARGS[@]}" -rf json -rff "$OUT/$bench.json" > "$OUT/$bench.txt" 2>&1 \
        || echo "$bench: a trial failed; see $OUT/$bench.txt" | tee -a "$OUT/failures.txt"
    probe "after-$bench"
    grep -E '^(Benchmark|[A-Za-z]+Benchmark\.)' "$OUT/$bench.txt" | grep -vE ':p0\.(0|9[0-5]?|999+)0* ' || true
done
probe before-idle
for contender in jvm lanehost pekkoDefault pekkoTuned; do
    nice -n 19 "$JAVA" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
        -cp "$JAR" dev.lanehost.benchmarks.actors.IdleCpu "$contender" 10 2>&1 | tee -a "$OUT/idle-cpu.txt"
done
probe after-idle
echo "results in $OUT"
