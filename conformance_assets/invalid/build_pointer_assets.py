#!/usr/bin/env python3
"""Writes the KHR_animation_pointer invalid-asset test data, like
build_invalid_assets.py (whose helpers it uses): one small asset per rule and
per code, written by hand, with the report expected from the rule (code,
severity, pointer of every message), derived by hand; the note says why each
message is there. Rules: validator/src/rules/khr_animation_pointer.cpp and the
Object Model table validator/src/object_model.cpp (docs/VALIDATOR.md).

Assets go to invalid/ext/KHR_animation_pointer/<object path>/ (channel/target,
pointer, sampler, animation: where the message points) and valid controls to
rules_valid/ext/KHR_animation_pointer/. tests/validator/test_rules_invalid_assets.cpp
compares them.

Run: python3 conformance_assets/invalid/build_pointer_assets.py
"""
import copy

from _assets_common import write_cases
from build_invalid_assets import A, C0, E, I, S0, W, acc, anim, asset, smp

KAP = "KHR_animation_pointer"
OUT = "ext/" + KAP + "/"
VALID = "../rules_valid/ext/" + KAP + "/"
TIMES = [0.0, 1.0]
P0 = C0 + "/target/extensions/" + KAP
PP = P0 + "/pointer"
SP0 = C0 + "/sampler"
IDENTITY4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

CASES = {}


def case(path, doc, messages, note):
    CASES[path] = (doc, messages, note)


def pch(pointer, sampler=0, path="pointer", **target):
    t = {"path": path, "extensions": {KAP: {"pointer": pointer}}}
    t.update(target)
    return {"sampler": sampler, "target": t}


def out(type_, values, fmt="f", comp=5126, interpolation=None, count=None, **more):
    """One output: (accessor type, values, struct format, componentType, interpolation)."""
    width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[type_]
    return (type_, values, fmt, comp, interpolation, count if count is not None else len(values) // width,
            more)


def passet(channels, outputs, nodes=None, used=(KAP,), extra=None, positions=False):
    """Accessor 0: times [0, 1]; accessor i+1: outputs[i], sampled by sampler i.
    With positions, a last accessor (one VEC3 without bufferView) for mesh attributes."""
    arrays = [TIMES] + [(o[2], o[1]) for o in outputs]
    accessors = [acc(0, "SCALAR", 2, [0.0], [1.0])]
    samplers = []
    for i, (type_, _, _, comp, interpolation, count, more) in enumerate(outputs):
        accessors.append(acc(i + 1, type_, count, comp=comp, **more))
        samplers.append(smp(0, i + 1, interpolation))
    if positions:
        accessors.append(acc(None, "VEC3", 1, [0, 0, 0], [0, 0, 0]))
    ext = {}
    if used:
        ext["extensionsUsed"] = list(used)
    ext.update(extra or {})
    return asset(arrays, accessors, [anim(channels, samplers)],
                 nodes=nodes if nodes is not None else [{}], extra=ext)


F2 = out("SCALAR", [0.5, 1.0])            # float, 2 keys
V2 = out("VEC2", [0, 0, 1, 1])
V3 = out("VEC3", [0, 0, 0, 1, 1, 1])
Q2 = out("VEC4", [0, 0, 0, 1, 0, 0, 1, 0])  # two unit quaternions
MAT = {"materials": [{"pbrMetallicRoughness": {}}]}


def morph_mesh(targets, position=2):
    """A mesh with `targets` morph targets; `position` is passet's positions accessor
    (the last one: 1 + the number of outputs)."""
    return {"meshes": [{"primitives": [{"attributes": {"POSITION": position},
                                        "targets": [{"POSITION": position}] * targets}]}]}


# ---- channel target: path, node, extension object --------------------------
case(OUT + "channel/target/path_not_pointer",
     passet([pch("/nodes/0/rotation", path="rotation", node=0)], [Q2]),
     [("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH", E, P0),
      ("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", E, P0)],
     "a core rotation target of node 0 (valid for the core rules) that also carries the extension "
     "object: path must be 'pointer' and node absent")
