#!/usr/bin/env python3
"""Writes the invalid assets of what an animation depends on: the node
hierarchy, scenes, skins and meshes (validator/src/rules/scene_graph.cpp and
meshes.cpp). Each case is the valid two-key translation animation of
build_invalid_assets.py with one defect added by hand, and the messages we
expect, derived by hand from the spec sentence and glTF-Validator's own test
reports (its codes and pointers; test/base/data/{node,scene,skin,mesh}).

Run: python3 conformance_assets/invalid/build_scene_graph_assets.py
"""
from _assets_common import write_cases
from build_invalid_assets import E, acc, asset, anim, ch, smp, TIMES, VEC3x2, base

IDENTITY = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]
CASES = {}


def case(path, doc, messages, note):
    CASES[path] = (doc, messages, note)


def with_ibm(matrices, ibm_type="MAT4", count=None, view=None, **kw):
    """base() plus accessor 2: inverse bind matrices over bufferView 2."""
    values = [v for m in matrices for v in m]
    n = count if count is not None else len(matrices)
    return asset([TIMES, VEC3x2, values],
                 [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2), acc(2, ibm_type, n)],
                 [anim([ch()], [smp()])], views=view, **kw)


def with_mesh(meshes, nodes):
    """base() plus accessors 2 and 3: VEC3 x 3 without bufferView (zeros, no bounds)."""
    return asset([TIMES, VEC3x2],
                 [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2), acc(None, "VEC3", 3),
                  acc(None, "VEC3", 3)],
                 [anim([ch()], [smp()])], nodes=nodes, extra={"meshes": meshes})


# ---- nodes ------------------------------------------------------------------------
case("node/loop", base(nodes=[{"children": [1]}, {"children": [0]}]),
     [("NODE_LOOP", E, "/nodes/0"), ("NODE_LOOP", E, "/nodes/1")],
     "node 0 is the child of node 1 and node 1 of node 0: both are on the loop")
case("node/loop_below", base(nodes=[{}, {"children": [2]}, {"children": [3]}, {"children": [2]}]),
     [("NODE_LOOP", E, "/nodes/2"), ("NODE_LOOP", E, "/nodes/3"),
      ("NODE_PARENT_OVERRIDE", E, "/nodes/3/children/0")],
     "nodes 2 and 3 are each other's child (a loop); node 1 lists 2 as well, which node 3 then "
     "overrides; node 1 is not on the loop")
case("node/parent_override", base(nodes=[{"children": [2]}, {"children": [2]}, {}]),
     [("NODE_PARENT_OVERRIDE", E, "/nodes/1/children/0")],
     "node 2 is listed by nodes 0 and 1: the later listing overrides the parent")
case("node/matrix_trs", base(nodes=[{}, {"matrix": IDENTITY, "translation": [0, 0, 0]}]),
     [("NODE_MATRIX_TRS", E, "/nodes/1/matrix")], "node 1 has both matrix and translation")
# Column-major: columns (1, 0, 0) and (1, 1, 0) are not orthogonal (a shear).
SHEAR = [1.0, 0, 0, 0, 1.0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]
# 90 degrees about z, scale 2, translation (1, 2, 3): T * R * S.
ROTATE_SCALE = [0, 2.0, 0, 0, -2.0, 0, 0, 0, 0, 0, 2.0, 0, 1.0, 2.0, 3.0, 1.0]
case("node/matrix_non_trs", base(nodes=[{}, {"matrix": SHEAR}, {"matrix": ROTATE_SCALE},
                                        {"matrix": IDENTITY[:15] + [2.0]}]),
     [("NODE_MATRIX_NON_TRS", E, "/nodes/1/matrix"), ("NODE_MATRIX_NON_TRS", E, "/nodes/3/matrix")],
     "node 1's matrix is a shear, node 3's last row is (0, 0, 0, 2); node 2's is a rotation "
     "times a scale plus a translation (no message)")
case("node/rotation_non_unit", base(nodes=[{}, {"rotation": [0, 0, 0.5, 0.5]},
                                           {"rotation": [0, 0, 0.70710678, 0.70710678]}]),
     [("ROTATION_NON_UNIT", E, "/nodes/1/rotation")],
     "node 1's rotation has length sqrt(0.5) = 0.707; node 2's is unit within 1e-8")
case("node/references_unresolved", base(nodes=[{}, {"mesh": 3, "camera": 1, "skin": 2},
                                               {"children": [4]}]),
     [("UNRESOLVED_REFERENCE", E, "/nodes/1/camera"), ("UNRESOLVED_REFERENCE", E, "/nodes/1/skin"),
      ("UNRESOLVED_REFERENCE", E, "/nodes/1/mesh"),
      ("UNRESOLVED_REFERENCE", E, "/nodes/2/children/0")],
     "no meshes, cameras or skins; node 2's child 4 of 3 nodes")
