"""CTest delivery_build_key: the cache key of CI builds (scripts/ci-build-key.sh,
used by action.yml and docs/ci/gitlab-ci.yml) covers every file a build reads.
What the build reads comes from the build itself, not from the script: the files
CMake's configure step read (CMakeFiles/Makefile.cmake, CMAKE_MAKEFILE_DEPENDS) and
every source and header the compiler read (the *.o.d dependency files). Then, on a
copy of the sources: the key changes when one such file changes (docs/samples.schema.json,
compiled into the CLI), and does not depend on where the copy is or on build products.

    python3 test_build_key.py SOURCE_DIR BINARY_DIR SCRATCH_DIR
"""

import os
import re
import shutil
import subprocess
import sys
import unittest

SOURCE, BINARY, SCRATCH = (os.path.abspath(p) for p in sys.argv[1:4])
KEY = os.path.join(SOURCE, "scripts", "ci-build-key.sh")


def key_of(source, *args):
    return subprocess.run(["bash", KEY, *args, source], capture_output=True, text=True, check=True).stdout


def inside_source(path, base=BINARY):
    """The name relative to SOURCE of a file the build read there, None for one read
    elsewhere or that is not a source: the build's own products (BINARY) and .deps/
    (Debian's valijson unpacked by scripts/setup.sh: it comes with the system, which
    is part of the key)."""
    path = os.path.normpath(path if os.path.isabs(path) else os.path.join(base, path))
    if os.path.commonpath([SOURCE, path]) != SOURCE:
        return None
    for outside in (BINARY, os.path.join(SOURCE, ".deps")):
        if os.path.commonpath([outside, path]) == outside:
            return None
    return os.path.relpath(path, SOURCE)


def configure_inputs():
    with open(os.path.join(BINARY, "CMakeFiles", "Makefile.cmake"), encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"set\(CMAKE_MAKEFILE_DEPENDS\n(.*?)\)", text, re.S).group(1)
    return {p for p in (inside_source(q) for q in re.findall(r'"([^"]+)"', block)) if p}


def compiler_inputs():
    found, files = set(), 0
    for folder, _, names in os.walk(BINARY):
        for name in names:
            if not name.endswith(".o.d"):
                continue
            files += 1
            # Relative names are from the folder the compiler ran in: the target's
            # folder of the build, above its CMakeFiles/.
            base = folder.split(os.sep + "CMakeFiles" + os.sep)[0]
            with open(os.path.join(folder, name), encoding="utf-8", errors="surrogateescape") as f:
                # Make syntax: "target: dep dep \\" lines; spaces in names are "\\ ".
                text = f.read().replace("\\\n", " ")
            for token in re.split(r"(?<!\\) +", text.split(":", 1)[1] if ":" in text else ""):
                token = token.strip().replace("\\ ", " ")
                rel = inside_source(token, base) if token else None
                if rel:
                    found.add(rel)
    return found, files


class BuildKey(unittest.TestCase):
    def test_every_file_the_build_read_is_in_the_key(self):
        hashed = set(key_of(SOURCE, "--list").splitlines())
        configured = configure_inputs()
        compiled, depfiles = compiler_inputs()
        self.assertIn(os.path.join("docs", "samples.schema.json"), configured)
        self.assertGreater(depfiles, 0, "no *.o.d file: build the project first")
        self.assertTrue(any(p.startswith("cli" + os.sep) for p in compiled), "the CLI's sources were not seen")
        # Files generated into the source tree by the build are not sources.
        missing = {p for p in configured | compiled if os.path.isfile(os.path.join(SOURCE, p))} - hashed
        self.assertEqual(missing, set())

    def test_the_key_follows_the_sources_not_their_place_or_products(self):
        files = key_of(SOURCE, "--list").splitlines()
        copies = []
        for name in ("a", "b"):
            root = os.path.join(SCRATCH, name, "src")
            shutil.rmtree(os.path.dirname(root), ignore_errors=True)
            for rel in files:
                os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                shutil.copy2(os.path.join(SOURCE, rel), os.path.join(root, rel))
            copies.append(root)
        a, b = copies
        key = key_of(a)
        self.assertRegex(key, r"^key=gltf-anim-cli-[^\s]+-[0-9a-f]{64}\n$")
        self.assertEqual(key_of(b), key)
        for product in ("build/x.o", "build-cli/cli/gltf-anim", ".deps/valijson/h.hpp",
                        "adapters/node_modules/three/package.json", ".git/HEAD"):
            os.makedirs(os.path.dirname(os.path.join(b, product)), exist_ok=True)
            with open(os.path.join(b, product), "w", encoding="utf-8") as f:
                f.write("product\n")
        self.assertEqual(key_of(b), key)
        with open(os.path.join(b, "docs", "samples.schema.json"), "a", encoding="utf-8") as f:
            f.write(" ")
        self.assertNotEqual(key_of(b), key)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[4:], verbosity=2)