case(OUT + "channel/target/node_defined",
     passet([pch("/nodes/0/translation", node=0)], [V3]),
     [("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", E, P0)],
     "path 'pointer' with the extension object and a node that resolves; the pointer itself is fine")
d = passet([pch("/nodes/0/translation")], [V3])
del d["animations"][0]["channels"][0]["target"]["extensions"]
case(OUT + "channel/target/missing_pointer_object", d,
     [("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_MISSING_POINTER", E, C0 + "/target")],
     "path 'pointer' without the KHR_animation_pointer object")
case(OUT + "channel/target/extension_not_declared",
     passet([pch("/nodes/0/translation")], [V3], used=()),
     [("VALUE_NOT_IN_LIST", W, C0 + "/target/path"), ("UNDECLARED_EXTENSION", E, P0)],
     "KHR_animation_pointer is not in extensionsUsed: path 'pointer' is not a core value and "
     "the extension object is undeclared (and not read further)")

d = passet([pch("/nodes/0/translation")], [V3])
d["animations"][0]["channels"][0]["extensions"] = {KAP: {"pointer": "/nodes/0/scale"}}
d["animations"][0]["samplers"][0]["extensions"] = {KAP: {"pointer": "/nodes/0/scale"}}
case(OUT + "channel/extension_object_misplaced", d,
     [("UNEXPECTED_EXTENSION_OBJECT", E, C0 + "/extensions/" + KAP),
      ("UNEXPECTED_EXTENSION_OBJECT", E, S0 + "/extensions/" + KAP)],
     "KHR_animation_pointer objects on the channel and on the sampler instead of the target (the "
     "target's own pointer is fine)")

# The object on the channel (or its sampler) instead of the target, whose path is
# "pointer": the misplaced object is the one cause, as in glTF-Validator (which
# does not read an object in the wrong place); the target's missing pointer is
# not a second error.
for where, at in (("channel", C0), ("sampler", S0)):
    d = passet([pch("/nodes/0/translation")], [V3])
    del d["animations"][0]["channels"][0]["target"]["extensions"]
    obj = d["animations"][0]["channels"][0] if where == "channel" else d["animations"][0]["samplers"][0]
    obj["extensions"] = {KAP: {"pointer": "/nodes/0/translation"}}
    case(OUT + "channel/extension_object_on_" + where + "_only", d,
         [("UNEXPECTED_EXTENSION_OBJECT", E, at + "/extensions/" + KAP)],
         "path 'pointer' with the KHR_animation_pointer object on the " + where +
         " instead of the target: UNEXPECTED_EXTENSION_OBJECT alone")

# On the root, the asset and objects of the top-level collections (here a node
# and a material) the object is not read either: UNEXPECTED_EXTENSION_OBJECT,
# as glTF-Validator says for a known extension on an object it does not extend.
d = passet([pch("/nodes/0/translation")], [V3], extra={"materials": [{}]})
for obj in (d, d["asset"], d["nodes"][0], d["materials"][0]):
    obj["extensions"] = {KAP: {"pointer": "/nodes/0/translation"}}
case(OUT + "channel/extension_object_outside_animations", d,
     [("UNEXPECTED_EXTENSION_OBJECT", E, at + "/extensions/" + KAP)
      for at in ("", "/asset", "/nodes/0", "/materials/0")],
     "KHR_animation_pointer objects on the root, the asset, a node and a material")

# ---- the extension object and its pointer: schema ----------------------------
d = passet([pch("/nodes/0/translation")], [V3])
del d["animations"][0]["channels"][0]["target"]["extensions"][KAP]["pointer"]
case(OUT + "pointer/missing", d, [("UNDEFINED_PROPERTY", E, P0)],
     "the extension object without 'pointer'")
case(OUT + "pointer/type_mismatch", passet([pch(5)], [V3]), [("TYPE_MISMATCH", E, PP)],
     "pointer is a number")
d = passet([pch("/nodes/0/translation")], [V3])
d["animations"][0]["channels"][0]["target"]["extensions"][KAP]["node"] = 0
case(OUT + "pointer/unexpected_property", d, [("UNEXPECTED_PROPERTY", W, P0 + "/node")],
     "an unknown member in the extension object")
