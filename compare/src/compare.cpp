// Conformance comparison: error measures, matching golden and actual samples,
// the manifest, and folder handling for `gltf-anim compare`.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/validator/json_pointer.hpp>
#include <gltf_anim/version.hpp>

#include <gltf_anim/io/glob.hpp>
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/ordered_pool.hpp>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/validator/load.hpp>

#include <rapidjson/document.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <unordered_map>
#include <exception>

#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/utf8.hpp>
#include <gltf_anim/text/words.hpp>

namespace gltf_anim::compare {

using samples::Measure;
using samples::ReadOptions;
using samples::SampledAnimation;
using samples::SampledChannel;
using samples::SamplesFile;
using samples::SamplesFormatError;

namespace fs = std::filesystem;

// ---------------------------------------------------------------- measures

double angle_between(std::span<const double> a, std::span<const double> b) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (a.size() != 4 || b.size() != 4) return kInf;
  // Each quaternion scaled by a power of two (exact: the result is the same as
  // unscaled wherever that one is defined) so that its largest |component| lies
  // in [1, 2): tiny (1e-200) or huge (1e300) quaternions neither underflow to a
  // zero norm nor overflow to an infinite one.
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
  // |x - y| = 2 sin(theta/4), |x + y| = 2 cos(theta/4) for unit x, y whose
  // rotations differ by theta; s makes x.y >= 0 so theta is in [0, pi].
  return 4.0 * std::atan2(std::sqrt(diff), std::sqrt(sum));
}

double max_abs_difference(std::span<const double> a, std::span<const double> b) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (a.size() != b.size()) return kInf;
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(a[i] - b[i]);
    if (!std::isfinite(d)) return kInf;
    worst = std::max(worst, d);
  }
  return worst;
}

bool uses_angle(const SampledChannel& golden) {
  if (golden.measure == Measure::kAngle) return true;
  if (golden.measure == Measure::kAbsolute) return false;
  if (golden.width != 4) return false;
  const std::string_view target = golden.target;
  constexpr std::string_view kSuffix = "/rotation";
  if (target.size() >= kSuffix.size() && target.substr(target.size() - kSuffix.size()) == kSuffix) {
    return true;
  }
  return golden.interpolation == "SLERP" || golden.interpolation == "CUBICSLERP";
}

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
  r.tolerance = r.measure == ErrorMeasure::kAngle ? tol.angle : tol.absolute;
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
    if (!(e <= r.tolerance)) ++r.over_tolerance;
    worst.offer(g.times[go[k]], e, gv, av);
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
    if (r.over_tolerance) {
      p = std::to_string(r.over_tolerance) + " of " + std::to_string(r.compared) +
          " samples over the tolerance " + text::short_number(r.tolerance) +
          (r.measure == ErrorMeasure::kAngle ? " rad" : "") + " (max " +
          text::short_number(r.stats.max) + " at t=" + text::short_number(r.stats.worst_t) +
          ")";
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
  std::map<std::size_t, const SampledAnimation*> actual_animations;
  for (const auto& a : actual.animations) actual_animations.emplace(a.index, &a);
  std::set<std::size_t> golden_indices;
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
      if (!cr.passed) result.outcome = CaseOutcome::kFailed;
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
  return result;
}

// ---------------------------------------------------------------- manifest

