#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/io/ordered_pool.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/gltf/sampler_keys.hpp>
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/version.hpp>

#include <rapidjson/document.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <ostream>
#include <unordered_set>
#include <variant>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>

namespace gltf_anim::sampler {
namespace {

namespace vm = gltf::model;

// A channel once resolved: what to evaluate and where its values go.
struct Resolved {
  std::size_t index = 0;
  std::string target;
  std::size_t sampler = 0;
  bool sampled = false;   // the channel is in the view: `sampler` and its name are known
  std::size_t input = 0;  // the sampler's input accessor (channels sharing it share their keys)
  std::string interpolation_name;
  reference::Track keys;
};

std::string where(std::size_t animation, std::size_t channel) {
  return "/animations/" + std::to_string(animation) + "/channels/" + std::to_string(channel);
}

// The sampler this view evaluates: EXT_animation_sqlerp's when the extension
// is supported and the channel has one, else channel.sampler. nullptr when the
// channel is not part of this view (a sqlerp channel without fallback for a
// core-only client).
const vm::Sampler* evaluated_sampler(const vm::Channel& channel, const SampleRequest& request,
                                     const std::function<SampleError(const std::string&)>& fail) {
  const bool sqlerp = channel.sqlerp_sampler.has_value() && request.extensions;
  const vm::Link<const vm::Sampler*>& link = sqlerp ? *channel.sqlerp_sampler : channel.sampler;
  if (std::holds_alternative<vm::Absent>(link)) {
    if (sqlerp) throw fail("EXT_animation_sqlerp.sampler is missing");
    if (channel.sqlerp_sampler) return nullptr;  // no fallback for a core-only client
    throw fail("sampler is missing");
  }
  if (const auto* unresolved = std::get_if<vm::Unresolved>(&link)) {
    throw fail("sampler " + std::to_string(unresolved->index) + " does not exist");
  }
  return *vm::linked(link);
}

using Fail = std::function<SampleError(const std::string&)>;

Fail failing_at(std::size_t animation, std::size_t channel) {
  return [at = where(animation, channel)](const std::string& why) {
    return SampleError(1, at + ": " + why);
  };
}

// Decodes a channel of the animation model into `r`: its target, sampler and
// keys as stored. false when the channel is not part of this view (ignored or
// extension-only); throws SampleError(1) when its keys cannot be decoded (what
// is known by then stays in `r`: the target, the sampler when `sampled`). What
// the channel animates (its width, whether it is a quaternion, int or bool) is
// the model's: the validator reads the same.
bool decode(const gltf::LoadedAsset& asset, const vm::Animation& animation,
            const vm::Channel& channel, const SampleRequest& request, Resolved& r) {
  const std::string at = where(animation.index, channel.index);
  const Fail fail = failing_at(animation.index, channel.index);
  const auto* target = std::get_if<vm::Target>(&channel.target);
  if (target == nullptr) {
    const auto& untargeted = std::get<vm::Untargeted>(channel.target);
    if (untargeted.reason == vm::NoTarget::kUnknownPath) return false;  // another extension's path
    if (untargeted.source != vm::TargetSource::kCore && !request.extensions) return false;
    throw fail(untargeted.why);
  }
  if (target->source != vm::TargetSource::kCore && !request.extensions) return false;
  if (const auto* node = std::get_if<vm::NodeTarget>(&target->what)) {
    // "When node isn't defined, channel SHOULD be ignored."
    if (std::holds_alternative<vm::Absent>(node->node)) return false;
    if (const auto* unresolved = std::get_if<vm::Unresolved>(&node->node)) {
      throw fail("target node " + std::to_string(unresolved->index) + " does not exist");
    }
  }

  r.index = channel.index;
  r.target = target->pointer;
  const vm::Sampler* sampler = evaluated_sampler(channel, request, fail);
  if (sampler == nullptr) return false;
  r.sampler = sampler->index;
  r.interpolation_name = sampler->interpolation_name;
  // A core-only client does not know an extension's mode (the interpolation table's owner).
  if (sampler->interpolation && !request.extensions &&
      !reference::mode_of(*sampler->interpolation).extension.empty()) {
    return false;
  }
  r.sampled = true;
  gltf::DecodedKeys decoded = gltf::decode_keys(asset, *target, *sampler, request.max_values_held);
  if (!decoded.keys) {
    if (decoded.needed != 0) {
      throw SampleError(2, at + ": " + decoded.why +
                               " (--max-values counts decoded keys plus samples); raise --max-values");
    }
    throw fail(decoded.why);
  }
  r.input = decoded.keys->input;
  r.keys = std::move(decoded.keys->keys);
  if (target->shape.type == gltf::object_model::ValueType::kBool) {
    for (double& v : r.keys.values) v = v != 0.0 ? 1.0 : 0.0;
  }
  return true;
}

// Throws SampleError(1) when the reference evaluator cannot sample the decoded
// keys (times not increasing, values not finite, a zero rotation key...).
void check_evaluable(const Resolved& r, const Fail& fail) {
  const std::string problem = reference::validate(r.keys.view());
  if (!problem.empty()) throw fail(problem);
  if (r.keys.kind == reference::ValueKind::kRotation) {
    // A zero keyframe value is no rotation (nothing to normalize; validate
    // reports it as a non-unit quaternion), whether stored or implicit (an
    // accessor without bufferView). Tangents may be zero.
    for (std::size_t k = 0; k < r.keys.times.size(); ++k) {
      const auto q = r.keys.value(k);
      if (std::all_of(q.begin(), q.end(), [](double component) { return component == 0.0; })) {
        throw fail("rotation keyframe " + std::to_string(k) + " is the zero quaternion");
      }
    }
  }
}

// Resolves a channel: decoded and evaluable. nullopt when the channel is not
// part of this view; throws SampleError(1) when it cannot be evaluated.
std::optional<Resolved> resolve(const gltf::LoadedAsset& asset, const vm::Animation& animation,
                                const vm::Channel& channel, const SampleRequest& request) {
  Resolved r;
  if (!decode(asset, animation, channel, request, r)) return std::nullopt;
  check_evaluable(r, failing_at(animation.index, channel.index));
  return r;
}

}  // namespace

std::vector<double> default_times(std::span<const std::vector<double>> channel_times) {
  std::vector<double> out;
  std::vector<double> keys;  // the union of the channels' keys
  double lo = INFINITY;
  double hi = -INFINITY;
  for (const auto& channel : channel_times) {
    for (std::size_t k = 0; k < channel.size(); ++k) {
      out.push_back(channel[k]);
      keys.push_back(channel[k]);
      lo = std::min(lo, channel[k]);
      hi = std::max(hi, channel[k]);
      if (k + 1 < channel.size()) {
        const double d = channel[k + 1] - channel[k];
        out.push_back(channel[k] + 0.25 * d);
        out.push_back(channel[k] + 0.5 * d);
        out.push_back(channel[k] + 0.75 * d);
      }
    }
  }
  if (out.empty()) return out;
  // The segments between consecutive keys of the union (a channel that starts
  // later than its clip is then also sampled inside the gap before its first key).
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
    const double d = keys[k + 1] - keys[k];
    out.push_back(keys[k] + 0.25 * d);
    out.push_back(keys[k] + 0.5 * d);
    out.push_back(keys[k] + 0.75 * d);
  }
  out.push_back(lo - 0.5);
  out.push_back(hi + 0.5);
  if (lo > 0.0) out.push_back(0.0);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::uint64_t rate_time_count(double end, double rate) {
  if (!(rate > 0.0) || !std::isfinite(rate) || !std::isfinite(end) || end < 0.0) return 0;
  const double last = std::floor(end * rate);
  if (!(last < 0x1p62)) return std::numeric_limits<std::uint64_t>::max();
  // end * rate is rounded: move k to the last index that k / rate <= end keeps.
  auto k = static_cast<std::uint64_t>(last);
  while (k > 0 && static_cast<double>(k) / rate > end) --k;
  while (static_cast<double>(k + 1) / rate <= end) ++k;
  return k + 1;
}

std::vector<double> rate_times(double end, double rate) {
  const std::uint64_t n = rate_time_count(end, rate);
  // Refused before anything is allocated (a high --rate asks for gigabytes).
  if (n > kMaxRateTimes) throw SampleError(2, "--rate gives more than 2^28 samples");
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(n));
  for (std::uint64_t k = 0; k < n; ++k) out.push_back(static_cast<double>(k) / rate);
  return out;
}

