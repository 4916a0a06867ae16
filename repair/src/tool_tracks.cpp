// Decoded editable tracks, and handing edited ones back accessor by accessor.
#include <gltf_anim/reference/interpolation.hpp>
#include <gltf_anim/repair/tool.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/sampler_keys.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
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

// At least this many decoded values (times and values) for all tracks together, and at most
// one for each byte the asset stores beyond that: channels sharing an accessor each decode it,
// so without a bound a small file naming one large accessor from thousands of channels would
// ask for gigabytes.
constexpr std::uint64_t kMinDecodedValues = std::uint64_t{1} << 26;

std::uint64_t stored_bytes(const gltf::LoadedAsset& asset) {
  std::uint64_t n = asset.file_bytes.size();
  for (const auto& data : asset.buffer_data) {
    if (data) n += data->size();
  }
  return n;
}

// The track of one sampler of a channel (the sampler's decoding: gltf/sampler_keys.hpp), or the
// reason it has none; `needed` is set when only the bound `max_values` refused it.
std::optional<EditableTrack> decode(const gltf::LoadedAsset& asset, const vm::Animation& anim,
                                    const vm::Channel& channel, const vm::Target& target,
                                    const vm::Sampler& sampler, bool sqlerp,
                                    std::uint64_t max_values, std::string& why,
                                    std::uint64_t& needed) {
  gltf::DecodedKeys decoded = gltf::decode_keys(asset, target, sampler, max_values);
  if (!decoded.keys) {
    why = decoded.why;
    needed = decoded.needed;
    return std::nullopt;
  }
  gltf::SamplerKeys& keys = *decoded.keys;
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
  t.decoded_target = &target;
  t.decoded_sampler = &sampler;
  t.input = keys.input;
  t.output = keys.output;
  t.interpolation = sampler.interpolation_name;
  t.keys = std::move(keys.keys);
  t.key_count = t.keys.times.size();
  const std::optional<gltf::ElementFormat> format = element_format(asset.accessors[t.output]);
  if (!format) {
    why = "output accessor " + std::to_string(t.output) + " has no format";
    return std::nullopt;
  }
  t.output_format = *format;
  // The tools read every key's values (and tangents): the output holds exactly that many.
  const std::uint64_t per_key = reference::mode_of(t.keys.interpolation).outputs_per_key;
  if (t.keys.times.empty() ||
      t.keys.values.size() != t.keys.times.size() * per_key * t.keys.components) {
    why = "the output count is not the keys x " + std::to_string(per_key) + " (" + t.interpolation +
          ") x " + std::to_string(t.keys.components) + " components";
    return std::nullopt;
  }
  return t;
}

// One accessor's new contents: a view of the edited track's keys, which outlive
// write_tracks (a copy would hold every channel of the asset once more).
struct Content {
  std::span<const double> data;
  gltf::ElementFormat format;
  bool operator==(const Content& o) const { return format == o.format && same_bits(data, o.data); }
};

// An order of contents (format, then data bit for bit), for finding equal ones.
bool less(const Content& x, const Content& y) {
  const auto key = [](const Content& c) {
    return std::tie(c.format.component_type, c.format.type, c.format.normalized);
  };
  if (key(x) != key(y)) return key(x) < key(y);
  if (x.data.size() != y.data.size()) return x.data.size() < y.data.size();
  return !x.data.empty() &&
         std::memcmp(x.data.data(), y.data.data(), x.data.size() * sizeof(double)) < 0;
}

}  // namespace

