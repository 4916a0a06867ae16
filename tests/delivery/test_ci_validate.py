"""CTest delivery_ci_validate: scripts/ci-validate.sh (what the GitHub Action and
the GitLab job run) with hostile settings, run for real in a scratch project:
paths and report names that look like options stay names, the log's text report
is text whatever the project config says, and a new line in a report name cannot
add a step output of its own (GITHUB_OUTPUT read as GitHub's runner reads it).
Under GitHub Actions: the job summary leads with the failing assets, each error
is one annotation, and no asset's name forges a workflow command (the log read
as the runner reads it, ::stop-commands:: included).

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
VALID = os.path.join(SOURCE, "conformance_assets/valid/translation_linear.gltf")


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

    def github_run(self, paths, **settings):
        summary = self.put("step_summary", "")
        output = self.put("github_output", "")
        r = self.run_script(GLTF_ANIM_PATHS=paths, GITHUB_STEP_SUMMARY=summary, GITHUB_OUTPUT=output,
                            GITHUB_ACTIONS="true", **settings)
        with open(summary, encoding="utf-8") as f:
            return r, f.read()

    def test_the_job_summary_leads_with_the_failure_and_annotates_it(self):
        # 120 valid assets and one invalid: the summary's first lines are the failure.
        exports = os.path.join(self.project, "exports")
        os.makedirs(exports)
        for k in range(120):
            shutil.copy(VALID, os.path.join(exports, f"ok_{k:03}.gltf"))
        shutil.copy(INVALID, os.path.join(exports, "z_bad.gltf"))  # sorts last, past line 100
        r, summary = self.github_run("exports")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        lines = summary.splitlines()
        self.assertEqual(lines[0], "### gltf-anim validate: 1 of 121 assets failed", summary[:500])
        fail = summary.index("FAIL exports/z\\_bad\\.gltf")
        code = summary.index(CODE.replace("_", "\\_"))
        passed = summary.index("<details><summary>120 assets passed</summary>")
        self.assertLess(fail, code)
        self.assertLess(code, passed)
        self.assertNotIn("ok\\_000", summary[:passed])
        # One annotation per error (the asset has two), on the file, with the code and the
        # pointer; nothing else is a command.
        commands = gha.workflow_commands(r.stdout)
        self.assertEqual(len(commands), 2, r.stdout)
        for name, properties, data in commands:
            self.assertEqual(name, "error")
            self.assertEqual(properties["file"], "exports/z_bad.gltf")
            self.assertEqual(properties["title"], CODE)
            self.assertRegex(data, r"\(/animations/0/channels/[0-9]+/target\)$")
            self.assertIn("line", properties)
        self.assertEqual(gha.workflow_commands(r.stderr), [])

    def test_a_hostile_asset_name_forges_no_command(self):
        # Names that would be commands at the start of a line of the text report (named
        # as paths, a report line begins with them), or after a new line; each asset has
        # two errors.
        names = ["::error title=FORGED::forged.gltf", "::add-mask::x.gltf", "a,title=FORGED.gltf"]
        for name in names:
            self.put(name)
        os.makedirs(os.path.join(self.project, "dir"))
        self.put("dir/x\n::warning title=FORGED::forged.gltf")
        r, summary = self.github_run(" ".join(f"'{name}'" for name in names) + " dir")
        names.append("dir/x\n::warning title=FORGED::forged.gltf")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("::error title=FORGED::forged.gltf", r.stdout, "the text report names it")
        commands = gha.workflow_commands(r.stdout)
        self.assertEqual(sorted(c[1]["file"] for c in commands), sorted(names * 2), r.stdout)
        for name, properties, data in commands:
            self.assertEqual((name, properties["title"]), ("error", CODE), r.stdout)
        self.assertEqual(gha.workflow_commands(r.stderr), [])
        self.assertTrue(summary.startswith("### gltf-anim validate: 4 of 4 assets failed"), summary)
        # No line of the summary is a heading or a command of an asset's making.
        for line in summary.splitlines():
            self.assertFalse(line.startswith("::"), line)

    def test_the_runner_model_reads_stop_commands(self):
        log = "::error::one\n::stop-commands::tok\n::error::two\n::tok::\n::warning file=a%3Ab::x%0Ay\n"
        self.assertEqual(gha.workflow_commands(log),
                         [("error", {}, "one"), ("warning", {"file": "a:b"}, "x\ny")])

    def test_the_runner_model_reads_both_output_forms(self):
        # The model itself, on lines written by hand from GitHub's documentation.
        outputs, problem = gha.parse_output_file("a=1\nb<<EOF\nx\ny=2\nEOF\na=3\nc=\n")
        self.assertEqual((outputs, problem), ({"a": "3", "b": "x\ny=2", "c": ""}, None))
        self.assertIsNotNone(gha.parse_output_file("b<<EOF\nnever ended\n")[1])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[4:], verbosity=2)