std::vector<double> count_times(double start, double end, std::uint64_t count) {
  if (count == 0 || count > kMaxCountTimes) {
    throw SampleError(2, "--max-times needs 1 to " + std::to_string(kMaxCountTimes) + " times");
  }
  if (count == 1 || !(start < end)) return {start};
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(count));
  const double span = end - start;
  const auto last = static_cast<double>(count - 1);
  // Each time from its k (never accumulated); the last is `end` itself, which
  // start + span * 1 need not round to.
  for (std::uint64_t k = 0; k + 1 < count; ++k) {
    out.push_back(start + span * (static_cast<double>(k) / last));
  }
  out.push_back(end);
  // Rounding may tie neighbours of a tiny span: keep them sorted and distinct.
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// What the first pass keeps of an animation: the channels that will be sampled
// (their indices; they are resolved, i.e. decoded, again when sampled) and the
// times they are sampled at. Nothing else of the decoded keys and values.
struct PlannedAnimation {
  std::size_t index = 0;
  const vm::Animation* animation = nullptr;
  std::string name;
  std::vector<std::size_t> channels;  // positions in animation->channels
  std::vector<std::size_t> inputs;  // each channel's input accessor (its keyframes)
  std::vector<double> times;
  double duration = 0;  // the latest key over its channels (KHR_interactivity's T)
};

