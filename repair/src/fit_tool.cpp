// The fit tool (repair/tools.hpp): LINEAR channels to CUBICSLERP (EXT_animation_sqlerp) or
// CUBICSPLINE under a bound (fit.hpp), through the repair tools' pipeline, with the key ratio
// against a bounded LINEAR reduction and the velocity jumps before and after in each
// channel's notes.
#include <gltf_anim/repair/tools.hpp>
#include <gltf_anim/text/words.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace gltf_anim::repair {
namespace {

using reference::Interpolation;

std::string num(double v) { return text::short_number(v, 4); }

const gltf_anim::json::Value* member(const gltf_anim::json::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  const auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

// Records the fits of `input`'s LINEAR channels in `edit`.
bool fit_body(const FitToolOptions& request, ToolInput& input, gltf::Edit& edit, ToolReport& report,
              std::string& why) {
  const gltf_anim::json::Value& doc = *input.asset.document;
  const bool sqlerp = request.mode == FitMode::kCubicSlerp;
  std::vector<EditableTrack> before, after;
  std::map<std::size_t, std::size_t> samplers_added;  // per animation
  bool sqlerp_used = false;
  TimeBytes time_bytes(input.asset);  // a time accessor shared by samplers counted once
  // The model's animations by glTF index (a track's animation is one of them).
  std::map<std::size_t, const gltf::model::Animation*> animation_of;
  for (const gltf::model::Animation& a : input.model.animations) animation_of[a.index] = &a;
  for (const std::string& s : input.skipped) report.notes.push_back("not fitted: " + s);
  for (EditableTrack& t : input.tracks) {
    const bool rotation = t.keys.kind == reference::ValueKind::kRotation;
    if (t.sqlerp || t.keys.interpolation != Interpolation::kLinear || (sqlerp && !rotation))
      continue;
    // The track's channels: its own and those sharing its sampler, fitted once for all.
    // With cubicslerp, a channel with a CUBICSLERP sampler already is left as it is.
    struct ChannelOf {
      std::string pointer;
      bool has_extensions = false;
    };
    std::vector<ChannelOf> channels;
    const gltf_anim::json::Value& json_channels = *member(
        (*member(doc, "animations"))[static_cast<rapidjson::SizeType>(t.animation)], "channels");
    const gltf::model::Animation& model_animation = *animation_of.at(t.animation);
    auto add_channel = [&](std::size_t index, const std::string& pointer) {
      const auto channel =
          std::find_if(model_animation.channels.begin(), model_animation.channels.end(),
                       [index](const gltf::model::Channel& c) { return c.index == index; });
      if (sqlerp && channel != model_animation.channels.end() && channel->sqlerp_sampler)
        return;  // has a CUBICSLERP sampler already
      // Whether the channel has an `extensions` object to add to: how the edit's JSON text is
      // written, the one read of the JSON here (what is fitted is the model's).
      const gltf_anim::json::Value& json_channel =
          json_channels[static_cast<rapidjson::SizeType>(index)];
      channels.push_back({pointer, member(json_channel, "extensions") != nullptr});
    };
    add_channel(t.channel, t.channel_pointer);
    for (const EditableTrack::SharedChannel& c : t.shared)
      add_channel(c.channel, c.channel_pointer);
    if (channels.empty()) continue;
    // Decoded as it is reached, dropped once fitted: one track's keys held at a time.
    if (!decode_keys(input.asset, t)) {
      why = t.channel_pointer + ": its keys could not be decoded again";
      return false;
    }
    struct Drop {
      EditableTrack& track;
      ~Drop() { release_keys(track, nullptr); }
    } drop{t};
    // NaN or infinite keys: said in the user's words, naming the accessor (fit_track's own
    // check speaks of the track it was handed).
    const std::string bad = non_finite_keys(t);
    const FitResult f =
        bad.empty() ? fit_track(t.view(), request.mode, request.bound) : FitResult{};
    ChannelSummary s;
    s.channel = t.channel_pointer;
    s.target = t.target;
    s.interpolation_before = s.interpolation_after = t.interpolation;
    s.keys_before = s.keys_after = t.keys.times.size();
    const std::uint64_t output_bytes = accessor_bytes(input.asset, t.output);
    s.bytes_before = time_bytes.before(t, s.notes) + output_bytes;
    // The times the sampler reads after: its own (unfitted, or the LINEAR fallback kept),
    // or the fitted ones (the accessor kept when they are the same, else 4 bytes a key).
    auto times_after = [&](std::span<const double> times) {
      const bool kept = t.keys.times.size() == times.size() &&
                        std::equal(t.keys.times.begin(), t.keys.times.end(), times.begin(),
                                   [](double a, double b) { return std::memcmp(&a, &b, 8) == 0; });
      return time_bytes.after(t, times, t.input,
                              kept ? accessor_bytes(input.asset, t.input) : 4 * times.size(),
                              s.notes);
    };
    if (!bad.empty()) {
      s.bytes_after = times_after(t.keys.times) + output_bytes;
      s.notes.push_back("not fitted: " + bad);
      add_summaries(report.channels, t, std::move(s));
      continue;
    }
    if (!f.fitted) {
      s.bytes_after = times_after(t.keys.times) + output_bytes;
      s.notes.push_back("not fitted: " + f.why + " (reduce keeps " + std::to_string(f.linear_kept) +
                        " keys as LINEAR at this bound)");
      add_summaries(report.channels, t, std::move(s));
      continue;
    }
    // A key's 4 time bytes are this channel's only when its bytes carry the time accessor:
    // one that samplers share is counted in the first channel's (TimeBytes), as the bytes
    // before and after are.
    const bool own_times = time_bytes.counted_here(t);
    s.notes.push_back("keys kept " + std::to_string(f.kept.size()) + ", reduce keeps " +
                      std::to_string(f.linear_kept) + " as LINEAR at this bound: ratio " +
                      num(f.keep_ratio()) + " (a cubic key costs " +
                      std::to_string(f.cubic_key_bytes(own_times)) + " B, a LINEAR one " +
                      std::to_string(f.linear_key_bytes(own_times)) +
                      " B: fewer bytes only below " + num(f.break_even_ratio(own_times)) + ")");
    const char* unit = rotation ? " rad/s" : " per s";
    s.notes.push_back("largest velocity jump at a key: " + num(f.velocity_jump_before) + unit +
                      " (LINEAR) -> " + num(f.velocity_jump_after) + unit);
    (rotation ? s.max_angle : s.max_error) = f.max_error;
    const std::string name(reference::interpolation_name(f.interpolation));
    s.interpolation_after = name;
    s.keys_after = f.kept.size();
    const std::uint64_t cubic_bytes = f.kept.size() * f.cubic_key_bytes();
    if (sqlerp && request.fallback) {
      // A CUBICSLERP sampler of its own, the LINEAR one kept as the fallback.
      const std::optional<std::size_t> in = edit.add_accessor(
          f.times,
          gltf::ElementFormat{gltf::ComponentType::kFloat, gltf::ElementType::kScalar, false}, why);
      if (!in) return false;
      const std::optional<std::size_t> out = edit.add_accessor(
          f.values,
          gltf::ElementFormat{gltf::ComponentType::kFloat, gltf::ElementType::kVec4, false}, why);
      if (!out) return false;
      const std::string animation = "/animations/" + std::to_string(t.animation);
      const std::size_t index = model_animation.sampler_count + samplers_added[t.animation]++;
      edit.append(animation + "/samplers", "{\"input\": " + std::to_string(*in) +
                                               ", \"interpolation\": \"CUBICSLERP\", \"output\": " +
                                               std::to_string(*out) + "}");
      const std::string ext = "{\"sampler\": " + std::to_string(index) + "}";
      for (const ChannelOf& c : channels) {  // one new sampler, every channel of the old one
        if (c.has_extensions) {
          edit.put_member(c.pointer + "/extensions", "EXT_animation_sqlerp", ext);
        } else {
          edit.put_member(c.pointer, "extensions", "{\"EXT_animation_sqlerp\": " + ext + "}");
        }
      }
      s.interpolation_after = "LINEAR + CUBICSLERP";
      s.bytes_after = times_after(t.keys.times) + output_bytes + cubic_bytes;
      s.notes.push_back("CUBICSLERP in the new sampler " + std::to_string(index) +
                        ", the LINEAR sampler kept as the fallback");
    } else {
      EditableTrack a = t;
      a.keys.times = f.times;
      a.keys.values = f.values;
      a.keys.interpolation = f.interpolation;
      a.interpolation = name;
      a.output_format =
          gltf::ElementFormat{gltf::ComponentType::kFloat, a.output_format.type, false};
      before.push_back(t);
      after.push_back(std::move(a));
      // Only what differs is kept of the keys read (write_tracks reads that).
      release_keys(before.back(), &after.back());
      s.bytes_after = times_after(f.times) + cubic_bytes - 4 * f.kept.size();
      if (sqlerp) {  // no fallback: the sampler is the extension's alone
        const std::string ext = "{\"sampler\": " + std::to_string(t.sampler) + "}";
        for (const ChannelOf& c : channels) {
          edit.remove(c.pointer + "/sampler");
          if (c.has_extensions) {
            edit.put_member(c.pointer + "/extensions", "EXT_animation_sqlerp", ext);
          } else {
            edit.put_member(c.pointer, "extensions", "{\"EXT_animation_sqlerp\": " + ext + "}");
          }
        }
        s.notes.push_back("CUBICSLERP without a fallback: EXT_animation_sqlerp is required");
      }
    }
    sqlerp_used = sqlerp_used || sqlerp;
    add_summaries(report.channels, t, std::move(s));
  }
  if (!after.empty() && !write_tracks(edit, input.uses, before, after, why)) return false;
  if (sqlerp_used) {
    const std::string ext = "\"EXT_animation_sqlerp\"";
    if (!gltf::model::lists(input.model.extensions_used, "EXT_animation_sqlerp"))
      edit.append("/extensionsUsed", ext);
    if (!request.fallback &&
        !gltf::model::lists(input.model.extensions_required, "EXT_animation_sqlerp")) {
      edit.append("/extensionsRequired", ext);
    }
  }
  return true;
}

}  // namespace

Tool fit_tool(const FitToolOptions& options) {
  Tool tool{"fit",
            {},
            [options](ToolInput& input, gltf::Edit& edit, ToolReport& report, std::string& why) {
              return fit_body(options, input, edit, report, why);
            }};
  tool.one_group_at_a_time = true;
  return tool;
}

}  // namespace gltf_anim::repair
