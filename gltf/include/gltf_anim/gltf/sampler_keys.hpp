#pragma once
// One sampler's keys as stored, for a channel's target: the one decoding that `sample`,
// `sample --keys` and the repair tools share, so that they agree on which channels have keys
// and on what each key holds. Here, beside the animation model and the accessor reader it
// reads through, so the repair tools decode without the sampler. Internal to this build (not
// installed).
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/reference/track.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gltf_anim::gltf {

struct SamplerKeys {
  std::size_t input = 0;  // accessor indices
  std::size_t output = 0;
  bool integer_values = false;  // non-normalized integer components
  // The sampler's interpolation, the target's value kind, the values per key (morph weights:
  // the mesh's targets), the times and the values: per key the value, or in-tangent, value,
  // out-tangent; as stored (a bool target's values too: 0 and anything else).
  reference::Track keys;
};

struct DecodedKeys {
  std::optional<SamplerKeys> keys;  // nullopt: `why` says why there are none
  std::string why;
  std::uint64_t needed = 0;  // values the keys would hold, when the bound refused them
};

// Decodes `sampler` for `target`: its interpolation known, its input a readable SCALAR
// accessor and its output one whose count and shape fit the target (the animation model's
// reading of it, as the validator's). Refused before anything is decoded: times that store
// fewer values than count - 1 (an accessor without bufferView repeats a zero, so they do not
// increase: 2^28 declared zeros would otherwise be 2 GiB of doubles from a 300-byte file), and
// keys holding more than `max_values` values (0: no bound; `needed` then says how many).
DecodedKeys decode_keys(const LoadedAsset& asset, const model::Target& target,
                        const model::Sampler& sampler, std::uint64_t max_values);

}  // namespace gltf_anim::gltf
