#!/usr/bin/env python3
"""Writes the invalid-asset test data of gltf-anim validate.

Each case below is one small asset breaking one rule, written by hand, and the
report we expect for it, derived by hand from the rule (code, severity,
pointer of every message). The script only turns float lists into base64
data-URI buffers and writes <object>/<name>.gltf plus <name>.gltf.report.json.
tests/validator/test_rules_invalid_assets.cpp compares the validator's output
with the .report.json files; an extra or a missing message fails.

Run: python3 conformance_assets/invalid/build_invalid_assets.py
"""
import base64
import math
import struct

from _assets_common import write_cases

E, W, I = 0, 1, 2  # severities: error, warning, information

A = "/animations/0"
S0 = A + "/samplers/0"
C0 = A + "/channels/0"


def asset(arrays, accessors, animations, nodes=None, extra=None, views=None):
    """arrays: list of float lists, one bufferView each (in order)."""
    blob = b""
    buffer_views = []
    for i, values in enumerate(arrays):
        fmt = "f"
        if isinstance(values, tuple):  # (struct format letter, values), e.g. ("b", [...])
            fmt, values = values
        data = b"".join(struct.pack("<" + fmt, v) for v in values)
        while len(blob) % 4:
            blob += b"\0"
        view = {"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)}
        if views and i in views:
            view.update(views[i])
        buffer_views.append(view)
        blob += data
    doc = {"asset": {"version": "2.0", "generator": "build_invalid_assets.py"}}
    doc["nodes"] = nodes if nodes is not None else [{}]
    if blob:
        doc["buffers"] = [{
            "byteLength": len(blob),
            "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]
        doc["bufferViews"] = buffer_views
    if accessors:
        doc["accessors"] = accessors
    if animations is not None:
        doc["animations"] = animations
    if extra:
        doc.update(extra)
    return doc


def acc(view, type_, count, lo=None, hi=None, comp=5126, **more):
    a = {"componentType": comp, "count": count, "type": type_}
    if view is not None:
        a["bufferView"] = view
    if lo is not None:
        a["min"] = lo
    if hi is not None:
        a["max"] = hi
    a.update(more)
    return a


def anim(channels, samplers, **more):
    a = {"channels": channels, "samplers": samplers}
    a.update(more)
    return a


def ch(sampler=0, node=0, path="translation", **more):
    c = {"sampler": sampler, "target": {"node": node, "path": path}}
    c.update(more)
    return c


def smp(inp=0, out=1, interpolation=None):
    s = {"input": inp, "output": out}
    if interpolation:
        s["interpolation"] = interpolation
    return s


# A valid two-key translation animation: accessor 0 times [0, 1], accessor 1 two VEC3.
TIMES = [0.0, 1.0]
VEC3x2 = [0, 0, 0, 1, 2, 3]


def base(channels=None, samplers=None, **kw):
    return asset([TIMES, VEC3x2],
                 [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2)],
                 [anim(channels if channels is not None else [ch()],
                       samplers if samplers is not None else [smp()])], **kw)


CASES = {}


def case(path, doc, messages, note):
    CASES[path] = (doc, messages, note)


# ---- schema ---------------------------------------------------------------
case("animation/animations_empty", asset([], [], []),
     [("EMPTY_ENTITY", E, "/animations")], "animations is []")
d = base(channels=[])
case("animation/channels_empty", d,
     [("EMPTY_ENTITY", E, A + "/channels"), ("UNUSED_OBJECT", I, S0)],
     "channels is []; the sampler is then unused")
d = base()
del d["animations"][0]["samplers"]
case("animation/samplers_missing", d,
     [("UNDEFINED_PROPERTY", E, A), ("UNRESOLVED_REFERENCE", E, C0 + "/sampler")],
     "animation without samplers: UNDEFINED_PROPERTY at the animation; the channel's sampler 0 resolves to nothing")
# Every missing required member is one issue at its object (glTF-Validator's
# empty_objects.gltf): required lists of the glTF 2.0 schemas, accessor
# (componentType, count, type), animation (channels, samplers), buffer
# (byteLength), bufferView (buffer, byteLength).
d = asset([], [], None)
d.update({"accessors": [{}], "animations": [{}], "buffers": [{}], "bufferViews": [{}]})
case("asset/empty_objects", d,
     [("UNDEFINED_PROPERTY", E, "/accessors/0")] * 3 + [("UNDEFINED_PROPERTY", E, A)] * 2 +
     [("UNDEFINED_PROPERTY", E, "/buffers/0")] + [("UNDEFINED_PROPERTY", E, "/bufferViews/0")] * 2,
     "an empty accessor, animation, buffer and bufferView: one UNDEFINED_PROPERTY per missing member")
# channel (sampler, target) and sampler (input, output); the sampler is unused.
case("animation/channel_and_sampler_empty", base(channels=[{}], samplers=[{}]),
     [("UNDEFINED_PROPERTY", E, C0)] * 2 + [("UNDEFINED_PROPERTY", E, S0)] * 2 +
     [("UNUSED_OBJECT", I, S0)],
     "an empty channel and an empty sampler: each missing member reported at its object")
d = base()
d["animations"][0]["speed"] = 2
case("animation/unexpected_property", d,
     [("UNEXPECTED_PROPERTY", W, A + "/speed")], "unknown member on an animation")
d = base()
d["animations"][0]["extras"] = "note"
case("animation/extras_not_object", d,
     [("NON_OBJECT_EXTRAS", I, A + "/extras")], "extras is a string")
# glTF 2.0 3.12: an extension object in an animation, channel, target or sampler whose name
# extensionsUsed does not list; glTF-Validator reports each at its own pointer (checked with
# its npm build: the same four pointers). The declared one is not reported.
d = base(channels=[ch(extensions={"EXT_c": {}})])
d["animations"][0]["extensions"] = {"EXT_a": {}}
d["animations"][0]["channels"][0]["target"]["extensions"] = {"EXT_t/x~": {}}
d["animations"][0]["samplers"][0]["extensions"] = {"EXT_s": {}, "EXT_declared": {}}
d["extensionsUsed"] = ["EXT_declared"]
case("animation/extensions_undeclared", d,
     [("UNDECLARED_EXTENSION", E, A + "/extensions/EXT_a"),
      ("UNDECLARED_EXTENSION", E, C0 + "/extensions/EXT_c"),
      ("UNDECLARED_EXTENSION", E, C0 + "/target/extensions/EXT_t~1x~0"),
      ("UNDECLARED_EXTENSION", E, S0 + "/extensions/EXT_s")],
     "extension objects on an animation, a channel, its target and a sampler, not in extensionsUsed")
# The same for the objects the animations hang from and beside them (glTF-Validator reports
# UNDECLARED_EXTENSION at every glTF object's extensions; checked with its npm build: the same
# pointers). An extension's own object and extras are not glTF's objects, so nothing in them is.
d = base()
X = {"EXT_x": {"extensions": {"EXT_inner": {}}}}
d["extensions"] = dict(X)
d["asset"]["extensions"] = dict(X)
d["asset"]["extras"] = {"extensions": {"EXT_in_extras": {}}}
d["nodes"][0]["extensions"] = dict(X)
d["accessors"][0]["extensions"] = dict(X)
d["buffers"][0]["extensions"] = dict(X)
d["bufferViews"][0]["extensions"] = dict(X)
d["cameras"] = [{"type": "perspective", "extensions": dict(X),
                 "perspective": {"yfov": 1.0, "znear": 0.1, "extensions": dict(X)}}]
d["nodes"][0]["camera"] = 0
case("asset/extensions_undeclared", d,
     [("UNDECLARED_EXTENSION", E, "/extensions/EXT_x"),
      ("UNDECLARED_EXTENSION", E, "/asset/extensions/EXT_x"),
      ("UNDECLARED_EXTENSION", E, "/accessors/0/extensions/EXT_x"),
      ("UNDECLARED_EXTENSION", E, "/buffers/0/extensions/EXT_x"),
      ("UNDECLARED_EXTENSION", E, "/bufferViews/0/extensions/EXT_x"),
      ("UNDECLARED_EXTENSION", E, "/cameras/0/extensions/EXT_x"),
      ("UNDECLARED_EXTENSION", E, "/cameras/0/perspective/extensions/EXT_x"),
      ("UNDECLARED_EXTENSION", E, "/nodes/0/extensions/EXT_x")],
     "undeclared extension objects on the root, asset, an accessor, buffer, bufferView, camera, "
     "its perspective and a node; the ones inside an extension object or extras are not glTF's")
d = base()
d["animations"] = [5]
case("animation/animation_not_object", d,
     [("TYPE_MISMATCH", E, "/animations/0")], "an element of animations is not an object")
case("channel/sampler_type_mismatch", base(channels=[ch(sampler="0")]),
     [("TYPE_MISMATCH", E, C0 + "/sampler"), ("UNUSED_OBJECT", I, S0)],
     "channel.sampler is a string; the sampler is then unused")
case("channel/sampler_negative", base(channels=[ch(sampler=-1)]),
     [("INVALID_INDEX", E, C0 + "/sampler"), ("UNUSED_OBJECT", I, S0)],
     "channel.sampler is -1")
case("channel/channels_non_object", base(channels=[ch(), 3]),
     [("ARRAY_TYPE_MISMATCH", E, A + "/channels")],
     "channels holds a number: one issue, at the array")
d = base()
del d["animations"][0]["channels"][0]["target"]["path"]
case("channel/target_path_missing", d,
     [("UNDEFINED_PROPERTY", E, C0 + "/target")], "target without path: reported at the target")
case("channel/target_path_unknown", base(channels=[ch(path="color")]),
     [("VALUE_NOT_IN_LIST", W, C0 + "/target/path")],
     "unknown path: a warning; output format and count are not checked")
d = base()
d["animations"][0]["channels"][0]["target"] = "node0"
case("channel/target_not_object", d,
     [("TYPE_MISMATCH", E, C0 + "/target")], "target is a string")
case("sampler/interpolation_lower_case", base(samplers=[smp(interpolation="linear")]),
     [("VALUE_NOT_IN_LIST", W, S0 + "/interpolation")], "interpolation 'linear' is not LINEAR")
d = base()
del d["animations"][0]["samplers"][0]["input"]
case("sampler/input_missing", d,
     [("UNDEFINED_PROPERTY", E, S0)], "sampler without input: reported at the sampler")
case("sampler/input_negative", base(samplers=[smp(inp=-2)]),
     [("INVALID_INDEX", E, S0 + "/input")], "sampler.input is -2")
d = base()
d["accessors"][0]["count"] = 0
case("accessor/count_zero", d,
     [("VALUE_NOT_IN_RANGE", E, "/accessors/0/count")],
     "accessor.count 0 (minimum 1); the accessor is then not used by any check")
d = base()
d["accessors"][1]["type"] = "VEC5"
case("accessor/type_unknown", d,
     [("VALUE_NOT_IN_LIST", W, "/accessors/1/type"),
      ("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, C0 + "/sampler")],
     "accessor.type VEC5: outside the list (a warning, as glTF-Validator has it), and no player "
     "can decode it, so the sampler reading it has a format error (glTF-Validator's too)")
d = base()
d["accessors"].append(acc(None, "VEC3", 1, byteOffset=4))
case("accessor/byte_offset_without_buffer_view", d,
     [("UNSATISFIED_DEPENDENCY", E, "/accessors/2/byteOffset")],
     "accessor.byteOffset needs accessor.bufferView")
d = base()
d["asset"]["version"] = "2"
case("asset/version_pattern", d,
     [("PATTERN_MISMATCH", E, "/asset/version")], "asset.version '2' is not <major>.<minor>")
d = base()
d["accessors"][0]["min"] = [0.0, 0.0]
case("accessor/min_length", d,
     [("ARRAY_LENGTH_NOT_IN_LIST", E, "/accessors/0/min")],
     "a SCALAR accessor with two min values")

d = base(extra={"extensionsUsed": ["EXT_x", "EXT_y", "EXT_x"]})
case("asset/extensions_used_duplicate", d,
     [("DUPLICATE_ELEMENTS", E, "/extensionsUsed/2")], "extensionsUsed names EXT_x twice")
d = base(nodes=[{"children": [1, 1]}, {}])
case("node/children_duplicate", d,
     [("DUPLICATE_ELEMENTS", E, "/nodes/0/children/1")], "node.children lists node 1 twice")

# ---- link -------------------------------------------------------------------
case("sampler/input_unresolved", base(samplers=[smp(inp=5)]),
     [("UNRESOLVED_REFERENCE", E, S0 + "/input")], "sampler.input 5 with 2 accessors")
case("sampler/output_unresolved", base(samplers=[smp(out=9)]),
     [("UNRESOLVED_REFERENCE", E, S0 + "/output")], "sampler.output 9 with 2 accessors")
case("channel/sampler_unresolved", base(channels=[ch(sampler=3)]),
     [("UNRESOLVED_REFERENCE", E, C0 + "/sampler"), ("UNUSED_OBJECT", I, S0)],
     "channel.sampler 3 with 1 sampler")
case("channel/target_node_unresolved", base(channels=[ch(node=7)]),
     [("UNRESOLVED_REFERENCE", E, C0 + "/target/node")], "target.node 7 with 1 node")
d = asset([TIMES, VEC3x2], [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2)],
          [anim([ch()], [smp()])], views={0: {"byteStride": 4}})
case("sampler/input_byte_stride", d,
     [("ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", E, S0 + "/input")],
     "the input's bufferView has byteStride")
d = asset([TIMES, VEC3x2], [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2)],
          [anim([ch()], [smp()])], views={1: {"target": 34962}})
case("sampler/output_buffer_view_target", d,
     [("BUFFER_VIEW_TARGET_OVERRIDE", E, S0 + "/output")],
     "the output's bufferView says ARRAY_BUFFER (vertex data)")
# The times share bufferView 0 with a mesh's POSITION: the mesh (linked first, as in
# glTF-Validator) makes it a vertex buffer, the sampler's input then another use.
d = asset([TIMES + [0, 0, 0, 1, 1, 1], VEC3x2],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2),
           acc(0, "VEC3", 2, [0, 0, 0], [1, 1, 1], byteOffset=8)],
          [anim([ch()], [smp()])], nodes=[{"mesh": 0}],
          extra={"meshes": [{"primitives": [{"attributes": {"POSITION": 2}}]}]})
