#!/usr/bin/env python3
"""Writes the KHR_accessor_float64 / KHR_accessor_float16 (drafts) test data,
like build_invalid_assets.py (whose helpers it uses): small assets with
componentType 5130 (IEEE-754 binary64) and 5131 (binary16) animation data,
each with the report expected from the rules (code, severity, pointer),
derived by hand; the note says why each message is there. Half-float data is
written as its bit patterns, worked by hand:

  0x0000 = 0            0x3800 = 0.5           0x3C00 = 1
  0x39A8 = (1 + 424/1024) / 2 = 0.70703125   (sin and cos of 45 degrees, rounded)
  0x2E66 = (1 + 614/1024) x 2^-4 = 1638/16384 = 0.0999755859375 (0.1 rounded)
  0x7E00 = NaN

Rules: validator/src/rules/khr_accessor_float.cpp, the loader's decoding
(gltf/src/load/accessor_reader.cpp) and the core rules, which read both
types as floating-point data (docs/VALIDATOR.md, "KHR_accessor_float64 and
KHR_accessor_float16"). Assets go to invalid/ext/KHR_accessor_float/ and the
valid control to rules_valid/ext/KHR_accessor_float/.

Run: python3 conformance_assets/invalid/build_accessor_float_assets.py
"""
from _assets_common import write_cases
from build_invalid_assets import A, E, S0, acc, anim, asset, ch, smp

F64 = "KHR_accessor_float64"
F16 = "KHR_accessor_float16"
OUT = "ext/KHR_accessor_float/"
VALID = "../rules_valid/ext/KHR_accessor_float/"
CASES = {}

H0, H_HALF, H1, H_SIN45, H_01, H_NAN = 0x0000, 0x3800, 0x3C00, 0x39A8, 0x2E66, 0x7E00


def case(path, doc, messages, note):
    CASES[path] = (doc, messages, note)


def declared(*names, required=True):
    d = {"extensionsUsed": list(names)}
    if required:
        d["extensionsRequired"] = list(names)
    return d


def translation(times, values, extra=None, lo=(0.0,), hi=(1.0,), times_comp=5131, values_comp=5130):
    """Accessor 0: VEC3 values (bufferView 0, first so that doubles sit at offset 0);
    accessor 1: SCALAR times; one LINEAR translation channel of node 0."""
    fmt = {5126: "f", 5130: "d", 5131: "H"}
    arrays = [(fmt[values_comp], values), (fmt[times_comp], times)]
    accessors = [acc(0, "VEC3", len(values) // 3, comp=values_comp),
                 acc(1, "SCALAR", len(times), list(lo), list(hi), comp=times_comp)]
    return asset(arrays, accessors, [anim([ch()], [smp(1, 0)])], extra=extra)


# ---- declaration ------------------------------------------------------------------
case(OUT + "undeclared", translation([H0, H1], [0, 0, 0, 1, 2, 3]),
     [("KHR_ACCESSOR_FLOAT_UNDECLARED", E, "/accessors/0/componentType"),
      ("KHR_ACCESSOR_FLOAT_UNDECLARED", E, "/accessors/1/componentType")],
     "float64 translations and float16 times without KHR_accessor_float64/float16 in "
     "extensionsUsed: one error per accessor naming the draft; no VALUE_NOT_IN_LIST and no "
     "input or output format error (the data is read and is fine)")
case(OUT + "not_required", translation([H0, H1], [0, 0, 0, 1, 2, 3],
                                       extra=declared(F16, F64, required=False)),
     [("KHR_ACCESSOR_FLOAT_NOT_REQUIRED", E, "/extensionsUsed/0"),
      ("KHR_ACCESSOR_FLOAT_NOT_REQUIRED", E, "/extensionsUsed/1")],
     "both drafts used and in extensionsUsed but not in extensionsRequired, which they make a "
     "MUST: once each, at its extensionsUsed entry")

# ---- data checked as floating point ------------------------------------------------
case(OUT + "half_nan", translation([H0, H1], [H0, H0, H0, H1, H_NAN, H1], extra=declared(F16),
                                   values_comp=5131),
     [("ACCESSOR_INVALID_FLOAT", E, "/accessors/0")],
     "float16 translation data with a NaN (0x7E00) at element 4: checked like FLOAT data")
case(OUT + "half_input_not_increasing", translation([H_HALF, H_HALF], [H0] * 6, extra=declared(F16),
                                                    lo=(0.5,), hi=(0.5,), values_comp=5131),
     [("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", E, S0 + "/input")],
     "float16 times 0.5, 0.5 (0x3800 twice): not strictly increasing")
case(OUT + "half_max_mismatch", translation([H0, H_01], [H0] * 6, extra=declared(F16),
                                            lo=(0.0,), hi=(0.2,), values_comp=5131),
     [("ACCESSOR_MAX_MISMATCH", E, "/accessors/1/max/0")],
     "float16 times 0 and 0x2E66 (0.0999755859375) with max 0.2, which is 0x3266 "
     "(0.199951171875) as a half: not the data's maximum")
d = translation([H0, H1], [0, 0, 0, 1, 2, 3], extra=declared(F16, F64))
d["accessors"][0]["normalized"] = True
case(OUT + "normalized", d,
     [("ACCESSOR_NORMALIZED_INVALID", E, "/accessors/0/normalized"),
      ("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", E, A + "/channels/0/sampler")],
     "a float64 accessor with normalized true: the drafts' MUST NOT; as a normalized FLOAT "
     "translation (invalid/channel/output_float_normalized), not a translation format either")

# ---- valid control: no message ------------------------------------------------------
# Times 0, 0.5, 1 as halves (min 0, max 1); translations as doubles, one being 1/3
# (no float32 form); rotations as halves (identity, then 90 degrees about z rounded:
# |q| = 0.99988, within the unit-length tolerance); scales as halves from 0.1
# rounded (0x2E66), declared min 0.1: equal once the bound is rounded to binary16.
third = 1.0 / 3.0
arrays = [("d", [0, 0, 0, third, -0.1, 2, 1, 1, 1]), ("H", [H0, H_HALF, H1]),
          ("H", [H0, H0, H0, H1, H0, H0, H_SIN45, H_SIN45, H0, H0, H_SIN45, H_SIN45]),
          ("H", [H_01, H_01, H_01, H1, H1, H1, H1, H1, H1])]
accessors = [acc(0, "VEC3", 3, comp=5130), acc(1, "SCALAR", 3, [0.0], [1.0], comp=5131),
             acc(2, "VEC4", 3, comp=5131),
             acc(3, "VEC3", 3, [0.1, 0.1, 0.1], [1.0, 1.0, 1.0], comp=5131)]
channels = [ch(0), ch(1, path="rotation"), ch(2, path="scale")]
samplers = [smp(1, 0), smp(1, 2), smp(1, 3)]
case(VALID + "float16_and_float64", asset(arrays, accessors, [anim(channels, samplers)],
                                          extra=declared(F16, F64)), [],
     "float16 times, float64 translations, float16 rotations and scales, both drafts used and "
     "required: valid; a scale bound of 0.1 equals the half 0x2E66")


def main():
    write_cases(CASES)


if __name__ == "__main__":
    main()