std::vector<EditableTrack> editable_tracks(const gltf::LoadedAsset& asset,
                                           const vm::AnimationModel& model,
                                           std::vector<std::string>* skipped,
                                           std::string* refused, bool keep_keys) {
  std::vector<EditableTrack> out;
  auto skip = [skipped](const std::string& at, const std::string& why) {
    if (skipped != nullptr) skipped->push_back(at + ": " + why);
  };
  const std::uint64_t budget = std::max(kMinDecodedValues, stored_bytes(asset));
  std::uint64_t used = 0;
  // The track decoded for a sampler, by what decoding reads of a channel's target (its
  // shape and kind of target): a channel of that sampler with the same joins it.
  using Reading = std::tuple<std::size_t, std::size_t, std::optional<gltf::object_model::ValueType>,
                             std::optional<std::uint64_t>, bool, bool, std::size_t, int>;
  std::map<Reading, std::size_t> decoded;
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
        std::optional<Reading> reading;
        if (!sqlerp) {
          const auto* extras = std::get_if<vm::ExtrasTarget>(&target->what);
          reading = Reading{anim.index,
                            (*sampler)->index,
                            target->shape.type,
                            target->shape.width,
                            target->shape.quaternion,
                            target->shape.step_only,
                            target->what.index(),
                            extras != nullptr ? static_cast<int>(extras->value) : -1};
          if (const auto it = decoded.find(*reading); it != decoded.end()) {
            out[it->second].shared.push_back({channel.index, at, target->pointer});
            continue;
          }
        }
        std::string why;
        std::uint64_t needed = 0;
        std::optional<EditableTrack> t =
            decode(asset, anim, channel, *target, **sampler, sqlerp,
                   std::max<std::uint64_t>(1, budget - used), why, needed);
        if (t) {
          used += t->keys.times.size() + t->keys.values.size();
          if (!keep_keys) release_keys(*t, nullptr);
          if (reading) decoded.emplace(*reading, out.size());
          out.push_back(std::move(*t));
        } else if (needed != 0 && refused != nullptr) {
          // A declared count past 2^64 values saturates.
          const std::string count = needed == std::numeric_limits<std::uint64_t>::max()
                                        ? "more than " + std::to_string(needed)
                                        : std::to_string(needed);
          *refused = at + ": its keys need " + count + " values, and the channels " +
                     "before it " + std::to_string(used) + ": more than the " + std::to_string(budget) +
                     " decoded values an asset of " + std::to_string(stored_bytes(asset)) +
                     " stored bytes may ask for (channels sharing an accessor decode it each)";
          return {};
        } else {
          skip(at, why);
        }
      }
    }
  }
  return out;
}

bool decode_keys(const gltf::LoadedAsset& asset, EditableTrack& track) {
  if (track.keys_held) return true;
  if (track.decoded_target == nullptr || track.decoded_sampler == nullptr) return false;
  // Checked against the bound when listed: decoded again as it was then.
  gltf::DecodedKeys decoded = gltf::decode_keys(asset, *track.decoded_target,
                                                *track.decoded_sampler,
                                                std::numeric_limits<std::uint64_t>::max());
  if (!decoded.keys) return false;
  track.keys.times = std::move(decoded.keys->keys.times);
  track.keys.values = std::move(decoded.keys->keys.values);
  track.keys_held = true;
  track.released.reset();
  return true;
}

void release_keys(EditableTrack& track, const EditableTrack* after) {
  if (!track.keys_held) return;
  EditableTrack::Released r;
  if (after != nullptr && after != &track) {
    r.times_changed = !same_bits(after->keys.times, track.keys.times);
    r.values_changed = !same_bits(after->keys.values, track.keys.values);
  }
  track.released = r;
  // Swapped with empty vectors: clear() would keep the capacity.
  std::vector<double>().swap(track.keys.times);
  std::vector<double>().swap(track.keys.values);
  track.keys_held = false;
}

void add_summaries(std::vector<ChannelSummary>& out, const EditableTrack& track,
                   ChannelSummary summary) {
  for (const EditableTrack::SharedChannel& c : track.shared) {
    ChannelSummary copy = summary;
    copy.channel = c.channel_pointer;
    copy.target = c.target;
    copy.notes.push_back("its sampler is " + track.channel_pointer +
                         "'s, read and edited once for all of its channels");
    out.push_back(std::move(copy));
  }
  out.insert(out.end() - static_cast<std::ptrdiff_t>(track.shared.size()), std::move(summary));
}

bool write_tracks(gltf::Edit& edit, const std::vector<AccessorUse>& uses,
                  std::span<const EditableTrack> before, std::span<const EditableTrack> after,
                  std::string& why, EqualAccessors equal) {
  std::vector<const EditableTrack*> edited(after.size());
  for (std::size_t k = 0; k < after.size(); ++k) edited[k] = &after[k];
  return write_tracks(edit, uses, before, edited, why, equal);
}