case("sampler/input_in_vertex_buffer", d,
     [("BUFFER_VIEW_TARGET_OVERRIDE", E, S0 + "/input")],
     "the times live in the bufferView of a vertex attribute (no target declared)")
# Two vertex attributes in one bufferView without byteStride: the second is the error.
d = asset([TIMES, VEC3x2, [0, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0, 1]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2),
           acc(2, "VEC3", 2, [0, 0, 0], [1, 1, 1]), acc(2, "VEC3", 2, byteOffset=24)],
          [anim([ch()], [smp()])], nodes=[{"mesh": 0}],
          extra={"meshes": [{"primitives": [{"attributes": {"POSITION": 2, "NORMAL": 3}}]}]})
case("mesh/accessors_without_bytestride", d,
     [("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", E, "/meshes/0/primitives/0/attributes/NORMAL")],
     "POSITION and NORMAL share bufferView 2, which has no byteStride")
d = asset([[0, 0, 1, 1], VEC3x2], [acc(0, "VEC2", 2, [0.0, 0.0], [1.0, 1.0]), acc(1, "VEC3", 2)],
          [anim([ch()], [smp()])])
case("sampler/input_invalid_format", d,
     [("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", E, S0 + "/input")],
     "input is VEC2; its data is not checked as times")
d = asset([TIMES, VEC3x2], [acc(0, "SCALAR", 2), acc(1, "VEC3", 2)], [anim([ch()], [smp()])])
case("sampler/input_without_bounds", d,
     [("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", E, S0 + "/input")],
     "input without min and max")
