"""Blender's glTF exporter against Blender's own playback (runs inside Blender):

    blender -b --factory-startup -noaudio --python export_scenes.py -- WORK_DIR
    blender -b --factory-startup -noaudio --python export_scenes.py -- --blend FILE [NAME,...]

(the second form saves the authored scene, or only the objects named, as a .blend: the scene of
the add-on CI recipe's test, exporters/blender/check-ci.sh)

Authors one scene in bpy (below: one object per feature), then
  1. exports each object alone (use_selection) with bpy.ops.export_scene.gltf three times
     (MODES: sampled every frame, sampled every third frame, keys as-is) to
     WORK_DIR/<object>.<mode>.glb, or WORK_DIR/<object>.<mode>.error with the exporter's
     exception;
  2. evaluates it with Blender itself at dense times, scene.frame_set(frame, subframe) every
     1/8 frame from two frames before the first key to two after the last, and writes what
     Blender shows, in glTF's axes and units, to WORK_DIR/blender.json:
     {"fps", "times": [seconds], "objects": {name: {"translation": [[x, y, z]...],
      "rotation": [[x, y, z, w]...], "scale": [...], "weights": [[w0, w1...]...],
      "matrix": [[16 floats, column-major]...]}}}.
report.py compares the exports' playback (gltf-anim sample) with it. Deterministic: factory
settings, no randomness, fixed names.

Blender -> glTF axes: the exporter's default +Y up, (x, y, z) -> (x, z, -y) for locations,
(w, x, y, z) -> (x, z, -y, w) for rotations, (x, y, z) -> (x, z, y) for scales (root objects);
glTF time = frame / scene.render.fps (the exporter's Keyframe.seconds).
"""

import json
import math
import os
import re
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from playback import to_gltf  # noqa: E402  (shared with ci_check.py)

FPS = 24
SUBSTEPS = 8  # evaluations per frame
MODES = {
    # name: export options besides the defaults
    "sampled-step1": {"export_force_sampling": True, "export_frame_step": 1},
    "sampled-step3": {"export_force_sampling": True, "export_frame_step": 3},
    "keys": {"export_force_sampling": False},
}


def key(obj, data_path, frame, values, interpolation):
    """A key on every component of obj.data_path at frame, with the given interpolation (of
    the segment that starts at the key)."""
    setattr(obj, data_path, values)
    obj.keyframe_insert(data_path=data_path, frame=frame)
    for fc in obj.animation_data.action.fcurves:
        if fc.data_path == data_path:
            for kp in fc.keyframe_points:
                if abs(kp.co[0] - frame) < 1e-6:
                    kp.interpolation = interpolation