// The first pass of sampling: every channel resolved and validated (so that a
// bad channel anywhere is reported, with all others, before anything is written),
// the --max-values bound checked, and the times of every animation computed.
struct Plan {
  std::string asset_name;
  std::vector<PlannedAnimation> animations;
  std::size_t max_width = 1;  // widest channel (the CSV v columns)
};

// What an asset is called: in messages, and as the samples file's "asset".
struct Source {
  std::string described;
  std::string asset_name;
};

Source source_of(const std::filesystem::path& path, const SampleRequest& request) {
  return {path.string(), request.asset_name.value_or(path.filename().string())};
}
Source source_of(const AssetBytes& asset, const SampleRequest& request) {
  return {asset.described, request.asset_name.value_or(asset.uri)};
}

// The loaded asset, or SampleError(2) when it is not glTF at all: the loader's
// first error says what is wrong (IO_ERROR with the system's reason, NOT_GLTF,
// INVALID_JSON with a line and column, GLB_*).
gltf::LoadedAsset checked(gltf::LoadedAsset asset, const gltf::IssueCollector& issues,
                          const Source& source) {
  if (!asset.document || !asset.document->IsObject()) {
    std::string why = asset.document ? "the JSON root is not an object" : "not a glTF asset (JSON or GLB)";
    for (const auto& issue : issues.issues()) {
      if (issue.severity == gltf::Severity::kError) {
        why = std::string(issue.code) + ": " + issue.message;
        break;
      }
    }
    throw SampleError(2, source.described + ": " + why);
  }
  return asset;
}

gltf::LoadedAsset load(const std::filesystem::path& path, const SampleRequest& request) {
  gltf::IssueCollector issues;
  gltf::LoadOptions options;
  options.inputs = request.inputs;
  options.max_file_bytes = request.max_file_bytes;
  return checked(gltf::load_file(path, options, issues), issues, source_of(path, request));
}

gltf::LoadedAsset load(const AssetBytes& bytes, const SampleRequest& request) {
  gltf::IssueCollector issues;
  gltf::LoadOptions options;
  options.max_file_bytes = bytes.bytes.size();  // bounded by whoever read them
  // No folder (and no reader): every relative buffer URI is one IO_ERROR at its
  // /buffers/i/uri. Refused as a whole, before any channel is resolved: the
  // asset cannot be what its author meant from here, whichever channels use it.
  gltf::LoadedAsset asset = checked(gltf::load_bytes(bytes.bytes, bytes.uri, {}, options, issues),
                                    issues, source_of(bytes, request));
  for (const auto& issue : issues.issues()) {
    if (issue.code == "IO_ERROR" && issue.pointer.starts_with("/buffers/")) {
      throw SampleError(2,
                        bytes.described + ": at " + issue.pointer + ": IO_ERROR: " + issue.message +
                            " An asset read from " + bytes.described +
                            " has no folder: embed its buffers (data: URIs, or a GLB), or give the "
                            "file's path instead.");
    }
  }
  return asset;
}

