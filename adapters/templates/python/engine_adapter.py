#!/usr/bin/env python3
"""A minimal conformance adapter in Python: copy this file and replace the Engine
class with calls into your engine. The rest (which channels to evaluate at which
times, the samples file format) needs only the standard library.

    python3 engine_adapter.py SUITE_DIR OUT_DIR [CASE_ID...]

For each case of SUITE_DIR/manifest.json (or only the ones named) it reads the
golden samples file to learn which channels to evaluate at which times, asks the
engine for each value, and writes OUT_DIR/<case id>.samples.json in the format of
docs/samples.schema.json. It reads only inside SUITE_DIR (a manifest's paths are
relative to it: no absolute path, no "..", no symbolic link out) and writes only in
OUT_DIR (a case id is a plain file name); a manifest that says otherwise is an error. Then judge one case with
    gltf-anim compare --golden SUITE_DIR --actual OUT_DIR/<case id>.samples.json
or all of them with --actual OUT_DIR. Exit codes: 0 written, 2 usage or I/O error.

The placeholder Engine is a small glTF 2.0 sampler of its own (core channels of
translation, rotation, scale and morph weights; STEP, LINEAR and CUBICSPLINE;
FLOAT keyframes; .gltf with .bin or data: URIs, and .glb), written from the glTF
specification's Appendix C and sharing no code with gltf-anim, so that the
template passes on the core cases as it is. A channel it does not play (extension
pointers, integer keyframes...) is written with "unsupported": FEATURE and no samples:
compare counts its case as not run (unsupported: FEATURE), not as a failure. An
exception while loading or sampling a case is that case's failure: its samples file
holds "error": MESSAGE (compare fails the case with it) and the run goes on.
"""

import base64
import bisect
import json
import math
import os
import struct
import sys


class Unsupported(Exception):
    """Raised by Engine.sample for a channel the engine cannot play: `feature` names what
    it lacks ("KHR_animation_pointer", "CUBICSPLINE", "morph weights", ...)."""

    def __init__(self, feature):
        super().__init__("unsupported: " + feature)
        self.feature = feature


# ---- Your engine goes here -----------------------------------------------------------
# Declare what your engine does not play: a channel that needs one of these is written
# as unsupported instead of being sampled (empty: every channel is sampled).
UNSUPPORTED_INTERPOLATIONS = set()   # e.g. {"CUBICSPLINE"}
PLAYS_MORPH_WEIGHTS = True           # False: weights channels are "morph weights" unsupported


class Engine:
    """Placeholder engine: loads an asset and samples its channels."""

    def __init__(self, asset_path):
        # Load the asset (.gltf or .glb) with your engine.
        self.gltf, self.bin_chunk = load_gltf(asset_path)
        self.folder = os.path.dirname(asset_path)
        self.buffers = {}

    def sample(self, animation, channel, target, t):
        """The value of channel `channel` of animation `animation` (glTF indices),
        which animates the property at JSON pointer `target` ("/nodes/0/rotation"),
        at `t` seconds: a list of floats (rotations as x, y, z, w; morph weights one
        per target). Raises Unsupported(FEATURE) when the engine does not play this
        channel; any other exception fails the case with its message."""
        anim = self.gltf["animations"][animation]
        ch = anim["channels"][channel]
        if "sampler" not in ch or "target" not in ch:
            # Only an extension's sampler or target (EXT_animation_sqlerp without its LINEAR
            # fallback, KHR_animation2's "targetpointer"): a core engine has nothing to play.
            raise Unsupported(", ".join(sorted(ch.get("extensions", {})))
                              or ", ".join(self.gltf.get("extensionsUsed", []))
                              or "a channel without sampler or target")
        sampler = anim["samplers"][ch["sampler"]]
        target = ch["target"]
        for extension in sorted(target.get("extensions", {})):
            raise Unsupported(extension)  # KHR_animation_pointer, KHR_animation2: not played
        for extension in sorted(sampler.get("extensions", {})):
            raise Unsupported(extension)  # EXT_animation_sqlerp: not played
        path = target.get("path")
        if "node" not in target or path not in ("translation", "rotation", "scale", "weights"):
            raise Unsupported("target path %s" % (path,))
        if path == "weights" and not PLAYS_MORPH_WEIGHTS:
            raise Unsupported("morph weights")
        interpolation = sampler.get("interpolation", "LINEAR")
        if interpolation not in ("STEP", "LINEAR", "CUBICSPLINE") or interpolation in UNSUPPORTED_INTERPOLATIONS:
            raise Unsupported(interpolation)
        times = self.accessor(sampler["input"])
        values = self.accessor(sampler["output"])
        return evaluate(interpolation, path, [k[0] for k in times], values, t)

    def accessor(self, index):
        """The elements of a FLOAT accessor, as lists of floats (Unsupported otherwise)."""
        acc = self.gltf["accessors"][index]
        if acc.get("componentType") != 5126:
            raise Unsupported("normalized integer keyframes")
        if "sparse" in acc or "bufferView" not in acc:
            raise Unsupported("sparse accessors")
        width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[acc["type"]]
        view = self.gltf["bufferViews"][acc["bufferView"]]
        data = self.buffer(view["buffer"])
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        stride = view.get("byteStride", 4 * width)
        return [list(struct.unpack_from("<%df" % width, data, start + i * stride)) for i in range(acc["count"])]

    def buffer(self, index):
        if index not in self.buffers:
            uri = self.gltf["buffers"][index].get("uri")
            if uri is None:
                self.buffers[index] = self.bin_chunk
            elif uri.startswith("data:"):
                self.buffers[index] = base64.b64decode(uri.split(",", 1)[1])
            else:
                # Beside the asset, never elsewhere: a URI is the asset's, not the user's.
                with open(inside(self.folder, uri), "rb") as f:
                    self.buffers[index] = f.read()
        return self.buffers[index]