case("node/weights_invalid",
     with_mesh([{"primitives": [{"attributes": {"POSITION": 2}, "targets": [{"POSITION": 3}]}]}],
               [{}, {"mesh": 0, "weights": [0.5, 0.5]}]),
     [("NODE_WEIGHTS_INVALID", E, "/nodes/1/weights")],
     "node.weights has 2 values; the mesh's primitive has 1 morph target")

# ---- meshes -----------------------------------------------------------------------
case("mesh/weights_invalid_count",
     with_mesh([{"primitives": [{"attributes": {"POSITION": 2}, "targets": [{"POSITION": 3}]}],
                 "weights": [0, 0, 0]}], [{}]),
     [("MESH_INVALID_WEIGHTS_COUNT", E, "/meshes/0/weights")],
     "mesh.weights has 3 values for 1 morph target")
case("mesh/unequal_targets_count",
     with_mesh([{"primitives": [{"attributes": {"POSITION": 2}, "targets": [{"POSITION": 3}]},
                                {"attributes": {"POSITION": 2}}]}], [{}]),
     [("MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", E, "/meshes/0/primitives/1")],
     "the first primitive has 1 morph target, the second none")
case("mesh/references_unresolved",
     with_mesh([{"primitives": [{"attributes": {"POSITION": 9}, "indices": 8, "material": 0,
                                 "targets": [{"POSITION": 7}]}]}], [{}]),
     [("UNRESOLVED_REFERENCE", E, "/meshes/0/primitives/0/attributes/POSITION"),
      ("UNRESOLVED_REFERENCE", E, "/meshes/0/primitives/0/indices"),
      ("UNRESOLVED_REFERENCE", E, "/meshes/0/primitives/0/material"),
      ("UNRESOLVED_REFERENCE", E, "/meshes/0/primitives/0/targets/0/POSITION")],
     "4 accessors and no materials: every reference of the primitive is out of range")

# ---- scenes -----------------------------------------------------------------------
d = base(nodes=[{"children": [1]}, {}])
d["scenes"] = [{"nodes": [1]}]
case("scene/non_root_node", d, [("SCENE_NON_ROOT_NODE", E, "/scenes/0/nodes/0")],
     "the scene lists node 1, the child of node 0")
d = base()
d["scenes"] = [{"nodes": [5]}]
d["scene"] = 3
case("scene/references_unresolved", d,
     [("UNRESOLVED_REFERENCE", E, "/scenes/0/nodes/0"), ("UNRESOLVED_REFERENCE", E, "/scene")],
     "scene 3 of 1, node 5 of 1")
d = base()
d["scenes"] = [{"nodes": []}]
case("scene/nodes_empty", d, [("EMPTY_ENTITY", E, "/scenes/0/nodes")], "scene.nodes is []")

# ---- skins ------------------------------------------------------------------------
d = base(nodes=[{}, {}])
d["skins"] = [{"joints": [0, 1]}]
case("skin/no_common_root", d, [("SKIN_NO_COMMON_ROOT", E, "/skins/0/joints")],
     "joints 0 and 1 are two roots")
d = base(nodes=[{"children": [1]}, {}, {}])
d["skins"] = [{"joints": [1], "skeleton": 2}]
case("skin/skeleton_invalid", d, [("SKIN_SKELETON_INVALID", E, "/skins/0/skeleton")],
     "the skeleton, node 2, is no ancestor of joint 1 (whose root is node 0)")
d = base(nodes=[{"children": [1]}, {}])
d["skins"] = [{"joints": [1, 0], "skeleton": 0}]
case("skin/skeleton_common_root_valid", d, [],
     "control: the skeleton is the joints' common root (itself a joint): no message")
d = base()
d["skins"] = [{"joints": [0, 6], "skeleton": 7, "inverseBindMatrices": 9}]
case("skin/references_unresolved", d,
     [("UNRESOLVED_REFERENCE", E, "/skins/0/joints/1"), ("UNRESOLVED_REFERENCE", E, "/skins/0/skeleton"),
      ("UNRESOLVED_REFERENCE", E, "/skins/0/inverseBindMatrices")],
     "joint 6 and skeleton 7 of 1 node, inverseBindMatrices 9 of 2 accessors")
