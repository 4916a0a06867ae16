// Interpolators of interpolate.hpp; the formulas and thresholds are documented there.
#include <gltf_anim/reference/interpolate.hpp>

#include <cmath>
#include <numbers>

namespace gltf_anim::reference {
namespace {

// sin(a (1 - t)) / sin(a) and sin(a t) / sin(a) for cos(a) = c in [0, 1], with the
// near-parallel fallback to the lerp weights.
struct SlerpWeights {
  double w_a, w_b;
};

SlerpWeights slerp_weights(double c, double t) {
  if (1.0 - c < kSlerpLinearThreshold) return {1.0 - t, t};
  // Divisions rather than one reciprocal: t = 0 and t = 1 then give weights 1 and 0
  // exactly, as the spec's formula does.
  const double a = std::acos(c);
  const double sin_a = std::sin(a);
  return {std::sin(a * (1.0 - t)) / sin_a, std::sin(a * t) / sin_a};
}

}  // namespace

Quat slerp(const Quat& q_a, const Quat& q_b, double t) {
  const double d = dot(q_a, q_b);
  if (1.0 + d < kSlerpAntipodalThreshold) {
    // q_B = -q_A: follow the circle through the fixed perpendicular p of q_A.
    const Quat p{-q_a.y, q_a.x, -q_a.w, q_a.z};
    const double angle = std::numbers::pi * t;
    return std::cos(angle) * q_a + std::sin(angle) * p;
  }
  // d is in (-1, 1] here for unit inputs; acos(d) covers the long way for d < 0.
  if (1.0 - d < kSlerpLinearThreshold) return lerp(q_a, q_b, t);
  const double a = std::acos(d);
  const double sin_a = std::sin(a);
  return (std::sin(a * (1.0 - t)) / sin_a) * q_a + (std::sin(a * t) / sin_a) * q_b;
}

Quat slerp_shortest_path(const Quat& q_a, const Quat& q_b, double t) {
  const double d = dot(q_a, q_b);
  const double s = d < 0.0 ? -1.0 : 1.0;
  const SlerpWeights w = slerp_weights(std::abs(d), t);
  return w.w_a * q_a + (s * w.w_b) * q_b;
}

Quat slerp_shortest_path_negating_first(const Quat& q_a, const Quat& q_b, double t) {
  const double d = dot(q_a, q_b);
  const double s = d < 0.0 ? -1.0 : 1.0;
  const SlerpWeights w = slerp_weights(std::abs(d), t);
  return (s * w.w_a) * q_a + w.w_b * q_b;
}

Quat nlerp(const Quat& q_a, const Quat& q_b, double t) { return normalized(lerp(q_a, q_b, t)); }

Quat nlerp_shortest_path(const Quat& q_a, const Quat& q_b, double t) {
  const Quat b = dot(q_a, q_b) < 0.0 ? -q_b : q_b;
  return normalized(lerp(q_a, b, t));
}

Quat cubic_hermite(const Quat& v_k, const Quat& b_k, const Quat& v_k1, const Quat& a_k1,
                   double t, double t_d) {
  return {cubic_hermite(v_k.x, b_k.x, v_k1.x, a_k1.x, t, t_d),
          cubic_hermite(v_k.y, b_k.y, v_k1.y, a_k1.y, t, t_d),
          cubic_hermite(v_k.z, b_k.z, v_k1.z, a_k1.z, t, t_d),
          cubic_hermite(v_k.w, b_k.w, v_k1.w, a_k1.w, t, t_d)};
}

Quat cubic_hermite_rotation(const Quat& v_k, const Quat& b_k, const Quat& v_k1,
                            const Quat& a_k1, double t, double t_d) {
  return normalized(cubic_hermite(v_k, b_k, v_k1, a_k1, t, t_d));
}

Quat sqlerp(const Quat& a, const Quat& b, const Quat& c, const Quat& d, double t,
            SlerpVariant inner) {
  const Quat outer_a = slerp(a, d, t, inner);
  const Quat outer_b = slerp(b, c, t, inner);
  return slerp(outer_a, outer_b, 2.0 * t - 2.0 * t * t, inner);
}

}  // namespace gltf_anim::reference