Plan plan(const gltf::LoadedAsset& asset, const vm::AnimationModel& model, const Source& source,
          const SampleRequest& request) {
  Plan out;
  out.asset_name = source.asset_name;
  const std::size_t count = model.animation_count;
  if (request.animation && *request.animation >= count) {
    throw SampleError(2, source.described + ": --animation " + std::to_string(*request.animation) +
                             " out of range (" + std::to_string(count) + " animations)");
  }
  std::vector<std::string> errors;
  // Decoded keys and sampled values over all animations, as if all were held at
  // once (what the model of sample_asset holds). The streamed path holds far
  // less (docs/RELIABILITY.md), but the count also bounds the work and output a
  // file can ask for: N channels sharing one input of K keys decode it N times
  // and give N x 4K samples, so a 2 MB asset could otherwise ask for tens of GB.
  std::uint64_t held = 0;
  const auto check_held = [&] {
    if (request.max_values_held != 0 && held > request.max_values_held) {
      throw SampleError(
          2, source.described + ": sampling needs more than " +
                 std::to_string(request.max_values_held) + " values (decoded keys plus samples; " +
                 std::to_string(held) +
                 " so far); choose fewer with --animation, --times, --rate or --max-times, "
                 "or raise --max-values");
    }
  };
  std::size_t next = 0;  // animations that are not objects are not in the model
  const auto not_objects = [&](std::size_t end) {
    for (; next < end; ++next) {
      if (!request.animation || *request.animation == next) {
        errors.push_back("/animations/" + std::to_string(next) + ": not an object");
      }
    }
  };
  for (const vm::Animation& animation : model.animations) {
    not_objects(animation.index);
    next = animation.index + 1;
    if (request.animation && *request.animation != animation.index) continue;
    PlannedAnimation planned;
    planned.index = animation.index;
    planned.animation = &animation;
    planned.name = animation.name;
    std::vector<std::size_t> widths;
    // Key times for the default times, once per input accessor (channels sharing
    // an input have the same keys, and default_times is a sorted union).
    std::unordered_set<std::size_t> key_inputs;  // a set: one find per channel
    std::vector<std::vector<double>> keys;
    double end = 0.0;    // latest key, for --rate and --max-times
    double begin = 0.0;  // the clip's start: 0, or the earliest key when earlier (--max-times)
    if (!animation.channels_array) {
      errors.push_back("/animations/" + std::to_string(animation.index) + ": channels missing");
    } else {
      std::size_t next_channel = 0;  // channels that are not objects are not in the model
      for (std::size_t c = 0; c < animation.channels.size(); ++c) {
        for (; next_channel < animation.channels[c].index; ++next_channel) {
          errors.push_back(where(animation.index, next_channel) + ": channel is not an object");
        }
        next_channel = animation.channels[c].index + 1;
        try {
          if (auto r = resolve(asset, animation, animation.channels[c], request)) {
            held += r->keys.times.size() + r->keys.values.size();
            planned.channels.push_back(c);
            planned.inputs.push_back(r->input);
            widths.push_back(r->keys.components);
            if (!r->keys.times.empty()) {
              end = std::max(end, r->keys.times.back());
              begin = std::min(begin, r->keys.times.front());
            }
            if (!request.times && !request.rate &&
                key_inputs.insert(r->input).second) {
              keys.push_back(std::move(r->keys.times));
            }
          }
        } catch (const SampleError& e) {
          // A bound of the run (--max-values) refuses the run (exit 2); only a
          // channel's own fault is listed with the others (exit 1).
          if (e.exit_code() == 2) throw;
          errors.push_back(e.what());
        }
        check_held();
      }
      for (; next_channel < animation.channel_count; ++next_channel) {
        errors.push_back(where(animation.index, next_channel) + ": channel is not an object");
      }
    }
    if (!errors.empty()) continue;
    planned.duration = end;

    if (request.times) {
      planned.times = *request.times;
      std::sort(planned.times.begin(), planned.times.end());
      planned.times.erase(std::unique(planned.times.begin(), planned.times.end()), planned.times.end());
    } else if (request.rate) {
      // The samples a rate asks for are counted before its times are built (at most
      // --max-times of them).
      std::uint64_t per_time = 0;
      for (std::size_t w : widths) per_time += std::uint64_t{w} + 1;
      const std::uint64_t rate_n = rate_time_count(end, *request.rate);
      const bool capped = request.max_times && rate_n > *request.max_times;
      const std::uint64_t n = capped ? *request.max_times : rate_n;
      const std::uint64_t planned_held = held;
      held = per_time != 0 && n > (std::numeric_limits<std::uint64_t>::max() - held) / per_time
                 ? std::numeric_limits<std::uint64_t>::max()
                 : held + n * per_time;
      check_held();
      held = planned_held;
      planned.times = capped ? count_times(begin, end, n) : rate_times(end, *request.rate);
    } else {
      planned.times = default_times(keys);
      if (request.max_times && planned.times.size() > *request.max_times) {
        planned.times = count_times(begin, end, *request.max_times);
      }
    }
    for (std::size_t w : widths) {
      held += planned.times.size() * (std::uint64_t{w} + 1);
      out.max_width = std::max(out.max_width, w);
    }
    check_held();
    out.animations.push_back(std::move(planned));
  }
  not_objects(count);
  if (!errors.empty()) {
    std::string message = source.described + ": cannot sample:";
    for (const auto& e : errors) message += "\n  " + e;
    throw SampleError(1, message);
  }
  return out;
}