d = base()
d["skins"] = [{"joints": []}]
case("skin/joints_empty", d, [("EMPTY_ENTITY", E, "/skins/0/joints")], "skin.joints is []")
d = base()
d["skins"] = [{}]
case("skin/joints_missing", d, [("UNDEFINED_PROPERTY", E, "/skins/0")], "skin without joints")
d = base(nodes=[{}])
d["skins"] = [{"joints": [0, 0]}]
case("skin/joints_duplicate", d, [("DUPLICATE_ELEMENTS", E, "/skins/0/joints/1")],
     "skin.joints lists node 0 twice")
d = with_ibm([IDENTITY[:9]], ibm_type="MAT3", nodes=[{}])
d["skins"] = [{"joints": [0], "inverseBindMatrices": 2}]
case("skin/ibm_invalid_format", d, [("SKIN_IBM_INVALID_FORMAT", E, "/skins/0/inverseBindMatrices")],
     "inverse bind matrices of MAT3")
d = with_ibm([IDENTITY], nodes=[{"children": [1]}, {}])
d["skins"] = [{"joints": [0, 1], "inverseBindMatrices": 2}]
case("skin/ibm_invalid_count", d, [("INVALID_IBM_ACCESSOR_COUNT", E, "/skins/0/inverseBindMatrices")],
     "1 inverse bind matrix for 2 joints")
d = with_ibm([IDENTITY], nodes=[{}], view={2: {"byteStride": 64}})
d["skins"] = [{"joints": [0], "inverseBindMatrices": 2}]
case("skin/ibm_byte_stride", d,
     [("SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", E, "/skins/0/inverseBindMatrices")],
     "the inverse bind matrices' bufferView has byteStride 64")
d = with_ibm([IDENTITY, IDENTITY[:15] + [2.0]], nodes=[{"children": [1]}, {}])
d["skins"] = [{"joints": [0, 1], "inverseBindMatrices": 2}]
case("skin/ibm_last_row", d, [("ACCESSOR_INVALID_IBM", E, "/skins/0/inverseBindMatrices")],
     "the second matrix's component 15 (flat index 31) is 2, not 1")
d = asset([TIMES, VEC3x2], [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2), acc(None, "MAT4", 2)],
          [anim([ch()], [smp()])], nodes=[{"children": [1]}, {}])
d["skins"] = [{"joints": [0, 1], "inverseBindMatrices": 2}]
case("skin/ibm_without_buffer_view", d, [],
     "control: inverse bind matrices without bufferView are not checked as zeros (glTF-Validator's "
     "skin/valid.gltf has such an accessor; only animation data is)")

# ---- skinned vertices: JOINTS_0 (UNSIGNED_BYTE) and WEIGHTS_0 (FLOAT), 3 vertices,
# skin of 3 joints (indices 0..2). Vertex 0 is right: joints 0, 1 weighted 0.5 each.
# Vertex 1 (components 4..7): joint 3 is past index 2 (its weight is not read), joint
# 1 twice with non-zero weights, so the sum counts 0.5 once: 0.5. Vertex 2
# (components 8..11): weight -0.25 is negative and the sum of the others is 1.25.
JOINTS = ("B", [0, 1, 0, 0, 3, 1, 1, 0, 0, 1, 0, 0])
WEIGHTS = [0.5, 0.5, 0, 0, 0.25, 0.5, 0.25, 0, 1.25, -0.25, 0, 0]
d = asset([TIMES, VEC3x2, JOINTS, WEIGHTS],
          [acc(0, "SCALAR", 2, [0.0], [1.0]), acc(1, "VEC3", 2), acc(2, "VEC4", 3, comp=5121),
           acc(3, "VEC4", 3)],
          [anim([ch()], [smp()])],
          nodes=[{"children": [1, 2]}, {}, {}, {"mesh": 0, "skin": 0}],
          extra={"meshes": [{"primitives": [{"attributes": {"JOINTS_0": 2, "WEIGHTS_0": 3}}]}],
                 "skins": [{"joints": [0, 1, 2]}]})
J0 = "/meshes/0/primitives/0/attributes/JOINTS_0"
W0 = "/meshes/0/primitives/0/attributes/WEIGHTS_0"
case("mesh/skinned_vertices", d,
     [("ACCESSOR_JOINTS_INDEX_OOB", E, J0), ("ACCESSOR_JOINTS_INDEX_DUPLICATE", E, J0),
      ("ACCESSOR_WEIGHTS_NON_NORMALIZED", E, W0), ("ACCESSOR_WEIGHTS_NEGATIVE", E, W0),
      ("ACCESSOR_WEIGHTS_NON_NORMALIZED", E, W0)],
     "vertex 1: joint 3 of 3 joints, joint 1 weighted twice, sum 0.5; vertex 2: weight -0.25, "
     "sum 1.25; vertex 0 is right")


def main():
    write_cases(CASES)


if __name__ == "__main__":
    main()
