#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds from the repository: scenario files, maps, jDip cases,
# every order line of the scenarios, other adjudicators' map files, outside adjudicators' answers
# and versus summaries. The few files committed under fuzz/corpus/ are a small curated part of
# this; running the script adds the rest (ignored by git). Safe to run again.
#
# The versus summaries come from short `versus` runs (a whole run, shards of two runs) of a built
# dipsandbox: $DIPSANDBOX, else target/release/dipsandbox, else target/debug/dipsandbox; without
# one, only the committed summaries are there.
set -euo pipefail
cd "$(dirname "$0")"
root=..
mkdir -p corpus/order_parser corpus/scenario_loader corpus/map_loader corpus/jdip_import corpus/adjudicate \
    corpus/protocol_answer corpus/versus_summary corpus/map_import
# Scenarios: every .ron under scenarios/ and tests/ that is a Scenario, maps that are a Map.
find "$root/scenarios" "$root/tests" -name '*.ron' -type f | sort | while read -r f; do
    name=$(printf '%s' "${f#"$root"/}" | tr '/' '_')
    if grep -q '^ *Map(' "$f"; then
        cp "$f" "corpus/map_loader/$name"
    else
        cp "$f" "corpus/scenario_loader/$name"
    fi
done
cp "$root/maps/"*.ron corpus/map_loader/
# Order lines: every quoted string in an `orders` list of the scenarios, one file each.
python3 - "$root" <<'PY'
import hashlib, os, re, sys
root = sys.argv[1]
seen = set()
for dirpath, _, files in os.walk(os.path.join(root, "scenarios")):
    for f in files:
        if not f.endswith(".ron"):
            continue
        text = open(os.path.join(dirpath, f), encoding="utf-8").read()
        for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', text):
            s = m.group(1)
            if re.match(r'^(\w+: )?[AF]? ?[A-Za-z]', s) and (" - " in s or " S " in s or " C " in s
                    or "Support" in s or "Convoy" in s or "Hold" in s or "Build" in s
                    or "Remove" in s or "Disband" in s):
                seen.add(s)
out = "corpus/order_parser"
for s in sorted(seen):
    name = hashlib.sha1(s.encode()).hexdigest()[:16]
    with open(os.path.join(out, name), "w", encoding="utf-8") as fh:
        fh.write(s)
PY
# jDip cases: each CASE ... END of the bundled suite as a file of its own (with its header).
python3 - "$root/tests/data/jdip/datc-v2.4.txt" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = [l for l in text[:40] if l.startswith("VARIANT_ALL")]
case, k = [], 0
for line in text:
    if line.strip().startswith("CASE"):
        case = [line]
    elif case:
        case.append(line)
        if line.strip() == "END":
            k += 1
            with open(f"corpus/jdip_import/case-{k:03}.txt", "w", encoding="utf-8") as fh:
                fh.write("\n".join(head + case) + "\n")
            case = []
