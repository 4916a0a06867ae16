"""The suite's files as the Python adapters that run a real program (Blender, Godot, VTK) read
and write them: paths confined to the suite folder, a case's samples file name, an asset's JSON
(.gltf or the JSON chunk of a .glb) and a samples file written whole or not at all. One copy,
imported by adapters/blender, adapters/godot and adapters/vtk (the template under
adapters/templates/python keeps its own, so that it can be copied out alone)."""
import json
import os
import struct


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
