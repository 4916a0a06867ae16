#!/usr/bin/env python3
"""A second hostile corpus, run through every command of the CLI (not only validate).

generate.py writes small committed inputs that test_hostile.cpp validates and samples;
this script generates its inputs at run time in a scratch folder (names with newlines,
markup and workflow-command syntax; hostile numbers, pointers and URIs; large shapes at
1x, 2x and 4x) and runs validate (every format), sample (json, csv, --keys, --rate,
--max-times), compare (every format), generate --from, merge, fix, reduce, fit, migrate,
codes and squad-report on them, each under `timeout` and `prlimit --as`, and checks the
contract of docs/RELIABILITY.md:

- the exit code is in the command's documented set, never a signal, never an
  "internal error";
- standard output, standard error and every output file are valid UTF-8 and well formed
  for their format (JSON and SARIF by a strict JSON parser whose decoded strings must be
  UTF-8, JUnit by an XML parser, HTML as XML with HTML's void elements and no script, the
  GitHub workflow commands with every property and message escaped, Markdown and text
  without control characters, CSV by a CSV reader);
- no output is left beside the target on failure (no `.gltf-anim-*.tmp`), no file appears
  outside the output folder, an output that is an input (by `./x`, `d/../x`, a symlink, a
  hard link) is refused and the input keeps its bytes;
- CPU time grows linearly with the input: at 4x the input a run may take at most
  SLOPE x 4 the 1x time (plus a floor for start-up noise).

Run: python3 tests/hostile/sweep.py GLTF_ANIM [--quick] [--keep DIR]
Exit 0 when every check holds; else each failure is printed and the exit is 1.
Expectations are the contract's, not the code's: exit sets from each command's --help.
"""
import argparse
import base64
import csv
import html.entities
import io
import json
import os
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

FAILURES = []
RUNS = 0
ADDRESS_SPACE = 2 << 30  # 2 GiB: well above any bound the docs give for these inputs
SLOPE = 2.0              # 4x the input may take up to 2 x 4 = 8x the CPU (noise, caches)
FLOOR = 0.25             # seconds of CPU below which a ratio says nothing

HTML_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
             "source", "track", "wbr"}


def fail(what, detail):
    FAILURES.append((what, detail))
    print("FAIL %s: %s" % (what, detail[:2000]), flush=True)


# ---------------------------------------------------------------- format checks

def check_utf8(what, data: bytes):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(what, "not UTF-8: %s" % e)
        return None


def walk_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from walk_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk_strings(v)


def check_json(what, text):
    def no_constant(name):
        raise ValueError("non-standard constant " + name)
    try:
        doc = json.loads(text, parse_constant=no_constant)
    except ValueError as e:
        fail(what, "JSON does not parse: %s" % e)
        return None
    for s in walk_strings(doc):
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            fail(what, "a JSON string decodes to a lone surrogate: %r" % s[:80])
            break
    return doc


def check_xml(what, text, as_html=False):
    if as_html:
        if re.search(r"<script", text, re.I):
            fail(what, "HTML holds a <script>")
        # HTML's void elements are written without a closing tag: close them for XML.
        text = re.sub(r"<!DOCTYPE[^>]*>", "", text, flags=re.I)
        text = re.sub(r"<(%s)(\s[^<>]*)?>" % "|".join(HTML_VOID),
                      lambda m: m.group(0) if m.group(0).endswith("/>") else m.group(0)[:-1] + "/>",
                      text, flags=re.I)
        # HTML's named entities are not XML's: write them as numeric references.
        text = re.sub(r"&([A-Za-z][A-Za-z0-9]*);",
                      lambda m: m.group(0) if m.group(1) in ("amp", "lt", "gt", "quot", "apos")
                      else "&#%d;" % html.entities.name2codepoint.get(m.group(1), 0xFFFD), text)
    try:
        ET.fromstring(text.encode("utf-8"))
    except ET.ParseError as e:
        line = e.position[0] if hasattr(e, "position") else 0
        lines = text.split("\n")
        fail(what, "XML not well formed: %s near %r" % (e, lines[line - 1][:200] if 0 < line <= len(lines) else ""))


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def check_plain(what, text):
    m = CONTROL.search(text.replace("\r\n", "\n"))
    if m:
        fail(what, "control or hidden character %r in text output" % m.group(0))


def check_github(what, text):
    """Every line is a workflow command whose message escapes % CR LF and whose properties
    also escape : and , (GitHub's toolkit: escapeData, escapeProperty), or plain text that
    does not start a command."""
    for line in text.split("\n"):
        if not line.startswith("::"):
            if "::" in line and re.match(r"^\s*::", line):
                fail(what, "a line that starts a command after spaces: %r" % line[:120])
            continue
        m = re.match(r"^::([a-z-]+)( [^:]*)?::(.*)$", line)
        if not m:
            fail(what, "workflow command not of the form ::cmd props::msg: %r" % line[:200])
            continue
        props, msg = m.group(2) or "", m.group(3)
        for p in filter(None, props.strip().split(",")):
            if "=" not in p:
                fail(what, "property without '=' (an unescaped ','?): %r" % line[:200])
                break
            key, val = p.split("=", 1)
            if re.search(r"%(?!25|0D|0A|3A|2C)", val) or "\r" in val:
                fail(what, "property value with an unescaped %%: %r" % line[:200])
        if re.search(r"%(?!25|0D|0A)", msg):
            fail(what, "message with an unescaped %%: %r" % line[:200])