namespace {

using JValue = rapidjson::Value;

using validator::escape_pointer_token;

struct ManifestReader {
  std::string file;

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw SamplesFormatError(file, pointer, message);
  }
  std::string string_of(const JValue& v, const std::string& ptr) const {
    if (!v.IsString()) fail(ptr, "must be a string");
    return std::string(v.GetString(), v.GetStringLength());
  }
  std::string samples_path_of(const JValue& v, const std::string& ptr) const {
    std::string path = string_of(v, ptr);
    // Inside the manifest's folder (symlinks out are refused on opening: read_confined).
    if (!io::is_relative_without_dotdot(path)) {
      fail(ptr, "must be a relative path inside the manifest's folder (not absolute, no \"..\")");
    }
    return path;
  }
  std::vector<std::string> strings_of(const JValue& v, const std::string& ptr) const {
    if (v.IsString()) return {string_of(v, ptr)};
    if (!v.IsArray()) fail(ptr, "must be an array of strings");
    std::vector<std::string> out;
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      out.push_back(string_of(v[i], ptr + "/" + std::to_string(i)));
    }
    return out;
  }
  double tolerance_of(const JValue& v, const std::string& ptr) const {
    if (!v.IsNumber() || !(v.GetDouble() >= 0) || !std::isfinite(v.GetDouble())) {
      fail(ptr, "must be a non-negative number");
    }
    return v.GetDouble();
  }
  std::string joined(const JValue& v, const std::string& ptr) const {
    std::string out;
    for (const auto& s : strings_of(v, ptr)) {
      if (!out.empty()) out += " ";
      out += s;
    }
    return out;
  }

  ManifestVariant variant(std::string name, const JValue& v, const std::string& ptr) const {
    ManifestVariant var;
    var.name = std::move(name);
    for (const char* k : {"description", "notes", "note"}) {
      if (v.HasMember(k)) {
        var.notes = joined(v[k], ptr + "/" + k);
        break;
      }
    }
    if (!v.HasMember("samples")) return var;
    const JValue& s = v["samples"];
    const std::string sp = ptr + "/samples";
    if (s.IsString()) {
      var.samples = samples_path_of(s, sp);
      return var;
    }
    if (!s.IsArray()) fail(sp, "must be a path or an array of samples");
    for (rapidjson::SizeType i = 0; i < s.Size(); ++i) {
      const std::string ip = sp + "/" + std::to_string(i);
      const JValue& x = s[i];
      if (!x.IsObject()) fail(ip, "must be an object");
      VariantSample vs;
      for (const char* k : {"animation", "channel", "t", "value"}) {
        if (!x.HasMember(k)) fail(ip, std::string("missing member \"") + k + "\"");
      }
      if (!x["animation"].IsUint()) fail(ip + "/animation", "must be a non-negative integer");
      if (!x["channel"].IsUint()) fail(ip + "/channel", "must be a non-negative integer");
      if (!x["t"].IsNumber()) fail(ip + "/t", "must be a number");
      vs.animation = x["animation"].GetUint();
      vs.channel = x["channel"].GetUint();
      vs.t = x["t"].GetDouble();
      const JValue& val = x["value"];
      if (!val.IsArray() || val.Empty()) fail(ip + "/value", "must be a non-empty array of numbers");
      for (rapidjson::SizeType k = 0; k < val.Size(); ++k) {
        if (!val[k].IsNumber()) fail(ip + "/value/" + std::to_string(k), "must be a number");
        vs.value.push_back(val[k].GetDouble());
      }
      var.excerpt.push_back(std::move(vs));
    }
    return var;
  }

  ManifestEntry entry(const JValue& v, const std::string& ptr) const {
    if (!v.IsObject()) fail(ptr, "must be an object");
    ManifestEntry e;
    for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
      const std::string key(m->name.GetString(), m->name.GetStringLength());
      const std::string p = ptr + "/" + escape_pointer_token(key);
      const JValue& x = m->value;
      if (key == "id") e.id = string_of(x, p);
      else if (key == "file") e.file = string_of(x, p);
      else if (key == "samples") {
        const auto list = strings_of(x, p);
        if (!list.empty()) e.samples = samples_path_of(x.IsArray() ? x[0] : x, x.IsArray() ? p + "/0" : p);
      } else if (key == "features") e.features = strings_of(x, p);
      else if (key == "clauses") e.clauses = strings_of(x, p);
      else if (key == "extensions") e.extensions = strings_of(x, p);
      else if (key == "tolerance") e.tolerance = tolerance_of(x, p);
      else if (key == "angleTolerance") e.angle_tolerance = tolerance_of(x, p);
      else if (key == "notes") e.notes = joined(x, p);
      else if (key == "variants" || key == "knownDivergences") {
        auto& list = key == "variants" ? e.variants : e.known_divergences;
        if (x.IsArray()) {
          for (rapidjson::SizeType i = 0; i < x.Size(); ++i) {
            const std::string vp = p + "/" + std::to_string(i);
            if (!x[i].IsObject()) fail(vp, "must be an object");
            std::string name = "variant " + std::to_string(i);
            if (x[i].HasMember("name")) name = string_of(x[i]["name"], vp + "/name");
            list.push_back(variant(std::move(name), x[i], vp));
          }
        } else if (x.IsObject()) {
          for (auto vm = x.MemberBegin(); vm != x.MemberEnd(); ++vm) {
            std::string name(vm->name.GetString(), vm->name.GetStringLength());
            const std::string vp = p + "/" + escape_pointer_token(name);
            if (!vm->value.IsObject()) fail(vp, "must be an object");
            list.push_back(variant(std::move(name), vm->value, vp));
          }
        } else {
          fail(p, "must be an object keyed by name or an array");
        }
      }
    }
    return e;
  }
};

// Forwards a reader's events to a document, converting every number from its
// text with std::from_chars (correctly rounded), as the loader and the samples
// reader do: RapidJSON 1.1.0's full-precision parser misreads some tokens
// ("0e200" became a huge number, so a tolerance of zero let anything pass).
class ExactNumbers {
 public:
  explicit ExactNumbers(rapidjson::Document& doc) : doc_(doc) {}
  bool Null() { return doc_.Null(); }
  bool Bool(bool b) { return doc_.Bool(b); }
  bool Int(int i) { return doc_.Int(i); }
  bool Uint(unsigned i) { return doc_.Uint(i); }
  bool Int64(std::int64_t i) { return doc_.Int64(i); }
  bool Uint64(std::uint64_t i) { return doc_.Uint64(i); }
  bool Double(double d) { return doc_.Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool /*copy*/) {
    const char* end = s + n;
    if (std::string_view(s, n).find_first_of(".eE") == std::string_view::npos) {
      std::int64_t i = 0;
      std::uint64_t u = 0;
      if (*s == '-') {
        if (const auto r = std::from_chars(s, end, i); r.ec == std::errc() && r.ptr == end) return doc_.Int64(i);
      } else if (const auto r = std::from_chars(s, end, u); r.ec == std::errc() && r.ptr == end) {
        return doc_.Uint64(u);
      }
    }
    double d = 0;
    const auto r = std::from_chars(s, end, d);
    if (r.ec != std::errc() || r.ptr != end) {
      bad_number_ = std::string(s, n);
      return false;
    }
    return doc_.Double(d);
  }
  // The raw text is UTF-8 (kParseValidateEncodingFlag), but RapidJSON 1.1.0
  // decodes a lone low surrogate escape ("\udc00") to bytes that are not:
  // refused, as the loader and the samples reader refuse it.
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return decodes_to_utf8(s, n) && doc_.String(s, n, copy);
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    return decodes_to_utf8(s, n) && doc_.Key(s, n, copy);
  }
  bool StartObject() { return doc_.StartObject(); }
  bool EndObject(rapidjson::SizeType n) { return doc_.EndObject(n); }
  bool StartArray() { return doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType n) { return doc_.EndArray(n); }
  const std::string& bad_number() const { return bad_number_; }
  bool bad_string() const { return bad_string_; }

 private:
  bool decodes_to_utf8(const char* s, rapidjson::SizeType n) {
    bad_string_ = !text::is_valid_utf8(std::string_view(s, n));
    return !bad_string_;
  }

  rapidjson::Document& doc_;
  std::string bad_number_;
  bool bad_string_ = false;
};

