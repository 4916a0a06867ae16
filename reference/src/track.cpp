// Keyframe search and track evaluation (track.hpp).
#include <gltf_anim/reference/track.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace gltf_anim::reference {
namespace {

// Index of the last of first[0..n) that is <= t, or 0 when none is (n >= 1). Branchless
// (the select compiles to a conditional move), so random times cost ~log2(n) dependent
// loads and no mispredicted branches.
std::size_t last_not_greater(const double* first, std::size_t n, double t) {
  const double* base = first;
  while (n > 1) {
    const std::size_t half = n / 2;
    base = base[half] <= t ? base + half : base;
    n -= half;
  }
  return static_cast<std::size_t>(base - first);
}

void copy_value(const TrackView& track, std::size_t k, std::span<double> out) {
  const std::span<const double> v = track.value(k);
  std::copy(v.begin(), v.end(), out.begin());
}

// Evaluates segment k (t_k < t < t_{k+1}, k + 1 < n) at time t.
void interpolate_segment(const TrackView& track, std::size_t k, double t, std::span<double> out,
                         const SampleOptions& options) {
  const std::size_t c = track.components;
  const double t_k = track.times[k];
  const double t_d = track.times[k + 1] - t_k;
  const double u = (t - t_k) / t_d;
  const double* values = track.values.data();
  switch (track.interpolation) {
    case Interpolation::kStep:
      copy_value(track, k, out);
      return;
    case Interpolation::kLinear:
    case Interpolation::kSlerp: {
      const double* v_k = values + k * c;
      const double* v_k1 = v_k + c;
      if (track.kind == ValueKind::kRotation) {
        store_quat(slerp(load_quat(v_k), load_quat(v_k1), u, options.linear_rotation),
                   out.data());
      } else {
        for (std::size_t i = 0; i < c; ++i) out[i] = lerp(v_k[i], v_k1[i], u);
      }
      return;
    }
    case Interpolation::kCubicSpline: {
      // Keyframe k: [a_k, v_k, b_k], each c numbers.
      const double* v_k = values + 3 * c * k + c;
      const double* b_k = v_k + c;
      const double* a_k1 = values + 3 * c * (k + 1);
      const double* v_k1 = a_k1 + c;
      if (track.kind == ValueKind::kRotation) {
        store_quat(cubic_hermite_rotation(load_quat(v_k), load_quat(b_k), load_quat(v_k1),
                                          load_quat(a_k1), u, t_d),
                   out.data());
      } else {
        for (std::size_t i = 0; i < c; ++i)
          out[i] = cubic_hermite(v_k[i], b_k[i], v_k1[i], a_k1[i], u, t_d);
      }
      return;
    }
    case Interpolation::kCubicSlerp: {
      const double* v_k = values + 3 * c * k + c;
      const double* b_k = v_k + c;
      const double* a_k1 = values + 3 * c * (k + 1);
      const double* v_k1 = a_k1 + c;
      store_quat(cubic_slerp_segment(load_quat(v_k), load_quat(b_k), load_quat(a_k1),
                                     load_quat(v_k1), u, options.sqlerp_inner),
                 out.data());
      return;
    }
  }
}

// Everything after the search: NaN, clamping, exact keys, interpolation.
void evaluate(const TrackView& track, std::size_t k, double t, std::span<double> out,
              const SampleOptions& options) {
  if (std::isnan(t)) {
    std::fill(out.begin(), out.end(), std::numeric_limits<double>::quiet_NaN());
    return;
  }
  // k is the largest key with times[k] <= t, or 0 before the first key. Before the
  // first key, at a key and after the last key the stored value is returned as-is.
  if (k + 1 >= track.times.size() || !(t > track.times[k])) {
    copy_value(track, k, out);
    return;
  }
  interpolate_segment(track, k, t, out, options);
}

void check_output(const TrackView& track, std::span<double> out) {
  if (out.size() != track.components)
    throw std::invalid_argument("gltf_anim::reference::sample: output size " +
                                std::to_string(out.size()) + " != components " +
                                std::to_string(track.components));
}

}  // namespace

std::size_t TrackView::values_per_keyframe() const {
  return mode_of(interpolation).outputs_per_key;
}

std::span<const double> TrackView::value(std::size_t k) const {
  const std::size_t stride = values_per_keyframe() * components;
  const std::size_t offset = mode_of(interpolation).value_index * components;
  return values.subspan(k * stride + offset, components);
}

std::string validate(const TrackView& track) {
  const std::size_t n = track.times.size();
  if (track.components == 0) return "components is 0";
  if (n == 0) return "no keyframes";
  const InterpolationMode& mode = mode_of(track.interpolation);
  if (n < mode.min_keys)
    return std::string(mode.name) + " needs at least " + std::to_string(mode.min_keys) +
           " keyframes, got " + std::to_string(n);
  if (track.kind == ValueKind::kRotation && track.components != 4)
    return "a rotation has 4 components (x, y, z, w), got " + std::to_string(track.components);
  if (mode.rotation_only && track.kind != ValueKind::kRotation)
    return std::string(mode.name) + " is for rotations only";
  const std::size_t expected = n * track.values_per_keyframe() * track.components;
  if (track.values.size() != expected)
    return "expected " + std::to_string(expected) + " values (" + std::to_string(n) +
           " keyframes x " + std::to_string(track.values_per_keyframe()) + " x " +
           std::to_string(track.components) + " components), got " +
           std::to_string(track.values.size());
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(track.times[k])) return "time " + std::to_string(k) + " is not finite";
    if (k > 0 && !(track.times[k] > track.times[k - 1]))
      return "times are not strictly increasing at keyframe " + std::to_string(k);
  }
  for (std::size_t i = 0; i < track.values.size(); ++i)
    if (!std::isfinite(track.values[i])) return "value " + std::to_string(i) + " is not finite";
  return {};
}