def check_csv(what, text):
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as e:
        fail(what, "CSV does not parse: %s" % e)
        return
    if rows:
        width = len(rows[0])
        for i, r in enumerate(rows[1:], 2):
            if r and len(r) != width:
                fail(what, "CSV row %d has %d fields, the header %d" % (i, len(r), width))
                break


def check_format(what, data: bytes, fmt):
    text = check_utf8(what, data)
    if text is None or not text:
        return None
    if fmt in ("json", "sarif", "keys"):
        return check_json(what, text)
    if fmt == "junit":
        check_xml(what, text)
    elif fmt == "html":
        check_xml(what, text, as_html=True)
    elif fmt == "github":
        check_github(what, text)
    elif fmt == "csv":
        check_csv(what, text)
    elif fmt in ("text", "md"):
        check_plain(what, text)
    return None


# ---------------------------------------------------------------- running

def run(exe, args, what, ok_exits=(0, 1, 2), stdin=None, cwd=None, fmt="text", out_file=None,
        timeout=60, want_exit=None):
    """Runs one command under a time and address-space limit; checks the contract.
    Returns (exit, stdout bytes, stderr bytes, cpu seconds)."""
    global RUNS
    RUNS += 1
    cmd = ["prlimit", "--as=%d" % ADDRESS_SPACE, "--", "timeout", "-s", "KILL", str(timeout), exe] + args
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rc = p.returncode
    label = "%s [%s]" % (what, " ".join(a if len(a) < 60 else a[:57] + "..." for a in args))
    if rc == 137 or rc == -9:
        fail(label, "killed after %d s (hang) or by a signal (exit %d)" % (timeout, rc))
    elif rc < 0 or rc > 128:
        fail(label, "ended by a signal: exit %d; stderr %r" % (rc, p.stderr[-400:]))
    elif rc not in ok_exits:
        fail(label, "exit %d not in %s; stderr %r" % (rc, ok_exits, p.stderr[-400:]))
    elif want_exit is not None and rc != want_exit:
        fail(label, "exit %d, expected %d; stderr %r" % (rc, want_exit, p.stderr[-400:]))
    for stream, data in (("stdout", p.stdout), ("stderr", p.stderr)):
        low = data.lower()
        # SARIF lists the registry's rules (INTERNAL_ERROR among them) and `codes` prints
        # it: there only its use as a result's code counts
        internal = b"internal error" in low or b"terminate called" in low
        if args and args[0] == "codes":
            internal = b"internal error" in low and False
        elif fmt == "sarif" and stream == "stdout":
            internal = internal or re.search(rb'"ruleId"\s*:\s*"INTERNAL_ERROR"', data) is not None
        else:
            internal = internal or b"INTERNAL_ERROR" in data
        if internal or (stream == "stderr" and (b"std::" in low or b"basic_string" in low)):
            fail(label, "%s says %r" % (stream, data[-600:]))
    check_utf8(label + " stderr", p.stderr)
    if p.stderr:
        check_plain(label + " stderr", p.stderr.decode("utf-8", "replace"))
    doc = None
    if out_file is None:
        doc = check_format(label + " stdout", p.stdout, fmt)
    elif os.path.exists(out_file) and rc in (0, 1):
        with open(out_file, "rb") as f:
            doc = check_format(label + " output", f.read(), fmt)
    return rc, p.stdout, p.stderr, cpu, doc


def no_temporaries(folder, what):
    for root, _, files in os.walk(folder):
        for f in files:
            if f.startswith(".gltf-anim-") and f.endswith(".tmp"):
                fail(what, "temporary left behind: %s" % os.path.join(root, f))


def snapshot(folder):
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(root, f)
            if os.path.islink(p):
                out[p] = ("link", os.readlink(p))
            else:
                with open(p, "rb") as fh:
                    out[p] = fh.read()
    return out


# ---------------------------------------------------------------- assets

# The assets' building blocks are generate.py's (the first hostile corpus), so both corpora
# start from the same valid asset.
from generate import data_uri, floats  # noqa: E402  (sys.path[0] is this folder)
import generate  # noqa: E402


def base(times=(0.0, 1.0), name="a"):
    """A valid asset: node 0 translated LINEAR over `times`, node and animation named `name`."""
    asset = generate.base(times, [0.5] * (3 * len(times)))
    asset["nodes"][0]["name"] = name
    asset["animations"][0]["name"] = name
    return asset


def rotation_asset(keys=5):
    """generate.py's base asset with its channel on rotation: `keys` unit quaternions about z."""
    import math
    times = [i * 0.25 for i in range(keys)]
    vals = []
    for i in range(keys):
        a = 0.1 * i
        vals += [0.0, 0.0, math.sin(a / 2), math.cos(a / 2)]
    asset = generate.base(times, vals)  # the buffer and views are sized from the values
    asset["accessors"][1]["type"] = "VEC4"
    asset["animations"][0]["channels"][0]["target"]["path"] = "rotation"
    return asset


def compact(doc):
    return json.dumps(doc, separators=(",", ":"))


def dump(path, doc):
    data = doc if isinstance(doc, bytes) else json.dumps(doc, separators=(",", ":")).encode()
    with open(path, "wb") as f:
        f.write(data)
    return path


def glb(json_bytes, bin_bytes=None):
    json_bytes += b" " * (-len(json_bytes) % 4)
    out = struct.pack("<II", len(json_bytes), 0x4E4F534A) + json_bytes
    if bin_bytes is not None:
        bin_bytes += b"\0" * (-len(bin_bytes) % 4)
        out += struct.pack("<II", len(bin_bytes), 0x004E4942) + bin_bytes
    return struct.pack("<4sII", b"glTF", 2, 12 + len(out)) + out


