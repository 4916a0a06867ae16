// The edit session's view of a loaded asset, and who uses each accessor: decided from the
// animation model (what it read of the document), never from the JSON again. The one walk of
// the JSON here, relative_uris, lists the files a written asset takes along.
#include <gltf_anim/repair/tool.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/document.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace gltf_anim::repair {
namespace {

using Value = gltf_anim::json::Value;

// A glTF index as a size_t: one past SIZE_MAX (32-bit in the WebAssembly
// build) names no object either way.
std::size_t as_index(std::uint64_t v) {
  return v > std::numeric_limits<std::size_t>::max() ? std::numeric_limits<std::size_t>::max()
                                                     : static_cast<std::size_t>(v);
}

}  // namespace

const std::vector<std::string_view> kCompactionSafeExtensions = {
    "EXT_animation_sqlerp",
    "EXT_lights_image_based",
    "EXT_mesh_gpu_instancing",
    "EXT_texture_avif",
    "EXT_texture_webp",
    "KHR_accessor_float16",
    "KHR_accessor_float64",
    "KHR_animation2",
    "KHR_animation_pointer",
    "KHR_draco_mesh_compression",
    "KHR_lights_punctual",
    "KHR_materials_anisotropy",
    "KHR_materials_clearcoat",
    "KHR_materials_diffuse_transmission",
    "KHR_materials_dispersion",
    "KHR_materials_emissive_strength",
    "KHR_materials_ior",
    "KHR_materials_iridescence",
    "KHR_materials_pbrSpecularGlossiness",
    "KHR_materials_sheen",
    "KHR_materials_specular",
    "KHR_materials_transmission",
    "KHR_materials_unlit",
    "KHR_materials_variants",
    "KHR_materials_volume",
    "KHR_mesh_quantization",
    "KHR_node_hoverability",
    "KHR_node_selectability",
    "KHR_node_visibility",
    "KHR_texture_basisu",
    "KHR_texture_transform",
    "KHR_xmp_json_ld",
};

std::optional<gltf::ElementFormat> element_format(const gltf::Accessor& accessor) {
  if (!accessor.component_type || !accessor.type) return std::nullopt;
  return gltf::ElementFormat{*accessor.component_type, *accessor.type, accessor.normalized};
}

gltf::Source edit_source(const gltf::LoadedAsset& asset) {
  return edit_source(asset, gltf::model::build_animation_model(asset));
}

gltf::Source edit_source(const gltf::LoadedAsset& asset, const gltf::model::AnimationModel& model) {
  gltf::Source s;
  s.container = asset.mime_type == gltf::MimeType::kGltfBinary ? gltf::Container::kGlb
                                                               : gltf::Container::kGltf;
  s.file_bytes = asset.file_bytes;
  s.json_text = asset.json_text;
  s.json_offset = asset.json_offset;
  for (std::size_t b = 0; b < asset.buffers.size(); ++b) {
    gltf::SourceBuffer buffer;
    buffer.uri = asset.buffers[b].uri;
    // A meshopt fallback buffer must only be read through compressed bufferViews: it never
    // receives new data (its bytes count as not loaded).
    if (b < asset.buffer_data.size() && !asset.buffers[b].meshopt_fallback)
      buffer.bytes = asset.buffer_data[b];
    s.buffers.push_back(std::move(buffer));
  }
  for (std::size_t v = 0; v < asset.buffer_views.size(); ++v) {
    const gltf::BufferView& bv = asset.buffer_views[v];
    gltf::SourceBufferView view;
    view.buffer = as_index(bv.buffer.value_or(0));
    view.byte_offset = bv.byte_offset;
    view.byte_length = bv.byte_length.value_or(0);
    view.byte_stride = bv.byte_stride;
    view.readable = v < asset.buffer_view_status.size() &&
                    asset.buffer_view_status[v] == gltf::DataStatus::kReadable;
    // A compressed bufferView's bytes are decoded from elsewhere: overwriting its fallback
    // range would change nothing a meshopt loader reads, so its accessors get new bufferViews
    // instead, and its range is never moved.
    view.used_elsewhere = bv.meshopt.has_value();
    s.buffer_views.push_back(view);
  }
  for (std::size_t i = 0; i < asset.accessors.size(); ++i) {
    const gltf::Accessor& a = asset.accessors[i];
    gltf::SourceAccessor accessor;
    if (a.buffer_view) accessor.buffer_view = as_index(*a.buffer_view);
    accessor.byte_offset = a.byte_offset;
    accessor.count = a.count.value_or(0);
    const std::optional<gltf::ElementFormat> format = element_format(a);
    if (format) accessor.format = *format;
    if (a.sparse) {
      accessor.sparse_views = {as_index(a.sparse->indices_buffer_view),
                               as_index(a.sparse->values_buffer_view)};
    }
    accessor.readable = format.has_value() && i < asset.accessor_status.size() &&
                        asset.accessor_status[i] == gltf::DataStatus::kReadable;
    s.accessors.push_back(std::move(accessor));
  }
  // Who else names a bufferView, and the extensions used: the model's (what it read of the
  // document), not the JSON again.
  auto mark_view = [&s](std::uint64_t v) {
    if (v < s.buffer_views.size()) s.buffer_views[as_index(v)].used_elsewhere = true;
  };
  for (const std::uint64_t v : model.image_buffer_views) mark_view(v);
  for (const gltf::model::Primitive& p : model.primitives) {
    if (p.draco_buffer_view) mark_view(*p.draco_buffer_view);
  }
  // Unknown extensions (and a document that is not an object) keep every byte in place.
  std::vector<std::string> unknown;
  if (model.extensions_used) {
    for (const std::optional<std::string>& name : *model.extensions_used) {
      if (!name) continue;
      if (std::find(kCompactionSafeExtensions.begin(), kCompactionSafeExtensions.end(), *name) ==
          kCompactionSafeExtensions.end()) {
        unknown.push_back(*name);
      }
    }
  }
  if (!unknown.empty()) {
    std::string list;
    for (const std::string& n : unknown) list += (list.empty() ? "" : ", ") + n;
    s.compaction_blocked = "the asset uses " + list +
                           ", which may name buffer bytes directly: no byte was moved, unused "
                           "bytes stay in the buffer";
  }
  return s;
}

