#pragma once
// Interpolators as plain free functions, named for what they do (the Magnum
// convention): each takes the two (or four) neighbouring values and the
// segment-normalized factor t = (t_c - t_k) / (t_{k+1} - t_k) in [0, 1].
//
// Sources (see docs/REFERENCE.md for the choices made where they are silent):
//   Appendix C of the glTF 2.0 specification ("Animation Sampler Interpolation
//   Modes"): step, lerp, the shortest-path slerp, the cubic Hermite spline;
//   EXT_animation_sqlerp (draft): sqlerp / CUBICSLERP;
//   KHR_animation2 (experimental): the SLERP interpolation value;
//   Magnum's "quaternion slerp shortest path" article: plain vs shortest-path variants.
//
// Everything is double precision. Quaternions are (x, y, z, w). No function normalizes
// its inputs: the spec's formulas are applied to the stored values, so a stored quaternion
// that is slightly off unit length (float32 data) is interpolated as stored.
#include <gltf_anim/reference/quaternion.hpp>

namespace gltf_anim::reference {

// ---------------------------------------------------------------------------
// Thresholds of the degenerate branches.

// Near-parallel fallback of every slerp here: when 1 - |d| < kSlerpLinearThreshold
// (d = q_A . q_B; also whenever |d| >= 1, e.g. two equal float32 keys slightly longer
// than unit), slerp uses the weights (1 - t) and t of lerp instead of
// sin(a(1-t))/sin(a) and sin(at)/sin(a), which would divide 0 by 0 at a = 0.
// Why 1e-15: the slerp weights are t (1 + a^2 (1 - t^2) / 6 + O(a^4)), so replacing them
// by the lerp weights errs by at most a^2/6 relative, and 1 - |d| = a^2/2 + O(a^4) gives
// a^2/6 < 3.4e-16, below double rounding. Above the threshold the trigonometric form is
// accurate although a = acos(|d|) itself is ill-conditioned near |d| = 1: the weights'
// derivative with respect to a is O(a t), which cancels the O(eps/a) error of acos.
// (Magnum uses |d| >= 1 - epsilon/2 in float; three.js switches to nlerp at d >= 0.9995.)
inline constexpr double kSlerpLinearThreshold = 1e-15;

// Antipodal case of the plain (non-shortest-path) slerp: when 1 + d < this threshold,
// q_B = -q_A (up to rounding) and the great circle from q_A to q_B is undefined. We then
// follow the circle through the fixed perpendicular p = (-y, x, -w, z) of q_A:
//   slerp(q_A, q_B, t) = cos(pi t) q_A + sin(pi t) p,
// which is deterministic and reaches -q_A at t = 1 (Shoemake 1985 does the same with an
// arbitrary perpendicular). Near (but above) this threshold the path is ill-conditioned by
// nature: its plane is determined by q_A + q_B, whose relative error grows as eps / (1 + d).
inline constexpr double kSlerpAntipodalThreshold = 1e-15;

// ---------------------------------------------------------------------------
// STEP (Appendix C "Step Interpolation"): v_t = v_k. The second value and t are unused;
// the signature matches the other interpolators so they can be swapped.
template <class T>
constexpr const T& step(const T& v_k, const T& /*v_k1*/, double /*t*/) {
  return v_k;
}

// LINEAR (Appendix C "Linear Interpolation"): v_t = (1 - t) v_k + t v_{k+1}, per component.
// Evaluated in exactly this form (not v_k + t (v_{k+1} - v_k)) so t = 0 and t = 1 return
// v_k and v_{k+1} bit for bit.
constexpr double lerp(double v_k, double v_k1, double t) { return (1.0 - t) * v_k + t * v_k1; }
constexpr Quat lerp(const Quat& a, const Quat& b, double t) { return (1.0 - t) * a + t * b; }

// Which slerp to use where a draft leaves it open (sqlerp's inner slerps, LINEAR rotation
// when the shortest-path rule is switched off for comparison with other engines).
enum class SlerpVariant {
  kShortestPath,  // slerp_shortest_path: Appendix C, sign of the dot applied to q_B
  kPlain,         // slerp: no sign flip, follows the great circle the long way if d < 0
};

// Plain slerp (Shoemake 1985), no shortest-path rule:
//   d = q_A . q_B,  a = acos(d) in [0, pi],
//   slerp = sin(a (1 - t)) / sin(a) q_A + sin(a t) / sin(a) q_B.
// If d < 0 this goes the long way round (more than 180 degrees of rotation), which is
// what "plain" means. Degenerate branches: 1 - d < kSlerpLinearThreshold -> lerp weights;
// 1 + d < kSlerpAntipodalThreshold -> the fixed-perpendicular circle documented above.
Quat slerp(const Quat& q_a, const Quat& q_b, double t);

// Shortest-path slerp exactly as Appendix C "Spherical Linear Interpolation" writes it:
//   a = acos(|d|),  s = d / |d|  (we take s = +1 when d == 0, where the spec's 0/0 leaves it
//   open; both choices are the same rotation path up to sign),
//   v_t = sin(a (1 - t)) / sin(a) q_A + s sin(a t) / sin(a) q_B.
// The sign goes on the *second* quaternion, so t = 0 returns q_A exactly and an exact key
// comes back as stored. (Magnum's slerpShortestPath negates the first instead; that is
// slerp_shortest_path_negating_first below.) Near-parallel: lerp weights (1 - t), s t.
Quat slerp_shortest_path(const Quat& q_a, const Quat& q_b, double t);

// Magnum's Math::slerpShortestPath convention, for comparison with peers: when d < 0 the
// *first* quaternion is negated, so t = 0 returns -q_A. Same rotations as
// slerp_shortest_path, opposite sign whenever d < 0.
Quat slerp_shortest_path_negating_first(const Quat& q_a, const Quat& q_b, double t);

// KHR_animation2's SLERP interpolation value. The draft lists SLERP as the quaternion
// interpolation but gives no formula; we read it as Appendix C's LINEAR-rotation slerp
// (shortest path, sign on q_B), the only formula glTF defines for it. See docs/REFERENCE.md.
inline Quat khr_animation2_slerp(const Quat& q_a, const Quat& q_b, double t) {
  return slerp_shortest_path(q_a, q_b, t);
}

// Slerp chosen by variant.
inline Quat slerp(const Quat& q_a, const Quat& q_b, double t, SlerpVariant variant) {
  return variant == SlerpVariant::kShortestPath ? slerp_shortest_path(q_a, q_b, t)
                                                : slerp(q_a, q_b, t);
}

// One slerp pair with its per-pair work (dot product, sign, acos, sin, branch) done once,
// for evaluating many factors t on the same segment (sorted batch sampling). at(t) is
// bit-identical to slerp / slerp_shortest_path / slerp_shortest_path_negating_first,
// which are implemented with it.
class SlerpSegment {
 public:
  enum class Sign { kOnSecond, kOnFirst };  // where the shortest-path sign goes
  SlerpSegment() = default;
  SlerpSegment(const Quat& q_a, const Quat& q_b, SlerpVariant variant,
               Sign sign = Sign::kOnSecond);
  Quat at(double t) const;

