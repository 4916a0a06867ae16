// One golden samples file against one actual: channels paired by target,
// samples by time, each sample's error against the channel's tolerance.
#include "channel.hpp"

#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/text/words.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <string_view>

namespace gltf_anim::compare {

using samples::SampledAnimation;
using samples::SampledChannel;
using samples::SamplesFile;

// ---------------------------------------------------------------- results

namespace {
std::size_t count_outcome(const std::vector<CaseResult>& cases, CaseOutcome outcome) {
  return static_cast<std::size_t>(std::count_if(
      cases.begin(), cases.end(), [outcome](const CaseResult& c) { return c.outcome == outcome; }));
}
}  // namespace

std::size_t CompareReport::passed() const { return count_outcome(cases, CaseOutcome::kPassed); }
std::size_t CompareReport::failed() const { return count_outcome(cases, CaseOutcome::kFailed); }
std::size_t CompareReport::nothing_compared() const {
  return count_outcome(cases, CaseOutcome::kNothingCompared);
}
std::size_t CompareReport::not_run() const { return count_outcome(cases, CaseOutcome::kNotRun); }
std::size_t CompareReport::excluded() const { return count_outcome(cases, CaseOutcome::kExcluded); }

std::vector<const CaseResult*> failures_first(const CompareReport& report) {
  const auto rank = [](CaseOutcome o) {
    switch (o) {
      case CaseOutcome::kFailed: return 0;
      case CaseOutcome::kNotRun: return 1;
      case CaseOutcome::kPassed: return 2;
      case CaseOutcome::kNothingCompared: return 3;
      case CaseOutcome::kExcluded: return 4;
    }
    return 5;
  };
  std::vector<const CaseResult*> order;
  order.reserve(report.cases.size());
  for (const auto& c : report.cases) order.push_back(&c);
  std::stable_sort(order.begin(), order.end(), [&](const CaseResult* x, const CaseResult* y) {
    return rank(x->outcome) < rank(y->outcome);
  });
  return order;
}

namespace {

void merge_stats(ErrorStats& into, const ErrorStats& from) {
  if (from.samples == 0) return;
  const double total = into.mean * static_cast<double>(into.samples) +
                       from.mean * static_cast<double>(from.samples);
  if (into.samples == 0 || from.max > into.max) {
    into.max = from.max;
    into.worst_t = from.worst_t;
    into.worst_animation = from.worst_animation;
    into.worst_target = from.worst_target;
  }
  into.samples += from.samples;
  into.mean = total / static_cast<double>(into.samples);
}

}  // namespace

namespace detail {

std::vector<std::size_t> order_by_time(const SampledChannel& c) {
  std::vector<std::size_t> order(c.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return c.times[x] < c.times[y]; });
  return order;
}

// For each golden time (by position in `go`, the golden samples by time), the
// index of the sample of `a` it matches, or -1: t matches exactly or within
// eps * max(1, |t|), capped below half the gap to the neighbouring golden
// times; the nearest wins. One pass over both, sorted.
std::vector<std::ptrdiff_t> match_times(const SampledChannel& g, const std::vector<std::size_t>& go,
                                        const SampledChannel& a, double eps) {
  const auto ao = order_by_time(a);
  std::vector<std::ptrdiff_t> match(go.size(), -1);
  std::size_t j = 0;
  for (std::size_t k = 0; k < go.size(); ++k) {
    const double t = g.times[go[k]];
    double window = eps * std::max(1.0, std::fabs(t));
    if (k > 0) window = std::min(window, 0.49 * (t - g.times[go[k - 1]]));
    if (k + 1 < go.size()) window = std::min(window, 0.49 * (g.times[go[k + 1]] - t));
    while (j < ao.size() && a.times[ao[j]] < t - window) ++j;
    std::ptrdiff_t best = -1;
    double best_d = std::numeric_limits<double>::infinity();
    std::size_t m = j;
    for (; m < ao.size() && a.times[ao[m]] <= t + window; ++m) {
      const double d = std::fabs(a.times[ao[m]] - t);
      if (d < best_d) {
        best_d = d;
        best = static_cast<std::ptrdiff_t>(ao[m]);
      }
    }
    j = m;
    match[k] = best;
  }
  return match;
}

double sample_error(ErrorMeasure measure, std::span<const double> a, std::span<const double> b) {
  const double e = measure == ErrorMeasure::kAngle ? angle_between(a, b) : max_abs_difference(a, b);
  return std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
}

// How far an actual rotation's length is from a right one (0 for other
// measures): the angle alone judges the direction, and an unnormalized result
// (|q| = 0.866 at the middle of a lerp) scales the object it rotates. Right is
// 1 (slerp of unit keys, Appendix C.5's normalization), or the expected
// value's own length: keys that are not exactly unit (normalized integers)
// slerped as stored give a result as far from 1 as they are.
double length_error(ErrorMeasure measure, std::span<const double> expected,
                    std::span<const double> actual) {
  if (measure != ErrorMeasure::kAngle || expected.size() != 4 || actual.size() != 4) return 0;
  const double length = quaternion_length(actual);
  const double e = std::min(std::fabs(length - 1), std::fabs(length - quaternion_length(expected)));
  return std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
}

bool sample_within(const ChannelResult& r, std::span<const double> expected,
                   std::span<const double> actual) {
  return sample_error(r.measure, expected, actual) <= r.tolerance &&
         length_error(r.measure, expected, actual) <= r.length_tolerance;
}

}  // namespace detail

