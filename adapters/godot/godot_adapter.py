#!/usr/bin/env python3
"""Godot 3.2's glTF import and AnimationPlayer through the conformance suite: the Python
adapter template (adapters/templates/python/engine_adapter.py) with Godot as its engine.

    python3 adapters/godot/godot_adapter.py SUITE_DIR OUT_DIR [CASE_ID...]

(adapters/godot/run.sh installs Debian's godot3-server first.) Godot 3.2 has no runtime glTF
loader: its editor imports a .gltf/.glb into a scene (EditorSceneImporterGLTF, then
ResourceImporterScene with its default options: animations baked at 15 fps, the animation
optimizer on). So, for the whole run:

1. A scratch Godot project (a temporary folder; HOME and the XDG folders point into it, so no
   editor settings or caches of the user are read or written) gets a copy of each case's asset
   and the files its URIs name (read only inside SUITE_DIR), one folder per case.
2. `godot3-server --path PROJECT --editor --quit`: the headless editor imports every asset
   (PROJECT/.import/*.scn), as opening the project in the editor would.
3. `godot3-server --path PROJECT -s sample.gd`: per case the imported scene is instanced, its
   AnimationPlayer's animation assigned, and at every golden time `seek(t, true)` applies it;
   node transforms (translation, rotation quaternion, scale) and blend shape values are read
   back (sample.gd).

Godot and glTF are both Y-up and right-handed, and the importer converts nothing (a node's
TRS becomes its Transform as it is): the values are compared as read. Channels the importer
does not read are written "unsupported" with the reason (no target.node: KHR_animation_pointer,
KHR_animation2); an asset the importer refuses (no scene imported) is written without
animations, the reason in its generator, as the Blender adapter does. Exit codes: 0 every case
written, 1 some case failed with an error (written with its "error"), 2 usage, manifest, I/O or
Godot errors.
"""

import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from suite_files import (  # noqa: E402
    Unsupported, failed_samples, inside, load_json, manifest_cases, print_summary, refused_samples, write_json)
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GODOT = os.environ.get("GLTF_ANIM_GODOT", "godot3-server")
GENERATOR = "adapters/godot/godot_adapter.py"
# GLTF_ANIM_GODOT_IMPORT="animation/fps=1024;animation/optimizer/enabled=false": import options
# other than Godot's defaults, written into each asset's .import file before the import (for
# experiments such as the ones godot-notes.md quotes; the matrix's row uses the defaults).
IMPORT_OPTIONS = [o for o in os.environ.get("GLTF_ANIM_GODOT_IMPORT", "").split(";") if o]
PROJECT_GODOT = 'config_version=4\n\n[application]\n\nconfig/name="gltf-anim conformance"\n'


def child_indices(gltf, node):
    """The child indices leading from the imported scene's root to glTF node `node`: the
    importer (_generate_scene_node) adds the scene's nodes to the root in order, then each
    node's children in order (the AnimationPlayer comes after them)."""
    parent = {}
    for index, n in enumerate(gltf.get("nodes", [])):
        for child in n.get("children", []):
            parent[child] = index
    chain = [node]
    while chain[-1] in parent:
        chain.append(parent[chain[-1]])
    scenes = gltf.get("scenes") or []
    if gltf.get("scene", 0) >= len(scenes):
        # _parse_scenes: ERR_FAIL_COND_V(!state.json.has("scenes"), ...): nothing is imported
        raise Unsupported("an asset without its scene (the importer imports nothing)")
    roots = scenes[gltf.get("scene", 0)].get("nodes", [])
    if chain[-1] not in roots:
        raise Unsupported("a node outside the imported scene")
    indices = [roots.index(chain[-1])]
    for k in range(len(chain) - 1, 0, -1):
        indices.append(gltf["nodes"][chain[k]]["children"].index(chain[k - 1]))
    return indices


def check_channel(gltf, animation, channel):
    """glTF channel -> (node, path), or Unsupported: the channels
    EditorSceneImporterGLTF::_parse_animations reads."""
    ch = gltf["animations"][animation]["channels"][channel]
    target = ch.get("target", {})
    if "node" not in target or "path" not in target:
        # _parse_animations: `if (!t.has("node") || !t.has("path")) continue;`
        raise Unsupported(", ".join(sorted(target.get("extensions", {})))
                          or ", ".join(sorted(ch.get("extensions", {})))
                          or ", ".join(gltf.get("extensionsUsed", []))
                          or "a channel without target.node")
    if target["path"] not in ("translation", "rotation", "scale", "weights"):
        raise Unsupported("target path %s" % target["path"])
    return target["node"], target["path"]


