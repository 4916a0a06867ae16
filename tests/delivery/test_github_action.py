"""CTest: action.yml, checked and run through a model of GitHub's runner
(github_action.py), offline: its shell steps run for real (the scripts of
scripts/ on committed assets), its `uses` steps are played by checking what
they would receive (the cache path, the SARIF file, the artifact folder).

    python3 test_github_action.py SOURCE_DIR GLTF_ANIM SCRATCH_DIR
"""

import json
import os
import shutil
import sys
import unittest
import re
import xml.etree.ElementTree as ET

import yaml

import github_action as gha

SOURCE, CLI, SCRATCH = (os.path.abspath(p) for p in sys.argv[1:4])
VALID = "conformance_assets/valid"
# Two channels of one animation target the same node property: an error.
INVALID = "conformance_assets/invalid/channel/duplicate_targets.gltf"


def find_steps(node):
    """The steps (mappings with `uses`) anywhere in a parsed workflow."""
    if isinstance(node, dict):
        if "uses" in node:
            yield node
        for value in node.values():
            yield from find_steps(value)
    elif isinstance(node, list):
        for value in node:
            yield from find_steps(value)


class Player:
    """Plays the `uses` steps: actions/cache restores (or not) its path,
    upload-sarif and upload-artifact check what they would upload."""

    def __init__(self, cache_hit):
        self.cache_hit = cache_hit
        self.uploaded_sarif = []
        self.artifacts = []
        self.restore = None
        self.saved = []

    def __call__(self, uses, with_values, ctx):
        name = uses.split("@")[0]
        if name in ("actions/cache/restore", "actions/cache/save"):
            if not with_values["key"].startswith("gltf-anim-cli-"):
                raise gha.ActionError(f"cache key {with_values['key']!r}")
            if name == "actions/cache/save":
                self.saved.append((with_values["path"], with_values["key"]))
                return {}
            self.restore = (with_values["path"], with_values["key"])
            if self.cache_hit:
                # What the cache would restore: a build installed under `path`.
                bin_dir = os.path.join(with_values["path"], "bin")
                os.makedirs(bin_dir, exist_ok=True)
                os.symlink(CLI, os.path.join(bin_dir, "gltf-anim"))
            return {"cache-hit": "true" if self.cache_hit else "false"}
        if name == "github/codeql-action/upload-sarif":
            with open(with_values["sarif_file"], encoding="utf-8") as f:
                sarif = json.load(f)
            if sarif.get("version") != "2.1.0":
                raise gha.ActionError("not SARIF 2.1.0")
            self.uploaded_sarif.append((with_values["sarif_file"], with_values["category"], sarif))
            return {}
        if name == "actions/upload-artifact":
            folder = with_values["path"]
            files = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
            if not files and with_values.get("if-no-files-found") == "error":
                raise gha.ActionError(f"no files in {folder}")
            self.artifacts.append((with_values["name"], files))
            return {}
        raise gha.ActionError(f"no player for {uses}")


