// Shortest-path data patching (shortest_path.hpp).
#include <gltf_anim/reference/shortest_path.hpp>

#include <stdexcept>
#include <string>

namespace gltf_anim::reference {

std::size_t patch_shortest_path(std::span<Quat> quaternions) {
  std::size_t flipped = 0;
  for (std::size_t i = 1; i < quaternions.size(); ++i) {
    if (dot(quaternions[i - 1], quaternions[i]) < 0.0) {
      quaternions[i] = -quaternions[i];
      ++flipped;
    }
  }
  return flipped;
}

std::size_t patch_shortest_path(std::span<double> values, Interpolation interpolation) {
  const InterpolationMode& mode = mode_of(interpolation);
  const std::size_t stride = 4 * std::size_t{mode.outputs_per_key};
  if (values.size() % stride != 0)
    throw std::invalid_argument("patch_shortest_path: " + std::to_string(values.size()) +
                                " values is not a whole number of keyframes of " +
                                std::to_string(stride));
  // Offset of the value quaternion inside a keyframe (the middle one of a triple).
  const std::size_t value_offset = 4 * std::size_t{mode.value_index};
  const std::size_t n = values.size() / stride;
  std::size_t flipped = 0;
  for (std::size_t k = 1; k < n; ++k) {
    const Quat prev = load_quat(values.data() + (k - 1) * stride + value_offset);
    const Quat cur = load_quat(values.data() + k * stride + value_offset);
    if (dot(prev, cur) < 0.0) {
      for (std::size_t i = k * stride; i < (k + 1) * stride; ++i) values[i] = -values[i];
      ++flipped;
    }
  }
  return flipped;
}

}  // namespace gltf_anim::reference
