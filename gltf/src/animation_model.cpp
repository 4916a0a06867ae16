// build_animation_model: each animation's samplers first (so channels can
// point at them), then its channels and their targets. Tolerant of any JSON
// shape: the schema phase has reported wrong types, so a member of the wrong
// type is simply absent here.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/text/utf8.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/object_model.hpp>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include <gltf_anim/gltf/json_access.hpp>

namespace gltf_anim::gltf::model {
namespace {

namespace om = object_model;
using json_access::array_member;
using json_access::array_size;
using json_access::index_member;
using json_access::member;
using json_access::object_at;
using json_access::string_member;

Link<AccessorRef> link_accessor(const LoadedAsset& asset, const gltf_anim::json::Value& sampler,
                                std::string_view name) {
  const auto index = index_member(sampler, name);
  if (!index) return Absent{};
  if (*index >= asset.accessors.size()) return Unresolved{*index};
  const auto i = static_cast<std::size_t>(*index);
  const DataStatus status =
      i < asset.accessor_status.size() ? asset.accessor_status[i] : DataStatus::kMalformed;
  return AccessorRef{i, &asset.accessors[i], status};
}

Sampler read_sampler(const LoadedAsset& asset, const gltf_anim::json::Value& json,
                     std::size_t index) {
  Sampler s;
  s.index = index;
  if (const gltf_anim::json::Value* interp = member(json, "interpolation")) {
    s.interpolation_name =
        interp->IsString() ? std::string(interp->GetString(), interp->GetStringLength()) : "";
    s.interpolation_mistyped = !interp->IsString();
  }
  s.interpolation = reference::parse_interpolation(s.interpolation_name);
  s.input = link_accessor(asset, json, "input");
  s.output = link_accessor(asset, json, "output");
  return s;
}

// Samplers by glTF index (nullptr for a slot that is not an object).
Link<const Sampler*> link_sampler(const gltf_anim::json::Value& obj,
                                  const std::vector<const Sampler*>& by_index) {
  const auto index = index_member(obj, "sampler");
  if (!index) return Absent{};
  if (*index >= by_index.size() || by_index[static_cast<std::size_t>(*index)] == nullptr)
    return Unresolved{*index};
  return by_index[static_cast<std::size_t>(*index)];
}

std::optional<NodePath> node_path(std::string_view p) {
  if (p == "translation") return NodePath::kTranslation;
  if (p == "rotation") return NodePath::kRotation;
  if (p == "scale") return NodePath::kScale;
  if (p == "weights") return NodePath::kWeights;
  return std::nullopt;
}

Untargeted untargeted(TargetSource source, NoTarget reason, std::string why) {
  return Untargeted{source, reason, std::move(why)};
}

// A pointer quoted in a reason: cut, so that a channel's message stays a line
// however long the pointer (the JSON holds it whole).
std::string quoted(std::string_view pointer) {
  constexpr std::size_t kMaxQuoted = 256;
  return "'" + text::truncate_utf8(pointer, kMaxQuoted) + "'";
}

Target property_target(TargetSource source, std::string pointer, const gltf_anim::json::Value& doc,
                       om::Match m, std::optional<std::uint64_t> component) {
  Target t;
  t.source = source;
  t.pointer = std::move(pointer);
  PropertyTarget p{std::move(m), {}, component};
  p.resolved = om::resolve(doc, p.match);
  t.shape = shape_of(*p.match.property, p.resolved, component);
  t.what = std::move(p);
  return t;
}

// A core target: node + path, through the Object Model row /nodes/{}/<path>.
std::variant<Untargeted, Target> core_target(const gltf_anim::json::Value& doc,
                                             const gltf_anim::json::Value& target) {
  constexpr TargetSource kSource = TargetSource::kCore;
  const auto path_text = string_member(target, "path");
  if (!path_text) return untargeted(kSource, NoTarget::kNoPath, "target.path is missing");
  const auto path = node_path(*path_text);
  if (!path)
    return untargeted(kSource, NoTarget::kUnknownPath,
                      "target.path " + quoted(*path_text) + " is not a core path");
  NodeTarget what{Absent{}, *path, member(target, "node") != nullptr};
  const auto node = index_member(target, "node");
  const gltf_anim::json::Value* json =
      node ? object_at(array_member(doc, "nodes"), *node) : nullptr;
  if (node && json == nullptr) what.node = Unresolved{*node};
  if (json != nullptr)
    what.node =
        NodeRef{*node, member(*json, "matrix") != nullptr, member(*json, "skin") != nullptr};
  // The template's row; without a linked node, its type alone (nothing is defined).
  const std::vector<std::string> tokens = {"nodes", json != nullptr ? std::to_string(*node) : "0",
                                           std::string(*path_text)};
  std::optional<om::Match> m = om::match(tokens);
  Target t;
  if (json != nullptr) {
    t = property_target(kSource, "/nodes/" + tokens[1] + "/" + tokens[2], doc, std::move(*m),
                        std::nullopt);
  } else {
    t.source = kSource;
    t.shape = shape_of(*m->property, om::Resolved{}, std::nullopt);
  }
  t.what = std::move(what);
  return t;
}

// The shape of the JSON value an extras pointer names. An array is scanned
// once however many channels name it (`seen`), so the build stays linear.
using ExtrasShapes = std::unordered_map<const gltf_anim::json::Value*, ExtrasTarget>;
ExtrasTarget extras_shape(const gltf_anim::json::Value& v, ExtrasShapes& seen) {
  if (const auto it = seen.find(&v); it != seen.end()) return it->second;
  ExtrasTarget e;
  if (v.IsNumber()) {
    e = {ExtrasValue::kNumber, 1, "number"};
  } else if (v.IsBool()) {
    e = {ExtrasValue::kBool, 1, "boolean"};
  } else if (v.IsArray()) {
    const bool numbers =
        !v.Empty() && std::all_of(v.Begin(), v.End(),
                                  [](const gltf_anim::json::Value& x) { return x.IsNumber(); });
    e = {numbers ? ExtrasValue::kNumberArray : ExtrasValue::kOther, v.Size(), "array"};
  } else {
    e.json_type = v.IsString() ? "string" : v.IsObject() ? "object" : "null";
  }
  seen.emplace(&v, e);
  return e;
}

// KHR_animation_pointer: an Object Model property or an extras value.
std::variant<Untargeted, Target> pointer_target(const gltf_anim::json::Value& doc,
                                                const gltf_anim::json::Value& target,
                                                ExtrasShapes& extras) {
  constexpr TargetSource kSource = TargetSource::kAnimationPointer;
  const gltf_anim::json::Value* extensions = member(target, "extensions");
  const gltf_anim::json::Value* ext =
      extensions != nullptr ? member(*extensions, "KHR_animation_pointer") : nullptr;
  const auto text = ext != nullptr ? string_member(*ext, "pointer") : std::nullopt;
  if (!text)
    return untargeted(kSource, NoTarget::kMissingPointer,
                      "KHR_animation_pointer.pointer is missing");
  const std::string pointer(*text);
  const auto tokens = om::parse_pointer(pointer);
  if (!tokens)
    return untargeted(kSource, NoTarget::kInvalidPointer,
                      "pointer " + quoted(pointer) + " is not an RFC 6901 pointer");
  if (std::find(tokens->begin(), tokens->end(), "extras") != tokens->end()) {
    const gltf_anim::json::Value* value = om::find_value(doc, *tokens);
    if (value == nullptr) {
      return untargeted(kSource, NoTarget::kUndefinedExtras,
                        "pointer " + quoted(pointer) + " names no value");
    }
    Target t;
    t.source = kSource;
    t.pointer = pointer;
    const ExtrasTarget shape = extras_shape(*value, extras);
    if (shape.value == ExtrasValue::kBool) {  // read as the Object Model's bool: 0/1, STEP
      t.shape.type = om::ValueType::kBool;
      t.shape.width = 1;
      t.shape.step_only = true;
    }
    t.what = shape;
    return t;
  }
  std::optional<om::Match> m = om::match(*tokens);
  if (!m) {
    return untargeted(kSource, NoTarget::kUnknownProperty,
                      "pointer " + quoted(pointer) + " is not a property of the glTF Object Model");
  }
  if (m->property->read_only) {
    return untargeted(kSource, NoTarget::kReadOnly,
                      "pointer " + quoted(pointer) + " is read-only in the glTF Object Model");
  }
  return property_target(kSource, pointer, doc, std::move(*m), std::nullopt);
}

bool has_components(om::ValueType t) {
  return t == om::ValueType::kFloat2 || t == om::ValueType::kFloat3 ||
         t == om::ValueType::kFloat4 || t == om::ValueType::kFloatArray;
}

// KHR_animation2's targetpointer: an Object Model property, or one component
// of a vector or array property (one more index token).
std::variant<Untargeted, Target> animation2_target(const gltf_anim::json::Value& doc,
                                                   const gltf_anim::json::Value& value) {
  constexpr TargetSource kSource = TargetSource::kAnimation2;
  if (!value.IsString())
    return untargeted(kSource, NoTarget::kMissingPointer, "targetpointer is not a string");
  const std::string_view text(value.GetString(), value.GetStringLength());
  if (text.empty())
    return untargeted(kSource, NoTarget::kInvalidPointer, "empty pointer (the whole document)");
  std::string pointer;
  if (text.front() != '/') pointer = "/";  // the draft's own example has no leading '/'
  pointer += text;
  auto tokens = om::parse_pointer(pointer);
  if (!tokens) return untargeted(kSource, NoTarget::kInvalidPointer, "'~' not followed by 0 or 1");
  std::optional<om::Match> m = om::match(*tokens);
  std::optional<std::uint64_t> component;
  if (!m && tokens->size() >= 2) {
    const auto index = om::array_index(tokens->back());
    tokens->pop_back();
    std::optional<om::Match> parent = index ? om::match(*tokens) : std::nullopt;
    if (parent && has_components(parent->property->type)) {
      m = std::move(parent);
      component = index;
    }
  }
  if (!m)
    return untargeted(kSource, NoTarget::kUnknownProperty,
                      "not a property of the glTF Object Model");
  if (m->property->read_only)
    return untargeted(kSource, NoTarget::kReadOnly, "read-only in the glTF Object Model");
  Target t = property_target(kSource, std::move(pointer), doc, std::move(*m), component);
  const auto& p = std::get<PropertyTarget>(t.what);
  // A component of a property that is not there is the property's problem
  // (the rules say it is undefined), not the index's.
  const bool present = p.resolved.status != om::Resolution::kUndefined &&
                       p.resolved.status != om::Resolution::kNoMorphTargets;
  if (component && present) {
    const ValueShape whole = shape_of(*p.match.property, p.resolved);
    if (whole.width && *component >= *whole.width) {
      return untargeted(
          kSource, NoTarget::kUnknownProperty,
          "a component index past the property's " + std::to_string(*whole.width) + " values");
    }
  }
  return t;
}

// What the model reads of the document once, for every channel.
struct ChannelContext {
  ExtrasShapes extras;
  // KHR_animation_pointer in extensionsUsed.
  bool pointer_declared = false;
};

bool has_pointer_object(const gltf_anim::json::Value& target) {
  const gltf_anim::json::Value* extensions = member(target, "extensions");
  return extensions != nullptr && member(*extensions, "KHR_animation_pointer") != nullptr;
}

std::variant<Untargeted, Target> channel_target(const gltf_anim::json::Value& doc,
                                                const gltf_anim::json::Value& channel,
                                                ChannelContext& context) {
  if (const gltf_anim::json::Value* tp = member(channel, "targetpointer"))
    return animation2_target(doc, *tp);
  const gltf_anim::json::Value* target = member(channel, "target");
  if (target == nullptr || !target->IsObject()) {
    return untargeted(TargetSource::kCore, NoTarget::kNoTarget, "target.path is missing");
  }
  const auto path = string_member(*target, "path");
  // Path "pointer" is KHR_animation_pointer's only where the asset says so (the extension
  // declared or its object on the target). Without either it is an unknown path, as for
  // the validators (VALUE_NOT_IN_LIST, a warning): a tool that drops the extension but
  // keeps the channel (glTF-Transform) leaves a channel a client ignores.
  if (path && *path == "pointer" && (context.pointer_declared || has_pointer_object(*target)))
    return pointer_target(doc, *target, context.extras);
  return core_target(doc, *target);
}

Animation read_animation(const LoadedAsset& asset, const gltf_anim::json::Value& json,
                         std::size_t index, ChannelContext& context) {
  const gltf_anim::json::Value& doc = *asset.document;
  Animation a;
  a.index = index;
  if (const auto name = string_member(json, "name")) a.name = std::string(*name);
  const gltf_anim::json::Value* samplers = array_member(json, "samplers");
  const std::size_t sampler_count = array_size(samplers);
  a.sampler_count = sampler_count;
  a.samplers.reserve(sampler_count);  // channels point into it: no reallocation after this
  std::vector<const Sampler*> by_index(sampler_count, nullptr);
  for (std::size_t s = 0; s < sampler_count; ++s) {
    if (const gltf_anim::json::Value* sampler = object_at(samplers, s)) {
      by_index[s] = &a.samplers.emplace_back(read_sampler(asset, *sampler, s));
    }
  }
  const gltf_anim::json::Value* channels = array_member(json, "channels");
  a.channel_count = array_size(channels);
  a.channels_array = channels != nullptr;
  for (std::size_t c = 0; c < a.channel_count; ++c) {
    const gltf_anim::json::Value* channel = object_at(channels, c);
    if (channel == nullptr) continue;
    Channel& ch = a.channels.emplace_back();
    ch.index = c;
    ch.sampler = link_sampler(*channel, by_index);
    ch.sampler_written = member(*channel, "sampler") != nullptr;
    const gltf_anim::json::Value* extensions = member(*channel, "extensions");
    const gltf_anim::json::Value* sqlerp =
        extensions != nullptr ? member(*extensions, "EXT_animation_sqlerp") : nullptr;
    if (sqlerp != nullptr && sqlerp->IsObject())
      ch.sqlerp_sampler = link_sampler(*sqlerp, by_index);
    ch.target_written = member(*channel, "target") != nullptr;
    ch.target = channel_target(doc, *channel, context);
  }
  return a;
}

std::optional<ExtensionList> extension_list(const gltf_anim::json::Value& doc,
                                            std::string_view name) {
  const gltf_anim::json::Value* list = array_member(doc, name);
  if (list == nullptr) return std::nullopt;
  ExtensionList out;
  out.reserve(list->Size());
  for (const gltf_anim::json::Value& v : list->GetArray()) {
    if (v.IsString()) {
      out.emplace_back(std::string(v.GetString(), v.GetStringLength()));
    } else {
      out.emplace_back(std::nullopt);
    }
  }
  return out;
}

// Appends each member value of `object` (when it is an object) that is an index.
void member_indices(const gltf_anim::json::Value* object, std::vector<std::uint64_t>& out) {
  if (object == nullptr || !object->IsObject()) return;
  for (const auto& m : object->GetObject()) {
    if (const auto i = json_access::as_uint(m.value)) out.push_back(*i);
  }
}

// The objects outside the animations that name accessors and bufferViews, and the
// extension lists (AnimationModel). Each array walked once: linear in their size.
void read_document_uses(const gltf_anim::json::Value& doc, AnimationModel& model) {
  model.extensions_used = extension_list(doc, "extensionsUsed");
  model.extensions_required = extension_list(doc, "extensionsRequired");
  auto each = [](const gltf_anim::json::Value* array, auto&& f) {
    if (array == nullptr) return;
    for (const gltf_anim::json::Value& e : array->GetArray()) {
      if (e.IsObject()) f(e);
    }
  };
  each(array_member(doc, "images"), [&](const gltf_anim::json::Value& image) {
    if (const auto v = index_member(image, "bufferView")) model.image_buffer_views.push_back(*v);
  });
  each(array_member(doc, "meshes"), [&](const gltf_anim::json::Value& mesh) {
    each(array_member(mesh, "primitives"), [&](const gltf_anim::json::Value& json) {
      Primitive& p = model.primitives.emplace_back();
      member_indices(member(json, "attributes"), p.accessors);
      if (const auto i = index_member(json, "indices")) p.accessors.push_back(*i);
      if (const gltf_anim::json::Value* targets = array_member(json, "targets")) {
        for (const gltf_anim::json::Value& t : targets->GetArray()) member_indices(&t, p.accessors);
      }
      const gltf_anim::json::Value* extensions = member(json, "extensions");
      const gltf_anim::json::Value* draco =
          extensions != nullptr ? member(*extensions, "KHR_draco_mesh_compression") : nullptr;
      if (draco != nullptr) p.draco_buffer_view = index_member(*draco, "bufferView");
    });
  });
  each(array_member(doc, "skins"), [&](const gltf_anim::json::Value& skin) {
    if (const auto i = index_member(skin, "inverseBindMatrices")) model.skin_matrices.push_back(*i);
  });
  const gltf_anim::json::Value* nodes = array_member(doc, "nodes");
  for (std::size_t n = 0; n < array_size(nodes); ++n) {
    const gltf_anim::json::Value* node = object_at(nodes, n);
    const gltf_anim::json::Value* extensions = node ? member(*node, "extensions") : nullptr;
    const gltf_anim::json::Value* instancing =
        extensions != nullptr ? member(*extensions, "EXT_mesh_gpu_instancing") : nullptr;
    if (instancing == nullptr || !instancing->IsObject()) continue;
    Instancing& i = model.instancing.emplace_back();
    i.node = n;
    member_indices(member(*instancing, "attributes"), i.attributes);
  }
}

}  // namespace

bool lists(const std::optional<ExtensionList>& list, std::string_view extension) {
  return list && std::find(list->begin(), list->end(), extension) != list->end();
}

std::string_view node_path_name(NodePath p) {
  switch (p) {
    case NodePath::kTranslation: return "translation";
    case NodePath::kRotation: return "rotation";
    case NodePath::kScale: return "scale";
    case NodePath::kWeights: return "weights";
  }
  return "?";
}

std::uint32_t Sampler::outputs_per_key() const {
  return interpolation ? reference::mode_of(*interpolation).outputs_per_key : 1;
}

ValueShape shape_of(const om::Property& property, const om::Resolved& resolved,
                    std::optional<std::uint64_t> component) {
  ValueShape s;
  s.extensions = om::owning_extensions(property);
  if (component) {  // one number of a vector or array
    s.type = om::ValueType::kFloat;
    s.width = 1;
    return s;
  }
  s.type = property.type;
  switch (property.type) {
    case om::ValueType::kFloat:
    case om::ValueType::kInt:
    case om::ValueType::kBool: s.width = 1; break;
    case om::ValueType::kFloat2: s.width = 2; break;
    case om::ValueType::kFloat3: s.width = 3; break;
    case om::ValueType::kFloat4: s.width = 4; break;
    case om::ValueType::kFloat4x4: s.width = 16; break;
    case om::ValueType::kFloatArray:
      if (resolved.status == om::Resolution::kDefined) s.width = resolved.width;
      break;
  }
  s.quaternion = property.quaternion;
  s.step_only = property.type == om::ValueType::kInt || property.type == om::ValueType::kBool;
  return s;
}

std::string describe(const ExtrasTarget& extras) {
  switch (extras.value) {
    case ExtrasValue::kNumber: return "a number";
    case ExtrasValue::kBool: return "a boolean";
    case ExtrasValue::kNumberArray:
      return "an array of " + std::to_string(extras.elements) +
             (extras.elements == 1 ? " number" : " numbers");
    case ExtrasValue::kOther: break;
  }
  if (extras.json_type == "array") {
    return extras.elements == 0 ? "an empty array"
                                : "an array of " + std::to_string(extras.elements) +
                                      " values that are not all numbers";
  }
  return (extras.json_type == "object" ? "an " : "a ") + std::string(extras.json_type);
}

std::string extras_misfit(const ExtrasTarget& extras, const Accessor& output,
                          std::optional<std::uint64_t> keys, std::uint32_t outputs_per_key,
                          bool step) {
  if (extras.value == ExtrasValue::kOther) return "no accessor value animates " + describe(extras);
  if (!output.type || !output.component_type) return "";  // the schema phase reports it
  const std::uint64_t components = component_count(*output.type);
  const bool integers = !is_floating_point(*output.component_type) && !output.normalized;
  std::uint64_t per_key = 1;  // output elements per key and per outputs_per_key
  switch (extras.value) {
    case ExtrasValue::kNumber:
      if (components != 1)
        return "a number is animated by SCALAR data, not " +
               std::string(element_type_name(*output.type));
      break;
    case ExtrasValue::kBool:
      if (components != 1 || *output.component_type != ComponentType::kUnsignedByte ||
          output.normalized) {
        return "a boolean is animated by {SCALAR, UNSIGNED_BYTE} data";
      }
      if (!step) return "a boolean is animated with STEP interpolation only";
      break;
    case ExtrasValue::kNumberArray:
      if (components == 1) {
        per_key = extras.elements;
      } else if (components != extras.elements) {
        return "an array of " + std::to_string(extras.elements) + " numbers is animated by " +
               std::to_string(extras.elements) + "-component or SCALAR data, not " +
               std::string(element_type_name(*output.type));
      }
      break;
    case ExtrasValue::kOther: break;
  }
  if (integers && !step && extras.value != ExtrasValue::kBool) {
    return "integer data is an int, animated with STEP interpolation only";
  }
  if (keys && output.count) {
    // keys x outputs_per_key x per_key, saturating: a product past 2^64-1 matches no count.
    std::uint64_t needed = *keys;
    for (const std::uint64_t f : {std::uint64_t{outputs_per_key}, per_key}) {
      needed = f != 0 && needed > UINT64_MAX / f ? UINT64_MAX : needed * f;
    }
    if (needed != *output.count) {
      return "the output has " + std::to_string(*output.count) + " elements, " +
             std::to_string(*keys) + " keys need " +
             (needed == UINT64_MAX ? std::string("more than 2^64-2") : std::to_string(needed));
    }
  }
  return "";
}

AnimationModel build_animation_model(const LoadedAsset& asset) {
  AnimationModel model;
  if (!asset.document || !asset.document->IsObject()) return model;
  // Channels look up the same node or root object again and again: indexed
  // lookups keep that linear (json_access.hpp). The validator has a scope open.
  std::optional<json_access::MemberIndexScope> indexed_lookups;
  if (!json_access::detail::member_indexes.active) indexed_lookups.emplace();
  const gltf_anim::json::Value* animations = array_member(*asset.document, "animations");
  model.animation_count = array_size(animations);
  read_document_uses(*asset.document, model);
  ChannelContext context;
  context.pointer_declared = lists(model.extensions_used, "KHR_animation_pointer");
  for (std::size_t a = 0; a < model.animation_count; ++a) {
    if (const gltf_anim::json::Value* animation = object_at(animations, a)) {
      model.animations.push_back(read_animation(asset, *animation, a, context));
    }
  }
  return model;
}

}  // namespace gltf_anim::gltf::model