constexpr std::uint64_t kMaxManifestBytes = std::uint64_t{256} << 20;

// A path named by the manifest (an entry's or a variant's `samples`), relative
// to the manifest's folder and confined to it: no absolute path, no "..", no
// symlink out (io::read_file_confined through the folder's reader, as for
// external buffer URIs).
std::string read_confined(const fs::path& base, const std::string& relative, std::uint64_t limit) {
  std::string why;
  auto text = io::read_file_confined(io::FolderReader(base), fs::path(relative), limit, why);
  if (!text) throw SamplesFormatError((base / relative).string(), "", why);
  return std::move(*text);
}


SamplesFile read_manifest_samples(const Manifest& m, const std::string& relative, const ReadOptions& options) {
  const fs::path base = m.path.parent_path();
  const std::string text = read_confined(base, relative, options.max_file_bytes);
  const std::string name = (base / relative).string();
  const std::string ext = fs::path(relative).extension().string();
  const bool csv = ext.size() == 4 && (ext[1] | 0x20) == 'c' && (ext[2] | 0x20) == 's' && (ext[3] | 0x20) == 'v';
  return csv ? read_samples_csv(text, options, name) : read_samples_json(text, options, name);
}

}  // namespace

Manifest read_manifest(const fs::path& path) {
  ManifestReader r{path.string()};
  // Confined to its own folder too: a manifest.json that is a symlink to a file
  // elsewhere is refused.
  const std::string text = read_confined(path.parent_path(), path.filename().string(), kMaxManifestBytes);
  rapidjson::Document doc;
  rapidjson::MemoryStream stream(text.data(), text.size());
  rapidjson::Reader reader;
  ExactNumbers exact(doc);
  rapidjson::ParseResult parsed;
  auto generate = [&](rapidjson::Document&) {
    parsed = reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag |
                          rapidjson::kParseNumbersAsStringsFlag>(stream, exact);
    return !parsed.IsError();
  };
  doc.Populate(generate);
  if (parsed.IsError()) {
    const std::size_t offset = std::min<std::size_t>(parsed.Offset(), text.size());
    const std::size_t line = 1 + static_cast<std::size_t>(
                                     std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    const std::size_t last_nl = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t column = offset - (last_nl == std::string::npos || offset == 0 ? 0 : last_nl + 1) + 1;
    r.fail("line " + std::to_string(line) + ", column " + std::to_string(column),
           exact.bad_string() ? std::string("string is not valid UTF-8 (an unpaired UTF-16 surrogate escape)")
           : exact.bad_number().empty()
               ? std::string("invalid JSON: ") + rapidjson::GetParseError_En(parsed.Code())
               : "number " + exact.bad_number() + " is out of the range of a double");
  }
  Manifest m;
  m.path = path;
  const JValue* list = nullptr;
  std::string list_ptr;
  if (doc.IsArray()) {
    list = &doc;
  } else if (doc.IsObject()) {
    for (const char* k : {"assets", "cases", "entries"}) {
      if (doc.HasMember(k)) {
        list = &doc[k];
        list_ptr = std::string("/") + k;
        break;
      }
    }
    if (doc.HasMember("tolerance")) m.tolerance = r.tolerance_of(doc["tolerance"], "/tolerance");
    if (doc.HasMember("angleTolerance")) {
      m.angle_tolerance = r.tolerance_of(doc["angleTolerance"], "/angleTolerance");
    }
    if (!list) r.fail("", "missing member \"assets\" (the array of entries)");
  } else {
    r.fail("", "must be an array of entries or an object with \"assets\"");
  }
  if (!list->IsArray()) r.fail(list_ptr, "must be an array of entries");
  for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
    m.entries.push_back(r.entry((*list)[i], list_ptr + "/" + std::to_string(i)));
    m.lists_extensions = m.lists_extensions || (*list)[i].HasMember("extensions");
  }
  return m;
}

std::optional<fs::path> find_manifest(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  if (ec) return std::nullopt;
  // Only there: a walk up the folders would let any manifest.json above (a
  // stray /tmp/manifest.json) set the tolerances.
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  fs::path candidate = dir / "manifest.json";
  if (fs::exists(fs::symlink_status(candidate, ec))) return candidate;
  return std::nullopt;
}

// ---------------------------------------------------------------- paths

namespace {

struct Loaded {
  fs::path path;
  std::string shown;  // path as shown in reports (relative to the root given)
  SamplesFile file;
  const ManifestEntry* entry = nullptr;
  bool used = false;
  // An actual file the reader refused (malformed, unreadable, too large): the
  // engine's output is at fault, so its case fails with this message; `file`
  // stays empty (no asset: matched by file name only).
  std::optional<SamplesFormatError> error;
};

std::string file_key(const fs::path& p) {
  std::string name = p.filename().string();
  for (std::string_view ext : {".csv", ".json", ".CSV", ".JSON"}) {
    if (name.size() > ext.size() && name.ends_with(ext)) {
      name.resize(name.size() - ext.size());
      break;
    }
  }
  if (name.size() > 8 && name.ends_with(".samples")) name.resize(name.size() - 8);
  return name;
}

std::string asset_name(std::string_view asset) {
  const auto slash = asset.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? asset : asset.substr(slash + 1));
}

std::vector<fs::path> scan_folder(const fs::path& dir) {
  std::vector<fs::path> all, samples;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string name = it->path().filename().string();
    if (name == "manifest.json") continue;
    if (name.ends_with(".json") || name.ends_with(".csv")) all.push_back(it->path());
    if (name.ends_with(".samples.json") || name.ends_with(".samples.csv")) {
      samples.push_back(it->path());
    }
  }
  if (ec) throw SamplesFormatError(dir.string(), "", "cannot list the folder: " + ec.message());
  std::vector<fs::path>& chosen = samples.empty() ? all : samples;
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