d = asset([[0.0], [0] * 9], [acc(0, "SCALAR", 1, [0.0], [0.0]), acc(1, "VEC3", 3)],
          [anim([ch()], [smp(interpolation="CUBICSPLINE")])])
case("sampler/cubic_one_key", d,
     [("ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", E, S0 + "/input")],
     "CUBICSPLINE with one keyframe (output count 3 = 1 x 3 is right)")
d = asset([[0.0], [0, 0, 0]], [acc(0, "SCALAR", 1, [0.0], [0.0]), acc(1, "VEC3", 1)],
          [anim([ch()], [smp()])])
case("../rules_valid/linear_one_key", d, [], "LINEAR with one keyframe is valid")
d = asset([TIMES, [0, 0, 0, 1, 0, 0, 0, 1]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC4", 2)], [anim([ch()], [smp()])])
case("channel/output_invalid_format", d,
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, C0 + "/sampler")],
     "translation output is VEC4")
d = asset([TIMES, [0, 0, 0, 1, 0, 0, 0, 1]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC4", 2, comp=5126, normalized=True)],
          [anim([ch(path="rotation")], [smp()])])
case("channel/output_float_normalized", d,
     [("ACCESSOR_NORMALIZED_INVALID", E, "/accessors/1/normalized"),
      ("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, C0 + "/sampler")],
     "rotation output is FLOAT with normalized: true")
d = asset([TIMES, [0, 0, 0, 1, 2, 3, 4, 5, 6]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 3)], [anim([ch()], [smp()])])
case("channel/output_count", d,
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", E, C0 + "/sampler")],
     "2 keys, LINEAR translation, 3 outputs (2 expected)")
d = asset([TIMES, [0, 0, 0, 1, 2, 3]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2)],
          [anim([ch()], [smp(interpolation="CUBICSPLINE")])])
case("channel/output_count_cubic", d,
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", E, C0 + "/sampler")],
     "2 keys, CUBICSPLINE, 2 outputs (6 expected)")
MESH2 = {"meshes": [{"primitives": [{"attributes": {"POSITION": 2},
                                     "targets": [{"POSITION": 2}, {"POSITION": 2}]}]}]}
d = asset([TIMES, [0, 0.5]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "SCALAR", 2), acc(None, "VEC3", 1, [0, 0, 0], [0, 0, 0])],
          [anim([ch(path="weights")], [smp()])], nodes=[{"mesh": 0}], extra=MESH2)
