# Sourced by bin/test, bin/demo and .ci/run: finds a JDK 25+ and checks the build tools, installing
# missing ones with apt-get when running as root (a fresh CI machine), and says how otherwise.

lanehost_java_version() {
    # Prints the major version of the JDK at $1 (e.g. 25), or nothing.
    "$1/bin/java" -XshowSettings:properties -version 2>&1 |
        awk -F'= ' '/java.specification.version/ { print $2; exit }' | cut -d. -f1
}

lanehost_find_jdk() {
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
        local v
        v=$(lanehost_java_version "$JAVA_HOME")
        if [ -n "$v" ] && [ "$v" -ge 25 ]; then
            export JAVA_HOME
            return 0
        fi
        echo "lanehost: JAVA_HOME=$JAVA_HOME is JDK ${v:-?}, not 25+; looking under /usr/lib/jvm" >&2
    fi
    local candidate best="" best_version=0
    for candidate in /usr/lib/jvm/*; do
        [ -x "$candidate/bin/javac" ] || continue
        local v
        v=$(lanehost_java_version "$candidate")
        if [ -n "$v" ] && [ "$v" -ge 25 ] && [ "$v" -gt "$best_version" ]; then
            best=$candidate
            best_version=$v
        fi
    done
    if [ -z "$best" ]; then
        echo "lanehost: no JDK 25 or newer found (JAVA_HOME is '${JAVA_HOME:-unset}', nothing suitable under /usr/lib/jvm)." >&2
        echo "lanehost: install one (e.g. Temurin 25) and set JAVA_HOME to it." >&2
        return 1
    fi
    export JAVA_HOME=$best
}

lanehost_require_tools() {
    local missing=""
    command -v mvn >/dev/null 2>&1 || missing="$missing maven"
    command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
    command -v cc >/dev/null 2>&1 || missing="$missing gcc"
    # ThreadSanitizer's runtime, for the C ring test under TSan.
    if command -v gcc >/dev/null 2>&1 && ! echo 'int main(void){return 0;}' |
        gcc -x c -fsanitize=thread -o /dev/null - >/dev/null 2>&1; then
        missing="$missing libtsan2"
    fi
    # UndefinedBehaviorSanitizer's runtime, for the C ring tests under UBSan.
    if command -v gcc >/dev/null 2>&1 && ! echo 'int main(void){return 0;}' |
        gcc -x c -fsanitize=undefined -o /dev/null - >/dev/null 2>&1; then
        missing="$missing libubsan1"
    fi
    # libcbor, the independent CBOR implementation call-gate's interop test checks the codec against.
    if command -v gcc >/dev/null 2>&1 && ! printf '#include <cbor.h>\nint main(void){cbor_item_t *i = cbor_new_null(); cbor_decref(&i); return 0;}\n' |
        gcc -x c -o /dev/null - -lcbor >/dev/null 2>&1; then
        missing="$missing libcbor-dev"
    fi
    # cmocka, for the samples' C test harness (test_shop; skipped without it).
    if command -v gcc >/dev/null 2>&1 && ! printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' |
        gcc -x c -o /dev/null - -lcmocka >/dev/null 2>&1; then
        missing="$missing libcmocka-dev"
    fi
    # A JACK server and libjack's headers, for the JACK host sample and its test (skipped without them).
    command -v jackd >/dev/null 2>&1 || missing="$missing jackd2"
    if command -v gcc >/dev/null 2>&1 && ! echo '#include <jack/jack.h>' | gcc -x c -E -o /dev/null - >/dev/null 2>&1; then
        missing="$missing libjack-jackd2-dev"
    fi
    # GStreamer, for the GStreamer element sample and its tests (skipped without them): pkg-config, through which CMake
    # finds gstreamer-1.0 and gstreamer-check-1.0 (libgstreamer1.0-dev, which also holds gst-check's GstHarness) and
    # gstreamer-video-1.0 (libgstreamer-plugins-base1.0-dev); gst-launch-1.0 and gst-inspect-1.0 (gstreamer1.0-tools);
    # videotestsrc (gstreamer1.0-plugins-base; fakesink and capsfilter come with the library itself).
    command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
    if command -v pkg-config >/dev/null 2>&1; then
        pkg-config --exists gstreamer-1.0 gstreamer-check-1.0 || missing="$missing libgstreamer1.0-dev"
        pkg-config --exists gstreamer-video-1.0 || missing="$missing libgstreamer-plugins-base1.0-dev"
    else
        missing="$missing libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev"
    fi
    command -v gst-launch-1.0 >/dev/null 2>&1 || missing="$missing gstreamer1.0-tools"
    compgen -G '/usr/lib/*/gstreamer-1.0/libgstvideotestsrc.so' >/dev/null || missing="$missing gstreamer1.0-plugins-base"
    # LV2: the plugin sample's headers, and the unmodified hosts its tests run (each test is skipped without its host).
    if command -v gcc >/dev/null 2>&1 && ! echo '#include <lv2/core/lv2.h>' | gcc -x c -E -o /dev/null - >/dev/null 2>&1; then
        missing="$missing lv2-dev"
    fi
    command -v lv2apply >/dev/null 2>&1 || missing="$missing lilv-utils"
    command -v jalv >/dev/null 2>&1 || missing="$missing jalv"
    [ -d /usr/lib/lv2/eg-amp.lv2 ] || missing="$missing lv2-examples"
    # The linux-aarch64 libraries the jars bundle beside linux-x86_64: Debian's cross compilers (C, and C++ for the
    # header test) and qemu-user-static, which runs their C tests (each skipped, saying why, without its package).
    if [ "$(uname -m)" = x86_64 ]; then
        command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing="$missing gcc-aarch64-linux-gnu"
        command -v aarch64-linux-gnu-g++ >/dev/null 2>&1 || missing="$missing g++-aarch64-linux-gnu"
        command -v qemu-aarch64-static >/dev/null 2>&1 || missing="$missing qemu-user-static"
    fi
    # A font, so the demo can draw its plot (a headless JDK draws text through fontconfig).
    if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list 2>/dev/null | head -n 1)" ]; then
        missing="$missing fontconfig fonts-dejavu-core"
    fi
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "lanehost: installing$missing" >&2
        # noninteractive: jackd2 asks whether to enable real-time priority, and the default (no) is what a CI
        # machine wants; no recommends: they would pull a desktop (qjackctl) into CI.
        apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null || return 1
    else
        echo "lanehost: missing$missing; install them (Debian: sudo apt-get install$missing)" >&2
        return 1
    fi
}

