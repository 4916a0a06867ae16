// Lints: findings no spec makes an error, about data that plays differently in
// different clients, or that is probably not what the author meant. Own codes
// (LINT_*), warnings or infos; docs/VALIDATOR.md ("Lints") explains each.
//
// Lints read the animation model (RuleContext::model), never the JSON: what a
// channel animates and whether its value is a unit quaternion (ValueShape),
// the sampler it links, its interpolation and accessors. So the rotation
// lints apply wherever the model says "quaternion": a node's rotation through
// target.path, KHR_animation_pointer or KHR_animation2, and any quaternion
// property of the Object Model, exactly as the sampler slerps them.
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
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gltf_anim/gltf/json_access.hpp>  // number_text

namespace gltf_anim::validator {

using gltf::Accessor;
using gltf::component_count;
using gltf::ElementType;
using gltf::is_floating_point;
using gltf::JsonPointer;
using gltf::Phase;
using gltf::read_accessor;
namespace model = gltf::model;

namespace {

using rules::number_text;
using Interpolation = reference::Interpolation;

constexpr std::size_t kMaxValues = std::size_t{1} << 20;
constexpr std::uint64_t kBudgetValues = std::uint64_t{1} << 25;
// v_k = -v_{k+1} for cubic rotation keys: every component within this.
constexpr double kOppositeTolerance = 1e-6;
// Redundant keyframe: every component of the value its neighbours'
// interpolation gives at t_k within kRedundantTolerance * max(1, |v_k|).
constexpr double kRedundantTolerance = 1e-6;
// The frame rates LINT_STEP_KEY_AFTER_FRAME looks for, smallest first.
constexpr double kFrameRates[] = {24, 25, 30, 48, 50, 60, 90, 120};

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
  if (!acc.well_formed || acc.type != ElementType::kScalar || !acc.component_type ||
      !is_floating_point(*acc.component_type) || acc.normalized || !budget.take(acc)) {
    return std::nullopt;
  }
  std::vector<double> t;
  if (!read_accessor(ctx.asset, index, t, nullptr, kMaxValues) || t.empty()) return std::nullopt;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!std::isfinite(t[i]) || (i > 0 && !(t[i] > t[i - 1]))) return std::nullopt;
  }
  return t;
}

