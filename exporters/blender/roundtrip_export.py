"""Blender's glTF importer and exporter as a column of the exporter matrix (runs inside Blender,
one process for the whole suite):

    blender -b --factory-startup -noaudio --python-exit-code 2 \\
        --python exporters/blender/roundtrip_export.py -- SUITE_DIR OUT_DIR [CASE_ID...]

(exporters/lib/blender.mjs runs it for exporters/roundtrip.mjs, after installing Debian's
blender and python3-numpy.)

For each case of the suite's manifest with golden samples: the scene is reset to factory
settings (empty; 24 fps, what a user's new scene has), the asset is imported with
bpy.ops.import_scene.gltf and its default options, and the scene is written back with
bpy.ops.export_scene.gltf with its defaults but for EXPORT_OPTIONS (below): a .glb, the keys as
they are (export_force_sampling off: the exporter's option "Always Sample Animations"). Out:
OUT_DIR/<case>.glb, or OUT_DIR/<case>.error with one line, "import: MESSAGE" (the importer
refused the asset) or "export: MESSAGE" (the exporter raised), and OUT_DIR/versions.json
(Blender's and the add-on's versions, the export options). roundtrip.mjs then validates,
samples and compares each written file like any other exporter's.

numpy 1.24 lacks `np.bool`, which the 3.4 importer's mesh code uses: the alias is restored
before the first import, as adapters/blender/blender_adapter.py does (docs/conformance/
blender-notes.md, "numpy 1.24 and np.bool"). Exit codes: 0 every case has its .glb or .error,
2 usage, manifest or I/O error (or a Python exception that escapes: --python-exit-code 2).
Deterministic: factory settings, cases in manifest order, fixed file names.
"""

import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "adapters", "common"))
from suite_files import manifest_cases  # noqa: E402

import bpy  # noqa: E402
import numpy as np  # noqa: E402

if "bool" not in np.__dict__:
    np.bool = bool  # numpy < 1.24's alias of the builtin, which the 3.4 importer uses

# Besides the operator's defaults (export_animations, export_nla_strips, export_frame_step 1,
# export_optimize_animation_size off ... are defaults already). The same words are in the
# matrix's "what runs" column (exporters/lib/blender.mjs).
EXPORT_OPTIONS = {"export_format": "GLB", "export_force_sampling": False}


def one_line(exc):
    """The operator's own message: for a Python exception inside the add-on, the exception's
    line ("KeyError: 1.5"), not the traceback around it."""
    text = str(exc).strip()
    lines = [line.strip() for line in text.splitlines()
             if re.match(r"^\s*[A-Za-z_.]*(Error|Exception)\b", line) and "Traceback" not in line]
    line = lines[-1] if lines else (text.splitlines()[0] if text else type(exc).__name__)
    return line.replace("Error: ", "", 1)[:300]


def round_trip(asset, out_stem):
    """Imports asset into an empty factory scene and exports it to out_stem.glb; returns None
    or the one-line reason it failed."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        result = bpy.ops.import_scene.gltf(filepath=asset)
    except RuntimeError as e:  # the operator reported an error
        return "import: " + one_line(e)
    if "FINISHED" not in result:
        return "import: bpy.ops.import_scene.gltf returned %s" % sorted(result)
    try:
        result = bpy.ops.export_scene.gltf(filepath=out_stem + ".glb", **EXPORT_OPTIONS)
    except RuntimeError as e:
        return "export: " + one_line(e)
    if "FINISHED" not in result or not os.path.exists(out_stem + ".glb"):
        return "export: bpy.ops.export_scene.gltf returned %s" % sorted(result)
    return None


def main(argv):
    if len(argv) < 2:
        print("usage: blender -b --factory-startup --python roundtrip_export.py -- SUITE_DIR OUT_DIR [CASE_ID...]",
              file=sys.stderr)
        return 2
    suite, out_dir, only = argv[0], argv[1], set(argv[2:])
    # The suite's cases with golden samples, paths confined to it (the engine adapters' reader).
    cases = manifest_cases("roundtrip_export.py", suite, out_dir, only)
    if cases is None:
        return 2
    import addon_utils
    addon = next((m for m in addon_utils.modules() if m.__name__ == "io_scene_gltf2"), None)
    versions = {"blender": bpy.app.version_string,
                "io_scene_gltf2": ".".join(str(v) for v in addon.bl_info["version"]) if addon else "?",
                "numpy": np.__version__, "export": EXPORT_OPTIONS}
    start = time.monotonic()
    failed = 0
    for case_id, asset, _golden, _samples in cases:
        stem = os.path.join(out_dir, case_id)
        for old in (stem + ".glb", stem + ".error"):
            if os.path.exists(old):
                os.remove(old)
        why = round_trip(asset, stem)
        if why is not None:
            failed += 1
            if os.path.exists(stem + ".glb"):
                os.remove(stem + ".glb")
            with open(stem + ".error", "w", encoding="utf-8") as f:
                f.write(why + "\n")
            print("%s: %s" % (case_id, why), file=sys.stderr)
    with open(os.path.join(out_dir, "versions.json"), "w", encoding="utf-8") as f:
        json.dump(versions, f, indent=1, sort_keys=True)
    print("roundtrip_export.py: %d case(s) in %.1f s, %d exported, %d refused or failed (Blender %s, io_scene_gltf2 %s)"
          % (len(cases), time.monotonic() - start, len(cases) - failed, failed, versions["blender"],
             versions["io_scene_gltf2"]))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []))