class GithubAction(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.action = gha.load(os.path.join(SOURCE, "action.yml"))

    def setUp(self):
        self.temp = os.path.join(SCRATCH, self.id().rsplit(".", 1)[-1])
        shutil.rmtree(self.temp, ignore_errors=True)
        os.makedirs(self.temp)

    def run_action(self, inputs, cache_hit=True):
        player = Player(cache_hit)
        result = gha.run_action(self.action, SOURCE, inputs, player, self.temp, SOURCE)
        return result, player

    def ran(self, result):
        return [name for name, ran, _ in result.steps if ran]

    def test_metadata_is_well_formed(self):
        self.assertEqual(gha.check_metadata(self.action, SOURCE), [])

    def test_metadata_check_finds_mistakes(self):
        # The checker itself: each mistake below is one a runner would reject
        # or a reader would regret; each must be reported.
        broken = json.loads(json.dumps(self.action))
        step = {s.get("id") or s["name"]: s for s in broken["runs"]["steps"]}
        del step["validate"]["shell"]
        step["Upload SARIF to code scanning"]["uses"] = "github/codeql-action/upload-sarif@main"
        step["validate"]["env"]["GLTF_ANIM_FAIL_ON"] = "${{ inputs.fail_on }}"
        step["Upload the reports"]["if"] = "${{ steps.nosuch.outputs.junit != '' }}"
        broken["inputs"]["unused"] = {"description": "x", "default": "y"}
        step["validate"]["run"] = 'bash "$GITHUB_ACTION_PATH/scripts/missing.sh" ${{ inputs.path }}'
        problems = "\n".join(gha.check_metadata(broken, SOURCE))
        for expected in ("needs shell: bash", "is not owner/repo@vN", "undeclared input inputs.fail_on",
                         "steps.nosuch.outputs.junit names no earlier step output",
                         "'unused' is declared but never used", "scripts/missing.sh, which does not exist",
                         "an expression inside run"):
            self.assertIn(expected, problems)

    def test_expressions_follow_github_semantics(self):
        ctx = {"inputs": {"a": "", "b": "x"}, "steps": {}, "__status": "success"}
        ev = lambda text: gha.evaluate(gha.Parser(text).parse(), ctx)
        self.assertEqual(ev("inputs.a != '' && inputs.a || 'dflt'"), "dflt")
        self.assertEqual(ev("inputs.b != '' && inputs.b || 'dflt'"), "x")
        # A missing output is null, and null == '' (both coerce to 0).
        self.assertTrue(ev("steps.s.outputs.o == ''"))
        self.assertTrue(ev("'TRUE' == 'true'"))
        self.assertEqual(ev("format('{0}/b/{1}', 'a', 'c')"), "a/b/c")
        self.assertFalse(gha.condition("always() && inputs.a != ''", ctx))
        ctx["__status"] = "failure"
        self.assertFalse(gha.condition("inputs.b == 'x'", ctx))      # implicit success()
        self.assertTrue(gha.condition("${{ !cancelled() && inputs.b == 'x' }}", ctx))

    def test_valid_folder_passes_and_uploads_sarif_and_junit(self):
        result, player = self.run_action({"path": VALID, "gltf-anim": CLI})
        self.assertEqual(result.status, "success", result.log)
        self.assertEqual(result.outputs["exit-code"], "0")
        self.assertNotIn("Build gltf-anim (CLI only)", self.ran(result))
        self.assertEqual(len(player.uploaded_sarif), 1)
        sarif_file, category, sarif = player.uploaded_sarif[0]
        self.assertEqual(category, "gltf-anim")
        self.assertEqual(sarif_file, result.outputs["sarif"])
        self.assertEqual(sarif["runs"][0]["tool"]["driver"]["name"], "gltf-anim")
        self.assertEqual(player.artifacts, [("gltf-anim-reports", ["gltf-anim.junit.xml", "gltf-anim.sarif"])])
        suites = ET.parse(result.outputs["junit"]).getroot()
        # One test case per asset of the folder.
        assets = [n for n in os.listdir(os.path.join(SOURCE, VALID)) if n.endswith((".gltf", ".glb"))]
        self.assertEqual(len(suites.findall(".//testcase")), len(assets))

    def test_findings_fail_the_action_after_the_uploads(self):
        result, player = self.run_action({"path": INVALID, "gltf-anim": CLI})
        self.assertEqual(result.status, "failure")
        self.assertEqual(result.outputs["exit-code"], "1")
        self.assertIn(("Validate", True, "failure"), result.steps)
        self.assertEqual(len(player.uploaded_sarif), 1)
        sarif = player.uploaded_sarif[0][2]
        self.assertIn("ANIMATION_DUPLICATE_TARGETS", [r["ruleId"] for r in sarif["runs"][0]["results"]])
        failures = ET.parse(result.outputs["junit"]).getroot().findall(".//failure")
        self.assertEqual(len(failures), 1)
        # The job summary leads with the verdict and the failing asset's errors.
        with open(os.path.join(self.temp, "step_summary.md"), encoding="utf-8") as f:
            summary = f.read().splitlines()
        self.assertEqual(summary[0], "### gltf-anim validate: 1 of 1 asset failed")
        self.assertTrue(any(line.startswith("| error | ANIMATION\\_DUPLICATE\\_TARGETS |") for line in summary),
                        summary)
        # Each error is an annotation of the Validate step, on the asset's file.
        annotations = [c for c in result.commands if c[0] == "Validate"]
        self.assertEqual([c[1] for c in annotations], ["error", "error"], result.log)
        for _, _, properties, _ in annotations:
            self.assertEqual(properties["title"], "ANIMATION_DUPLICATE_TARGETS")
            self.assertEqual(os.path.basename(properties["file"]), os.path.basename(INVALID))

    def test_fail_on_and_args_reach_the_cli(self):
        # Ignoring the asset's only code leaves nothing to fail on.
        result, player = self.run_action({"path": INVALID, "gltf-anim": CLI, "sarif": "false", "json": "true",
                                          "args": "--ignore ANIMATION_DUPLICATE_TARGETS"})
        self.assertEqual(result.status, "success", result.log)
        self.assertEqual(player.uploaded_sarif, [])
        self.assertEqual(result.outputs["sarif"], "")
        self.assertEqual(player.artifacts, [("gltf-anim-reports", ["gltf-anim.json", "gltf-anim.junit.xml"])])
        result, _ = self.run_action({"path": INVALID, "gltf-anim": CLI, "fail-on": "nonsense"})
        self.assertEqual(result.outputs["exit-code"], "2")

    def test_no_asset_found_fails_without_uploads(self):
        empty = os.path.join(self.temp, "empty")
        os.makedirs(empty)
        for path in (empty, "no/such/folder"):
            result, player = self.run_action({"path": path, "gltf-anim": CLI})
            self.assertEqual(result.status, "failure")
            self.assertEqual(result.outputs["exit-code"], "2")
            self.assertEqual((player.uploaded_sarif, player.artifacts), ([], []))

    def test_paths_and_args_are_words_not_shell_code(self):
        marker = os.path.join(self.temp, "injected")
        spaced = os.path.join(self.temp, "my assets")
        os.makedirs(spaced)
        shutil.copy(os.path.join(SOURCE, INVALID), spaced)
        result, _ = self.run_action({"path": f"'{spaced}' $(touch {marker})", "gltf-anim": CLI})
        self.assertFalse(os.path.exists(marker))
        # "$(touch" is a path that does not exist: a usage error, nothing run.
        self.assertEqual(result.outputs["exit-code"], "2")
        # An unbalanced quote is the script's own usage error, with its output.
        result, _ = self.run_action({"path": VALID, "gltf-anim": CLI, "args": "--ignore 'UNUSED_OBJECT"})
        self.assertEqual((result.status, result.outputs["exit-code"]), ("failure", "2"))
        self.assertIn("unbalanced quote", result.log)
        result, _ = self.run_action({"path": f"'{spaced}'", "gltf-anim": CLI})
        self.assertEqual(result.outputs["exit-code"], "1", result.log)

    def test_cached_build_is_found_where_the_cache_restores_it(self):
        result, _ = self.run_action({"path": VALID})
        self.assertEqual(result.status, "success", result.log)
        self.assertIn("Key of the gltf-anim build", self.ran(result))
        self.assertNotIn("Build gltf-anim (CLI only)", self.ran(result))

    def test_documented_examples_use_declared_inputs(self):
        # Every YAML example of the docs that uses the action parses and passes
        # only inputs action.yml declares.
        checked = 0
        for doc in ("README.md", "docs/CI.md"):
            with open(os.path.join(SOURCE, doc), encoding="utf-8") as f:
                text = f.read()
            for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
                for step in find_steps(yaml.safe_load(block)):
                    if "/gltf-anim@" in str(step.get("uses", "")):
                        unknown = set(step.get("with") or {}) - set(self.action["inputs"])
                        self.assertEqual(unknown, set(), f"{doc}: {step}")
                        checked += 1
        self.assertGreaterEqual(checked, 2)

    def test_cached_build_is_saved_even_when_assets_fail(self):
        # A miss builds, then saves what it built before validating: the save
        # must not depend on the assets' verdict. The build itself is replaced
        # by a bash that installs the built CLI where build-cli.sh would.
        fake = os.path.join(self.temp, "fakebin")
        os.makedirs(fake)
        with open(os.path.join(fake, "bash"), "w") as f:
            f.write('#!/bin/sh\n'
                    'case "$1" in */scripts/build-cli.sh)\n'
                    '  mkdir -p "$2/bin" && ln -sf "$GLTF_ANIM_TEST_CLI" "$2/bin/gltf-anim"; exit 0;;\n'
                    'esac\n'
                    'exec /bin/bash "$@"\n')
        os.chmod(os.path.join(fake, "bash"), 0o755)
        env = dict(os.environ, PATH=fake + os.pathsep + os.environ["PATH"], GLTF_ANIM_TEST_CLI=CLI)
        player = Player(cache_hit=False)
        result = gha.run_action(self.action, SOURCE, {"path": INVALID}, player, self.temp, SOURCE, env=env)
        self.assertIn("Build gltf-anim (CLI only)", self.ran(result))
        self.assertEqual(result.status, "failure")
        self.assertEqual(result.outputs["exit-code"], "1", result.log)
        self.assertEqual(player.saved, [player.restore])
        self.assertTrue(os.path.exists(os.path.join(player.restore[0], "bin", "gltf-anim")))
        # A hit neither builds nor saves.
        shutil.rmtree(player.restore[0])
        result, player = self.run_action({"path": VALID}, cache_hit=True)
        self.assertNotIn("Build gltf-anim (CLI only)", self.ran(result))
        self.assertEqual(player.saved, [])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[4:], verbosity=2)