std::string shown_path(const fs::path& p, const fs::path& root, bool root_is_dir) {
  if (!root_is_dir) return root.string();
  std::error_code ec;
  const fs::path rel = fs::relative(p, root, ec);
  return (ec || rel.empty()) ? p.string() : rel.generic_string();
}

// The identity of an existing file (device, inode), as fs::equivalent compares.
std::optional<std::pair<std::uint64_t, std::uint64_t>> file_identity(const fs::path& p) {
  const auto id = io::file_identity(p);
  if (!id) return std::nullopt;
  return std::pair{id->device, id->inode};
}

// The manifest's entries by each way a golden file can name one, built once:
// looking each golden file up by scanning every entry (a stat per entry) took
// 17 s for 3,000 files. Each map keeps the first entry, as the scans did.
struct ManifestIndex {
  explicit ManifestIndex(const Manifest& m) {
    const fs::path base = m.path.parent_path();
    for (const auto& e : m.entries) {
      if (!e.samples.empty()) {
        if (const auto id = file_identity(base / e.samples)) by_file.emplace(*id, &e);
      }
      by_id_or_file.emplace(e.id, &e);
      by_id_or_file.emplace(e.file, &e);
      if (!e.file.empty()) by_asset_name.emplace(asset_name(e.file), &e);
      by_id.emplace(e.id, &e);
    }
  }
  std::map<std::pair<std::uint64_t, std::uint64_t>, const ManifestEntry*> by_file;
  std::unordered_map<std::string, const ManifestEntry*> by_id_or_file, by_asset_name, by_id;
};

const ManifestEntry* entry_for(const ManifestIndex& m, const fs::path& golden_path,
                               const SamplesFile& golden) {
  const auto find = [](const auto& map, const auto& key) -> const ManifestEntry* {
    const auto it = map.find(key);
    return it == map.end() ? nullptr : it->second;
  };
  if (const auto id = file_identity(golden_path)) {
    if (const ManifestEntry* e = find(m.by_file, *id)) return e;
  }
  if (!golden.asset.empty()) {
    // An entry whose id or file is the asset: the first such entry (the map
    // keeps the first of each key, and an entry is inserted under both).
    const ManifestEntry* by_id = find(m.by_id_or_file, golden.asset);
    if (by_id != nullptr) return by_id;
    if (const ManifestEntry* e = find(m.by_asset_name, asset_name(golden.asset))) return e;
  }
  return find(m.by_id, file_key(golden_path));
}

// Reads every file, on as many threads as there are cores. A golden file's
// error is rethrown (the suite's data is broken), the first in golden order so
// the message does not depend on thread timing; an actual file's format error
// is kept in its Loaded::error (a failure of that case alone).
void load_all(std::vector<Loaded>& goldens, std::vector<Loaded>& actuals, const ReadOptions& read) {
  std::vector<Loaded*> all;
  for (auto& g : goldens) all.push_back(&g);
  for (auto& a : actuals) all.push_back(&a);
  std::vector<std::exception_ptr> errors(all.size());
  // Each file is read into its own Loaded; nothing is left to do in order.
  io::OrderedPool pool(
      static_cast<unsigned>(std::min<std::size_t>(all.size(), io::hardware_threads())),
      /*window_per_thread=*/2);
  pool.run(
      all.size(),
      [&](std::size_t i, std::size_t) {
        try {
          all[i]->file = read_samples_file(all[i]->path, read);
        } catch (...) { errors[i] = std::current_exception(); }
      },
      [](std::size_t, std::size_t) {});
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!errors[i]) continue;
    if (i < goldens.size()) std::rethrow_exception(errors[i]);
    try {
      std::rethrow_exception(errors[i]);
    } catch (const SamplesFormatError& e) {
      all[i]->error = e;
    }
  }
}

// The actual files by asset, asset file name and file key, each list in file
// order, built once: scanning every actual file for every golden one was
// quadratic in the number of files. A list is consumed from the front as its
// files get used, so each file is skipped at most once per list.
struct ActualIndex {
  explicit ActualIndex(std::vector<Loaded>& actuals) {
    for (auto& a : actuals) {
      if (!a.file.asset.empty()) {
        by_asset[a.file.asset].push_back(&a);
        by_asset_name[asset_name(a.file.asset)].push_back(&a);
      }
      by_key[file_key(a.path)].push_back(&a);
    }
  }
  using Lists = std::unordered_map<std::string, std::deque<Loaded*>>;
  Lists by_asset, by_asset_name, by_key;
};

// The actual file for a golden one: exact asset, then asset file name, then
// file key; the first in file order that is not used yet.
Loaded* find_actual(const Loaded& g, ActualIndex& index) {
  const auto pick = [](ActualIndex::Lists& lists, const std::string& key) -> Loaded* {
    const auto it = lists.find(key);
    if (it == lists.end()) return nullptr;
    std::deque<Loaded*>& list = it->second;
    while (!list.empty() && list.front()->used) list.pop_front();
    return list.empty() ? nullptr : list.front();
  };
  const std::string& asset = g.file.asset;
  Loaded* found = nullptr;
  if (!asset.empty()) {
    found = pick(index.by_asset, asset);
    if (!found) found = pick(index.by_asset_name, asset_name(asset));
  }
  if (!found) found = pick(index.by_key, file_key(g.path));
  return found;
}

