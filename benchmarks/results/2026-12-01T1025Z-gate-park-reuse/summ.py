import json, sys, glob, os, re
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, "r*-*.json"))):
    tag = os.path.basename(f)[:-5]
    rnd, name = tag.split("-", 1)
    for b in json.load(open(f)):
        key = b["benchmark"].split(".")[-1] + "".join("[%s=%s]" % kv for kv in sorted(b.get("params", {}).items()) if kv[0] != "idle")
        pm = b["primaryMetric"]
        val = pm["scorePercentiles"]["50.0"] if b["mode"] == "sample" else pm["score"]
        alloc = b.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        rows.setdefault(key, {}).setdefault(name, []).append((rnd, val, alloc))
for key, by in rows.items():
    print(key)
    for name, vals in by.items():
        print("   %-8s %s" % (name, "  ".join("%s: %.0f ns %s B" % (r, v, "%.1f" % a if a is not None else "-") for r, v, a in vals)))
