#pragma once
// Modified SQUAD for non-uniform timestamps (seed: modified-squad-non-uniform-timestamps.md):
// turns LINEAR rotation keys into CUBICSLERP data (in-tangent, value, out-tangent per key)
// whose sqlerp segments have a continuous angular velocity across keys even when the keys
// are unevenly spaced. Plus the seed's verification bench (squad_bench), which drives the
// `gltf-anim squad-report` command. Derivation and figures: docs/REFERENCE.md.
//
// Notation (seed, in the log domain, half-angle units): for key i with neighbours,
//   l12 = log(conj(q_i) q_{i+1}),  l10 = log(conj(q_i) q_{i-1}),
//   dt0 = t_i - t_{i-1},  dt1 = t_{i+1} - t_i,  r = dt0 / dt1,
//   acc_i = (l12 / dt1 + l10 / dt0) / ((dt0 + dt1) / 2)     (absolute acceleration)
//   outgoing  D_o = dt1^2 / 4 * acc_i
//   incoming  D_i = (r l12 + l10) / 2 - r D_o                (makes V continuous at t_i)
//   in-tangent a_i = q_i exp(-D_i),  out-tangent b_i = q_i exp(-D_o).
// The CUBICSLERP segment sqlerp(v_k, b_k, a_{k+1}, v_{k+1}, t) then has equal one-sided
// angular velocities at every inner key, and reproduces any constant angular
// acceleration (a quadratic angle) exactly on inner segments for any key spacing.
#include <gltf_anim/reference/interpolate.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace gltf_anim::reference {

// How control points are computed.
enum class SquadControls {
  kNonUniform,  // the seed's modified SQUAD (above)
  kUniform,     // original SQUAD: D_o = D_i = (l12 + l10) / 4, exact only for uniform keys
};

// What the first and last keys use for their missing neighbour.
enum class SquadEnds {
  // The seed's rule for the last key ("q2 = i + 1 < n ? q[i+1] : q1", "dt1 = ... : dt0"),
  // mirrored for the first key: the missing neighbour is the key itself, one equal
  // duration away. This assumes zero velocity beyond the ends.
  kSeed,
  // The first key's out-tangent and last key's in-tangent use the absolute acceleration
  // of the nearest inner key (D = d^2/4 acc for kNonUniform, the neighbour's D for
  // kUniform); with 2 keys there is none and D = 0 (the segment is a slerp).
  kExtrapolate,
};

struct SquadOptions {
  SquadControls controls = SquadControls::kNonUniform;
  SquadEnds ends = SquadEnds::kSeed;
  // Make neighbouring keys' dot products >= 0 first (patch_shortest_path on a copy), so
  // every l12/l10 is the short way round. Off: the log of a negative-w relative rotation
  // describes the long way (more than 180 degrees).
  bool shortest_path = true;
};

// CUBICSLERP-ready data: 3 quaternions per key (in-tangent, value, out-tangent), in
// key order. As EXT_animation_sqlerp advises, the first in-tangent and the last
// out-tangent, which no segment uses, are zero quaternions. The values are the input
// keys (after the shortest-path patch if enabled). Requires times.size() ==
// unit_keys.size() >= 2 and strictly increasing times (else std::invalid_argument).
std::vector<Quat> squad_control_points(std::span<const double> times,
                                       std::span<const Quat> unit_keys,
                                       const SquadOptions& options = {});

// The same as flat doubles (x, y, z, w per quaternion): 12 per key, ready for a
// TrackView{times, values, 4, Interpolation::kCubicSlerp, ValueKind::kRotation}.
std::vector<double> squad_cubicslerp_values(std::span<const double> times,
                                            std::span<const Quat> unit_keys,
                                            const SquadOptions& options = {});

// ---------------------------------------------------------------------------
// The seed's verification bench, carried through the real quaternion code: the scalar
// f(t) becomes a rotation of f(t) radians about +z, keys are f at the timestamps, and
// the CUBICSLERP track built by squad_control_points is sampled with the reference
// sampler (track.hpp, CUBICSLERP, the case's sqlerp inner slerp).

enum class SquadFunction { kQuadratic, kCubic };
// f(t) = 0.5t - 0.25t^2 (kQuadratic) or 0.5t - 0.25t^2 + 0.25t^3 (kCubic).
double squad_bench_function(SquadFunction f, double t);

struct SquadBenchCase {
  std::string name;          // e.g. "quadratic, even"
  SquadFunction function;
  std::vector<double> times;
  SquadOptions options;
  SlerpVariant sqlerp_inner = SlerpVariant::kPlain;  // SampleOptions::sqlerp_inner
  std::string seed_figure;   // the seed's "Average error" ("exact", "0.008141"), or "-"
};

struct SquadBenchResult {
  SquadBenchCase bench_case;
  // |angle(t) - f(t)| (angles compared modulo 2 pi, radians) at `samples` + 1 evenly
  // spaced times t_0 + j (t_{n-1} - t_0) / samples (computed, not accumulated).
  double average_error = 0.0;
  double max_error = 0.0;
  // Largest jump of the one-sided first and second derivatives of the angle across the
  // inner keys (rad/s, rad/s^2), by four-point one-sided finite differences with steps
  // kSquadDerivativeStep and kSquadSecondDerivativeStep; they are exact for cubics, and
  // each segment's angle is a cubic in t (single axis), so only rounding remains
  // (about 1e-10 rad/s and 1e-8 rad/s^2 here).
  double max_velocity_jump = 0.0;
  double max_acceleration_jump = 0.0;
};

inline constexpr std::size_t kSquadBenchSamples = 100000;
inline constexpr double kSquadDerivativeStep = 1e-4;
inline constexpr double kSquadSecondDerivativeStep = 1e-3;

// The seed's four scenarios with our default options, in the seed's order.
std::vector<SquadBenchCase> squad_seed_cases();
// Further cases that explain the differences (docs/REFERENCE.md): extrapolated ends, a
// truly uniform key set, the original uniform SQUAD on the seed's "even" set.
std::vector<SquadBenchCase> squad_investigation_cases();

SquadBenchResult run_squad_bench_case(const SquadBenchCase& bench_case,
                                      std::size_t samples = kSquadBenchSamples);

// One-sided derivatives of the bench angle at an inner key (rad/s and rad/s^2).
struct OneSidedDerivatives {
  double time = 0.0;
  double velocity_left = 0.0, velocity_right = 0.0;
  double acceleration_left = 0.0, acceleration_right = 0.0;
};
// At every inner key t_1 .. t_{n-2} of the case, from the sampled CUBICSLERP track.
std::vector<OneSidedDerivatives> squad_bench_key_derivatives(const SquadBenchCase& bench_case);

}  // namespace gltf_anim::reference