std::vector<std::string> relative_uris(const gltf::LoadedAsset& asset, bool buffers) {
  // Every string member "uri" at any depth: images and buffers, and whatever an extension
  // names a file with (KHR_audio's sources, ...), known to us or not. An explicit stack:
  // no recursion whatever the nesting.
  std::vector<std::string> uris;
  std::vector<const Value*> stack;
  const Value* root = asset.document ? static_cast<const Value*>(asset.document.get()) : nullptr;
  if (root != nullptr && root->IsObject()) {
    for (const auto& m : root->GetObject()) {
      const std::string_view name(m.name.GetString(), m.name.GetStringLength());
      if (name == "buffers" && !buffers && m.value.IsArray()) {
        // A buffer's own uri left out; what its extensions or extras name kept.
        for (const Value& b : m.value.GetArray()) {
          if (!b.IsObject()) continue;
          for (const auto& bm : b.GetObject()) {
            if (bm.value.IsObject() || bm.value.IsArray()) stack.push_back(&bm.value);
          }
        }
      } else if (m.value.IsObject() || m.value.IsArray()) {
        stack.push_back(&m.value);
      }
    }
  }
  while (!stack.empty()) {
    const Value* v = stack.back();
    stack.pop_back();
    if (v->IsArray()) {
      for (const Value& e : v->GetArray()) {
        if (e.IsObject() || e.IsArray()) stack.push_back(&e);
      }
    } else if (v->IsObject()) {
      for (const auto& m : v->GetObject()) {
        const std::string_view name(m.name.GetString(), m.name.GetStringLength());
        if (name == "uri" && m.value.IsString()) {
          const std::string_view u(m.value.GetString(), m.value.GetStringLength());
          if (u.substr(0, 5) != "data:") uris.emplace_back(u);
        } else if (m.value.IsObject() || m.value.IsArray()) {
          stack.push_back(&m.value);
        }
      }
    }
  }
  return uris;
}

bool names_relative_files(const gltf::LoadedAsset& asset) {
  return !relative_uris(asset, false).empty();
}

