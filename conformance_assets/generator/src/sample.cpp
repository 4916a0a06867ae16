#include <gltf_anim/conformance/sample.hpp>
#include <gltf_anim/validator/accessor.hpp>
#include <gltf_anim/validator/issue_collector.hpp>
#include <gltf_anim/validator/load.hpp>
#include <gltf_anim/version.hpp>

#include <rapidjson/document.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <regex>
#include <string_view>

namespace gltf_anim::conformance {
namespace {

using rapidjson::Value;

const Value* member(const Value* object, const char* name) {
  if (object == nullptr || !object->IsObject()) return nullptr;
  const auto it = object->FindMember(name);
  return it == object->MemberEnd() ? nullptr : &it->value;
}

std::optional<std::size_t> index_member(const Value* object, const char* name) {
  const Value* v = member(object, name);
  if (v == nullptr || !v->IsUint64()) return std::nullopt;
  return static_cast<std::size_t>(v->GetUint64());
}


// A channel once resolved: what to evaluate and where its values go.
struct Resolved {
  std::size_t index = 0;
  std::string target;
  std::size_t sampler = 0;
  std::string interpolation_name;
  reference::TrackView track;
  std::vector<double> times;
  std::vector<double> values;
  bool is_bool = false;
};

bool is_node_rotation(const std::string& pointer) {
  static const std::regex re("^/nodes/[0-9]+/rotation$");
  return std::regex_match(pointer, re);
}
bool is_weights(const std::string& pointer) {
  static const std::regex re("^/(nodes|meshes)/[0-9]+/weights$");
  return std::regex_match(pointer, re);
}
bool is_bool_pointer(const std::string& pointer) {
  static const std::regex re("^/nodes/[0-9]+/extensions/KHR_node_visibility/visible$");
  return std::regex_match(pointer, re);
}

std::string where(std::size_t animation, std::size_t channel) {
  return "/animations/" + std::to_string(animation) + "/channels/" + std::to_string(channel);
}

// Resolves channel c of animation a. nullopt when the channel is not part of
// this view (ignored or extension-only); throws SampleError(1) when it cannot
// be evaluated.
std::optional<Resolved> resolve(const validator::LoadedAsset& asset, const Value& animation, std::size_t a, std::size_t c,
                                const SampleRequest& request) {
  const Value* channels = member(&animation, "channels");
  const Value& channel = (*channels)[static_cast<rapidjson::SizeType>(c)];
  const std::string at = where(a, c);
  auto fail = [&](const std::string& why) -> SampleError { return SampleError(1, at + ": " + why); };
  if (!channel.IsObject()) throw fail("channel is not an object");

  Resolved r;
  r.index = c;
  bool pointer_channel = false;
  if (const Value* tp = member(&channel, "targetpointer")) {  // KHR_animation2
    if (!request.extensions) return std::nullopt;
    if (!tp->IsString()) throw fail("targetpointer is not a string");
    r.target = tp->GetString();
    if (r.target.empty() || r.target[0] != '/') r.target = "/" + r.target;
    pointer_channel = true;
  } else {
    const Value* target = member(&channel, "target");
    const Value* path = member(target, "path");
    if (path == nullptr || !path->IsString()) throw fail("target.path is missing");
    const std::string p = path->GetString();
    if (p == "pointer") {
      if (!request.extensions) return std::nullopt;
      const Value* ptr = member(member(member(target, "extensions"), "KHR_animation_pointer"), "pointer");
      if (ptr == nullptr || !ptr->IsString()) throw fail("KHR_animation_pointer.pointer is missing");
      r.target = ptr->GetString();
      pointer_channel = true;
    } else {
      const auto node = index_member(target, "node");
      if (!node) return std::nullopt;  // "When node isn't defined, channel SHOULD be ignored"
      if (p != "translation" && p != "rotation" && p != "scale" && p != "weights") return std::nullopt;
      r.target = "/nodes/" + std::to_string(*node) + "/" + p;
    }
  }

  // Which sampler: EXT_animation_sqlerp's when supported, else channel.sampler.
  std::optional<std::size_t> sampler_index;
  const Value* sq = member(member(&channel, "extensions"), "EXT_animation_sqlerp");
  if (sq != nullptr && request.extensions) {
    sampler_index = index_member(sq, "sampler");
    if (!sampler_index) throw fail("EXT_animation_sqlerp.sampler is missing");
  } else {
    sampler_index = index_member(&channel, "sampler");
    if (!sampler_index) {
      if (sq != nullptr) return std::nullopt;  // no fallback for a core-only client
      throw fail("sampler is missing");
    }
  }
  const Value* samplers = member(&animation, "samplers");
  if (samplers == nullptr || !samplers->IsArray() || *sampler_index >= samplers->Size()) {
    throw fail("sampler " + std::to_string(*sampler_index) + " does not exist");
  }
  const Value& sampler = (*samplers)[static_cast<rapidjson::SizeType>(*sampler_index)];
  r.sampler = *sampler_index;
  r.interpolation_name = "LINEAR";
  if (const Value* interp = member(&sampler, "interpolation")) {
    if (!interp->IsString()) throw fail("sampler interpolation is not a string");
    r.interpolation_name = interp->GetString();
  }
  const auto interpolation = reference::parse_interpolation(r.interpolation_name);
  if (!interpolation) throw fail("unknown interpolation '" + r.interpolation_name + "'");
  if (!request.extensions && (*interpolation == reference::Interpolation::kCubicSlerp ||
                              *interpolation == reference::Interpolation::kSlerp)) {
    return std::nullopt;
  }

  const auto input = index_member(&sampler, "input");
  const auto output = index_member(&sampler, "output");
  if (!input || !output) throw fail("sampler input or output is missing");
  for (std::size_t acc : {*input, *output}) {
    if (acc >= asset.accessors.size() || asset.accessor_status[acc] != validator::DataStatus::kReadable) {
      throw fail("accessor " + std::to_string(acc) + " cannot be read");
    }
  }
  const auto input_reader = validator::AccessorReader::open(asset, *input);
  if (!input_reader) throw fail("input accessor " + std::to_string(*input) + " cannot be read");
  if (input_reader->components() != 1) throw fail("input accessor is not SCALAR");
  const auto reader = validator::AccessorReader::open(asset, *output);
  if (!reader) throw fail("output accessor " + std::to_string(*output) + " cannot be read");
  // The loader caps a file at 1 GiB, i.e. at most 2^28 float32 values; allow
  // all of them (the default cap of read_accessor is meant for tests).
  constexpr std::size_t kMaxValues = std::size_t{1} << 28;
  if (!validator::read_accessor(asset, *input, r.times, nullptr, kMaxValues) ||
      !validator::read_accessor(asset, *output, r.values, nullptr, kMaxValues)) {
    throw fail("accessor data cannot be read");
  }
  const validator::Accessor& out_acc = asset.accessors[*output];
  const bool integer_values = reader->component_type() != validator::ComponentType::kFloat && !reader->normalized();

  r.track.interpolation = *interpolation;
  const std::size_t per_key =
      (*interpolation == reference::Interpolation::kCubicSpline ||
       *interpolation == reference::Interpolation::kCubicSlerp)
          ? 3
          : 1;
  const bool rotation = is_node_rotation(r.target) || *interpolation == reference::Interpolation::kSlerp ||
                        *interpolation == reference::Interpolation::kCubicSlerp;
  if (rotation) {
    if (reader->components() != 4) throw fail("rotation output is not VEC4");
    r.track.kind = reference::ValueKind::kRotation;
    r.track.components = 4;
  } else if (is_weights(r.target) || (!pointer_channel && r.target.ends_with("/weights"))) {
    if (r.times.empty() || out_acc.count.value_or(0) % (r.times.size() * per_key) != 0) {
      throw fail("output count is not a multiple of the keyframe count");
    }
    r.track.components = static_cast<std::size_t>(*out_acc.count) / (r.times.size() * per_key);
  } else {
    r.track.components = reader->components();
    if (!pointer_channel && r.track.components != 3) throw fail("translation or scale output is not VEC3");
  }
  if (integer_values) {
    if (!pointer_channel) throw fail("core channel output of a non-normalized integer type");
    if (*interpolation != reference::Interpolation::kStep) {
      throw fail("int and bool targets must use STEP interpolation");
    }
    if (is_bool_pointer(r.target)) {
      r.is_bool = true;
      for (double& v : r.values) v = v != 0.0 ? 1.0 : 0.0;
    }
  }
  r.track.times = r.times;
  r.track.values = r.values;
  const std::string problem = reference::validate(r.track);
  if (!problem.empty()) throw fail(problem);
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

std::vector<double> rate_times(double end, double rate) {
  std::vector<double> out;
  if (!(rate > 0.0) || !std::isfinite(rate) || !std::isfinite(end)) return out;
  for (std::uint64_t k = 0;; ++k) {
    const double t = static_cast<double>(k) / rate;
    if (t > end) break;
    out.push_back(t);
    if (out.size() > (std::size_t{1} << 28)) throw SampleError(2, "--rate gives more than 2^28 samples");
  }
  return out;
}

reports::SamplesFile sample_asset(const std::filesystem::path& path, const SampleRequest& request) {
  validator::IssueCollector issues;
  validator::LoadedAsset asset = validator::load_file(path, {}, issues);
  if (!asset.document || !asset.document->IsObject()) {
    std::string why = "not a glTF asset (JSON or GLB)";
    for (const auto& issue : issues.issues()) {
      if (issue.code == "IO_ERROR") why = issue.message;
    }
    throw SampleError(2, path.string() + ": " + why);
  }
  const Value& root = *asset.document;

  reports::SamplesFile file;
  file.asset = path.filename().string();
  file.generator = kGenerator;
  const Value* animations = member(&root, "animations");
  const std::size_t count = animations != nullptr && animations->IsArray() ? animations->Size() : 0;
  if (request.animation && *request.animation >= count) {
    throw SampleError(2, path.string() + ": --animation " + std::to_string(*request.animation) +
                             " out of range (" + std::to_string(count) + " animations)");
  }
  std::vector<std::string> errors;
  // Decoded keys and sampled values held in memory, over all animations: N
  // channels sharing one input of K keys decode it N times and give N x 4K
  // samples, so a 2 MB asset could otherwise ask for tens of GB.
  std::uint64_t held = 0;
  const auto check_held = [&] {
    if (request.max_values_held != 0 && held > request.max_values_held) {
      throw SampleError(2, path.string() + ": sampling needs more than " +
                               std::to_string(request.max_values_held) + " values in memory (" +
                               std::to_string(held) +
                               " so far); choose fewer with --animation, --times or --rate, "
                               "or raise --max-values");
    }
  };
  for (std::size_t a = 0; a < count; ++a) {
    if (request.animation && *request.animation != a) continue;
    const Value& animation = (*animations)[static_cast<rapidjson::SizeType>(a)];
    const Value* channels = member(&animation, "channels");
    std::vector<Resolved> resolved;
    if (channels != nullptr && channels->IsArray()) {
      for (std::size_t c = 0; c < channels->Size(); ++c) {
        try {
          if (auto r = resolve(asset, animation, a, c, request)) {
            held += r->times.size() + r->values.size();
            resolved.push_back(std::move(*r));
          }
        } catch (const SampleError& e) {
          errors.push_back(e.what());
        }
        check_held();
      }
    } else {
      errors.push_back("/animations/" + std::to_string(a) + ": channels missing");
    }
    if (!errors.empty()) continue;

    std::vector<double> times;
    if (request.times) {
      times = *request.times;
      std::sort(times.begin(), times.end());
      times.erase(std::unique(times.begin(), times.end()), times.end());
    } else {
      std::vector<std::vector<double>> keys;
      for (const auto& r : resolved) keys.push_back(r.times);
      if (request.rate) {
        double end = 0.0;
        for (const auto& k : keys) {
          if (!k.empty()) end = std::max(end, k.back());
        }
        times = rate_times(end, *request.rate);
      } else {
        times = default_times(keys);
      }
    }

    for (const auto& r : resolved) held += times.size() * (std::uint64_t{r.track.components} + 1);
    check_held();

    reports::SampledAnimation& out = file.animations.emplace_back();
    out.index = a;
    if (const Value* name = member(&animation, "name"); name != nullptr && name->IsString()) {
      out.name = name->GetString();
    }
    for (const auto& r : resolved) {
      reports::SampledChannel& ch = out.channels.emplace_back();
      ch.index = r.index;
      ch.target = r.target;
      ch.interpolation = r.interpolation_name;
      ch.sampler = r.sampler;
      std::vector<double> values(times.size() * r.track.components);
      reference::sample_batch(r.track, times, values, request.evaluator);
      ch.times.reserve(times.size());
      for (std::size_t i = 0; i < times.size(); ++i) {
        ch.add_sample(times[i], std::span<const double>(values).subspan(i * r.track.components, r.track.components));
      }
    }
  }
  if (!errors.empty()) {
    std::string message = path.string() + ": cannot sample:";
    for (const auto& e : errors) message += "\n  " + e;
    throw SampleError(1, message);
  }
  return file;
}

}  // namespace gltf_anim::conformance