# Names meant to break a report format: newlines and CR, workflow-command syntax, markup,
# a CDATA end, percent escapes, terminal escapes, bidi overrides, a CSV quote and comma.
HOSTILE_NAMES = [
    "nl\nx", "cr\rx", "::error file=x::forged", "%0A%25%3A", "</testsuite><x>", "]]>",
    "<script>alert(1)</script>", "a,b\"c", "\x1b[2Jesc", "rlo\u202etxt", "tab\tx", "pipe|`md`*",
    "quote'\"&amp;", "::stop-commands::tok", "x::", "\u2028sep", "\x7fdel",
]


def safe_file_name(s):
    return s.replace("/", "_").replace("\0", "_")


# ---------------------------------------------------------------- the sweep

def sweep_names(exe, work):
    """Hostile names in file names, folder names, animation names and node names, through
    every report format of validate, sample, compare, merge, generate --from and the tools."""
    d = os.path.join(work, "names")
    os.makedirs(d)
    assets = []
    for i, name in enumerate(HOSTILE_NAMES):
        sub = os.path.join(d, "f%02d%s" % (i, safe_file_name(name)))
        os.makedirs(sub)
        a = base(name=name)
        a["asset"]["generator"] = name
        a["animations"][0]["extras"] = {name: name}
        a["nodes"][0]["extensions"] = {name: {}}  # an undeclared extension: an issue quoting it
        a["animations"][0]["channels"][0]["target"]["extensions"] = {"KHR_" + name: 1}
        # an animation with errors, so the name reaches every format's annotations
        a["animations"].append({"name": name, "channels": [{"sampler": 7, "target": {"node": 0, "path": name}}],
                                "samplers": [{"input": 0, "output": 1, "interpolation": name}]})
        assets.append(dump(os.path.join(sub, safe_file_name(name) + ".gltf"), a))
    formats = ["json", "text", "junit", "sarif", "md", "github"]
    for fmt in formats:
        run(exe, ["validate", "--no-config", "--format", fmt, d], "validate names " + fmt, fmt=fmt)
        out = os.path.join(work, "names-report." + fmt)
        run(exe, ["validate", "--no-config", "--format", fmt, "-o", out, d], "validate names -o " + fmt,
            fmt=fmt, out_file=out)
    # merge of the json report, every format
    rep = os.path.join(work, "names-report.json")
    for fmt in formats:
        run(exe, ["merge", "--format", fmt, rep], "merge names " + fmt, fmt=fmt)
    # sample each, json and csv, and compare golden against itself and a moved copy
    gold = os.path.join(work, "names-golden")
    act = os.path.join(work, "names-actual")
    os.makedirs(gold)
    os.makedirs(act)
    for i, p in enumerate(assets):
        for fmt in ("json", "csv"):
            out = os.path.join(gold, "s%02d.samples.%s" % (i, fmt))
            run(exe, ["sample", p, "--format", fmt, "-o", out], "sample names " + fmt, fmt=fmt, out_file=out)
        run(exe, ["sample", p, "--keys"], "sample names keys", fmt="json")
        run(exe, ["sample", p, "--asset-name", HOSTILE_NAMES[i]], "sample --asset-name", fmt="json")
        # an actual file that differs, so the reports carry failing channels
        a = json.load(open(p))
        a["buffers"][0]["uri"] = data_uri(floats(0.0, 1.0) + floats(*([0.9] * 6)))
        q = dump(os.path.join(work, "names-moved-%02d.gltf" % i), a)
        run(exe, ["sample", q, "--asset-name", os.path.basename(p), "-o",
                  os.path.join(act, "s%02d.samples.json" % i)], "sample moved", fmt="json",
            out_file=os.path.join(act, "s%02d.samples.json" % i))
    for fmt in ("text", "json", "md", "junit", "html"):
        run(exe, ["compare", "--golden", gold, "--actual", act, "--format", fmt], "compare names " + fmt,
            fmt=fmt)
    # generate --from over the hostile folders
    out = os.path.join(work, "names-suite")
    run(exe, ["generate", "--from", d, "--out", out], "generate --from names")
    man = os.path.join(out, "manifest.json")
    if os.path.exists(man):
        check_format("generate --from names manifest", open(man, "rb").read(), "json")
        for fmt in ("text", "json", "md", "junit", "html"):
            run(exe, ["compare", "--golden", out, "--actual", out, "--format", fmt],
                "compare suite names " + fmt, fmt=fmt)
    # the repair tools, reports in both formats
    for i, p in enumerate(assets[:6]):
        for tool, extra in (("fix", []), ("reduce", ["--max-error", "1e-3"]),
                            ("fit", ["--to", "cubicspline", "--max-error", "1e-3"]),
                            ("migrate", ["--to", "khr_animation2"])):
            for fmt in ("text", "json"):
                o = os.path.join(work, "tool-out", "%s-%d-%s.gltf" % (tool, i, fmt))
                os.makedirs(os.path.dirname(o), exist_ok=True)
                run(exe, [tool, p, "-o", o, "--format", fmt, "--force"] + extra,
                    "%s names %s" % (tool, fmt), fmt=fmt)
    sweep_extras_pointers(exe, work)
    no_temporaries(work, "names")


