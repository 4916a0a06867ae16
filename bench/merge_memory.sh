#!/usr/bin/env bash
# Peak memory of `gltf-anim merge` on large json reports (many assets, many
# issues each): peak RSS (/usr/bin/time -v) and the smallest address-space
# limit (RLIMIT_AS, prlimit, to 4 MiB) the merge succeeds under, for each
# build given. The runs behind docs/PERFORMANCE.md ("merge: memory").
#   bash bench/merge_memory.sh BUILD_DIR... [-- WORK_DIR]
# Each BUILD_DIR must hold cli/gltf-anim (e.g. the previous main's and this
# one's). WORK_DIR (default /tmp/gltf_anim_merge_memory) receives the reports
# (about 250 MB).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib/builds.sh"
parse_builds /tmp/gltf_anim_merge_memory "$@"
# One asset with 5,000 issues (an unexpected property on each of 5,000 nodes),
# validated by the first build; its report entry repeated under other names.
python3 - "$D" <<'PY'
import json, sys
d = sys.argv[1]
nodes = [{"foo": i} for i in range(5000)]
json.dump({"asset": {"version": "2.0"}, "nodes": nodes}, open(f"{d}/m.gltf", "w"))
PY
"${BUILDS[0]}/cli/gltf-anim" validate --format json --no-timings "$D/m.gltf" > "$D/one.json"
python3 - "$D" <<'PY'
import json, sys
d = sys.argv[1]
one = json.load(open(f"{d}/one.json"))
entry = one["reports"][0]
for name, count, indent in [("indented60", 60, 4), ("compact60", 60, None), ("compact32", 32, None)]:
    one["reports"] = [dict(entry, uri=f"m{k}.gltf") for k in range(count)]
    with open(f"{d}/{name}.json", "w") as f:
        if indent: json.dump(one, f, indent=indent)
        else: json.dump(one, f, separators=(",", ":"))
PY
as_limit() {  # smallest RLIMIT_AS in MiB (to 4) under which the merge exits 0
  local lo=8 hi=4096 mid
  while [ $((hi - lo)) -gt 4 ]; do
    mid=$(((lo + hi) / 2))
    if prlimit --as=$((mid << 20)) "$1" merge --no-timings -o "$D/out.json" "$2" >/dev/null 2>&1; then
      hi=$mid
    else
      lo=$mid
    fi
  done
  echo "$hi"
}
printf "%-16s %10s  %-40s %12s %12s %10s\n" report MB build "peak RSS MB" "RLIMIT_AS MiB" "wall s"
for r in compact32 compact60 indented60; do
  size=$(($(stat -c %s "$D/$r.json") / 1000000))
  for b in "${BUILDS[@]}"; do
    t=$( { /usr/bin/time -f "%M %e" "$b/cli/gltf-anim" merge --no-timings -o "$D/out.json" "$D/$r.json" >/dev/null; } 2>&1 | tail -1)
    rss=$(( ${t% *} / 1000 ))
    printf "%-16s %10s  %-40s %12s %12s %10s\n" "$r" "$size" "$b" "$rss" "$(as_limit "$b/cli/gltf-anim" "$D/$r.json" 2>/dev/null)" "${t#* }"
  done
done
