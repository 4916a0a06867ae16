// Interpolators of interpolate.hpp; the formulas and thresholds are documented there.
#include <gltf_anim/reference/interpolate.hpp>

#include <cmath>
#include <numbers>

namespace gltf_anim::reference {

SlerpSegment::SlerpSegment(const Quat& q_a, const Quat& q_b, SlerpVariant variant, Sign sign)
    : a_(q_a), b_(q_b) {
  const double d = dot(q_a, q_b);
  double c = d;  // cos of the angle to interpolate over
  if (variant == SlerpVariant::kShortestPath) {
    // Negation is exact, so folding the sign into a stored quaternion gives the same bits
    // as multiplying the weight by s (Appendix C writes s sin(at)/sin(a) v_{k+1}).
    if (d < 0.0) {
      if (sign == Sign::kOnSecond) b_ = -q_b;
      else a_ = -q_a;
    }
    c = std::abs(d);
  } else if (1.0 + d < kSlerpAntipodalThreshold) {
    // q_B = -q_A: follow the circle through the fixed perpendicular p of q_A.
    branch_ = Branch::kAntipodal;
    return;
  }
  if (1.0 - c < kSlerpLinearThreshold) {
    branch_ = Branch::kLinear;
    return;
  }
  branch_ = Branch::kTrig;
  angle_ = std::acos(c);
  sin_angle_ = std::sin(angle_);
}

Quat SlerpSegment::at(double t) const {
  switch (branch_) {
    case Branch::kLinear:
      return lerp(a_, b_, t);
    case Branch::kAntipodal: {
      // The fixed perpendicular p = (-y, x, -w, z) of q_A (a_ is q_A in this branch).
      const Quat p{-a_.y, a_.x, -a_.w, a_.z};
      const double angle = std::numbers::pi * t;
      return std::cos(angle) * a_ + std::sin(angle) * p;
    }
    case Branch::kTrig:
      break;
  }
  // Divisions rather than one reciprocal: t = 0 and t = 1 then give weights 1 and 0
  // exactly, as the spec's formula does.
  return (std::sin(angle_ * (1.0 - t)) / sin_angle_) * a_ +
         (std::sin(angle_ * t) / sin_angle_) * b_;
}

Quat slerp(const Quat& q_a, const Quat& q_b, double t) {
  return SlerpSegment(q_a, q_b, SlerpVariant::kPlain).at(t);
}

Quat slerp_shortest_path(const Quat& q_a, const Quat& q_b, double t) {
  return SlerpSegment(q_a, q_b, SlerpVariant::kShortestPath).at(t);
}

Quat slerp_shortest_path_negating_first(const Quat& q_a, const Quat& q_b, double t) {
  return SlerpSegment(q_a, q_b, SlerpVariant::kShortestPath, SlerpSegment::Sign::kOnFirst).at(t);
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
