// gltf-anim fit: LINEAR channels to CUBICSLERP (EXT_animation_sqlerp) or CUBICSPLINE under a
// bound (repair/fit.hpp), through the repair tools' pipeline, with the key ratio against a
// bounded LINEAR reduction and the velocity jumps before and after in each channel's notes.
#include <gltf_anim/repair/fit.hpp>
#include <gltf_anim/text/words.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <iostream>
#include <limits>
#include <map>
#include <string>

#include "commands.hpp"
#include "repair_command.hpp"

namespace gltf_anim::cli {
namespace {

using reference::Interpolation;

struct FitRequest {
  repair::FitMode mode = repair::FitMode::kCubicSpline;
  repair::FitBound bound;
  bool fallback = true;  // CUBICSLERP: keep the LINEAR sampler as the channel's fallback
};

std::string num(double v) { return text::short_number(v, 4); }

const gltf_anim::json::Value* member(const gltf_anim::json::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  const auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

bool lists(const gltf_anim::json::Value& doc, const char* list, std::string_view name) {
  const gltf_anim::json::Value* v = member(doc, list);
  if (v == nullptr || !v->IsArray()) return false;
  for (const auto& e : v->GetArray()) {
    if (e.IsString() && std::string_view(e.GetString(), e.GetStringLength()) == name) return true;
  }
  return false;
}

// Records the fits of `input`'s LINEAR channels in `edit`.
bool fit_body(const FitRequest& request, repair::ToolInput& input, gltf::Edit& edit,
              repair::ToolReport& report, std::string& why) {
  const gltf_anim::json::Value& doc = *input.asset.document;
  const bool sqlerp = request.mode == repair::FitMode::kCubicSlerp;
  std::vector<repair::EditableTrack> before, after;
  std::map<std::size_t, std::size_t> samplers_added;  // per animation
  bool sqlerp_used = false;
  for (const std::string& s : input.skipped) report.notes.push_back("not fitted: " + s);
  for (const repair::EditableTrack& t : input.tracks) {
    const bool rotation = t.kind == reference::ValueKind::kRotation;
    if (t.sqlerp || t.mode != Interpolation::kLinear || (sqlerp && !rotation)) continue;
    // The track's channels: its own and those sharing its sampler, fitted once for all.
    // With cubicslerp, a channel with a CUBICSLERP sampler already is left as it is.
    struct ChannelOf {
      std::string pointer;
      bool has_extensions = false;
    };
    std::vector<ChannelOf> channels;
    const gltf_anim::json::Value& json_channels =
        *member((*member(doc, "animations"))[static_cast<rapidjson::SizeType>(t.animation)],
                "channels");
    auto add_channel = [&](std::size_t index, const std::string& pointer) {
      const gltf_anim::json::Value& json_channel =
          json_channels[static_cast<rapidjson::SizeType>(index)];
      const gltf_anim::json::Value* extensions = member(json_channel, "extensions");
      if (sqlerp && extensions != nullptr && member(*extensions, "EXT_animation_sqlerp") != nullptr)
        return;  // has a CUBICSLERP sampler already
      channels.push_back({pointer, extensions != nullptr});
    };
    add_channel(t.channel, t.channel_pointer);
    for (const repair::EditableTrack::SharedChannel& c : t.shared)
      add_channel(c.channel, c.channel_pointer);
    if (channels.empty()) continue;
    const repair::FitResult f =
        repair::fit_track(repair::LinearTrack{t.times, t.values, t.components, rotation},
                          request.mode, request.bound);
    repair::ChannelSummary s;
    s.channel = t.channel_pointer;
    s.target = t.target;
    s.interpolation_before = s.interpolation_after = t.interpolation;
    s.keys_before = s.keys_after = t.times.size();
    s.bytes_before = s.bytes_after = repair::accessor_bytes(input.asset, t.input) +
                                     repair::accessor_bytes(input.asset, t.output);
    if (!f.fitted) {
      s.notes.push_back("not fitted: " + f.why + " (reduce keeps " + std::to_string(f.linear_kept) +
                        " keys as LINEAR at this bound)");
      repair::add_summaries(report.channels, t, std::move(s));
      continue;
    }
    s.notes.push_back("keys kept " + std::to_string(f.kept.size()) + ", reduce keeps " +
                      std::to_string(f.linear_kept) + " as LINEAR at this bound: ratio " +
                      num(f.keep_ratio()) + " (a cubic key costs " +
                      std::to_string(f.cubic_key_bytes()) + " B, a LINEAR one " +
                      std::to_string(f.linear_key_bytes()) + " B: fewer bytes only below " +
                      num(f.break_even_ratio()) + ")");
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
          f.times, gltf::ElementFormat{gltf::ComponentType::kFloat, gltf::ElementType::kScalar, false}, why);
      if (!in) return false;
      const std::optional<std::size_t> out = edit.add_accessor(
          f.values, gltf::ElementFormat{gltf::ComponentType::kFloat, gltf::ElementType::kVec4, false}, why);
      if (!out) return false;
      const std::string animation = "/animations/" + std::to_string(t.animation);
      const gltf_anim::json::Value* samplers = member(
          (*member(doc, "animations"))[static_cast<rapidjson::SizeType>(t.animation)], "samplers");
      const std::size_t index = samplers->Size() + samplers_added[t.animation]++;
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
      s.bytes_after += cubic_bytes;
      s.notes.push_back("CUBICSLERP in the new sampler " + std::to_string(index) +
                        ", the LINEAR sampler kept as the fallback");
    } else {
      repair::EditableTrack a = t;
      a.times = f.times;
      a.values = f.values;
      a.mode = f.interpolation;
      a.interpolation = name;
      a.output_format =
          gltf::ElementFormat{gltf::ComponentType::kFloat, a.output_format.type, false};
      before.push_back(t);
      after.push_back(std::move(a));
      s.bytes_after = cubic_bytes;
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
    repair::add_summaries(report.channels, t, std::move(s));
  }
  if (!after.empty() && !repair::write_tracks(edit, input.uses, before, after, why)) return false;
  if (sqlerp_used) {
    const std::string ext = "\"EXT_animation_sqlerp\"";
    if (!lists(doc, "extensionsUsed", "EXT_animation_sqlerp")) edit.append("/extensionsUsed", ext);
    if (!request.fallback && !lists(doc, "extensionsRequired", "EXT_animation_sqlerp")) {
      edit.append("/extensionsRequired", ext);
    }
  }
  return true;
}

}  // namespace

int run_fit(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "fit",
      "gltf-anim fit IN -o OUT --to cubicslerp|cubicspline --max-error E [--max-angle A] "
      "[--no-fallback] [--dry-run] [--format json]",
      "Replaces LINEAR channels by cubic ones within a bound of the original playback: LINEAR\n"
      "rotations by CUBICSLERP (EXT_animation_sqlerp, modified-SQUAD control points; the LINEAR\n"
      "sampler stays as the fallback unless --no-fallback), or LINEAR tracks by CUBICSPLINE.\n"
      "Every component stays within E, a rotation within A radians (default 2E), checked at\n"
      "every key and inside every segment. Each channel's report gives the keys kept against\n"
      "those `reduce` keeps as LINEAR (a cubic saves bytes only below 38.5% of them for a\n"
      "rotation) and the largest velocity jump at a key before and after (docs/TOOLS.md).",
      "gltf-anim fit walk.glb -o smooth.glb --to cubicslerp --max-error 1e-3"};
  po::options_description options("Options");
  add_tool_options(options);
  options.add_options()("to", po::value<std::string>(), "cubicslerp or cubicspline")(
      "max-error", po::value<std::string>(), "E: the largest change of any component")(
      "max-angle", po::value<std::string>(), "A: the largest change of a rotation, radians (2E)")(
      "no-fallback", po::bool_switch(), "cubicslerp: no LINEAR fallback (the extension required)");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, tool_positional(), args, exit_code);
  if (!vm) return exit_code;
  std::optional<repair::ToolOptions> tool_opts = tool_options(*vm, kHelp);
  if (!tool_opts) return kExitUsage;
  FitRequest request;
  const std::string to = vm->count("to") ? (*vm)["to"].as<std::string>() : "";
  if (to == "cubicslerp") {
    request.mode = repair::FitMode::kCubicSlerp;
  } else if (to != "cubicspline") {
    std::cerr << "gltf-anim fit: --to must be cubicslerp or cubicspline\n";
    return kExitUsage;
  }
  std::optional<double> e, a;
  const double big = std::numeric_limits<double>::max();
  if (!number_option(*vm, kHelp, "max-error", 0.0, big, false, e)) return kExitUsage;
  if (!number_option(*vm, kHelp, "max-angle", 0.0, big, false, a)) return kExitUsage;
  if (!e) {
    std::cerr << "gltf-anim fit: --max-error E is required\n";
    return kExitUsage;
  }
  request.bound = {*e, a ? *a : 2.0 * *e};
  request.fallback = !(*vm)["no-fallback"].as<bool>();
  const repair::Tool tool{
      "fit",
      {},
      [request](repair::ToolInput& input, gltf::Edit& edit, repair::ToolReport& report,
                std::string& why) { return fit_body(request, input, edit, report, why); }};
  return run_repair_tool(tool, *tool_opts, kHelp);
}

}  // namespace gltf_anim::cli
