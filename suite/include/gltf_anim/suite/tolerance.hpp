#pragma once
// The suite's tolerance model (docs/CONFORMANCE.md, "Tolerances"): how far an
// engine that follows the specs but computes in float32 can be from the
// double-precision golden samples, bounded per sample from the case's own data
// and taken per channel as the largest bound over its samples.
#include <gltf_anim/sampler/sample.hpp>

#include <cstddef>
#include <vector>

namespace gltf_anim::suite {

// float32's unit roundoff, 2^-24: a correctly rounded float32 operation is off
// by at most u relative.
inline constexpr double kFloat32Roundoff = 0x1p-24;
// Roundings a float32 engine's inputs go through, at most, in any of the
// formulas (lerp 3, slerp about 8 with acos and sin, Hermite about 10, sqlerp
// three slerps in a row, with the normalized time s before them): the factor on
// the first-order sensitivity to a relative change of u in each input.
inline constexpr double kFloat32Roundings = 32;
// No tolerance is set below this (the suite's earlier fixed tolerance).
inline constexpr double kToleranceFloor = 1e-6;

// One channel's tolerances: `value` is absolute (per component) or, for a
// rotation, radians; `length` bounds a rotation's |q| (0 for other channels).
struct ChannelTolerances {
  std::size_t animation = 0;
  std::size_t channel = 0;
  bool rotation = false;
  double value = kToleranceFloor;
  double length = 0;
};

// Per channel, and the case's (the largest of its channels', for readers that
// take one tolerance per case).
struct CaseTolerances {
  double absolute = kToleranceFloor;
  double angle = kToleranceFloor;
  double length = kToleranceFloor;
  std::vector<ChannelTolerances> channels;
  // The channel's own tolerance (value, or length) for an alternative's check.
  const ChannelTolerances& of(std::size_t animation, std::size_t channel) const;
};

// What a bound is about: the compare measure of the value (absolute or angle),
// or a rotation's length |q|.
enum class Bounded { kValue, kLength };

// The tolerances of the asset's case. float32_time_is_a_variant: the case
// lists "time rounded to float32" as a variant (a segment shorter than float32
// time resolves), so the time terms are left out rather than widening the
// tolerance to the variant's size.
CaseTolerances derive_tolerances(const std::vector<sampler::DecodedChannel>& channels, bool float32_time_is_a_variant);

// The bound of one sample (see tolerance.cpp), for the record and for tests.
double float32_error_bound(const sampler::DecodedChannel& channel, double t, bool time_terms = true,
                           Bounded what = Bounded::kValue);

}  // namespace gltf_anim::suite
