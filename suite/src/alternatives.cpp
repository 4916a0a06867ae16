#include "alternatives.hpp"

#include <gltf_anim/reference/quaternion.hpp>
#include <gltf_anim/reference/track.hpp>
#include <gltf_anim/compare/compare.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace gltf_anim::suite {

std::vector<compare::VariantSample> differing_samples(
    const samples::SamplesFile& golden, std::size_t animation, std::size_t channel,
    const std::function<std::vector<double>(double t)>& value_at, bool with_length) {
  // Far below any tolerance of the suite: a difference this small is the
  // golden value again, and listing it would only lengthen the manifest.
  constexpr double kSame = 1e-9;
  for (const auto& a : golden.animations) {
    if (a.index != animation) continue;
    for (const auto& c : a.channels) {
      if (c.index != channel) continue;
      const bool angle = compare::uses_angle(c);
      std::vector<compare::VariantSample> out;
      for (std::size_t i = 0; i < c.size(); ++i) {
        const auto g = c.value(i);
        std::vector<double> v = value_at(c.times[i]);
        double d = angle ? compare::angle_between(g, v) : compare::max_abs_difference(g, v);
        if (angle && with_length) {
          d = std::max(d, std::fabs(compare::quaternion_length(g) - compare::quaternion_length(v)));
        }
        if (d > kSame) out.push_back({animation, channel, c.times[i], std::move(v)});
      }
      return out;
    }
  }
  throw std::logic_error("alternative: the golden samples have no such channel");
}

std::vector<double> evaluate_track(const std::vector<double>& times, const std::vector<double>& values,
                                   std::size_t components, reference::Interpolation interpolation,
                                   reference::ValueKind kind, double t, const reference::SampleOptions& options) {
  reference::TrackView track;
  track.times = times;
  track.values = values;
  track.components = components;
  track.interpolation = interpolation;
  track.kind = kind;
  const std::string problem = reference::validate(track);
  if (!problem.empty()) throw std::logic_error("alternative track: " + problem);
  std::vector<double> out(components);
  reference::sample(track, t, out, options);
  return out;
}