case(OUT + "pointer/bad_escape", passet([pch("/nodes/0/rota~2tion")], [Q2]),
     [("PATTERN_MISMATCH", E, PP)], "RFC 6901: '~' must be followed by 0 or 1")
case(OUT + "pointer/trailing_tilde", passet([pch("/nodes/0/rotation~")], [Q2]),
     [("PATTERN_MISMATCH", E, PP)], "RFC 6901: a lone '~' at the end")
case(OUT + "pointer/no_leading_slash", passet([pch("nodes/0/rotation")], [Q2]),
     [("PATTERN_MISMATCH", E, PP)], "RFC 6901: a non-empty pointer starts with '/'")

# ---- the pointer against the Object Model -----------------------------------
case(OUT + "pointer/unknown_target",
     passet([pch("/materials/0/normalTexture/offset")], [F2],
            extra={"materials": [{"normalTexture": {"index": 0}}]}),
     [("KHR_ANIMATION_POINTER_UNKNOWN_TARGET", E, PP)],
     "normalTexture has no 'offset' in the Object Model (BlenderIO_24's non-standard channel)")
case(OUT + "pointer/vector_component", passet([pch("/nodes/0/translation/0")], [F2]),
     [("KHR_ANIMATION_POINTER_UNKNOWN_TARGET", E, PP)],
     "pointers to vector components are not resolved (Object Model basics 4)")
case(OUT + "pointer/escaped_slash", passet([pch("/nodes/0/trans~1lation")], [V3]),
     [("KHR_ANIMATION_POINTER_UNKNOWN_TARGET", E, PP)],
     "valid RFC 6901 ('~1' is '/'): the token 'trans/lation' is no Object Model member")
case(OUT + "pointer/empty", passet([pch("")], [F2]),
     [("KHR_ANIMATION_POINTER_UNKNOWN_TARGET", E, PP)],
     "'' passes the pattern (the whole document) and is no animatable property")
case(OUT + "pointer/leading_zero_index", passet([pch("/nodes/00/translation")], [V3]),
     [("KHR_ANIMATION_POINTER_UNKNOWN_TARGET", E, PP)],
     "'00' is not an RFC 6901 array index, so no template matches")
case(OUT + "pointer/read_only",
     passet([pch("/nodes/0/matrix"), pch("/materials/0/doubleSided", 1)],
            [out("MAT4", IDENTITY4 * 2), out("SCALAR", [0, 1], "B", 5121, "STEP")], extra=MAT),
     [("KHR_ANIMATION_POINTER_READ_ONLY_TARGET", E, PP),
      ("KHR_ANIMATION_POINTER_READ_ONLY_TARGET", E, A + "/channels/1/target/extensions/" + KAP + "/pointer")],
     "read-only Object Model pointers: the node matrix (float4x4) and doubleSided (bool)")
case(OUT + "pointer/extension_not_used",
     passet([pch("/materials/0/extensions/KHR_materials_ior/ior")], [F2],
            extra={"materials": [{"extensions": {"KHR_materials_ior": {}}}]}),
     [("UNDECLARED_EXTENSION", E, "/materials/0/extensions/KHR_materials_ior"),
      ("KHR_ANIMATION_POINTER_TARGET_EXTENSION_NOT_USED", E, PP)],
     "ior (default 1.5, enclosing object present) while KHR_materials_ior is not in extensionsUsed "
     "(the material's extension object is itself undeclared, as glTF-Validator also reports)")
