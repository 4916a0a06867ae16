// A failing case against the readings its manifest entry lists: allowed
// variants (which make it pass, as a whole or channel by channel) and known
// divergences (which explain it), from their own samples files or excerpts.
#include "alternatives.hpp"

#include "channel.hpp"
#include "manifest.hpp"

#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/compare/readings.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/sampler/sample.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace gltf_anim::compare::detail {

using samples::ReadOptions;
using samples::SampledChannel;
using samples::SamplesFile;

namespace {

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
    return sample_within(r, x, y);
  };
  AlternativeMatch m;
  // Where the times it differs at lie against the keyframes (a samples file may list
  // them in any order), one bit per place.
  std::vector<double> keys = g.keyframes;
  std::sort(keys.begin(), keys.end());
  unsigned places = 0;
  enum : unsigned { kBefore = 1, kAt = 2, kBetween = 4, kAfter = 8 };
  const auto place = [&](double t) -> unsigned {
    if (keys.empty()) return 0;
    if (t < keys.front()) return kBefore;
    if (t > keys.back()) return kAfter;
    const auto at = std::lower_bound(keys.begin(), keys.end(), t);
    return at != keys.end() && std::fabs(*at - t) <= eps * std::max(1.0, std::fabs(t)) ? kAt
                                                                                       : kBetween;
  };
  for (std::size_t k = 0; k < go.size(); ++k) {
    const double t = g.times[go[k]];
    const auto gv = g.value(go[k]);
    const bool has_actual = at_actual[k] >= 0;
    const auto xv =
        has_actual ? a.value(static_cast<std::size_t>(at_actual[k])) : std::span<const double>();
    if (at_alt[k] >= 0) {
      const auto vv = alt.value(static_cast<std::size_t>(at_alt[k]));
      if (!within(gv, vv)) {
        if (!has_actual || !within(vv, xv)) {
          if (m.differs++ < kMaxListedTimes) m.first_differs.push_back(t);
          places |= place(t);
          continue;
        }
        if (m.times++ < kMaxListedTimes) m.first_times.push_back(t);
        continue;
      }
    }
    if (!has_actual || !within(gv, xv)) {
      if (m.other_failing++ < kMaxListedTimes) m.first_other_times.push_back(t);
    }
  }
  if (m.times == 0) return std::nullopt;
  m.partial = m.differs > 0;
  for (const auto& [bit, words] :
       {std::pair{kBefore, "before the first key"}, std::pair{kAt, "at keys"},
        std::pair{kBetween, "between keys"}, std::pair{kAfter, "after the last key"}}) {
    if (places & bit)
      m.differs_where += (m.differs_where.empty() ? "" : " and ") + std::string(words);
  }
  return m;
}