def sweep_extras_pointers(exe, work):
    """KHR_animation_pointer channels to extras members with hostile names: the name is in
    the target pointer of every samples row (CSV: quoted) and of every compare report."""
    gold = os.path.join(work, "xp-golden")
    act = os.path.join(work, "xp-actual")
    os.makedirs(gold)
    os.makedirs(act)
    names = ["a,\"b\nc</x>]]>", "::error::x%0A", "\x1b[2J\u202e", "<script>x</script>", "|md|`", "a/b~c"]
    for k, nm in enumerate(names):
        for folder, second in ((gold, (0.25, 0.75)), (act, (0.3, 0.9))):
            a = base()
            a["extensionsUsed"] = ["KHR_animation_pointer"]
            a["buffers"].append({"byteLength": 8, "uri": data_uri(floats(*second))})
            a["bufferViews"].append({"buffer": 1, "byteLength": 8})
            a["accessors"].append({"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR"})
            a["animations"][0]["samplers"].append({"input": 0, "output": 2})
            a["nodes"][0]["extras"] = {nm: 0.5}
            ptr = "/nodes/0/extras/" + nm.replace("~", "~0").replace("/", "~1")
            a["animations"][0]["channels"].append({"sampler": 1, "target": {
                "path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": ptr}}}})
            a["animations"][0]["name"] = nm
            p = dump(os.path.join(work, "xp-%d-%d.gltf" % (k, folder == act)), a)
            for fmt in ("json", "csv"):
                out = os.path.join(folder, "x%d.samples.%s" % (k, fmt))
                run(exe, ["sample", p, "--format", fmt, "--asset-name", "x%d.gltf" % k, "-o", out],
                    "sample extras pointer " + fmt, fmt=fmt, out_file=out)
    for fmt in ("text", "json", "md", "junit", "html"):
        run(exe, ["compare", "--golden", gold, "--actual", act, "--format", fmt],
            "compare extras pointers " + fmt, fmt=fmt)


