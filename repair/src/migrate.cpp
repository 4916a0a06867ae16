// KHR_animation2 <-> KHR_animation_pointer channel migration (migrate.hpp).
#include <gltf_anim/gltf/locator.hpp>
#include <gltf_anim/repair/migrate.hpp>
#include <gltf_anim/text/escape.hpp>
#include <rapidjson/document.h>

#include <algorithm>
#include <map>
#include <utility>

namespace gltf_anim::repair {
namespace {

namespace model = validator::model;
namespace om = validator::object_model;
using reference::Interpolation;

constexpr std::string_view kPointerExt = "KHR_animation_pointer";
constexpr std::string_view kAnimation2Ext = "KHR_animation2";

const rapidjson::Value* member(const rapidjson::Value& obj, std::string_view name) {
  if (!obj.IsObject()) return nullptr;
  const auto it = obj.FindMember(rapidjson::Value(
      rapidjson::StringRef(name.data(), static_cast<rapidjson::SizeType>(name.size()))));
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

std::string_view view(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// The strings of the root's `name` array (non-strings as ""); nullopt when it is absent.
std::optional<std::vector<std::string>> string_list(const rapidjson::Value& doc,
                                                    std::string_view name) {
  const rapidjson::Value* list = member(doc, name);
  if (list == nullptr || !list->IsArray()) return std::nullopt;
  std::vector<std::string> out;
  for (const rapidjson::Value& v : list->GetArray()) out.emplace_back(v.IsString() ? view(v) : "");
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The splice that removes the member or element starting at `begin` and ending at `end`
// with one separating comma: the one after it (and the blanks up to the next entry), or,
// for the last entry, the one before it.
gltf::Splice removal(std::string_view json, std::uint64_t begin, std::uint64_t end) {
  std::uint64_t after = end;
  while (after < json.size() && is_space(json[after])) ++after;
  if (after < json.size() && json[after] == ',') {
    ++after;
    while (after < json.size() && is_space(json[after])) ++after;
    return {begin, after, ""};
  }
  std::uint64_t before = begin;
  while (before > 0 && is_space(json[before - 1])) --before;
  if (before > 0 && json[before - 1] == ',') return {before - 1, end, ""};
  return {begin, end, ""};  // the only entry
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
  std::string member_text;                   // the new target member
};

// Whether the channel's target object holds exactly path "pointer" and the extension's
// pointer (nothing a targetpointer would lose).
std::string pointer_target_extra(const rapidjson::Value& target) {
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

Migration plan_migration(const validator::LoadedAsset& asset,
                         const model::AnimationModel& animations, PointerExtension to) {
  Migration out;
  if (!asset.document || !asset.document->IsObject()) return out;
  const rapidjson::Value& doc = *asset.document;
  const bool to_pointer = to == PointerExtension::kAnimationPointer;
  const model::TargetSource from_source =
      to_pointer ? model::TargetSource::kAnimation2 : model::TargetSource::kAnimationPointer;
  const rapidjson::Value* json_animations = member(doc, "animations");

  std::vector<Plan> plans;
  bool source_stays = false;  // a use of the old extension remains
  for (const model::Animation& anim : animations.animations) {
    const rapidjson::Value& json_anim =
        (*json_animations)[static_cast<rapidjson::SizeType>(anim.index)];
    const rapidjson::Value* json_channels_ptr = member(json_anim, "channels");
    if (json_channels_ptr == nullptr || !json_channels_ptr->IsArray()) continue;
    const rapidjson::Value& json_channels = *json_channels_ptr;
    // Users of each sampler (by glTF index), to keep a sampler change from reaching a
    // channel that stays.
    std::map<std::size_t, std::vector<std::size_t>> users;  // sampler -> channel indices
    for (const model::Channel& ch : anim.channels) {
      if (const auto* s = model::linked(ch.sampler)) users[(*s)->index].push_back(ch.index);
    }
    std::map<std::size_t, std::size_t> plan_of;  // channel index -> plans index
    for (const model::Channel& ch : anim.channels) {
      const rapidjson::Value& json_ch = json_channels[static_cast<rapidjson::SizeType>(ch.index)];
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
        if (member(json_ch, "target") != nullptr) {
          why = "it has both target and targetpointer";
        } else if (property && property->component) {
          why =
              "it animates one component of a vector, and KHR_animation_pointer animates whole "
              "properties";
        } else if (sampler && (*sampler)->interpolation == Interpolation::kSlerp &&
                   !target->shape.quaternion) {
          why = "SLERP on a value that is not a quaternion has no KHR_animation_pointer equivalent";
        } else {
          plan.member_text =
              "\"target\": {\"path\": \"pointer\", \"extensions\": {\"KHR_animation_pointer\": "
              "{\"pointer\": " +
              text::json_string(target->pointer) + "}}}";
          if (sampler && (*sampler)->interpolation == Interpolation::kSlerp) {
            plan.interpolation = "LINEAR";
          }
        }
      } else {
        const auto* property = std::get_if<model::PropertyTarget>(&target->what);
        const rapidjson::Value* json_target = member(json_ch, "target");
        Interpolation mode = Interpolation::kStep;  // an unknown or absent sampler: no change
        if (sampler && (*sampler)->interpolation) mode = *(*sampler)->interpolation;
        const model::AccessorRef* output = sampler ? model::linked((*sampler)->output) : nullptr;
        const bool float_output =
            output && output->accessor->component_type &&
            *output->accessor->component_type == validator::ComponentType::kFloat &&
            !output->accessor->normalized;
        if (property == nullptr) {
          why = "KHR_animation2 targets Object Model properties, not extras";
        } else if (const std::string extra = pointer_target_extra(*json_target); !extra.empty()) {
          why = "its target carries " + extra + ", which a targetpointer has nowhere to keep";
        } else if (member(json_ch, "targetpointer") != nullptr) {
          why = "it has both target and targetpointer";
        } else if (target->shape.type == om::ValueType::kFloat4x4) {
          why = "KHR_animation2 does not animate a float4x4";
        } else if (target->shape.quaternion && mode == Interpolation::kCubicSpline) {
          why = "KHR_animation2 has no cubic mode for quaternions (STEP and SLERP only)";
        } else if (!target->shape.quaternion && output && !float_output) {
          why = "KHR_animation2 animates float data only (the output accessor is not FLOAT)";
        } else {
          plan.member_text = "\"targetpointer\": " + text::json_string(target->pointer);
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
        plans[it->second].member_text.clear();
        plan_of.erase(it);
      }
    }
  }
  std::erase_if(plans, [](const Plan& p) { return p.member_text.empty(); });
  for (ChannelMigration& c : out.channels) {
    c.migrated = c.why.empty();
    if (!c.migrated) source_stays = true;
  }
  if (plans.empty()) return out;

  // What must be located: each channel's old target member, each changed sampler's
  // interpolation (or the sampler, to add one), the extension lists and the document.
  const std::string_view old_member = to_pointer ? "targetpointer" : "target";
  std::vector<std::string> pointers;
  for (const Plan& p : plans)
    pointers.push_back(pointer_of("", p.animation, "channels", p.channel) + "/" +
                       std::string(old_member));
  std::map<std::pair<std::size_t, std::size_t>, std::string> sampler_modes;
  for (const Plan& p : plans) {
    if (p.interpolation && p.sampler) sampler_modes[{p.animation, *p.sampler}] = *p.interpolation;
  }
  const std::size_t first_sampler = pointers.size();
  for (const auto& [key, mode] : sampler_modes) {
    const rapidjson::Value& json_sampler =
        (*member((*json_animations)[static_cast<rapidjson::SizeType>(key.first)],
                 "samplers"))[static_cast<rapidjson::SizeType>(key.second)];
    std::string p = pointer_of("", key.first, "samplers", key.second);
    if (member(json_sampler, "interpolation") != nullptr) p += "/interpolation";
    pointers.push_back(std::move(p));
  }
  // Extension lists: old and new names, per list.
  const std::string_view old_ext = to_pointer ? kAnimation2Ext : kPointerExt;
  const std::string_view new_ext = extension_name(to);
  // KHR_animation2 also lives in SLERP samplers: one that is not made LINEAR keeps it.
  if (to_pointer) {
    for (const model::Animation& anim : animations.animations) {
      for (const model::Sampler& s : anim.samplers) {
        const bool changed = sampler_modes.contains({anim.index, s.index});
        if (s.interpolation == Interpolation::kSlerp && !changed) source_stays = true;
      }
    }
  }
  struct ListEdit {
    std::string_view name;
    std::optional<std::vector<std::string>> list;
    bool add = false;
    std::optional<std::size_t> remove;  // index of the old name
    std::size_t first_pointer = 0;
  };
  const auto used = string_list(doc, "extensionsUsed");
  const auto required = string_list(doc, "extensionsRequired");
  std::vector<ListEdit> lists;
  for (const auto& [name, list] : {std::pair{std::string_view("extensionsUsed"), used},
                                   std::pair{std::string_view("extensionsRequired"), required}}) {
    ListEdit e;
    e.name = name;
    e.list = list;
    const bool has_new = list && std::find(list->begin(), list->end(), new_ext) != list->end();
    const auto old_it = list ? std::find(list->begin(), list->end(), old_ext)
                             : std::vector<std::string>::const_iterator{};
    const bool has_old = list && old_it != list->end();
    // extensionsRequired gains the new name only where it required the old one.
    e.add = !has_new && (name == "extensionsUsed" || has_old);
    if (has_old && !source_stays) e.remove = static_cast<std::size_t>(old_it - list->begin());
    if (!e.add && !e.remove) continue;
    e.first_pointer = pointers.size();
    pointers.push_back("/" + std::string(name));
    if (list) {
      for (std::size_t i = 0; i < list->size(); ++i)
        pointers.push_back("/" + std::string(name) + "/" + std::to_string(i));
    }
    lists.push_back(std::move(e));
  }
  const std::size_t root_pointer = pointers.size();
  pointers.push_back("");

  const std::string_view json = asset.json_text;
  const std::vector<std::optional<gltf::Location>> places = gltf::locate(json, pointers);
  const auto at = [&](std::size_t i) -> const gltf::Location& { return *places[i]; };
  for (const auto& p : places) {
    if (!p) return out;  // the text and the document disagree: change nothing
  }

  for (std::size_t i = 0; i < plans.size(); ++i) {
    const gltf::Location& loc = at(i);
    out.splices.push_back({loc.name->begin.byte, loc.value.end.byte, plans[i].member_text});
    std::string& change = out.channels[plans[i].report].change;
    change = to_pointer ? "targetpointer -> target.extensions.KHR_animation_pointer.pointer"
                        : "target.extensions.KHR_animation_pointer.pointer -> targetpointer";
  }
  std::size_t k = first_sampler;
  for (const auto& [key, mode] : sampler_modes) {
    const gltf::Location& loc = at(k++);
    const std::string value = "\"" + mode + "\"";
    if (loc.name) {  // the interpolation member: its value
      out.splices.push_back({loc.value.begin.byte, loc.value.end.byte, value});
    } else {  // the sampler object, which has input and output: a first member
      out.splices.push_back({loc.value.begin.byte + 1, loc.value.begin.byte + 1,
                             "\"interpolation\": " + value + ", "});
    }
    const std::string was = mode == "LINEAR" ? "SLERP" : "LINEAR";
    for (const Plan& p : plans) {
      if (p.animation == key.first && p.sampler == key.second) {
        out.channels[p.report].change +=
            "; sampler " + std::to_string(key.second) + " " + was + " -> " + mode;
      }
    }
  }
  const std::string quoted_new = text::json_string(new_ext);
  for (const ListEdit& e : lists) {
    const std::size_t size = e.list ? e.list->size() : 0;
    std::string line = std::string(e.name) + ": ";
    if (!e.list) {  // absent: only ever added (extensionsUsed)
      const gltf::Location& root = at(root_pointer);
      out.splices.push_back({root.value.begin.byte + 1, root.value.begin.byte + 1,
                             "\"" + std::string(e.name) + "\": [" + quoted_new + "], "});
      line += "added with " + std::string(new_ext);
    } else if (e.add && e.remove) {
      const gltf::Location& el = at(e.first_pointer + 1 + *e.remove);
      out.splices.push_back({el.value.begin.byte, el.value.end.byte, quoted_new});
      line += std::string(old_ext) + " -> " + std::string(new_ext);
    } else if (e.add) {
      if (size == 0) {
        const gltf::Location& arr = at(e.first_pointer);
        out.splices.push_back({arr.value.begin.byte + 1, arr.value.begin.byte + 1, quoted_new});
      } else {
        const gltf::Location& last = at(e.first_pointer + size);
        out.splices.push_back({last.value.end.byte, last.value.end.byte, ", " + quoted_new});
      }
      line += "+ " + std::string(new_ext);
    } else if (size == 1) {  // the list would be empty, which the schema forbids: drop it
      const gltf::Location& arr = at(e.first_pointer);
      out.splices.push_back(removal(json, arr.name->begin.byte, arr.value.end.byte));
      line += "removed (it listed only " + std::string(old_ext) + ")";
    } else {
      const gltf::Location& el = at(e.first_pointer + 1 + *e.remove);
      out.splices.push_back(removal(json, el.value.begin.byte, el.value.end.byte));
      line += "- " + std::string(old_ext);
    }
    out.changes.push_back(std::move(line));
  }
  std::sort(out.splices.begin(), out.splices.end(),
            [](const gltf::Splice& a, const gltf::Splice& b) { return a.begin < b.begin; });
  return out;
}

}  // namespace gltf_anim::repair
