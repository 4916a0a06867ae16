#!/usr/bin/env python3
"""A model of what Godot 3.2.3 plays for a glTF node transform, checked against the Godot
adapter's samples: the evidence behind docs/conformance/godot-notes.md.

    python3 adapters/godot/bake_model.py SUITE_DIR SAMPLES_DIR [--fps 15] [CASE_ID...]

For every LINEAR, STEP and CUBICSPLINE translation, rotation and scale channel with float
outputs of the suite (or of the named cases), the model computes, in the words of the Godot
3.2.3 source:

- the import's bake (EditorSceneImporterGLTF::_import_animation): from time 0, a float time
  step 1/fps added up, to the animation's length (the largest key time of its channels,
  inserted exactly as the last frame), each frame's value from _interpolate_track: STEP the
  previous key, LINEAR lerp (vectors) or Quat::slerp then normalized (rotations), CUBICSPLINE
  the Bezier bezier(v_k, v_k + b_k, v_k+1 + a_k+1, v_k+1, s) for vectors and
  slerp(v_k, v_k+1, s) for rotations; before the first key the first value, after the last the
  last;
- the playback (Animation::transform_track_interpolate): the time clamped to [0, length] (or
  wrapped, for an animation whose name begins or ends with "loop" or "cycle"), lerp
  (vectors) or Quat::slerp (rotations, the shorter arc) between the two baked frames around it;

and prints, per case and channel, the largest difference from the samples (vector: largest
component difference; rotation: angle in radians). Exit 0 when every channel agrees within
2e-5 (vectors, relative to the value's size) and 2e-5 rad, 1 otherwise. Run it on samples
written with the animation optimizer off (GLTF_ANIM_GODOT_IMPORT=
"animation/optimizer/enabled=false"), which the model does not include. Standard library only;
the model runs in doubles, Godot in float32 (the tolerances above cover that).
"""

import base64
import bisect
import json
import math
import os
import struct
import sys

COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def load(suite, entry):
    """The asset's JSON and a float-accessor reader (None for integer, sparse or bufferView-less
    accessors: not modelled)."""
    path = os.path.join(suite, entry["file"])
    with open(path, "rb") as f:
        data = f.read()
    chunk = b""
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        gltf = json.loads(data[20:20 + length])
        offset = 20 + length
        if offset + 8 <= len(data):
            chunk_length = struct.unpack_from("<I", data, offset)[0]
            chunk = data[offset + 8:offset + 8 + chunk_length]
    else:
        gltf = json.loads(data)
    buffers = []
    for b in gltf.get("buffers", []):
        uri = b.get("uri")
        if uri is None:
            buffers.append(chunk)
        elif uri.startswith("data:"):
            buffers.append(base64.b64decode(uri.split(",", 1)[1]))
        else:
            with open(os.path.join(os.path.dirname(path), uri), "rb") as f:
                buffers.append(f.read())

    def accessor(index):
        a = gltf["accessors"][index]
        if a.get("componentType") != 5126 or "sparse" in a or "bufferView" not in a:
            return None
        view = gltf["bufferViews"][a["bufferView"]]
        n = COMPONENTS[a["type"]]
        stride = view.get("byteStride", 4 * n)
        base = view.get("byteOffset", 0) + a.get("byteOffset", 0)
        return [list(struct.unpack_from("<%df" % n, buffers[view["buffer"]], base + i * stride))
                for i in range(a["count"])]
    return gltf, accessor


def normalized(q):
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def slerp(a, b, t):
    """Godot 3's Quat::slerp: the shorter arc; a linear blend when nearly parallel."""
    cosom = sum(x * y for x, y in zip(a, b))
    if cosom < 0:
        cosom, b = -cosom, [-x for x in b]
    if 1 - cosom > 1e-6:
        omega = math.acos(min(1.0, cosom))
        s0, s1 = math.sin((1 - t) * omega) / math.sin(omega), math.sin(t * omega) / math.sin(omega)
    else:
        s0, s1 = 1 - t, t
    return [s0 * x + s1 * y for x, y in zip(a, b)]


def interpolate_track(times, values, t, interpolation, rotation):
    """_interpolate_track<T> of editor_scene_importer_gltf.cpp."""
    idx = -1
    for key in times:
        if key > t:
            break
        idx += 1
    n = len(times)
    cubic = interpolation == "CUBICSPLINE"
    if idx == -1:
        v = values[1 if cubic else 0]
    elif idx >= n - 1:
        v = values[(n - 1) * 3 + 1 if cubic else n - 1]
    else:
        s = (t - times[idx]) / (times[idx + 1] - times[idx])
        if interpolation == "STEP":
            v = values[idx]
        elif interpolation == "LINEAR":
            if rotation:
                return normalized(slerp(normalized(values[idx]), normalized(values[idx + 1]), s))
            v = [a + (b - a) * s for a, b in zip(values[idx], values[idx + 1])]
        elif rotation:  # EditorSceneImporterGLTFInterpolate<Quat>::bezier: the tangents ignored
            return normalized(slerp(normalized(values[idx * 3 + 1]), normalized(values[idx * 3 + 4]), s))
        else:  # EditorSceneImporterGLTFInterpolate<T>::bezier with Godot's control points
            start, end = values[idx * 3 + 1], values[idx * 3 + 4]
            c1 = [a + b for a, b in zip(start, values[idx * 3 + 2])]
            c2 = [a + b for a, b in zip(end, values[idx * 3 + 3])]
            o = 1 - s
            return [p * o ** 3 + q * o * o * s * 3 + r * o * s * s * 3 + e * s ** 3
                    for p, q, r, e in zip(start, c1, c2, end)]
    return normalized(v) if rotation else list(v)


