#!/usr/bin/env bash
# Peak memory of `gltf-anim merge` on json reports of about 170 MB and 500 MB, in
# the shapes a report takes: many assets of many issues, many assets of one
# issue, one asset of every issue (compact and indented as `validate` writes),
# long messages and many arguments, and many reports at once. Each build given
# merges each report in turn (peak RSS and wall time from /usr/bin/time), so the
# builds are measured side by side in one run. The runs behind
# docs/PERFORMANCE.md ("merge: memory").
#   bash bench/merge_large.sh BUILD_DIR... [-- WORK_DIR]
# Each BUILD_DIR must hold cli/gltf-anim (e.g. the previous main's and this
# one's). WORK_DIR (default /tmp/gltf_anim_merge_large) receives the reports
# (about 3 GB) and the outputs (one at a time). SHAPES (default: all of them,
# names as in the first column) and FORMATS (default json; any of merge's
# --format names) choose the runs: e.g. SHAPES=single_500 FORMATS="json text
# junit sarif md github".
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib/builds.sh"
parse_builds /tmp/gltf_anim_merge_large "$@"
# One asset with 5,000 issues (an unexpected property on each of 5,000 nodes),
# validated by the first build; the reports are made from its entry by text
# repetition (the counts set to match), once: a WORK_DIR that has them keeps them.
if [ ! -f "$D/many/r0189.json" ]; then
python3 - "$D" <<'PY'
import json, sys
d = sys.argv[1]
nodes = [{"foo": i} for i in range(5000)]
json.dump({"asset": {"version": "2.0"}, "nodes": nodes}, open(f"{d}/m.gltf", "w"))
PY
"${BUILDS[0]}/cli/gltf-anim" validate --format json --no-timings --max-issues 0 "$D/m.gltf" > "$D/one.json"
python3 - "$D" <<'PY'
import json, sys
d = sys.argv[1]
one = json.load(open(f"{d}/one.json"))
head = {k: v for k, v in one.items() if k != "reports"}
entry = one["reports"][0]
msgs = entry["issues"]["messages"]
def compact(v): return json.dumps(v, separators=(",", ":"))
def asset(uri, messages_text, warnings):
    issues = dict(entry["issues"], numWarnings=warnings, messages=[])
    e = dict(entry, uri=uri, issues=issues)
    t = compact(e)
    return t.replace('"messages":[]', '"messages":[' + messages_text + ']')
def report(path, assets):  # assets: iterable of asset texts
    h = compact(dict(head, reports=[]))
    start, end = h.split('"reports":[]')
    with open(path, "w") as f:
        f.write(start + '"reports":[')
        for k, a in enumerate(assets):
            f.write(("," if k else "") + a)
        f.write("]" + end)
five = ",".join(compact(m) for m in msgs)
one_msg = compact(msgs[0])
long_msg = compact(dict(msgs[0], message="x" * 4000))
many_args = compact(dict(msgs[0], arguments=[str(i) for i in range(200)]))
for size, scale in (("170", 1), ("500", 3)):
    n = 190 * scale
    report(f"{d}/assets_{size}.json", (asset(f"m{k}.gltf", five, 5000) for k in range(n)))
    n = 400_000 * scale
    report(f"{d}/tiny_{size}.json", (asset(f"m{k}.gltf", one_msg, 1) for k in range(n)))
    n = 190 * scale
    report(f"{d}/single_{size}.json", [asset("m.gltf", ",".join([five] * n), 5000 * n)])
    n = 42_000 * scale
    report(f"{d}/longmsg_{size}.json", [asset("m.gltf", ",".join([long_msg] * n), n)])
    n = 120_000 * scale
    report(f"{d}/manyargs_{size}.json", [asset("m.gltf", ",".join([many_args] * n), n)])
# The single-asset report indented as validate writes it (4 spaces).
json.dump(json.load(open(f"{d}/single_170.json")), open(f"{d}/single_indented.json", "w"), indent=4)
# 190 reports of one asset of 5,000 issues each (0.9 MB each): many inputs at once.
import os
os.makedirs(f"{d}/many", exist_ok=True)
for k in range(190):
    report(f"{d}/many/r{k:04}.json", [asset(f"m{k}.gltf", five, 5000)])
PY
fi
printf "%-22s %8s %-7s %-44s %12s %8s %5s\n" report MB format build "peak RSS MB" "wall s" exit
for r in ${SHAPES:-assets_170 tiny_170 single_170 single_indented longmsg_170 manyargs_170 \
         assets_500 tiny_500 single_500 longmsg_500 manyargs_500 many}; do
  if [ "$r" = many ]; then
    inputs=("$D"/many/*.json)
    size=$(du -cb "${inputs[@]}" | tail -1 | cut -f1)
  else
    inputs=("$D/$r.json")
    size=$(stat -c %s "$D/$r.json")
  fi
  for f in ${FORMATS:-json}; do
    for b in "${BUILDS[@]}"; do
      /usr/bin/time -o "$D/time.txt" -f "%M %e %x" "$b/cli/gltf-anim" merge --no-timings \
        --format "$f" -o "$D/out.$f" "${inputs[@]}" >/dev/null 2>"$D/err.txt" || true
      read -r kb wall code < <(tail -1 "$D/time.txt")
      printf "%-22s %8s %-7s %-44s %12s %8s %5s\n" "$r" "$((size / 1000000))" "$f" "$b" \
        "$((kb / 1000))" "$wall" "$code"
      rm -f "$D/out.$f"
    done
  done
done
