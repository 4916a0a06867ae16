// Modified SQUAD control points and the seed's verification bench (squad.hpp).
#include <gltf_anim/reference/shortest_path.hpp>
#include <gltf_anim/reference/squad.hpp>
#include <gltf_anim/reference/track.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace gltf_anim::reference {
namespace {

// Log-domain quantities of key i (squad.hpp notation). A missing neighbour is the key
// itself one equal duration away (the seed's end rule), which makes its log zero.
struct KeyDeltas {
  Vec3 l12, l10;
  double dt0 = 0.0, dt1 = 0.0;
  Vec3 acceleration;  // acc_i
};

KeyDeltas key_deltas(std::span<const double> times, std::span<const Quat> q, std::size_t i) {
  const std::size_t n = q.size();
  const bool has_prev = i > 0;
  const bool has_next = i + 1 < n;
  KeyDeltas d;
  d.dt1 = has_next ? times[i + 1] - times[i] : times[i] - times[i - 1];
  d.dt0 = has_prev ? times[i] - times[i - 1] : d.dt1;
  const Quat inv = conjugate(q[i]);
  if (has_next) d.l12 = quat_log(inv * q[i + 1]);
  if (has_prev) d.l10 = quat_log(inv * q[i - 1]);
  d.acceleration = (1.0 / (0.5 * (d.dt0 + d.dt1))) * ((1.0 / d.dt1) * d.l12 + (1.0 / d.dt0) * d.l10);
  return d;
}

struct KeyControls {
  Vec3 incoming, outgoing;  // D_i and D_o
};

KeyControls key_controls(const KeyDeltas& d, SquadControls controls) {
  if (controls == SquadControls::kUniform) {
    const Vec3 delta = 0.25 * (d.l12 + d.l10);
    return {delta, delta};
  }
  const Vec3 outgoing = (0.25 * d.dt1 * d.dt1) * d.acceleration;
  const double r = d.dt0 / d.dt1;
  const Vec3 incoming = 0.5 * (r * d.l12 + d.l10) - r * outgoing;
  return {incoming, outgoing};
}

// D used at an end key that borrows the acceleration of its inner neighbour j
// (kExtrapolate); `duration` is the end segment's duration.
Vec3 extrapolated_delta(std::span<const double> times, std::span<const Quat> q, std::size_t j,
                        double duration, SquadControls controls) {
  const KeyDeltas d = key_deltas(times, q, j);
  if (controls == SquadControls::kUniform) return 0.25 * (d.l12 + d.l10);
  return (0.25 * duration * duration) * d.acceleration;
}

constexpr Vec3 kAxisZ{0.0, 0.0, 1.0};

// x wrapped into (-pi, pi].
double wrap_angle(double x) {
  const double two_pi = 2.0 * std::numbers::pi;
  double r = std::remainder(x, two_pi);  // in [-pi, pi]
  if (r <= -std::numbers::pi) r += two_pi;
  return r;
}

// The bench track: keys, CUBICSLERP values and a view on them.
struct BenchTrack {
  std::vector<double> times;
  std::vector<double> values;
  SquadFunction function;
  SampleOptions sample_options;
  TrackView view() const {
    return {times, values, 4, Interpolation::kCubicSlerp, ValueKind::kRotation};
  }
};

BenchTrack make_bench_track(const SquadBenchCase& c) {
  std::vector<Quat> keys;
  keys.reserve(c.times.size());
  for (double t : c.times) keys.push_back(from_axis_angle(kAxisZ, squad_bench_function(c.function, t)));
  BenchTrack track{c.times, squad_cubicslerp_values(c.times, keys, c.options), c.function,
                   SampleOptions{SlerpVariant::kShortestPath, c.sqlerp_inner}};
  const std::string problem = validate(track.view());
  if (!problem.empty()) throw std::invalid_argument("squad bench '" + c.name + "': " + problem);
  return track;
}

// Rotation angle about +z of the sampled track at t, taken as the representative
// nearest to f(t) (angles are compared modulo 2 pi).
double bench_angle(const BenchTrack& track, double t, KeyframeCursor& cursor) {
  std::array<double, 4> q{};
  sample(track.view(), t, cursor, q, track.sample_options);
  const double angle = 2.0 * std::atan2(q[2], q[3]);
  const double f = squad_bench_function(track.function, t);
  return f + wrap_angle(angle - f);
}

}  // namespace