def sweep_values(exe, work):
    """Hostile values: numbers, pointers, URIs, declared counts, GLB lengths."""
    d = os.path.join(work, "values")
    os.makedirs(d)
    cases = {}

    def case(name, doc):
        cases[name] = dump(os.path.join(d, name), doc)

    # numbers
    case("neg_zero_times.gltf", compact(base()).replace('"min":[0.0]', '"min":[-0]').encode())
    case("tiny_exponent.gltf", compact(base()).replace('"max":[1.0]', '"max":[1e-400]').encode())
    case("huge_exponent_index.gltf", compact(base()).replace('"sampler":0', '"sampler":1e400').encode())
    case("many_digits.gltf", compact(base()).replace('"max":[1.0]', '"max":[1.' + "0" * 100000 + ']').encode())
    case("big_int.gltf", compact(base()).replace('"sampler":0', '"sampler":' + "9" * 5000).encode())
    case("neg_zero_index.gltf", compact(base()).replace('"sampler":0', '"sampler":-0').encode())
    case("float_zero_index.gltf", compact(base()).replace('"sampler":0', '"sampler":0.0').encode())
    case("underflow_index.gltf", compact(base()).replace('"sampler":0', '"sampler":1e-400').encode())
    case("exp_index.gltf", compact(base()).replace('"sampler":0', '"sampler":0e999999999999').encode())
    case("neg_zero_count.gltf", compact(base()).replace('"count":2', '"count":-0', 1).encode())
    case("big_bytelength.gltf", compact(base()).replace('"byteLength":32', '"byteLength":1' + "0" * 400, 1).encode())
    case("neg_exp_bytelength.gltf", compact(base()).replace('"byteLength":32', '"byteLength":32e-0', 1).encode())
    # strings
    case("nul_in_name.gltf", json.dumps(base(name="a\u0000b")).encode())
    case("bom.gltf", b"\xef\xbb\xbf" + json.dumps(base()).encode())
    case("overlong_utf8.gltf", compact(base(name="X")).encode().replace(b'"X"', b'"\xc0\xaf"'))
    case("surrogate_pair_ok.gltf", json.dumps(base(name="\U0001F600")).encode())
    case("lone_high.gltf", compact(base(name="X")).encode().replace(b'"X"', b'"\\ud800"'))
    case("long_name.gltf", base(name="n" * 300000))
    # pointers
    for i, ptr in enumerate(["/nodes/0/translation~1x", "/nodes/0~0/translation", "/nodes/%30/translation",
                             "/nodes/0/translation/" + "a/" * 20000, "/extensions/KHR_animation_pointer",
                             "/animations/0/channels/0/extensions/KHR_animation_pointer/pointer",
                             "/nodes/00/translation", "/nodes/-0/translation", "/nodes/1e0/translation",
                             "/nodes/0/extras/" + "~1" * 30000, "", "/", "//", "/nodes/0/weights/4294967296",
                             "/nodes/18446744073709551616/translation", "/materials/0/pbrMetallicRoughness/baseColorFactor"]):
        a = base()
        a["extensionsUsed"] = ["KHR_animation_pointer"]
        a["animations"][0]["channels"][0]["target"] = {
            "path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": ptr}}}
        case("pointer_%02d.gltf" % i, a)
        a = base()
        a["extensionsUsed"] = ["KHR_animation2"]
        a["animations"][0]["channels"][0]["target"] = {
            "extensions": {"KHR_animation2": {"targetpointer": ptr}}}
        case("anim2_%02d.gltf" % i, a)
    # URIs
    for i, uri in enumerate(["%00.bin", "a%2fb.bin", "%zz.bin", "x" * 5000 + ".bin", "data:,", "data:;base64,",
                             "data:application/octet-stream;base64," + "A" * 3, "C:\\x.bin", "\\\\srv\\x",
                             ".", "./", "..", "\n.bin", "%C0%AF.bin", "a?b#c", "#frag", "/", "//host/x",
                             "file:", "FILE:///etc/passwd", "jar:file:x!/y", "%2e%2e%2f%2e%2e%2fetc%2fpasswd"]):
        a = base()
        a["buffers"].append({"byteLength": 4, "uri": uri})
        a["images"] = [{"uri": uri}]
        case("uri_%02d.gltf" % i, a)
    # declared vs stored
    a = base()
    a["accessors"][0] = {"componentType": 5126, "count": 2 ** 40, "type": "SCALAR", "min": [0], "max": [0],
                         "sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5125},
                                    "values": {"bufferView": 0}}}
    case("sparse_huge.gltf", a)
    a = base()
    a["accessors"][1] = {"componentType": 5126, "count": 2 ** 40, "type": "VEC3"}
    case("output_huge_implicit.gltf", a)
    # self-referencing / odd structure
    a = base()
    a["animations"][0]["samplers"][0]["extras"] = {"input": 0}
    a["animations"][0]["channels"] = [a["animations"][0]["channels"][0]] * 3
    case("dup_channels.gltf", a)
    # GLB lengths that lie
    doc = json.dumps(base()).encode()
    g = glb(doc, b"\0" * 16)
    case("glb_ok.glb", g)
    case("glb_len_zero.glb", g[:8] + struct.pack("<I", 0) + g[12:])
    case("glb_json_len_odd.glb", g[:12] + struct.pack("<I", len(doc) - 3) + g[16:])
    case("glb_bin_len_zero.glb", g[:-24] + struct.pack("<I", 0) + g[-20:])
    case("glb_extra_chunks.glb", g + struct.pack("<II", 8, 0x12345678) + b"\0" * 8)
    case("glb_version_1.glb", g[:4] + struct.pack("<I", 1) + g[8:])
    case("glb_empty_json.glb", glb(b""))
    case("glb_truncated_chunk_header.glb", g[:20])
    # deep and wide extras
    a = base()
    x = {}
    for _ in range(60):
        x = {"k": x, "l": [x] if False else []}
    a["animations"][0]["extras"] = x
    case("extras_deep60.gltf", a)
    a = base()
    a["extras"] = {"k%d" % i: i for i in range(100000)}
    case("extras_wide.gltf", a)
    # sqlerp with hostile members
    a = rotation_asset()
    a["extensionsUsed"] = ["EXT_animation_sqlerp"]
    a["animations"][0]["samplers"].append({"input": 0, "output": 1, "interpolation": "CUBICSLERP"})
    a["animations"][0]["channels"][0]["extensions"] = {"EXT_animation_sqlerp": {"sampler": 1}}
    case("sqlerp_wrong_count.gltf", a)
    a = rotation_asset()
    a["extensionsUsed"] = ["EXT_animation_sqlerp"]
    a["animations"][0]["channels"][0]["extensions"] = {"EXT_animation_sqlerp": {"sampler": 0}}
    case("sqlerp_self.gltf", a)

    # same-folder buffer file for fix/reduce tools
    for name, path in sorted(cases.items()):
        fmt_cycle = ["json", "sarif", "junit", "github", "md", "text"]
        for fmt in fmt_cycle:
            run(exe, ["validate", "--no-config", "--format", fmt, path], "validate " + name, fmt=fmt,
                ok_exits=(0, 1))
        run(exe, ["sample", path], "sample " + name, fmt="json")
        run(exe, ["sample", path, "--format", "csv"], "sample csv " + name, fmt="csv")
        run(exe, ["sample", path, "--keys"], "sample keys " + name, fmt="json")
        run(exe, ["sample", path, "--rate", "1000000", "--max-times", "7"], "sample rate " + name, fmt="json")
        run(exe, ["sample", path, "--times", "-0,1e-300,1e300,-1e300,0.5"], "sample times " + name, fmt="json")
        for tool, extra in (("fix", []), ("reduce", ["--max-error", "1e-3"]),
                            ("fit", ["--to", "cubicslerp", "--max-error", "1e-3"]),
                            ("migrate", ["--to", "khr_animation_pointer"]),
                            ("migrate", ["--to", "khr_animation2"])):
            o = os.path.join(work, "values-out", name + "." + tool + os.path.splitext(name)[1])
            os.makedirs(os.path.dirname(o), exist_ok=True)
            rc, out, err, _, doc = run(exe, [tool, path, "-o", o, "--format", "json", "--force"] + extra,
                                       "%s %s" % (tool, name), fmt="json")
            if rc == 0 and os.path.exists(o):
                # an output never validates worse than its input
                r_in = run(exe, ["validate", "--no-config", "--format", "json", path], "validate in", fmt="json")[4]
                r_out = run(exe, ["validate", "--no-config", "--format", "json", o], "validate out", fmt="json")[4]
                if r_in and r_out and r_out["summary"]["numErrors"] > r_in["summary"]["numErrors"]:
                    fail("%s %s" % (tool, name), "the output has %d errors, the input %d" % (
                        r_out["summary"]["numErrors"], r_in["summary"]["numErrors"]))
    no_temporaries(work, "values")


