"""What the invalid-asset builders here (build_*.py) share: the expected report
(glTF-Validator's JSON report shape, each message reduced to code, severity and
pointer) and writing every case as <path>.gltf plus <path>.gltf.report.json.
tests/validator/test_rules_invalid_assets.cpp compares the validator with them.
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def report(name, messages):
    sev = [m[1] for m in messages]
    return {
        "uri": name,
        "issues": {
            "numErrors": sev.count(0), "numWarnings": sev.count(1),
            "numInfos": sev.count(2), "numHints": sev.count(3),
            "messages": [{"code": c, "severity": s, "pointer": p} for c, s, p in messages],
        },
    }


def write_cases(cases):
    """cases: {path: (doc, messages, note)}, path relative to this folder and
    without ".gltf"; the note goes into the asset's extras.description."""
    for path, (doc, messages, note) in sorted(cases.items()):
        out = os.path.normpath(os.path.join(HERE, path + ".gltf"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        doc = copy.deepcopy(doc)
        doc["asset"]["extras"] = {"description": note}
        with open(out, "w") as f:
            f.write(json.dumps(doc, indent=2, allow_nan=False) + "\n")
        with open(out + ".report.json", "w") as f:
            f.write(json.dumps(report(os.path.basename(out), messages), indent=2) + "\n")
    print(f"wrote {len(cases)} assets")
