"""The suite's files as the Python adapters that run a real program (Blender, Godot, VTK) read
and write them: paths confined to the suite folder, a case's samples file name, an asset's JSON
(.gltf or the JSON chunk of a .glb) and a samples file written whole or not at all; and their
run over the suite: the manifest's cases, the loop that samples each case (the engine's part a
callback) and writes its samples file, refused or failed, and the summary line. One copy,
imported by adapters/blender, adapters/godot and adapters/vtk (the template under
adapters/templates/python keeps its own, so that it can be copied out alone)."""
import json
import os
import struct
import sys
import time


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


def load_json(path):
    """The JSON of a .gltf or .glb file (the adapter's own reading: which node a channel targets)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"glTF":
        return json.loads(data.decode("utf-8"))
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length].decode("utf-8"))


def write_json(path, content):
    """Written to a temporary beside `path`, then renamed: a failed run leaves no half file."""
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(content, f, indent=1)
    os.replace(path + ".tmp", path)


class Unsupported(Exception):
    """A channel the engine does not play: `feature` names what it lacks (written "unsupported")."""

    def __init__(self, feature):
        super().__init__("unsupported: " + feature)
        self.feature = feature


class Refused(Exception):
    """The engine refuses the asset (its importer's message): the case is written without
    animations, the reason in its generator, as the C++ template does."""


def manifest_cases(program, suite, out_dir, only):
    """The cases to run: (case id, asset path, golden samples path, output path) for every
    case of the suite's manifest with golden samples (of those named in `only`, when it names
    some), the paths confined to the suite; the output folder is made. None when the manifest
    cannot be read or a named case is not in it, the reason said on stderr (exit code 2)."""
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
                continue
            cases.append((entry["id"], inside(suite, entry["file"]), inside(suite, entry["samples"]),
                          os.path.join(out_dir, case_file_name(entry["id"]))))
        if only and named != len(only):
            print("%s: some named cases are not in the manifest" % program, file=sys.stderr)
            return None
        os.makedirs(out_dir, exist_ok=True)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("%s: %s" % (program, e), file=sys.stderr)
        return None
    return cases


def refused_samples(asset, generator, reason):
    """The samples file of a case the engine refuses: no animations, the reason in its generator."""
    return {"asset": asset, "generator": "%s (refused the asset: %s)" % (generator, reason), "animations": []}


def failed_samples(asset, generator, message):
    """The samples file of a case that failed with an error: compare reports it as failed."""
    return {"asset": asset, "generator": generator, "error": message, "animations": []}


def sample_case(engine, golden, generator):
    """The samples file of one case: per animation, the engine is evaluated once per golden time
    and every channel read from it. The engine's part: engine.check_channel(animation, channel)
    gives what sample needs to find the channel (node, path) or raises Unsupported, and
    engine.sample(animation, node, path, t) the value at t (or raises Unsupported)."""
    out = {"asset": golden["asset"], "generator": generator, "animations": []}
    for ga in golden["animations"]:
        animation = {"index": ga["index"], "name": ga.get("name", ""), "channels": []}
        playable = []
        for index, gc in enumerate(ga["channels"]):
            index = gc.get("index", index)
            channel = {"index": index, "target": gc["target"], "samples": []}
            try:
                node, path = engine.check_channel(ga["index"], index)
                playable.append((channel, node, path, gc))
            except Unsupported as u:
                channel["unsupported"] = u.feature
            animation["channels"].append(channel)
        times = sorted({s["t"] for _, _, _, gc in playable for s in gc["samples"]})
        for t in times:
            for channel, node, path, gc in playable:
                if "unsupported" in channel or not any(s["t"] == t for s in gc["samples"]):
                    continue
                try:
                    channel["samples"].append({"t": t, "value": engine.sample(ga["index"], node, path, t)})
                except Unsupported as u:
                    channel["unsupported"] = u.feature
                    channel["samples"] = []
        out["animations"].append(animation)
    return out


def run_cases(cases, engine_of, generator, before=None, after=None):
    """Samples each case in this process: its golden samples read, the engine made for its asset
    by `engine_of(asset)` (the engine's part: the import) and sampled by sample_case, the
    samples file written whole. An engine's Refused is written as
    refused_samples; any other exception fails that case alone (written as failed_samples once
    the golden samples were read) and the run goes on. before(case_id) and after(case_id,
    outcome), outcome "written", "refused" or "failed", let a supervisor follow the run.
    Returns the counts (written, refused, failed); a refused case is written too."""
    written = failed = refused = 0
    for case_id, asset, samples, path in cases:
        if before:
            before(case_id)
        outcome = "failed"
        golden = None
        try:
            with open(samples, encoding="utf-8") as f:
                golden = json.load(f)
            try:
                content = sample_case(engine_of(asset), golden, generator)
                outcome = "written"
            except Refused as r:
                print("%s: refused: %s" % (case_id, r), file=sys.stderr)
                content = refused_samples(golden["asset"], generator, r)
                outcome = "refused"
            write_json(path, content)
            written += 1
            refused += outcome == "refused"
        except Exception as e:  # that case's failure, with its message; the run goes on
            outcome = "failed"
            message = "%s: %s" % (type(e).__name__, e)
            print("%s: error: %s" % (case_id, message), file=sys.stderr)
            failed += 1
            if golden is not None:
                try:
                    write_json(path, failed_samples(golden.get("asset", "") if isinstance(golden, dict) else "",
                                                    generator, message))
                except OSError as w:
                    print("%s: error: %s" % (case_id, w), file=sys.stderr)
        if after:
            after(case_id, outcome)
    return written, refused, failed


def print_summary(program, cases, started, written, refused, failed, out_dir):
    """The run's time on stderr and its summary line on stdout (the line the runners keep)."""
    print("%s: %d case(s) in %.1f s" % (program, len(cases), time.monotonic() - started), file=sys.stderr)
    print("%s: %d case(s) written to %s, %d refused by the importer, %d failed with an error"
          % (program, written, out_dir, refused, failed))
    sys.stdout.flush()
