// Named readings compare computes itself from a case's stored keys: readings
// of a channel that real engines were seen to play, each a formula on the keys
// (not a samples excerpt of the manifest). When a failing channel's actual
// values are these readings' at every sample where they differ from the golden
// ones, and nothing else fails there, the report names the reading (channel by
// channel): as a known divergence when it breaks a rule of the specs, as a
// reading the specs allow otherwise (two allowed readings stacked on the same
// samples, which the manifest's variants, one reading each, cannot name).
#pragma once

#include <gltf_anim/reference/track.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::compare {

// A reading is computed from a channel's keys as stored (the sampler's input and output,
// decoded: float32 exactly, normalized integers by the spec's formula), the one type every
// module holds a channel's keys in (reference::TrackView); `weights` says whether the channel
// animates morph weights, which the keys alone cannot tell.

// Which keys a reading is computed from.
enum class ReadingView {
  kChannel,       // the channel's keys, as the golden samples play them
  kCoreFallback,  // the keys of the channel's core sampler where an extension sampler replaces
                  // it (EXT_animation_sqlerp's fallback: `sample --no-extensions`); the reading
                  // is tried only on a channel whose two views differ
};

struct NamedReading {
  std::string_view name;
  // The formula, with the spec rule it breaks after "breaks " (the report quotes it).
  std::string_view formula;
  std::string_view seen_in;  // the engine and version the reading was seen in, and how
  bool (*applies)(const reference::TrackView& keys, bool weights);
  // The value at time t (components values). Only called when applies().
  std::vector<double> (*value_at)(const reference::TrackView& keys, double t);
  bool allowed;  // a reading the specs allow (no "breaks" in the formula), else a divergence
  ReadingView view;
};

// The table: cubic-bezier-unscaled-tangents, weights-clamped-0-1,
// blender-auto-handles, bake-15fps-linear (divergences), "no-extensions + nlerp" (allowed).
std::span<const NamedReading> named_readings();
// nullptr when there is no reading of that name.
const NamedReading* find_named_reading(std::string_view name);

}  // namespace gltf_anim::compare
