#!/usr/bin/python3
"""VTK 9.1's glTF importer (vtkGLTFImporter, the importer of ParaView and F3D) through the
conformance suite: the Python adapter template (adapters/templates/python/engine_adapter.py)
with VTK as its engine.

    /usr/bin/python3 adapters/vtk/vtk_adapter.py SUITE_DIR OUT_DIR [CASE_ID...]

(adapters/vtk/run.sh installs Debian's python3-vtk9 first; it needs Debian's Python, whose
dist-packages hold VTK's bindings.) Per case: a vtkGLTFImporter with an off-screen
vtkRenderWindow (nothing is rendered: the import only fills a renderer, no display is needed),
Update(), then per golden animation EnableAnimation(that one; the others disabled) and, at every
golden time t, UpdateTimeStep(t), the call ParaView and F3D make: vtkGLTFDocumentLoader::
ApplyAnimation interpolates each channel into its node, then the nodes' global transforms are
rebuilt and the actors' user transforms follow. Each channel's node is read from its actor
(vtkGLTFImporter::ImportActors makes one actor per primitive of a node with a mesh, in the order
of a depth-first walk with a stack from the scene's root nodes, which the adapter repeats to
know which actor is which node): the actor's user matrix is the node's global transform
T R S (vtkGLTFDocumentLoader::Node::UpdateTransform), decomposed into translation, rotation
(x, y, z, w) and scale. A matrix cannot say which scale axis is negative; when the animation
leaves the node's rotation (or scale) at the node's own value, which VTK used, the other one
follows exactly (S = R^T M, R = M S^-1); only when both are animated and the determinant is
negative does the adapter choose (the sign on x; no case of the suite needs it).

VTK and glTF are both right-handed and the importer converts nothing (the scene stays Y-up).
Left out with the reason (written "unsupported"): morph weights (VTK 9.1 applies them in its
shaders; no getter shows them), channels the importer does not read (no target.node:
KHR_animation_pointer, KHR_animation2), nodes without a mesh (no actor) and nodes under a
parent without one (their local transform is not observable). An asset the importer refuses
(Update() reports an error) is written without animations, the reason in its generator. Exit
codes: 0 every case written, 1 some case failed with an error (written with its "error"), 2
usage, manifest or I/O error.
"""

import json
import math
import re
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from suite_files import (  # noqa: E402
    Refused, Unsupported, load_json, manifest_cases, print_summary, refused_samples, run_cases, write_json)
import time

GENERATOR = "adapters/vtk/vtk_adapter.py"


class ErrorCatcher:
    """VTK's error and warning messages of one import (a fresh vtkStringOutputWindow per import,
    VTK's logger silenced on standard error)."""

    def __init__(self, vtk):
        self.vtk = vtk
        vtk.vtkLogger.SetStderrVerbosity(vtk.vtkLogger.VERBOSITY_OFF)
        self.window = None
        self.take()

    def take(self):
        text = self.window.GetOutput() if self.window is not None else ""
        self.window = self.vtk.vtkStringOutputWindow()
        self.vtk.vtkOutputWindow.SetInstance(self.window)
        return text


