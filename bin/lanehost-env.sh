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
        echo "lanehost: the samples are not built; run: JAVA_HOME=$JAVA_HOME mvn -B -pl samples -am package -DskipTests" >&2
        return 1
    fi
    if [ ! -f "samples/target/classes/dev/lanehost/samples/$main.class" ]; then
        echo "lanehost: no sample named '$main'; the samples (samples/README.md says what each shows):" >&2
        grep -l 'void main(' samples/src/main/java/dev/lanehost/samples/*.java | xargs -n1 basename | sed 's/\.java$//; s/^/  /' >&2
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
