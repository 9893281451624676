#!/usr/bin/env bash
# Every Java and C snippet of README.md, of the module READMEs and of docs/ (host-abi, audio, host-abi-reference,
# write-a-plugin, affinity, runtime, call-gates) compiles. Each ```java block is compiled against the product modules' jars: one that declares a type in a file of
# that type's name, with the imports below unless it has its own; any other is the body of a main(String[] args) that may throw
# anything, as a user pastes it, in a class that imports lanehost's exported packages, java.lang.foreign,
# java.lang.invoke, java.nio.file, java.time and java.util (so the snippets need not repeat those imports). Each ```c block is compiled as a C11 translation unit
# against native/include, warnings as errors (but for a static helper the snippet does not call), and linked into a shared library against liblanehost. Run by
# `mvn verify` (release/pom.xml); a snippet that fails is printed with its page and line.
#
# A snippet that leans on its page's text (a runtime built above, a behaviour named but not shown) says what it is
# given in HTML comments right before its fence, which a reader of the page does not see: `<!-- given:` lines, which
# run first in main (local classes and records are allowed there), and `<!-- members:` lines, which become static
# members of the class around main. A snippet with either is always compiled as the body of main.
set -euo pipefail
: "${LANEHOST_ROOT:?} ${LANEHOST_PRODUCTS:?} ${LANEHOST_WORK:?} ${LANEHOST_VERSION:?} ${JAVA_HOME:?}"
pages=(README.md docs/host-abi.md docs/audio.md docs/host-abi-reference.md docs/write-a-plugin.md docs/affinity.md
       docs/runtime.md docs/call-gates.md lanes/README.md call-gate/README.md spsc-ring/README.md native/README.md affinity-native/README.md samples/README.md)
work="$LANEHOST_WORK/readme-snippets"
rm -rf "$work"
mkdir -p "$work/java" "$work/c" "$work/classes"

# Splits the blocks into numbered files, each starting with a comment naming its page and line; a block's given and
# members comments go beside it (snippetN.given, snippetN.members).
n=0
for page in "${pages[@]}"; do
    n=$(awk -v out="$work" -v page="$page" -v n="$n" '
        /^<!-- (given|members):$/ && !inside { kind = substr($0, 6, length($0) - 6); held[kind] = ""; collecting = kind; next }
        /^-->$/ && collecting != "" { collecting = ""; next }
        collecting != "" { held[collecting] = held[collecting] $0 "\n"; next }
        /^```(java|c)$/ && !inside { inside = 1; lang = substr($0, 4); n++; file = out "/" lang "/snippet" n "." lang;
                                     printf "// %s line %d\n", page, FNR + 1 > file;
                                     for (kind in held) { side = out "/" lang "/snippet" n "." kind; printf "%s", held[kind] > side; close(side) }
                                     delete held; next }
        /^```$/ && inside { inside = 0; close(file); next }
        inside { print > file }
        !inside && !/^$/ { delete held }
        END { print n }
    ' "$LANEHOST_ROOT/$page")
done

# The imports a snippet that has none of its own is compiled with: lanehost's exported packages and the JDK's usual.
imports() {
    echo 'import dev.lanehost.callgate.*; import dev.lanehost.callgate.value.*; import dev.lanehost.lanes.*;'
    echo 'import dev.lanehost.nativeabi.*; import dev.lanehost.ring.*; import dev.lanehost.affinity.*;'
    echo 'import java.lang.foreign.*; import java.lang.invoke.*; import java.nio.file.*; import java.time.*; import java.util.*;'
}

classpath=""
for module in ${LANEHOST_PRODUCTS//,/ }; do
    classpath="$classpath:$LANEHOST_ROOT/$module/target/lanehost-$module-$LANEHOST_VERSION.jar"
done
platform=linux-$(uname -m)
library_dir="$LANEHOST_ROOT/native/target/classes/dev/lanehost/native/$platform"

failures=0
java_count=0
for snippet in "$work"/java/*.java; do
    [ -e "$snippet" ] || continue
    java_count=$((java_count + 1))
    name=$(basename "$snippet" .java)
    class=Readme_$name
    source="$work/java/$class.java"
    given="$work/java/$name.given"
    members="$work/java/$name.members"
    if [ ! -e "$given" ] && [ ! -e "$members" ] && grep -Eq '^(public |final |abstract )*(class|record|interface|enum) ' "$snippet"; then
        # A type of its own: compiled in a file of its public type's name, with imports() unless it has its own.
        type=$(sed -nE 's/^public (final |abstract )*(class|record|interface|enum) ([A-Za-z0-9_]+).*/\3/p' "$snippet" | head -n 1)
        [ -z "$type" ] || source="$work/java/$type.java"
        if grep -Eq '^(import|package) ' "$snippet"; then
            cp "$snippet" "$source"
        else
            {
                imports
                cat "$snippet"
            } > "$source"
        fi
    else
        {
            imports
            echo "final class $class {"
            [ ! -e "$members" ] || cat "$members"
            echo '    public static void main(String[] args) throws Throwable {'
            [ ! -e "$given" ] || cat "$given"
            cat "$snippet"
            echo '    }'
            echo '}'
        } > "$source"
    fi
    if ! "$JAVA_HOME/bin/javac" --release 25 -Xlint:all,-restricted,-cast -Werror -proc:none -d "$work/classes" -cp "${classpath#:}" "$source" \
            > "$work/java/$name.log" 2>&1; then
        echo "check-readme: the Java snippet at $(head -n 1 "$snippet" | sed 's|// ||') does not compile:" >&2
        cat "$work/java/$name.log" >&2
        failures=$((failures + 1))
    fi
done

c_count=0
for snippet in "$work"/c/*.c; do
    [ -e "$snippet" ] || continue
    c_count=$((c_count + 1))
    name=$(basename "$snippet" .c)
    if ! cc -std=c11 -Wall -Wextra -Werror -Wno-unused-function -fPIC -shared -I "$LANEHOST_ROOT/native/include" -o "$work/c/$name.so" \
            "$snippet" -L "$library_dir" -llanehost > "$work/c/$name.log" 2>&1; then
        echo "check-readme: the C snippet at $(head -n 1 "$snippet" | sed 's|// ||') does not compile:" >&2
        cat "$work/c/$name.log" >&2
        failures=$((failures + 1))
    fi
done

[ "$java_count" -gt 0 ] && [ "$c_count" -gt 0 ] ||
    { echo "check-readme: found $java_count Java and $c_count C snippets in ${pages[*]}: expected some of each" >&2; exit 1; }
[ "$failures" = 0 ] || { echo "check-readme: $failures of $((java_count + c_count)) snippets do not compile" >&2; exit 1; }
echo "check-readme: all $java_count Java and $c_count C snippets of ${pages[*]} compile"
