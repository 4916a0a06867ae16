#!/usr/bin/env bash
# CTest blender_export_ci_recipe: runs the add-on CI recipe (ci-check.sh,
# docs/conformance/blender-export-ci.md) on the export fidelity table's scene
# (export_scenes.py --blend) and checks what its report says against what
# docs/conformance/blender-export-notes.md worked out by hand:
#   - the whole scene, keys as-is: exit 1; the Euler rotation off by about pi at frame 25 (keys
#     turned the long way), the negative scale off by 4 from frame 49 (Blender's (-1, 2, 1), glTF
#     (-1, 1, 2), written (-1, -1, -2)), the LINEAR rotation named as variant nlerp, the LINEAR,
#     STEP and Bezier translations passing; every reported node named by its object;
#   - the `constant` object alone: exit 0; the `linear` object alone: exit 0 with nlerp named;
#   - a missing scene: exit 2.
#   bash exporters/blender/check-ci.sh WORK_DIR      (GLTF_ANIM_CLI set by CTest)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="${1:?usage: check-ci.sh WORK_DIR}"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "${GLTF_ANIM_CLI:-}" ] || fail "GLTF_ANIM_CLI is not set"
. "$ROOT/scripts/packages.sh"
# shellcheck disable=SC2046  # a list of package names
packages_install $(packages_of blender)
rm -rf -- "$WORK"
mkdir -p -- "$WORK"
author() {  # FILE [NAME,...]: the fidelity table's scene (or those objects of it) as a .blend
  blender --background --factory-startup -noaudio --python-exit-code 2 \
    --python "$HERE/export_scenes.py" -- --blend "$@" > "$WORK/author.log" 2>&1 \
    || { tail -n 20 "$WORK/author.log" >&2; fail "authoring $1 failed"; }
}
recipe() {  # NAME EXPECTED_EXIT: ci-check.sh on WORK/NAME.blend, keys as-is
  local rc=0
  bash "$HERE/ci-check.sh" "$WORK/$1.blend" "$WORK/$1" --option export_force_sampling=False > "$WORK/$1.out" 2>&1 || rc=$?
  [ "$rc" = "$2" ] || { cat "$WORK/$1.out" >&2; fail "ci-check.sh on $1.blend exited $rc, not $2"; }
}
author "$WORK/scene.blend"
author "$WORK/constant.blend" constant
author "$WORK/linear.blend" linear
recipe scene 1
recipe constant 0
recipe linear 0
grep -q 'matches variant "nlerp"' "$WORK/linear.out" || fail "linear.out does not name variant nlerp"
rc=0
bash "$HERE/ci-check.sh" "$WORK/missing.blend" "$WORK/missing" > "$WORK/missing.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "ci-check.sh on a missing scene exited $rc, not 2"
python3 - "$WORK" <<'PY' || fail "the report of the whole scene is not what blender-export-notes.md explains (above)"
import json, math, re, sys
work = sys.argv[1]
out = open(work + "/scene.out", encoding="utf-8").read()
legend = re.search(r"^ci_check\.py: nodes: (.*)$", out, re.M)
assert legend, "no line naming the nodes' objects"
node = {name: int(n) for n, name in re.findall(r"(\d+) = (\w+)", legend.group(1))}
assert set(node) == {"bezier", "linear", "constant", "subframe", "euler", "negative_scale", "shapes"}, node
report = json.load(open(work + "/scene/report.json", encoding="utf-8"))
case = report["cases"][0]
assert not case["passed"]
channels = {ch["target"]: ch for ch in case["channels"]}
def ch(obj, path):
    return channels["/nodes/%d/%s" % (node[obj], path)]
fps = 24
e = ch("euler", "rotation")
assert not e["passed"] and e["max"] > 3.0 and abs(e["worstT"] - 25 / fps) < 1e-6, e["problem"]
s = ch("negative_scale", "scale")
assert not s["passed"] and abs(s["max"] - 4) < 1e-5 and s["worstT"] > 49 / fps - 1e-6, s["problem"]
lin = ch("linear", "rotation")
assert any(a["name"] == "nlerp" and a["kind"] == "variant" for a in lin["alternatives"]), lin["alternatives"]
for obj, path in (("linear", "translation"), ("constant", "translation"), ("bezier", "translation"), ("constant", "rotation")):
    assert ch(obj, path)["passed"], (obj, path, ch(obj, path)["problem"])
# The text report names the failing channel and the time of its worst sample.
assert re.search(r"/nodes/%d/rotation: .*max 3\.1\d* at t=1\.04" % node["euler"], out), "euler's line"
print("check-ci.sh: the report names %d failing channel(s)" % sum(1 for c in case["channels"] if not c["passed"]))
PY
echo "the add-on CI recipe (ci-check.sh) reports the scene's failures with their channel, time and cause"