// Per channel: the full matches, or when there is none the partial one matching at the
// most times (the first on a tie): one answer, not every alternative that shares a sample.
void keep_best_partial(std::vector<AlternativeMatch>& matches) {
  const bool any_full = std::any_of(matches.begin(), matches.end(),
                                    [](const AlternativeMatch& m) { return !m.partial; });
  std::size_t best = matches.size();
  for (std::size_t i = 0; i < matches.size(); ++i) {
    if (matches[i].partial && !any_full &&
        (best == matches.size() || matches[i].times > matches[best].times)) {
      best = i;
    }
  }
  std::vector<AlternativeMatch> kept;
  for (std::size_t i = 0; i < matches.size(); ++i) {
    if (!matches[i].partial || i == best) kept.push_back(std::move(matches[i]));
  }
  matches = std::move(kept);
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

// The named readings compare computes from the case's keys (readings.hpp), on
// each failing channel that no manifest alternative explains: a reading is
// named only when it explains every failing sample of the channel (the actual
// values are the reading's wherever it differs from the golden ones, and no
// other sample fails). The keys come from the manifest entry's asset (a reading of
// the core fallback from its core-only view); a case without one, or whose asset
// the sampler refuses, gets no reading. Naming a reading, even an allowed one,
// changes no verdict: the case's samples are the manifest's to judge.
// The files of an asset's folder through the reader of the manifest's folder: an asset
// "valid/a.gltf" naming "a.bin" reads "valid/a.bin". Confined to the asset's folder, as the
// loader's FolderReader over it is: a name leaving it is refused (kOutsideRoot).
class AssetFolderReader final : public io::ResourceReader {
 public:
  AssetFolderReader(const io::ResourceReader& manifest_folder, std::filesystem::path folder)
      : reader_(manifest_folder), folder_(std::move(folder)) {}
  io::ReadResult read(const std::filesystem::path& relative, std::uint64_t max_bytes) const override {
    const std::filesystem::path joined = (folder_ / relative).lexically_normal();
    const auto [f, j] = std::mismatch(folder_.begin(), folder_.end(), joined.begin(), joined.end());
    if (!io::is_relative_without_dotdot(relative.lexically_normal()) || f != folder_.end() ||
        j == joined.end()) {
      io::ReadResult refused;
      refused.failure = io::ReadResult::Failure::kOutsideRoot;
      refused.detail = where();
      return refused;
    }
    return reader_.read(joined, max_bytes);
  }
  std::string where() const override {
    return folder_.empty() ? reader_.where() : reader_.where() + "/" + folder_.generic_string();
  }

 private:
  const io::ResourceReader& reader_;
  std::filesystem::path folder_;
};

// The decoded channels of the manifest entry's asset, read through the reader of the
// manifest's folder (the asset and its buffers) and decoded as `sample` decodes them. Throws
// (a SampleError, a refusal) when it cannot be read or sampled.
std::vector<sampler::DecodedChannel> decode_asset(const ManifestFiles& files,
                                                  const std::string& file,
                                                  const sampler::SampleRequest& request) {
  std::string why;
  const std::optional<std::string> bytes =
      io::read_file_confined(files.reader, file, request.max_file_bytes, why);
  const std::string described = (files.manifest.path.parent_path() / file).string();
  if (!bytes) throw samples::SamplesFormatError(described, "", why);
  const std::filesystem::path folder = std::filesystem::path(file).lexically_normal().parent_path();
  const AssetFolderReader resources(files.reader, folder);
  gltf::LoadOptions options;
  options.resources = &resources;
  options.max_file_bytes = request.max_file_bytes;
  options.borrow_bytes = true;  // `bytes` outlives the asset: it is not held twice
  gltf::IssueCollector issues;
  const gltf::LoadedAsset asset = gltf::load_bytes(
      std::span(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size()), described,
      {}, options, issues);
  return sampler::decoded_channels(asset, described, request);
}

void explain_named_readings(CaseResult& c, const Loaded& g, const Loaded& a,
                            const ManifestFiles& files, double eps) {
  if (!g.entry || g.entry->file.empty()) return;
  const auto unexplained = [](const ChannelResult& ch) {
    return !ch.passed && !ch.missing && ch.unsupported.empty() &&
           std::none_of(ch.alternatives.begin(), ch.alternatives.end(), [](const AlternativeMatch& m) {
             return !m.partial && m.other_failing == 0;
           });
  };
  if (std::none_of(c.channels.begin(), c.channels.end(), unexplained)) return;
  const std::string& asset = g.entry->file;
  std::vector<sampler::DecodedChannel> decoded;
  try {
    decoded = decode_asset(files, asset, {});
  } catch (...) {
    return;  // an asset the sampler refuses: nothing to compute from
  }
  // The core-only view, decoded the first time a reading asks for it.
  std::optional<std::vector<sampler::DecodedChannel>> core;
  const auto core_view = [&]() -> const std::vector<sampler::DecodedChannel>& {
    if (!core) {
      core.emplace();
      try {
        sampler::SampleRequest request;
        request.extensions = false;
        *core = decode_asset(files, asset, request);
      } catch (...) { core->clear(); }
    }
    return *core;
  };
  const auto find = [](const std::vector<sampler::DecodedChannel>& in, const ChannelResult& ch) {
    return std::find_if(in.begin(), in.end(), [&](const sampler::DecodedChannel& d) {
      return d.animation == ch.animation && d.target == ch.target;
    });
  };
  const auto golden_channels = channels_by_target(g.file);
  const auto actual_channels = channels_by_target(a.file);
  for (auto& ch : c.channels) {
    if (!unexplained(ch)) continue;
    const ChannelKey key{ch.animation, ch.target};
    const auto gc = golden_channels.find(key);
    const auto xc = actual_channels.find(key);
    const auto dc = find(decoded, ch);
    if (gc == golden_channels.end() || xc == actual_channels.end() || dc == decoded.end()) continue;
    for (const NamedReading& reading : named_readings()) {
      const sampler::DecodedChannel* from = &*dc;
      if (reading.view == ReadingView::kCoreFallback) {
        const auto& in = core_view();
        const auto fc = find(in, ch);
        if (fc == in.end()) continue;
        // Only where an extension sampler replaces the core one: the two views differ.
        if (fc->keys.interpolation == dc->keys.interpolation && fc->keys.times == dc->keys.times &&
            fc->keys.values == dc->keys.values)
          continue;
        from = &*fc;
      }
      const reference::TrackView keys = from->view();
      const bool weights = ch.target.size() >= 8 && ch.target.ends_with("/weights");
      if (!reading.applies(keys, weights)) continue;
      samples::SampledChannel alt = *gc->second;
      if (alt.width != keys.components) continue;
      for (std::size_t i = 0; i < alt.size(); ++i) {
        const auto v = reading.value_at(keys, alt.times[i]);
        std::copy(v.begin(), v.end(), alt.values.begin() + static_cast<std::ptrdiff_t>(i * alt.width));
      }
      auto m = fit_alternative(ch, *gc->second, alt, *xc->second, eps);
      if (!m || m->partial || m->other_failing != 0) continue;
      m->name = std::string(reading.name);
      m->allowed = reading.allowed;
      m->description = std::string(reading.formula) + " (seen in: " + std::string(reading.seen_in) + ")";
      m->breaks = reading.allowed ? std::string() : breaks_of(std::string(reading.formula));
      ch.alternatives.push_back(std::move(*m));
    }
  }
}

// The golden samples as an alternative (variant or known divergence) would
// have them: its own samples file, or the golden ones with its excerpt
// substituted; nullopt when it has neither or its excerpt names no sample.
std::optional<SamplesFile> alternative_samples(const ManifestVariant& v, const ManifestFiles& files,
                                               const SamplesFile& golden,
                                               const ReadOptions& read) {
  if (!v.samples.empty()) return read_manifest_samples(files, v.samples, read);
  if (v.excerpt.empty()) return std::nullopt;
  SamplesFile alt = golden;
  if (!apply_excerpt(alt, v.excerpt)) return std::nullopt;
  return alt;
}

// The allowed variants each failing channel of `c` is read as: the one it
// matches alone (at all of the variant's times, no other sample of the
// channel failing), else every allowed variant it matches at all of that
// variant's own times, together (a combination: each reading is allowed on its
// own, each explains its own samples, e.g. float32 time inside a segment and
// the fmod loop after the end; the check on the whole file below decides);
// and the variants in the order met. nullopt when a failing channel has
// neither a variant alone nor two or more to combine.
struct VariantPerChannel {
  std::map<ChannelKey, std::vector<std::string_view>> variants_of;
  std::vector<std::string_view> names;
};
std::optional<VariantPerChannel> variant_per_failing_channel(const CaseResult& c) {
  VariantPerChannel plan;
  for (const auto& ch : c.channels) {
    if (ch.passed) continue;
    std::vector<std::string_view> use;
    const auto m = std::find_if(
        ch.alternatives.begin(), ch.alternatives.end(),
        [](const AlternativeMatch& x) { return x.allowed && !x.partial && x.other_failing == 0; });
    if (m != ch.alternatives.end()) {
      use.push_back(m->name);
    } else {
      for (const auto& x : ch.alternatives) {
        if (x.allowed && !x.partial && x.times > 0 &&
            std::find(use.begin(), use.end(), std::string_view(x.name)) == use.end()) {
          use.push_back(x.name);
        }
      }
      if (use.size() < 2) return std::nullopt;
    }
    for (const std::string_view name : use) {
      if (std::find(plan.names.begin(), plan.names.end(), name) == plan.names.end()) {
        plan.names.push_back(name);
      }
    }
    plan.variants_of.emplace(ChannelKey{ch.animation, ch.target}, std::move(use));
  }
  if (plan.names.empty()) return std::nullopt;
  return plan;
}

// A channel read as several variants at once: the golden channel with each
// variant's value substituted wherever that variant differs from it (same
// times, in the same order, as every variant is written); false when a
// variant's channel does not line up with the golden one.
bool overlay_variant(SampledChannel& into, const SampledChannel& golden, const SampledChannel& variant) {
  if (variant.width != golden.width || variant.size() != golden.size() || into.width != golden.width) {
    return false;
  }
  for (std::size_t i = 0; i < golden.size(); ++i) {
    if (variant.times[i] != golden.times[i]) return false;
    const auto gv = golden.value(i);
    const auto vv = variant.value(i);
    if (!std::equal(gv.begin(), gv.end(), vv.begin())) {
      std::copy(vv.begin(), vv.end(), into.values.begin() + static_cast<std::ptrdiff_t>(i * into.width));
    }
  }
  return true;
}

// The golden samples with each planned channel taken from its variant (the
// first of that name), or overlaid with each of its variants in turn when it
// has several; nullopt when a variant or its channel is not there.
std::optional<SamplesFile> with_variant_channels(const VariantPerChannel& plan, const Loaded& g,
                                                 const ManifestFiles& files,
                                                 const ReadOptions& read) {
  SamplesFile combined = g.file;
  const auto golden = channels_by_target(g.file);
  const auto& variants = g.entry->variants;
  for (const std::string_view name : plan.names) {
    const auto v = std::find_if(variants.begin(), variants.end(),
                                [name](const ManifestVariant& x) { return x.name == name; });
    if (v == variants.end()) return std::nullopt;
    const auto vg = alternative_samples(*v, files, g.file, read);
    if (!vg) return std::nullopt;
    const auto from = channels_by_target(*vg);
    for (auto& an : combined.animations) {
      for (auto& ch : an.channels) {
        const ChannelKey key{an.index, ch.target};
        const auto which = plan.variants_of.find(key);
        if (which == plan.variants_of.end() ||
            std::find(which->second.begin(), which->second.end(), name) == which->second.end()) {
          continue;
        }
        const auto source = from.find(key);
        if (source == from.end()) return std::nullopt;
        if (which->second.size() == 1) {
          ch = *source->second;
        } else {
          const auto base = golden.find(key);
          if (base == golden.end() || !overlay_variant(ch, *base->second, *source->second)) {
            return std::nullopt;
          }
        }
      }
    }
  }
  return combined;
}

// "\"A\" on animation 0 /nodes/0/rotation; \"B\" on animation 0 /nodes/1/translation";
// a channel read as several variants at once is named under their combination,
// "\"A + B\" on animation 0 /nodes/0/translation" (each allowed on its own).
std::string channels_of_variants(const VariantPerChannel& plan) {
  std::vector<std::string> readings;  // in the order met
  for (const auto& [key, use] : plan.variants_of) {
    (void)key;
    std::string joined;
    for (const std::string_view n : use) joined += (joined.empty() ? "" : " + ") + std::string(n);
    if (std::find(readings.begin(), readings.end(), joined) == readings.end()) readings.push_back(joined);
  }
  std::string out;
  for (const std::string& reading : readings) {
    out += std::string(out.empty() ? "" : "; ") + "\"" + reading + "\" on";
    const char* sep = " ";
    for (const auto& [key, use] : plan.variants_of) {
      std::string joined;
      for (const std::string_view n : use) joined += (joined.empty() ? "" : " + ") + std::string(n);
      if (joined != reading) continue;
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
                                                       const Loaded& a, const ManifestFiles& files,
                                                       const Tolerances& tol,
                                                       const CompareOptions& options) {
  const auto plan = variant_per_failing_channel(c);
  if (!plan) return std::nullopt;
  const auto combined = with_variant_channels(*plan, g, files, options.read);
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

}  // namespace

// A failing case against its manifest alternatives. Variants first: one that
// the actual samples match makes the case pass. Else every alternative is
// tried on each failing channel, so the report can say "your values match
// divergence X at its times" even when other samples fail too; and when each
// failing channel matches a variant, the case passes as those variants.
void judge_alternatives(CaseResult& c, const Loaded& g, const Loaded& a, const ManifestFiles& files,
                        const Tolerances& tol, const CompareOptions& options) {
  for (const bool allowed : {true, false}) {
    for (const auto& v : allowed ? g.entry->variants : g.entry->known_divergences) {
      const auto vg = alternative_samples(v, files, g.file, options.read);
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
  for (ChannelResult& ch : c.channels) keep_best_partial(ch.alternatives);
  explain_named_readings(c, g, a, files, options.time_epsilon);
  if (c.matched_divergence.empty()) {
    if (auto per_channel = pass_as_variants_per_channel(c, g, a, files, tol, options)) {
      c = std::move(*per_channel);
    }
  }
}

}  // namespace gltf_anim::compare::detail
