// Per-sample error bound of a float32 engine against the golden samples.
//
// For a sample at time t of a channel with key data x, with v(x, t) the
// reference evaluation and dist the compare measure (largest component
// difference, or the rotation angle):
//   bound = T + R * (S_keys + S_time) + O
//  T       = dist(v(x, fl(t)), v(x, t)): the requested time stored in float32;
//  S_keys  = sum over every stored number x_j of the keys of the segment holding t
//            (values and tangents) of dist(v(x + u|x_j| e_j, t), v):
//            first-order sensitivity to one rounding of each stored number (an
//            engine decoding a normalized integer in float32, or a rounding
//            inside the formula, which backward-error analysis carries back to
//            the inputs); this is where the conditioning of the sample shows;
//  S_time  = for a time strictly inside a segment, the larger of
//            dist(v(t +- u max(|t|, |t_k|, |t_k+1|)), v): the rounding of the
//            normalized time s = (t - t_k) / (t_k+1 - t_k);
//  R       = kFloat32Roundings, the roundings each input can go through;
//  O       = storing the result in float32: u max|v_i| (2u rad for rotations).
// A rotation's length |q| is bounded the same way, with dist = | |a| - |b| | and
// O = 4u (a float32 normalization, C.5's or nlerp's, leaves |q| a few u off 1;
// storing the result, u more).
#include <gltf_anim/suite/tolerance.hpp>
#include <gltf_anim/compare/compare.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace gltf_anim::suite {
namespace {

constexpr double u = kFloat32Roundoff;

std::vector<double> evaluate(const sampler::DecodedChannel& c, const std::vector<double>& values, double t) {
  reference::TrackView track = c.view();
  track.values = values;
  std::vector<double> out(c.keys.components);
  reference::sample(track, t, out);
  return out;
}

double distance(const sampler::DecodedChannel& c, const std::vector<double>& a,
                const std::vector<double>& b, Bounded what) {
  if (what == Bounded::kLength)
    return std::fabs(compare::quaternion_length(a) - compare::quaternion_length(b));
  return c.keys.kind == reference::ValueKind::kRotation ? compare::angle_between(a, b)
                                                        : compare::max_abs_difference(a, b);
}

}  // namespace

double float32_error_bound(const sampler::DecodedChannel& c, double t, bool time_terms,
                           Bounded what) {
  if (what == Bounded::kLength && c.keys.kind != reference::ValueKind::kRotation) {
    throw std::logic_error(
        "float32_error_bound: a length bound of a channel that is not a rotation");
  }
  const auto distance = [&c, what](const std::vector<double>& a, const std::vector<double>& b) {
    return suite::distance(c, a, b, what);
  };
  const std::vector<double> v = evaluate(c, c.keys.values, t);
  double bound = 0;
  if (time_terms) {
    bound += distance(evaluate(c, c.keys.values, static_cast<double>(static_cast<float>(t))), v);
  }
  double sensitivity = 0;
  std::vector<double> perturbed = c.keys.values;
  // Only the keys of the segment holding t (or the end key it is clamped to) enter the
  // formula: perturbing those keeps the analysis linear in the track's length.
  const auto next = std::upper_bound(c.keys.times.begin(), c.keys.times.end(), t);
  const auto segment_end =
      static_cast<std::size_t>(next - c.keys.times.begin());  // keys before: 0..segment_end-1
  const std::size_t first_key = segment_end == 0 ? 0 : segment_end - 1;
  const std::size_t last_key = std::min(segment_end, c.keys.times.size() - 1);
  const std::size_t per_key = c.keys.values.size() / c.keys.times.size();
  for (std::size_t j = first_key * per_key; j < (last_key + 1) * per_key; ++j) {
    const double x = perturbed[j];
    if (x == 0.0) continue;  // zero stays zero through float32 products and sums
    perturbed[j] = x + u * std::fabs(x);
    sensitivity += distance(evaluate(c, perturbed, t), v);
    perturbed[j] = x;
  }
  const auto after = next;
  const bool inside =
      after != c.keys.times.begin() && after != c.keys.times.end() && *(after - 1) != t;
  if (time_terms && inside) {
    const double lo = *(after - 1);
    const double hi = *after;
    const double step = u * std::max({std::fabs(t), std::fabs(lo), std::fabs(hi)});
    double worst = 0;
    for (const double moved : {t - step, t + step}) {
      if (moved > lo && moved < hi)
        worst = std::max(worst, distance(evaluate(c, c.keys.values, moved), v));
    }
    sensitivity += worst;
  }
  bound += kFloat32Roundings * sensitivity;
  if (what == Bounded::kLength) {
    bound += 4 * u;
  } else if (c.keys.kind == reference::ValueKind::kRotation) {
    bound += 2 * u;
  } else {
    double magnitude = 0;
    for (double x : v) magnitude = std::max(magnitude, std::fabs(x));
    bound += u * magnitude;
  }
  return bound;
}

namespace {

// Two significant digits, rounded up, so the manifest reads well.
double round_up(double x) {
  if (x <= 0) return 0;
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - 1);
  return std::ceil(x / scale * (1 - 1e-12)) * scale;
}

}  // namespace

const ChannelTolerances& CaseTolerances::of(std::size_t animation, std::size_t channel) const {
  for (const ChannelTolerances& c : channels) {
    if (c.animation == animation && c.channel == channel) return c;
  }
  throw std::logic_error("tolerances: no such channel");
}

CaseTolerances derive_tolerances(const std::vector<sampler::DecodedChannel>& channels, bool float32_time_is_a_variant) {
  CaseTolerances out;
  for (const sampler::DecodedChannel& c : channels) {
    const bool rotation = c.keys.kind == reference::ValueKind::kRotation;
    ChannelTolerances own{c.animation, c.channel, rotation, 0, 0};
    for (double t : c.sample_times) {
      own.value = std::max(own.value, float32_error_bound(c, t, !float32_time_is_a_variant));
      if (rotation) {
        own.length = std::max(
            own.length, float32_error_bound(c, t, !float32_time_is_a_variant, Bounded::kLength));
      }
    }
    own.value = std::max(round_up(own.value), kToleranceFloor);
    own.length = rotation ? std::max(round_up(own.length), kToleranceFloor) : 0;
    double& slot = rotation ? out.angle : out.absolute;
    slot = std::max(slot, own.value);
    if (rotation) out.length = std::max(out.length, own.length);
    out.channels.push_back(own);
  }
  return out;
}

}  // namespace gltf_anim::suite