case(OUT + "pointer/texture_transform_extensions_not_used",
     passet([pch("/materials/0/extensions/KHR_materials_clearcoat/clearcoatTexture/extensions/"
                 "KHR_texture_transform/offset")], [V2],
            extra={"materials": [{"extensions": {"KHR_materials_clearcoat": {
                "clearcoatTexture": {"index": 0, "extensions": {"KHR_texture_transform": {}}}}}}]}),
     [("UNDECLARED_EXTENSION", E, "/materials/0/extensions/KHR_materials_clearcoat"),
      ("KHR_ANIMATION_POINTER_TARGET_EXTENSION_NOT_USED", E, PP),
      ("KHR_ANIMATION_POINTER_TARGET_EXTENSION_NOT_USED", E, PP)],
     "an interaction row owned by KHR_materials_clearcoat and KHR_texture_transform, neither used "
     "(the material's clearcoat object is itself undeclared, as glTF-Validator also reports; the "
     "texture transform inside it is the clearcoat object's content, not read)")
case(OUT + "pointer/index_out_of_range", passet([pch("/nodes/5/translation")], [V3]),
     [("KHR_ANIMATION_POINTER_UNDEFINED_TARGET", E, PP)], "one node; index 5")
case(OUT + "pointer/absurd_index", passet([pch("/nodes/99999999999999999999/rotation")], [Q2]),
     [("KHR_ANIMATION_POINTER_UNDEFINED_TARGET", E, PP)],
     "an index beyond 64 bits saturates and is out of range (no overflow)")
case(OUT + "pointer/no_default",
     passet([pch("/cameras/0/perspective/zfar")], [F2],
            extra={"cameras": [{"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1}}]}),
     [("KHR_ANIMATION_POINTER_UNDEFINED_TARGET", E, PP)],
     "perspective zfar is absent and has no default (infinite projection)")
case(OUT + "pointer/enclosing_object_absent",
     passet([pch("/materials/0/normalTexture/scale")], [F2], extra={"materials": [{}]}),
     [("KHR_ANIMATION_POINTER_UNDEFINED_TARGET", E, PP)],
     "scale has a default (1) but its enclosing normalTexture is absent")
case(OUT + "pointer/texture_in_absent_pbr_object",
     passet([pch("/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset")],
            [V2], used=(KAP, "KHR_texture_transform"), extra={"materials": [{}]}),
     [("KHR_ANIMATION_POINTER_UNDEFINED_TARGET", E, PP)],
     "pbrMetallicRoughness is absent, so its factors have their defaults (rules_valid "
     "pbr_object_absent), but a texture has none: baseColorTexture is undefined, and so is its "
     "transform")
case(OUT + "pointer/extras_absent", passet([pch("/nodes/0/extras/level")], [F2]),
     [("KHR_ANIMATION_POINTER_UNDEFINED_TARGET", E, PP)],
     "extras pointers are application-specific but must exist")
case(OUT + "pointer/weight_index_out_of_range",
     passet([pch("/nodes/0/weights/2")], [F2], nodes=[{"mesh": 0}], extra=morph_mesh(2), positions=True),
     [("KHR_ANIMATION_POINTER_UNDEFINED_TARGET", E, PP)], "two morph targets; element 2")
case(OUT + "pointer/node_matrix",
     passet([pch("/nodes/0/rotation"), pch("/nodes/0/translation", 1), pch("/nodes/0/scale", 2)],
            [Q2, V3, out("VEC3", [1, 1, 1, 2, 2, 2])], nodes=[{"matrix": IDENTITY4}]),
     [("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", E, PP),
      ("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", E, A + "/channels/2/target/extensions/" + KAP + "/pointer")],
     "rotation and scale of a node with matrix are undefined in the Object Model; translation is defined")
case(OUT + "pointer/node_skin",
     passet([pch("/nodes/0/translation")], [V3], nodes=[{"mesh": 0, "skin": 0}, {}],
            extra={"meshes": [{"primitives": [{"attributes": {}}]}], "skins": [{"joints": [1]}]}),
     [("ANIMATION_CHANNEL_TARGET_NODE_SKIN", W, PP)],
     "translation of a skinned node by pointer: the core warning, at the pointer")
case(OUT + "pointer/weights_no_morphs", passet([pch("/nodes/0/weights")], [F2]),
     [("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", E, PP)],
     "node weights of a node without a mesh are undefined")

# ---- the sampler's output against the Object Model type ------------------------
case(OUT + "sampler/output_type",
     passet([pch("/materials/0/emissiveFactor")], [out("VEC4", [0] * 8)], extra=MAT),
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, SP0)],
     "emissiveFactor is float3: VEC3 expected, VEC4 given")
VIS = {"extensionsUsed": [KAP, "KHR_node_visibility"]}
VIS_NODE = [{"extensions": {"KHR_node_visibility": {"visible": True}}}]
VIS_P = "/nodes/0/extensions/KHR_node_visibility/visible"
case(OUT + "sampler/bool_not_unsigned_byte",
     passet([pch(VIS_P)], [out("SCALAR", [0, 1], "h", 5122, "STEP")], nodes=VIS_NODE,
            used=(KAP, "KHR_node_visibility")),
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, SP0)],
     "a bool property from SHORT data: only UNSIGNED_BYTE")