def bake(times, values, interpolation, rotation, length, fps):
    frames, baked, time, last = [], [], 0.0, False
    while True:
        frames.append(time)
        baked.append(interpolate_track(times, values, time, interpolation, rotation))
        if last:
            break
        time = f32(time + f32(1.0 / fps))
        if time >= length:
            last, time = True, length
    return frames, baked


def player_time(t, length, loop):
    """AnimationPlayer::_animation_process_data: clamped to [0, length]; a looping animation
    wraps with fposmod, a non-zero multiple of the length giving the length."""
    if not loop:
        return min(max(t, 0.0), length)
    wrapped = math.fmod(t, length)
    if wrapped < 0:
        wrapped += length
    return length if wrapped == 0 and t != 0 else wrapped


def play(frames, baked, t, rotation):
    if len(frames) == 1:
        return baked[0]
    k = min(max(bisect.bisect_right(frames, t) - 1, 0), len(frames) - 2)
    w = (t - frames[k]) / (frames[k + 1] - frames[k])
    if rotation:
        return slerp(baked[k], baked[k + 1], w)
    return [a + (b - a) * w for a, b in zip(baked[k], baked[k + 1])]


def main(argv):
    fps = 15
    if "--fps" in argv:
        i = argv.index("--fps")
        fps = float(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    suite, samples_dir, only = argv[0], argv[1], set(argv[2:])
    with open(os.path.join(suite, "manifest.json"), encoding="utf-8") as f:
        entries = json.load(f)["assets"]
    worst_vector = worst_angle = 0.0
    bad = 0
    for entry in entries:
        if (only and entry["id"] not in only) or not entry.get("samples"):
            continue
        try:
            with open(os.path.join(samples_dir, entry["id"] + ".samples.json"), encoding="utf-8") as f:
                actual = json.load(f)
        except OSError:
            continue
        gltf, accessor = load(suite, entry)
        for aa in actual.get("animations", []):
            animation = gltf["animations"][aa["index"]]
            inputs = [accessor(animation["samplers"][c["sampler"]]["input"])
                      for c in animation["channels"] if "sampler" in c and "node" in c.get("target", {})]
            if not inputs or any(i is None for i in inputs):
                continue
            length = max(max(k[0] for k in i) for i in inputs)
            name = animation.get("name", "")  # _parse_animations: these names loop
            loop = name.startswith(("loop", "cycle")) or name.endswith(("loop", "cycle"))
            for ac in aa["channels"]:
                channel = animation["channels"][ac["index"]]
                path = channel.get("target", {}).get("path")
                if path not in ("translation", "rotation", "scale") or not ac.get("samples"):
                    continue
                sampler = animation["samplers"][channel["sampler"]]
                interpolation = sampler.get("interpolation", "LINEAR")
                times, values = accessor(sampler["input"]), accessor(sampler["output"])
                if values is None or interpolation not in ("LINEAR", "STEP", "CUBICSPLINE"):
                    continue
                rotation = path == "rotation"
                frames, baked = bake([k[0] for k in times], values, interpolation, rotation, length, fps)
                difference = 0.0
                for sample in ac["samples"]:
                    model = play(frames, baked, player_time(sample["t"], length, loop), rotation)
                    if rotation:
                        dot = abs(sum(x * y for x, y in zip(normalized(model), normalized(sample["value"]))))
                        difference = max(difference, 2 * math.acos(min(1.0, dot)))
                    else:
                        size = max([1.0] + [abs(x) for x in model])
                        difference = max(difference, max(abs(m - a) for m, a in zip(model, sample["value"])) / size)
                fine = difference <= 2e-5
                bad += not fine
                if rotation:
                    worst_angle = max(worst_angle, difference)
                else:
                    worst_vector = max(worst_vector, difference)
                print("%-4s %-36s %-12s %-11s %.3g%s" % ("ok" if fine else "DIFF", entry["id"], channel["target"]["path"],
                                                        interpolation, difference, " rad" if rotation else ""))
    print("bake_model.py: largest difference %.3g (vectors, relative) and %.3g rad (rotations); %d channel(s) beyond 2e-5 (2e-5 rad)"
          % (worst_vector, worst_angle, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
