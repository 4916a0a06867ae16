#!/usr/bin/env bash
# CTest delivery_quick_start: the quick start's first command (scripts/run-example.sh)
# builds the gltf-anim executable only, not every test and benchmark, before it shows
# the example. cmake is replaced by a stand-in on PATH that records how it is called
# and, for a build, puts the already built CLI where the build would; setup's package
# and valijson steps run as they are (the build machine has what they look for).
#   bash tests/delivery/check-quick-start.sh GLTF_ANIM WORK_DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: check-quick-start.sh GLTF_ANIM WORK_DIR" >&2; exit 2; }
CLI="$1" WORK="$2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fail() { echo "check-quick-start: FAIL: $*" >&2; exit 1; }
case "$WORK" in ""|/|.|..) fail "WORK_DIR '$WORK' is not a scratch folder";; esac
rm -rf -- "$WORK"
mkdir -p -- "$WORK/bin" "$WORK/build"
cat >"$WORK/bin/cmake" <<'STANDIN'
#!/usr/bin/env bash
printf '%s\n' "$*" >>"$QUICK_START_LOG"
if [ "${1:-}" = --build ]; then
  mkdir -p "$2/cli" && ln -sf "$QUICK_START_CLI" "$2/cli/gltf-anim"
fi
STANDIN
chmod +x "$WORK/bin/cmake"
status=0
PATH="$WORK/bin:$PATH" QUICK_START_LOG="$WORK/cmake.log" QUICK_START_CLI="$CLI" BUILD_DIR="$WORK/build" \
  bash "$ROOT/scripts/run-example.sh" >"$WORK/out.txt" 2>"$WORK/err.txt" || status=$?
cat "$WORK/out.txt"
[ "$status" -eq 0 ] || { cat "$WORK/err.txt" >&2; fail "run-example.sh exited $status"; }
grep -q 'sqlerp_with_fallback.gltf: ok' "$WORK/out.txt" || fail "the example's verdict is not shown"
builds="$(grep -c -- '^--build ' "$WORK/cmake.log" || true)"
[ "$builds" -ge 1 ] || fail "run-example.sh built nothing (cmake calls: $(cat "$WORK/cmake.log"))"
while IFS= read -r call; do
  case "$call" in
    --build*) [[ "$call" =~ \ --target\ gltf-anim$ ]] || fail "a build of more than the CLI: cmake $call";;
  esac
done <"$WORK/cmake.log"
echo "check-quick-start: run-example.sh builds the gltf-anim target only, then shows the example"
