"""Blender's glTF importer and animation system through the conformance suite: the Python
adapter template (adapters/templates/python/engine_adapter.py) with Blender as its engine.
It runs inside Blender, one process for the whole suite:

    blender -b --factory-startup -noaudio --python-exit-code 2 \\
        --python adapters/blender/blender_adapter.py -- SUITE_DIR OUT_DIR [CASE_ID...]

(adapters/blender/run.sh does that, after installing the Debian packages it needs.)

For each case: the scene is reset to factory settings (empty), its frame rate set to FPS, and the
asset imported with the real operator, bpy.ops.import_scene.gltf, with its default options. For
each golden animation the importer's own BlenderAnimation.restore_animation makes that
animation's actions the active ones (what the importer does for the first animation), then, for
each golden time t, scene.frame_set(frame, subframe) with frame + subframe = t * FPS, and every
channel's value is read from the evaluated depsgraph: an object's (or pose bone's) location,
rotation_quaternion and scale, a mesh's shape-key values. The importer's conversions are undone
exactly, from the numbers it used (its `gltf` object is kept when the operator calls
BlenderGlTF.create): pose-bone space to the bone's final TRS (editbone_trans / editbone_rot), the
bone-tip offset of objects parented to a bone, the per-node axis corrections (rotation_after /
rotation_before, cameras and lights), then Blender's Z-up to glTF's Y-up (the inverse of
gltf2_blender_gltf.py's convert_loc / convert_quat / convert_scale) and the unit scale. Rotations
are written normalized: Blender normalizes rotation_quaternion before building the matrix it
draws (so a LINEAR rotation, imported as four component-wise LINEAR F-curves, plays as nlerp).

Time to frame: the importer places a key at t * scene.render.fps (an integer; render.fps_base is
not used). FPS is a power of two, so t * FPS is exact in binary floating point, and Blender's
evaluation time float(frame) + subframe is exactly t * FPS for every time that is a float32 (most
golden times; the others become the nearest float32 frame, as in any engine with float time). FPS = 1024 puts the F-curves' 0.0001-frame key-search threshold at 98 ns (at
Blender's default 24 fps it is 4.2 us, and edge_tiny_segment's one-ulp segment at 1 s is lost).

Left out with the reason (written "unsupported"): channels the importer does not read (no
target.node: KHR_animation_pointer, KHR_animation2), morph targets without a shape key. Exit
codes: 0 every case written (an asset the importer refuses, with the operator's message, is
written without animations, as the C++ template does), 1 some case failed with an error
(written with its "error"), 2 usage, manifest or I/O error.

numpy 1.24 (Debian 12's python3-numpy, which Blender 3.4's importer needs and the blender
package does not pull in) no longer has `np.bool`, which the importer's mesh code uses
(gltf2_blender_mesh.py, set_poly_smoothing, default shading NORMALS): the alias numpy removed,
np.bool = bool, is restored before the import. That is the whole work-around.
"""

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from suite_files import Refused, Unsupported, load_json, manifest_cases, print_summary, run_cases  # noqa: E402
import time

import bpy
import numpy as np

if "bool" not in np.__dict__:
    np.bool = bool  # numpy < 1.24's alias of the builtin, which the 3.4 importer uses

FPS = 1024
MAXFRAME = 1048574  # Blender's MAXFRAME: times up to 1024 s at 1024 fps


# ---- Blender's importer, observed -------------------------------------------------------
def importer_modules():
    from io_scene_gltf2.blender.imp import gltf2_blender_gltf, gltf2_blender_animation, gltf2_blender_vnode
    return gltf2_blender_gltf, gltf2_blender_animation, gltf2_blender_vnode


class Capture:
    """Keeps the importer's `gltf` object (vnodes, conversions, track names): BlenderGlTF.create
    is wrapped, not changed."""
    gltf = None

    @staticmethod
    def install():
        module = importer_modules()[0]
        create = module.BlenderGlTF.create
        if getattr(create, "_gltf_anim_capture", False):
            return

        def capturing(gltf):
            Capture.gltf = gltf
            return create(gltf)
        capturing._gltf_anim_capture = True
        module.BlenderGlTF.create = staticmethod(capturing)


