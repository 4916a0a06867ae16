"""What Blender shows, in glTF's axes: shared by the export fidelity table (export_scenes.py) and
the add-on CI recipe (ci_check.py), so both read Blender's playback the same way. Runs inside
Blender.

Blender -> glTF axes: the exporter's default +Y up, (x, y, z) -> (x, z, -y) for locations,
(w, x, y, z) -> (x, z, -y, w) for rotations, (x, y, z) -> (x, z, y) for scales. That is the
exporter's conversion of an object at the scene's root (or a child without a parent inverse):
the object's own location, rotation and scale are what the exporter writes as the node's.
"""

import math

import bpy

# Blender (x, y, z) -> glTF (x, z, -y), as a matrix.
CONV = [[1, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]]


def to_gltf(obj):
    """What Blender shows for obj, in glTF axes: translation, rotation (x, y, z, w), scale, and
    the local matrix (column-major)."""
    loc = obj.location
    if obj.rotation_mode == "QUATERNION":
        q = obj.rotation_quaternion.normalized()
    elif obj.rotation_mode == "AXIS_ANGLE":
        from mathutils import Quaternion, Vector
        a = obj.rotation_axis_angle
        q = Quaternion(Vector((a[1], a[2], a[3])), a[0])
    else:
        q = obj.rotation_euler.to_quaternion()
    s = obj.scale
    m = obj.matrix_basis
    # glTF node matrix = C^-1 M C with C the Y-up -> Z-up change: rows/columns permuted, y negated.
    mm = [[sum(CONV[i][k] * m[k][l] * CONV[j][l] for k in range(4) for l in range(4)) for j in range(4)] for i in range(4)]
    return {
        "translation": [loc[0], loc[2], -loc[1]],
        "rotation": [q[1], q[3], -q[2], q[0]],
        "scale": [s[0], s[2], s[1]],
        "matrix": [mm[r][c] for c in range(4) for r in range(4)],
    }


def shape_key_values(obj, depsgraph):
    """The evaluated values of obj's shape keys but the basis, in order (the exporter's morph
    targets), or None when it has none."""
    data = obj.data
    keys = getattr(data, "shape_keys", None) if data is not None else None
    if keys is None:
        return None
    blocks = keys.evaluated_get(depsgraph).key_blocks
    return [float(b.value) for b in blocks[1:]]


def show(scene, frame):
    """The scene at a fractional frame (frame_set with its subframe); returns the depsgraph."""
    whole = math.floor(frame)
    scene.frame_set(int(whole), subframe=frame - whole)
    return bpy.context.evaluated_depsgraph_get()