lanehost_setup() {
    lanehost_find_jdk && lanehost_require_tools || return 1
    export PATH="$JAVA_HOME/bin:$PATH"
    echo "lanehost: using JDK at $JAVA_HOME" >&2
}

# The modules that call restricted FFM methods (load a library, link a downcall or an upcall, reinterpret a
# segment), named for --enable-native-access when they run on the module path: lanehost's loader, ring, affinity
# and host ABI, and the samples (lanes and call-gate never do).
LANEHOST_NATIVE_MODULES=dev.lanehost.nativeloader,dev.lanehost.ring,dev.lanehost.affinity,dev.lanehost.nativeabi,dev.lanehost.samples

lanehost_run_sample() {
    # Runs the samples' class $1 (e.g. FrameLaneDemo) on the module path a build left in samples/target, with the
    # remaining arguments; JVM options (a collector, a heap) come from LANEHOST_JAVA_OPTS.
    local main=$1
    shift
    if [ ! -d samples/target/modules ] || [ ! -f samples/target/classes/module-info.class ]; then
        echo "lanehost: the samples are not built; run: JAVA_HOME=$JAVA_HOME mvn -B $LANEHOST_SAMPLES_BUILD" >&2
        return 1
    fi
    if [ ! -f "samples/target/classes/dev/lanehost/samples/$main.class" ]; then
        echo "lanehost: no sample named '$main'; the samples (samples/README.md and docs/samples.md say what each shows):" >&2
        lanehost_list_samples >&2
        return 2
    fi
    # lanehost logs through java.util.logging: one line a record (its exception after it), not the default two.
    # shellcheck disable=SC2086 # LANEHOST_JAVA_OPTS is a list of options
    exec "$JAVA_HOME/bin/java" '-Djava.util.logging.SimpleFormatter.format=lanehost %4$s: %5$s%6$s%n' \
        ${LANEHOST_JAVA_OPTS:-} \
        --module-path samples/target/classes:samples/target/modules \
        --enable-native-access="$LANEHOST_NATIVE_MODULES" \
        -m "dev.lanehost.samples/dev.lanehost.samples.$main" "$@"
}

# ---- Building only when something changed, and saying what happens meanwhile ----

lanehost_phase() {
    # One line a phase on stderr, e.g. `lanehost [2/3]: building ...`.
    echo "lanehost $*" >&2
}

lanehost_sources_key() {
    # What a build depends on besides file contents: the given words (Maven's arguments, the JDK) and the list of
    # its input files (lanehost_build_inputs), so an added, removed or renamed file counts as a change. Prints nothing
    # outside a git work tree.
    git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0
    { printf '%s\n' "$@"; lanehost_build_inputs; } | sha1sum | cut -d' ' -f1
}

lanehost_build_inputs() {
    # The files a build reads: git's tracked and untracked files, without what .gitignore leaves out (target/, logs)
    # and without the scripts and prose no build reads (bin/, .ci/, docs/, *.md). With -z, NUL-separated.
    git ls-files ${1:-} -co --exclude-standard -- . ':!:bin' ':!:.ci' ':!:docs' ':!:*.md' ':!:LICENSE'
}