def qmul(a, b):
    """Hamilton product of quaternions (w, x, y, z), in doubles."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def qconj(q):
    return (q[0], -q[1], -q[2], -q[3])


def qrotate(q, v):
    """v rotated by the unit quaternion q."""
    r = qmul(qmul(q, (0.0, v[0], v[1], v[2])), qconj(q))
    return (r[1], r[2], r[3])


def is_identity(q):
    return tuple(q) == (1.0, 0.0, 0.0, 0.0)


def quat(q):
    return (float(q[0]), float(q[1]), float(q[2]), float(q[3]))


class Engine:
    """One asset imported into an empty scene by Blender's glTF importer."""

    def __init__(self, asset_path):
        self.gltf_json = load_json(asset_path)
        bpy.ops.wm.read_factory_settings(use_empty=True)
        scene = bpy.context.scene
        scene.render.fps = FPS
        scene.render.fps_base = 1.0
        self.unit = 1.0 / scene.unit_settings.scale_length  # the importer's u (1: factory)
        Capture.install()
        Capture.gltf = None
        try:
            result = bpy.ops.import_scene.gltf(filepath=asset_path)
        except RuntimeError as e:  # the operator reported an error: the importer refused the asset
            raise Refused(str(e).strip().replace("Error: ", "", 1)) from e
        if "FINISHED" not in result or Capture.gltf is None:
            raise Refused("bpy.ops.import_scene.gltf returned %s" % sorted(result))
        self.gltf = Capture.gltf
        self.scene = scene
        self.active_animation = 0  # the importer restores the first animation
        self.time = None

    # glTF channel -> what Blender animates
    def check_channel(self, animation, channel):
        anim = self.gltf_json["animations"][animation]
        ch = anim["channels"][channel]
        target = ch.get("target", {})
        if "sampler" not in ch or "node" not in target:
            # The importer skips channels without target.node (gltf2_blender_gltf.py, pre_compute)
            raise Unsupported(", ".join(sorted(target.get("extensions", {})))
                              or ", ".join(sorted(ch.get("extensions", {})))
                              or ", ".join(self.gltf_json.get("extensionsUsed", []))
                              or "a channel without target.node")
        path = target.get("path")
        if path not in ("translation", "rotation", "scale", "weights"):
            raise Unsupported("target path %s" % (path,))
        return target["node"], path

    def show(self, animation, t):
        """Makes `animation` the active one and evaluates the scene at t seconds."""
        if animation != self.active_animation:
            animation_module = importer_modules()[1]
            track = self.gltf.data.animations[animation].track_name
            animation_module.BlenderAnimation.restore_animation(self.gltf, track)
            self.active_animation = animation
            self.time = None
        if self.time != t:
            frames = t * FPS  # exact: FPS is a power of two
            if abs(frames) > MAXFRAME:  # frame_set would clamp it silently
                raise RuntimeError("t = %r s is frame %r, beyond Blender's frame range (+-%d)" % (t, frames, MAXFRAME))
            frame = math.floor(frames)
            self.scene.frame_set(int(frame), subframe=frames - frame)
            self.time = t
        return bpy.context.evaluated_depsgraph_get()

    def sample(self, animation, node, path, t):
        depsgraph = self.show(animation, t)
        vnode_module = importer_modules()[2]
        VNode = vnode_module.VNode
        vnodes = self.gltf.vnodes
        if path == "weights":
            return self.weights(node, depsgraph)
        vnode = vnodes[node]
        if vnode.type == VNode.Bone:
            arma = vnodes[vnode.bone_arma].blender_object.evaluated_get(depsgraph)
            bone = arma.pose.bones[vnode.blender_bone_name]
            value = self.read(bone, path)
            # Pose bone -> the bone's final TRS (the inverse of BlenderNodeAnim.do_channel's
            # "pt = Rot[er^-1] (ft - et), pr = er^-1 fr, ps = fs").
            er = quat(vnode.editbone_rot)
            if path == "translation":
                et = vnode.editbone_trans
                r = qrotate(er, value)
                value = (r[0] + et[0], r[1] + et[1], r[2] + et[2])
            elif path == "rotation":
                value = qmul(er, value)
        else:
            obj = vnode.blender_object.evaluated_get(depsgraph)
            value = self.read(obj, path)
            # Objects parented to a bone: the importer added (0, -bone_length, 0).
            if path == "translation" and vnode.parent is not None and vnodes[vnode.parent].type == VNode.Bone:
                value = (value[0], value[1] + vnodes[vnode.parent].bone_length, value[2])
        # Final TRS -> base TRS (the inverse of VNode.base_*_to_final_*).
        ra, rb = quat(vnode.rotation_after), quat(vnode.rotation_before)
        if path == "translation" and not is_identity(ra):
            value = qrotate(qconj(ra), value)
        elif path == "rotation":
            if not is_identity(ra):
                value = qmul(qconj(ra), value)
            if not is_identity(rb):
                value = qmul(value, qconj(rb))
        elif path == "scale" and not is_identity(rb):
            from io_scene_gltf2.blender.com.gltf2_blender_math import scale_rot_swap_matrix
            m = scale_rot_swap_matrix(vnode.rotation_before)  # a permutation: its inverse is its transpose
            value = tuple(sum(m[j][i] * value[j] for j in range(3)) for i in range(3))
        # Blender Z-up -> glTF Y-up: the inverse of convert_loc / convert_quat / convert_scale.
        if path == "translation":
            return [value[0] / self.unit, value[2] / self.unit, -value[1] / self.unit]
        if path == "rotation":
            w, x, y, z = value
            n = math.sqrt(w * w + x * x + y * y + z * z)  # Blender draws the normalized quaternion
            return [x / n, z / n, -y / n, w / n]
        return [value[0], value[2], value[1]]

    @staticmethod
    def read(item, path):
        if path == "translation":
            return tuple(float(c) for c in item.location)
        if path == "rotation":
            if item.rotation_mode != "QUATERNION":
                raise RuntimeError("rotation mode %s, not QUATERNION" % item.rotation_mode)
            return tuple(float(c) for c in item.rotation_quaternion)
        return tuple(float(c) for c in item.scale)

    def weights(self, node, depsgraph):
        """The shape-key values of the node's mesh, one per morph target."""
        vnode = next((v for v in self.gltf.vnodes.values() if v.mesh_node_idx == node), None)
        if vnode is None or vnode.blender_object is None:
            raise RuntimeError("node %d: no mesh object" % node)
        names = self.gltf.data.meshes[self.gltf.data.nodes[node].mesh].shapekey_names
        if any(name is None for name in names):
            raise Unsupported("morph target without a shape key")
        mesh = vnode.blender_object.data
        if mesh.shape_keys is None:
            raise RuntimeError("node %d: no shape keys" % node)
        blocks = mesh.shape_keys.evaluated_get(depsgraph).key_blocks
        return [float(blocks[name].value) for name in names]