def sweep_outputs(exe, work):
    """Same-file outputs by ./x, d/../x, symlink, hard link; temporaries on failure."""
    d = os.path.join(work, "same")
    os.makedirs(os.path.join(d, "sub"))
    p = dump(os.path.join(d, "a.gltf"), base())
    os.link(p, os.path.join(d, "hard.gltf"))
    os.symlink("a.gltf", os.path.join(d, "sym.gltf"))
    rep = os.path.join(d, "r.json")
    run(exe, ["validate", "--no-config", "--format", "json", "-o", rep, p], "validate for merge", fmt="json",
        out_file=rep)
    sam = os.path.join(d, "s.samples.json")
    run(exe, ["sample", p, "-o", sam], "sample for compare", fmt="json", out_file=sam)
    before = snapshot(d)
    for target in ("./a.gltf", "sub/../a.gltf", "hard.gltf", "sym.gltf", d + "/a.gltf", "./sub/.././a.gltf"):
        for tool, extra in (("fix", []), ("reduce", ["--max-error", "1e-3"]),
                            ("fit", ["--to", "cubicspline", "--max-error", "1e-3"]),
                            ("migrate", ["--to", "khr_animation2"])):
            run(exe, [tool, "a.gltf", "-o", target] + extra, "%s same-file %s" % (tool, target),
                cwd=d, want_exit=2)
        run(exe, ["validate", "--no-config", "a.gltf", "-o", target], "validate same-file " + target,
            cwd=d, want_exit=2)
        run(exe, ["sample", "a.gltf", "-o", target], "sample same-file " + target, cwd=d, want_exit=2)
    for target in ("./r.json", "sub/../r.json"):
        run(exe, ["merge", "r.json", "-o", target], "merge same-file " + target, cwd=d, want_exit=2)
    for target in ("./s.samples.json", "sub/../s.samples.json"):
        run(exe, ["compare", "--golden", "s.samples.json", "--actual", "s.samples.json", "-o", target],
            "compare same-file " + target, cwd=d, want_exit=2)
    after = snapshot(d)
    if before != after:
        changed = [k for k in set(before) | set(after) if before.get(k) != after.get(k)]
        fail("same-file outputs", "files changed or appeared: %s" % changed[:10])
    no_temporaries(d, "same-file outputs")
    # an output folder that vanishes / is not writable / /dev/full
    for tool, extra in (("fix", []), ("reduce", ["--max-error", "1e-3"])):
        run(exe, [tool, p, "-o", "/dev/full"] + extra, tool + " /dev/full", want_exit=2)
        run(exe, [tool, p, "-o", os.path.join(d, "missing", "x.gltf")] + extra, tool + " missing folder",
            want_exit=2)
    # generate --out inside the input folder: nothing outside --out
    out = os.path.join(work, "gen-out")
    before = snapshot(d)
    run(exe, ["generate", "--from", p, "--out", out], "generate --from one")
    if snapshot(d) != before:
        fail("generate --from", "changed its input folder")
    no_temporaries(work, "outputs")


def timed(exe, args, what, **kw):
    best = None
    for _ in range(2):
        rc, _, _, cpu, _ = run(exe, args, what, **kw)
        best = cpu if best is None else min(best, cpu)
    return best


def check_linear(what, cpus):
    """cpus: CPU seconds at 1x, 2x, 4x."""
    c1, c2, c4 = cpus
    print("  scale %-58s 1x %.3f  2x %.3f  4x %.3f" % (what, c1, c2, c4), flush=True)
    if c4 > FLOOR and c4 > SLOPE * 4 * max(c1, FLOOR / 4):
        fail("scaling " + what, "CPU 1x %.3f s, 2x %.3f s, 4x %.3f s: faster than linear growth" % (c1, c2, c4))


