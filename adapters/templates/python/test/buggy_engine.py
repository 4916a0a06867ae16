#!/usr/bin/env python3
"""An engine with three classic sampler bugs, built from the Python template the way an
engine author builds theirs: the template's driver and samples format, this file's sampler.

    python3 buggy_engine.py SUITE_DIR OUT_DIR [CASE_ID...]

The bugs, each written here from glTF 2.0 Appendix C (and shared with no gltf-anim code):
  1. CUBICSPLINE tangents not scaled by the segment duration: C.5's t_d * b_k and
     t_d * a_k+1 taken as b_k and a_k+1 (the unit-interval Hermite spline);
  2. STEP holding the nearest key instead of the previous one (C.2's v_t = v_k), the
     ends clamped;
  3. LINEAR rotations lerped on the shortest path without normalizing (C.4 interpolates unit
     quaternions).
It does not play morph weights: those channels are declared unsupported, as are the
extension channels the template's placeholder engine leaves out.
"""

import bisect
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import engine_adapter as template  # noqa: E402  (the template, as an engine author copies it)


def buggy_evaluate(interpolation, path, times, values, t):
    n = len(times)
    flat = [x for v in values for x in v]
    width = len(flat) // (n * (3 if interpolation == "CUBICSPLINE" else 1))

    def key(k, part=1):
        if interpolation != "CUBICSPLINE":
            return flat[k * width:(k + 1) * width]
        return flat[(3 * k + part) * width:(3 * k + part + 1) * width]

    rotation = path == "rotation"
    if t <= times[0]:
        return template.finish(key(0), rotation)
    if t >= times[-1]:
        return template.finish(key(n - 1), rotation)
    k = bisect.bisect_right(times, t) - 1
    if times[k] == t:
        return template.finish(key(k), rotation)
    if interpolation == "STEP":
        # Bug 2: the nearest key (the later one on a tie).
        return template.finish(key(k if t - times[k] < times[k + 1] - t else k + 1), rotation)
    s = (t - times[k]) / (times[k + 1] - times[k])
    a, b = key(k), key(k + 1)
    if interpolation == "CUBICSPLINE":
        # Bug 1: the tangents as stored, without the segment duration.
        out_tangent, in_tangent = key(k, 2), key(k + 1, 0)
        h00, h10 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s
        h01, h11 = -2 * s**3 + 3 * s**2, s**3 - s**2
        v = [h00 * a[i] + h10 * out_tangent[i] + h01 * b[i] + h11 * in_tangent[i] for i in range(width)]
        return template.finish(v, rotation)
    if rotation:
        # Bug 3: lerp on the shortest path, not normalized.
        if sum(x * y for x, y in zip(a, b)) < 0:
            b = [-x for x in b]
        return [x + s * (y - x) for x, y in zip(a, b)]
    return [a[i] + s * (b[i] - a[i]) for i in range(width)]


template.evaluate = buggy_evaluate
template.PLAYS_MORPH_WEIGHTS = False
template.GENERATOR = "buggy_engine.py (three classic bugs)"

if __name__ == "__main__":
    sys.exit(template.main(sys.argv))
