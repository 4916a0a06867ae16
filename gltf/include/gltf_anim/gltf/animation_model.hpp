#pragma once
// The animations of an asset as a typed, linked model: the one answer to "what
// does this channel animate, through which sampler, with which data?".
//
// Built once per loaded asset (build_animation_model), after the loader's
// layout analysis: every glTF index is followed once (cgltf's index-to-pointer
// fix-up, glTF-Validator's link()), every target is read once, through the
// Object Model table (the validator's internal object_model.hpp) for pointers and core targets
// alike. Its readers:
//   - the validator's rule modules (RuleContext::model), which report why a
//     reference does not link or a target is wrong, with issue codes;
//   - `gltf-anim sample` and `generate` (the sampler), which evaluate the
//     linked channels and refuse the others with the model's reason.
// The builder reports nothing itself: a reference that does not link holds
// the reason (Unresolved, Untargeted) instead of the object, never both.
//
// Readings of the extensions:
//   - KHR_animation_pointer: target.path "pointer" and the extension object's
//     pointer, read through the Object Model (or an `extras` value);
//   - KHR_animation2 (draft): channel.targetpointer instead of target, with a
//     leading "/" added to the draft's form without it, and one more index
//     token naming a component of a vector (the draft's "scalars in an array");
//   - EXT_animation_sqlerp: the channel's extension sampler beside its core
//     (fallback) sampler.
// Whether an extension is declared (extensionsUsed) is the rules' business: the
// model reads what the JSON says. Beside the animations it holds what a tool that
// edits their data decides with (AnimationModel: the extension lists, the
// accessors and bufferViews meshes, skins, images and EXT_mesh_gpu_instancing name),
// so that the repair tools read no JSON for it.
#include <gltf_anim/reference/track.hpp>
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/gltf/object_model_types.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gltf_anim::gltf::model {

// A reference of the JSON once followed: not written, written with an index
// that points nowhere, or the object it names.
struct Absent {};
struct Unresolved {
  std::uint64_t index = 0;  // as written
};
template <class T>
using Link = std::variant<Absent, Unresolved, T>;

// The linked object, or nullptr when the reference is absent or unresolved.
template <class T>
const T* linked(const Link<T>& link) {
  return std::get_if<T>(&link);
}

// An accessor a sampler uses: its typed view and the loader's verdict on its
// bytes. Decoding is the reader's (AccessorReader, read_accessor): the model
// holds no data, so a sampler of the whole asset can decode one channel at a
// time.
struct AccessorRef {
  std::size_t index = 0;
  const Accessor* accessor = nullptr;  // never null in a linked AccessorRef
  DataStatus status = DataStatus::kMalformed;
  bool readable() const { return status == DataStatus::kReadable; }
};

// /animations/a/samplers/s
struct Sampler {
  std::size_t index = 0;
  std::string interpolation_name = "LINEAR";  // as written; the spec's default when absent
  // `interpolation` is written with a type other than string: the name above is
  // "" (the sampler refuses the mode); the rules, after the schema phase's
  // TYPE_MISMATCH, check the sampler as the spec's default (rules_interpolation).
  bool interpolation_mistyped = false;
  // The mode, when it is one the reference evaluator knows (core, CUBICSLERP,
  // SLERP); nullopt for any other string (or a non-string: then the name is "").
  std::optional<reference::Interpolation> interpolation;
  Link<AccessorRef> input;
  Link<AccessorRef> output;
  // Output elements per input key (the interpolation table: 3 for CUBICSPLINE and
  // CUBICSLERP); 1 for a mode it does not know.
  std::uint32_t outputs_per_key() const;
};

// Which part of the JSON names the target.
enum class TargetSource {
  kCore,              // target.node + target.path
  kAnimationPointer,  // target.path "pointer" + extensions.KHR_animation_pointer.pointer
  kAnimation2,        // channel.targetpointer (KHR_animation2 draft)
};

enum class NodePath { kTranslation, kRotation, kScale, kWeights };
std::string_view node_path_name(NodePath p);  // "translation", ...

// The node a core target names, with what the core rules ask of it.
struct NodeRef {
  std::uint64_t index = 0;
  bool matrix = false;  // the node has `matrix` (its TRS must not be animated)
  bool skin = false;    // the node has `skin`
};

// A core target: one of the four paths, of a node. Without node the spec says
// the channel SHOULD be ignored (the sampler does), but its sampler's output
// is still checked against the path; an unresolved node is the rules' error.
struct NodeTarget {
  Link<NodeRef> node;
  NodePath path = NodePath::kTranslation;
  // target.node is written, whatever its JSON type: a node of the wrong type
  // is Absent above (the schema phase reports it) but not a target the
  // author left without a node.
  bool node_written = false;
};

// A pointer to a mutable property of the Object Model table.
struct PropertyTarget {
  object_model::Match match;        // the template and its indices
  object_model::Resolved resolved;  // defined in this asset? (the rules report when not)
  // KHR_animation2: the component of a vector or array property the pointer's
  // last index token names (the target is then one float).
  std::optional<std::uint64_t> component;
};

// A pointer into `extras`: application-specific ("validity and interpretation
// of the animated values is entirely application specific"), its value exists.
// The Object Model gives it no type; its JSON value gives it a shape, which
// extras_misfit checks against the output accessor.
enum class ExtrasValue {
  kNumber,       // a float (or int, when the output holds integers)
  kBool,         // read as the Object Model's bool
  kNumberArray,  // n numbers: n components per key, or n SCALARs per key (as float[])
  kOther,        // a string, object, null, empty or mixed array: nothing animates it
};
struct ExtrasTarget {
  ExtrasValue value = ExtrasValue::kOther;
  std::uint64_t elements = 1;           // kNumberArray: the array's length
  std::string_view json_type = "null";  // "number", "boolean", "array", "string", "object", "null"
};
// "a number", "a boolean", "an array of 3 numbers", "a string", ... for messages.
std::string describe(const ExtrasTarget& extras);

// The value a target takes, as the validator checks it and the sampler evaluates it.
struct ValueShape {
  // The Object Model type; nullopt for extras (the data decides).
  std::optional<object_model::ValueType> type;
  // Components per key: from the type (float3: 3), for node weights and
  // float[] the morph-target count of the node's mesh; nullopt when the data
  // decides (extras, weights of a node without morph targets).
  std::optional<std::uint64_t> width;
  bool quaternion =
      false;               // unit quaternions: slerped, shortest path (node rotation, IBL rotation)
  bool step_only = false;  // int and bool: STEP interpolation only
  // Extensions the property belongs to, outermost first (KHR_texture_transform, ...).
  std::vector<std::string_view> extensions;
};

struct Target {
  TargetSource source = TargetSource::kCore;
  // The animated property as a JSON pointer: "/nodes/0/rotation" for a core
  // target ("" without a linked node), the pointer as written otherwise
  // (KHR_animation2: with a leading "/").
  std::string pointer;
  std::variant<NodeTarget, PropertyTarget, ExtrasTarget> what;
  ValueShape shape;
};

// Why a channel has no target.
enum class NoTarget {
  kNoTarget,        // neither target (an object) nor targetpointer
  kNoPath,          // core target without path
  kUnknownPath,     // core path none of the four (an extension's)
  kMissingPointer,  // path "pointer" without the extension's pointer, or targetpointer not a string
  kInvalidPointer,  // not RFC 6901 (or KHR_animation2's empty pointer)
  kUnknownProperty,  // no Object Model template matches (nor extras; for KHR_animation2
                     // nor a component within a vector's width)
  kReadOnly,         // a read-only Object Model property
  kUndefinedExtras,  // an extras pointer whose value does not exist
};
struct Untargeted {
  TargetSource source = TargetSource::kCore;
  NoTarget reason = NoTarget::kUnknownPath;
  std::string why;  // for messages: "target node 7 does not exist"
};

// /animations/a/channels/c
struct Channel {
  std::size_t index = 0;
  Link<const Sampler*> sampler;  // channel.sampler (the fallback when the sqlerp one is there)
  // channel.sampler is written, whatever its JSON type (a wrong type is Absent above).
  bool sampler_written = false;
  // EXT_animation_sqlerp: nullopt without the extension object on the channel.
  std::optional<Link<const Sampler*>> sqlerp_sampler;
  // channel.target is written, whatever its JSON type: a KHR_animation2 channel
  // reads its targetpointer and leaves a target beside it unread.
  bool target_written = false;
  std::variant<Untargeted, Target> target;
};

// /animations/a. Samplers and channels that are not JSON objects are absent
// (the schema phase reports them; a channel naming such a sampler holds
// Unresolved); `index` members are glTF indices.
// Move-only: channels point at the samplers they hold.
struct Animation {
  Animation() = default;
  Animation(Animation&&) = default;
  Animation& operator=(Animation&&) = default;
  Animation(const Animation&) = delete;
  Animation& operator=(const Animation&) = delete;

  std::size_t index = 0;
  std::string name;               // "" when absent
  std::vector<Sampler> samplers;  // in glTF order
  std::size_t sampler_count = 0;  // /animations/a/samplers length (objects or not)
  std::vector<Channel> channels;  // in glTF order
  std::size_t channel_count = 0;  // /animations/a/channels length (objects or not)
  bool channels_array = false;    // `channels` is an array (it is required)
};

// A root list of extension names (extensionsUsed, extensionsRequired) in its order: an
// entry that is not a string is nullopt (the schema phase reports it).
using ExtensionList = std::vector<std::optional<std::string>>;
// Whether `list` (absent: nullopt) names `extension`.
bool lists(const std::optional<ExtensionList>& list, std::string_view extension);

// /meshes/m/primitives/p: the accessors it names, and the bufferView its
// KHR_draco_mesh_compression object names. Indices as written: one may point nowhere.
struct Primitive {
  std::vector<std::uint64_t> accessors;            // attributes, indices, morph targets
  std::optional<std::uint64_t> draco_buffer_view;  // extensions.KHR_draco_mesh_compression
};
// /nodes/n with extensions.EXT_mesh_gpu_instancing: the accessors of its attributes.
struct Instancing {
  std::size_t node = 0;
  std::vector<std::uint64_t> attributes;
};

struct AnimationModel {
  std::vector<Animation> animations;  // glTF order; non-objects absent
  std::size_t animation_count = 0;    // /animations length (objects or not)

  // What else in the document a tool that edits the animations' data decides with (the
  // repair tools: which accessors and bufferViews another object uses, which extensions
  // the asset declares), read in the same pass so that no tool reads the JSON for it.
  std::optional<ExtensionList> extensions_used;      // nullopt: absent or not an array
  std::optional<ExtensionList> extensions_required;  // nullopt: absent or not an array
  std::vector<Primitive> primitives;                 // every mesh's, in glTF order
  std::vector<Instancing> instancing;                // nodes with EXT_mesh_gpu_instancing
  std::vector<std::uint64_t> skin_matrices;          // skins' inverseBindMatrices
  std::vector<std::uint64_t> image_buffer_views;     // images' bufferView
};

// Our reading of what an output accessor can animate in an extras value (the
// Object Model's rules for the type the JSON value has): a number from SCALAR
// data; an array of n numbers from n-component elements (VECn, MATn) or from
// n SCALARs per key; a boolean from SCALAR UNSIGNED_BYTE with STEP; integer
// (non-normalized) data only with STEP, as an int. `keys` is the input count
// and `outputs_per_key` the sampler's (3 for CUBICSPLINE); the count is
// compared when both counts are known. "" when it fits, else why not.
std::string extras_misfit(const ExtrasTarget& extras, const Accessor& output,
                          std::optional<std::uint64_t> keys, std::uint32_t outputs_per_key,
                          bool step);

// Builds the model of `asset` (empty without a JSON object document). Linear
// in the size of the animations, pointers included; reads no accessor data.
AnimationModel build_animation_model(const LoadedAsset& asset);

// The shape an Object Model property gives its target (a component of a
// vector is one float).
ValueShape shape_of(const object_model::Property& property, const object_model::Resolved& resolved,
                    std::optional<std::uint64_t> component = std::nullopt);

}  // namespace gltf_anim::gltf::model
