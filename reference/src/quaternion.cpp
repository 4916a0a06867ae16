// The rotation angle between two quaternions (quaternion.hpp).
#include <gltf_anim/reference/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gltf_anim::reference {

double rotation_angle(std::span<const double> a, std::span<const double> b) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (a.size() != 4 || b.size() != 4) return kInf;
  // Each quaternion scaled by a power of two (exact: the result is the same as
  // unscaled wherever that one is defined) so that its largest |component| lies
  // in [1, 2): tiny or huge quaternions neither underflow to a zero norm nor
  // overflow to an infinite one.
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
  // s makes x . y >= 0, so theta is in [0, pi].
  return 4.0 * std::atan2(std::sqrt(diff), std::sqrt(sum));
}

}  // namespace gltf_anim::reference
