#!/usr/bin/env bash
# Runs one actor scenario on lanehost and both Pekko configurations in one JVM, in 200 ms blocks taken in turn, each
# block between a core-share and a placement probe (dev.lanehost.benchmarks.actors.InterleavedActors), and prints the
# medians and lanehost's ratio to the better Pekko by kind of block: the cores to themselves or shared, in one
# placement. Writes the blocks and the summary to $LANEHOST_RESULTS/<UTC time>-interleaved-SHAPE/. pingpong64 also
# runs lanehostAlone in turn (each ball bounced off one actor to itself): the most any way of running a pair can reach.
#
#   benchmarks/run-interleaved.sh [pingpong64|pingpong1|fanout] [SECONDS]     SECONDS (default 120) + ~40 s
#
# JMH (run-actors.sh) runs the contenders one after another, ~15 s each, and the other tenant on our cores comes and
# goes within that; here every contender meets every state of the machine many times. See benchmarks/README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"
SHAPE="${1:-pingpong64}"
SECONDS_RUN="${2:-120}"
start_run "interleaved-$SHAPE"
build
describe_machine
"$JAVA" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xms2g -Xmx2g -XX:+AlwaysPreTouch \
    -Djava.util.logging.config.class=dev.lanehost.benchmarks.RuntimeLogFile \
    -Dlanehost.benchmarks.log="$OUT/runtime-log.txt" \
    -cp "$JAR" dev.lanehost.benchmarks.actors.InterleavedActors "$SHAPE" "$SECONDS_RUN" 200 > "$OUT/blocks.txt" 2>&1 \
    || { tail -n 20 "$OUT/blocks.txt" >&2; exit 1; }
grep -v '^block ' "$OUT/blocks.txt" | tee "$OUT/summary.txt"
echo "results in $OUT"