// The second pass for one channel: decodes it again and samples it at `times`.
// `header` gets the channel's header and keyframes (the evaluated sampler's
// input), `values` times.size() x width values; returns the width.
std::size_t sample_channel(const gltf::LoadedAsset& asset, const PlannedAnimation& animation,
                           std::size_t c, const SampleRequest& request,
                           samples::SampledChannel& header, std::vector<double>& values) {
  auto r = resolve(asset, *animation.animation, animation.animation->channels[c], request);
  if (!r) throw std::logic_error("a channel of the first pass no longer resolves");
  header.index = r->index;
  header.target = std::move(r->target);
  header.interpolation = std::move(r->interpolation_name);
  header.sampler = r->sampler;
  // Written, so that compare measures a quaternion by angle however its target
  // is named (an extension's rotation in the Object Model, a KHR_animation2
  // pointer) rather than guess from the pointer.
  header.measure = r->keys.kind == reference::ValueKind::kRotation ? samples::Measure::kAngle
                                                                   : samples::Measure::kAbsolute;
  values.resize(animation.times.size() * r->keys.components);
  if (request.time_mode == TimeMode::kInteractivityLoop) {
    std::vector<double> effective(animation.times.size());
    for (std::size_t i = 0; i < effective.size(); ++i) {
      effective[i] = reference::interactivity_time(animation.times[i], animation.duration);
    }
    reference::sample_batch(r->keys.view(), effective, values, request.evaluator);
  } else {
    reference::sample_batch(r->keys.view(), animation.times, values, request.evaluator);
  }
  if (request.keyframes)
    header.keyframes = std::move(r->keys.times);  // after sampling: the track views it
  return r->keys.components;
}

// At most kWindowPerThread x threads blocks of channels are sampled or waiting
// to be written at once, so memory is bounded by a few blocks' text.
constexpr std::size_t kWindowPerThread = 2;

}  // namespace

namespace {

samples::SamplesFile sample_loaded(const gltf::LoadedAsset& asset, const Source& source,
                                   const SampleRequest& request) {
  const vm::AnimationModel model = vm::build_animation_model(asset);
  const Plan p = plan(asset, model, source, request);
  samples::SamplesFile file;
  file.asset = p.asset_name;
  file.generator = kGenerator;
  for (const PlannedAnimation& planned : p.animations) {
    samples::SampledAnimation& out = file.animations.emplace_back();
    out.index = planned.index;
    out.name = planned.name;
    for (std::size_t c : planned.channels) {
      samples::SampledChannel& ch = out.channels.emplace_back();
      ch.width = sample_channel(asset, planned, c, request, ch, ch.values);
      ch.times = planned.times;
    }
  }
  return file;
}

std::vector<DecodedChannel> decoded_loaded(const gltf::LoadedAsset& asset, const Source& source,
                                           const SampleRequest& request) {
  const vm::AnimationModel model = vm::build_animation_model(asset);
  const Plan p = plan(asset, model, source, request);
  std::vector<DecodedChannel> out;
  for (const PlannedAnimation& planned : p.animations) {
    for (std::size_t c : planned.channels) {
      auto r = resolve(asset, *planned.animation, planned.animation->channels[c], request);
      if (!r) throw std::logic_error("a channel of the first pass no longer resolves");
      DecodedChannel& d = out.emplace_back();
      d.animation = planned.index;
      d.channel = r->index;
      d.target = std::move(r->target);
      d.keys = std::move(r->keys);
      d.sample_times = planned.times;
    }
  }
  return out;
}

// An asset loaded by the caller: refused as load() refuses one without a JSON object.
void check_loaded(const gltf::LoadedAsset& asset, const std::string& described) {
  if (!asset.document) throw SampleError(2, described + ": not a glTF asset (JSON or GLB)");
  if (!asset.document->IsObject()) throw SampleError(2, described + ": the JSON root is not an object");
}

}  // namespace