case(OUT + "sampler/bool_float",
     passet([pch(VIS_P)], [out("SCALAR", [0, 1], interpolation="STEP")], nodes=VIS_NODE,
            used=(KAP, "KHR_node_visibility")),
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, SP0)],
     "a bool property from FLOAT data")
case(OUT + "sampler/bool_linear",
     passet([pch(VIS_P)], [out("SCALAR", [0, 1], "B", 5121)], nodes=VIS_NODE,
            used=(KAP, "KHR_node_visibility")),
     [("KHR_ANIMATION_POINTER_INTERPOLATION_NOT_STEP", E, SP0)],
     "a bool property with LINEAR (the default): only STEP")
case(OUT + "sampler/bool_cubicspline",
     passet([pch(VIS_P)], [out("SCALAR", [0] * 6, "B", 5121, "CUBICSPLINE")], nodes=VIS_NODE,
            used=(KAP, "KHR_node_visibility")),
     [("KHR_ANIMATION_POINTER_INTERPOLATION_NOT_STEP", E, SP0)],
     "a bool property with CUBICSPLINE (6 outputs for 2 keys, so the count is right)")
case(OUT + "sampler/output_count",
     passet([pch("/materials/0/pbrMetallicRoughness/metallicFactor")], [out("SCALAR", [0, 0.5, 1])],
            extra=MAT),
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", E, SP0)],
     "2 keys, a float property, 3 outputs")
case(OUT + "sampler/output_count_cubicspline",
     passet([pch("/materials/0/emissiveFactor")], [out("VEC3", [0] * 6, interpolation="CUBICSPLINE")],
            extra=MAT),
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", E, SP0)],
     "2 keys, CUBICSPLINE: 6 outputs expected, 2 given")
case(OUT + "sampler/weights_width",
     passet([pch("/nodes/0/weights")], [F2], nodes=[{"mesh": 0}], extra=morph_mesh(2), positions=True),
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", E, SP0)],
     "float[] of 2 morph targets, 2 keys: 4 outputs expected, 2 given")
case(OUT + "sampler/rotation_not_unit",
     passet([pch("/nodes/0/rotation")], [out("VEC4", [0, 0, 0, 1, 0, 0, 0, 2])]),
     [("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", E, SP0)],
     "the second rotation key has length 2 (data pass)")

# ---- one property targeted twice in one animation ------------------------------
C1T = A + "/channels/1/target"
case(OUT + "animation/duplicate_pointers",
     passet([pch("/materials/0/pbrMetallicRoughness/metallicFactor"),
             pch("/materials/0/pbrMetallicRoughness/metallicFactor", 1)], [F2, F2], extra=MAT),
     [("ANIMATION_DUPLICATE_TARGETS", E, C0 + "/target")],
     "identical pointers (as channels 51 and 52 of BlenderIO_24)")
case(OUT + "animation/duplicate_array_and_element",
     passet([pch("/nodes/0/weights"), pch("/nodes/0/weights/1", 1)],
            [out("SCALAR", [0, 0, 1, 1]), F2], nodes=[{"mesh": 0}], extra=morph_mesh(2, 3), positions=True),
     [("ANIMATION_DUPLICATE_TARGETS", E, C0 + "/target")],
     "the weights array, then one of its elements")
