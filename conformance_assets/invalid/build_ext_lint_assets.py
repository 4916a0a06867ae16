#!/usr/bin/env python3
"""Writes the invalid-asset test data of the extension rules (EXT_animation_sqlerp,
KHR_animation2) and the lints, like build_invalid_assets.py (whose helpers it
uses): each case is one small asset breaking one rule, written by hand, with
the report expected from the rule (code, severity, pointer of every message),
derived by hand; the note says why each message is there.

Assets go to invalid/ext/<extension>/, invalid/lint/ and rules_valid/ext/.
tests/validator/test_rules_invalid_assets.cpp compares them.

Run: python3 conformance_assets/invalid/build_ext_lint_assets.py
"""

import struct

from _assets_common import write_cases
from build_invalid_assets import A, C0, E, I, S0, W, acc, anim, asset, ch, smp

SQ = "EXT_animation_sqlerp"
K2 = "KHR_animation2"
R = 0.7071068  # cos(45 deg) as float32-ish: |(0, 0, R, R)| - 1 = 1e-7
ID = [0, 0, 0, 1]
QZ = [0, 0, R, R]  # 90 degrees about z
ZERO = [0, 0, 0, 0]
TIMES = [0.0, 1.0]

CASES = {}


def case(path, doc, messages, note):
    CASES[path] = (doc, messages, note)


# ---- EXT_animation_sqlerp ---------------------------------------------------
# Accessor 0: times [0, 1]; accessor 1: the CUBICSLERP output a1 v1 b1 a2 v2 b2
# (end tangents zero, the others unit); accessor 2: the LINEAR fallback v1 v2.
SQ_OUT = ZERO + ID + ID + ID + QZ + ZERO