PY
# Other adjudicators' maps (map_import): every DPjudge .map of the test data as it is; each jDip
# variants.xml, a NUL byte, its adjacency file (and, for a file of several variants, a NUL byte
# and the variant to read).
for f in "$root"/tests/data/maps/*.map; do
    cp "$f" "corpus/map_import/dpjudge-$(basename "$f")"
done
python3 - "$root/tests/data/maps/jdip" <<'PY'
import os, re, sys
base = sys.argv[1]
for folder in sorted(d for d, _, files in os.walk(base) if "variants.xml" in files):
    text = open(os.path.join(folder, "variants.xml"), "rb").read()
    uri = re.search(rb'adjacencyURI="([^"]*)"', text).group(1).decode()
    adjacency = open(os.path.join(folder, uri), "rb").read()
    names = [n.decode() for n in re.findall(rb'<VARIANT name="([^"]*)"', text)]
    tag = os.path.relpath(folder, base).replace(os.sep, "-").replace(".", "std")
    for k, name in enumerate(names if len(names) > 1 else [None]):
        out = text + b"\0" + adjacency + (b"\0" + name.encode() if name else b"")
        with open(f"corpus/map_import/jdip-{tag}-{k:02}", "wb") as fh:
            fh.write(out)
PY
# Outside adjudicators' answers (protocol_answer): the first byte chooses the phase (`B` the first
# of the 12 PROTOCOL_PHASES of fuzz/src/lib.rs, `C` the second, ..., `M` the last), the rest is
# the answer. Besides the committed answers: each without its reasons and with what may be left
# out left out (worked out from the verdicts), and for every phase an answer left to dipsandbox
# (`shared`), one that reports an error, and one for another request.
python3 - <<'PY'
import json, os
out = "corpus/protocol_answer"
for f in sorted(os.listdir(out)):
    if not f.startswith(("answer-", "derived-")) or f.endswith("-bare"):
        continue
    data = open(os.path.join(out, f), "rb").read()
    try:
        answer = json.loads(data[1:])
    except ValueError:
        continue
    if answer.get("results"):
        bare = dict(answer, results=[{"id": r["id"], "result": r["result"]} for r in answer["results"]])
        for key in ("units", "contested"):
            bare.pop(key, None)
        if "dislodged" in bare:
            bare["dislodged"] = [{"unit": d["unit"]} for d in bare["dislodged"]]
        with open(os.path.join(out, f"{f}-bare"), "wb") as fh:
            fh.write(data[:1] + json.dumps(bare).encode())
for k in range(12):
    for name, answer in [
        ("shared", {"protocol": 1, "id": 1, "shared": True}),
        ("error", {"protocol": 1, "id": 1, "error": "cannot\nadjudicate \u202e this"}),
        ("other-request", {"protocol": 1, "id": 2, "results": []}),
    ]:
        with open(os.path.join(out, f"{name}-{k:02}"), "wb") as fh:
            fh.write(bytes([ord("B") + k]) + json.dumps(answer).encode())
PY
# versus summaries (versus_summary): up to three summary.versus texts separated by NUL bytes:
# a whole run, the two shards of a run in either order, a shard twice, three shards of another.
bin=${DIPSANDBOX:-}
for b in "$root/target/release/dipsandbox" "$root/target/debug/dipsandbox"; do
    if [ -z "$bin" ] && [ -x "$b" ]; then bin=$b; fi
done
if [ -n "$bin" ]; then
    vs=$(mktemp -d)
    run() { "$bin" versus decisions dpjudge "$@" >/dev/null 2>&1 || true; }
    run --count 200 --mix paradox -o "$vs/whole"
    run --count 200 --mix paradox --shard 0/2 -o "$vs/a0"
    run --count 200 --mix paradox --shard 1/2 -o "$vs/a1"
    for i in 0 1 2; do run --count 90 --mix all --seed 7 --shard $i/3 -o "$vs/b$i"; done
    python3 - "$vs" <<'PY'
import os, sys
vs = sys.argv[1]
def read(d):
    p = os.path.join(vs, d, "summary.versus")
    return open(p, "rb").read() if os.path.exists(p) else b""
sets = {"whole": ["whole"], "shards-0-1": ["a0", "a1"], "shards-1-0": ["a1", "a0"],
        "shard-0": ["a0"], "shard-0-twice": ["a0", "a0"], "shards-3-of-3": ["b0", "b1", "b2"],
        "shards-whole-and-0": ["whole", "a0"]}
for name, parts in sets.items():
    with open(f"corpus/versus_summary/run-{name}", "wb") as fh:
        fh.write(b"\0".join(read(d) for d in parts))
PY
    rm -rf "$vs"
else
    echo "versus_summary: no dipsandbox binary built (cargo build --release, or DIPSANDBOX=PATH): committed seeds only"
fi
for t in order_parser scenario_loader map_loader jdip_import adjudicate protocol_answer versus_summary map_import; do
    printf '%-16s %5d files\n' "$t" "$(ls corpus/$t | wc -l)"
done