d = passet([{"sampler": 0, "target": {"node": 0, "path": "weights"}}, pch("/nodes/0/weights/0", 1)],
           [out("SCALAR", [0, 0, 1, 1]), F2], nodes=[{"mesh": 0}], extra=morph_mesh(2, 3), positions=True)
case(OUT + "animation/duplicate_core_weights_and_element", d,
     [("ANIMATION_DUPLICATE_TARGETS", E, C0 + "/target")],
     "a core weights target, then a pointer to one element of the same node's weights")
d = passet([{"sampler": 0, "target": {"node": 0, "path": "rotation"}}, pch("/nodes/0/rotation", 1)],
           [Q2, Q2])
case(OUT + "animation/duplicate_core_and_pointer", d,
     [("ANIMATION_DUPLICATE_TARGETS", E, C0 + "/target")],
     "a core rotation target of node 0 and a pointer to /nodes/0/rotation")
d = passet([pch("/nodes/0/translation"), {"sampler": 1, "target": {"node": 0, "path": "translation"}},
            pch("/nodes/0/translation", 2)], [V3, V3, V3])
case(OUT + "animation/duplicate_three_channels", d,
     [("ANIMATION_DUPLICATE_TARGETS", E, C0 + "/target"), ("ANIMATION_DUPLICATE_TARGETS", E, C1T)],
     "pointer, core, pointer on one property: one error per consecutive pair, on the earlier channel")

# ---- extras: application-specific values, shaped like Blender's exporter ----------
# Blender writes an object's or material's custom properties into its extras and
# animates them with pointers /<type>/N/extras/<name>. The extension lets
# extras be targeted, "validity and interpretation ... entirely application
# specific": one info per channel when the JSON value's shape fits the output
# (number: SCALAR; n numbers: n-component or n SCALARs per key; boolean:
# SCALAR UNSIGNED_BYTE with STEP; integer data: STEP), a warning when not.
BLENDER = {"generator": "Khronos glTF Blender I/O v5.2.0", "version": "2.0"}
PX = "/target/extensions/" + KAP + "/pointer"


def cp(c):
    return A + "/channels/" + str(c) + PX


d = passet([pch("/nodes/0/extras/intensity"), pch("/nodes/0/extras/tint", 1),
            pch("/materials/0/extras/glow", 2), pch("/nodes/0/extras/enabled", 3),
            pch("/nodes/1/extras/tint", 4), pch("/nodes/1/extras/steps", 5)],
           [F2, V3, out("SCALAR", [0, 1, 0, 0, 3, 0], interpolation="CUBICSPLINE"),
            out("SCALAR", [1, 0], "B", 5121, "STEP"),
            out("SCALAR", [1, 0.5, 0.25, 0, 0, 1]),
            out("SCALAR", [1, 4], "h", 5122, "STEP")],
           nodes=[{"name": "Cube", "extras": {"intensity": 0.5, "tint": [1, 0.5, 0.25], "enabled": True}},
                  {"name": "Light", "extras": {"tint": [0, 0, 1], "steps": 1}}],
           extra={"materials": [{"name": "Glow", "extras": {"glow": 1.0}}]})
d["asset"] = BLENDER
case(OUT + "pointer/extras_blender", d,
     [("KHR_ANIMATION_POINTER_EXTRAS_TARGET", I, cp(c)) for c in range(6)],
     "Blender-shaped custom-property channels, each fitting its value: a float from SCALAR LINEAR, "
     "[r, g, b] from VEC3, a material float from CUBICSPLINE (3 x 2 outputs), a boolean from "
     "UNSIGNED_BYTE STEP, [r, g, b] from 3 SCALARs per key (6 for 2 keys), an int from SHORT STEP: "
     "one info each, no error")