def sqlerp(out=None, out_count=None, times=None, fallback_out=None, channel=None, samplers=None,
           used=True, required=False, fallback_type="VEC4"):
    out = SQ_OUT if out is None else out
    times = TIMES if times is None else times
    fallback_out = ID + QZ if fallback_out is None else fallback_out
    n = len(times)
    ext = {"extensionsUsed": [SQ]} if used else {}
    if required:
        ext["extensionsRequired"] = [SQ]
    ch0 = channel if channel is not None else {
        "sampler": 1, "target": {"node": 0, "path": "rotation"},
        "extensions": {SQ: {"sampler": 0}}}
    return asset([times, out, fallback_out],
                 [acc(0, "SCALAR", n, [times[0]], [times[-1]]),
                  acc(1, "VEC4", out_count if out_count is not None else len(out) // 4),
                  acc(2, fallback_type, len(fallback_out) // (3 if fallback_type == "VEC3" else 4))],
                 [anim([ch0], samplers if samplers is not None else
                       [smp(0, 1, "CUBICSLERP"), smp(0, 2, "LINEAR")])], extra=ext)


CP = C0 + "/extensions/" + SQ
S1 = A + "/samplers/1"

case("../rules_valid/ext/EXT_animation_sqlerp/with_fallback", sqlerp(), [],
     "the extension's first example: CUBICSLERP through the extension, LINEAR fallback in the "
     "channel's sampler; zero end tangents, unit keys and inner tangents: no message (no "
     "VALUE_NOT_IN_LIST, no x3 count error, sampler 0 is used)")
case("../rules_valid/ext/EXT_animation_sqlerp/without_fallback",
     sqlerp(channel={"target": {"node": 0, "path": "rotation"}, "extensions": {SQ: {"sampler": 0}}},
            samplers=[smp(0, 1, "CUBICSLERP")], fallback_out=[], required=True),
     [], "the second example: no core sampler, the extension required: no message")
# (fallback_out=[] leaves an empty bufferView/accessor 2: drop them below)
d = CASES["../rules_valid/ext/EXT_animation_sqlerp/without_fallback"][0]
del d["accessors"][2]
del d["bufferViews"][2]

d = sqlerp()
d["accessors"][1]["type"] = "VEC3"  # 6 VEC3 = 72 of the view's 96 bytes
d["accessors"][1]["count"] = 6
case("ext/EXT_animation_sqlerp/output_format", d,
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, S0 + "/output")],
     "a CUBICSLERP output of 6 VEC3 (count right: 3 x 2): rotations need VEC4; its data is "
     "then not checked as quaternions")
case("ext/EXT_animation_sqlerp/invalid_output_count", sqlerp(out=SQ_OUT[:20]),
     [("EXT_ANIMATION_SQLERP_INVALID_OUTPUT_COUNT", E, S0 + "/output")],
     "2 keys, 5 CUBICSLERP outputs (6 expected); no quaternion check without a whole triple layout")
case("ext/EXT_animation_sqlerp/too_few_keyframes",
     sqlerp(times=[0.0], out=ZERO + ID + ZERO, fallback_out=ID),
     [("EXT_ANIMATION_SQLERP_TOO_FEW_KEYFRAMES", E, S0 + "/input")],
     "one key (3 outputs, count right); the LINEAR fallback with one key is valid; the core "
     "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS is not repeated")
case("ext/EXT_animation_sqlerp/invalid_target_path",
     sqlerp(channel={"sampler": 1, "target": {"node": 0, "path": "translation"},
                     "extensions": {SQ: {"sampler": 0}}},
            fallback_out=[0, 0, 0, 1, 2, 3], fallback_type="VEC3"),
     [("EXT_ANIMATION_SQLERP_INVALID_TARGET_PATH", E, C0 + "/target/path")],
     "the CUBICSLERP sampler drives a translation (the VEC3 LINEAR fallback itself is fine)")
case("ext/EXT_animation_sqlerp/nonzero_end_tangent", sqlerp(out=ID + SQ_OUT[4:]),
     [("EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT", W, S0 + "/output")],
     "the first in-tangent is the identity, not zero (unit, so no quaternion error)")
case("ext/EXT_animation_sqlerp/missing_fallback",
     sqlerp(channel={"target": {"node": 0, "path": "rotation"}, "extensions": {SQ: {"sampler": 0}}},
            samplers=[smp(0, 1, "CUBICSLERP"), smp(0, 2, "LINEAR")]),
     [("EXT_ANIMATION_SQLERP_MISSING_FALLBACK", E, C0), ("UNUSED_OBJECT", I, S1)],
     "no core sampler and the extension not required; the schema's UNDEFINED_PROPERTY "
     "(sampler) is replaced by the extension's code; sampler 1 is now unused")
case("ext/EXT_animation_sqlerp/core_sampler_cubicslerp",
     sqlerp(channel={"sampler": 0, "target": {"node": 0, "path": "rotation"}},
            samplers=[smp(0, 1, "CUBICSLERP"), smp(0, 2, "LINEAR")]),
     [("EXT_ANIMATION_SQLERP_MISSING_FALLBACK", E, C0), ("UNUSED_OBJECT", I, S1)],
     "CUBICSLERP reached through the core sampler: clients without the extension cannot play "
     "it; the core count (6 = 2 x 3) and key checks pass; sampler 1 is unused")
case("ext/EXT_animation_sqlerp/sampler_unresolved",
     sqlerp(channel={"sampler": 1, "target": {"node": 0, "path": "rotation"},
                     "extensions": {SQ: {"sampler": 5}}}),
     [("UNRESOLVED_REFERENCE", E, CP + "/sampler"), ("UNUSED_OBJECT", I, S0)],
     "the extension's sampler 5 does not exist; the CUBICSLERP sampler 0 is then unused")
case("ext/EXT_animation_sqlerp/sampler_not_cubicslerp",
     sqlerp(channel={"sampler": 1, "target": {"node": 0, "path": "rotation"},
                     "extensions": {SQ: {"sampler": 1}}}),
     [("EXT_ANIMATION_SQLERP_INVALID_SAMPLER_INTERPOLATION", E, CP + "/sampler"),
      ("UNUSED_OBJECT", I, S0)],
     "the extension names the LINEAR fallback sampler 1, which holds no CUBICSLERP data; the "
     "CUBICSLERP sampler 0 is then unused")
case("ext/EXT_animation_sqlerp/undeclared",
     sqlerp(used=False, samplers=[smp(0, 2, "LINEAR"), smp(0, 2, "LINEAR")],
            channel={"sampler": 1, "target": {"node": 0, "path": "rotation"},
                     "extensions": {SQ: {"sampler": 0}}}),
     [("UNDECLARED_EXTENSION", E, CP)],
     "extension object without extensionsUsed (both samplers LINEAR, so nothing else; "
     "accessor 1 is simply unused)")
case("ext/EXT_animation_sqlerp/tangent_not_unit",
     sqlerp(out=ZERO + ID + [0, 0, 0, 0.5] + SQ_OUT[12:]),
     [("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", E, S0 + "/output")],
     "the first out-tangent has length 0.5: tangents are unit quaternions too")
d = sqlerp()
d["animations"][0]["channels"][0]["extensions"][SQ]["speed"] = 2
case("ext/EXT_animation_sqlerp/unexpected_property", d,
     [("UNEXPECTED_PROPERTY", W, CP + "/speed")],
     "our schema for the extension object has sampler, extensions, extras only")
d = sqlerp()
d["animations"][0]["channels"][0]["extensions"][SQ] = {}
case("ext/EXT_animation_sqlerp/sampler_missing", d,
     [("UNDEFINED_PROPERTY", E, CP), ("UNUSED_OBJECT", I, S0)],
     "the extension object without sampler (required by our schema); sampler 0 unused")


# ---- KHR_animation2 ---------------------------------------------------------
def anim2(pointer="/nodes/0/rotation", interpolation="SLERP", out=None, out_type="VEC4",
          count=None, channels=None, used=True, nodes=None):
    out = ID + QZ if out is None else out
    per = {"VEC4": 4, "VEC3": 3, "SCALAR": 1}[out_type]
    chans = channels if channels is not None else [{"sampler": 0, "targetpointer": pointer}]
    return asset([TIMES, out],
                 [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, out_type, count or len(out) // per)],
                 [anim(chans, [smp(0, 1, interpolation)])], nodes=nodes,
                 extra={"extensionsUsed": [K2]} if used else None)


SUP = ("KHR_ANIMATION2_SUPERSEDED", I, "/extensionsUsed/0")
TP = C0 + "/targetpointer"
case("../rules_valid/ext/KHR_animation2/slerp_rotation", anim2(), [SUP],
     "SLERP rotation through targetpointer: only the information that the draft is superseded")
case("../rules_valid/ext/KHR_animation2/linear_material_factor",
     anim2(pointer="/materials/0/pbrMetallicRoughness/baseColorFactor", interpolation="LINEAR",
           out=[1, 0, 0, 1, 0, 0, 1, 1]) | {"materials": [{"pbrMetallicRoughness": {}}]}, [SUP],
     "LINEAR vec4 on a material factor absent from the JSON but with a default inside an "
     "existing pbrMetallicRoughness object (Object Model resolution)")
case("../rules_valid/ext/KHR_animation2/scalar_in_array",
     anim2(pointer="/nodes/0/translation/1", interpolation="LINEAR", out=[0, 2], out_type="SCALAR"),
     [SUP], "the draft's 'scalars in an array': the y component of the node's translation")
d = asset([TIMES, [0, 0.5, 1, 0]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "SCALAR", 4),
           acc(None, "VEC3", 1, [0, 0, 0], [0, 0, 0])],
          [anim([{"sampler": 0, "targetpointer": "/nodes/0/weights"}], [smp(0, 1, "LINEAR")])],
          nodes=[{"mesh": 0}],
          extra={"extensionsUsed": [K2],
                 "meshes": [{"primitives": [{"attributes": {"POSITION": 2},
                                             "targets": [{"POSITION": 2}, {"POSITION": 2}]}]}]})
case("../rules_valid/ext/KHR_animation2/weights_float_array", d, [SUP],
     "node weights through a pointer: float[2] (2 morph targets), 2 keys x 2 = 4 SCALAR outputs")
case("ext/KHR_animation2/pointer_without_leading_slash", anim2(pointer="nodes/0/rotation"),
     [SUP, ("KHR_ANIMATION2_POINTER_WITHOUT_LEADING_SLASH", W, TP)],
     "the draft's own spelling: accepted, resolved as /nodes/0/rotation, with a warning")
case("ext/KHR_animation2/invalid_pointer", anim2(pointer="/nodes/0/rot~2ation"),
     [SUP, ("KHR_ANIMATION2_INVALID_POINTER", E, TP)], "'~2' is not an RFC 6901 escape")
case("ext/KHR_animation2/unresolved_pointer", anim2(pointer="/nodes/3/rotation"),
     [SUP, ("KHR_ANIMATION2_UNRESOLVED_POINTER", E, TP)], "there is one node only")
case("ext/KHR_animation2/index_not_animatable",
     anim2(pointer="/nodes/0/mesh", interpolation="STEP", out=[0, 1], out_type="SCALAR"),
     [SUP, ("KHR_ANIMATION2_UNRESOLVED_POINTER", E, TP)],
     "node.mesh is no property of the Object Model (an index, and absent here)")
case("ext/KHR_animation2/component_out_of_range",
     anim2(pointer="/nodes/0/translation/3", interpolation="LINEAR", out=[0, 2], out_type="SCALAR"),
     [SUP, ("KHR_ANIMATION2_UNRESOLVED_POINTER", E, TP)],
     "translation has 3 components: index 3 does not exist")
case("ext/KHR_animation2/read_only",
     anim2(pointer="/nodes/0/matrix", interpolation="STEP", out=[0, 2], out_type="SCALAR"),
     [SUP, ("KHR_ANIMATION2_UNRESOLVED_POINTER", E, TP)],
     "node.matrix is read-only in the Object Model")
case("ext/KHR_animation2/linear_quaternion", anim2(interpolation="LINEAR"),
     [SUP, ("KHR_ANIMATION2_INVALID_INTERPOLATION", E, C0 + "/sampler")],
     "validity table: quaternions are STEP or SLERP, not LINEAR")
case("ext/KHR_animation2/slerp_vec3",
     anim2(pointer="/nodes/0/translation", out=[0, 0, 0, 1, 2, 3], out_type="VEC3"),
     [SUP, ("KHR_ANIMATION2_INVALID_INTERPOLATION", E, C0 + "/sampler")],
     "validity table: SLERP only for quaternions")
case("ext/KHR_animation2/output_type",
     anim2(pointer="/nodes/0/translation", interpolation="STEP"),
     [SUP, ("KHR_ANIMATION2_INVALID_OUTPUT_TYPE", E, C0 + "/sampler")],
     "a VEC4 output for a vec3 translation")
case("ext/KHR_animation2/output_count", anim2(out=ID + QZ + ID),
     [SUP, ("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", E, C0 + "/sampler")],
     "2 keys, 3 SLERP outputs")
case("ext/KHR_animation2/rotation_not_unit", anim2(out=ID + [0, 0, 0, 0.5]),
     [SUP, ("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", E, C0 + "/sampler")],
     "the second key has length 0.5")
case("ext/KHR_animation2/duplicate_pointer",
     anim2(channels=[{"sampler": 0, "targetpointer": "/nodes/0/rotation"},
                     {"sampler": 0, "targetpointer": "/nodes/0/rotation"}]),
     [SUP, ("ANIMATION_DUPLICATE_TARGETS", E, TP)],
     "two channels animate the same pointer: one error on the earlier channel")
case("ext/KHR_animation2/node_matrix", anim2(nodes=[{"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}]),
     [SUP, ("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", E, TP)],
     "a pointer to the rotation of a node that has a matrix")
case("ext/KHR_animation2/node_matrix_component",
     anim2(pointer="/nodes/0/scale/1", interpolation="LINEAR", out=[1, 2], out_type="SCALAR",
           nodes=[{"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}]),
     [SUP, ("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", E, TP)],
     "one component of the scale of a node that has a matrix: the Object Model leaves scale "
     "(and rotation) of such a node undefined, a component of it as much as the whole vector")
case("ext/KHR_animation2/undeclared", anim2(used=False),
     [("UNDEFINED_PROPERTY", E, C0), ("UNEXPECTED_PROPERTY", W, TP),
      ("VALUE_NOT_IN_LIST", W, S0 + "/interpolation")],
     "targetpointer and SLERP without KHR_animation2 in extensionsUsed: the core schema's "
     "findings stand (target missing, targetpointer unknown, SLERP unknown)")


# ---- lints ------------------------------------------------------------------
def track(times, values, type_, path, interpolation=None, node=0, lo=None):
    per = {"VEC4": 4, "VEC3": 3, "SCALAR": 1}[type_]
    target = {"path": path} if node is None else {"node": node, "path": path}
    return asset([times, values],
                 [acc(0, "SCALAR", len(times), [lo if lo is not None else times[0]], [times[-1]]),
                  acc(1, type_, len(values) // per)],
                 [anim([{"sampler": 0, "target": target}], [smp(0, 1, interpolation)])])


case("lint/rotation_negative_dot", track(TIMES, ID + [0, 0, R, -R], "VEC4", "rotation"),
     [("LINT_ROTATION_NEGATIVE_DOT", W, C0 + "/sampler")],
     "LINEAR rotation keys with dot -0.7071068: shortest-path and plain slerp differ")
case("lint/cubic_rotation_opposite_keys",
     track(TIMES, ZERO + ID + ZERO + ZERO + [0, 0, 0, -1] + ZERO, "VEC4", "rotation", "CUBICSPLINE"),
     [("LINT_CUBIC_ROTATION_OPPOSITE_KEYS", W, C0 + "/sampler")],
     "CUBICSPLINE rotation values (0,0,0,1) and (0,0,0,-1): the spline passes through zero")
case("lint/cubicspline_nonzero_end_tangent",
     track(TIMES, [1, 0, 0] + [0, 0, 0] * 3 + [1, 2, 3] + [0, 0, 0], "VEC3", "translation",
           "CUBICSPLINE"),
     [("LINT_CUBICSPLINE_NONZERO_END_TANGENT", W, S0 + "/output")],
     "first in-tangent (1, 0, 0); the last out-tangent is zero")
case("lint/redundant_keyframe",
     track([0.0, 1.0, 2.0], [0, 0, 0, 1, 2, 3, 2, 4, 6], "VEC3", "translation"),
     [("LINT_REDUNDANT_KEYFRAME", I, S0)],
     "LINEAR (1,2,3) at t=1 is exactly halfway between (0,0,0) at 0 and (2,4,6) at 2")
case("lint/channel_without_node",
     track(TIMES, [0, 0, 0, 1, 2, 3], "VEC3", "translation", node=None),
     [("LINT_CHANNEL_WITHOUT_NODE", W, C0 + "/target")],
     "target with path translation but no node, and no extension")
case("lint/animation_starts_after_zero",
     track([0.5, 1.0], [0, 0, 0, 1, 2, 3], "VEC3", "translation"),
     [("LINT_ANIMATION_STARTS_AFTER_ZERO", I, A)], "the only input starts at 0.5")
case("lint/cubic_rotation_negative_dot",
     track(TIMES, ZERO + ID + ZERO + ZERO + [0, 0, R, -R] + ZERO, "VEC4", "rotation", "CUBICSPLINE"),
     [("LINT_CUBIC_ROTATION_NEGATIVE_DOT", W, C0 + "/sampler")],
     "CUBICSPLINE rotation values (0,0,0,1) and (0,0,R,-R), dot -R: the per-component spline "
     "turns 270 degrees about z the long way, a sign-aligned reader 90 degrees the short way")
F30 = [struct.unpack("f", struct.pack("f", k / 30))[0] for k in range(40)]
case("lint/step_key_after_frame",
     track([F30[0], F30[1], F30[2]], [0, 0, 0, 1, 0, 0, 2, 0, 0], "VEC3", "translation", "STEP"),
     [("LINT_STEP_KEY_AFTER_FRAME", W, S0 + "/input")],
     "STEP keys at frames 0, 1, 2 of 30 fps as float32: 1/30 and 2/30 round up "
     "(0.033333335 > 0.0333...), so sampling frame 1 at 1/30 s shows key 0")
case("../rules_valid/lint/step_keys_below_frames",
     track([F30[0], F30[17], F30[19]], [0, 0, 0, 1, 0, 0, 2, 0, 0], "VEC3", "translation", "STEP"),
     [], "STEP keys at frames 0, 17, 19 of 30 fps: their float32 times round down, each frame "
     "sampled at k/30 s is at or after its key: no lint")
case("../rules_valid/lint/rotation_there_and_back",
     track([0.0, 1.0, 2.0], ID + QZ + ID, "VEC4", "rotation"),
     [], "LINEAR rotation 0, 90, 0 degrees about z: dots 0.707 > 0, and slerp(key 0, key 2) "
     "at t=1 is the identity, not key 1: no lint")


# The rotation lints read the model: they apply wherever it says "unit quaternion",
# whichever way the channel names its target, and only there.
KAP = "KHR_animation_pointer"


def pointer_track(times, values, pointer, interpolation=None, extra=None):
    doc = track(times, values, "VEC4", "rotation", interpolation)
    doc["animations"][0]["channels"] = [
        {"sampler": 0, "target": {"path": "pointer", "extensions": {KAP: {"pointer": pointer}}}}]
    doc["extensionsUsed"] = [KAP]
    doc.update(extra or {})
    return doc


case("lint/rotation_negative_dot_pointer",
     pointer_track(TIMES, ID + [0, 0, R, -R], "/nodes/0/rotation"),
     [("LINT_ROTATION_NEGATIVE_DOT", W, C0 + "/sampler")],
     "the keys of lint/rotation_negative_dot through KHR_animation_pointer: a node's rotation "
     "is a quaternion however it is named, so the lint applies")
case("lint/cubic_rotation_opposite_keys_pointer",
     pointer_track(TIMES, ZERO + ID + ZERO + ZERO + [0, 0, 0, -1] + ZERO, "/nodes/0/rotation",
                   "CUBICSPLINE"),
     [("LINT_CUBIC_ROTATION_OPPOSITE_KEYS", W, C0 + "/sampler")],
     "the keys of lint/cubic_rotation_opposite_keys through KHR_animation_pointer")
case("../rules_valid/lint/color_negative_dot_pointer",
     pointer_track(TIMES, ID + [0, 0, R, -R], "/materials/0/pbrMetallicRoughness/baseColorFactor",
                   extra={"materials": [{"pbrMetallicRoughness": {}}]}),
     [], "the same four-wide keys on a colour (float4, not a quaternion): lerped, not slerped, "
     "so no rotation lint")

def main():
    write_cases(CASES)


if __name__ == "__main__":
    main()
