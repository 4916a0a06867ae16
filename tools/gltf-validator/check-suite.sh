#!/usr/bin/env bash
# CTest gltf_validator_suite: Khronos glTF-Validator reports no error on any asset of the
# shipped suite (conformance_assets/valid): an engine author loads them into an engine
# that may refuse what glTF-Validator calls an error, whatever the animation holds (a
# textured material on a primitive without TEXCOORD_0 was one). Prints each error found.
# The one exception is by design: a draft that replaces a member the core schema requires,
# in an asset that lists the draft in extensionsUsed (KHR_animation2's channels have
# `targetpointer` instead of `target`; EXT_animation_sqlerp without fallback names its
# sampler in the extension instead of `sampler`), where core glTF-Validator says
# UNDEFINED_PROPERTY for that member of a channel.
#   check-suite.sh WORK_DIR
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${1:?usage: check-suite.sh WORK_DIR}
mkdir -p "$WORK"
node "$HERE/validate.mjs" --output "$WORK/suite-reports.json" -- "$ROOT/conformance_assets/valid"
node "$HERE/check-suite.mjs" "$WORK/suite-reports.json"