def empty(name):
    obj = bpy.data.objects.new(name, None)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def author():
    """The scene: one object per feature, keys from frame 1 to 49 at 24 fps."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.frame_start, scene.frame_end = 1, 49

    def trs(name, interpolation, frames=(1, 13, 25, 49)):
        obj = empty(name)
        obj.rotation_mode = "QUATERNION"
        locations = [(0, 0, 0), (2, -1, 3), (1, 2, -1), (4, 0.5, 1)]
        angles = [0, 1.2, 2.6, 0.4]  # about an oblique axis, radians
        axis = (0.48, 0.6, 0.64)
        scales = [(1, 1, 1), (2, 0.5, 1), (0.5, 1.5, 3), (1, 1, 2)]
        for f, loc, a, s in zip(frames, locations, angles, scales):
            key(obj, "location", f, loc, interpolation)
            q = (math.cos(a / 2), *(c * math.sin(a / 2) for c in axis))
            key(obj, "rotation_quaternion", f, q, interpolation)
            key(obj, "scale", f, s, interpolation)
        return obj

    trs("bezier", "BEZIER")
    trs("linear", "LINEAR")
    trs("constant", "CONSTANT")
    trs("subframe", "BEZIER", frames=(1.5, 7.25, 20.75, 48.5))

    obj = empty("euler")  # Euler XYZ rotations, BEZIER, over more than a half turn
    obj.rotation_mode = "XYZ"
    for f, e in ((1, (0, 0, 0)), (17, (0.8, -0.4, 2.5)), (33, (-0.3, 1.1, 4.0)), (49, (0.2, 0.2, 6.0))):
        key(obj, "rotation_euler", f, e, "BEZIER")
        key(obj, "location", f, (f / 10, 0, 0), "LINEAR")

    obj = empty("negative_scale")  # a scale through zero to -1 on x, LINEAR, with a turn
    obj.rotation_mode = "QUATERNION"
    for f, s, a in ((1, (1, 1, 1), 0.0), (25, (-1, 1, 1), 1.0), (49, (-1, 2, 1), 2.0)):
        key(obj, "scale", f, s, "LINEAR")
        key(obj, "rotation_quaternion", f, (math.cos(a / 2), 0, 0, math.sin(a / 2)), "LINEAR")

    # Shape keys: a mesh (a quad) with two keys, one BEZIER, one LINEAR.
    mesh = bpy.data.meshes.new("shapes")
    mesh.from_pydata([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)], [], [(0, 1, 2, 3)])
    obj = bpy.data.objects.new("shapes", mesh)
    scene.collection.objects.link(obj)
    obj.shape_key_add(name="Basis")
    for name, offset in (("up", (0, 0, 1)), ("side", (1, 0, 0))):
        sk = obj.shape_key_add(name=name)
        for p in sk.data:
            p.co = (p.co[0] + offset[0], p.co[1] + offset[1], p.co[2] + offset[2])
    blocks = mesh.shape_keys.key_blocks
    for f, up, side in ((1, 0.0, 0.0), (13, 1.0, 0.25), (31, 0.2, 1.0), (49, 0.6, 0.0)):
        blocks["up"].value = up
        blocks["up"].keyframe_insert("value", frame=f)
        blocks["side"].value = side
        blocks["side"].keyframe_insert("value", frame=f)
    for fc in mesh.shape_keys.animation_data.action.fcurves:
        for kp in fc.keyframe_points:
            kp.interpolation = "LINEAR" if 'side' in fc.data_path else "BEZIER"
    for action in bpy.data.actions:
        for fc in action.fcurves:
            fc.update()


def evaluate(work):
    scene = bpy.context.scene
    first, last = scene.frame_start, scene.frame_end
    frames = [first - 2 + k / SUBSTEPS for k in range((last - first + 4) * SUBSTEPS + 1)]
    out = {"fps": FPS, "substeps": SUBSTEPS, "times": [f / FPS for f in frames], "objects": {}}
    names = sorted(o.name for o in bpy.data.objects)
    for name in names:
        out["objects"][name] = {k: [] for k in ("translation", "rotation", "scale", "matrix")}
        if bpy.data.objects[name].data is not None and getattr(bpy.data.objects[name].data, "shape_keys", None):
            out["objects"][name]["weights"] = []
    for f in frames:
        frame = math.floor(f)
        scene.frame_set(frame, subframe=f - frame)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        for name in names:
            obj = bpy.data.objects[name].evaluated_get(depsgraph)
            values = to_gltf(obj)
            for k, v in values.items():
                out["objects"][name][k].append([float(c) for c in v])
            if "weights" in out["objects"][name]:
                blocks = bpy.data.objects[name].data.shape_keys.evaluated_get(depsgraph).key_blocks
                out["objects"][name]["weights"].append([float(b.value) for b in blocks[1:]])
    with open(os.path.join(work, "blender.json"), "w", encoding="utf-8") as f:
        json.dump(out, f)


def save_scene(path, only):
    """The authored scene saved as a .blend (the add-on CI recipe's test scene, ci-check.sh):
    with `only`, the other objects removed."""
    author()
    for obj in list(bpy.data.objects):
        if only and obj.name not in only:
            bpy.data.objects.remove(obj)
    bpy.context.scene.frame_set(1)
    bpy.ops.wm.save_as_mainfile(filepath=os.path.abspath(path))
    print("export_scenes.py: scene saved to %s" % path)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "--blend":
        return save_scene(argv[1], set(argv[2].split(",")) if len(argv) > 2 else set())
    if len(argv) != 1:
        print("usage: blender -b --factory-startup --python export_scenes.py -- WORK_DIR\n"
              "       blender -b --factory-startup --python export_scenes.py -- --blend FILE [NAME,...]", file=sys.stderr)
        return 2
    work = argv[0]
    os.makedirs(work, exist_ok=True)
    author()
    # One object per file (use_selection), so that an export that fails on one feature does not
    # take the others with it; the exporter's exception is kept as the file's result.
    names = sorted(o.name for o in bpy.data.objects)
    for name in names:
        for mode, options in MODES.items():
            for o in bpy.data.objects:
                o.select_set(o.name == name)
            stem = os.path.join(work, "%s.%s" % (name, mode))
            try:
                bpy.ops.export_scene.gltf(filepath=stem + ".glb", export_format="GLB", use_selection=True, **options)
            except RuntimeError as e:
                # The exception's own line ("KeyError: 1.5"), not the traceback around it.
                lines = [line.strip() for line in str(e).splitlines()
                         if re.match(r"^\s*[A-Za-z_.]*(Error|Exception)\b", line) and "Traceback" not in line]
                with open(stem + ".error", "w", encoding="utf-8") as f:
                    f.write((lines[-1] if lines else "the export failed") + "\n")
                if os.path.exists(stem + ".glb"):
                    os.remove(stem + ".glb")
    bpy.context.scene.frame_set(1)
    evaluate(work)
    import addon_utils
    addon = next((m for m in addon_utils.modules() if m.__name__ == "io_scene_gltf2"), None)
    with open(os.path.join(work, "versions.json"), "w", encoding="utf-8") as f:
        json.dump({"blender": bpy.app.version_string,
                   "io_scene_gltf2": ".".join(str(v) for v in addon.bl_info["version"]) if addon else "?",
                   "modes": MODES}, f)
    print("export_scenes.py: %d exports and Blender's playback written to %s" % (len(MODES), work))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []))
