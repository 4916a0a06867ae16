// Lints: findings no spec makes an error, about data that plays differently in
// different clients, or that is probably not what the author meant. Own codes
// (LINT_*), warnings or infos; docs/VALIDATOR.md ("Lints") explains each.
//
// Lints read the decoded accessor data in the link phase (read_accessor, at
// most kMaxValues values per accessor and kBudgetValues decoded values per
// asset, beyond which data lints stop; each input's start time and each
// (input, output, interpolation, kind) track is read once, however many
// samplers or channels share it, so hostile sharing stays linear) and only
// look at samplers whose data is well formed (input SCALAR FLOAT, finite
// and strictly increasing; output count a whole number of keys): broken data
// has its own errors already. Interpolation for the redundant-key lint is the
// reference evaluator's (reference/track.hpp), not new maths.
#include <gltf_anim/reference/track.hpp>
#include <gltf_anim/validator/accessor.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ext_common.hpp"

namespace gltf_anim::validator {
namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp

constexpr std::size_t kMaxValues = std::size_t{1} << 20;
constexpr std::uint64_t kBudgetValues = std::uint64_t{1} << 25;
// v_k = -v_{k+1} for cubic rotation keys: every component within this.
constexpr double kOppositeTolerance = 1e-6;
// Redundant keyframe: every component of the value its neighbours'
// interpolation gives at t_k within kRedundantTolerance * max(1, |v_k|).
constexpr double kRedundantTolerance = 1e-6;

bool is_core_path(std::string_view p) {
  return p == "translation" || p == "rotation" || p == "scale" || p == "weights";
}

// One sampler's decoded data, or nothing when it is not lintable.
struct Track {
  std::vector<double> times;
  std::vector<double> values;
  std::size_t width = 0;  // components per value (per key, not per element)
  std::size_t per_key = 1;  // 3 for cubic modes
};

// Decoded values left for this asset's data lints.
struct Budget {
  std::uint64_t left = kBudgetValues;
  // Charges the accessor's value count; false (and nothing charged) when it
  // does not fit.
  bool take(const Accessor& acc) {
    if (!acc.well_formed || !acc.count || !acc.type) return false;
    std::uint64_t n = 0;
    if (__builtin_mul_overflow(*acc.count, std::uint64_t{component_count(*acc.type)}, &n) ||
        n > kMaxValues || n > left) {
      return false;  // a wrapped product must not pass as a small one
    }
    left -= n;
    return true;
  }
};

std::optional<std::vector<double>> read_times(const RuleContext& ctx, std::uint64_t index,
                                              Budget& budget) {
  if (index >= ctx.asset.accessors.size()) return std::nullopt;
  const Accessor& acc = ctx.asset.accessors[index];
  if (!acc.well_formed || acc.type != ElementType::kScalar ||
      acc.component_type != ComponentType::kFloat || acc.normalized || !budget.take(acc)) {
    return std::nullopt;
  }
  std::vector<double> t;
  if (!read_accessor(ctx.asset, index, t, nullptr, kMaxValues) || t.empty()) return std::nullopt;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!std::isfinite(t[i]) || (i > 0 && !(t[i] > t[i - 1]))) return std::nullopt;
  }
  return t;
}

std::optional<Track> read_track(const RuleContext& ctx, const rapidjson::Value& sampler,
                                std::uint32_t per_key, Budget& budget) {
  const auto in = index_member(sampler, "input");
  const auto out = index_member(sampler, "output");
  if (!in || !out || *out >= ctx.asset.accessors.size()) return std::nullopt;
  auto times = read_times(ctx, *in, budget);
  if (!times) return std::nullopt;
  Track track;
  track.times = std::move(*times);
  track.per_key = per_key;
  const Accessor& acc = ctx.asset.accessors[*out];
  if (!budget.take(acc) || !read_accessor(ctx.asset, *out, track.values, nullptr, kMaxValues)) {
    return std::nullopt;
  }
  // A whole number of elements per key (weights: one per morph target), so
  // that the per-key layout is known; a wrong count has its own error.
  const std::uint64_t keys = track.times.size();
  if (*acc.count % (keys * per_key) != 0) return std::nullopt;
  track.width = static_cast<std::size_t>(*acc.count / (keys * per_key)) * component_count(*acc.type);
  for (const double v : track.values) {
    if (!std::isfinite(v)) return std::nullopt;
  }
  return track;
}

// The value (not a tangent) of key k.
const double* value_of(const Track& t, std::size_t k) {
  return t.values.data() + (k * t.per_key + (t.per_key == 3 ? 1 : 0)) * t.width;
}