samples::SamplesFile sample_asset(const std::filesystem::path& path, const SampleRequest& request) {
  const gltf::LoadedAsset asset = load(path, request);
  return sample_loaded(asset, source_of(path, request), request);
}

samples::SamplesFile sample_asset(const gltf::LoadedAsset& asset, const std::string& described,
                                  const SampleRequest& request) {
  check_loaded(asset, described);
  return sample_loaded(asset, {described, request.asset_name.value_or(described)}, request);
}

std::vector<DecodedChannel> decoded_channels(const std::filesystem::path& path, const SampleRequest& request) {
  const gltf::LoadedAsset asset = load(path, request);
  return decoded_loaded(asset, source_of(path, request), request);
}

std::vector<DecodedChannel> decoded_channels(const gltf::LoadedAsset& asset,
                                             const std::string& described,
                                             const SampleRequest& request) {
  check_loaded(asset, described);
  return decoded_loaded(asset, {described, request.asset_name.value_or(described)}, request);
}

struct SampleStream::State {
  gltf::LoadedAsset asset;
  vm::AnimationModel model;  // links into asset
  SampleRequest request;
  Plan plan;  // points into model
};

SampleStream::SampleStream(const std::filesystem::path& path, const SampleRequest& request)
    : state_(std::make_unique<State>()) {
  state_->asset = load(path, request);
  state_->model = vm::build_animation_model(state_->asset);
  state_->request = request;
  state_->plan = plan(state_->asset, state_->model, source_of(path, request), request);
}

SampleStream::SampleStream(const AssetBytes& asset, const SampleRequest& request)
    : state_(std::make_unique<State>()) {
  state_->asset = load(asset, request);
  state_->model = vm::build_animation_model(state_->asset);
  state_->request = request;
  state_->plan = plan(state_->asset, state_->model, source_of(asset, request), request);
}

SampleStream::~SampleStream() = default;

void SampleStream::write(samples::SamplesFormat format, std::ostream& out, unsigned threads) const {
  const gltf::LoadedAsset& asset = state_->asset;
  const SampleRequest& request = state_->request;
  const Plan& p = state_->plan;
  const samples::SamplesWriter writer(format, p.max_width);
  samples::TextBuffer text(out);  // the pieces written by this thread
  writer.begin_file(text, p.asset_name, kGenerator);
  // Blocks of channels formatted on `threads` workers, written in order.
  io::OrderedPool pool(threads, kWindowPerThread);
  std::vector<samples::TextBuffer> buffers(pool.threaded() ? pool.slots() : 0);
  for (std::size_t a = 0; a < p.animations.size(); ++a) {
    const PlannedAnimation& planned = p.animations[a];
    writer.begin_animation(text, planned.index, planned.name, a == 0);
    // Every channel of the animation is sampled at the same times: their text once.
    const samples::FormattedTimes times(planned.times);
    // A job is a run of consecutive channels sharing an input accessor (a node's
    // translation, rotation and scale, typically), at most kMaxBlock: their JSON
    // keyframes are formatted once.
    constexpr std::size_t kMaxBlock = 8;
    std::vector<std::size_t> block_begin;
    for (std::size_t k = 0; k < planned.channels.size(); ++k) {
      if (block_begin.empty() || k - block_begin.back() >= kMaxBlock || planned.inputs[k] != planned.inputs[k - 1]) {
        block_begin.push_back(k);
      }
    }
    const bool json = format == samples::SamplesFormat::kJson;
    const auto format_block = [&](std::size_t b, samples::TextBuffer& buffer) {
      const std::size_t end = b + 1 < block_begin.size() ? block_begin[b + 1] : planned.channels.size();
      samples::FormattedTimes keyframes;
      for (std::size_t k = block_begin[b]; k < end; ++k) {
        samples::SampledChannel header;
        std::vector<double> values;
        const std::size_t width = sample_channel(asset, planned, planned.channels[k], request, header, values);
        if (json && k == block_begin[b]) keyframes = samples::FormattedTimes(header.keyframes);
        writer.channel(buffer, planned.index, header, k == 0, times, values, width, json ? &keyframes : nullptr);
      }
    };
    if (pool.threaded()) {
      text.flush();
      pool.run(
          block_begin.size(),
          [&](std::size_t b, std::size_t slot) {
            buffers[slot].clear();
            format_block(b, buffers[slot]);
          },
          [&](std::size_t, std::size_t slot) { buffers[slot].write_to(out); });
    } else {
      for (std::size_t b = 0; b < block_begin.size(); ++b) format_block(b, text);
    }
    writer.end_animation(text, planned.channels.empty());
  }
  writer.end_file(text, p.animations.empty());
  text.flush();
}

