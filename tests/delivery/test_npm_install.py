"""CTest delivery_npm_install: the npm route of CI without network. scripts/ci-npm-install.sh
(the GitHub Action's npm-version) and the GitLab npm job (docs/ci/gitlab-ci-npm.yml) install
a tarball made by `npm pack` (real npm, a stand-in package), and when npm cannot install the
package (a stand-in npm that fails as npm does on a version the registry does not have) they
fail with exit code 2 and a message saying so, never silently.

    python3 test_npm_install.py SOURCE_DIR SCRATCH_DIR
"""

import os
import shutil
import stat
import subprocess
import sys
import unittest

import yaml

import github_action as gha

SOURCE, SCRATCH = (os.path.abspath(p) for p in sys.argv[1:3])
INSTALL = os.path.join(SOURCE, "scripts", "ci-npm-install.sh")
GITLAB_NPM = os.path.join(SOURCE, "docs", "ci", "gitlab-ci-npm.yml")

# What npm 10 prints for a version that is not published (and exits 1).
NPM_404 = """#!/bin/sh
echo "npm error code E404" >&2
echo "npm error 404 Not Found - GET https://registry.npmjs.org/gltf-anim - Not found" >&2
exit 1
"""


def write_executable(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


class NpmInstall(unittest.TestCase):
    def setUp(self):
        self.work = os.path.join(SCRATCH, self.id().rsplit(".", 1)[-1])
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)

    def failing_npm_env(self, **extra):
        bin_dir = os.path.join(self.work, "bin")
        os.makedirs(bin_dir, exist_ok=True)
        write_executable(os.path.join(bin_dir, "npm"), NPM_404)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
        env["PATH"] = bin_dir + os.pathsep + env["PATH"]
        env.update(extra)
        return env

    def tarball(self):
        """A stand-in gltf-anim package packed by the real npm: its CLI prints a version."""
        package = os.path.join(self.work, "package")
        os.makedirs(package)
        with open(os.path.join(package, "package.json"), "w", encoding="utf-8") as f:
            f.write('{"name": "gltf-anim", "version": "0.1.0", "bin": {"gltf-anim": "cli.js"}}\n')
        write_executable(os.path.join(package, "cli.js"),
                         "#!/usr/bin/env node\nconsole.log('gltf-anim 0.1.0 ' + process.argv.slice(2).join(' '));\n")
        r = subprocess.run(["npm", "pack", "--silent", "--pack-destination", self.work], cwd=package,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        return os.path.join(self.work, r.stdout.strip().splitlines()[-1])

    def test_a_version_npm_cannot_install_fails_with_a_message(self):
        r = subprocess.run(["bash", INSTALL, "0.1.0", os.path.join(self.work, "prefix")], capture_output=True,
                           text=True, env=self.failing_npm_env(), timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stdout, "", "no path= line for GITHUB_OUTPUT")
        self.assertIn("npm could not install gltf-anim@0.1.0", r.stderr)
        self.assertIn("npm: npm error 404 Not Found", r.stderr, "npm's own words are shown")
        self.assertIn("npm pack", r.stderr, "the message says what to do instead")
        self.assertEqual(gha.workflow_commands(r.stderr), [], "no annotation outside GitHub Actions")

    def test_under_github_actions_the_failure_is_also_an_annotation(self):
        r = subprocess.run(["bash", INSTALL, "0.1.0", os.path.join(self.work, "prefix")], capture_output=True,
                           text=True, env=self.failing_npm_env(GITHUB_ACTIONS="true"), timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        commands = gha.workflow_commands(r.stderr)
        self.assertEqual(len(commands), 1, r.stderr)
        self.assertEqual(commands[0][0], "error")
        self.assertIn("npm could not install gltf-anim@0.1.0", commands[0][2])

    def test_a_tarball_that_is_not_there_fails_with_a_message(self):
        r = subprocess.run(["bash", INSTALL, "gltf-anim-0.1.0.tgz", os.path.join(self.work, "prefix")],
                           capture_output=True, text=True, cwd=self.work, timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("'gltf-anim-0.1.0.tgz' is not a file", r.stderr)

    def test_a_tarball_of_npm_pack_is_installed(self):
        tarball = self.tarball()
        # Named relative to the folder the step runs in, as a workflow would.
        r = subprocess.run(["bash", INSTALL, os.path.basename(tarball), os.path.join(self.work, "prefix")],
                           capture_output=True, text=True, cwd=self.work, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        exe = os.path.join(self.work, "prefix", "node_modules", ".bin", "gltf-anim")
        self.assertEqual(r.stdout, f"path={exe}\n")
        self.assertIn("gltf-anim 0.1.0 --version", r.stderr)

    def gitlab_job(self):
        with open(GITLAB_NPM, encoding="utf-8") as f:
            return yaml.safe_load(f)["gltf-anim"]

    def run_gitlab_install(self, package, env):
        """The npm job's before_script, run as GitLab's runner runs it (sh -e per line)."""
        job = self.gitlab_job()
        env = dict(env, CI_PROJECT_DIR=self.work)
        for name, value in job["variables"].items():  # GitLab expands ${CI_PROJECT_DIR} in them
            env[name] = str(value).replace("${CI_PROJECT_DIR}", self.work)
        env["GLTF_ANIM_NPM_PACKAGE"] = package
        script = "\n".join(job["before_script"])
        return subprocess.run(["sh", "-ec", script], cwd=self.work, env=env, capture_output=True, text=True,
                              timeout=300)

    def test_the_gitlab_npm_job_fails_with_a_message(self):
        r = self.run_gitlab_install("gltf-anim@0.1.0", self.failing_npm_env())
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        out = r.stdout + r.stderr
        self.assertIn("npm error 404 Not Found", out)
        self.assertIn("could not install 'gltf-anim@0.1.0'", out)
        self.assertIn("npm pack", out)

    def test_the_gitlab_npm_job_installs_a_tarball_and_runs_it(self):
        tarball = self.tarball()
        r = self.run_gitlab_install(os.path.basename(tarball), dict(os.environ))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # Its script runs the installed executable.
        job = self.gitlab_job()
        self.assertTrue(any("$GLTF_ANIM " in line or '"$GLTF_ANIM"' in line for line in job["script"]), job["script"])
        exe = job["variables"]["GLTF_ANIM"].replace("${CI_PROJECT_DIR}", self.work)
        self.assertTrue(os.access(exe, os.X_OK), exe)

    def test_no_template_has_a_placeholder_owner(self):
        for folder in ("docs/ci", "docs", "."):
            for name in sorted(os.listdir(os.path.join(SOURCE, folder))):
                if name.endswith((".yml", ".yaml", ".md")):
                    with open(os.path.join(SOURCE, folder, name), encoding="utf-8") as f:
                        self.assertNotIn("OWNER/", f.read(), f"{folder}/{name}")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[3:], verbosity=2)