def asset_files(gltf):
    """The relative URIs of the asset's buffers and images (data: URIs excluded), each with
    whether the case needs it: a buffer always; an image only when the suite has it (a suite
    made by `generate --from` keeps an asset whose textures were missing, with a note: its
    animation needs none, and Godot imports the asset without them)."""
    uris = []
    for key in ("buffers", "images"):
        for item in gltf.get(key, []):
            uri = item.get("uri")
            if isinstance(uri, str) and not uri.startswith("data:"):
                uris.append((uri, key == "buffers"))
    return uris


def prepare_case(number, case_id, asset, golden, project, suite):
    """Copies the case's files into the project and returns its job entry and the samples
    file's skeleton (channels Godot cannot play already marked unsupported)."""
    gltf = load_json(asset)
    folder = os.path.join(project, "cases", "%03d" % number)
    os.makedirs(folder)
    shutil.copy(asset, folder)
    if IMPORT_OPTIONS:  # an experiment's import options (the matrix uses Godot's defaults)
        with open(os.path.join(folder, os.path.basename(asset) + ".import"), "w", encoding="utf-8") as f:
            f.write('[remap]\n\nimporter="scene"\n\n[params]\n\n' + "".join(o + "\n" for o in IMPORT_OPTIONS))
    for uri, needed in asset_files(gltf):
        inside(os.path.dirname(asset), uri)  # no absolute path, no "..": a file beside the asset
        source = inside(suite, os.path.relpath(os.path.join(os.path.dirname(asset), uri), os.path.realpath(suite)))
        if not needed and not os.path.isfile(source):
            continue
        os.makedirs(os.path.dirname(os.path.join(folder, uri)), exist_ok=True)
        shutil.copy(source, os.path.join(folder, uri))
    # Nodes whose place in Godot's tree a skin changes: joints, skinned nodes and everything
    # under a joint (bone attachments).
    skinned = set()
    for skin in gltf.get("skins", []):
        skinned.update(skin.get("joints", []))
    skinned.update(i for i, n in enumerate(gltf.get("nodes", [])) if "skin" in n)
    if gltf.get("skins"):
        stack = list(skinned)
        while stack:
            for child in gltf["nodes"][stack.pop()].get("children", []):
                if child not in skinned:
                    skinned.add(child)
                    stack.append(child)
    job = {"id": case_id, "scene": "res://cases/%03d/%s" % (number, os.path.basename(asset)),
           "animationCount": len(gltf.get("animations", [])), "animations": []}
    out = {"asset": golden["asset"], "generator": GENERATOR, "animations": []}
    for ga in golden["animations"]:
        animation = {"index": ga["index"], "name": ga.get("name", ""), "channels": []}
        job_channels = []
        for index, gc in enumerate(ga["channels"]):
            index = gc.get("index", index)
            channel = {"index": index, "target": gc["target"], "samples": []}
            try:
                node, path = check_channel(gltf, ga["index"], index)
                if node in skinned:
                    # _generate_scene_node turns skin joints into one Skeleton's bones (and moves
                    # skinned meshes under it): not Spatial nodes the adapter can find.
                    raise Unsupported("a skin joint or skinned node (a Skeleton bone in Godot; not read by the adapter)")
                job_channels.append({"index": index, "path": path, "childIndices": child_indices(gltf, node),
                                     "name": gltf["nodes"][node].get("name", ""), "golden": gc})
            except Unsupported as u:
                channel["unsupported"] = u.feature
            animation["channels"].append(channel)
        times = sorted({s["t"] for jc in job_channels for s in jc["golden"]["samples"]})
        for jc in job_channels:
            own = {s["t"] for s in jc.pop("golden")["samples"]}
            jc["mask"] = [1 if t in own else 0 for t in times]
        job["animations"].append({"index": ga["index"], "name": gltf["animations"][ga["index"]].get("name", ""),
                                  "times": times, "channels": job_channels})
        out["animations"].append(animation)
    return job, out