double dot4(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

class LintRules final : public RuleModule {
 public:
  std::string_view name() const override { return "lints"; }

  void link(RuleContext& ctx) override {
    // Nothing to read when the run reports no lint (--lints off, or all ignored).
    if (!ctx.issues.reports_any(Phase::kLint)) return;
    State state;
    for_each_animation(ctx.doc, [&](const rapidjson::Value& animation, const JsonPointer& ap) {
      lint_animation(ctx, state, animation, ap);
    });
  }

 private:
  // Shared by all animations of one asset.
  struct State {
    Budget budget;
    std::map<std::uint64_t, std::optional<double>> first_time;  // by input accessor
    std::set<std::string> tracks;  // "input/output/interpolation/kind" already linted
  };

  static std::optional<double> first_time(const RuleContext& ctx, State& state, std::uint64_t input) {
    const auto it = state.first_time.find(input);
    if (it != state.first_time.end()) return it->second;
    std::optional<double> t;
    if (const auto times = read_times(ctx, input, state.budget)) t = times->front();
    state.first_time.emplace(input, t);
    return t;
  }

  // True the first time this (input, output, interpolation, kind) is seen.
  static bool first_track(State& state, const rapidjson::Value& sampler, std::string_view kind) {
    const auto in = index_member(sampler, "input");
    const auto out = index_member(sampler, "output");
    if (!in || !out) return false;
    std::string key = std::to_string(*in);
    key += '/';
    key += std::to_string(*out);
    key += '/';
    key += string_member(sampler, "interpolation").value_or("LINEAR");
    key += '/';
    key += kind;
    return state.tracks.insert(std::move(key)).second;
  }

  static void lint_animation(RuleContext& ctx, State& state, const rapidjson::Value& animation,
                             const JsonPointer& ap) {
    const rapidjson::Value* samplers = array_member(animation, "samplers");
    const rapidjson::Value* channels = array_member(animation, "channels");
    const JsonPointer sp = ap / std::string_view("samplers");

    // Per sampler: end tangents (core CUBICSPLINE) and the start time.
    bool any_input = false;
    double start = 0;
    for (std::size_t s = 0; s < array_size(samplers); ++s) {
      const rapidjson::Value* sampler = object_at(samplers, s);
      if (sampler == nullptr) continue;
      const auto in = index_member(*sampler, "input");
      if (in) {
        if (const auto t = first_time(ctx, state, *in)) {
          start = any_input ? std::min(start, *t) : *t;
          any_input = true;
        }
      }
      if (string_member(*sampler, "interpolation").value_or("") != "CUBICSPLINE") continue;
      if (!first_track(state, *sampler, "end-tangents")) continue;
      const auto track = read_track(ctx, *sampler, 3, state.budget);
      if (!track || track->times.size() < 2) continue;
      const std::size_t w = track->width;
      const auto nonzero = [](const double* p, std::size_t n) {
        return std::any_of(p, p + n, [](double v) { return v != 0; });
      };
      const JsonPointer op = sp / s / std::string_view("output");
      if (nonzero(track->values.data(), w)) {
        ctx.issues.add("LINT_CUBICSPLINE_NONZERO_END_TANGENT", op, {"first in-tangent"});
      }
      if (nonzero(track->values.data() + track->values.size() - w, w)) {
        ctx.issues.add("LINT_CUBICSPLINE_NONZERO_END_TANGENT", op, {"last out-tangent"});
      }
    }
    if (any_input && start > 0) {
      ctx.issues.add("LINT_ANIMATION_STARTS_AFTER_ZERO", ap, {number_text(start)});
    }

    // Per channel (each sampler once): rotations, redundant keys, missing node.
    std::set<std::uint64_t> done;
    for (std::size_t c = 0; c < array_size(channels); ++c) {
      const rapidjson::Value* channel = object_at(channels, c);
      if (channel == nullptr) continue;
      const JsonPointer cp = ap / std::string_view("channels") / c;
      const rapidjson::Value* target = member(*channel, "target");
      if (target == nullptr || !target->IsObject()) continue;
      const auto path = string_member(*target, "path");
      if (!path || !is_core_path(*path)) continue;
      if (!has(*target, "node")) {
        ctx.issues.add("LINT_CHANNEL_WITHOUT_NODE", cp / std::string_view("target"),
                       {std::string(*path)});
      }
      const auto s = index_member(*channel, "sampler");
      const rapidjson::Value* sampler = s ? object_at(samplers, *s) : nullptr;
      if (sampler == nullptr || !done.insert(*s).second) continue;
      const std::string interp(string_member(*sampler, "interpolation").value_or("LINEAR"));
      const bool cubic = interp == "CUBICSPLINE";
      if (!cubic && interp != "LINEAR" && interp != "STEP") continue;
      const bool rotation = *path == "rotation";
      if (!first_track(state, *sampler, rotation ? "rotation" : "vector")) continue;
      const auto track = read_track(ctx, *sampler, cubic ? 3 : 1, state.budget);
      if (!track) continue;
      if (rotation && track->width != 4) continue;
      const JsonPointer sampler_p = cp / std::string_view("sampler");
      if (rotation && interp == "LINEAR") negative_dot(ctx, *track, sampler_p);
      if (rotation && cubic) opposite_keys(ctx, *track, sampler_p);
      // Opt-in, and the costliest lint (one evaluation per key): only when asked for.
      if (!cubic && ctx.issues.reports("LINT_REDUNDANT_KEYFRAME"))
        redundant_keys(ctx, *track, rotation, interp == "STEP", sp / *s);
    }
  }

  // LINEAR rotation keys q_k . q_{k+1} < 0: Appendix C slerps the short way
  // (negating one key), engines without the shortest-path rule the long way.
  static void negative_dot(RuleContext& ctx, const Track& t, const JsonPointer& at) {
    std::size_t count = 0;
    std::size_t first = 0;
    double first_dot = 0;
    for (std::size_t k = 0; k + 1 < t.times.size(); ++k) {
      const double d = dot4(value_of(t, k), value_of(t, k + 1));
      if (d < 0) {
        if (count == 0) {
          first = k;
          first_dot = d;
        }
        ++count;
      }
    }
    if (count != 0) {
      ctx.issues.add("LINT_ROTATION_NEGATIVE_DOT", at,
                     {std::to_string(first), std::to_string(first + 1), number_text(first_dot),
                      std::to_string(count)});
    }
  }

  // Cubic rotation keys v_{k+1} = -v_k: the componentwise spline can pass
  // through (or near) the zero quaternion, which has no rotation.
  static void opposite_keys(RuleContext& ctx, const Track& t, const JsonPointer& at) {
    for (std::size_t k = 0; k + 1 < t.times.size(); ++k) {
      const double* a = value_of(t, k);
      const double* b = value_of(t, k + 1);
      bool opposite = true;
      for (int i = 0; i < 4; ++i) opposite = opposite && std::abs(a[i] + b[i]) <= kOppositeTolerance;
      if (opposite) {
        ctx.issues.add("LINT_CUBIC_ROTATION_OPPOSITE_KEYS", at,
                       {std::to_string(k), std::to_string(k + 1)});
      }
    }
  }

  // Interior key k whose value the two-key track (k-1, k+1) reproduces at t_k,
  // sampled with the reference evaluator (STEP, LINEAR; rotations with the
  // shortest-path slerp, q and -q being the same rotation).
  static void redundant_keys(RuleContext& ctx, const Track& t, bool rotation, bool step,
                             const JsonPointer& at) {
    std::size_t count = 0;
    std::size_t first = 0;
    std::vector<double> pair(2 * t.width);
    std::vector<double> got(t.width);
    for (std::size_t k = 1; k + 1 < t.times.size(); ++k) {
      const double times[2] = {t.times[k - 1], t.times[k + 1]};
      std::copy_n(value_of(t, k - 1), t.width, pair.begin());
      std::copy_n(value_of(t, k + 1), t.width, pair.begin() + static_cast<std::ptrdiff_t>(t.width));
      reference::TrackView view;
      view.times = times;
      view.values = pair;
      view.components = t.width;
      view.interpolation = step ? reference::Interpolation::kStep : reference::Interpolation::kLinear;
      view.kind = rotation ? reference::ValueKind::kRotation : reference::ValueKind::kVector;
      reference::sample(view, t.times[k], got);
      const double* v = value_of(t, k);
      const auto close = [&](double sign) {
        for (std::size_t i = 0; i < t.width; ++i) {
          if (std::abs(sign * got[i] - v[i]) > kRedundantTolerance * std::max(1.0, std::abs(v[i]))) {
            return false;
          }
        }
        return true;
      };
      if (close(1.0) || (rotation && close(-1.0))) {
        if (count == 0) first = k;
        ++count;
      }
    }
    if (count != 0) {
      ctx.issues.add("LINT_REDUNDANT_KEYFRAME", at, {std::to_string(count), std::to_string(first)});
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_lint_rules() { return std::make_unique<LintRules>(); }

}  // namespace gltf_anim::validator