namespace {

using detail::length_error;
using detail::match_times;
using detail::order_by_time;
using detail::sample_error;

// The N worst samples of a channel, kept while comparing: a heap of at most N
// rows whose front is the least bad kept, replaced when a worse one comes.
class WorstSamples {
 public:
  explicit WorstSamples(std::size_t n) : n_(n) {}
  void offer(double t, double error, std::span<const double> golden,
             std::span<const double> actual) {
    if (n_ == 0) return;
    if (rows_.size() == n_ && !worse(error, t, rows_.front())) return;
    WorstSample row{t, {golden.begin(), golden.end()}, {actual.begin(), actual.end()}, error};
    if (rows_.size() == n_) {
      std::pop_heap(rows_.begin(), rows_.end(), heap_order);
      rows_.back() = std::move(row);
    } else {
      rows_.push_back(std::move(row));
    }
    std::push_heap(rows_.begin(), rows_.end(), heap_order);
  }
  // Largest error first; on equal errors, the earlier time first.
  std::vector<WorstSample> take() {
    std::sort_heap(rows_.begin(), rows_.end(), heap_order);
    return std::move(rows_);
  }

 private:
  static bool worse(double error, double t, const WorstSample& than) {
    return error > than.error || (error == than.error && t < than.t);
  }
  static bool heap_order(const WorstSample& x, const WorstSample& y) {
    return worse(x.error, x.t, y);
  }
  std::size_t n_;
  std::vector<WorstSample> rows_;
};

ChannelResult compare_channel(std::size_t animation, const SampledChannel& g,
                              const SampledChannel* a, const Tolerances& tol, double eps,
                              std::size_t worst_samples) {
  ChannelResult r;
  r.animation = animation;
  r.channel = g.index;
  r.target = g.target;
  r.interpolation = g.interpolation;
  r.measure = uses_angle(g) ? ErrorMeasure::kAngle : ErrorMeasure::kAbsolute;
  const Tolerances own = tol.of_channel(animation, g.index);
  r.tolerance = r.measure == ErrorMeasure::kAngle ? own.angle : own.absolute;
  r.length_tolerance = r.measure == ErrorMeasure::kAngle ? own.length : 0;
  r.width = g.width;
  r.golden_samples = g.size();
  r.stats.worst_animation = animation;
  r.stats.worst_target = g.target;
  if (a == nullptr) {
    r.missing = true;
    r.passed = false;
    r.missing_samples = g.size();
    r.problem = "channel missing in the actual samples";
    return r;
  }
  if (!a->unsupported.empty()) {
    // The adapter says its engine cannot play this channel: not compared.
    r.unsupported = a->unsupported;
    r.passed = false;
    r.missing_samples = g.size();
    r.problem = "not run (unsupported: " + a->unsupported + ")";
    return r;
  }
  r.actual_width = a->width;
  if (g.size() > 0 && a->size() > 0 && a->width != g.width) {
    r.passed = false;
    r.compared = 0;
    r.problem = "actual values have " + std::to_string(a->width) +
                " components per sample, golden " + std::to_string(g.width);
    return r;
  }
  const auto go = order_by_time(g);
  const std::vector<std::ptrdiff_t> match = match_times(g, go, *a, eps);
  const auto matched = static_cast<std::size_t>(
      std::count_if(match.begin(), match.end(), [](std::ptrdiff_t m) { return m >= 0; }));
  r.extra_samples = a->size() - matched;

  double sum = 0;
  double worst_length_off = 0;
  std::size_t over_angle_or_value = 0;  // over_tolerance without the length-only failures
  WorstSamples worst(worst_samples);
  std::vector<double> errors(go.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t k = 0; k < go.size(); ++k) {
    if (match[k] < 0) {
      ++r.missing_samples;
      continue;
    }
    const auto gv = g.value(go[k]);
    const auto av = a->value(static_cast<std::size_t>(match[k]));
    const double e = sample_error(r.measure, gv, av);
    errors[k] = e;
    ++r.compared;
    sum += e;
    const double off = length_error(r.measure, gv, av);
    const bool length_off = !(off <= r.length_tolerance);
    if (length_off) {
      if (r.length_failures++ == 0 || !(off <= worst_length_off)) {
        worst_length_off = off;
        r.worst_length_t = g.times[go[k]];
        r.worst_length_actual = quaternion_length(av);
        r.worst_length_expected = quaternion_length(gv);
      }
    }
    if (!(e <= r.tolerance)) ++over_angle_or_value;
    if (!(e <= r.tolerance) || length_off) ++r.over_tolerance;
    // A sample equal to the golden one (and of the right length) is no worst sample: a table
    // padded with such rows would bury the ones that matter.
    if (e != 0 || length_off) worst.offer(g.times[go[k]], e, gv, av);
    if (r.compared == 1 || e > r.stats.max) {
      r.stats.max = e;
      r.stats.worst_t = g.times[go[k]];
    }
  }
  r.stats.samples = r.compared;
  r.stats.mean = r.compared ? sum / static_cast<double>(r.compared) : 0;
  r.passed = r.over_tolerance == 0 && r.missing_samples == 0;
  if (!r.passed) {
    std::string p;
    if (over_angle_or_value) {
      p = std::to_string(over_angle_or_value) + " of " + std::to_string(r.compared) +
          " samples over the tolerance " + text::short_number(r.tolerance) +
          (r.measure == ErrorMeasure::kAngle ? " rad" : "") + " (max " +
          text::short_number(r.stats.max) + " at t=" + text::short_number(r.stats.worst_t) + ")";
    }
    if (r.length_failures) {
      // 1 is right; so is the golden length when the keys are not unit.
      const bool unit_keys = std::fabs(r.worst_length_expected - 1) <= r.length_tolerance;
      // Digits enough to tell the length from 1 (1.000031, not 1).
      const int digits = 3 + static_cast<int>(std::max(
                                 0.0, -std::floor(std::log10(std::fabs(r.worst_length_actual - 1) + 1e-300))));
      p += (p.empty() ? "" : "; ") + std::string("rotation output not unit length: |q| = ") +
           text::short_number(r.worst_length_actual, std::min(digits, 9)) +
           " at t = " + text::short_number(r.worst_length_t) +
           (unit_keys ? ""
                      : " (the keys as stored give |q| = " +
                            text::short_number(r.worst_length_expected) + ")") +
           ", " + std::to_string(r.length_failures) + " of " + std::to_string(r.compared) +
           " samples off by more than " + text::short_number(r.length_tolerance);
    }
    if (r.missing_samples) {
      if (!p.empty()) p += "; ";
      p += std::to_string(r.missing_samples) + " of " + std::to_string(g.size()) +
           " golden samples missing in the actual samples";
    }
    r.problem = p;
    r.worst = worst.take();
    // Plot data.
    r.times.reserve(go.size());
    r.golden.reserve(go.size() * g.width);
    r.actual.reserve(go.size() * g.width);
    for (std::size_t k = 0; k < go.size(); ++k) {
      r.times.push_back(g.times[go[k]]);
      const auto gv = g.value(go[k]);
      r.golden.insert(r.golden.end(), gv.begin(), gv.end());
      if (match[k] >= 0) {
        const auto av = a->value(static_cast<std::size_t>(match[k]));
        r.actual.insert(r.actual.end(), av.begin(), av.end());
      } else {
        r.actual.insert(r.actual.end(), g.width, std::numeric_limits<double>::quiet_NaN());
      }
    }
    r.errors = std::move(errors);
    r.keyframes = g.keyframes;
    std::sort(r.keyframes.begin(), r.keyframes.end());
  }
  return r;
}

}  // namespace

