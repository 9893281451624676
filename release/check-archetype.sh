#!/usr/bin/env bash
# The archetype as a user meets it: generates a project from lanehost-archetype into a scratch directory, then runs
# the two commands of the generated README (build, run) verbatim and checks what the program printed. Maven runs
# offline, with a local repository of its own under target/ (never ~/.m2 for lanehost's artifacts): lanehost's
# artifacts come from the staging repository the build just deployed, the third-party plugins from the build's own
# local repository, read as a file: repository. Run by `mvn verify` (release/pom.xml).
set -euo pipefail
: "${LANEHOST_ROOT:?} ${LANEHOST_STAGING:?} ${LANEHOST_VERSION:?} ${LANEHOST_MAVEN:?} ${LANEHOST_LOCAL_REPOSITORY:?} ${LANEHOST_WORK:?} ${JAVA_HOME:?}"
work="$LANEHOST_WORK/archetype"
rm -rf "$work"
mkdir -p "$work/generated"
settings="$work/settings.xml"
repository="$work/repository"

# Two file: repositories and nothing else: central is the build's local repository, and any other repository a
# pom names is mirrored there too.
repo() { # id, url, releases, snapshots
    cat <<XML
        <$1>
          <id>$2</id>
          <url>$3</url>
          <releases><enabled>$4</enabled><checksumPolicy>ignore</checksumPolicy></releases>
          <snapshots><enabled>$5</enabled><updatePolicy>always</updatePolicy><checksumPolicy>ignore</checksumPolicy></snapshots>
        </$1>
XML
}
cat > "$settings" <<XML
<settings>
  <mirrors>
    <mirror><id>local-only</id><mirrorOf>external:*</mirrorOf><url>file://$LANEHOST_LOCAL_REPOSITORY</url></mirror>
  </mirrors>
  <profiles>
    <profile>
      <id>lanehost-staging</id>
      <repositories>
$(repo repository lanehost-staging "file://$LANEHOST_STAGING" true true)
$(repo repository central "file://$LANEHOST_LOCAL_REPOSITORY" true false)
      </repositories>
      <pluginRepositories>
$(repo pluginRepository lanehost-staging "file://$LANEHOST_STAGING" true true)
$(repo pluginRepository central "file://$LANEHOST_LOCAL_REPOSITORY" true false)
      </pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>lanehost-staging</activeProfile></activeProfiles>
</settings>
XML

# Every mvn below, the README's included: batch mode, offline but for file: repositories, these settings, that
# local repository.
mvn() {
    "$LANEHOST_MAVEN" -B -o -Daether.offline.protocols=file -s "$settings" -Dmaven.repo.local="$repository" "$@"
}
export -f mvn
export LANEHOST_MAVEN settings repository

# The generate command of README.md ("Quick start"), its continuation lines joined.
generate=$(awk '/^```sh$/ { inside = 1; command = ""; next } /^```$/ { inside = 0; next }
                inside { line = $0; sub(/\\$/, "", line); command = command line; if ($0 !~ /\\$/) { if (command ~ /:generate /) { print command; exit } command = "" } }' \
           "$LANEHOST_ROOT/README.md")
[ -n "$generate" ] || { echo "check-archetype: README.md has no archetype generate command" >&2; exit 1; }
case "$generate" in
    *"-DarchetypeVersion=$LANEHOST_VERSION "*) ;;
    *) echo "check-archetype: README.md's generate command does not name version $LANEHOST_VERSION: $generate" >&2; exit 1 ;;
esac
echo "check-archetype: generate (README.md): $generate"
cd "$work/generated"
bash -c "$generate" > "$work/generate.log" 2>&1 ||
    { cat "$work/generate.log" >&2; echo "check-archetype: archetype:generate failed" >&2; exit 1; }
cd myhost
for file in pom.xml README.md src/main/java/module-info.java src/main/java/com/example/myhost/Main.java \
            src/main/c/host.c src/main/c/CMakeLists.txt; do
    [ -f "$file" ] || { echo "check-archetype: the generated project has no $file" >&2; exit 1; }
done
grep -q "<lanehost.version>$LANEHOST_VERSION</lanehost.version>" pom.xml ||
    { echo "check-archetype: the generated pom does not depend on lanehost $LANEHOST_VERSION" >&2; exit 1; }

# The README's commands: the lines of its first sh block, build then run.
mapfile -t commands < <(awk '/^```sh$/ { inside = 1; next } /^```$/ { if (inside) exit } inside' README.md)
[ "${#commands[@]}" = 2 ] || { echo "check-archetype: the generated README has ${#commands[@]} commands, not 2 (build, run)" >&2; exit 1; }
echo "check-archetype: build: ${commands[0]}"
bash -c "${commands[0]}" > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; echo "check-archetype: the build command failed" >&2; exit 1; }
echo "check-archetype: run: ${commands[1]}"
status=0
bash -c "${commands[1]}" > "$work/run.log" 2>&1 || status=$?
cat "$work/run.log"
[ "$status" = 0 ] || { echo "check-archetype: the run command exited with $status" >&2; exit 1; }
grep -Eq '^host: a C thread drove the lane [0-9]+ times \([0-9]+ turns\) and the gate answered score 30$' "$work/run.log" ||
    { echo "check-archetype: the C host did not report the gate's answer, score 30" >&2; exit 1; }
grep -q "^java: the host got its answer and ended with status 0; the game actor made 30 moves, 0 of them on Java's main thread$" "$work/run.log" ||
    { echo "check-archetype: Java did not report the host's answer, status 0 and 30 moves off its main thread" >&2; exit 1; }
! grep -q WARNING "$work/run.log" || { echo "check-archetype: the program logged a warning" >&2; exit 1; }
[ -d "$repository/dev/lanehost/lanehost-native/$LANEHOST_VERSION" ] ||
    { echo "check-archetype: lanehost-native was not resolved into $repository" >&2; exit 1; }
echo "check-archetype: generated, built offline against $LANEHOST_STAGING and ran"