 private:
  enum class Branch : unsigned char { kTrig, kLinear, kAntipodal };
  Quat a_{}, b_{};  // carry the shortest-path sign already
  double angle_ = 0.0, sin_angle_ = 1.0;
  Branch branch_ = Branch::kLinear;
};

// Normalized lerp: normalized((1 - t) q_A + t q_B). Cheaper than slerp; same path, but
// the angle does not advance at constant speed. A zero sum (q_B = -q_A at t = 1/2) has
// no direction and is returned as zero (see normalized()).
Quat nlerp(const Quat& q_a, const Quat& q_b, double t);
// nlerp with the shortest-path rule of Appendix C: q_B is negated when q_A . q_B < 0.
Quat nlerp_shortest_path(const Quat& q_a, const Quat& q_b, double t);

// CUBICSPLINE (Appendix C "Cubic Spline Interpolation"), one component:
//   v_t = (2t^3 - 3t^2 + 1) v_k + t_d (t^3 - 2t^2 + t) b_k
//       + (-2t^3 + 3t^2) v_{k+1} + t_d (t^3 - t^2) a_{k+1},
// with b_k the out-tangent of key k, a_{k+1} the in-tangent of key k+1 (both per second,
// as stored in glTF) and t_d = t_{k+1} - t_k the segment duration that scales them.
constexpr double cubic_hermite(double v_k, double b_k, double v_k1, double a_k1, double t,
                               double t_d) {
  const double t2 = t * t;
  const double t3 = t2 * t;
  return (2.0 * t3 - 3.0 * t2 + 1.0) * v_k + t_d * (t3 - 2.0 * t2 + t) * b_k +
         (-2.0 * t3 + 3.0 * t2) * v_k1 + t_d * (t3 - t2) * a_k1;
}
// The same, per quaternion component, not normalized.
Quat cubic_hermite(const Quat& v_k, const Quat& b_k, const Quat& v_k1, const Quat& a_k1,
                   double t, double t_d);
// CUBICSPLINE on a rotation: the component-wise Hermite, then normalized ("the
// interpolated quaternion MUST be normalized"). A zero result stays zero.
Quat cubic_hermite_rotation(const Quat& v_k, const Quat& b_k, const Quat& v_k1,
                            const Quat& a_k1, double t, double t_d);

// sqlerp of EXT_animation_sqlerp (Shoemake's squad):
//   sqlerp(A, B, C, D, t) = slerp(slerp(A, D, t), slerp(B, C, t), 2t - 2t^2).
// The draft only says "slerp() is spherical linear interpolation between two unit
// quaternions". `inner` picks the slerp used for all three calls. The default, kPlain, is
// Shoemake's original and the one SQUAD's derivation assumes (in one axis every slerp is
// a lerp of angles): signs are the data's, so control points more than 180 degrees of
// rotation apart, which SQUAD produces for large angular accelerations, are followed as
// constructed. kShortestPath makes the result independent (as a rotation) of the signs in
// which B, C and D are stored, but then bends such curves the other way. Both agree
// whenever every pair they slerp has a non-negative dot product. docs/REFERENCE.md.
Quat sqlerp(const Quat& a, const Quat& b, const Quat& c, const Quat& d, double t,
            SlerpVariant inner = SlerpVariant::kPlain);

// A CUBICSLERP segment: sqlerp(v_k, b_k, a_{k+1}, v_{k+1}, t) with b_k the out-tangent
// quaternion of key k and a_{k+1} the in-tangent quaternion of key k+1 (unit quaternions,
// not scaled by the segment duration, unlike CUBICSPLINE).
inline Quat cubic_slerp_segment(const Quat& v_k, const Quat& b_k, const Quat& a_k1,
                                const Quat& v_k1, double t,
                                SlerpVariant inner = SlerpVariant::kPlain) {
  return sqlerp(v_k, b_k, a_k1, v_k1, t, inner);
}

}  // namespace gltf_anim::reference
