#pragma once
// What fit_track and bounded_linear_keys take, for the fit tests: a LINEAR track view, of
// rotations or of vectors, over numbers the test lays out by hand.
#include <gltf_anim/reference/track.hpp>

#include <cstddef>
#include <span>

namespace fit_test {

inline gltf_anim::reference::TrackView linear_track(std::span<const double> times,
                                                    std::span<const double> values,
                                                    std::size_t components, bool rotation) {
  return {times, values, components, gltf_anim::reference::Interpolation::kLinear,
          rotation ? gltf_anim::reference::ValueKind::kRotation
                   : gltf_anim::reference::ValueKind::kVector};
}

}  // namespace fit_test