def quaternion_of(m):
    """(x, y, z, w) of a proper rotation matrix m (3 x 3, rows)."""
    trace = m[0][0] + m[1][1] + m[2][2]
    if trace > 0:
        s = math.sqrt(trace + 1.0) * 2
        return [(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s]
    if m[0][0] > m[1][1] and m[0][0] > m[2][2]:
        s = math.sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]) * 2
        return [0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s]
    if m[1][1] > m[2][2]:
        s = math.sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]) * 2
        return [(m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s]
    s = math.sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]) * 2
    return [(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s]


def quaternion_matrix(q):
    """Rows of the rotation matrix of the unit quaternion q = (x, y, z, w)."""
    x, y, z, w = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def decompose(matrix, rest_rotation=None, rest_scale=None):
    """vtkMatrix4x4 T R S -> translation, rotation (x, y, z, w), scale. A matrix alone cannot
    say which scale axis is negative (det < 0); when the animation leaves the rotation (or the
    scale) at the node's own value, VTK used that value (Node::UpdateTransform), so the other
    one follows exactly: S = R^T M, or R = M S^-1. Otherwise the sign goes on x."""
    m = [[matrix.GetElement(i, j) for j in range(4)] for i in range(4)]
    translation = [m[0][3], m[1][3], m[2][3]]
    if rest_rotation is not None:
        r = quaternion_matrix(rest_rotation)
        scale = [sum(r[i][j] * m[i][j] for i in range(3)) for j in range(3)]  # column j of R^T M
        return translation, list(rest_rotation), scale
    scale = [math.sqrt(sum(m[i][j] ** 2 for i in range(3))) for j in range(3)]
    if rest_scale is not None:
        scale = list(rest_scale)
    else:
        det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
               + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
        if det < 0:
            scale[0] = -scale[0]
    rotation = [[m[i][j] / scale[j] if scale[j] else 0.0 for j in range(3)] for i in range(3)]
    return translation, quaternion_of(rotation), scale


class Engine:
    """One asset imported by vtkGLTFImporter into an off-screen render window's renderer."""

    def __init__(self, vtk, catcher, asset_path):
        from vtkmodules.vtkIOImport import vtkGLTFImporter
        self.gltf = load_json(asset_path)
        self.window = vtk.vtkRenderWindow()
        self.window.SetOffScreenRendering(1)
        self.importer = vtkGLTFImporter()
        self.importer.SetFileName(asset_path)
        self.importer.SetRenderWindow(self.window)
        catcher.take()
        self.importer.Update()
        messages = catcher.take()
        if "ERROR" in messages:
            errors = [line.strip() for line in messages.splitlines() if line.strip()]
            reason = " ".join(errors[errors.index(next(l for l in errors if "ERROR" in l)):])
            raise Refused(re.sub(r" \(0x[0-9a-f]+\)", "", reason)[:400])  # no object addresses: deterministic
        renderer = self.window.GetRenderers().GetFirstRenderer()
        actors = renderer.GetActors()
        actors.InitTraversal()
        self.actors = [actors.GetNextActor() for _ in range(actors.GetNumberOfItems())]
        # vtkGLTFImporter::ImportActors: a stack of the scene's root nodes, each popped node's
        # primitives become actors (in order), then its children are pushed.
        self.actor_of = {}
        self.parent = {}
        nodes = self.gltf.get("nodes", [])
        for index, node in enumerate(nodes):
            for child in node.get("children", []):
                self.parent[child] = index
        stack = list(self.gltf.get("scenes", [{}])[self.gltf.get("scene", 0)].get("nodes", []))
        k = 0
        while stack:
            n = stack.pop()
            node = nodes[n]
            if "mesh" in node:
                self.actor_of[n] = k
                k += len(self.gltf["meshes"][node["mesh"]]["primitives"])
            stack.extend(node.get("children", []))
        self.unidentified = None
        if k != len(self.actors):  # e.g. skins: the adapter cannot tell which actor is which node
            self.unidentified = "actors not identified (%d imported, %d expected from the asset's meshes)" % (len(self.actors), k)
        self.animation = None
        self.time = None

    def check_channel(self, animation, channel):
        anim = self.gltf["animations"][animation]
        ch = anim["channels"][channel]
        target = ch.get("target", {})
        if "sampler" not in ch or "node" not in target:
            raise Unsupported(", ".join(sorted(target.get("extensions", {})))
                              or ", ".join(sorted(ch.get("extensions", {})))
                              or ", ".join(self.gltf.get("extensionsUsed", []))
                              or "a channel without target.node")
        path = target.get("path")
        if path == "weights":
            raise Unsupported("morph weights (not observable: VTK 9.1 applies them in its shaders)")
        if path not in ("translation", "rotation", "scale"):
            raise Unsupported("target path %s" % (path,))
        node = target["node"]
        if self.unidentified:
            raise Unsupported(self.unidentified)
        if node not in self.actor_of:
            raise Unsupported("a node without a mesh (no actor to read its transform from)")
        if node in self.parent:
            raise Unsupported("a node with a parent (only the global transform is observable)")
        return node, path

    def sample(self, animation, node, path, t):
        if self.animation != animation:
            for a in range(self.importer.GetNumberOfAnimations()):
                if a == animation:
                    self.importer.EnableAnimation(a)
                else:
                    self.importer.DisableAnimation(a)
            self.animation = animation
            self.time = None
        if self.time != t:
            self.importer.UpdateTimeStep(t)
            self.time = t
        actor = self.actors[self.actor_of[node]]
        matrix = actor.GetUserMatrix()
        if matrix is None:
            raise RuntimeError("node %d's actor has no user transform" % node)
        node_json = self.gltf["nodes"][node]
        paths = {c.get("target", {}).get("path") for c in self.gltf["animations"][animation]["channels"]
                 if c.get("target", {}).get("node") == node}
        rest_rotation = rest_scale = None
        if "matrix" not in node_json and "rotation" not in paths:
            q = node_json.get("rotation", [0.0, 0.0, 0.0, 1.0])
            n = math.sqrt(sum(c * c for c in q))
            rest_rotation = [c / n for c in q]
        elif "matrix" not in node_json and "scale" not in paths:
            rest_scale = node_json.get("scale", [1.0, 1.0, 1.0])
        translation, rotation, scale = decompose(matrix, rest_rotation, rest_scale)
        return {"translation": translation, "rotation": rotation, "scale": scale}[path]


def supervise(argv, cases):
    """Runs the cases in a worker process (this script again); when VTK crashes the worker
    (a signal), the case it was on is written as refused ("VTK crashed") and a new worker goes
    on with the next case. The summary line counts them all."""
    import subprocess
    import tempfile
    out_dir = argv[1]
    totals = [0, 0, 0]  # written, refused, failed
    start_index = 0
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gltf-anim-vtk-") as scratch:
        progress = os.path.join(scratch, "progress")
        while start_index < len(cases):
            open(progress, "w").close()
            env = dict(os.environ, GLTF_ANIM_VTK_WORKER=str(start_index), GLTF_ANIM_VTK_PROGRESS=progress)
            r = subprocess.run([sys.executable, os.path.abspath(__file__)] + argv, env=env)
            with open(progress, encoding="utf-8") as f:
                lines = [line.split() for line in f if line.strip()]
            for kind, _ in lines:
                if kind in ("written", "refused", "failed"):
                    totals[0] += kind != "failed"
                    totals[1] += kind == "refused"
                    totals[2] += kind == "failed"
            begun = sum(1 for kind, _ in lines if kind == "begin")
            if r.returncode >= 0:
                if r.returncode not in (0, 1):
                    return r.returncode
                break
            # Killed by a signal on the last case it began: written as refused, the rest goes on.
            crashed = begun - 1
            case_id, _, samples, path = cases[start_index + crashed]
            reason = "VTK crashed on the asset (signal %d)" % -r.returncode
            print("%s: refused: %s" % (case_id, reason), file=sys.stderr)
            with open(samples, encoding="utf-8") as f:
                golden = json.load(f)
            write_json(path, refused_samples(golden["asset"], GENERATOR, reason))
            totals[0] += 1
            totals[1] += 1
            start_index += crashed + 1
    print_summary("vtk_adapter.py", cases, began, totals[0], totals[1], totals[2], out_dir)
    return 1 if totals[2] else 0


def main(argv):
    global GENERATOR
    if len(argv) < 2:
        print("usage: vtk_adapter.py SUITE_DIR OUT_DIR [CASE_ID...]", file=sys.stderr)
        return 2
    suite, out_dir, only = argv[0], argv[1], set(argv[2:])
    cases = manifest_cases("vtk_adapter.py", suite, out_dir, only)
    if cases is None:
        return 2
    if os.environ.get("GLTF_ANIM_VTK_WORKER") is None:
        return supervise(argv, cases)
    skip = int(os.environ["GLTF_ANIM_VTK_WORKER"])
    cases = cases[skip:]
    progress = os.environ["GLTF_ANIM_VTK_PROGRESS"]
    import vtk
    catcher = ErrorCatcher(vtk)
    GENERATOR = "adapters/vtk/vtk_adapter.py (VTK %s, vtkGLTFImporter.UpdateTimeStep)" % vtk.vtkVersion.GetVTKVersion()
    print("vtk_adapter.py: VTK %s" % vtk.vtkVersion.GetVTKVersion(), file=sys.stderr)
    start = time.monotonic()

    def log(line):
        with open(progress, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    written, refused, failed = run_cases(
        cases, lambda asset: Engine(vtk, catcher, asset), GENERATOR,
        before=lambda case_id: log("begin %s" % case_id), after=lambda case_id, outcome: log("%s %s" % (outcome, case_id)))
    print("vtk_adapter.py: %d case(s) in %.1f s" % (len(cases), time.monotonic() - start), file=sys.stderr)
    print("vtk_adapter.py: worker: %d case(s) written to %s, %d refused by the importer, %d failed with an error"
          % (written, out_dir, refused, failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