def godot(project, home, arguments, log, extra_env=None, done_when=None):
    """Runs godot3-server; with done_when (files), the run is over once they all exist: the
    headless editor (3.2.3) sometimes does not quit after an import that wrote files into the
    project (materials saved as .material files), so it is stopped then, 2 s after the last one."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "en_US.UTF-8",
           "XDG_CONFIG_HOME": os.path.join(home, "config"), "XDG_DATA_HOME": os.path.join(home, "data"),
           "XDG_CACHE_HOME": os.path.join(home, "cache")}
    env.update(extra_env or {})
    with open(log, "ab") as f:
        process = subprocess.Popen([GODOT, "--path", project] + arguments, env=env, stdout=f, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
        start = time.monotonic()
        complete = None
        while process.poll() is None:
            if time.monotonic() - start > 600:
                process.kill()
                process.wait()
                raise RuntimeError("Godot did not finish in 600 s: %s" % " ".join(arguments))
            if done_when is not None and complete is None and all(os.path.exists(p) for p in done_when):
                complete = time.monotonic()
            if complete is not None and time.monotonic() - complete > 2:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                return 0
            time.sleep(0.1)
        return process.returncode


STALL = 30  # seconds without a new .import file: the asset being imported hangs


def editor_import(project, home, log, jobs):
    """The headless editor's import of every case's asset: {case id: why the import did not
    finish} for assets it hangs on. Godot 3.2.3's editor (1) sometimes does not quit after an
    import that wrote files into the project (materials saved as .material files): it is stopped
    once every asset has its .import file (written when that asset's import is over, also when
    the importer refused it); (2) hangs on some assets: when no .import file appears for STALL
    seconds, the asset being imported (the pending one the editor reaches first: it imports the
    case folders in descending order) is taken out of the project and the editor started again
    for the rest."""
    hung = {}
    while True:
        waiting = {job["id"]: os.path.join(project, job["scene"][len("res://"):] + ".import")
                   for job in jobs if job["id"] not in hung}
        if all(os.path.exists(p) for p in waiting.values()):
            return hung
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "en_US.UTF-8",
               "XDG_CONFIG_HOME": os.path.join(home, "config"), "XDG_DATA_HOME": os.path.join(home, "data"),
               "XDG_CACHE_HOME": os.path.join(home, "cache")}
        with open(log, "ab") as f:
            process = subprocess.Popen([GODOT, "--path", project, "--editor", "--quit"], env=env,
                                       stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        done = sum(os.path.exists(p) for p in waiting.values())
        progress = time.monotonic()
        complete = None
        stuck = False
        while process.poll() is None:
            now_done = sum(os.path.exists(p) for p in waiting.values())
            if now_done != done:
                done, progress = now_done, time.monotonic()
            if complete is None and now_done == len(waiting):
                complete = time.monotonic()
            if (complete is not None and time.monotonic() - complete > 2) or time.monotonic() - progress > STALL:
                stuck = complete is None
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                break
            time.sleep(0.1)
        if not stuck:
            if process.returncode not in (0, None) and complete is None:
                raise RuntimeError("the editor's import exited with %d" % process.returncode)
            return hung  # assets without .import now: the editor did not import them (a refusal)
        # Godot 3.2.3's editor imports the case folders in descending order (measured): the asset
        # it hangs on is the pending one with the largest folder number.
        pending = [job for job in jobs if job["id"] in waiting and not os.path.exists(waiting[job["id"]])]
        current = max(pending, key=lambda job: job["scene"])
        hung[current["id"]] = "the editor's import hangs on the asset (no progress for %d s)" % STALL
        shutil.rmtree(os.path.dirname(os.path.join(project, current["scene"][len("res://"):])))


def godot_version():
    try:
        r = subprocess.run([GODOT, "--version"], capture_output=True, text=True, timeout=60)
        return r.stdout.strip().splitlines()[-1]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "?"


def main(argv):
    global GENERATOR
    if len(argv) < 2:
        print("usage: godot_adapter.py SUITE_DIR OUT_DIR [CASE_ID...]", file=sys.stderr)
        return 2
    suite, out_dir, only = argv[0], argv[1], set(argv[2:])
    cases = manifest_cases("godot_adapter.py", suite, out_dir, only)
    if cases is None:
        return 2
    version = godot_version()
    GENERATOR = "adapters/godot/godot_adapter.py (Godot %s, %s)" % (
        version, "scene import options " + ", ".join(IMPORT_OPTIONS) if IMPORT_OPTIONS
        else "default scene import: 15 fps bake, optimizer on")
    print("godot_adapter.py: Godot %s (%s)" % (version, GODOT), file=sys.stderr)
    start = time.monotonic()
    written = failed = refused = 0
    scratch = tempfile.mkdtemp(prefix="gltf-anim-godot-")
    try:
        project, home, log = os.path.join(scratch, "project"), os.path.join(scratch, "home"), os.path.join(scratch, "godot.log")
        os.makedirs(os.path.join(project, "cases"))
        os.makedirs(home)
        with open(os.path.join(project, "project.godot"), "w", encoding="utf-8") as f:
            f.write(PROJECT_GODOT)
        shutil.copy(os.path.join(HERE, "sample.gd"), os.path.join(project, "sample.gd"))
        prepared = []  # (case id, output path, samples skeleton)
        jobs = []
        for number, (case_id, asset, samples, path) in enumerate(cases):
            golden = None
            try:
                with open(samples, encoding="utf-8") as f:
                    golden = json.load(f)
                job, skeleton = prepare_case(number, case_id, asset, golden, project, suite)
                jobs.append(job)
                prepared.append((case_id, path, skeleton))
            except Exception as e:  # that case's failure, with its message; the run goes on
                message = "%s: %s" % (type(e).__name__, e)
                print("%s: error: %s" % (case_id, message), file=sys.stderr)
                failed += 1
                if isinstance(golden, dict):
                    write_json(path, failed_samples(golden.get("asset", ""), GENERATOR, message))
        if not jobs:
            print("godot_adapter.py: no case to run", file=sys.stderr)
        else:
            hung = editor_import(project, home, log, jobs)
            job_path, answer_path = os.path.join(scratch, "job.json"), os.path.join(scratch, "answer.json")
            with open(job_path, "w", encoding="utf-8") as f:
                json.dump({"cases": jobs}, f)
            rc = godot(project, home, ["-s", "res://sample.gd"], log,
                       {"GLTF_ANIM_GODOT_JOB": job_path, "GLTF_ANIM_GODOT_ANSWER": answer_path})
            if rc != 0 or not os.path.exists(answer_path):
                raise RuntimeError("sample.gd exited with %d" % rc)
            with open(answer_path, encoding="utf-8") as f:
                answer = json.load(f)
            by_id = {job["id"]: job for job in jobs}
            for case_id, path, skeleton in prepared:
                result = answer["cases"].get(case_id)
                if not isinstance(result, dict):  # sample.gd stopped on the case (a script error, in the log)
                    result = {"failed": "sample.gd did not finish the case (a script error: GLTF_ANIM_GODOT_KEEP=1 keeps its log)"}
                if case_id in hung:
                    result = {"error": hung[case_id]}
                job = by_id[case_id]
                if "error" in result:
                    print("%s: refused: %s" % (case_id, result["error"]), file=sys.stderr)
                    refused += 1
                    write_json(path, refused_samples(skeleton["asset"], GENERATOR, result["error"]))
                    written += 1
                    continue
                try:
                    if "failed" in result:
                        raise RuntimeError(result["failed"])
                    for animation, job_animation, answered in zip(skeleton["animations"], job["animations"], result["animations"]):
                        channels = {c["index"]: c for c in animation["channels"]}
                        if "unidentified" in answered:  # the adapter's limit, not Godot's: said, not failed
                            for jc in job_animation["channels"]:
                                channels[jc["index"]]["unsupported"] = answered["unidentified"]
                            continue
                        times = job_animation["times"]
                        for ac in answered["channels"]:
                            if "unidentified" in ac:
                                channels[ac["index"]]["unsupported"] = ac["unidentified"]
                                continue
                            for k, value in ac["values"]:
                                if isinstance(value, str):
                                    raise RuntimeError("channel %d: %s" % (ac["index"], value))
                                channels[ac["index"]]["samples"].append({"t": times[int(k)], "value": value})
                    skeleton["generator"] = GENERATOR
                    write_json(path, skeleton)
                    written += 1
                except Exception as e:
                    message = "%s: %s" % (type(e).__name__, e)
                    print("%s: error: %s" % (case_id, message), file=sys.stderr)
                    failed += 1
                    write_json(path, failed_samples(skeleton["asset"], GENERATOR, message))
    except (OSError, RuntimeError, subprocess.SubprocessError, ValueError, KeyError) as e:
        print("godot_adapter.py: %s" % e, file=sys.stderr)
        try:
            with open(os.path.join(scratch, "godot.log"), encoding="utf-8", errors="replace") as f:
                sys.stderr.write(f.read()[-4000:])
        except OSError:
            pass
        return 2
    finally:
        if os.environ.get("GLTF_ANIM_GODOT_KEEP"):
            print("godot_adapter.py: the scratch project is kept in %s" % scratch, file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print_summary("godot_adapter.py", cases, start, written, refused, failed, out_dir)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