lanehost_up_to_date() {
    # lanehost_up_to_date <stamp> <words...>: succeeds if the last successful build that wrote <stamp> had the same
    # words and file list and no source file has changed since it began (modification times newer than the stamp).
    local stamp=$1
    shift
    [ -f "$stamp" ] || return 1
    [ -z "${LANEHOST_REBUILD:-}" ] || return 1
    local key
    key=$(lanehost_sources_key "$@")
    [ -n "$key" ] && [ "$(cat "$stamp")" = "$key" ] || return 1
    local newer
    newer=$(lanehost_build_inputs -z | xargs -0 -r sh -c 'find "$@" -newer "$0" -print -quit 2>/dev/null' "$stamp" | head -n 1)
    if [ -n "$newer" ]; then
        echo "lanehost: changed since the last build: $newer" >&2
        return 1
    fi
}

lanehost_maven() {
    # lanehost_maven <log> <stamp> <maven arguments...>: runs `mvn -B <arguments>` unless lanehost_up_to_date says the
    # last successful run with these arguments is current (then says so and returns). The whole output goes to <log>;
    # the terminal gets Maven's own progress: each module as it starts, each test run's totals, the outcome, errors.
    # On success the stamp records the run (taken at its start, so a file edited during the build counts as changed).
    local log=$1 stamp=$2
    shift 2
    if lanehost_up_to_date "$stamp" "$JAVA_HOME" "$@"; then
        echo "lanehost: nothing changed since the build of $(date -r "$stamp" '+%F %T') (mvn $*); not building again" \
            "(LANEHOST_REBUILD=1 forces a build)"
        return 0
    fi
    mkdir -p "$(dirname "$log")" "$(dirname "$stamp")"
    local started=$stamp.partial status
    lanehost_sources_key "$JAVA_HOME" "$@" > "$started"
    echo "lanehost: mvn -B $* (whole log: $log)" >&2
    # What Maven is doing: each module as it starts, its CMake steps, its test runs (not when tests are skipped).
    local steps='\((cmake-[a-z-]+|ctest|jcstress)\)|surefire'
    case " $* " in *" -DskipTests "*) steps='\((cmake-[a-z-]+)\)' ;; esac
    { mvn_status=0; mvn -B "$@" 2>&1 || mvn_status=$?; echo "$mvn_status" > "$log.status"; } | tee "$log" | {
        grep --line-buffered -E '^\[INFO\] Building .+ \[[0-9]+/[0-9]+\]$|^\[INFO\] --- .*('"$steps"')|^\[(INFO|WARNING|ERROR)\] Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$|tests passed, [0-9]+ tests failed out of|^The following tests (FAILED|did not run):|^\s+[0-9]+ - .* \((Failed|Timeout|Skipped|Not Run|SEGFAULT|Subprocess aborted)\)|^\[INFO\] (BUILD|Total time)|^\[ERROR\]' |
            sed -u -E 's/^\[INFO\] //; s/^--- [^ ]*surefire[^ ]* .*@ ([^ ]+) ---$/  JUnit (\1)/; s/^--- [^ ]* \(([a-z-]+)\) @ ([^ ]+) ---$/  \1 (\2)/; s/ {2,}\[/ [/' || true
    } >&2
    status=$(cat "$log.status")
    rm -f "$log.status"
    if [ "$status" != 0 ]; then
        rm -f "$started"
        tail -n 60 "$log" >&2
        echo "lanehost: the build failed (mvn exit status $status); the end of its log is above, the whole log is $log" >&2
        return 1
    fi
    if [ -s "$started" ]; then
        mv "$started" "$stamp"
    else
        rm -f "$started" # not a git work tree: every run builds
    fi
}

# The modules the samples and the demo need: the samples and what they depend on (-am), not the benchmarks or the
# test harnesses.
LANEHOST_SAMPLES_BUILD="-pl samples -am -DskipTests package"

lanehost_build_samples() {
    # Builds the samples (tests skipped) unless nothing changed since the last such build and its output is there.
    if [ ! -f samples/target/classes/module-info.class ] || [ ! -d samples/target/modules ]; then
        rm -f target/samples-build.stamp
    fi
    # shellcheck disable=SC2086 # a list of arguments
    lanehost_maven target/samples-build.log target/samples-build.stamp $LANEHOST_SAMPLES_BUILD
}

lanehost_list_samples() {
    # The samples' classes with a main method, one a line, indented, each with its default length (its javadoc's
    # usage: "[seconds, default 10]").
    local file length
    for file in $(grep -l 'void main(' samples/src/main/java/dev/lanehost/samples/*.java); do
        length=$(grep -ohE '\[(seconds|frames), default [0-9]+' "$file" | head -n 1 | sed -E 's/\[(seconds|frames), default ([0-9]+)/\2 \1 by default/')
        printf '  %-16s %s\n' "$(basename "$file" .java)" "$length"
    done
}
