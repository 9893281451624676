#!/usr/bin/env bash
# Reproducible builds: packages each product module's compiled classes (its Java classes and the C libraries CMake
# installed beside them) twice more, once in UTC and once in UTC+14, into two directories, and checks that both jars
# are byte-identical to each other and to the one the build itself made earlier. A jar that carries the build's
# clock or time zone (no project.build.outputTimestamp) differs. Run by `mvn verify` (release/pom.xml).
set -euo pipefail
: "${LANEHOST_ROOT:?} ${LANEHOST_MAVEN:?} ${LANEHOST_PRODUCTS:?} ${LANEHOST_WORK:?} ${LANEHOST_VERSION:?}"
work="$LANEHOST_WORK/reproducible"
rm -rf "$work"
mkdir -p "$work"
for run in utc kiritimati; do
    zone=UTC
    [ "$run" = kiritimati ] && zone=Pacific/Kiritimati
    TZ=$zone "$LANEHOST_MAVEN" -B -o -q -f "$LANEHOST_ROOT/pom.xml" -pl "$LANEHOST_PRODUCTS" \
        jar:jar@reproducibility-check -Dlanehost.reproducibility.directory="$work/$run" \
        > "$work/$run.log" 2>&1 || { cat "$work/$run.log" >&2; echo "check-reproducible: packaging in $zone failed" >&2; exit 1; }
done
failures=0
checked=0
for module in ${LANEHOST_PRODUCTS//,/ }; do
    built=$(ls "$LANEHOST_ROOT/$module/target/"lanehost-*-"$LANEHOST_VERSION".jar)
    name=$(basename "$built")
    for other in "$work/utc/$name" "$work/kiritimati/$name"; do
        if ! cmp -s "$built" "$other"; then
            echo "check-reproducible: $other differs from the build's $built" >&2
            failures=$((failures + 1))
        fi
        checked=$((checked + 1))
    done
done
[ "$failures" = 0 ] || { echo "check-reproducible: $failures of $checked jars not byte-identical" >&2; exit 1; }
echo "check-reproducible: $checked rebuilt jars of $(echo "${LANEHOST_PRODUCTS//,/ }" | wc -w) modules byte-identical to the build's (UTC and UTC+14)"