// ---- The keys as stored ----

namespace {

// One channel's keys, nullopt when the channel is not in this view. A bound of
// the run (exit 2) propagates; a channel's own fault becomes its problem.
std::optional<ChannelKeys> keys_of(const gltf::LoadedAsset& asset,
                                   const vm::Animation& animation, const vm::Channel& channel,
                                   const SampleRequest& request) {
  Resolved r;
  ChannelKeys k;
  k.animation = animation.index;
  k.channel = channel.index;
  bool decoded = false;
  try {
    if (!decode(asset, animation, channel, request, r)) return std::nullopt;
    decoded = true;
    check_evaluable(r, failing_at(animation.index, channel.index));
  } catch (const SampleError& e) {
    if (e.exit_code() == 2) throw;
    k.problem = e.what();
  }
  k.target = std::move(r.target);
  if (r.sampled) {
    k.sampler = r.sampler;
    k.interpolation = std::move(r.interpolation_name);
  }
  // Decoded keys are listed when they fit the mode's layout (a wrong output
  // count is a problem without keys: no value can be told from a tangent).
  const std::size_t per_key = decoded ? r.keys.values_per_keyframe() : 0;
  if (decoded && r.keys.components != 0 &&
      r.keys.values.size() == r.keys.times.size() * per_key * r.keys.components) {
    k.decoded = true;
    k.measure = r.keys.kind == reference::ValueKind::kRotation ? samples::Measure::kAngle
                                                               : samples::Measure::kAbsolute;
    k.keys = std::move(r.keys);
  }
  return k;
}

// Every channel's keys in file order, to `each` (with the channel's place in
// its animation's model); --animation and --max-values (all keys of the run)
// checked.
void visit_keys(const gltf::LoadedAsset& asset, const vm::AnimationModel& model,
                const Source& source, const SampleRequest& request,
                const std::function<void(ChannelKeys&&, const vm::Animation&, std::size_t)>& each) {
  if (request.animation && *request.animation >= model.animation_count) {
    throw SampleError(2, source.described + ": --animation " + std::to_string(*request.animation) +
                             " out of range (" + std::to_string(model.animation_count) +
                             " animations)");
  }
  std::uint64_t held = 0;
  for (const vm::Animation& animation : model.animations) {
    if (request.animation && *request.animation != animation.index) continue;
    for (std::size_t c = 0; c < animation.channels.size(); ++c) {
      auto k = keys_of(asset, animation, animation.channels[c], request);
      if (!k) continue;
      held += k->keys.times.size() + k->keys.values.size();
      if (request.max_values_held != 0 && held > request.max_values_held) {
        throw SampleError(2, source.described + ": the keys hold more than " +
                                 std::to_string(request.max_values_held) +
                                 " values; choose fewer with --animation, or raise --max-values");
      }
      each(std::move(*k), animation, c);
    }
  }
}

void put_numbers(samples::TextBuffer& out, std::span<const double> numbers) {
  out.put('[');
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (i != 0) out.put(", ");
    out.put_json_number(numbers[i]);
  }
  out.put(']');
}

