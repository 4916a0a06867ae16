#!/usr/bin/env python3
"""CTest adapter_template_python_first_report: the first report an engine author reads.

    check_buggy_engine.py GLTF_ANIM SUITE_DIR WORK_DIR

Runs buggy_engine.py (the Python template with three classic sampler bugs and no morph
weights) over the whole suite, then `gltf-anim compare` in text, JSON and HTML, and checks
that the report names each bug on the cases that expose it, shows the channels the engine
cannot play as not run (unsupported: FEATURE) and never as failures, and leaves no failing
channel without a name, except where two readings meet on one channel (EXT_animation_sqlerp's
LINEAR fallback played with the lerp bug: compare combines no two alternatives on one channel).
Standard library only.
"""

import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


def main(argv):
    if len(argv) != 4:
        print("usage: check_buggy_engine.py GLTF_ANIM SUITE_DIR WORK_DIR", file=sys.stderr)
        return 2
    cli, suite, work = argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "samples")
    engine = subprocess.run([sys.executable, os.path.join(HERE, "buggy_engine.py"), suite, out],
                            capture_output=True, text=True)
    check(engine.returncode == 0, "buggy_engine.py exit %d: %s" % (engine.returncode, engine.stderr))
    reports = {}
    for fmt in ("text", "json", "html"):
        path = os.path.join(work, "report." + fmt)
        run = subprocess.run([cli, "compare", "--golden=" + suite, "--actual=" + out, "--format", fmt,
                              "--output", path], capture_output=True, text=True)
        check(run.returncode == 1, "compare --format %s: exit %d, not 1 (cases fail)" % (fmt, run.returncode))
        with open(path, encoding="utf-8") as f:
            reports[fmt] = f.read()
    report = json.loads(reports["json"])
    cases = {c["id"]: c for c in report["cases"]}

    # The three bugs, each named on the case made for it (the whole case matches it).
    for case_id, divergence in (("translation_cubicspline", "cubicspline-tangents-not-scaled"),
                                ("translation_step", "step-nearest-key"),
                                ("rotation_linear", "lerp-not-normalized")):
        c = cases[case_id]
        check(c["outcome"] == "failed" and c["matchedDivergence"] == divergence,
              "%s: %s, divergence %r, not %s" % (case_id, c["outcome"], c["matchedDivergence"], divergence))
        check('your values match known divergence "%s"' % divergence in reports["text"],
              "the text report does not name %s" % divergence)

    # What the engine cannot play: not run, with the feature; never failed.
    for case_id, feature in (("weights2_linear", "morph weights"),
                             ("pointer_float_linear", "KHR_animation_pointer"),
                             ("animation2_slerp", "KHR_animation2")):
        c = cases[case_id]
        check(c["outcome"] == "not run" and c["unsupported"] == [feature],
              "%s: %s, unsupported %r, not 'not run' with %s" % (case_id, c["outcome"], c["unsupported"], feature))
    line = report["summaryLine"]
    check(" not run (unsupported: " in line and "morph weights 17" in line
          and "KHR_animation_pointer 26" in line, "summary line: " + line)
    check(report["summary"]["advice"] == "", "cases fail only on missing channels: " + report["summary"]["advice"])

    # Every failing channel named (a full or partial match), but where two readings meet.
    for c in report["cases"]:
        if c["outcome"] != "failed" or "EXT_animation_sqlerp" in c["features"]:
            continue
        check(not c["missingOnly"], "%s fails only on missing channels" % c["id"])
        for ch in c["channels"]:
            if not ch["passed"] and not ch["unsupported"]:
                check(ch["alternatives"], "%s %s fails with no name: %s" % (c["id"], ch["target"], ch["problem"]))
    check(sum(c["outcome"] == "failed" for c in report["cases"]) > 0, "no case fails")
    check(all(c["outcome"] != "failed" for c in report["cases"] if "weights" in c["features"]
              and "KHR_animation_pointer" not in c["features"]), "a morph weights case failed")

    # The HTML report leads with its cases per feature (before the contents).
    html = reports["html"]
    summary_at = html.find('<table id="feature-summary">')
    check(0 <= summary_at < html.find('id="contents"'), "the HTML report does not lead with its feature summary")
    check('<tr class="notrun"><td>KHR_animation_pointer</td><td class="num">0</td><td class="num">0</td>'
          '<td class="num">26</td>' in html, "the feature summary's KHR_animation_pointer row")
    for p in problems:
        print("check_buggy_engine.py: " + p, file=sys.stderr)
    if problems:
        return 1
    print("check_buggy_engine.py: the first report names the three bugs and shows unsupported channels as not run: " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
