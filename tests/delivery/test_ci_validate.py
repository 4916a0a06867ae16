"""CTest delivery_ci_validate: scripts/ci-validate.sh (what the GitHub Action and
the GitLab job run) with hostile settings, run for real in a scratch project:
paths and report names that look like options stay names, the log's text report
is text whatever the project config says, and a new line in a report name cannot
add a step output of its own (GITHUB_OUTPUT read as GitHub's runner reads it).

    python3 test_ci_validate.py SOURCE_DIR GLTF_ANIM SCRATCH_DIR
"""

import json
import os
import shutil
import subprocess
import sys
import unittest

import github_action as gha

SOURCE, CLI, SCRATCH = (os.path.abspath(p) for p in sys.argv[1:4])
SCRIPT = os.path.join(SOURCE, "scripts", "ci-validate.sh")
# Two channels of one animation target the same node property: one error.
INVALID = os.path.join(SOURCE, "conformance_assets/invalid/channel/duplicate_targets.gltf")
CODE = "ANIMATION_DUPLICATE_TARGETS"


class CiValidate(unittest.TestCase):
    def setUp(self):
        self.project = os.path.join(SCRATCH, self.id().rsplit(".", 1)[-1])
        shutil.rmtree(self.project, ignore_errors=True)
        os.makedirs(self.project)

    def put(self, name, text=None):
        path = os.path.join(self.project, name)
        if text is None:
            shutil.copy(INVALID, path)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return path

    def run_script(self, **settings):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GLTF_ANIM", "GITHUB_"))}
        env.update({"GLTF_ANIM": CLI, "GLTF_ANIM_SARIF": "", "GLTF_ANIM_JUNIT": ""})
        env.update(settings)
        return subprocess.run(["bash", SCRIPT], cwd=self.project, env=env, capture_output=True, text=True,
                              timeout=300)

    def test_a_path_that_begins_with_a_dash_is_validated(self):
        self.put("-invalid.gltf")
        r = self.run_script(GLTF_ANIM_PATHS="-invalid.gltf")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("-invalid.gltf", r.stdout)
        self.assertIn(CODE, r.stdout)

    def test_a_path_cannot_redirect_the_report(self):
        self.put("invalid.gltf")
        victim = self.put("victim.txt", "keep\n")
        r = self.run_script(GLTF_ANIM_PATHS="--output=victim.txt invalid.gltf")
        # "--output=victim.txt" is a file that does not exist: a usage error.
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        with open(victim, encoding="utf-8") as f:
            self.assertEqual(f.read(), "keep\n")

    def test_a_path_cannot_choose_the_config(self):
        self.put("invalid.gltf")
        self.put("evil.json", json.dumps({"ignore": [CODE]}))
        r = self.run_script(GLTF_ANIM_PATHS="--config=evil.json invalid.gltf")
        self.assertNotEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("--config=evil.json", r.stderr)

    def test_report_names_that_begin_with_a_dash_are_written(self):
        self.put("invalid.gltf")
        r = self.run_script(GLTF_ANIM_PATHS="invalid.gltf", GLTF_ANIM_SARIF="-r.sarif", GLTF_ANIM_JSON="--r.json")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        with open(os.path.join(self.project, "-r.sarif"), encoding="utf-8") as f:
            self.assertEqual(json.load(f)["version"], "2.1.0")
        with open(os.path.join(self.project, "--r.json"), encoding="utf-8") as f:
            self.assertIn(CODE, f.read())

    def test_the_log_is_text_whatever_the_project_config_says(self):
        self.put("invalid.gltf")
        self.put(".gltf-anim.json", json.dumps({"format": "json"}))
        r = self.run_script(GLTF_ANIM_PATHS="invalid.gltf", GLTF_ANIM_JSON="r.json")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertFalse(r.stdout.lstrip().startswith("{"), r.stdout[:200])
        self.assertIn("invalid.gltf", r.stdout.splitlines()[0])
        # The report files keep their own formats.
        with open(os.path.join(self.project, "r.json"), encoding="utf-8") as f:
            json.load(f)

    def test_a_new_line_in_a_report_name_adds_no_step_output(self):
        self.put("invalid.gltf")
        output = self.put("github_output", "")
        name = "r\nexit-code=0\njson=forged\n.json"
        r = self.run_script(GLTF_ANIM_PATHS="invalid.gltf", GLTF_ANIM_JSON=name, GITHUB_OUTPUT=output)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        with open(output, encoding="utf-8") as f:
            outputs, problem = gha.parse_output_file(f.read())
        self.assertIsNone(problem)
        self.assertEqual(outputs, {"exit-code": "1", "sarif": "", "junit": "", "json": name})
        self.assertTrue(os.path.isfile(os.path.join(self.project, name)))

    def test_the_runner_model_reads_both_output_forms(self):
        # The model itself, on lines written by hand from GitHub's documentation.
        outputs, problem = gha.parse_output_file("a=1\nb<<EOF\nx\ny=2\nEOF\na=3\nc=\n")
        self.assertEqual((outputs, problem), ({"a": "3", "b": "x\ny=2", "c": ""}, None))
        self.assertIsNotNone(gha.parse_output_file("b<<EOF\nnever ended\n")[1])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[4:], verbosity=2)
