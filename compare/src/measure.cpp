// Error measures: the rotation angle between two quaternions and the largest
// absolute difference between two values, and which one a channel uses.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reference/interpolation.hpp>
#include <gltf_anim/reference/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gltf_anim::compare {

using samples::Measure;
using samples::SampledChannel;

// The one rotation angle of the project (reference/quaternion.hpp): compare's verdicts, the
// suite's tolerances and the repair tools' errors measure alike.
double angle_between(std::span<const double> a, std::span<const double> b) {
  return reference::rotation_angle(a, b);
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