case("channel/output_count_weights", d,
     [("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", E, C0 + "/sampler")],
     "2 keys, 2 morph targets, 2 outputs (4 expected)")
d = asset([TIMES, [0, 0.5, 1, 0]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "SCALAR", 4), acc(None, "VEC3", 1, [0, 0, 0], [0, 0, 0])],
          [anim([ch(path="weights")], [smp()])], nodes=[{"mesh": 0}], extra=MESH2)
case("../rules_valid/weights_two_targets", d, [], "2 keys x 2 morph targets = 4 outputs")
d = asset([TIMES, [0, 0.5]], [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "SCALAR", 2)],
          [anim([ch(path="weights")], [smp()])])
case("channel/weights_no_morphs", d,
     [("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", E, C0 + "/target")],
     "weights channel on a node without a mesh; the count is not checked")
d = base(nodes=[{"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}])
case("channel/target_node_matrix", d,
     [("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", E, C0 + "/target")],
     "translation channel on a node with a matrix")
d = base(nodes=[{"mesh": 0, "skin": 0}, {}],
         extra={"meshes": [{"primitives": [{"attributes": {}}]}], "skins": [{"joints": [1]}]})
case("channel/target_node_skin", d,
     [("ANIMATION_CHANNEL_TARGET_NODE_SKIN", W, C0 + "/target/path")],
     "translation channel on a skinned node: a warning at the path")
case("channel/duplicate_targets", base(channels=[ch(), ch(), ch()]),
     [("ANIMATION_DUPLICATE_TARGETS", E, C0 + "/target"),
      ("ANIMATION_DUPLICATE_TARGETS", E, A + "/channels/1/target")],
     "three channels with one target: one error per consecutive pair (glTF-Validator: one per pair, 3)")
case("channel/same_node_other_paths",
     asset([TIMES, VEC3x2, [0, 0, 0, 1, 0, 0, 0, 1]],
           [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2), acc(2, "VEC4", 2)],
           [anim([ch(0), ch(1, path="rotation"), ch(0, path="scale")], [smp(0, 1), smp(0, 2)])]),
     [], "translation, rotation and scale of one node are three targets")
CASES["../rules_valid/same_node_other_paths"] = CASES.pop("channel/same_node_other_paths")
case("sampler/unused", base(samplers=[smp(), smp()]),
     [("UNUSED_OBJECT", I, A + "/samplers/1")], "the second sampler has no channel")
d = base(channels=[{"target": {"node": 0, "path": "scale"}}, ch(sampler=1)], samplers=[smp(), smp()])
case("sampler/unused_after_channel_without_sampler", d,
     [("UNDEFINED_PROPERTY", E, C0), ("UNUSED_OBJECT", I, S0)],
     "channel 0 has no sampler; the UNUSED_OBJECT pointer is the sampler's (glTF-Validator's is wrong here)")
case("sampler/input_used_as_output", base(samplers=[smp(0, 0)]),
     [("ACCESSOR_USAGE_OVERRIDE", E, S0 + "/output"),
      ("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, C0 + "/sampler")],
     "one accessor is the input and the output (SCALAR output for translation)")

# ---- data -------------------------------------------------------------------
d = asset([[-1, 0, 1, 1], [0] * 12], [acc(0, "SCALAR", 4, [-1.0], [1.0]), acc(1, "VEC3", 4)],
          [anim([ch()], [smp()])])
case("accessor/input_negative_then_equal", d,
     [("ACCESSOR_ANIMATION_INPUT_NEGATIVE", E, S0 + "/input"),
      ("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", E, S0 + "/input")],
     "times [-1, 0, 1, 1]: NEGATIVE at 0 and NON_INCREASING at 3 only (glTF-Validator also flags index 1)")
d = asset([[0, 1, 1], [0] * 9, [0, 0, 0, 1] * 3],
          [acc(0, "SCALAR", 3, [0.0], [1.0]), acc(1, "VEC3", 3), acc(2, "VEC4", 3)],
          [anim([ch(0), ch(1, path="rotation")], [smp(0, 1), smp(0, 2)])])
case("accessor/input_shared_non_increasing", d,
     [("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", E, S0 + "/input")],
     "times [0, 1, 1] shared by two samplers: reported once, at the first sampler")
d = asset([TIMES, [0, 0, 0, 1, 0, 0, 0, 2]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC4", 2)], [anim([ch(path="rotation")], [smp()])])
case("accessor/rotation_not_unit", d,
     [("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", E, C0 + "/sampler")],
     "second rotation key has length 2")
d = asset([TIMES, [0, 0, 0, 1 + 0.0076, 0, 0, 0, 1 - 0.0076]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC4", 2)], [anim([ch(path="rotation")], [smp()])])
case("../rules_valid/rotation_within_threshold", d, [], "|length - 1| = 0.0076 <= 0.00769 is accepted")
# CUBICSPLINE rotation, 2 keys: [a0, v0, b0, a1, v1, b1]; tangents zero, v1 of length 0.5.
d = asset([TIMES, [0] * 4 + [0, 0, 0, 1] + [0] * 4 + [0] * 4 + [0, 0, 0, 0.5] + [0] * 4],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC4", 6)],
          [anim([ch(path="rotation")], [smp(interpolation="CUBICSPLINE")])])
case("accessor/rotation_cubic_value_not_unit", d,
     [("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", E, C0 + "/sampler")],
     "cubic rotation: zero tangents are not checked, the second value (length 0.5) is")
d = asset([[0.0, float("nan")], VEC3x2], [acc(0, "SCALAR", 2, [0.0], [0.0]), acc(1, "VEC3", 2)],
          [anim([ch()], [smp()])])
case("accessor/input_nan", d,
     [("ACCESSOR_INVALID_FLOAT", E, "/accessors/0")],
     "times [0, NaN]: INVALID_FLOAT; min/max [0] match the finite values")
d = asset([[0.1, 0.5], VEC3x2], [acc(0, "SCALAR", 2, [0.1], [0.4]), acc(1, "VEC3", 2)],
          [anim([ch()], [smp()])])
case("accessor/max_mismatch", d,
     [("ACCESSOR_MAX_MISMATCH", E, "/accessors/0/max/0"),
      ("ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", E, "/accessors/0/max/0"),
      ("LINT_ANIMATION_STARTS_AFTER_ZERO", I, A)],
     "max 0.4 but 0.5 stored; min 0.1 matches after rounding to float32 (the times start at "
     "0.1: the lint's information)")
d = asset([TIMES, VEC3x2], [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2, [0, 0, 0], [1, 2, 4])],
          [anim([ch()], [smp()])])
case("accessor/output_max_mismatch", d,
     [("ACCESSOR_MAX_MISMATCH", E, "/accessors/1/max/2")],
     "output max z 4 but 3 stored (no element beyond the bound)")
case("../rules_valid/translation_linear", base(), [], "two-key LINEAR translation")
d = asset([[0.5, 1.0], VEC3x2], [acc(0, "SCALAR", 2, [0.6], [1.0]), acc(1, "VEC3", 2)],
          [anim([ch()], [smp()])])
case("accessor/min_mismatch_below", d,
     [("ACCESSOR_MIN_MISMATCH", E, "/accessors/0/min/0"),
      ("ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", E, "/accessors/0/min/0"),
      ("LINT_ANIMATION_STARTS_AFTER_ZERO", I, A)],
     "min 0.6 but 0.5 stored: mismatch and one element below the bound (times start at 0.5: "
     "the lint's information)")
d = asset([[0.5, 1.0], VEC3x2], [acc(0, "SCALAR", 2, [0.25], [1.0]), acc(1, "VEC3", 2)],
          [anim([ch()], [smp()])])
case("accessor/min_mismatch_loose", d,
     [("ACCESSOR_MIN_MISMATCH", E, "/accessors/0/min/0"),
      ("LINT_ANIMATION_STARTS_AFTER_ZERO", I, A)],
     "min 0.25 but the smallest value is 0.5: mismatch, no element below the bound (times "
     "start at 0.5: the lint's information)")
d = asset([TIMES, [0, 0, 0, float("inf"), 1, 1]],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2)], [anim([ch()], [smp()])])
case("accessor/output_infinity", d,
     [("ACCESSOR_INVALID_FLOAT", E, "/accessors/1")], "an output component is +Infinity")
# Rotation as normalized signed bytes: 127 -> 1.0; (0, 0, 0, 64) has length 64/127.
d = asset([TIMES, ("b", [0, 0, 0, 127, 0, 0, 0, 64])],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC4", 2, comp=5120, normalized=True)],
          [anim([ch(path="rotation")], [smp()])])
case("accessor/rotation_byte_not_unit", d,
     [("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", E, C0 + "/sampler")],
     "normalized BYTE rotation, second key dequantizes to length 0.504")
d = asset([TIMES, ("b", [0, 0, 0, 127, 0, -128, 0, 0])],
          [acc(0, "SCALAR", 2, [0.0], [1.0]),
           acc(1, "VEC4", 2, [0, -128, 0, 0], [0, 0, 0, 127], comp=5120, normalized=True)],
          [anim([ch(path="rotation")], [smp()])])
case("../rules_valid/rotation_byte_normalized", d, [],
     "normalized BYTE rotation with raw-integer min/max (-128 dequantizes to -1)")
# Sparse: base times [0, 1, 2, 3], sparse index 2 -> 0.5 gives [0, 1, 0.5, 3].
d = asset([[0, 1, 2, 3], [0] * 12, ("B", [2]), [0.5]],
          [acc(0, "SCALAR", 4, [0.0], [3.0],
               sparse={"count": 1, "indices": {"bufferView": 2, "componentType": 5121},
                       "values": {"bufferView": 3}}),
           acc(1, "VEC3", 4)],
          [anim([ch()], [smp()])])
case("accessor/input_sparse_non_increasing", d,
     [("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", E, S0 + "/input")],
     "sparse substitution makes the times [0, 1, 0.5, 3]: NON_INCREASING at 2")
# Accessors without bufferView hold zeros (spec 3.6.2.3) and are checked like any
# other (glTF-Validator skips them, so [0, 0] times pass there while no player
# can use them).
d = asset([VEC3x2], [acc(None, "SCALAR", 2, [0.0], [0.0]), acc(0, "VEC3", 2)],
          [anim([ch()], [smp()])])
case("accessor/input_without_buffer_view", d,
     [("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", E, S0 + "/input")],
     "times without bufferView are zeros, [0, 0]: element 1 is not above element 0")
d = asset([TIMES], [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(None, "VEC4", 2)],
          [anim([ch(path="rotation")], [smp()])])
case("accessor/rotation_without_buffer_view", d,
     [("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", E, C0 + "/sampler")],
     "rotations without bufferView are zero quaternions (length 0): one issue for the run of zeros")
# No bufferView, sparse indices [1, 3] -> values [1, 3]: times [0, 1, 0, 3].
d = asset([VEC3x2 + VEC3x2, ("B", [1, 3]), [1, 3]],
          [acc(None, "SCALAR", 4, [0.0], [3.0],
               sparse={"count": 2, "indices": {"bufferView": 1, "componentType": 5121},
                       "values": {"bufferView": 2}}),
           acc(0, "VEC3", 4)],
          [anim([ch()], [smp()])])
case("accessor/input_sparse_without_buffer_view", d,
     [("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", E, S0 + "/input")],
     "sparse substitutions over implicit zeros give the times [0, 1, 0, 3]: NON_INCREASING at 2")
# (2^62 + 2^61) keys x 3 = 2^64 + 2^61 wraps to 2^61 in 64 bits: the output count
# 2^61 must not pass as the CUBICSPLINE count (nothing is stored: no bufferView).
d = asset([], [acc(None, "SCALAR", 2 ** 62 + 2 ** 61, [0.0], [0.0]), acc(None, "VEC3", 2 ** 61)],
          [anim([ch()], [smp(interpolation="CUBICSPLINE")])])
case("sampler/cubicspline_count_wraps", d,
     [("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", E, S0 + "/input"),
      ("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", E, C0 + "/sampler")],
     "CUBICSPLINE with 2^62 + 2^61 implicit keys and 2^61 outputs: 3 x the keys exceeds 2^64-1, "
     "so no count matches (a wrapping product would give 2^61); the zero times are not increasing")
d = base()
d["foo"] = 1
case("asset/root_unexpected_property", d,
     [("UNEXPECTED_PROPERTY", W, "/foo")], "unknown top-level member")
d = base(nodes=[{"rotation": [0, 0, 2, 1]}])
case("node/rotation_out_of_range", d,
     [("VALUE_NOT_IN_RANGE", E, "/nodes/0/rotation/2")], "a rotation component of 2")
d = base(nodes=[{"translation": [0, 0]}])
case("node/translation_length", d,
     [("ARRAY_LENGTH_NOT_IN_LIST", E, "/nodes/0/translation")], "translation with 2 numbers")
d = base()
d["animations"][0]["channels"][0]["target"]["node"] = "0"
case("channel/target_node_type_mismatch", d,
     [("TYPE_MISMATCH", E, C0 + "/target/node")], "target.node is a string")
d = base()
d["bufferViews"].append({"buffer": 0, "byteLength": 12, "byteStride": 6})
case("buffer_view/byte_stride_multiple", d,
     [("VALUE_MULTIPLE_OF", E, "/bufferViews/2/byteStride")],
     "an unused bufferView with byteStride 6 (not a multiple of 4)")


def main():
    write_cases(CASES)


if __name__ == "__main__":
    main()
