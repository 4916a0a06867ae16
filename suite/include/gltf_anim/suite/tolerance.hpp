#pragma once
// The suite's tolerance model (docs/CONFORMANCE.md, "Tolerances"): how far an
// engine that follows the specs but computes in float32 can be from the
// double-precision golden samples, bounded per sample from the case's own data
// and taken per case as the largest bound over its samples.
#include <gltf_anim/sampler/sample.hpp>

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

struct CaseTolerances {
  double absolute = kToleranceFloor;
  double angle = kToleranceFloor;
};

// The tolerances of the asset's case. float32_time_is_a_variant: the case
// lists "time rounded to float32" as a variant (a segment shorter than float32
// time resolves), so the time terms are left out rather than widening the
// tolerance to the variant's size.
CaseTolerances derive_tolerances(const std::vector<sampler::DecodedChannel>& channels, bool float32_time_is_a_variant);

// The bound of one sample (see tolerance.cpp), for the record and for tests.
double float32_error_bound(const sampler::DecodedChannel& channel, double t, bool time_terms = true);

}  // namespace gltf_anim::suite