# ----------------------------------------------------------------------------------------


def versions():
    import addon_utils
    addon = next((m for m in addon_utils.modules() if m.__name__ == "io_scene_gltf2"), None)
    addon_version = ".".join(str(v) for v in addon.bl_info["version"]) if addon else "?"
    return "Blender %s, io_scene_gltf2 %s, numpy %s" % (bpy.app.version_string, addon_version, np.__version__)


GENERATOR = "adapters/blender/blender_adapter.py"


def main(argv):
    if len(argv) < 2:
        print("usage: blender -b --factory-startup --python blender_adapter.py -- SUITE_DIR OUT_DIR [CASE_ID...]", file=sys.stderr)
        return 2
    suite, out_dir, only = argv[0], argv[1], set(argv[2:])
    cases = manifest_cases("blender_adapter.py", suite, out_dir, only)
    if cases is None:
        return 2
    global GENERATOR
    GENERATOR = "adapters/blender/blender_adapter.py (%s)" % versions()
    print("blender_adapter.py: %s, scene at %d fps" % (versions(), FPS), file=sys.stderr)
    start = time.monotonic()
    written, refused, failed = run_cases(cases, Engine, GENERATOR)
    print_summary("blender_adapter.py", cases, start, written, refused, failed, out_dir)
    return 1 if failed else 0


if __name__ == "__main__":
    arguments = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    sys.exit(main(arguments))
