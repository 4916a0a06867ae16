#!/usr/bin/env python3
"""Blender's glTF exports against Blender's own playback: the table of
docs/conformance/blender-export.md, from what export_scenes.py left in WORK.

    python3 exporters/blender/report.py --work WORK --cli GLTF_ANIM --out FILE

For every object and export mode, `gltf-anim sample` plays the exported file with the reference
evaluator at Blender's dense times (every 1/8 frame), and each channel's values are compared
with what Blender showed at the same times: translation, scale and weights by the largest
absolute difference of a component, rotations by the largest angle between the two rotations
(radians), and the node's whole local matrix (T R S composed, glTF axes) by its largest element
difference, which tells a different decomposition of the same transform from a different
transform. A property the export does not animate is played as the node's static value.
Standard library only; deterministic (the numbers are rounded to two significant digits).
"""

import argparse
import json
import math
import os
import struct
import subprocess
import sys

PROPERTIES = ("translation", "rotation", "scale", "weights")


def glb_json(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length].decode("utf-8"))


def qmul(a, b):  # (x, y, z, w)
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def normalized(q):
    n = math.sqrt(sum(c * c for c in q))
    return [c / n for c in q]


def angle(a, b):
    a, b = normalized(a), normalized(b)
    d = min(1.0, abs(sum(x * y for x, y in zip(a, b))))
    return 2 * math.acos(d)


