#!/usr/bin/env python3
"""Synthetic json reports for bench/merge_identity.sh: the shapes that exercise
each format's per-asset logic (text's groups of codes with more than 20
distinct messages, md's row caps and failures-first order, github's annotation
caps, junit's failing and other lines, sarif's regions), built from the codes
the CLI lists (`gltf-anim codes --format json`), at sizes that merge in seconds.
   python3 bench/merge_identity.py CODES.json OUT_DIR VERSION"""
import json, random, sys

codes_file, out, version = sys.argv[1], sys.argv[2], sys.argv[3]
codes = [c["code"] for c in json.load(open(codes_file))["codes"]][:40]
rng = random.Random(20261128)


def message(k, distinct):
    return f"Message {k % distinct} of a kind: value \"{k}\" <&> \u00e9\t."


def issue(k, distinct, glb, found_by):
    m = {"code": rng.choice(codes), "message": message(rng.randrange(10**6), distinct),
         "severity": rng.choice([0, 1, 1, 2, 2, 3])}
    if rng.random() < 0.3:
        m["arguments"] = [str(k), "x" * rng.randrange(4)]
    if rng.random() < 0.1:
        m["offset"] = rng.randrange(10**6)
    else:
        m["pointer"] = rng.choice(["", f"/nodes/{k}", f"/animations/{k % 7}/channels/{k}/target",
                                   "/a~1b/~0c"])
        if rng.random() < 0.7:
            m["position"] = {"line": k + 1, "column": rng.randrange(1, 80),
                             "byteOffset": 10 * k, "inGlbJsonChunk": glb}
    if found_by:
        m["foundBy"] = rng.choice([["gltf-anim"], ["gltf-anim", "glTF-Validator"]])
    return m


def asset(uri, n, distinct, glb=False, found_by=False, truncated=False, same_code=None):
    msgs = [issue(k, distinct, glb, found_by) for k in range(n)]
    if same_code:
        for m in msgs:
            m["code"] = same_code
    counts = [sum(1 for m in msgs if m["severity"] == s) for s in range(4)]
    a = {"uri": uri, "mimeType": "model/gltf-binary" if glb else "model/gltf+json",
         "validatorName": "gltf-anim", "validatorVersion": version,
         "issues": {"numErrors": counts[0], "numWarnings": counts[1], "numInfos": counts[2],
                    "numHints": counts[3], "messages": msgs, "truncated": truncated}}
    if rng.random() < 0.5:
        a["info"] = {"version": "2.0", "animationCount": 1, "hasMorphTargets": False,
                     "hasSkins": True}
    return a, counts


def report(name, assets, fail_on="error"):
    fail = {"error": 0, "warning": 1, "info": 2}[fail_on]
    totals = [0, 0, 0, 0]
    failing = truncated = 0
    items = []
    for a, c in assets:
        items.append(a)
        totals = [t + x for t, x in zip(totals, c)]
        failing += any(c[s] for s in range(fail + 1))
        truncated += a["issues"]["truncated"]
    r = {"tool": {"name": "gltf-anim", "version": version,
                  "informationUri": "https://github.com/gltf-anim/gltf-anim"},
         "reports": items,
         "summary": {"assets": len(items), "assetsFailing": failing,
                     "assetsTruncated": truncated, "numErrors": totals[0],
                     "numWarnings": totals[1], "numInfos": totals[2], "numHints": totals[3],
                     "failOn": fail_on, "result": "fail" if failing else "pass"}}
    json.dump(r, open(f"{out}/{name}.json", "w"), indent=rng.choice([None, 4]))


for fail_on in ("error", "warning", "info"):
    # text: one code with many distinct messages (more than 20), and few.
    report(f"distinct_many_{fail_on}", [asset("a/m.gltf", 3000, 500, same_code=codes[3]),
                                        asset("b.glb", 200, 3, glb=True)], fail_on)
    report(f"distinct_few_{fail_on}", [asset("m.gltf", 400, 1), asset("n.gltf", 5, 25)], fail_on)
    # md: more than 100 failing assets and 500 rows; github's caps.
    report(f"many_assets_{fail_on}",
           [asset(f"d{k % 9}/m{k}.gltf", rng.randrange(0, 40), rng.randrange(1, 30),
                  glb=k % 5 == 0, truncated=k % 7 == 0) for k in range(260)], fail_on)
    # glTF-Validator marks, empty assets, a truncated one.
    report(f"found_by_{fail_on}", [asset("g.gltf", 300, 40, found_by=True),
                                   asset("e.gltf", 0, 1), asset("t.gltf", 30, 2, truncated=True)],
           fail_on)
# merge_large.sh's shapes, small: one asset of every issue, many tiny assets.
report("single_small", [asset("m.gltf", 20000, 5000, same_code=codes[1])])
report("tiny_small", [asset(f"m{k}.gltf", 1, 1) for k in range(3000)])