std::vector<Quat> squad_control_points(std::span<const double> times,
                                       std::span<const Quat> unit_keys,
                                       const SquadOptions& options) {
  const std::size_t n = unit_keys.size();
  if (times.size() != n)
    throw std::invalid_argument("squad_control_points: " + std::to_string(times.size()) +
                                " times for " + std::to_string(n) + " keys");
  if (n < 2) throw std::invalid_argument("squad_control_points: needs at least 2 keys");
  for (std::size_t i = 1; i < n; ++i)
    if (!(times[i] > times[i - 1]))
      throw std::invalid_argument("squad_control_points: times not strictly increasing at " +
                                  std::to_string(i));
  std::vector<Quat> q(unit_keys.begin(), unit_keys.end());
  if (options.shortest_path) patch_shortest_path(q);

  std::vector<Quat> out(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    KeyControls c = key_controls(key_deltas(times, q, i), options.controls);
    if (options.ends == SquadEnds::kExtrapolate) {
      if (i == 0)
        c.outgoing = n > 2 ? extrapolated_delta(times, q, 1, times[1] - times[0], options.controls)
                           : Vec3{};
      if (i == n - 1)
        c.incoming = n > 2 ? extrapolated_delta(times, q, n - 2, times[n - 1] - times[n - 2],
                                                options.controls)
                           : Vec3{};
    }
    out[3 * i + 0] = i == 0 ? Quat{0, 0, 0, 0} : q[i] * quat_exp(-c.incoming);
    out[3 * i + 1] = q[i];
    out[3 * i + 2] = i == n - 1 ? Quat{0, 0, 0, 0} : q[i] * quat_exp(-c.outgoing);
  }
  return out;
}

std::vector<double> squad_cubicslerp_values(std::span<const double> times,
                                            std::span<const Quat> unit_keys,
                                            const SquadOptions& options) {
  const std::vector<Quat> points = squad_control_points(times, unit_keys, options);
  std::vector<double> values(4 * points.size());
  for (std::size_t i = 0; i < points.size(); ++i) store_quat(points[i], values.data() + 4 * i);
  return values;
}

double squad_bench_function(SquadFunction f, double t) {
  const double quadratic = 0.5 * t - 0.25 * t * t;
  return f == SquadFunction::kQuadratic ? quadratic : quadratic + 0.25 * t * t * t;
}

std::vector<SquadBenchCase> squad_seed_cases() {
  const std::vector<double> even{0, 0.5, 1.0, 2.0, 2.5, 3.0};
  return {
      {"quadratic, even", SquadFunction::kQuadratic, even, {}, SlerpVariant::kPlain, "exact"},
      {"quadratic, uneven", SquadFunction::kQuadratic,
       {0, 1.0, 1.8, 2.1, 2.9, 3.0, 4.2, 4.3, 5.0, 6.0}, {}, SlerpVariant::kPlain, "0.008141"},
      {"cubic, even", SquadFunction::kCubic, even, {}, SlerpVariant::kPlain, "0.00195"},
      {"cubic, uneven", SquadFunction::kCubic, {0, 0.5, 0.9, 1.1, 1.4, 1.5, 2.1, 2.2, 2.5, 3.0},
       {}, SlerpVariant::kPlain, "0.008285"},
  };
}

