"""CTest: the GitLab CI job of docs/ci/gitlab-ci.yml, checked and its `script`
run offline as GitLab's runner would (variables as the environment, one shell
per job, the project folder as the working folder), with gltf-anim's sources
and built CLI standing in for the clone and the cached build. Then what GitLab
reads: the JUnit report at artifacts:reports:junit.

    python3 test_gitlab_ci.py SOURCE_DIR GLTF_ANIM SCRATCH_DIR
"""

import os
import re
import shutil
import subprocess
import sys
import unittest
import xml.etree.ElementTree as ET

import yaml

SOURCE, CLI, SCRATCH = (os.path.abspath(p) for p in sys.argv[1:4])
SNIPPET = os.path.join(SOURCE, "docs", "ci", "gitlab-ci.yml")
JOB_KEYS = {"stage", "image", "variables", "cache", "before_script", "script", "artifacts"}


def expand(value, env):
    """GitLab's expansion of $NAME and ${NAME} in variables."""
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: env.get(m.group(1), ""), value)


class GitlabJob(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(SNIPPET, encoding="utf-8") as f:
            cls.config = yaml.safe_load(f)
        cls.job = cls.config["gltf-anim"]

    def run_script(self, project, overrides):
        env = dict(os.environ, CI_PROJECT_DIR=project, CI="true", GITLAB_CI="true")
        for name, value in self.job["variables"].items():
            env[name] = expand(str(value), env)
        env.update(overrides)
        # The clone and the cached build, replaced by this checkout and its CLI.
        env["GLTF_ANIM_SRC"] = SOURCE
        env["GLTF_ANIM"] = CLI
        script = "\n".join(self.job["script"])
        return subprocess.run(["bash", "-e", "-c", script], cwd=project, env=env,
                              capture_output=True, text=True, timeout=600)

    def project(self, name, assets):
        project = os.path.join(SCRATCH, name)
        shutil.rmtree(project, ignore_errors=True)
        exports = os.path.join(project, "exports")
        os.makedirs(exports)
        for asset in assets:
            shutil.copy(os.path.join(SOURCE, asset), exports)
        return project

    def test_job_is_well_formed(self):
        self.assertEqual(set(self.job) - JOB_KEYS, set())
        self.assertEqual(self.job["artifacts"]["when"], "always")
        junit = self.job["artifacts"]["reports"]["junit"]
        self.assertEqual(junit, self.job["variables"]["GLTF_ANIM_JUNIT"])
        # The script is the shared one, called from the clone.
        self.assertEqual(self.job["script"], ['bash "$GLTF_ANIM_SRC/scripts/ci-validate.sh"'])
        # The cached folder holds the CLI the job runs, and the build installs there.
        env = {"CI_PROJECT_DIR": "/p"}
        cli = expand(self.job["variables"]["GLTF_ANIM"], env)
        # Cache paths are relative to the project folder.
        cache = [os.path.join("/p", expand(p, env).rstrip("/")) for p in self.job["cache"]["paths"]]
        self.assertIn(os.path.join("/p", ".gltf-anim"), cache)
        self.assertTrue(cli.startswith("/p/.gltf-anim/"), cli)
        before = "\n".join(self.job["before_script"])
        self.assertIn('scripts/build-cli.sh" "$CI_PROJECT_DIR/.gltf-anim"', before)
        # The sources are cloned outside the project folder.
        src = expand(self.job["variables"]["GLTF_ANIM_SRC"], env)
        self.assertFalse(src.startswith("/p/"), src)

    def test_variables_are_ones_the_script_or_job_reads(self):
        # A misspelt setting would be silently ignored: every GLTF_ANIM_* variable
        # of the job and of docs/CI.md's GitLab example is read by ci-validate.sh
        # or by the job's own commands.
        with open(os.path.join(SOURCE, "scripts", "ci-validate.sh"), encoding="utf-8") as f:
            script = f.read()
        commands = "\n".join(self.job["before_script"] + self.job["script"]) + "\n".join(
            str(v) for v in self.job["variables"].values())
        read = set(re.findall(r"\$\{?(GLTF_ANIM[A-Z_]*)", script + commands))
        with open(os.path.join(SOURCE, "docs", "CI.md"), encoding="utf-8") as f:
            blocks = re.findall(r"```yaml\n(.*?)```", f.read(), re.S)
        examples = [yaml.safe_load(b) for b in blocks if "include:" in b]
        self.assertEqual(len(examples), 1)
        names = set(self.job["variables"]) | set(examples[0]["gltf-anim"]["variables"])
        self.assertEqual(names - read, set())

    def test_valid_assets_pass_and_the_junit_report_is_where_gitlab_reads_it(self):
        project = self.project("valid", ["conformance_assets/valid/sqlerp_with_fallback.gltf",
                                         "conformance_assets/valid/weights5_step.gltf"])
        proc = self.run_script(project, {})
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        report = os.path.join(project, self.job["artifacts"]["reports"]["junit"])
        cases = ET.parse(report).getroot().findall(".//testcase")
        self.assertEqual(len(cases), 2)
        self.assertTrue(os.path.isfile(os.path.join(project, "gltf-anim-reports", "gltf-anim.sarif")))

    def test_findings_fail_the_job_and_reach_the_report(self):
        project = self.project("invalid", ["conformance_assets/invalid/channel/duplicate_targets.gltf"])
        proc = self.run_script(project, {})
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        report = os.path.join(project, self.job["artifacts"]["reports"]["junit"])
        failures = ET.parse(report).getroot().findall(".//failure")
        self.assertEqual(len(failures), 1)
        self.assertIn("ANIMATION_DUPLICATE_TARGETS", ET.tostring(failures[0], encoding="unicode"))

    def test_the_cached_build_is_rebuilt_when_the_sources_change(self):
        # before_script run as the runner would, three times with the project's
        # .gltf-anim/ kept between runs (the job's cache), apt-get, git and the
        # build replaced by stand-ins: git clones an "upstream" copy of these
        # sources (and insists that options end before the repository), the build
        # installs the already built CLI and counts itself. A branch that moves
        # (a changed source) must be built again; unchanged sources must not.
        work = os.path.join(SCRATCH, "rebuild")
        shutil.rmtree(work, ignore_errors=True)
        upstream, project, fake = (os.path.join(work, n) for n in ("upstream", "project", "bin"))
        listed = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "ci-build-key.sh"), "--list", SOURCE],
                                capture_output=True, text=True, check=True).stdout.splitlines()
        for rel in listed:
            os.makedirs(os.path.dirname(os.path.join(upstream, rel)), exist_ok=True)
            shutil.copy2(os.path.join(SOURCE, rel), os.path.join(upstream, rel))
        os.makedirs(project)
        os.makedirs(fake)
        stand_ins = {
            "apt-get": "#!/bin/sh\nexit 0\n",
            "git": '#!/bin/bash\n'
                   '[ "$1" = clone ] || exit 3\n'
                   'n=$#; [ "${@:n-2:1}" = -- ] || { echo "git: options do not end before the repository" >&2; exit 3; }\n'
                   'mkdir -p -- "${!n}" && cp -a -- "$UPSTREAM/." "${!n}/"\n',
            "bash": '#!/bin/sh\n'
                    'case "$1" in */scripts/build-cli.sh)\n'
                    '  echo build >>"$BUILDS"; mkdir -p "$2/bin" && ln -sf "$TEST_CLI" "$2/bin/gltf-anim"; exit 0;;\n'
                    'esac\n'
                    'exec /bin/bash "$@"\n',
        }
        for name, text in stand_ins.items():
            with open(os.path.join(fake, name), "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(os.path.join(fake, name), 0o755)
        builds = os.path.join(work, "builds")
        env = dict(os.environ, CI_PROJECT_DIR=project, CI="true", GITLAB_CI="true", UPSTREAM=upstream,
                   TEST_CLI=CLI, BUILDS=builds, PATH=fake + os.pathsep + os.environ["PATH"])
        for name, value in self.job["variables"].items():
            env[name] = expand(str(value), env)
        script = "\n".join(self.job["before_script"])

        def run_job():
            proc = subprocess.run(["/bin/bash", "-e", "-c", script], cwd=project, env=env,
                                  capture_output=True, text=True, timeout=300)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            with open(builds, encoding="utf-8") as f:
                return len(f.read().split())

        open(builds, "w").close()
        self.assertEqual(run_job(), 1)  # empty cache: built
        self.assertEqual(run_job(), 1)  # same sources: the cached build
        with open(os.path.join(upstream, "docs", "samples.schema.json"), "a", encoding="utf-8") as f:
            f.write(" ")
        self.assertEqual(run_job(), 2)  # the branch moved: built again
        self.assertEqual(run_job(), 2)
        self.assertTrue(os.access(expand(self.job["variables"]["GLTF_ANIM"], env), os.X_OK))

    def test_no_asset_found_fails_the_job(self):
        project = self.project("empty", [])
        proc = self.run_script(project, {})
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[4:], verbosity=2)
