#include <gltf_anim/gltf/sampler_keys.hpp>

#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/object_model.hpp>

#include <limits>
#include <string_view>
#include <variant>

namespace gltf_anim::gltf {
namespace {

namespace vm = model;
namespace om = object_model;

// Without a bound from the caller, at most 2^28 values an accessor (read_accessor's own
// default is meant for tests).
constexpr std::size_t kMaxAccessorValues = std::size_t{1} << 28;

// An accessor's values, count x components, saturating: a declared count may be anything.
std::uint64_t values_of(const AccessorReader& reader) {
  const std::uint64_t components = reader.components();
  if (components != 0 && reader.count() > std::numeric_limits<std::uint64_t>::max() / components) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  return reader.count() * components;
}

// Every value of an accessor through its open reader (opened once: a sparse accessor's
// indices and values are read when it is opened); false past kMaxAccessorValues.
bool read_all(const AccessorReader& reader, std::vector<double>& out) {
  const std::uint64_t n = values_of(reader);
  if (n > kMaxAccessorValues) return false;
  out.resize(static_cast<std::size_t>(n));
  return reader.read(0, static_cast<std::size_t>(reader.count()), out.data());
}

// The sampler's input or output accessor when it can be decoded, else why not.
std::optional<std::size_t> readable_accessor(const vm::Link<vm::AccessorRef>& link, std::string& why) {
  if (const vm::AccessorRef* ref = vm::linked(link); ref != nullptr && ref->readable()) return ref->index;
  const std::uint64_t index = std::holds_alternative<vm::Unresolved>(link) ? std::get<vm::Unresolved>(link).index
                                                                           : vm::linked(link)->index;
  why = "accessor " + std::to_string(index) + " cannot be read";
  return std::nullopt;
}

// An extras array of numbers animated by SCALAR data (n values per key).
bool scalars_per_key(const vm::Target& target, const AccessorReader& output) {
  const auto* extras = std::get_if<vm::ExtrasTarget>(&target.what);
  return extras != nullptr && extras->value == vm::ExtrasValue::kNumberArray &&
         output.components() == 1;
}

// The keys' value kind and width: the target's shape (the validator's reading of the same
// channel), checked against the output accessor. "" when they fit, else why not.
std::string shape_keys(const vm::Target& target, const vm::Sampler& sampler,
                       const AccessorReader& output, SamplerKeys& k) {
  const reference::Interpolation interpolation = *sampler.interpolation;
  const vm::ValueShape& shape = target.shape;
  const bool node = std::holds_alternative<vm::NodeTarget>(target.what);
  // A quaternion target is slerped (shortest path) like a node rotation, whichever
  // way it is named; a rotation-only mode's data (SLERP, CUBICSLERP: the
  // interpolation table) are quaternions whatever the target (the validator
  // reports a target that is not one).
  const bool rotation = shape.quaternion || reference::mode_of(interpolation).rotation_only;
  if (rotation) {
    if (output.components() != 4) return "rotation output is not VEC4";
    k.keys.kind = reference::ValueKind::kRotation;
    k.keys.components = 4;
  } else if (shape.type == om::ValueType::kFloatArray || scalars_per_key(target, output)) {
    // Morph weights: as many per key as the node's mesh has morph targets; for
    // a node without them, as many as the output count gives. An extras array
    // of n numbers from SCALAR data: n per key, like weights.
    const std::uint64_t keyed = std::uint64_t{k.keys.times.size()} * sampler.outputs_per_key();
    if (keyed == 0 || output.count() % keyed != 0) return "output count is not a multiple of the keyframe count";
    const std::uint64_t per_key = output.count() / keyed;
    if (shape.width && *shape.width != per_key) {
      return "output has " + std::to_string(per_key) + " values per key, the mesh has " +
             std::to_string(*shape.width) + " morph targets";
    }
    k.keys.kind = reference::ValueKind::kVector;
    k.keys.components = static_cast<std::size_t>(per_key);
  } else {
    k.keys.kind = reference::ValueKind::kVector;
    k.keys.components = output.components();
    if (shape.width && *shape.width != k.keys.components) {
      if (node) return "translation or scale output is not VEC3";
      return "output has " + std::to_string(k.keys.components) + " components, the target (" +
             std::string(om::type_name(*shape.type)) + ") has " + std::to_string(*shape.width);
    }
  }
  if (k.integer_values && node) return "core channel output of a non-normalized integer type";
  // int and bool properties take STEP only; an extras value stored as integers is an int.
  const bool step_only = shape.step_only || (!shape.type && k.integer_values);
  if (step_only && interpolation != reference::Interpolation::kStep) {
    return "int and bool targets must use STEP interpolation";
  }
  return {};
}

}  // namespace

DecodedKeys decode_keys(const LoadedAsset& asset, const vm::Target& target,
                        const vm::Sampler& sampler, std::uint64_t max_values) {
  DecodedKeys r;
  const auto refuse = [&r](std::string why) {
    r.why = std::move(why);
    return std::move(r);
  };
  if (!sampler.interpolation) return refuse("unknown interpolation '" + sampler.interpolation_name + "'");
  if (std::holds_alternative<vm::Absent>(sampler.input) || std::holds_alternative<vm::Absent>(sampler.output)) {
    return refuse("sampler input or output is missing");
  }
  std::string why;
  const std::optional<std::size_t> input = readable_accessor(sampler.input, why);
  if (!input) return refuse(why);
  const std::optional<std::size_t> output = readable_accessor(sampler.output, why);
  if (!output) return refuse(why);
  const auto input_reader = AccessorReader::open(asset, *input);
  if (!input_reader) return refuse("input accessor " + std::to_string(*input) + " cannot be read");
  if (input_reader->components() != 1) return refuse("input accessor is not SCALAR");
  const auto reader = AccessorReader::open(asset, *output);
  if (!reader) return refuse("output accessor " + std::to_string(*output) + " cannot be read");
  // Decoding sizes come from the declared counts, and an accessor without bufferView stores
  // nothing: what validate refuses is refused first (ACCESSOR_ANIMATION_INPUT_NON_INCREASING),
  // and the values to decode are counted against the bound before they are decoded.
  if (!input_reader->has_stored_base() &&
      input_reader->count() > input_reader->sparse_indices().size() + 1) {
    return refuse("input times are not increasing: accessor " + std::to_string(*input) +
                  " has no bufferView, so its " + std::to_string(input_reader->count()) +
                  " times are zeros but for " + std::to_string(input_reader->sparse_indices().size()) +
                  " sparse ones");
  }
  const std::uint64_t output_values = values_of(*reader);
  const std::uint64_t to_decode = output_values > std::numeric_limits<std::uint64_t>::max() - input_reader->count()
                                      ? std::numeric_limits<std::uint64_t>::max()
                                      : input_reader->count() + output_values;
  if (max_values != 0 && to_decode > max_values) {
    r.needed = to_decode;
    return refuse("decoding needs " + std::to_string(to_decode) + " values: more than " +
                  std::to_string(max_values) + " values");
  }
  SamplerKeys k;
  k.input = *input;
  k.output = *output;
  k.keys.interpolation = *sampler.interpolation;
  if (!read_all(*input_reader, k.keys.times) || !read_all(*reader, k.keys.values)) {
    return refuse("accessor data cannot be read");
  }
  k.integer_values = !is_floating_point(reader->component_type()) && !reader->normalized();
  why = shape_keys(target, sampler, *reader, k);
  if (!why.empty()) return refuse(why);
  r.keys = std::move(k);
  return r;
}

}  // namespace gltf_anim::gltf
