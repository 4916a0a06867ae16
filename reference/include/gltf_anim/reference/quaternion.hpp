#pragma once
// Quaternion and 3-vector basics for the reference evaluator, in double precision.
//
// Component order is glTF's: a rotation is stored as (x, y, z, w) with w the scalar
// part (glTF 2.0 "Transformations": "rotation ... unit quaternion (x, y, z, w)").
// `Quat` is a plain aggregate so it can be loaded from and stored to accessor data
// without conversion: `load_quat(p)` reads p[0..3] as x, y, z, w.
//
// Nothing here normalizes silently: functions that need unit inputs say so in their
// parameter names (`unit_q`), and `normalized()` is always an explicit call.
#include <cmath>
#include <span>

namespace gltf_anim::reference {

struct Vec3 {
  double x = 0.0, y = 0.0, z = 0.0;
};

struct Quat {
  double x = 0.0, y = 0.0, z = 0.0, w = 1.0;
};

constexpr Vec3 operator+(const Vec3& a, const Vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
constexpr Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
constexpr Vec3 operator-(const Vec3& a) { return {-a.x, -a.y, -a.z}; }
constexpr Vec3 operator*(double s, const Vec3& a) { return {s * a.x, s * a.y, s * a.z}; }
constexpr double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
// Euclidean length without intermediate overflow or underflow (std::hypot).
inline double length(const Vec3& a) { return std::hypot(a.x, a.y, a.z); }

constexpr Quat operator+(const Quat& a, const Quat& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w};
}
constexpr Quat operator-(const Quat& a, const Quat& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w};
}
constexpr Quat operator-(const Quat& a) { return {-a.x, -a.y, -a.z, -a.w}; }
constexpr Quat operator*(double s, const Quat& a) { return {s * a.x, s * a.y, s * a.z, s * a.w}; }
constexpr bool operator==(const Quat& a, const Quat& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
}

// 4D dot product q_A . q_B = xA xB + yA yB + zA zB + wA wB. For unit quaternions it is
// the cosine of half the rotation angle between them; its sign tells whether q_B lies in
// the same hemisphere as q_A (the "shortest path" test of Appendix C).
constexpr double dot(const Quat& a, const Quat& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
inline double length(const Quat& a) { return std::sqrt(dot(a, a)); }

// q / |q|. A zero quaternion has no direction and is returned unchanged (all zeros), so
// callers can detect it (Appendix C: exporters SHOULD avoid all-zero CUBICSPLINE results).
inline Quat normalized(const Quat& q) {
  const double len = length(q);
  if (len == 0.0) return q;
  return (1.0 / len) * q;
}

// Conjugate (-x, -y, -z, w): the inverse of a unit quaternion.
constexpr Quat conjugate(const Quat& q) { return {-q.x, -q.y, -q.z, q.w}; }

// Hamilton product a * b (apply b first, then a, when used as rotations):
//   w = wa wb - va . vb,   v = wa vb + wb va + va x vb.
constexpr Quat operator*(const Quat& a, const Quat& b) {
  return {a.w * b.x + b.w * a.x + (a.y * b.z - a.z * b.y),
          a.w * b.y + b.w * a.y + (a.z * b.x - a.x * b.z),
          a.w * b.z + b.w * a.z + (a.x * b.y - a.y * b.x),
          a.w * b.w - (a.x * b.x + a.y * b.y + a.z * b.z)};
}

// Rotation of `angle` radians about `unit_axis`: (sin(angle/2) axis, cos(angle/2)).
inline Quat from_axis_angle(const Vec3& unit_axis, double angle) {
  const double s = std::sin(0.5 * angle);
  return {s * unit_axis.x, s * unit_axis.y, s * unit_axis.z, std::cos(0.5 * angle)};
}

// Logarithm of a unit quaternion as a 3-vector: for q = (sin(h) n, cos(h)) with unit
// axis n, log q = h n (h = half the rotation angle, in [0, pi]). Computed as
// atan2(|v|, w) v / |v|, which is accurate for small |v| too (no threshold: the seed's
// `abs(q.w) > 0.9999 -> 0` shortcut would zero every rotation below 1.6 degrees).
// The only degenerate case is v == 0 exactly (identity or its negation), where the
// axis is undefined: returns the zero vector. For w < 0 the result has h > pi/2, i.e.
// it describes the long way round; callers wanting the short way negate q first.
inline Vec3 quat_log(const Quat& unit_q) {
  const Vec3 v{unit_q.x, unit_q.y, unit_q.z};
  const double s = length(v);
  if (s == 0.0) return {};
  return (std::atan2(s, unit_q.w) / s) * v;
}

// Exponential of a pure quaternion (the inverse of quat_log): for r = h n with unit n,
// exp(r) = (sin(h) n, cos(h)). sin(h)/h is evaluated directly, accurate for small h;
// h == 0 exactly gives the identity.
inline Quat quat_exp(const Vec3& r) {
  const double h = length(r);
  if (h == 0.0) return {0.0, 0.0, 0.0, 1.0};
  const double k = std::sin(h) / h;
  return {k * r.x, k * r.y, k * r.z, std::cos(h)};
}

// The angle (radians, in [0, pi]) of the rotation from `a` to `b`, q and -q being the same
// rotation: 4 atan2(|x - s y|, |x + s y|) with x, y the normalized quaternions and s the
// sign of x . y. For unit x, y whose rotations differ by theta, |x - s y| = 2 sin(theta/4)
// and |x + s y| = 2 cos(theta/4): unlike 2 acos |x . y|, whose cosine rounds to 1 below
// about 1e-8 rad, it keeps full relative precision for tiny angles. The one measure of the
// project (compare's verdicts, the repair tools' errors). Each quaternion is scaled by a
// power of two first (exact), so tiny (1e-200) or huge (1e300) ones neither underflow to a
// zero norm nor overflow. Equal values give 0 (a zero quaternion with itself included);
// two zero quaternions (whatever the signs of their zeros) give 0, a zero and a nonzero
// one +inf, as do a component that is not finite and a size other than 4.
double rotation_angle(std::span<const double> a, std::span<const double> b);
inline double rotation_angle(const Quat& a, const Quat& b) {
  const double x[4] = {a.x, a.y, a.z, a.w}, y[4] = {b.x, b.y, b.z, b.w};
  return rotation_angle(std::span<const double>(x), std::span<const double>(y));
}

// Reads four consecutive doubles as x, y, z, w; writes them back in the same order.
inline Quat load_quat(const double* p) { return {p[0], p[1], p[2], p[3]}; }
inline void store_quat(const Quat& q, double* p) {
  p[0] = q.x;
  p[1] = q.y;
  p[2] = q.z;
  p[3] = q.w;
}

}  // namespace gltf_anim::reference
