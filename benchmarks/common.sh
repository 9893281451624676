# Sourced by the run-*.sh scripts: what every run needs, said once. After it the working directory is the
# repository's root, and these are set:
#   JAVA, JAR        the JDK 25 java (JAVA_HOME_25, by default the Temurin 25 under /usr/lib/jvm) and the benchmarks jar
#   start_run NAME   makes OUT=$LANEHOST_RESULTS/<UTC date and time>-NAME (LANEHOST_RESULTS: benchmarks/target/results
#                    unless set, ignored by git and removed by `mvn clean`; point it elsewhere to keep your runs)
#   build            packages the benchmarks jar and what it depends on (never `mvn install`) into $OUT/build.txt
#   describe_machine writes $OUT/machine.txt: CPU, kernel, JDK, commit, load
#   probe LABEL      appends `uptime` to $OUT/uptime.txt and the placement probe's line to $OUT/placement.txt (and prints it)
#   FORK_ARGS        JMH options for the forks: the lanehost runtime's log lines go to $OUT/runtime-log.txt, not
#                    between JMH's lines, and JMH's own warnings about sun.misc.Unsafe are turned off
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export JAVA_HOME="${JAVA_HOME_25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if [[ ! -x "$JAVA_HOME/bin/java" ]]; then
    echo "no java under $JAVA_HOME: set JAVA_HOME_25 to a JDK 25" >&2
    exit 2
fi
JAVA="$JAVA_HOME/bin/java"
JAR=benchmarks/target/benchmarks.jar

start_run() {
    OUT="${LANEHOST_RESULTS:-benchmarks/target/results}/$(date -u +%Y-%m-%dT%H%MZ)${1:+-$1}"
    mkdir -p "$OUT"
    OUT=$(cd "$OUT" && pwd)
    FORK_ARGS=(-jvmArgsPrepend "--sun-misc-unsafe-memory-access=allow -Djava.util.logging.config.class=dev.lanehost.benchmarks.RuntimeLogFile -Dlanehost.benchmarks.log=$OUT/runtime-log.txt")
}

build() {
    if ! mvn -B -q -DskipTests -Dlanehost.docs.skip=true -pl benchmarks -am package > "$OUT/build.txt" 2>&1; then
        tail -n 40 "$OUT/build.txt" >&2
        echo "build failed: see $OUT/build.txt" >&2
        exit 1
    fi
}

describe_machine() {
    {
        echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
        echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -n1), $(nproc) vCPUs"
        echo "kernel: $(uname -srm)"
        echo "java: $("$JAVA" -version 2>&1 | tr '\n' ' ')"
        echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (uncommitted changes)')"
        echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    } > "$OUT/machine.txt"
}

probe() {
    uptime | sed "s/^/$1 uptime:/" >> "$OUT/uptime.txt"
    "$JAVA" -cp "$JAR" dev.lanehost.benchmarks.PlacementProbe "$1" 2>/dev/null | tee -a "$OUT/placement.txt"
}
