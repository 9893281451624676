#!/usr/bin/env bash
# What the build staged (lanehost.staging.directory, a Maven repository): the parent pom with the metadata Maven
# Central requires (name, description, url, license, developers, scm), and for every product module and the
# archetype its pom (with a name and a description), jar, -sources and -javadoc jars and a CycloneDX SBOM of that
# very artifact; and nothing of the modules that are not products. Run by `mvn verify` (release/pom.xml), with
# --offline=true as the argument when Maven runs offline (no SBOM then).
set -euo pipefail
: "${LANEHOST_STAGING:?} ${LANEHOST_PRODUCTS:?} ${LANEHOST_VERSION:?}"
group="$LANEHOST_STAGING/dev/lanehost"
problems=()
problem() { problems+=("$1"); }

# The newest staged file of an artifact with the given suffix ("pom", "jar", "sources.jar", ...), or nothing.
staged() {
    local dir="$group/$1/$LANEHOST_VERSION" suffix=$2
    [ -d "$dir" ] || return 0
    find "$dir" -maxdepth 1 -type f -name "$1-*" | grep -E -- "$1-[0-9.]+(-SNAPSHOT|-[0-9]{8}\.[0-9]{6}-[0-9]+)?[.-]$suffix\$" | sort | tail -n 1
}

need_tag() { # file, tag, what
    grep -q "<$2>" "$1" || problem "$3: no <$2> in $(basename "$1")"
}

parent=$(staged lanehost-parent pom)
if [ -z "$parent" ]; then
    problem "lanehost-parent: no pom staged"
else
    for tag in name description url licenses developers scm; do need_tag "$parent" "$tag" lanehost-parent; done
    grep -q '<name>Apache-2.0</name>' "$parent" || problem "lanehost-parent: the license is not named Apache-2.0"
    grep -q '<connection>scm:git:' "$parent" || problem "lanehost-parent: no scm connection"
fi

# The CycloneDX plugin runs online only (an offline build, mvn -o, stages no SBOM and says so).
sbom=cyclonedx.json
if [ "${1:-}" = --offline=true ]; then
    sbom=
    echo "check-staging: an offline build stages no SBOM (the CycloneDX plugin needs online mode): not checked"
fi
artifacts=(lanehost-archetype)
for module in ${LANEHOST_PRODUCTS//,/ }; do artifacts+=("lanehost-$module"); done
for artifact in "${artifacts[@]}"; do
    pom=$(staged "$artifact" pom)
    if [ -z "$pom" ]; then problem "$artifact: not staged (no pom)"; continue; fi
    need_tag "$pom" name "$artifact"
    need_tag "$pom" description "$artifact"
    for suffix in jar sources.jar javadoc.jar $sbom; do
        file=$(staged "$artifact" "$suffix")
        if [ -z "$file" ]; then problem "$artifact: no $suffix staged"; continue; fi
        [ -s "$file" ] || problem "$artifact: $(basename "$file") is empty"
    done
    bom=$(staged "$artifact" cyclonedx.json)
    if [ -n "$sbom" ] && [ -n "$bom" ] && ! grep -q "\"purl\" *: *\"pkg:maven/dev.lanehost/$artifact@$LANEHOST_VERSION" "$bom"; then
        problem "$artifact: its SBOM does not describe pkg:maven/dev.lanehost/$artifact@$LANEHOST_VERSION"
    fi
done

for other in lanehost-tests lanehost-benchmarks lanehost-samples lanehost-release-checks; do
    [ ! -e "$group/$other" ] || problem "$other is staged, but it is not a product artifact"
done

if [ "${#problems[@]}" -gt 0 ]; then
    printf 'check-staging: %s\n' "${problems[@]}" >&2
    echo "check-staging: ${#problems[@]} problems in $LANEHOST_STAGING" >&2
    exit 1
fi
echo "check-staging: $LANEHOST_STAGING holds the parent and ${#artifacts[@]} artifacts, each with sources, javadoc${sbom:+ and an SBOM}, and no test, benchmark or sample module"