std::vector<AccessorUse> accessor_uses(const gltf::LoadedAsset& asset,
                                       const gltf::model::AnimationModel& model) {
  std::vector<AccessorUse> uses(asset.accessors.size());
  auto other = [&uses](std::uint64_t i) {
    if (i < uses.size()) uses[as_index(i)].elsewhere = true;
  };
  // The samplers' links are the model's (an EXT_animation_sqlerp sampler is one of its
  // animation's samplers, counted there).
  auto by_sampler = [&uses](const gltf::model::Link<gltf::model::AccessorRef>& link) {
    const gltf::model::AccessorRef* a = gltf::model::linked(link);
    if (a != nullptr && a->index < uses.size()) ++uses[a->index].samplers;
  };
  for (const gltf::model::Animation& animation : model.animations) {
    for (const gltf::model::Sampler& sampler : animation.samplers) {
      by_sampler(sampler.input);
      by_sampler(sampler.output);
    }
  }
  for (const gltf::model::Primitive& p : model.primitives) {
    for (const std::uint64_t a : p.accessors) other(a);
  }
  for (const std::uint64_t a : model.skin_matrices) other(a);
  for (const gltf::model::Instancing& i : model.instancing) {
    for (const std::uint64_t a : i.attributes) other(a);
  }
  return uses;
}

std::uint64_t accessor_bytes(const gltf::LoadedAsset& asset, std::size_t accessor) {
  if (accessor >= asset.accessors.size()) return 0;
  const gltf::Accessor& a = asset.accessors[accessor];
  if (!a.component_type || !a.type || !a.count) return 0;
  std::uint64_t bytes =
      a.buffer_view ? *a.count * gltf::element_size(*a.component_type, *a.type) : 0;
  if (a.sparse) {
    bytes += a.sparse->count * (gltf::component_size(a.sparse->indices_component_type) +
                                gltf::element_size(*a.component_type, *a.type));
  }
  return bytes;
}

std::string non_finite_keys(const EditableTrack& track) {
  const auto what = [](double v) { return std::isnan(v) ? "NaN" : "infinite"; };
  const std::string times_at = " (accessor " + std::to_string(track.input) + ")";
  std::size_t finite = 0, nan = 0;
  for (const double t : track.keys.times) {
    finite += std::isfinite(t) ? 1 : 0;
    nan += std::isnan(t) ? 1 : 0;
  }
  if (!track.keys.times.empty() && finite == 0) {
    return (nan == track.keys.times.size() ? "its times are all NaN"
                                           : "none of its times is finite") +
           times_at;
  }
  for (std::size_t k = 0; k < track.keys.times.size(); ++k) {
    if (!std::isfinite(track.keys.times[k]))
      return "its time at key " + std::to_string(k) + " is " + what(track.keys.times[k]) + times_at;
  }
  const std::size_t per_key =
      track.keys.times.empty() ? 0 : track.keys.values.size() / track.keys.times.size();
  for (std::size_t i = 0; i < track.keys.values.size(); ++i) {
    if (!std::isfinite(track.keys.values[i])) {
      return "its value at key " + std::to_string(per_key ? i / per_key : 0) + " is " +
             what(track.keys.values[i]) + " (accessor " + std::to_string(track.output) + ")";
    }
  }
  return "";
}

std::uint64_t TimeBytes::before(const EditableTrack& track, std::vector<std::string>& notes) {
  const auto [it, first] = before_.emplace(track.input, track.channel_pointer);
  if (first) return accessor_bytes(asset_, track.input);
  notes.push_back("its times (accessor " + std::to_string(track.input) + ") are " + it->second +
                  "'s too, counted in that channel's bytes");
  return 0;
}

bool TimeBytes::counted_here(const EditableTrack& track) const {
  const auto it = before_.find(track.input);
  return it != before_.end() && it->second == track.channel_pointer;
}

std::uint64_t TimeBytes::after(const EditableTrack& track, std::span<const double> times,
                               std::optional<std::size_t> key, std::uint64_t bytes,
                               std::vector<std::string>& notes) {
  std::vector<std::uint64_t> bits(times.size());
  if (!times.empty()) std::memcpy(bits.data(), times.data(), times.size() * sizeof(double));
  const auto [it, first] =
      after_.emplace(std::make_pair(key, std::move(bits)), track.channel_pointer);
  if (first) return bytes;
  // Counted in the same channel as before the edit: the note before says it already.
  const auto counted_before = before_.find(track.input);
  if (counted_before == before_.end() || counted_before->second != it->second ||
      counted_before->second == track.channel_pointer) {
    notes.push_back("after the edit its times are " + it->second +
                    "'s too, counted in that channel's bytes");
  }
  return 0;
}

}  // namespace gltf_anim::repair
