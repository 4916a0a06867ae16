"""Does the open Blender scene's glTF export play like the scene? A check for an exporter's CI
(docs/conformance/blender-export-ci.md), run inside Blender on a .blend:

    blender -b SCENE.blend --factory-startup --python-exit-code 2 \\
        --python exporters/blender/ci_check.py -- --cli GLTF_ANIM --out DIR [--option NAME=VALUE]...

(exporters/blender/ci-check.sh does that.) Four steps:
  1. export: bpy.ops.export_scene.gltf(filepath=DIR/export/<scene>.glb, export_format='GLB',
     NAME=VALUE...), the add-on's defaults otherwise (each VALUE read as a Python literal:
     False, 3, 'GLB'; else as a string);
  2. golden: `gltf-anim generate --from` the export (DIR/suite: the reference evaluator's playback
     of the file at the suite's times, with the tolerances and the allowed variants, such as
     nlerp for LINEAR rotations, that apply to it);
  3. Blender: for every golden channel of a node, the node's object (by name) is evaluated by
     Blender at each golden time t, scene.frame_set at frame t * fps (the exporter's time is
     frame / fps), and its location, rotation and scale, or its shape-key values, written in
     glTF's axes (playback.py, shared with the export fidelity table) as an actual samples
     file (DIR/blender/<scene>.samples.json); a channel of anything else is "unsupported";
  4. compare: `gltf-anim compare --golden DIR/suite --actual DIR/blender`: the text report on
     standard output, Markdown and JSON beside it (DIR/report.md, DIR/report.json). A failing
     channel names its target (the node, hence the object), its worst times and the variant
     or known divergence its values match: the cause.
The scene plays as it is: each object's active action. So each exported animation should animate
objects whose action the scene plays (one action per object, the exporter's default grouping).
Exit codes: compare's (0 the export plays like the scene, 1 it does not), 2 a step failed
(the export raised: its exception's line is printed).
"""

import argparse
import ast
import json
import os
import re
import struct
import subprocess
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from playback import shape_key_values, show, to_gltf  # noqa: E402


def options(pairs):
    out = {"export_format": "GLB"}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not re.match(r"^export_[a-z_]+$", name):
            raise ValueError("--option wants NAME=VALUE with an export_... option name, not %r" % pair)
        try:
            out[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[name] = value
    return out


def glb_json(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length].decode("utf-8"))


def blender_samples(golden, gltf):
    """The actual samples file: Blender's playback at the golden times."""
    scene = bpy.context.scene
    fps = scene.render.fps  # the exporter's Keyframe.seconds = frame / render.fps
    nodes = gltf.get("nodes", [])
    out = {"asset": golden["asset"], "generator": "exporters/blender/ci_check.py (Blender %s)" % bpy.app.version_string,
           "animations": []}
    reads = []  # (channel dict, object, path, times)
    for ga in golden["animations"]:
        animation = {"index": ga["index"], "name": ga.get("name", ""), "channels": []}
        for k, gc in enumerate(ga["channels"]):
            channel = {"index": gc.get("index", k), "target": gc["target"], "samples": []}
            m = re.match(r"^/nodes/(\d+)/(translation|rotation|scale|weights)$", gc["target"])
            name = nodes[int(m.group(1))].get("name") if m and int(m.group(1)) < len(nodes) else None
            obj = bpy.data.objects.get(name) if name is not None else None
            if obj is None:
                channel["unsupported"] = "not a node channel of a Blender object: %s" % gc["target"]
            else:
                reads.append((channel, obj, m.group(2), [s["t"] for s in gc["samples"]]))
            animation["channels"].append(channel)
        out["animations"].append(animation)
    for t in sorted({t for _, _, _, times in reads for t in times}):
        depsgraph = show(scene, t * fps)
        for channel, obj, path, times in reads:
            if t not in times:
                continue
            shown = obj.evaluated_get(depsgraph)
            if path == "weights":
                value = shape_key_values(obj, depsgraph)
                if value is None:
                    channel["unsupported"] = "%s has no shape keys" % obj.name
                    continue
            else:
                value = to_gltf(shown)[path]
            channel["samples"].append({"t": t, "value": [float(c) for c in value]})
    return out


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return r.returncode, r.stdout, r.stderr


def main(argv):
    parser = argparse.ArgumentParser(prog="ci_check.py", description=__doc__.split("\n")[0])
    parser.add_argument("--cli", required=True, help="the gltf-anim executable")
    parser.add_argument("--out", required=True, help="folder for the export, the goldens, Blender's samples, the reports")
    parser.add_argument("--option", action="append", default=[], help="an export option, NAME=VALUE")
    o = parser.parse_args(argv)
    try:
        export_options = options(o.option)
    except ValueError as e:
        print("ci_check.py: %s" % e, file=sys.stderr)
        return 2
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.splitext(os.path.basename(bpy.data.filepath))[0] or "scene")
    out = os.path.abspath(o.out)
    for sub in ("export", "blender"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    glb = os.path.join(out, "export", stem + ".glb")
    # 1. export
    try:
        bpy.ops.export_scene.gltf(filepath=glb, **export_options)
    except (RuntimeError, TypeError) as e:
        lines = [line.strip() for line in str(e).splitlines() if re.match(r"^\s*[A-Za-z_.]*(Error|Exception)\b", line)]
        print("ci_check.py: the export failed: %s" % (lines[-1] if lines else str(e).strip()), file=sys.stderr)
        return 2
    print("ci_check.py: exported %s (Blender %s, options %s)" % (glb, bpy.app.version_string,
                                                               ", ".join("%s=%r" % kv for kv in sorted(export_options.items()))))
    # 2. golden: the reference evaluator's playback of the export
    suite = os.path.join(out, "suite")
    code, stdout, stderr = run([o.cli, "generate", "--from", glb, "--out", suite])
    if code != 0:
        print("ci_check.py: gltf-anim generate --from failed (exit %d): %s" % (code, (stderr or stdout).strip()), file=sys.stderr)
        return 2
    with open(os.path.join(suite, "manifest.json"), encoding="utf-8") as f:
        entry = json.load(f)["assets"][0]
    with open(os.path.join(suite, entry["samples"]), encoding="utf-8") as f:
        golden = json.load(f)
    # 3. Blender's playback at the same times
    actual = blender_samples(golden, glb_json(glb))
    with open(os.path.join(out, "blender", os.path.basename(entry["samples"])), "w", encoding="utf-8") as f:
        json.dump(actual, f, indent=1)
    # Which object each reported node is (the report names channels by their glTF target).
    nodes = glb_json(glb).get("nodes", [])
    shown = sorted({int(m.group(1)) for ga in golden["animations"] for gc in ga["channels"]
                    for m in [re.match(r"^/nodes/(\d+)/", gc["target"])] if m})
    print("ci_check.py: nodes: " + ", ".join("%d = %s" % (n, nodes[n].get("name", "?") if n < len(nodes) else "?") for n in shown))
    # 4. compare
    compare = [o.cli, "compare", "--golden", suite, "--actual", os.path.join(out, "blender")]
    for fmt in ("md", "json"):
        code, _, stderr = run(compare + ["--format", fmt, "--output", os.path.join(out, "report." + fmt)])
        if code == 2:
            print("ci_check.py: gltf-anim compare failed: %s" % stderr.strip(), file=sys.stderr)
            return 2
    code, stdout, stderr = run(compare + ["--format", "text"])
    sys.stdout.write(stdout)
    sys.stderr.write(stderr)
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []))