def inside(folder, relative):
    """folder/relative as a real path when it stays inside folder: not absolute, no "..",
    no symbolic link leading out. ValueError otherwise."""
    if not isinstance(relative, str) or not relative or os.path.isabs(relative) or ".." in relative.replace("\\", "/").split("/"):
        raise ValueError("%r is not a path inside %s" % (relative, folder))
    base = os.path.realpath(folder)
    path = os.path.realpath(os.path.join(base, relative))
    if os.path.commonpath([base, path]) != base:
        raise ValueError("%r leads out of %s" % (relative, folder))
    return path


def case_file_name(case_id):
    """The output file name of a case: its id must be a plain file name (no folder)."""
    if not isinstance(case_id, str) or case_id in ("", ".", "..") or any(c in case_id for c in "/\\\0"):
        raise ValueError("case id %r is not a plain file name" % (case_id,))
    return case_id + ".samples.json"


def load_gltf(path):
    """(JSON object, BIN chunk or None) of a .gltf or .glb file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"glTF":
        return json.loads(data.decode("utf-8")), None
    json_length = struct.unpack_from("<I", data, 12)[0]
    gltf = json.loads(data[20:20 + json_length].decode("utf-8"))
    bin_chunk = None
    offset = 20 + json_length
    if offset + 8 <= len(data):
        bin_length = struct.unpack_from("<I", data, offset)[0]
        bin_chunk = data[offset + 8:offset + 8 + bin_length]
    return gltf, bin_chunk


def evaluate(interpolation, path, times, values, t):
    """glTF 2.0 Appendix C: the value at t of one sampler (times increasing)."""
    n = len(times)
    flat = [x for v in values for x in v]
    width = len(flat) // (n * (3 if interpolation == "CUBICSPLINE" else 1))  # floats per key

    def key(k, part=1):  # CUBICSPLINE keys are (in-tangent, value, out-tangent)
        if interpolation != "CUBICSPLINE":
            return flat[k * width:(k + 1) * width]
        base = (3 * k + part) * width
        return flat[base:base + width]

    rotation = path == "rotation"
    # Before the first key and after the last: clamped. At a key: its value as-is.
    if t <= times[0]:
        return finish(key(0), rotation)
    if t >= times[-1]:
        return finish(key(n - 1), rotation)
    k = bisect.bisect_right(times, t) - 1  # the last key at or before t
    if times[k] == t or interpolation == "STEP":
        return finish(key(k), rotation)
    dt = times[k + 1] - times[k]
    s = (t - times[k]) / dt
    a, b = key(k), key(k + 1)
    if interpolation == "CUBICSPLINE":
        out_tangent, in_tangent = key(k, 2), key(k + 1, 0)
        h00, h10 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s
        h01, h11 = -2 * s**3 + 3 * s**2, s**3 - s**2
        v = [h00 * a[i] + h10 * dt * out_tangent[i] + h01 * b[i] + h11 * dt * in_tangent[i] for i in range(width)]
        return finish(v, rotation)
    if rotation:
        return slerp(a, b, s)
    return [a[i] + s * (b[i] - a[i]) for i in range(width)]


def slerp(a, b, s):
    """Spherical linear interpolation along the shortest path."""
    dot = sum(x * y for x, y in zip(a, b))
    if dot < 0:
        b, dot = [-x for x in b], -dot
    if dot > 0.9995:  # nearly the same rotation: normalized lerp
        return normalize([x + s * (y - x) for x, y in zip(a, b)])
    theta = math.acos(min(dot, 1.0))
    wa, wb = math.sin((1 - s) * theta) / math.sin(theta), math.sin(s * theta) / math.sin(theta)
    return [wa * x + wb * y for x, y in zip(a, b)]


def normalize(q):
    length = math.sqrt(sum(x * x for x in q))
    return [x / length for x in q]


def finish(v, rotation):
    return normalize(v) if rotation else list(v)
# ----------------------------------------------------------------------------------------


GENERATOR = "engine_adapter.py template"


def sample_case(engine, golden):
    """The samples file of one case: the golden file's animations, channels and times,
    the engine's values; a channel the engine does not play is declared unsupported."""
    out = {"asset": golden["asset"], "generator": GENERATOR, "animations": []}
    for ga in golden["animations"]:
        animation = {"index": ga["index"], "name": ga.get("name", ""), "channels": []}
        for index, gc in enumerate(ga["channels"]):
            index = gc.get("index", index)
            channel = {"index": index, "target": gc["target"], "samples": []}
            try:
                for s in gc["samples"]:
                    channel["samples"].append({"t": s["t"], "value": engine.sample(ga["index"], index, gc["target"], s["t"])})
            except Unsupported as u:
                channel = {"index": index, "target": gc["target"], "unsupported": u.feature, "samples": []}
            animation["channels"].append(channel)
        out["animations"].append(animation)
    return out