def matrix(t, r, s):
    """Column-major 4x4 of T R S (glTF's node transform)."""
    x, y, z, w = normalized(r)
    rot = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
           [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
           [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    m = [[rot[i][j] * s[j] for j in range(3)] + [t[i]] for i in range(3)] + [[0, 0, 0, 1]]
    return [m[row][col] for col in range(4) for row in range(4)]


def fmt(x):
    if x == 0:
        return "0"
    return "%.2g" % x


def sample(cli, glb, times):
    """{(node, property): (values per time, interpolation, key count)} of an exported file."""
    result = subprocess.run([cli, "sample", glb, "--times=" + ",".join(repr(t) for t in times)],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError("gltf-anim sample %s: exit %d: %s" % (glb, result.returncode, result.stderr.strip()))
    samples = json.loads(result.stdout)
    channels = {}
    for animation in samples["animations"]:
        for ch in animation["channels"]:
            _, _, node, prop = ch["target"].split("/")
            by_time = {s["t"]: s["value"] for s in ch["samples"]}
            channels[(int(node), prop)] = ([by_time[t] for t in times], ch["interpolation"], len(ch["keyframes"]))
    return channels


def compare(blender, values, prop):
    """(largest difference, index of the time where it is)."""
    worst, where = 0.0, 0
    for i, (a, b) in enumerate(zip(blender, values)):
        if prop == "rotation":
            e = angle(a, b)
        else:
            e = max(abs(x - y) for x, y in zip(a, b))
        if e > worst:
            worst, where = e, i
    return worst, where


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--out", required=True)
    o = parser.parse_args(argv)
    with open(os.path.join(o.work, "blender.json"), encoding="utf-8") as f:
        truth = json.load(f)
    with open(os.path.join(o.work, "versions.json"), encoding="utf-8") as f:
        versions = json.load(f)
    times, fps, substeps = truth["times"], truth["fps"], truth["substeps"]
    # The glTF time of frame f: f / fps rounded to float32, as the exporter writes a key at frame
    # f (Keyframe.seconds, then a FLOAT accessor). Played at f / fps exactly, a STEP key at a frame
    # whose time float32 rounds up would still show the key before: not the exporter's doing.
    gltf_times = [struct.unpack("<f", struct.pack("<f", t))[0] for t in times]
    modes = list(versions["modes"])
    rows = []  # (object, property, {mode: cell})
    for name, shown in sorted(truth["objects"].items()):
        cells = {p: {} for p in PROPERTIES + ("matrix",) if p in shown or p in ("matrix",)}
        for mode in modes:
            stem = os.path.join(o.work, "%s.%s" % (name, mode))
            if os.path.exists(stem + ".error"):
                with open(stem + ".error", encoding="utf-8") as f:
                    message = f.read().strip()
                for p in cells:
                    cells[p][mode] = "export fails: %s" % message
                continue
            gltf = glb_json(stem + ".glb")
            node = next(i for i, n in enumerate(gltf["nodes"]) if n.get("name") == name)
            channels = sample(o.cli, stem + ".glb", gltf_times)
            static = gltf["nodes"][node]
            played = {}
            for p in PROPERTIES:
                if p not in shown:
                    continue
                if (node, p) in channels:
                    values, interpolation, keys = channels[(node, p)]
                    how = "%s, %d keys" % (interpolation, keys)
                else:
                    default = {"translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}.get(p)
                    if p == "weights":
                        mesh = gltf["meshes"][static["mesh"]] if "mesh" in static else {}
                        default = static.get("weights", mesh.get("weights", [0] * len(shown[p][0])))
                    values = [static.get(p, default)] * len(times)
                    how = "not animated"
                played[p] = values
                worst, where = compare(shown[p], values, p)
                at = " at frame %s" % fmt(times[where] * fps) if worst > 0 else ""
                cells[p][mode] = "%s%s (%s)" % (fmt(worst), at, how)
            composed = [matrix(t, r, s) for t, r, s in zip(played["translation"], played["rotation"], played["scale"])]
            worst, where = compare(shown["matrix"], composed, "matrix")
            cells["matrix"][mode] = fmt(worst) + (" at frame %s" % fmt(times[where] * fps) if worst > 0 else "")
        for p, by_mode in cells.items():
            rows.append((name, p, by_mode))
    first, last = times[0] * fps, times[-1] * fps
    out = []
    out.append("# Blender's glTF exporter against Blender's own playback")
    out.append("")
    debian = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "blender"], capture_output=True, text=True, check=False)
    out.append("Blender %s, its glTF add-on io\\_scene\\_gltf2 %s (Debian's `blender` %s). A scene authored in bpy"
               % (versions["blender"], versions["io_scene_gltf2"], debian.stdout.strip() or "?"))
    out.append("(`exporters/blender/export_scenes.py`: one object per feature, %d fps, keys from frame 1 to 49) is" % fps)
    out.append("exported object by object with `bpy.ops.export_scene.gltf` in three ways, and each export's")
    out.append("playback (`gltf-anim sample`, the reference evaluator) is compared with what Blender itself shows")
    out.append("(`scene.frame_set(frame, subframe)`) every 1/%d frame from frame %s to %s (glTF time: frame / %d" % (substeps, fmt(first), fmt(last), fps))
    out.append("rounded to float32, as the exporter writes key times), in glTF's axes: the")
    out.append("largest difference per channel (rotations: the angle in radians), with the frame where it is")
    out.append("and what the export holds (interpolation, key count). `matrix`: the node's whole local")
    out.append("transform, composed, largest element difference. Explained in")
    out.append("[blender-export-notes.md](blender-export-notes.md). Generated by `bash exporters/blender/run.sh`;")
    out.append("do not edit (CTest `blender_export_fidelity` checks that it is current).")
    out.append("")
    out.append("| export | options (besides the defaults) |")
    out.append("|---|---|")
    for mode in modes:
        opts = ", ".join("`%s=%s`" % (k, v) for k, v in sorted(versions["modes"][mode].items()))
        out.append("| %s | %s |" % (mode, opts))
    out.append("")
    out.append("| object | channel | " + " | ".join(modes) + " |")
    out.append("|---|---|" + "---|" * len(modes))
    for name, p, by_mode in rows:
        out.append("| %s | %s | %s |" % (name, p, " | ".join(by_mode[m] for m in modes)))
    text = "\n".join(out) + "\n"
    with open(o.out, "w", encoding="utf-8") as f:
        f.write(text)
    print("report.py: %d objects x %d exports -> %s" % (len(truth["objects"]), len(modes), o.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