CaseResult compare_samples(const SamplesFile& golden, const SamplesFile& actual,
                           const Tolerances& tolerances, double time_epsilon,
                           std::size_t worst_samples) {
  CaseResult result;
  result.id = golden.asset;
  result.asset = golden.asset;
  result.tolerances = tolerances;
  if (!actual.error.empty()) {
    // The engine failed on this asset: that case's failure, with its message.
    result.outcome = CaseOutcome::kFailed;
    result.problem = "the engine failed on this case: " + actual.error;
    return result;
  }
  std::map<std::size_t, const SampledAnimation*> actual_animations;
  for (const auto& a : actual.animations) actual_animations.emplace(a.index, &a);
  std::set<std::size_t> golden_indices;
  std::set<std::string> unsupported_seen;
  std::size_t golden_samples = 0;
  for (const auto& ga : golden.animations) {
    golden_indices.insert(ga.index);
    const auto it = actual_animations.find(ga.index);
    const SampledAnimation* aa = it == actual_animations.end() ? nullptr : it->second;
    std::map<std::string_view, const SampledChannel*> actual_channels;
    if (aa) {
      for (const auto& c : aa->channels) actual_channels.emplace(c.target, &c);
    }
    std::set<std::string_view> golden_targets;
    for (const auto& gc : ga.channels) {
      golden_targets.insert(gc.target);
      const auto ct = actual_channels.find(gc.target);
      ChannelResult cr =
          compare_channel(ga.index, gc, ct == actual_channels.end() ? nullptr : ct->second,
                          tolerances, time_epsilon, std::min(worst_samples, kMaxWorstSamples));
      if (cr.missing && aa == nullptr) cr.problem = "animation missing in the actual samples";
      if (!cr.passed && cr.unsupported.empty()) result.outcome = CaseOutcome::kFailed;
      // Each feature once, in first-seen order; a set, not a search of the list, so a
      // file of many channels each declaring another feature stays linear.
      if (!cr.unsupported.empty() && unsupported_seen.insert(cr.unsupported).second) {
        result.unsupported.push_back(cr.unsupported);
      }
      golden_samples += cr.golden_samples;
      merge_stats(cr.measure == ErrorMeasure::kAngle ? result.angle : result.absolute, cr.stats);
      if (cr.extra_samples > 0) {
        result.warnings.push_back("animation " + std::to_string(ga.index) + " " + gc.target +
                                  ": " + std::to_string(cr.extra_samples) +
                                  " actual samples match no golden time (ignored)");
      }
      result.channels.push_back(std::move(cr));
    }
    if (aa) {
      for (const auto& c : aa->channels) {
        if (!golden_targets.count(c.target)) {
          result.warnings.push_back("animation " + std::to_string(ga.index) + ": channel " +
                                    c.target + " is only in the actual samples (ignored)");
        }
      }
    }
  }
  for (const auto& a : actual.animations) {
    if (!golden_indices.count(a.index)) {
      result.warnings.push_back("animation " + std::to_string(a.index) +
                                " is only in the actual samples (ignored)");
    }
  }
  // An empty golden file checks nothing; calling that a pass would let a
  // case count as conformance evidence without a single value compared.
  if (golden_samples == 0 && result.outcome == CaseOutcome::kPassed) {
    result.outcome = CaseOutcome::kNothingCompared;
    result.problem = "the golden samples hold no sample: nothing compared";
  }
  if (result.outcome != CaseOutcome::kFailed) {
    if (!result.unsupported.empty()) {
      // Part of the case was not played: not a pass, and not the engine's failure.
      std::string features;
      for (const auto& f : result.unsupported) features += (features.empty() ? "" : ", ") + f;
      result.outcome = CaseOutcome::kNotRun;
      result.problem = "not run (unsupported: " + features + ")";
    }
  } else {
    result.unsupported.clear();
  }
  return result;
}

}  // namespace gltf_anim::compare
