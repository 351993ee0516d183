#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds from the repository: scenario files, maps, jDip cases
# and every order line of the scenarios. The few files committed under fuzz/corpus/ are a small
# curated part of this; running the script adds the rest (ignored by git). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")"
root=..
mkdir -p corpus/order_parser corpus/scenario_loader corpus/map_loader corpus/jdip_import corpus/adjudicate
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
for t in order_parser scenario_loader map_loader jdip_import adjudicate; do
    printf '%-16s %5d files\n' "$t" "$(ls corpus/$t | wc -l)"
done