std::vector<SquadBenchCase> squad_investigation_cases() {
  std::vector<SquadBenchCase> cases;
  const SquadOptions extrapolate{SquadControls::kNonUniform, SquadEnds::kExtrapolate, true};
  for (SquadBenchCase c : squad_seed_cases()) {
    c.name += ", extrapolated ends";
    c.options = extrapolate;
    cases.push_back(c);
  }
  const std::vector<double> uniform{0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0};
  const std::vector<double> even{0, 0.5, 1.0, 2.0, 2.5, 3.0};
  const SquadOptions original{SquadControls::kUniform, SquadEnds::kExtrapolate, true};
  cases.push_back({"quadratic, truly uniform", SquadFunction::kQuadratic, uniform, {},
                   SlerpVariant::kPlain, "-"});
  cases.push_back({"quadratic, truly uniform, extrapolated ends", SquadFunction::kQuadratic,
                   uniform, extrapolate, SlerpVariant::kPlain, "-"});
  cases.push_back({"quadratic, truly uniform, original SQUAD", SquadFunction::kQuadratic,
                   uniform, original, SlerpVariant::kPlain, "-"});
  cases.push_back({"quadratic, even, original SQUAD", SquadFunction::kQuadratic, even, original,
                   SlerpVariant::kPlain, "-"});
  // Aggregate initialization rather than member assignments: GCC 12 raises a false
  // -Wrestrict on std::string::operator=(const char*) here.
  cases.push_back({"cubic, even, shortest-path inner slerps", SquadFunction::kCubic, even, {},
                   SlerpVariant::kShortestPath, "-"});
  return cases;
}

SquadBenchResult run_squad_bench_case(const SquadBenchCase& bench_case, std::size_t samples) {
  const BenchTrack track = make_bench_track(bench_case);
  SquadBenchResult result{bench_case};
  if (samples == 0) samples = 1;
  const double t0 = track.times.front();
  const double span = track.times.back() - t0;
  KeyframeCursor cursor;
  double sum = 0.0;
  for (std::size_t j = 0; j <= samples; ++j) {
    const double t = t0 + span * static_cast<double>(j) / static_cast<double>(samples);
    const double error = std::abs(bench_angle(track, t, cursor) -
                                  squad_bench_function(bench_case.function, t));
    sum += error;
    result.max_error = std::max(result.max_error, error);
  }
  result.average_error = sum / static_cast<double>(samples + 1);
  for (const OneSidedDerivatives& d : squad_bench_key_derivatives(bench_case)) {
    result.max_velocity_jump =
        std::max(result.max_velocity_jump, std::abs(d.velocity_right - d.velocity_left));
    result.max_acceleration_jump = std::max(
        result.max_acceleration_jump, std::abs(d.acceleration_right - d.acceleration_left));
  }
  return result;
}

std::vector<OneSidedDerivatives> squad_bench_key_derivatives(const SquadBenchCase& bench_case) {
  const BenchTrack track = make_bench_track(bench_case);
  KeyframeCursor cursor;
  auto f = [&](double t) { return bench_angle(track, t, cursor); };
  std::vector<OneSidedDerivatives> out;
  for (std::size_t k = 1; k + 1 < track.times.size(); ++k) {
    const double t = track.times[k];
    const double h = kSquadDerivativeStep;
    const double g = kSquadSecondDerivativeStep;
    const double f0 = f(t);
    OneSidedDerivatives d;
    d.time = t;
    // Four-point one-sided differences, exact for cubics (each segment's angle is a cubic
    // in t for a single axis), so only rounding remains.
    d.velocity_left =
        (11.0 * f0 - 18.0 * f(t - h) + 9.0 * f(t - 2.0 * h) - 2.0 * f(t - 3.0 * h)) / (6.0 * h);
    d.velocity_right =
        (-11.0 * f0 + 18.0 * f(t + h) - 9.0 * f(t + 2.0 * h) + 2.0 * f(t + 3.0 * h)) / (6.0 * h);
    d.acceleration_left =
        (2.0 * f0 - 5.0 * f(t - g) + 4.0 * f(t - 2.0 * g) - f(t - 3.0 * g)) / (g * g);
    d.acceleration_right =
        (2.0 * f0 - 5.0 * f(t + g) + 4.0 * f(t + 2.0 * g) - f(t + 3.0 * g)) / (g * g);
    out.push_back(d);
  }
  return out;
}

}  // namespace gltf_anim::reference