// The golden samples with a variant's values substituted; false when an
// excerpt sample names no golden sample (the variant is then not used).
bool apply_excerpt(SamplesFile& file, const std::vector<VariantSample>& excerpt) {
  // Looked up once per excerpt sample, so indexed first (a scan of every channel
  // and every sample per excerpt sample was quadratic): channels by (animation,
  // channel), the last listed winning as the scan did; each channel's samples
  // by time, made on first use, NaN times left out (they match nothing).
  std::map<std::pair<std::size_t, std::size_t>, SampledChannel*> channels;
  for (auto& a : file.animations) {
    for (auto& c : a.channels) channels[{a.index, c.index}] = &c;
  }
  std::map<const SampledChannel*, std::vector<std::size_t>> by_time;
  for (const VariantSample& s : excerpt) {
    const auto found = channels.find({s.animation, s.channel});
    if (found == channels.end()) return false;
    SampledChannel* channel = found->second;
    if (s.value.size() != channel->width) return false;
    const double eps = kDefaultTimeEpsilon * std::max(1.0, std::fabs(s.t));
    if (!(eps >= 0.0)) return false;  // a NaN time matches nothing
    auto [order, made] = by_time.try_emplace(channel);
    if (made) {
      for (std::size_t i = 0; i < channel->size(); ++i) {
        if (!std::isnan(channel->times[i])) order->second.push_back(i);
      }
      std::stable_sort(order->second.begin(), order->second.end(),
                       [channel](std::size_t x, std::size_t y) { return channel->times[x] < channel->times[y]; });
    }
    // The nearest sample within eps, the latest in file order on a tie. The
    // range searched is twice as wide so that rounding in s.t -/+ 2 eps never
    // hides a candidate; the test itself is the exact one.
    const std::vector<std::size_t>& idx = order->second;
    auto k = std::lower_bound(idx.begin(), idx.end(), s.t - 2 * eps,
                              [channel](std::size_t i, double t) { return channel->times[i] < t; });
    std::size_t best = channel->size();
    double best_d = eps;
    for (; k != idx.end() && channel->times[*k] <= s.t + 2 * eps; ++k) {
      const double d = std::fabs(channel->times[*k] - s.t);
      if (d < best_d || (d == best_d && (best == channel->size() || *k > best))) {
        best = *k;
        best_d = d;
      }
    }
    if (best == channel->size()) return false;
    std::copy(s.value.begin(), s.value.end(), channel->values.begin() + static_cast<std::ptrdiff_t>(best * channel->width));
  }
  return true;
}

// ---------------------------------------------------------------- diagnosis

// The channels of a samples file by (animation index, target), both unique.
using ChannelKey = std::pair<std::size_t, std::string_view>;
std::map<ChannelKey, const SampledChannel*> channels_by_target(const SamplesFile& f) {
  std::map<ChannelKey, const SampledChannel*> out;
  for (const auto& a : f.animations) {
    for (const auto& c : a.channels) out.emplace(ChannelKey{a.index, c.target}, &c);
  }
  return out;
}

// Whether a failing channel's actual values match an alternative at its times
// (the golden times where the alternative's value differs from the golden one
// by more than the tolerance): nullopt when it has none on this channel, or
// the actual value is missing or off the alternative's at one of them. The
// samples failing at other times are counted: the engine may reproduce the
// alternative and have an unrelated error besides.
std::optional<AlternativeMatch> fit_alternative(const ChannelResult& r, const SampledChannel& g,
                                                const SampledChannel& alt, const SampledChannel& a,
                                                double eps) {
  if (alt.width != g.width || a.width != g.width) return std::nullopt;
  const auto go = order_by_time(g);
  const auto at_alt = match_times(g, go, alt, eps);
  const auto at_actual = match_times(g, go, a, eps);
  const auto within = [&](std::span<const double> x, std::span<const double> y) {
    return sample_error(r.measure, x, y) <= r.tolerance;
  };
  AlternativeMatch m;
  for (std::size_t k = 0; k < go.size(); ++k) {
    const double t = g.times[go[k]];
    const auto gv = g.value(go[k]);
    const bool has_actual = at_actual[k] >= 0;
    const auto xv =
        has_actual ? a.value(static_cast<std::size_t>(at_actual[k])) : std::span<const double>();
    if (at_alt[k] >= 0) {
      const auto vv = alt.value(static_cast<std::size_t>(at_alt[k]));
      if (!within(gv, vv)) {
        if (!has_actual || !within(vv, xv)) return std::nullopt;
        if (m.times++ < kMaxListedTimes) m.first_times.push_back(t);
        continue;
      }
    }
    if (!has_actual || !within(gv, xv)) {
      if (m.other_failing++ < kMaxListedTimes) m.first_other_times.push_back(t);
    }
  }
  if (m.times == 0) return std::nullopt;
  return m;
}

// A divergence's description quotes the spec sentence it breaks after "breaks ".
std::string breaks_of(const std::string& description) {
  const auto at = description.find("breaks ");
  return at == std::string::npos ? std::string() : description.substr(at);
}

// Adds `v` to every failing channel of `c` whose actual values match it.
void explain_channels(CaseResult& c, const ManifestVariant& v, bool allowed,
                      const SamplesFile& alternative, const SamplesFile& golden,
                      const SamplesFile& actual, double eps) {
  const auto golden_channels = channels_by_target(golden);
  const auto alt_channels = channels_by_target(alternative);
  const auto actual_channels = channels_by_target(actual);
  for (auto& ch : c.channels) {
    if (ch.passed || ch.missing) continue;
    const ChannelKey key{ch.animation, ch.target};
    const auto g = golden_channels.find(key);
    const auto alt = alt_channels.find(key);
    const auto x = actual_channels.find(key);
    if (g == golden_channels.end() || alt == alt_channels.end() || x == actual_channels.end())
      continue;
    auto m = fit_alternative(ch, *g->second, *alt->second, *x->second, eps);
    if (!m) continue;
    m->name = v.name;
    m->allowed = allowed;
    m->description = v.notes;
    if (!allowed) m->breaks = breaks_of(v.notes);
    ch.alternatives.push_back(std::move(*m));
  }
}