def sweep_scaling(exe, work, quick, shapes_too=True):
    d = os.path.join(work, "scale")
    os.makedirs(d)
    n0 = 2500 if quick else 10000
    results = []

    def many_animations(n):
        a = base()
        a["animations"] = [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                            "samplers": [{"input": 0, "output": 1}], "name": "anim%d" % i} for i in range(n)]
        return a

    def shared_sampler(n):
        a = base()
        a["nodes"] = [{} for _ in range(n)]
        a["animations"][0]["channels"] = [{"sampler": 0, "target": {"node": i, "path": "translation"}}
                                          for i in range(n)]
        return a

    def many_samplers(n):
        a = base()
        a["nodes"] = [{} for _ in range(n)]
        a["animations"][0]["samplers"] = [{"input": 0, "output": 1} for _ in range(n)]
        a["animations"][0]["channels"] = [{"sampler": i, "target": {"node": i, "path": "translation"}}
                                          for i in range(n)]
        return a

    def pointer_channels(n):
        a = base()
        a["extensionsUsed"] = ["KHR_animation_pointer"]
        a["nodes"] = [{} for _ in range(n)]
        a["animations"][0]["channels"] = [
            {"sampler": 0, "target": {"path": "pointer", "extensions": {
                "KHR_animation_pointer": {"pointer": "/nodes/%d/translation" % i}}}} for i in range(n)]
        return a

    def long_pointer(n):
        a = base()
        a["extensionsUsed"] = ["KHR_animation_pointer"]
        a["animations"][0]["channels"] = [
            {"sampler": 0, "target": {"path": "pointer", "extensions": {
                "KHR_animation_pointer": {"pointer": "/nodes/0/extras/" + "~1a" * (n * 40)}}}}
            for _ in range(4)]
        return a

    def many_extensions(n):
        a = base()
        a["extensionsUsed"] = ["EXT_x%d" % i for i in range(n)]
        a["extensionsRequired"] = ["EXT_x%d" % i for i in range(n)]
        a["nodes"][0]["extensions"] = {"EXT_x%d" % i: {} for i in range(n)}
        return a

    def wide_extras(n):
        a = base()
        a["animations"][0]["extras"] = {("k%d" % i) * 3: [i, {"x": "y" * 10}] for i in range(n * 4)}
        return a

    def many_uris(n):
        a = base()
        a["images"] = [{"uri": "missing%d.png" % i} for i in range(n)]
        a["buffers"] += [{"byteLength": 4, "uri": "missing%d.bin" % i} for i in range(n // 4)]
        return a

    def unknown_members(n):
        a = base()
        a["animations"][0]["channels"][0]["target"].update({"u%d" % i: i for i in range(n * 4)})
        return a

    def long_strings(n):
        a = base(name="\u00e9\x1b" * (n * 50))
        a["animations"][0]["extras"] = {"s": "<]]>" * (n * 50)}
        return a

    def dup_targets(n):
        a = base()
        a["animations"][0]["channels"] = [{"sampler": 0, "target": {"node": 0, "path": "translation"}}] * n
        return a

    def many_bad_animations(n):
        a = base()
        a["animations"] = [{"channels": [{"sampler": 5, "target": {"node": 9, "path": "nope"}}],
                            "samplers": [{"input": 99, "output": 98, "interpolation": "X"}]} for _ in range(n)]
        return a

    shapes = [("animations, one channel each", many_animations, 1),
              ("one sampler, many channels", shared_sampler, 1),
              ("samplers", many_samplers, 1),
              ("KHR_animation_pointer channels", pointer_channels, 1),
              ("long pointers", long_pointer, 1),
              ("extensions used and on a node", many_extensions, 1),
              ("wide extras", wide_extras, 1),
              ("URIs", many_uris, 1),
              ("unknown members", unknown_members, 1),
              ("long strings", long_strings, 1),
              ("duplicate targets", dup_targets, 1),
              ("broken animations", many_bad_animations, 1)]
    for label, make, _ in (shapes if shapes_too else []):
        paths = []
        for k in (1, 2, 4):
            paths.append(dump(os.path.join(d, "%s-%d.gltf" % (make.__name__, k)), make(n0 * k)))
        cmds = [("validate json", lambda p: ["validate", "--no-config", "--format", "json", "--max-issues", "0", p], "json"),
                ("validate sarif", lambda p: ["validate", "--no-config", "--format", "sarif", p], "sarif"),
                ("validate github", lambda p: ["validate", "--no-config", "--format", "github", p], "github"),
                ("validate junit", lambda p: ["validate", "--no-config", "--format", "junit", p], "junit"),
                ("sample", lambda p: ["sample", p, "--threads", "1", "--max-values", "0"], "json"),
                ("sample keys", lambda p: ["sample", p, "--keys", "--max-values", "0"], "json"),
                ("fix", lambda p: ["fix", p, "-o", p + ".fix.gltf", "--force", "--format", "json"], "json"),
                ("migrate", lambda p: ["migrate", p, "-o", p + ".mig.gltf", "--force", "--format", "json",
                                       "--to", "khr_animation2"], "json"),
                ("reduce", lambda p: ["reduce", p, "-o", p + ".red.gltf", "--force", "--format", "json",
                                      "--max-error", "0.01"], "json")]
        for cname, argf, fmt in cmds:
            cpus = [timed(exe, argf(p), "%s %s" % (cname, label), fmt=fmt) for p in paths]
            check_linear("%s: %s" % (cname, label), cpus)
            results.append((cname, label, cpus))
    # argument counts (each argument under the kernel's 128 KiB per argument): many report
    # files for merge, many assets for generate --from, long --cases, --extensions,
    # --times and --only lists
    m = 400 if quick else 1000
    folder = os.path.join(d, "files")
    os.makedirs(folder)
    small = json.dumps(base()).encode()
    for i in range(4 * m):
        with open(os.path.join(folder, "a%05d.gltf" % i), "wb") as f:
            f.write(small)
    reps = []
    for i in range(4 * m // 20):
        r = os.path.join(d, "rep%04d.json" % i)
        run(exe, ["validate", "--no-config", "--format", "json", "-o", r,
                  os.path.join(folder, "a%05d.gltf" % i)], "validate for merge", fmt="json", out_file=r)
        reps.append(r)
    cpus = []
    for k in (1, 2, 4):
        cpus.append(timed(exe, ["merge", "--format", "json"] + reps[:len(reps) * k // 4], "merge reports", fmt="json"))
    check_linear("merge: report files", cpus)
    cpus = []
    for k in (1, 2, 4):
        files = [os.path.join(folder, "a%05d.gltf" % i) for i in range(m * k)]
        cpus.append(timed(exe, ["generate", "--from"] + files + ["--out", os.path.join(d, "gen%d" % k)],
                          "generate --from files"))
    check_linear("generate --from: files", cpus)
    cpus = []
    for k in (1, 2, 4):
        cpus.append(timed(exe, ["compare", "--golden", os.path.join(d, "gen%d" % k),
                                "--actual", os.path.join(d, "gen%d" % k), "--format", "html"],
                          "compare suite", fmt="html"))
    check_linear("compare: suite cases", cpus)
    cpus = []
    for k in (1, 2, 4):
        cases = ",".join("c%d*" % i for i in range(m * k))
        cpus.append(timed(exe, ["compare", "--golden", os.path.join(d, "gen1"),
                                "--actual", os.path.join(d, "gen1"), "--cases", cases], "compare --cases"))
    check_linear("compare: --cases globs", cpus)
    cpus = []
    for k in (1, 2, 4):
        exts = ",".join("EXT_%d" % i for i in range(m * k))
        cpus.append(timed(exe, ["compare", "--golden", os.path.join(d, "gen1"),
                                "--actual", os.path.join(d, "gen1"), "--extensions", exts], "compare --extensions"))
    check_linear("compare: --extensions names", cpus)
    cpus = []
    for k in (1, 2, 4):
        times = ",".join("%g" % (i * 1e-4) for i in range(m * k * 2))
        cpus.append(timed(exe, ["sample", os.path.join(folder, "a00000.gltf"), "--times", times],
                          "sample --times", fmt="json"))
    check_linear("sample: --times list", cpus)
    cpus = []
    for k in (1, 2, 4):
        only = ",".join(["ACCESSOR_MIN_MISMATCH"] * (m * k // 2))
        cpus.append(timed(exe, ["fix", os.path.join(folder, "a00000.gltf"), "--dry-run", "--only", only],
                          "fix --only"))
    check_linear("fix: --only codes", cpus)
    # nested folders
    cpus = []
    for k in (1, 2, 4):
        root = os.path.join(d, "nest%d" % k)
        cur = root
        depth = 25 * k
        for i in range(depth):
            cur = os.path.join(cur, "d")
        os.makedirs(cur)
        # a wide tree at every level
        p = root
        for i in range(depth):
            for j in range(20):
                with open(os.path.join(p, "x%d.gltf" % j), "wb") as f:
                    f.write(small)
            p = os.path.join(p, "d")
        cpus.append(timed(exe, ["validate", "--no-config", "--format", "sarif", root], "validate nested",
                          fmt="sarif"))
    check_linear("validate: nested folders", cpus)
    return results


def sweep_misc(exe, work):
    run(exe, ["codes"], "codes text")
    run(exe, ["codes", "--format", "json"], "codes json", fmt="json")
    run(exe, ["codes", "--format", "md"], "codes md")
    run(exe, ["squad-report", "--samples", "1000"], "squad-report")
    run(exe, ["squad-report", "--format", "md", "--all", "--samples", "100"], "squad-report md")
    # hostile option values quoted back
    for bad in ["\x1b[2J", "a\nb", "%0A", "\udcff" if False else "\xff", "9" * 400, "-1", "1e400", "nan", "inf"]:
        for args in (["validate", "--no-config", "--format", bad, "x"], ["sample", "x", "--rate", bad],
                     ["sample", "x", "--times", bad], ["compare", "--golden", bad, "--actual", bad],
                     ["reduce", "x", "-o", "y", "--max-error", bad], ["fit", "x", "-o", "y", "--to", bad],
                     ["merge", bad], ["validate", "--no-config", "--ignore", bad, "x"],
                     ["validate", "--no-config", "--shard", bad, "x"]):
            run(exe, args, "bad option", want_exit=2, cwd=work)
    # merge: hostile reports
    d = os.path.join(work, "merge")
    os.makedirs(d)
    good = os.path.join(d, "good.json")
    run(exe, ["validate", "--no-config", "--format", "json", "-o", good,
              dump(os.path.join(d, "a.gltf"), base())], "validate for merge", fmt="json", out_file=good)
    g = json.load(open(good))
    variants = {}
    for key in list(g.keys()):
        v = dict(g)
        v[key] = None
        variants["null_" + key] = v
        v = dict(g)
        del v[key]
        variants["missing_" + key] = v
    t = json.dumps(g)
    variants["surrogate"] = t.replace('"a.gltf"', '"\\ud800.gltf"', 1) if '"a.gltf"' in t else t + "x"
    variants["nested"] = "[" * 100000
    variants["bignum"] = re.sub(r'"errors":\s*\d+', '"errors":1e400', t, count=1)
    variants["negcount"] = re.sub(r'"errors":\s*\d+', '"errors":-1', t, count=1)
    variants["hugecount"] = re.sub(r'"errors":\s*\d+', '"errors":18446744073709551615', t, count=1)
    for name, v in variants.items():
        p = dump(os.path.join(d, name + ".json"), v if isinstance(v, (bytes,)) else
                 (v.encode() if isinstance(v, str) else v))
        for fmt in ("json", "sarif", "junit", "github", "md", "text"):
            run(exe, ["merge", "--format", fmt, p], "merge %s %s" % (name, fmt), fmt=fmt)
    no_temporaries(work, "misc")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--quick", action="store_true", help="smaller sizes for the scaling runs")
    ap.add_argument("--keep", help="work in this folder and keep it")
    ap.add_argument("--only", help="comma-separated: names,values,outputs,misc,scaling (arguments: its argument-count part only)")
    args = ap.parse_args()
    exe = os.path.abspath(args.exe)
    work = args.keep or tempfile.mkdtemp(prefix="gltf-anim-sweep-")
    if args.keep:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    only = set((args.only or "names,values,outputs,scaling,misc").split(","))
    t0 = time.time()
    if "names" in only:
        sweep_names(exe, work)
    if "values" in only:
        sweep_values(exe, work)
    if "outputs" in only:
        sweep_outputs(exe, work)
    if "misc" in only:
        sweep_misc(exe, work)
    if "scaling" in only or "arguments" in only:
        sweep_scaling(exe, work, args.quick, shapes_too="scaling" in only)
    print("%d runs in %.0f s, %d failures" % (RUNS, time.time() - t0, len(FAILURES)))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