namespace {

using reference::Quat;
using D = std::vector<double>;

bool slerped(const sampler::DecodedChannel& c) {
  return c.keys.kind == reference::ValueKind::kRotation &&
         (c.keys.interpolation == reference::Interpolation::kLinear ||
          c.keys.interpolation == reference::Interpolation::kSlerp);
}

Quat key(const sampler::DecodedChannel& c, std::size_t k) {
  const auto v = c.view().value(k);
  return {v[0], v[1], v[2], v[3]};
}
D to_d(const Quat& q) { return {q.x, q.y, q.z, q.w}; }

D evaluate(const sampler::DecodedChannel& c, const D& values, double t, const reference::SampleOptions& options = {}) {
  return evaluate_track(c.keys.times, values, c.keys.components, c.keys.interpolation, c.keys.kind,
                        t, options);
}

// A slerp replaced segment by segment: clamping and exact keys as the golden.
D per_segment(const sampler::DecodedChannel& c, double t, Quat (*f)(const Quat&, const Quat&, double)) {
  const auto after = std::upper_bound(c.keys.times.begin(), c.keys.times.end(), t);
  if (after == c.keys.times.begin() || after == c.keys.times.end() || *(after - 1) == t)
    return evaluate(c, c.keys.values, t);
  const auto k = static_cast<std::size_t>(after - c.keys.times.begin()) - 1;
  return to_d(
      f(key(c, k), key(c, k + 1), (t - c.keys.times[k]) / (c.keys.times[k + 1] - c.keys.times[k])));
}

// Appendix C.5's Hermite spline as engines get it wrong: the tangents scaled by the segment
// duration t_d (as C.5 says) or used as stored (the m_k of a unit-interval spline in place of
// t_d * m_k, equal to the golden where t_d = 1), a rotation normalized (as C.5 says) or not;
// clamping and exact keys as the golden.
D hermite(const sampler::DecodedChannel& c, double t, bool scale_tangents, bool normalize) {
  const auto after = std::upper_bound(c.keys.times.begin(), c.keys.times.end(), t);
  if (after == c.keys.times.begin() || after == c.keys.times.end() || *(after - 1) == t)
    return evaluate(c, c.keys.values, t);
  const auto k = static_cast<std::size_t>(after - c.keys.times.begin()) - 1;
  const double td = c.keys.times[k + 1] - c.keys.times[k];
  const double s = (t - c.keys.times[k]) / td;
  const double m = scale_tangents ? td : 1.0;
  const double s2 = s * s;
  const double s3 = s2 * s;
  const std::size_t w = c.keys.components;
  // Per key: in-tangent a, value v, out-tangent b.
  const auto at = [&](std::size_t key, std::size_t part, std::size_t i) {
    return c.keys.values[(3 * key + part) * w + i];
  };
  D out(w);
  for (std::size_t i = 0; i < w; ++i) {
    out[i] = (2 * s3 - 3 * s2 + 1) * at(k, 1, i) + m * (s3 - 2 * s2 + s) * at(k, 2, i) +
             (-2 * s3 + 3 * s2) * at(k + 1, 1, i) + m * (s3 - s2) * at(k + 1, 0, i);
  }
  if (normalize && c.keys.kind == reference::ValueKind::kRotation) {
    return to_d(reference::normalized(Quat{out[0], out[1], out[2], out[3]}));
  }
  return out;
}

struct SuiteAlternative {
  const char* name;
  const char* description;
  bool allowed;
  bool (*applies)(const sampler::DecodedChannel&);
  // The value at t; `duration` is the animation's (its latest key, over all its channels).
  D (*value_at)(const sampler::DecodedChannel&, double t, double duration);
  // Whether its change of a rotation's length |q| counts: listed where it moves
  // the length by more than the channel's length tolerance, and its values
  // given where only the length differs. Not for keys normalized first: unit
  // where the keys as stored are not is a length compare accepts anyway.
  bool length_counts = true;
};

// Lerp between rotation keys (shortest path), not normalized.
Quat lerp_not_normalized(const Quat& a, const Quat& b, double s) {
  const Quat c = reference::dot(a, b) < 0 ? -b : b;
  return Quat{a.x + s * (c.x - a.x), a.y + s * (c.y - a.y), a.z + s * (c.z - a.z),
              a.w + s * (c.w - a.w)};
}

const SuiteAlternative kSuiteAlternatives[] = {
    {"nlerp",
     "Normalized lerp instead of slerp between rotation keys (ozz, PlayCanvas; three.js and "
     "Babylon near "
     "parallel keys): the same path at another speed, equal at keys and segment midpoints. "
     "Allowed: glTF "
     "2.0 Appendix C.4 \"Implementations MAY approximate these equations\".",
     true, slerped,
     [](const sampler::DecodedChannel& c, double t, double) {
       return per_segment(c, t, reference::nlerp_shortest_path);
     }},
    {"no-shortest-path",
     "Slerp without Appendix C's sign rule (plain slerp): where consecutive keys have a negative "
     "dot the "
     "rotation goes the long way round; breaks glTF 2.0 Appendix C.4: s = sign(v_k . v_k+1) "
     "multiplies "
     "v_k+1 so that \"the spherical interpolation follows the short path along the great circle\".",
     false, slerped,
     [](const sampler::DecodedChannel& c, double t, double) {
       reference::SampleOptions plain;
       plain.linear_rotation = reference::SlerpVariant::kPlain;
       return evaluate(c, c.keys.values, t, plain);
     }},
    {"normalize-keys-first",
     "The decoded keys normalized before slerp (glTF Sample Viewer, Magnum's importer). Decoded "
     "keys are not "
     "exactly unit (normalized integers, rounded exporters); the specs interpolate \"unit "
     "quaternions\" "
     "without saying whether such a key is used as stored or normalized first, so both readings "
     "pass.",
     true, slerped,
     [](const sampler::DecodedChannel& c, double t, double) {
       D unit = c.keys.values;
       for (std::size_t i = 0; i + 4 <= unit.size(); i += 4) {
         const D n = to_d(reference::normalized(Quat{unit[i], unit[i + 1], unit[i + 2], unit[i + 3]}));
         std::copy(n.begin(), n.end(), unit.begin() + static_cast<std::ptrdiff_t>(i));
       }
       return evaluate(c, unit, t);
     },
     false},
    {"lerp-not-normalized",
     "Lerp between rotation keys without normalizing the result (glTF Sample Viewer on "
     "KHR_animation_pointer "
     "rotations): the direction of nlerp, but |q| < 1 inside a segment (0.866 half way between "
     "keys 120 "
     "degrees of rotation apart), which scales the object; breaks glTF 2.0 Appendix C.4: LINEAR on "
     "a rotation "
     "interpolates \"unit quaternions\" (nlerp, the approximation C.4 allows, normalizes).",
     false, slerped,
     [](const sampler::DecodedChannel& c, double t, double) {
       return per_segment(c, t, lerp_not_normalized);
     }},
    {"cubicspline-not-normalized",
     "The Hermite spline of a rotation used without normalizing it: the right direction, |q| off 1 "
     "inside a "
     "segment; breaks glTF 2.0 Appendix C.5: \"When the animation sampler targets a node's "
     "rotation "
     "property, the interpolated quaternion MUST be normalized before applying the result to the "
     "node's "
     "rotation.\"",
     false,
     [](const sampler::DecodedChannel& c) {
       return c.keys.kind == reference::ValueKind::kRotation &&
              c.keys.interpolation == reference::Interpolation::kCubicSpline;
     },
     [](const sampler::DecodedChannel& c, double t, double) {
       return hermite(c, t, /*scale_tangents=*/true, /*normalize=*/false);
     }},
    {"godot-slerp-ignores-tangents",
     "Godot's CUBICSPLINE on quaternions ignores the tangents and slerps the keys; breaks glTF 2.0 "
     "Appendix "
     "C.5 (CUBICSPLINE: the Hermite spline of the values and tangents, then normalized for "
     "rotations).",
     false,
     [](const sampler::DecodedChannel& c) {
       return c.keys.kind == reference::ValueKind::kRotation &&
              c.keys.interpolation == reference::Interpolation::kCubicSpline;
     },
     [](const sampler::DecodedChannel& c, double t, double) {
       return per_segment(c, t, reference::slerp_shortest_path);
     }},
    {"cubicspline-tangents-not-scaled",
     "CUBICSPLINE with the tangents used as stored, not scaled by the segment duration t_d = "
     "t_k+1 - t_k (the unit-interval Hermite spline: m_k in place of t_d * m_k), so curves bulge "
     "or flatten wherever a segment is not 1 s long; breaks glTF 2.0 Appendix C.5: \"v_t = (2t^3 "
     "- 3t^2 + 1) * v_k + t_d(t^3 - 2t^2 + t) * b_k + (-2t^3 + 3t^2) * v_k+1 + t_d(t^3 - t^2) * "
     "a_k+1\", with t_d = t_k+1 - t_k \"the duration of the interpolation segment\" (C.1).",
     false,
     [](const sampler::DecodedChannel& c) {
       return c.keys.interpolation == reference::Interpolation::kCubicSpline;
     },
     [](const sampler::DecodedChannel& c, double t, double) {
       return hermite(c, t, /*scale_tangents=*/false, /*normalize=*/true);
     }},
    {"step-nearest-key",
     "STEP that holds the nearest key instead of the previous one (a key rounded rather than "
     "floored: from the middle of a segment on, the next key's value), the ends clamped as the "
     "specs say; breaks glTF 2.0 Appendix C.2: \"v_t = v_k\", v_k the value of the keyframe "
     "t_k with t_k < t_c < t_k+1 (C.1): the previous key until the next one.",
     false,
     [](const sampler::DecodedChannel& c) {
       return c.keys.interpolation == reference::Interpolation::kStep;
     },
     [](const sampler::DecodedChannel& c, double t, double) {
       // The key nearest to t (the later one on a tie), t clamped to the keys.
       const auto after = std::upper_bound(c.keys.times.begin(), c.keys.times.end(), t);
       std::size_t k = 0;
       if (after == c.keys.times.end()) {
         k = c.keys.times.size() - 1;
       } else if (after != c.keys.times.begin()) {
         const auto before = static_cast<std::size_t>(after - c.keys.times.begin()) - 1;
         k = t - c.keys.times[before] < *after - t ? before : before + 1;
       }
       const auto v = c.view().value(k);
       return D(v.begin(), v.end());
     }},
    {"previous-key-at-exact-time",
     "STEP over intervals (t_k-1, t_k] (glTF Sample Viewer): at an exact key other than the first, "
     "and after "
     "the last key, the previous key's value; breaks glTF 2.0 Appendix C.1: \"When the current "
     "(requested) "
     "timestamp exists in the animation data, its associated property value MUST be used as-is, "
     "without "
     "interpolation.\"",
     false,
     [](const sampler::DecodedChannel& c) {
       return c.keys.interpolation == reference::Interpolation::kStep;
     },
     [](const sampler::DecodedChannel& c, double t, double) {
       // The last key with t_k < t (t clamped to the last key), or the first.
       const double clamped = std::min(t, c.keys.times.back());
       const auto first_not_before =
           std::lower_bound(c.keys.times.begin(), c.keys.times.end(), clamped);
       const auto k = static_cast<std::size_t>(
           std::max<std::ptrdiff_t>(first_not_before - c.keys.times.begin() - 1, 0));
       const auto v = c.view().value(k);
       return D(v.begin(), v.end());
     }},
};

// Looping playback: the requested time r mapped into the clip [0, T] before sampling.
// Allowed: glTF 2.0 3.11 leaves runtime behaviour, loops included, to the client.
D looped(const sampler::DecodedChannel& c, double r, double duration,
         double (*wrap)(double r, double T)) {
  if (!(duration > 0)) return evaluate(c, c.keys.values, r);
  return evaluate(c, c.keys.values, wrap(r, duration));
}

const SuiteAlternative kLoopAlternatives[] = {
    {"loop-repeat",
     "Looping playback as t mod T, T the animation's latest key (three.js LoopRepeat, Babylon "
     "CYCLE, glTF Sample "
     "Viewer 1.1.0): t = T gives the first key, t = -0.5 s gives T - 0.5 s. glTF 2.0 3.11 does not "
     "define loops "
     "(\"this specification doesn't define any runtime behavior, such as: order of playing, "
     "auto-start, loops, "
     "mapping of timelines\"), so it passes; KHR_interactivity (Release Candidate) defines the "
     "wrap otherwise "
     "(t = T gives the last key: variant loop-khr-interactivity).",
     true, [](const sampler::DecodedChannel&) { return true; },
     [](const sampler::DecodedChannel& c, double r, double duration) {
       return looped(c, r, duration, [](double x, double T) { return x - T * std::floor(x / T); });
     }},
    {"loop-khr-interactivity",
     "Looping playback as KHR_interactivity (Release Candidate, Animation Control Operations) maps "
     "a requested "
     "time r to the animation's: s = ceil((r - T) / T) for r > 0, floor(r / T) for r <= 0, t = r - "
     "s T, T the "
     "animation's latest key: t = T gives the last key (not the first), t = T + 0.5 s gives 0.5 s, "
     "t = -0.5 s "
     "gives T - 0.5 s. Allowed: glTF 2.0 3.11 leaves loops to the client.",
     true, [](const sampler::DecodedChannel&) { return true; },
     [](const sampler::DecodedChannel& c, double r, double duration) {
       return looped(c, r, duration, reference::interactivity_time);
     }},
    {"loop-fmod",
     "Looping playback as C's fmod(t, T), T the animation's latest key (Filament gltfio's "
     "Animator::applyAnimation): a forward player's wrap, t = T gives the first key and t = T + "
     "0.5 s gives 0.5 s, while a time before the start keeps its sign and clamps to the first key "
     "(t = -0.5 s gives the value at 0). Allowed: glTF 2.0 3.11 leaves loops to the client.",
     true, [](const sampler::DecodedChannel&) { return true; },
     [](const sampler::DecodedChannel& c, double r, double duration) {
       return looped(c, r, duration, [](double x, double T) { return std::fmod(x, T); });
     }},
};

const samples::SampledChannel* golden_channel(const samples::SamplesFile& golden, const sampler::DecodedChannel& c) {
  for (const auto& a : golden.animations) {
    if (a.index != c.animation) continue;
    for (const auto& ch : a.channels) {
      if (ch.index == c.channel) return &ch;
    }
  }
  return nullptr;
}

}  // namespace