def write_json(path, content):
    """Written to a temporary and renamed: a failed write leaves no partial file."""
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(content, f, indent=1)
    os.replace(path + ".tmp", path)


def main(argv):
    """Exit codes: 0 every case written, 1 some case failed with an error (reported with the
    case; the run goes on), 2 usage, manifest or I/O error (every path is checked before
    anything is written)."""
    if len(argv) < 3:
        print("usage: engine_adapter.py SUITE_DIR OUT_DIR [CASE_ID...]", file=sys.stderr)
        return 2
    suite, out_dir, only = argv[1], argv[2], set(argv[3:])
    try:
        with open(os.path.join(suite, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        entries = manifest["assets"] if isinstance(manifest, dict) else manifest
        cases = []
        named = 0
        for entry in entries:
            if only and entry["id"] not in only:
                continue
            named += 1
            if not entry.get("samples"):
                continue  # an invalid asset: nothing to play
            cases.append((entry["id"], inside(suite, entry["file"]), inside(suite, entry["samples"]),
                          os.path.join(out_dir, case_file_name(entry["id"]))))
        if only and named != len(only):
            print("engine_adapter.py: some named cases are not in the manifest", file=sys.stderr)
            return 2
        os.makedirs(out_dir, exist_ok=True)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("engine_adapter.py: %s" % e, file=sys.stderr)
        return 2
    written = failed = 0
    for case_id, asset, samples, path in cases:
        try:
            with open(samples, encoding="utf-8") as f:
                golden = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: error: %s" % (case_id, e), file=sys.stderr)
            failed += 1
            continue
        try:
            write_json(path, sample_case(Engine(asset), golden))
            written += 1
        except Exception as e:  # that case's failure, with its message, not the end of the run
            message = "%s: %s" % (type(e).__name__, e)
            print("%s: error: %s" % (case_id, message), file=sys.stderr)
            failed += 1
            try:
                asset_name = golden.get("asset", "") if isinstance(golden, dict) else ""
                write_json(path, {"asset": asset_name, "generator": GENERATOR,
                                  "error": message, "animations": []})
            except OSError as w:
                print("%s: error: %s" % (case_id, w), file=sys.stderr)
    print("engine_adapter.py: %d case(s) written to %s, %d failed with an error" % (written, out_dir, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
