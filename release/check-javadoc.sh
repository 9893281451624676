#!/usr/bin/env bash
# The javadoc: builds one site of every product module's exported API into target/apidocs of the repository root
# (an overview page, release/src/javadoc/overview.html, and links from one module's pages to another's), with
# doclint (all but missing comments); then checks that site and each module's own javadoc (the -javadoc jars'
# target/reports/apidocs) for block tags rendered as text, which a tag in the middle of a description is
# ("... @return its handle"), and the site for its overview and a link across modules. Run by `mvn verify`.
set -euo pipefail
: "${LANEHOST_ROOT:?} ${LANEHOST_PRODUCTS:?} ${LANEHOST_VERSION:?} ${JAVA_HOME:?}"
cd "$LANEHOST_ROOT"
site="$LANEHOST_ROOT/target/apidocs"
rm -rf "$site"

# Each product module's name, from its module-info.java.
modules=()
source_paths=()
for module in ${LANEHOST_PRODUCTS//,/ }; do
    name=$(sed -n 's/^module \([A-Za-z0-9_.]*\) {.*/\1/p' "$module/src/main/java/module-info.java")
    [ -n "$name" ] || { echo "check-javadoc: no module name in $module/src/main/java/module-info.java" >&2; exit 1; }
    modules+=("$name")
    source_paths+=(--module-source-path "$name=$module/src/main/java")
done
list=$(IFS=,; echo "${modules[*]}")
"$JAVA_HOME/bin/javadoc" -quiet -d "$site" -Xdoclint:all,-missing "${source_paths[@]}" --module "$list" \
    -overview release/src/javadoc/overview.html -doctitle "lanehost $LANEHOST_VERSION" \
    -windowtitle "lanehost $LANEHOST_VERSION" > "$LANEHOST_ROOT/target/apidocs.log" 2>&1 ||
    { cat "$LANEHOST_ROOT/target/apidocs.log" >&2; echo "check-javadoc: javadoc failed" >&2; exit 1; }

problems=0
docs=("$site")
for module in ${LANEHOST_PRODUCTS//,/ }; do
    [ -d "$module/target/reports/apidocs" ] && docs+=("$module/target/reports/apidocs")
done
# A block tag rendered as text: '@return', '@param', '@throws' ... inside a page's prose (source pages aside).
literal=$(grep -rEo --include='*.html' '[^{"/>a-zA-Z]@(return|param|throws|exception|see|since|deprecated) [^<]{0,40}' \
    "${docs[@]}" | grep -v '/src-html/' || true)
if [ -n "$literal" ]; then
    echo "check-javadoc: block tags rendered as text (a tag must start a line of its comment, or be {@return ...}):" >&2
    echo "$literal" | sed 's/^/  /' >&2
    problems=$((problems + 1))
fi
grep -q 'lanehost lets native hosts' "$site/index.html" ||
    { echo "check-javadoc: $site/index.html is not the overview page" >&2; problems=$((problems + 1)); }
host_abi="$site/dev.lanehost.nativeabi/dev/lanehost/nativeabi/HostAbi.html"
grep -q 'href="[./]*dev.lanehost.lanes/dev/lanehost/lanes/ExecutionLane.html' "$host_abi" ||
    { echo "check-javadoc: HostAbi's page does not link to ExecutionLane in dev.lanehost.lanes" >&2; problems=$((problems + 1)); }
[ "$problems" = 0 ] || exit 1
echo "check-javadoc: $site (${#modules[@]} modules, linked, with an overview) and ${#docs[@]} javadoc trees without a tag rendered as text"