std::vector<Variant> case_alternatives(const Case& c, const std::vector<sampler::DecodedChannel>& channels,
                                       const samples::SamplesFile& golden, const CaseTolerances& tolerances) {
  std::vector<Variant> out = c.variants;
  // Each animation's duration T: its latest key over all its channels.
  std::map<std::size_t, double> duration;
  for (const sampler::DecodedChannel& ch : channels) {
    double& d = duration[ch.animation];
    d = std::max(d, ch.keys.times.back());
  }
  std::vector<const SuiteAlternative*> all;
  for (const SuiteAlternative& alt : kSuiteAlternatives) all.push_back(&alt);
  for (const SuiteAlternative& alt : kLoopAlternatives) all.push_back(&alt);
  for (const SuiteAlternative* alt_ptr : all) {
    const SuiteAlternative& alt = *alt_ptr;
    if (std::any_of(out.begin(), out.end(), [&](const Variant& v) { return v.name == alt.name; })) continue;
    std::vector<compare::VariantSample> excerpt;
    bool matters = false;
    for (const sampler::DecodedChannel& ch : channels) {
      if (!alt.applies(ch)) continue;
      const samples::SampledChannel* g = golden_channel(golden, ch);
      if (g == nullptr) throw std::logic_error("alternative: a decoded channel without golden samples");
      const double tolerance = tolerances.of(ch.animation, ch.channel).value;
      const auto value_at = alt.value_at;
      const auto part = differing_samples(
          golden, ch.animation, ch.channel,
          [&ch, value_at, T = duration[ch.animation]](double t) { return value_at(ch, t, T); },
          alt.length_counts);
      for (const compare::VariantSample& s : part) {
        const auto i = static_cast<std::size_t>(std::find(g->times.begin(), g->times.end(), s.t) - g->times.begin());
        const auto gv = g->value(i);
        const double d = compare::uses_angle(*g) ? compare::angle_between(gv, s.value)
                                                 : compare::max_abs_difference(gv, s.value);
        matters |= d > tolerance;
        if (alt.length_counts && compare::uses_angle(*g)) {
          const double length = compare::quaternion_length(s.value);
          matters |=
              std::min(std::fabs(length - 1), std::fabs(length - compare::quaternion_length(gv))) >
              tolerances.of(ch.animation, ch.channel).length;
        }
      }
      excerpt.insert(excerpt.end(), part.begin(), part.end());
    }
    if (!matters) continue;
    out.push_back({alt.name, alt.description,
                   [excerpt](const samples::SamplesFile&) { return excerpt; }, alt.allowed});
  }
  return out;
}

}  // namespace gltf_anim::suite
