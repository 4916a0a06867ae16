// Error measures: the rotation angle between two quaternions and the largest
// absolute difference between two values, and which one a channel uses.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reference/interpolation.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gltf_anim::compare {

using samples::Measure;
using samples::SampledChannel;

double angle_between(std::span<const double> a, std::span<const double> b) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (a.size() != 4 || b.size() != 4) return kInf;
  // Each quaternion scaled by a power of two (exact: the result is the same as
  // unscaled wherever that one is defined) so that its largest |component| lies
  // in [1, 2): tiny (1e-200) or huge (1e300) quaternions neither underflow to a
  // zero norm nor overflow to an infinite one.
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i])) return kInf;
    ma = std::max(ma, std::fabs(a[i]));
    mb = std::max(mb, std::fabs(b[i]));
  }
  // Identical values always agree (a zero quaternion compared with itself
  // included). Zero quaternions are no rotation: two of them agree (angle 0,
  // whatever the signs of their zeros), a zero and a rotation never do.
  if (std::equal(a.begin(), a.end(), b.begin())) return 0;
  if (ma == 0 || mb == 0) return ma == mb ? 0 : kInf;
  const int ea = std::ilogb(ma);
  const int eb = std::ilogb(mb);
  double sa[4], sb[4];
  double na = 0, nb = 0, dot = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    sa[i] = std::ldexp(a[i], -ea);
    sb[i] = std::ldexp(b[i], -eb);
    na += sa[i] * sa[i];
    nb += sb[i] * sb[i];
    dot += sa[i] * sb[i];
  }
  na = std::sqrt(na);
  nb = std::sqrt(nb);
  const double s = dot < 0 ? -1.0 : 1.0;
  double diff = 0, sum = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    const double x = sa[i] / na;
    const double y = s * sb[i] / nb;
    diff += (x - y) * (x - y);
    sum += (x + y) * (x + y);
  }
  // |x - y| = 2 sin(theta/4), |x + y| = 2 cos(theta/4) for unit x, y whose
  // rotations differ by theta; s makes x.y >= 0 so theta is in [0, pi].
  return 4.0 * std::atan2(std::sqrt(diff), std::sqrt(sum));
}

double max_abs_difference(std::span<const double> a, std::span<const double> b) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (a.size() != b.size()) return kInf;
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(a[i] - b[i]);
    if (!std::isfinite(d)) return kInf;
    worst = std::max(worst, d);
  }
  return worst;
}

double quaternion_length(std::span<const double> q) {
  double m = 0;
  for (double x : q) {
    if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
    m = std::max(m, std::fabs(x));
  }
  if (m == 0) return 0;
  // Scaled by a power of two (exact) so the sum of squares neither underflows nor overflows.
  const int e = std::ilogb(m);
  double sum = 0;
  for (double x : q) {
    const double y = std::ldexp(x, -e);
    sum += y * y;
  }
  return std::ldexp(std::sqrt(sum), e);
}

Tolerances Tolerances::of_channel(std::size_t animation, std::size_t channel) const {
  Tolerances out(absolute, angle, length);
  for (const ChannelTolerance& c : channels) {
    if (c.animation != animation || c.channel != channel) continue;
    if (c.absolute) out.absolute = *c.absolute;
    if (c.angle) out.angle = *c.angle;
    if (c.length) out.length = *c.length;
  }
  return out;
}

bool uses_angle(const SampledChannel& golden) {
  // What the samples say: their measure (the sampler writes it), else a
  // rotation-only interpolation (the interpolation table). Never the target's
  // name: a quaternion need not end in "/rotation", and a vector may.
  if (golden.measure != Measure::kAuto) return golden.measure == Measure::kAngle;
  const reference::InterpolationMode* mode = reference::find_mode(golden.interpolation);
  return golden.width == 4 && mode != nullptr && mode->rotation_only;
}

}  // namespace gltf_anim::compare
