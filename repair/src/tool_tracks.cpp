// Decoded editable tracks, and handing edited ones back accessor by accessor.
#include <gltf_anim/reference/interpolation.hpp>
#include <gltf_anim/repair/tool.hpp>
#include <gltf_anim/gltf/accessor.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

namespace gltf_anim::repair {
namespace {

namespace vm = gltf::model;

// Data equal bit for bit (a NaN time equals itself: nothing changed).
bool same_bits(std::span<const double> a, std::span<const double> b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// Why an accessor link of a sampler cannot be decoded, or "".
std::string unreadable(const vm::Link<vm::AccessorRef>& link, const char* role) {
  if (std::holds_alternative<vm::Absent>(link))
    return std::string("sampler ") + role + " is missing";
  if (const auto* u = std::get_if<vm::Unresolved>(&link)) {
    return "accessor " + std::to_string(u->index) + " does not exist";
  }
  const vm::AccessorRef& ref = *vm::linked(link);
  return ref.readable() ? "" : "accessor " + std::to_string(ref.index) + " cannot be read";
}

// The track of one sampler of a channel, or the reason it has none.
std::optional<EditableTrack> decode(const gltf::LoadedAsset& asset, const vm::Animation& anim,
                                    const vm::Channel& channel, const vm::Target& target,
                                    const vm::Sampler& sampler, bool sqlerp, std::string& why) {
  if (!sampler.interpolation) {
    why = "unknown interpolation '" + sampler.interpolation_name + "'";
    return std::nullopt;
  }
  for (const auto& [link, role] :
       {std::pair{&sampler.input, "input"}, {&sampler.output, "output"}}) {
    why = unreadable(*link, role);
    if (!why.empty()) return std::nullopt;
  }
  EditableTrack t;
  t.animation = anim.index;
  t.channel = channel.index;
  t.sampler = sampler.index;
  t.sqlerp = sqlerp;
  t.channel_pointer =
      "/animations/" + std::to_string(anim.index) + "/channels/" + std::to_string(channel.index);
  t.sampler_pointer = sqlerp ? t.channel_pointer + "/extensions/EXT_animation_sqlerp/sampler"
                             : "/animations/" + std::to_string(anim.index) + "/samplers/" +
                                   std::to_string(sampler.index);
  t.target = target.pointer;
  t.input = vm::linked(sampler.input)->index;
  t.output = vm::linked(sampler.output)->index;
  t.interpolation = sampler.interpolation_name;
  t.mode = *sampler.interpolation;
  const std::optional<gltf::ElementFormat> format = element_format(asset.accessors[t.output]);
  if (!format) {
    why = "output accessor " + std::to_string(t.output) + " has no format";
    return std::nullopt;
  }
  t.output_format = *format;
  if (!gltf::read_accessor(asset, t.input, t.times) ||
      !gltf::read_accessor(asset, t.output, t.values)) {
    why = "accessor data cannot be read";
    return std::nullopt;
  }
  const std::uint64_t per_key = reference::mode_of(t.mode).outputs_per_key;
  const std::uint64_t keyed = t.times.size() * per_key;
  const std::size_t element = gltf::components_of(format->type);
  const bool rotation = target.shape.quaternion || reference::mode_of(t.mode).rotation_only;
  t.kind = rotation ? reference::ValueKind::kRotation : reference::ValueKind::kVector;
  if (keyed == 0 || t.values.size() % keyed != 0 ||
      asset.accessors[t.input].type != gltf::ElementType::kScalar) {
    why = "the output count is not a multiple of the keys (x " + std::to_string(per_key) + " for " +
          t.interpolation + ")";
    return std::nullopt;
  }
  // Weights and arrays: as many values per key as the output count gives.
  t.components = element == 1 ? t.values.size() / keyed : element;
  if (t.values.size() != keyed * t.components) {
    why = "the output count is not the keys x " + std::to_string(per_key);
    return std::nullopt;
  }
  if (rotation && t.components != 4) {
    why = "rotation output is not VEC4";
    return std::nullopt;
  }
  return t;
}

// One accessor's new contents.
struct Content {
  std::vector<double> data;
  gltf::ElementFormat format;
  bool operator==(const Content& o) const { return format == o.format && same_bits(data, o.data); }
};

}  // namespace

std::vector<EditableTrack> editable_tracks(const gltf::LoadedAsset& asset,
                                           const vm::AnimationModel& model,
                                           std::vector<std::string>* skipped) {
  std::vector<EditableTrack> out;
  auto skip = [skipped](const std::string& at, const std::string& why) {
    if (skipped != nullptr) skipped->push_back(at + ": " + why);
  };
  for (const vm::Animation& anim : model.animations) {
    for (const vm::Channel& channel : anim.channels) {
      const std::string at = "/animations/" + std::to_string(anim.index) + "/channels/" +
                             std::to_string(channel.index);
      const auto* target = std::get_if<vm::Target>(&channel.target);
      if (target == nullptr) {
        skip(at, std::get<vm::Untargeted>(channel.target).why);
        continue;
      }
      if (const auto* node = std::get_if<vm::NodeTarget>(&target->what);
          node != nullptr && !vm::linked(node->node)) {
        skip(at, "no target node");
        continue;
      }
      std::vector<std::pair<const vm::Link<const vm::Sampler*>*, bool>> samplers = {
          {&channel.sampler, false}};
      if (channel.sqlerp_sampler) samplers.emplace_back(&*channel.sqlerp_sampler, true);
      for (const auto& [link, sqlerp] : samplers) {
        // A sqlerp channel may leave out its fallback sampler.
        if (!sqlerp && channel.sqlerp_sampler && std::holds_alternative<vm::Absent>(*link))
          continue;
        const vm::Sampler* const* sampler = vm::linked(*link);
        if (sampler == nullptr) {
          skip(at, std::holds_alternative<vm::Absent>(*link) ? "sampler is missing"
                                                             : "sampler does not exist");
          continue;
        }
        std::string why;
        std::optional<EditableTrack> t =
            decode(asset, anim, channel, *target, **sampler, sqlerp, why);
        if (t) {
          out.push_back(std::move(*t));
        } else {
          skip(at, why);
        }
      }
    }
  }
  return out;
}

bool write_tracks(gltf::Edit& edit, const std::vector<AccessorUse>& uses,
                  std::span<const EditableTrack> before, std::span<const EditableTrack> after,
                  std::string& why) {
  if (before.size() != after.size()) {
    why = "edited tracks do not match the tracks read";
    return false;
  }
  // One entry per sampler; two channels of one sampler must agree.
  std::map<std::string, std::size_t> by_sampler;
  std::vector<std::size_t> samplers;  // indices into before/after
  for (std::size_t k = 0; k < after.size(); ++k) {
    const auto [it, fresh] = by_sampler.emplace(after[k].sampler_pointer, k);
    if (fresh) {
      samplers.push_back(k);
      continue;
    }
    const EditableTrack& a = after[it->second];
    const EditableTrack& b = after[k];
    if (!same_bits(a.times, b.times) || !same_bits(a.values, b.values) ||
        a.interpolation != b.interpolation || !(a.output_format == b.output_format)) {
      why = "two channels of " + b.sampler_pointer + " were edited differently";
      return false;
    }
  }
  // Per accessor: the samplers (and roles) that use it and what they want.
  struct Want {
    std::size_t track;
    bool input;
    Content content;
    bool changed;
  };
  std::map<std::size_t, std::vector<Want>> wants;
  for (const std::size_t k : samplers) {
    const EditableTrack& b = before[k];
    const EditableTrack& a = after[k];
    if (a.input != b.input || a.output != b.output) {
      why = "an edited track names other accessors than the one read";
      return false;
    }
    gltf::ElementFormat time_format{gltf::ComponentType::kFloat, "SCALAR", false};
    wants[a.input].push_back(
        {k, true, Content{a.times, time_format}, !same_bits(a.times, b.times)});
    wants[a.output].push_back(
        {k, false, Content{a.values, a.output_format},
         !same_bits(a.values, b.values) || !(a.output_format == b.output_format)});
    if (a.interpolation != b.interpolation) {
      edit.put_member(a.sampler_pointer, "interpolation", gltf::json_string(a.interpolation));
    }
  }
  for (auto& [accessor, list] : wants) {
    if (std::none_of(list.begin(), list.end(), [](const Want& w) { return w.changed; })) continue;
    const AccessorUse use = accessor < uses.size() ? uses[accessor] : AccessorUse{};
    const bool all_here = !use.elsewhere && use.samplers == list.size();
    const Content& first = list[0].content;
    const bool agree = std::all_of(list.begin(), list.end(),
                                   [&first](const Want& w) { return w.content == first; });
    if (all_here && agree) {
      // Every user asked for the same contents: the accessor itself changes.
      const Content& c = list[0].content;
      const std::size_t per = gltf::components_of(c.format.type);
      std::string ignored;
      const gltf::SourceAccessor* now = edit.accessor(accessor);
      const bool same_shape = now != nullptr && per != 0 && c.data.size() / per == now->count &&
                              c.format == now->format;
      if (!(same_shape && edit.overwrite_accessor(accessor, c.data, ignored)) &&
          !edit.replace_accessor(accessor, c.data, c.format, why)) {
        return false;
      }
      continue;
    }
    // Every user changed it, differently (a reduced time accessor and the one
    // key of a channel that collapsed): the first contents take the accessor
    // itself, so its old bytes lose their last user and compaction drops them.
    const Content* in_place = nullptr;
    if (all_here && std::all_of(list.begin(), list.end(), [](const Want& w) { return w.changed; })) {
      if (!edit.replace_accessor(accessor, list[0].content.data, list[0].content.format, why)) {
        return false;
      }
      in_place = &list[0].content;
    }
    // Otherwise something else keeps the accessor as it is: the samplers that
    // want other contents get new accessors (one per distinct contents).
    std::vector<std::pair<const Content*, std::size_t>> made;
    for (const Want& w : list) {
      if (!w.changed || (in_place && w.content == *in_place)) continue;
      std::optional<std::size_t> index;
      for (const auto& [content, i] : made) {
        if (*content == w.content) index = i;
      }
      if (!index) {
        index = edit.add_accessor(w.content.data, w.content.format, why);
        if (!index) return false;
        made.emplace_back(&w.content, *index);
      }
      edit.put_member(after[w.track].sampler_pointer, w.input ? "input" : "output",
                      std::to_string(*index));
    }
  }
  return true;
}

}  // namespace gltf_anim::repair
