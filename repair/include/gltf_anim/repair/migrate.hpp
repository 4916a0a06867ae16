#pragma once
// Migrating animation channels between KHR_animation2 (draft: channel.targetpointer,
// SLERP samplers) and KHR_animation_pointer (target.path "pointer" and the extension's
// pointer), as the animation model reads both (validator/animation_model.hpp).
//
// To KHR_animation_pointer: `"targetpointer": "P"` becomes `"target": {"path": "pointer",
// "extensions": {"KHR_animation_pointer": {"pointer": "/P"}}}` (the leading '/' the draft's
// own example omits is added), and a SLERP sampler becomes LINEAR, which slerps a
// quaternion on the shortest path exactly as SLERP does (docs/REFERENCE.md). Not
// expressible: a pointer to one component of a vector (KHR_animation_pointer animates
// whole properties), SLERP on a value that is not a quaternion.
// To KHR_animation2: the reverse; a LINEAR quaternion sampler becomes SLERP (the draft
// allows only STEP and SLERP for quaternions). Not expressible: CUBICSPLINE quaternions,
// pointers into `extras`, float4x4 and integer-typed properties, a target object carrying
// anything besides path and the extension's pointer (it would be lost).
// Either way a channel whose sampler change would also change a channel that stays is not
// migrated, and a channel that does not link (the model's reason) is left as it is.
// extensionsUsed/extensionsRequired gain the new extension and lose the old one only when
// no use of it remains (an empty extensionsRequired is removed).
//
// The changes are recorded in an edit session (gltf/edit.hpp): the old target member
// removed, the new one added at the end of the channel, the sampler's interpolation set;
// every other byte stays as it was.
#include <gltf_anim/gltf/edit.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/asset.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::repair {

// The extension channels are migrated to (--to).
enum class PointerExtension {
  kAnimationPointer,  // KHR_animation_pointer
  kAnimation2         // KHR_animation2 (draft)
};
std::string_view extension_name(PointerExtension e);  // "KHR_animation_pointer", ...
// "khr_animation_pointer" / "khr_animation2" (the CLI's spelling) or the extension's name.
std::optional<PointerExtension> parse_pointer_extension(std::string_view text);

// One channel of the other extension.
struct ChannelMigration {
  std::string channel;  // "/animations/0/channels/1"
  std::string target;   // the animated property's pointer as the model reads it ("" if none)
  bool migrated = false;
  std::string change;  // what changed, when migrated ("sampler 0 SLERP -> LINEAR" ...)
  std::string why;     // why not, when not migrated
};

struct Migration {
  std::vector<ChannelMigration> channels;  // in animation then channel order
  // Other changes, one line each ("extensionsUsed: KHR_animation2 -> KHR_animation_pointer").
  std::vector<std::string> changes;
  std::size_t migrated() const;
};

// Migrates `asset` (its model: build_animation_model) to `to`: records the changes in
// `edit` (a session over the same asset, repair/tool.hpp edit_source) and says what they
// are. An asset without a JSON object document gives an empty Migration and no edit.
Migration migrate_channels(const gltf::LoadedAsset& asset, const gltf::model::AnimationModel& model,
                           PointerExtension to, gltf::Edit& edit);

}  // namespace gltf_anim::repair