// Whether `id` is selected by --cases (every case when there is no pattern);
// marks the patterns that select it.
bool selected(const std::string& id, const std::vector<std::string>& patterns,
              std::vector<bool>& used) {
  if (patterns.empty()) return true;
  bool any = false;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (io::glob_matches(patterns[i], id)) {
      used[i] = true;
      any = true;
    }
  }
  return any;
}

// The extensions of a manifest entry outside the engine's set, comma-separated.
std::string unsupported_extensions(const ManifestEntry& e,
                                   const std::vector<std::string>& supported) {
  std::string out;
  for (const auto& x : e.extensions) {
    if (std::find(supported.begin(), supported.end(), x) != supported.end()) continue;
    if (!out.empty()) out += ", ";
    out += x;
  }
  return out;
}

// ---------------------------------------------------------------- compare_paths

// The manifest: --manifest, else the golden folder's (or the golden file's
// folder's); none when there is neither.
std::optional<Manifest> load_manifest(const fs::path& golden, const CompareOptions& options) {
  std::optional<fs::path> path = options.manifest;
  if (!path) path = find_manifest(golden);
  if (!path) return std::nullopt;
  if (options.read.inputs) options.read.inputs->record(*path);
  return read_manifest(*path);
}

// The golden files: the one given, or in a golden folder the manifest entries'
// samples inside it (else the folder's samples files), sorted, each once.
std::vector<fs::path> golden_files(const fs::path& golden, bool golden_dir,
                                   const std::optional<Manifest>& manifest) {
  if (!golden_dir) return {golden};
  std::vector<fs::path> paths;
  if (manifest) {
    std::error_code ec;
    const fs::path base = manifest->path.parent_path();
    const fs::path root = fs::weakly_canonical(golden, ec);
    for (const auto& e : manifest->entries) {
      if (e.samples.empty()) continue;
      const fs::path p = fs::weakly_canonical(base / e.samples, ec);
      const auto rel = p.lexically_relative(root);
      if (rel.empty() || *rel.begin() == "..") continue;  // outside the golden folder
      paths.push_back(base / e.samples);
    }
  }
  if (paths.empty()) paths = scan_folder(golden);
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

// Files to load, each with the path shown in reports (relative to `root`).
std::vector<Loaded> to_load(const std::vector<fs::path>& paths, const fs::path& root,
                            bool root_is_dir) {
  std::vector<Loaded> out;
  out.reserve(paths.size());
  for (const auto& p : paths) {
    Loaded l;
    l.path = p;
    l.shown = shown_path(p, root, root_is_dir);
    out.push_back(std::move(l));
  }
  return out;
}

using Pairs = std::vector<std::pair<Loaded*, Loaded*>>;

// A golden folder and a single actual file: the one case that file is of. An
// actual file that matches none is an error (its own read error when it was
// refused: that says more than "matches nothing").
Pairs pair_single_actual(std::vector<Loaded>& goldens, Loaded& actual, ActualIndex& index,
                         const fs::path& golden_root) {
  for (auto& g : goldens) {
    if (find_actual(g, index)) {
      actual.used = true;
      return {{&g, &actual}};
    }
  }
  if (actual.error) throw *actual.error;
  throw SamplesFormatError(actual.path.string(), "",
                           "matches no golden samples file in " + golden_root.string() +
                               " (by \"asset\" \"" + actual.file.asset + "\" or by file name)");
}

// Golden files paired with their actual files (nullptr: none, the case is not
// run); warns about actual files that pair with no golden one.
Pairs pair_files(std::vector<Loaded>& goldens, std::vector<Loaded>& actuals, bool golden_dir,
                 bool actual_dir, const fs::path& golden_root, CompareReport& report) {
  ActualIndex index(actuals);
  Pairs pairs;
  if (!golden_dir && !actual_dir) {
    pairs.emplace_back(&goldens[0], &actuals[0]);
    actuals[0].used = true;
    const std::string& ga = goldens[0].file.asset;
    const std::string& aa = actuals[0].file.asset;
    if (!ga.empty() && !aa.empty() && asset_name(ga) != asset_name(aa)) {
      report.warnings.push_back("the actual samples are of asset \"" + aa +
                                "\", the golden ones of \"" + ga + "\"");
    }
  } else if (golden_dir && !actual_dir) {
    pairs = pair_single_actual(goldens, actuals[0], index, golden_root);
  } else {
    for (auto& g : goldens) {
      Loaded* a = find_actual(g, index);
      if (a) a->used = true;
      pairs.emplace_back(&g, a);
    }
  }
  for (const auto& a : actuals) {
    if (a.used) continue;
    std::string w = "actual file " + a.shown + " matches no golden file";
    if (a.error) w += " by its name and cannot be read: " + describe(*a.error);
    report.warnings.push_back(w + " (ignored)");
  }
  return pairs;
}

// --extensions with no manifest saying what each case needs excludes nothing:
// say so rather than let the report pass for a core-only view it is not.
void warn_if_nothing_excludable(const CompareOptions& options,
                                const std::optional<Manifest>& manifest, CompareReport& report) {
  if (!options.extensions || (manifest && manifest->lists_extensions)) return;
  report.warnings.push_back(std::string("--extensions excludes nothing: ") +
                            (manifest
                                 ? "the manifest does not say which extensions each case needs "
                                   "(no \"extensions\" member)"
                                 : "no manifest says which extensions each case needs"));
}

// A case's tolerances: built-in, then the manifest's root, the entry's, the
// command line's, each overriding the one before.
Tolerances case_tolerances(const std::optional<Manifest>& manifest, const ManifestEntry* entry,
                           const CompareOptions& options) {
  Tolerances tol;
  if (manifest && manifest->tolerance) tol.absolute = *manifest->tolerance;
  if (manifest && manifest->angle_tolerance) tol.angle = *manifest->angle_tolerance;
  if (entry && entry->tolerance) tol.absolute = *entry->tolerance;
  if (entry && entry->angle_tolerance) tol.angle = *entry->angle_tolerance;
  if (options.tolerance) tol.absolute = *options.tolerance;
  if (options.angle_tolerance) tol.angle = *options.angle_tolerance;
  return tol;
}

// The golden samples as an alternative (variant or known divergence) would
// have them: its own samples file, or the golden ones with its excerpt
// substituted; nullopt when it has neither or its excerpt names no sample.
std::optional<SamplesFile> alternative_samples(const ManifestVariant& v, const Manifest& manifest,
                                               const SamplesFile& golden,
                                               const ReadOptions& read) {
  if (!v.samples.empty()) return read_manifest_samples(manifest, v.samples, read);
  if (v.excerpt.empty()) return std::nullopt;
  SamplesFile alt = golden;
  if (!apply_excerpt(alt, v.excerpt)) return std::nullopt;
  return alt;
}

// The allowed variant each failing channel of `c` matches alone (at all of
// the variant's times, no other sample of the channel failing), and the
// variants in the order met; nullopt when a failing channel has none.
struct VariantPerChannel {
  std::map<ChannelKey, std::string_view> variant_of;
  std::vector<std::string_view> names;
};
std::optional<VariantPerChannel> variant_per_failing_channel(const CaseResult& c) {
  VariantPerChannel plan;
  for (const auto& ch : c.channels) {
    if (ch.passed) continue;
    const auto m = std::find_if(ch.alternatives.begin(), ch.alternatives.end(),
                                [](const AlternativeMatch& x) { return x.allowed && x.other_failing == 0; });
    if (m == ch.alternatives.end()) return std::nullopt;
    plan.variant_of.emplace(ChannelKey{ch.animation, ch.target}, m->name);
    if (std::find(plan.names.begin(), plan.names.end(), m->name) == plan.names.end()) {
      plan.names.push_back(m->name);
    }
  }
  if (plan.names.empty()) return std::nullopt;
  return plan;
}

// The golden samples with each planned channel taken from its variant (the
// first of that name); nullopt when a variant or its channel is not there.
std::optional<SamplesFile> with_variant_channels(const VariantPerChannel& plan, const Loaded& g,
                                                 const Manifest& manifest,
                                                 const ReadOptions& read) {
  SamplesFile combined = g.file;
  const auto& variants = g.entry->variants;
  for (const std::string_view name : plan.names) {
    const auto v = std::find_if(variants.begin(), variants.end(),
                                [name](const ManifestVariant& x) { return x.name == name; });
    if (v == variants.end()) return std::nullopt;
    const auto vg = alternative_samples(*v, manifest, g.file, read);
    if (!vg) return std::nullopt;
    const auto from = channels_by_target(*vg);
    for (auto& an : combined.animations) {
      for (auto& ch : an.channels) {
        const ChannelKey key{an.index, ch.target};
        const auto which = plan.variant_of.find(key);
        if (which == plan.variant_of.end() || which->second != name) continue;
        const auto source = from.find(key);
        if (source == from.end()) return std::nullopt;
        ch = *source->second;
      }
    }
  }
  return combined;
}

// "\"A\" on animation 0 /nodes/0/rotation; \"B\" on animation 0 /nodes/1/translation"
std::string channels_of_variants(const VariantPerChannel& plan) {
  std::string out;
  for (const std::string_view name : plan.names) {
    out += std::string(out.empty() ? "" : "; ") + "\"" + std::string(name) + "\" on";
    const char* sep = " ";
    for (const auto& [key, variant] : plan.variant_of) {
      if (variant != name) continue;
      out += sep + ("animation " + std::to_string(key.first) + " " + std::string(key.second));
      sep = ", ";
    }
  }
  return out;
}

// Readings the specs allow, each on its own channels (nlerp on a rotation,
// float32 time on a translation): the case passes when every failing channel
// matches an allowed variant alone and the golden samples with each such
// channel taken from its variant pass as a whole (the check that makes the
// verdict, whichever variant a repeated name picks). A known divergence never
// makes a channel pass, and a case whose values match one as a whole stays failed.
std::optional<CaseResult> pass_as_variants_per_channel(const CaseResult& c, const Loaded& g,
                                                       const Loaded& a, const Manifest& manifest,
                                                       const Tolerances& tol,
                                                       const CompareOptions& options) {
  const auto plan = variant_per_failing_channel(c);
  if (!plan) return std::nullopt;
  const auto combined = with_variant_channels(*plan, g, manifest, options.read);
  if (!combined) return std::nullopt;
  CaseResult alt =
      compare_samples(*combined, a.file, tol, options.time_epsilon, options.worst_samples);
  if (!alt.passed()) return std::nullopt;
  std::string joined;
  for (const std::string_view name : plan->names) {
    joined += (joined.empty() ? "" : " + ") + std::string(name);
  }
  alt.warnings.insert(alt.warnings.begin(),
                      "fails against the main golden samples but matches variants channel by "
                      "channel: " + channels_of_variants(*plan));
  alt.matched_variant = joined;
  alt.actual_file = a.shown;
  return alt;
}

// A failing case against its manifest alternatives. Variants first: one that
// the actual samples match makes the case pass. Else every alternative is
// tried on each failing channel, so the report can say "your values match
// divergence X at its times" even when other samples fail too; and when each
// failing channel matches a variant, the case passes as those variants.
void judge_alternatives(CaseResult& c, const Loaded& g, const Loaded& a, const Manifest& manifest,
                        const Tolerances& tol, const CompareOptions& options) {
  for (const bool allowed : {true, false}) {
    for (const auto& v : allowed ? g.entry->variants : g.entry->known_divergences) {
      const auto vg = alternative_samples(v, manifest, g.file, options.read);
      if (!vg) continue;
      CaseResult alt =
          compare_samples(*vg, a.file, tol, options.time_epsilon, options.worst_samples);
      if (allowed && alt.passed()) {
        std::string note =
            "fails against the main golden samples but matches variant \"" + v.name + "\"";
        if (!v.notes.empty()) note += ": " + v.notes;
        alt.warnings.insert(alt.warnings.begin(), note);
        alt.matched_variant = v.name;
        alt.actual_file = a.shown;
        c = std::move(alt);
        return;
      }
      if (!allowed && alt.passed() && c.matched_divergence.empty()) {
        std::string note = "matches known divergence \"" + v.name + "\"";
        if (!v.notes.empty()) note += ": " + v.notes;
        c.warnings.insert(c.warnings.begin(), note);
        c.matched_divergence = v.name;
      }
      explain_channels(c, v, allowed, *vg, g.file, a.file, options.time_epsilon);
    }
  }
  if (c.matched_divergence.empty()) {
    if (auto per_channel = pass_as_variants_per_channel(c, g, a, manifest, tol, options)) {
      c = std::move(*per_channel);
    }
  }
}

// One selected case: excluded, not run, refused (its actual file could not be
// read) or compared; then what the manifest says about it.
CaseResult judge_case(std::string id, const Loaded& g, const Loaded* a,
                      const std::optional<Manifest>& manifest, const CompareOptions& options) {
  const Tolerances tol = case_tolerances(manifest, g.entry, options);
  const std::string unsupported =
      g.entry && options.extensions ? unsupported_extensions(*g.entry, *options.extensions) : "";
  CaseResult c;
  if (!unsupported.empty()) {
    // Not compared even when an actual file exists: the engine does not
    // implement what the case is about.
    c.tolerances = tol;
    c.outcome = CaseOutcome::kExcluded;
    c.problem = "needs " + unsupported + " (not in --extensions)";
    if (a) c.actual_file = a->shown;
  } else if (!a) {
    c.tolerances = tol;
    c.outcome = CaseOutcome::kNotRun;
    c.problem = "no actual samples file for this case";
  } else if (a->error) {
    // The engine produced this case's file but not a samples file we can
    // read: its failure, not the run's.
    c.tolerances = tol;
    c.outcome = CaseOutcome::kFailed;
    c.problem = "the actual samples file is refused: " + describe(*a->error);
    c.actual_file = a->shown;
  } else {
    c = compare_samples(g.file, a->file, tol, options.time_epsilon, options.worst_samples);
    c.actual_file = a->shown;
    if (c.failed() && g.entry && manifest) {
      judge_alternatives(c, g, *a, *manifest, tol, options);
    }
  }
  c.id = std::move(id);
  c.asset = g.file.asset;
  c.golden_file = g.shown;
  if (g.entry) {
    c.features = g.entry->features;
    c.clauses = g.entry->clauses;
    c.notes = g.entry->notes;
  }
  return c;
}

// A case's id: its manifest id, else the golden asset, else the file name.
std::string case_id(const Loaded& g) {
  if (g.entry && !g.entry->id.empty()) return g.entry->id;
  if (!g.file.asset.empty()) return g.file.asset;
  return file_key(g.path);
}

}  // namespace