double interactivity_time(double r, double T) {
  if (T == 0) return 0;
  const double s = r > 0 ? std::ceil((r - T) / T) : std::floor(r / T);
  return r - s * T;
}

std::size_t find_keyframe(std::span<const double> times, double t) {
  if (std::isnan(t)) return 0;
  return last_not_greater(times.data(), times.size(), t);
}

std::size_t KeyframeCursor::find(std::span<const double> times, double t) {
  const std::size_t n = times.size();
  std::size_t k = std::min(k_, n - 1);
  if (t >= times[k]) {
    // Same segment, or the next one: O(1).
    if (k + 1 >= n || t < times[k + 1]) return k_ = k;
    if (k + 2 >= n || t < times[k + 2]) return k_ = k + 1;
  }
  // A jump (or NaN): binary search over all keys. Searching the whole range rather than
  // the part beside the cursor keeps the loop's trip count constant (no mispredicted
  // exit) and makes the search independent of the previous one's result, so for random
  // times the CPU overlaps consecutive searches instead of waiting on each.
  return k_ = find_keyframe(times, t);
}

void sample(const TrackView& track, double t, std::span<double> out,
            const SampleOptions& options) {
  check_output(track, out);
  evaluate(track, find_keyframe(track.times, t), t, out, options);
}

void sample(const TrackView& track, double t, KeyframeCursor& cursor, std::span<double> out,
            const SampleOptions& options) {
  check_output(track, out);
  evaluate(track, cursor.find(track.times, t), t, out, options);
}

void sample_batch(const TrackView& track, std::span<const double> times, std::span<double> out,
                  const SampleOptions& options) {
  const std::size_t c = track.components;
  if (out.size() != times.size() * c)
    throw std::invalid_argument("gltf_anim::reference::sample_batch: output size " +
                                std::to_string(out.size()) + " != times x components " +
                                std::to_string(times.size() * c));
  KeyframeCursor cursor;
  const bool slerp_track = track.kind == ValueKind::kRotation &&
                           (track.interpolation == Interpolation::kLinear ||
                            track.interpolation == Interpolation::kSlerp);
  if (!slerp_track) {
    for (std::size_t i = 0; i < times.size(); ++i)
      evaluate(track, cursor.find(track.times, times[i]), times[i], out.subspan(i * c, c),
               options);
    return;
  }
  // Rotation LINEAR/SLERP, in blocks of kBlock times: first all key searches of the block
  // (independent of each other, so the CPU overlaps them; for random times a search is a
  // chain of ~log2(n) dependent loads), then the evaluations, keeping the current
  // segment's SlerpSegment (dot, sign, acos, sin once per segment, not per sample). Same
  // bits as evaluate(): SlerpSegment is what slerp() uses.
  // Unsorted batches skip the cursor: its first comparisons would mispredict half the time.
  const bool sorted = std::is_sorted(times.begin(), times.end());
  constexpr std::size_t kBlock = 64;
  std::array<std::size_t, kBlock> keys{};
  std::size_t cached = track.times.size();  // no segment yet
  SlerpSegment segment;
  // Unsorted batches at least as long as the track: a table of prepared segments, filled
  // on first use, so each segment's acos and sin are computed once, not once per sample.
  // Capped (88 bytes per segment, ~23 MB at the cap); longer tracks set up per sample.
  constexpr std::size_t kMaxTableSegments = std::size_t{1} << 18;
  const std::size_t segments = track.times.size() - 1;
  std::vector<SlerpSegment> table;
  std::vector<unsigned char> ready;
  if (!sorted && times.size() >= segments && segments <= kMaxTableSegments) {
    table.resize(segments);
    ready.assign(segments, 0);
  }
  for (std::size_t first = 0; first < times.size(); first += kBlock) {
    const std::size_t count = std::min(kBlock, times.size() - first);
    if (sorted) {
      for (std::size_t j = 0; j < count; ++j) keys[j] = cursor.find(track.times, times[first + j]);
    } else {
      for (std::size_t j = 0; j < count; ++j) keys[j] = find_keyframe(track.times, times[first + j]);
    }
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t i = first + j;
      const double t = times[i];
      const std::size_t k = keys[j];
      if (std::isnan(t) || k + 1 >= track.times.size() || !(t > track.times[k])) {
        evaluate(track, k, t, out.subspan(i * c, c), options);
        continue;
      }
      const double* v_k = track.values.data() + 4 * k;
      const double t_k = track.times[k];
      const double u = (t - t_k) / (track.times[k + 1] - t_k);
      if (!table.empty()) {
        if (!ready[k]) {
          table[k] = SlerpSegment(load_quat(v_k), load_quat(v_k + 4), options.linear_rotation);
          ready[k] = 1;
        }
        store_quat(table[k].at(u), out.data() + i * c);
        continue;
      }
      if (k != cached) {
        segment = SlerpSegment(load_quat(v_k), load_quat(v_k + 4), options.linear_rotation);
        cached = k;
      }
      store_quat(segment.at(u), out.data() + i * c);
    }
  }
}

}  // namespace gltf_anim::reference
