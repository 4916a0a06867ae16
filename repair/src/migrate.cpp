// KHR_animation2 <-> KHR_animation_pointer channel migration (migrate.hpp).
#include <gltf_anim/gltf/edit.hpp>
#include <gltf_anim/repair/migrate.hpp>
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <algorithm>
#include <map>
#include <utility>

namespace gltf_anim::repair {
namespace {

namespace model = gltf::model;
namespace om = gltf::object_model;
using reference::Interpolation;

constexpr std::string_view kPointerExt = "KHR_animation_pointer";
constexpr std::string_view kAnimation2Ext = "KHR_animation2";

const gltf_anim::json::Value* member(const gltf_anim::json::Value& obj, std::string_view name) {
  if (!obj.IsObject()) return nullptr;
  const auto it = obj.FindMember(gltf_anim::json::Value(
      rapidjson::StringRef(name.data(), static_cast<rapidjson::SizeType>(name.size()))));
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

std::string_view view(const gltf_anim::json::Value& v) {
  return {v.GetString(), v.GetStringLength()};
}

// The names of an extension list of the model (a non-string entry as ""); nullopt when the
// list is absent.
std::optional<std::vector<std::string>> string_list(
    const std::optional<model::ExtensionList>& list) {
  if (!list) return std::nullopt;
  std::vector<std::string> out;
  out.reserve(list->size());
  for (const std::optional<std::string>& name : *list) out.push_back(name.value_or(""));
  return out;
}

std::string pointer_of(std::string_view base, std::size_t a, std::string_view kind, std::size_t i) {
  return std::string(base) + "/animations/" + std::to_string(a) + "/" + std::string(kind) + "/" +
         std::to_string(i);
}

// What one channel needs, once decided.
struct Plan {
  std::size_t animation = 0, channel = 0;
  std::size_t report = 0;                    // index in Migration::channels
  std::optional<std::size_t> sampler;        // the channel's sampler
  std::optional<std::string> interpolation;  // the sampler's new interpolation
  std::string member_value;                  // the new target member's value
};

// Whether the channel's target object holds exactly path "pointer" and the extension's
// pointer (nothing a targetpointer would lose). A read of the JSON text the edit replaces:
// what migrates is decided from the model, what the edit would drop from the text here.
std::string pointer_target_extra(const gltf_anim::json::Value& target) {
  for (const auto& m : target.GetObject()) {
    const std::string_view name = view(m.name);
    if (name == "path") continue;
    if (name == "extensions" && m.value.IsObject() && m.value.MemberCount() == 1 &&
        member(m.value, kPointerExt) != nullptr && member(m.value, kPointerExt)->IsObject() &&
        member(m.value, kPointerExt)->MemberCount() == 1) {
      continue;
    }
    return name == "extensions" ? "extensions besides KHR_animation_pointer's pointer"
                                : "the member \"" + text::json_text(name) + "\"";
  }
  return "";
}

}  // namespace

std::string_view extension_name(PointerExtension e) {
  return e == PointerExtension::kAnimationPointer ? kPointerExt : kAnimation2Ext;
}

std::optional<PointerExtension> parse_pointer_extension(std::string_view text) {
  if (text == "khr_animation_pointer" || text == kPointerExt)
    return PointerExtension::kAnimationPointer;
  if (text == "khr_animation2" || text == kAnimation2Ext) return PointerExtension::kAnimation2;
  return std::nullopt;
}

std::size_t Migration::migrated() const {
  return static_cast<std::size_t>(std::count_if(
      channels.begin(), channels.end(), [](const ChannelMigration& c) { return c.migrated; }));
}

Migration migrate_channels(const gltf::LoadedAsset& asset, const model::AnimationModel& animations,
                           PointerExtension to, gltf::Edit& edit) {
  Migration out;
  if (!asset.document || !asset.document->IsObject()) return out;
  const gltf_anim::json::Value& doc = *asset.document;
  const bool to_pointer = to == PointerExtension::kAnimationPointer;
  const model::TargetSource from_source =
      to_pointer ? model::TargetSource::kAnimation2 : model::TargetSource::kAnimationPointer;
  const gltf_anim::json::Value* json_animations = member(doc, "animations");

  std::vector<Plan> plans;
  bool source_stays = false;  // a use of the old extension remains
  for (const model::Animation& anim : animations.animations) {
    if (!anim.channels_array) continue;
    const gltf_anim::json::Value& json_channels =
        *member((*json_animations)[static_cast<rapidjson::SizeType>(anim.index)], "channels");
    // Users of each sampler (by glTF index), to keep a sampler change from reaching a
    // channel that stays.
    std::map<std::size_t, std::vector<std::size_t>> users;  // sampler -> channel indices
    for (const model::Channel& ch : anim.channels) {
      if (const auto* s = model::linked(ch.sampler)) users[(*s)->index].push_back(ch.index);
    }
    std::map<std::size_t, std::size_t> plan_of;  // channel index -> plans index
    for (const model::Channel& ch : anim.channels) {
      const model::TargetSource source =
          std::visit([](const auto& t) { return t.source; }, ch.target);
      if (source != from_source) continue;
      ChannelMigration report;
      report.channel = pointer_of("", anim.index, "channels", ch.index);
      const auto* target = std::get_if<model::Target>(&ch.target);
      if (target) report.target = target->pointer;
      const auto* sampler = model::linked(ch.sampler);
      std::string why;
      Plan plan;
      plan.animation = anim.index;
      plan.channel = ch.index;
      if (const auto* none = std::get_if<model::Untargeted>(&ch.target)) {
        why = "its target does not link: " + none->why;
      } else if (to_pointer) {
        const auto* property = std::get_if<model::PropertyTarget>(&target->what);
        if (ch.target_written) {
          why = "it has both target and targetpointer";
        } else if (property && property->component) {
          why =
              "it animates one component of a vector, and KHR_animation_pointer animates whole "
              "properties";
        } else if (sampler && (*sampler)->interpolation == Interpolation::kSlerp &&
                   !target->shape.quaternion) {
          why = "SLERP on a value that is not a quaternion has no KHR_animation_pointer equivalent";
        } else {
          plan.member_value =
              "{\"path\": \"pointer\", \"extensions\": {\"KHR_animation_pointer\": {\"pointer\": " +
              gltf::json_string(target->pointer) + "}}}";
          if (sampler && (*sampler)->interpolation == Interpolation::kSlerp) {
            plan.interpolation = "LINEAR";
          }
        }
      } else {
        const auto* property = std::get_if<model::PropertyTarget>(&target->what);
        // A KHR_animation_pointer target is an object (the model read it); a channel with a
        // targetpointer beside it is KHR_animation2's (the model reads that first), so it
        // never comes here.
        const gltf_anim::json::Value& json_target =
            *member(json_channels[static_cast<rapidjson::SizeType>(ch.index)], "target");
        Interpolation mode = Interpolation::kStep;  // an unknown or absent sampler: no change
        if (sampler && (*sampler)->interpolation) mode = *(*sampler)->interpolation;
        const model::AccessorRef* output = sampler ? model::linked((*sampler)->output) : nullptr;
        const bool float_output =
            output && output->accessor->component_type &&
            *output->accessor->component_type == gltf::ComponentType::kFloat &&
            !output->accessor->normalized;
        if (property == nullptr) {
          why = "KHR_animation2 targets Object Model properties, not extras";
        } else if (const std::string extra = pointer_target_extra(json_target); !extra.empty()) {
          why = "its target carries " + extra + ", which a targetpointer has nowhere to keep";
        } else if (target->shape.type == om::ValueType::kFloat4x4) {
          why = "KHR_animation2 does not animate a float4x4";
        } else if (target->shape.quaternion && mode == Interpolation::kCubicSpline) {
          why = "KHR_animation2 has no cubic mode for quaternions (STEP and SLERP only)";
        } else if (!target->shape.quaternion && output && !float_output) {
          why = "KHR_animation2 animates float data only (the output accessor is not FLOAT)";
        } else {
          plan.member_value = gltf::json_string(target->pointer);
          if (target->shape.quaternion && mode == Interpolation::kLinear)
            plan.interpolation = "SLERP";
        }
      }
      if (sampler) plan.sampler = (*sampler)->index;
      report.why = why;
      plan.report = out.channels.size();
      out.channels.push_back(std::move(report));
      if (why.empty()) {
        plan_of[ch.index] = plans.size();
        plans.push_back(std::move(plan));
      }
    }
    // A sampler change only when every user of the sampler makes the same change.
    for (const auto& [s, channels] : users) {
      bool changes = false, all = true;
      std::optional<std::string> mode;
      for (std::size_t c : channels) {
        const auto it = plan_of.find(c);
        if (it == plan_of.end() || !plans[it->second].interpolation) {
          all = false;
          continue;
        }
        changes = true;
        if (mode && *mode != *plans[it->second].interpolation) all = false;
        mode = plans[it->second].interpolation;
      }
      if (!changes || all) continue;
      for (std::size_t c : channels) {
        const auto it = plan_of.find(c);
        if (it == plan_of.end() || !plans[it->second].interpolation) continue;
        out.channels[plans[it->second].report].why =
            "its sampler " + std::to_string(s) +
            " is also used by a channel that keeps its interpolation";
        plans[it->second].member_value.clear();
        plan_of.erase(it);
      }
    }
  }
  std::erase_if(plans, [](const Plan& p) { return p.member_value.empty(); });
  for (ChannelMigration& c : out.channels) {
    c.migrated = c.why.empty();
    if (!c.migrated) source_stays = true;
  }
  if (plans.empty()) return out;
  std::map<std::pair<std::size_t, std::size_t>, std::string> sampler_modes;
  for (const Plan& p : plans) {
    if (p.interpolation && p.sampler) sampler_modes[{p.animation, *p.sampler}] = *p.interpolation;
  }
  // KHR_animation2 also lives in SLERP samplers: one that is not made LINEAR keeps it.
  if (to_pointer) {
    for (const model::Animation& anim : animations.animations) {
      for (const model::Sampler& s : anim.samplers) {
        const bool changed = sampler_modes.contains({anim.index, s.index});
        if (s.interpolation == Interpolation::kSlerp && !changed) source_stays = true;
      }
    }
  }

  // The edits: each channel's old target member out, the new one in; each changed
  // sampler's interpolation; the extension lists.
  const std::string_view old_member = to_pointer ? "targetpointer" : "target";
  const std::string_view new_member = to_pointer ? "target" : "targetpointer";
  for (const Plan& p : plans) {
    const std::string channel = pointer_of("", p.animation, "channels", p.channel);
    edit.remove(channel + "/" + std::string(old_member));
    edit.put_member(channel, std::string(new_member), p.member_value);
    out.channels[p.report].change =
        to_pointer ? "targetpointer -> target.extensions.KHR_animation_pointer.pointer"
                   : "target.extensions.KHR_animation_pointer.pointer -> targetpointer";
  }
  for (const auto& [key, mode] : sampler_modes) {
    edit.put_member(pointer_of("", key.first, "samplers", key.second), "interpolation",
                    gltf::json_string(mode));
  }
  // Each channel's report names its sampler's change: one lookup per plan (not a walk of
  // the plans per changed sampler, quadratic when every channel has its own sampler).
  for (const Plan& p : plans) {
    if (!p.sampler) continue;
    const auto it = sampler_modes.find({p.animation, *p.sampler});
    if (it == sampler_modes.end()) continue;
    const std::string& mode = it->second;
    const std::string was = mode == "LINEAR" ? "SLERP" : "LINEAR";
    out.channels[p.report].change +=
        "; sampler " + std::to_string(*p.sampler) + " " + was + " -> " + mode;
  }
  // extensionsUsed gains the new name; extensionsRequired only where it required the old
  // one. The old name goes when no use of it remains (an emptied list goes with it).
  const std::string_view old_ext = to_pointer ? kAnimation2Ext : kPointerExt;
  const std::string_view new_ext = extension_name(to);
  for (const std::string_view name :
       {std::string_view("extensionsUsed"), std::string_view("extensionsRequired")}) {
    const std::optional<std::vector<std::string>> list = string_list(
        name == "extensionsUsed" ? animations.extensions_used : animations.extensions_required);
    const std::string pointer = "/" + std::string(name);
    const bool has_new = list && std::find(list->begin(), list->end(), new_ext) != list->end();
    const bool has_old = list && std::find(list->begin(), list->end(), old_ext) != list->end();
    const bool add = !has_new && (name == "extensionsUsed" || has_old);
    const bool remove = has_old && !source_stays;
    if (!add && !remove) continue;
    std::vector<std::string> after;
    if (list) {
      for (const std::string& e : *list) {
        if (!(remove && e == old_ext)) after.push_back(e);
      }
    }
    if (add) after.emplace_back(new_ext);
    if (remove && add && list) {  // one name for the other, in its place
      const auto at = std::find(list->begin(), list->end(), old_ext) - list->begin();
      edit.set(pointer + "/" + std::to_string(at), gltf::json_string(new_ext));
    } else if (!remove) {
      edit.append(pointer, gltf::json_string(new_ext));
    } else if (after.empty()) {
      edit.remove(pointer);
    } else {
      std::string text = "[";
      for (std::size_t i = 0; i < after.size(); ++i)
        text += (i ? ", " : "") + gltf::json_string(after[i]);
      edit.set(pointer, text + "]");
    }
    std::string line = std::string(name) + ": ";
    if (add) line += "+ " + std::string(new_ext);
    if (add && remove) line += ", ";
    if (remove) line += "- " + std::string(old_ext) + (after.empty() ? " (the list removed)" : "");
    out.changes.push_back(std::move(line));
  }
  return out;
}

}  // namespace gltf_anim::repair