std::string describe(const SamplesFormatError& e) {
  std::string out = e.file().empty() ? std::string() : e.file() + ": ";
  if (!e.location().empty()) {
    if (e.location().front() == '/') out += "at JSON pointer \"" + e.location() + "\": ";
    else out += e.location() + ": ";
  }
  return out + e.message();
}

CompareReport compare_paths(const fs::path& golden, const fs::path& actual,
                            const CompareOptions& options) {
  std::error_code ec;
  for (const fs::path& p : {golden, actual}) {
    if (!fs::exists(p, ec)) {
      throw SamplesFormatError(p.string(), "", ec ? ec.message() : text::errno_text(ENOENT));
    }
  }
  const bool golden_dir = fs::is_directory(golden, ec);
  const bool actual_dir = fs::is_directory(actual, ec);

  CompareReport report;
  report.golden = golden.string();
  report.actual = actual.string();
  report.generator = kGenerator;
  report.selection = options.cases;
  report.extensions = options.extensions;

  const std::optional<Manifest> manifest = load_manifest(golden, options);
  std::vector<Loaded> goldens = to_load(golden_files(golden, golden_dir, manifest), golden, golden_dir);
  std::vector<Loaded> actuals =
      to_load(actual_dir ? scan_folder(actual) : std::vector<fs::path>{actual}, actual, actual_dir);
  load_all(goldens, actuals, options.read);
  if (manifest) {
    const ManifestIndex index(*manifest);
    for (auto& g : goldens) g.entry = entry_for(index, g.path, g.file);
  }
  const Pairs pairs = pair_files(goldens, actuals, golden_dir, actual_dir, golden, report);
  warn_if_nothing_excludable(options, manifest, report);

  std::vector<bool> pattern_used(options.cases.size(), false);
  for (const auto& [g, a] : pairs) {
    std::string id = case_id(*g);
    if (!selected(id, options.cases, pattern_used)) continue;
    report.cases.push_back(judge_case(std::move(id), *g, a, manifest, options));
  }
  for (std::size_t i = 0; i < options.cases.size(); ++i) {
    if (!pattern_used[i]) report.unmatched_selection.push_back(options.cases[i]);
  }
  std::stable_sort(report.cases.begin(), report.cases.end(),
                   [](const CaseResult& x, const CaseResult& y) { return x.id < y.id; });
  return report;
}

}  // namespace gltf_anim::compare