d = passet([pch("/nodes/0/extras/label"), pch("/nodes/0/extras/tint", 1),
            pch("/nodes/0/extras/intensity", 2), pch("/nodes/0/extras/enabled", 3),
            pch("/nodes/0/extras/steps", 4), pch("/nodes/0/extras/pair", 5),
            pch("/nodes/0/extras/settings", 6), pch("/nodes/0/extras/enabled_linear", 7)],
           [F2, V2, V3, F2, out("SCALAR", [1, 4], "h", 5122), F2, F2,
            out("SCALAR", [1, 0], "B", 5121)],
           nodes=[{"extras": {"label": "on", "tint": [1, 0.5, 0.25], "intensity": 0.5, "enabled": True,
                              "steps": 1, "pair": [0, 1], "settings": {"a": 1}, "enabled_linear": False}}])
d["asset"] = BLENDER
case(OUT + "pointer/extras_value_mismatch", d,
     [("KHR_ANIMATION_POINTER_EXTRAS_VALUE_MISMATCH", W, cp(c)) for c in range(8)],
     "extras values their outputs do not fit: a string (nothing animates it), [r, g, b] from VEC2, "
     "a number from VEC3, a boolean from FLOAT, integers (SHORT) with LINEAR, [a, b] from 2 SCALARs "
     "for 2 keys (4 needed), an object, a boolean with LINEAR: one warning each (extras are "
     "application specific), no error")

# ---- valid controls: no message ---------------------------------------------------
LIGHTS = {"KHR_lights_punctual": {"lights": [{"type": "spot", "spot": {}}]}}
d = passet([pch("/materials/0/pbrMetallicRoughness/metallicFactor"),
            pch("/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset", 1),
            pch("/extensions/KHR_lights_punctual/lights/0/spot/outerConeAngle", 2),
            pch("/extensions/KHR_lights_punctual/lights/0/color", 3),
            pch("/materials/0/extensions/KHR_materials_iridescence/iridescenceIor", 4),
            pch("/nodes/0/translation", 5),
            pch("/nodes/2/weights/0", 6), pch("/nodes/2/weights/1", 7),
            pch("/nodes/2/rotation", 8),
            pch("/nodes/1/extensions/KHR_node_visibility/visible", 9)],
           [F2, V2, F2, V3, F2, V3, F2, F2, Q2,
            out("SCALAR", [0, 1], "B", 5121, "STEP")],
           nodes=[{"matrix": IDENTITY4},
                  {"extensions": {"KHR_node_visibility": {"visible": True}}},
                  {"mesh": 0}],
           used=(KAP, "KHR_texture_transform", "KHR_lights_punctual", "KHR_materials_iridescence",
                 "KHR_node_visibility"),
           extra=dict(morph_mesh(2, 11), extensions=LIGHTS, materials=[{
               "pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "extensions": {"KHR_texture_transform": {}}}},
               "extensions": {"KHR_materials_iridescence": {}}}]), positions=True)
case(VALID + "defaults", d, [],
     "defaults inside present objects (metallicFactor, texture-transform offset, spot angle, light "
     "color, iridescenceIor), translation of a matrix node, two different weight elements, "
     "KHR_node_visibility (not in the adoc; its own spec); extras values are in pointer/extras_blender")
case(VALID + "pbr_object_absent",
     passet([pch("/materials/0/pbrMetallicRoughness/baseColorFactor"),
             pch("/materials/0/pbrMetallicRoughness/metallicFactor", 1),
             pch("/materials/0/pbrMetallicRoughness/roughnessFactor", 2)],
            [out("VEC4", [1, 1, 1, 1, 0.5, 0.5, 0.5, 1]), F2, F2], extra={"materials": [{}]}),
     [],
     "a material without pbrMetallicRoughness: 'When undefined, all the default values of "
     "pbrMetallicRoughness MUST apply' (glTF 2.0, material.pbrMetallicRoughness), and the Object "
     "Model considers undefined properties with default values defined with them (its rule 2), so "
     "its factors are defined; glTF-Validator accepts the asset (differential fuzzing found it)")
d = passet([pch("/nodes/0/rotation")], [Q2])
d["animations"].append(copy.deepcopy(d["animations"][0]))
case(VALID + "same_pointer_two_animations", d, [],
     "the same pointer in two animations is not a duplicate")


def main():
    write_cases(CASES)


if __name__ == "__main__":
    main()
