#!/usr/bin/env bash
# iters.sh FILE...: each measured iteration's p50 with the placement probes around it
for f in "$@"; do
awk -v F=$(basename $f .txt) '
/^# Parameters/{p=$3" "$4" "$5}
/^# Warmup Iteration/{w=1}
/^Iteration/{w=0; b=$0; sub(/.*round trip /,"",b); sub(/ ns.*/,"",b)}
/# placement iteration after/{a=$0; sub(/.*round trip /,"",a); sub(/ ns.*/,"",a)}
/p0.50:/{ if(!w) printf "%s %s before %s after %s p50 %s\n", F, p, b, a, $2}
' $f
done