std::optional<Track> read_track(const RuleContext& ctx, const model::Sampler& sampler, Budget& budget) {
  const model::AccessorRef* in = model::linked(sampler.input);
  const model::AccessorRef* out = model::linked(sampler.output);
  if (in == nullptr || out == nullptr) return std::nullopt;
  auto times = read_times(ctx, in->index, budget);
  if (!times) return std::nullopt;
  Track track;
  track.times = std::move(*times);
  const std::uint32_t per_key = sampler.outputs_per_key();
  track.per_key = per_key;
  const Accessor& acc = *out->accessor;
  if (!budget.take(acc) || !read_accessor(ctx.asset, out->index, track.values, nullptr, kMaxValues)) {
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
    for (const model::Animation& animation : ctx.model.animations) lint_animation(ctx, state, animation);
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
  static bool first_track(State& state, const model::Sampler& sampler, std::string_view kind) {
    const model::AccessorRef* in = model::linked(sampler.input);
    const model::AccessorRef* out = model::linked(sampler.output);
    if (in == nullptr || out == nullptr) return false;
    std::string key = std::to_string(in->index);
    key += '/';
    key += std::to_string(out->index);
    key += '/';
    key += sampler.interpolation_name;
    key += '/';
    key += kind;
    return state.tracks.insert(std::move(key)).second;
  }

  static void lint_animation(RuleContext& ctx, State& state, const model::Animation& animation) {
    const JsonPointer ap = JsonPointer("/animations") / animation.index;
    const JsonPointer sp = ap / std::string_view("samplers");

    // Per sampler: end tangents (core CUBICSPLINE) and the start time.
    bool any_input = false;
    double start = 0;
    for (const model::Sampler& sampler : animation.samplers) {
      if (const model::AccessorRef* in = model::linked(sampler.input)) {
        if (const auto t = first_time(ctx, state, in->index)) {
          start = any_input ? std::min(start, *t) : *t;
          any_input = true;
        }
      }
      if (sampler.interpolation != Interpolation::kCubicSpline) continue;
      if (!first_track(state, sampler, "end-tangents")) continue;
      const auto track = read_track(ctx, sampler, state.budget);
      if (!track || track->times.size() < 2) continue;
      const std::size_t w = track->width;
      const auto nonzero = [](const double* p, std::size_t n) {
        return std::any_of(p, p + n, [](double v) { return v != 0; });
      };
      const JsonPointer op = sp / sampler.index / std::string_view("output");
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

    // Per channel with a target (each sampler once, by the first channel that
    // uses it): rotations, redundant keys, missing node.
    std::set<std::size_t> done;
    for (const model::Channel& channel : animation.channels) {
      const auto* target = std::get_if<model::Target>(&channel.target);
      if (target == nullptr) continue;  // no target: the core and extension rules say why
      const JsonPointer cp = ap / std::string_view("channels") / channel.index;
      if (const auto* node = std::get_if<model::NodeTarget>(&target->what); node != nullptr && !node->node_written) {
        ctx.issues.add("LINT_CHANNEL_WITHOUT_NODE", cp / std::string_view("target"),
                       {std::string(model::node_path_name(node->path))});
      }
      const model::Sampler* const* linked = model::linked(channel.sampler);
      if (linked == nullptr) continue;
      const model::Sampler& sampler = **linked;
      if (!done.insert(sampler.index).second) continue;
      const std::optional<Interpolation> interp = sampler.interpolation;
      if (interp != Interpolation::kLinear && interp != Interpolation::kStep &&
          interp != Interpolation::kCubicSpline) {
        continue;  // the extensions' modes have their own rules
      }
      const bool cubic = interp == Interpolation::kCubicSpline;
      const bool rotation = target->shape.quaternion;
      if (!first_track(state, sampler, rotation ? "rotation" : "vector")) continue;
      const auto track = read_track(ctx, sampler, state.budget);
      if (!track) continue;
      if (rotation && track->width != 4) continue;
      const JsonPointer sampler_p = cp / std::string_view("sampler");
      if (rotation && interp == Interpolation::kLinear) negative_dot(ctx, *track, sampler_p);
      if (rotation && cubic) {
        opposite_keys(ctx, *track, sampler_p);
        cubic_negative_dot(ctx, *track, sampler_p);
      }
      if (interp == Interpolation::kStep) step_after_frame(ctx, *track, sp / sampler.index / std::string_view("input"));
      // Opt-in, and the costliest lint (one evaluation per key): only when asked for.
      if (!cubic && ctx.issues.reports("LINT_REDUNDANT_KEYFRAME"))
        redundant_keys(ctx, *track, rotation, interp == Interpolation::kStep, sp / sampler.index);
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

  // CUBICSPLINE rotation values v_k . v_{k+1} < 0 (opposite pairs excepted: they
  // have their own lint): Appendix C.5 interpolates each component, with no
  // shortest path, so the curve turns the long way between the two keys, where
  // a reader that converts the keys first (Euler angles, a sign-aligned key
  // chain) turns the short way.
  static void cubic_negative_dot(RuleContext& ctx, const Track& t, const JsonPointer& at) {
    std::size_t count = 0;
    std::size_t first = 0;
    double first_dot = 0;
    for (std::size_t k = 0; k + 1 < t.times.size(); ++k) {
      const double* a = value_of(t, k);
      const double* b = value_of(t, k + 1);
      bool opposite = true;
      for (int i = 0; i < 4; ++i) opposite = opposite && std::abs(a[i] + b[i]) <= kOppositeTolerance;
      const double d = dot4(a, b);
      if (d < 0 && !opposite) {
        if (count == 0) {
          first = k;
          first_dot = d;
        }
        ++count;
      }
    }
    if (count != 0) {
      ctx.issues.add("LINT_CUBIC_ROTATION_NEGATIVE_DOT", at,
                     {std::to_string(first), std::to_string(first + 1), number_text(first_dot),
                      std::to_string(count)});
    }
  }

  // STEP key times that are all frames of one frame rate (each the float32 of
  // k / fps, the smallest such rate of kFrameRates), some stored above their
  // frame: a player that samples that frame at k / fps (in double) is before the
  // key and shows the previous one.
  static void step_after_frame(RuleContext& ctx, const Track& t, const JsonPointer& at) {
    if (t.times.size() < 2) return;
    for (const double fps : kFrameRates) {
      bool frames = true;
      for (const double time : t.times) {
        const double k = std::round(time * fps);
        frames = frames && static_cast<float>(k / fps) == static_cast<float>(time);
        if (!frames) break;
      }
      if (!frames) continue;
      std::size_t count = 0;
      std::size_t first = 0;
      for (std::size_t i = 0; i < t.times.size(); ++i) {
        if (t.times[i] > std::round(t.times[i] * fps) / fps) {
          if (count++ == 0) first = i;
        }
      }
      if (count != 0) {
        const double k = std::round(t.times[first] * fps);
        ctx.issues.add("LINT_STEP_KEY_AFTER_FRAME", at,
                       {std::to_string(first), number_text(t.times[first]),
                        std::to_string(static_cast<long long>(k)), number_text(fps),
                        number_text(k / fps), std::to_string(count)});
      }
      return;  // the smallest rate the keys fit decides
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