// One channel of the keys file (one key a line).
void write_keys_channel(samples::TextBuffer& out, const ChannelKeys& k, bool first) {
  out.put(first ? "\n    {\"animation\": " : ",\n    {\"animation\": ");
  out.put_uint(k.animation);
  out.put(", \"index\": ");
  out.put_uint(k.channel);
  if (!k.target.empty()) {
    out.put(", \"target\": ");
    out.put(text::json_string(k.target));
  }
  if (k.sampler) {
    out.put(", \"sampler\": ");
    out.put_uint(*k.sampler);
    out.put(", \"interpolation\": ");
    out.put(text::json_string(k.interpolation));
  }
  if (k.measure != samples::Measure::kAuto) {
    out.put(k.measure == samples::Measure::kAngle ? ", \"measure\": \"angle\""
                                                  : ", \"measure\": \"absolute\"");
  }
  if (!k.problem.empty()) {
    out.put(",\n     \"problem\": ");
    out.put(text::json_string(k.problem));
  }
  if (k.decoded) {
    const std::size_t width = k.keys.components;
    const std::size_t per_key = k.keys.values_per_keyframe();
    out.put(",\n     \"width\": ");
    out.put_uint(width);
    out.put(", \"keys\": [");
    const std::span<const double> values(k.keys.values);
    const bool cubic = per_key == 3;
    for (std::size_t i = 0; i < k.keys.times.size(); ++i) {
      const std::span<const double> key = values.subspan(i * per_key * width, per_key * width);
      out.put(i == 0 ? "\n      {\"t\": " : ",\n      {\"t\": ");
      out.put_json_number(k.keys.times[i]);
      if (cubic) {
        out.put(", \"in\": ");
        put_numbers(out, key.first(width));
        out.put(", \"value\": ");
        put_numbers(out, key.subspan(width, width));
        out.put(", \"out\": ");
        put_numbers(out, key.last(width));
      } else {
        out.put(", \"value\": ");
        put_numbers(out, key);
      }
      out.put('}');
    }
    out.put(k.keys.times.empty() ? "]" : "\n     ]");
  }
  out.put('}');
}

}  // namespace

std::vector<ChannelKeys> channel_keys(const std::filesystem::path& path,
                                      const SampleRequest& request) {
  const gltf::LoadedAsset asset = load(path, request);
  const vm::AnimationModel model = vm::build_animation_model(asset);
  std::vector<ChannelKeys> out;
  visit_keys(
      asset, model, source_of(path, request), request,
      [&](ChannelKeys&& k, const vm::Animation&, std::size_t) { out.push_back(std::move(k)); });
  return out;
}

struct KeysStream::State {
  std::optional<gltf::LoadedAsset> owned;  // unset when the caller holds the asset
  const gltf::LoadedAsset& asset;
  vm::AnimationModel model;  // links into asset
  SampleRequest request;
  std::string asset_name;
  std::vector<std::pair<const vm::Animation*, std::size_t>> listed;  // into model
  std::size_t problems = 0;

  State(gltf::LoadedAsset&& loaded, const SampleRequest& r, const Source& source)
      : owned(std::move(loaded)),
        asset(*owned),
        model(vm::build_animation_model(asset)),
        request(r) {
    list(source);
  }
  State(const gltf::LoadedAsset& held, const SampleRequest& r, const Source& source)
      : asset(held), model(vm::build_animation_model(asset)), request(r) {
    list(source);
  }
  void list(const Source& source) {
    asset_name = source.asset_name;
    visit_keys(asset, model, source, request,
               [&](ChannelKeys&& k, const vm::Animation& animation, std::size_t c) {
                 listed.emplace_back(&animation, c);
                 if (!k.problem.empty()) ++problems;
               });
  }
};

KeysStream::KeysStream(const std::filesystem::path& path, const SampleRequest& request)
    : state_(std::make_unique<State>(load(path, request), request, source_of(path, request))) {}

KeysStream::KeysStream(const AssetBytes& asset, const SampleRequest& request)
    : state_(std::make_unique<State>(load(asset, request), request, source_of(asset, request))) {}

KeysStream::KeysStream(const gltf::LoadedAsset& asset, const std::string& described,
                       const SampleRequest& request)
    : state_((check_loaded(asset, described),
              std::make_unique<State>(
                  asset, request, Source{described, request.asset_name.value_or(described)}))) {}

KeysStream::~KeysStream() = default;

std::size_t KeysStream::problems() const { return state_->problems; }

void KeysStream::write(std::ostream& out) const {
  samples::TextBuffer buffer(out);
  buffer.put("{\n  \"asset\": ");
  buffer.put(text::json_string(state_->asset_name));
  buffer.put(",\n  \"generator\": ");
  buffer.put(text::json_string(kGenerator));
  buffer.put(",\n  \"channels\": [");
  bool first = true;
  for (const auto& [animation, c] : state_->listed) {
    const auto k = keys_of(state_->asset, *animation, animation->channels[c], state_->request);
    if (!k) throw std::logic_error("a channel of the first pass is no longer in the view");
    write_keys_channel(buffer, *k, first);
    first = false;
  }
  buffer.put(first ? "]\n}\n" : "\n  ]\n}\n");
  buffer.flush();
}

}  // namespace gltf_anim::sampler