bool write_tracks(gltf::Edit& edit, const std::vector<AccessorUse>& uses,
                  std::span<const EditableTrack> before,
                  std::span<const EditableTrack* const> edited, std::string& why,
                  EqualAccessors equal) {
  const auto after = [&edited](std::size_t k) -> const EditableTrack& { return *edited[k]; };
  if (before.size() != edited.size()) {
    why = "edited tracks do not match the tracks read";
    return false;
  }
  // One entry per sampler; two channels of one sampler must agree.
  std::map<std::string, std::size_t> by_sampler;
  std::vector<std::size_t> samplers;  // indices into before/after
  for (std::size_t k = 0; k < edited.size(); ++k) {
    const auto [it, fresh] = by_sampler.emplace(after(k).sampler_pointer, k);
    if (fresh) {
      samplers.push_back(k);
      continue;
    }
    const EditableTrack& a = after(it->second);
    const EditableTrack& b = after(k);
    // A track left as it was and released is its keys as read: two such agree, and
    // agree with no edited one (which differs from them).
    if (!a.keys_held || !b.keys_held) {
      const bool a_same = edited[it->second] == &before[it->second];
      const bool b_same = edited[k] == &before[k];
      if (a_same && b_same && a.interpolation == b.interpolation &&
          a.output_format == b.output_format)
        continue;
      why = "two channels of " + b.sampler_pointer + " were edited differently";
      return false;
    }
    if (!same_bits(a.keys.times, b.keys.times) || !same_bits(a.keys.values, b.keys.values) ||
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
    std::size_t home = 0;  // the accessor the sampler names after the edit
  };
  std::map<std::size_t, std::vector<Want>> wants;
  for (const std::size_t k : samplers) {
    const EditableTrack& b = before[k];
    const EditableTrack& a = after(k);
    if (a.input != b.input || a.output != b.output) {
      why = "an edited track names other accessors than the one read";
      return false;
    }
    gltf::ElementFormat time_format{gltf::ComponentType::kFloat, gltf::ElementType::kScalar, false};
    // Keys released by the tool: what it recorded of the difference when it dropped them.
    const bool times_changed = b.keys_held ? !same_bits(a.keys.times, b.keys.times)
                                           : &a != &b && b.released && b.released->times_changed;
    const bool values_changed = b.keys_held ? !same_bits(a.keys.values, b.keys.values)
                                            : &a != &b && b.released && b.released->values_changed;
    if (&a != &b && !a.keys_held) {
      why = "an edited track holds no keys";
      return false;
    }
    wants[a.input].push_back({k, true, Content{a.keys.times, time_format}, times_changed, a.input});
    wants[a.output].push_back({k, false, Content{a.keys.values, a.output_format},
                               values_changed || !(a.output_format == b.output_format),
                               a.output});
    if (a.interpolation != b.interpolation) {
      edit.put_member(a.sampler_pointer, "interpolation", gltf::json_string(a.interpolation));
    }
  }
  // Where each contents is held. An accessor only samplers read, all of them here (`own`),
  // holds the contents its users want: what its unchanged users see, else the first
  // user's. Other contents get a new accessor each. With EqualAccessors::kMerge one
  // accessor holds each distinct contents (the first to want it, in index order): the
  // samplers wanting it name that one, and an accessor of ours left without users reads
  // the same bytes (Edit::share_accessor), so its own are dropped. An accessor something
  // else reads (a mesh, a sampler not here) keeps its contents and is never a holder.
  struct Holder {
    std::size_t accessor;
    const Content* content;
    bool changed;                        // differs from what the accessor holds now
    bool source;                         // one of the input's accessors (not added)
    std::vector<std::size_t> followers;  // accessors of ours left without users
  };
  std::vector<Holder> holders;
  // Times and values apart: an accessor read as both would mix two usages.
  using ByContent = std::map<const Content*, std::size_t, bool (*)(const Content*, const Content*)>;
  const auto by_content = [](const Content* x, const Content* y) { return less(*x, *y); };
  ByContent held[2] = {ByContent(by_content), ByContent(by_content)};
  const bool merge = equal == EqualAccessors::kMerge;
  auto find_held = [&](const Content& c, bool input) -> std::optional<std::size_t> {
    if (merge) {
      const auto it = held[input].find(&c);
      if (it != held[input].end()) return it->second;
    }
    return std::nullopt;
  };
  auto hold = [&](std::size_t accessor, const Content& c, bool input, bool changed, bool source) {
    holders.push_back({accessor, &c, changed, source, {}});
    held[input].emplace(&c, holders.size() - 1);
    return holders.size() - 1;
  };
  std::size_t next_new = edit.accessor_count();
  for (auto& [accessor, list] : wants) {
    const bool any_changed =
        std::any_of(list.begin(), list.end(), [](const Want& w) { return w.changed; });
    if (!any_changed && !merge) continue;
    const AccessorUse use = accessor < uses.size() ? uses[accessor] : AccessorUse{};
    const bool own = !use.elsewhere && use.samplers == list.size();
    if (!own && !any_changed) continue;
    // The contents that stay in this accessor: its unchanged users', else the first's.
    const Content* stays = nullptr;
    bool stays_changed = false, stays_input = false;
    if (own) {
      const auto keep =
          std::find_if(list.begin(), list.end(), [](const Want& w) { return !w.changed; });
      stays = keep != list.end() ? &keep->content : &list[0].content;
      stays_changed = keep == list.end();
      stays_input = keep != list.end() ? keep->input : list[0].input;
      if (const std::optional<std::size_t> h = find_held(*stays, stays_input)) {
        holders[*h].followers.push_back(accessor);
        stays = nullptr;  // its users name the holder
      }
    }
    ByContent here(by_content);
    for (Want& w : list) {
      if (!w.changed && !own) continue;  // something else keeps it as it is
      if (stays != nullptr && w.content == *stays) {
        const auto it = here.find(&w.content);
        if (it == here.end()) {
          here.emplace(&w.content, hold(accessor, w.content, stays_input, stays_changed, true));
        }
        w.home = accessor;
        continue;
      }
      std::optional<std::size_t> h;
      if (const auto it = here.find(&w.content); it != here.end()) h = it->second;
      if (!h) h = find_held(w.content, w.input);
      if (!h) {
        h = hold(next_new++, w.content, w.input, true, false);
        here.emplace(&w.content, *h);
      }
      w.home = holders[*h].accessor;
    }
  }
  // The data: a holder that others read gets a bufferView of its own (share_accessor
  // reads only those); one changed is overwritten in place where its shape allows.
  for (const Holder& h : holders) {
    const Content& c = *h.content;
    if (!h.source) {
      const std::optional<std::size_t> index = edit.add_accessor(c.data, c.format, why);
      if (!index) return false;
      if (*index != h.accessor) {
        why = "accessors were added out of order";
        return false;
      }
    } else if (!h.followers.empty()) {
      if (!edit.replace_accessor(h.accessor, c.data, c.format, why)) return false;
    } else if (h.changed) {
      const std::size_t per = gltf::component_count(c.format.type);
      std::string ignored;
      const gltf::SourceAccessor* now = edit.accessor(h.accessor);
      const bool same_shape = now != nullptr && per != 0 && c.data.size() / per == now->count &&
                              c.format == now->format;
      if (!(same_shape && edit.overwrite_accessor(h.accessor, c.data, ignored)) &&
          !edit.replace_accessor(h.accessor, c.data, c.format, why)) {
        return false;
      }
    }
    for (const std::size_t f : h.followers) {
      if (!edit.share_accessor(f, h.accessor, why)) return false;
    }
  }
  for (const auto& [accessor, list] : wants) {
    for (const Want& w : list) {
      if (w.home != accessor) {
        edit.put_member(after(w.track).sampler_pointer, w.input ? "input" : "output",
                        std::to_string(w.home));
      }
    }
  }
  return true;
}

}  // namespace gltf_anim::repair
