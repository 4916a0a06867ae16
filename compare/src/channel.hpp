// Inside compare/: the pieces of channel comparison that the alternatives
// reuse (samples by time, golden times matched, one sample's error).
#pragma once

#include <gltf_anim/compare/compare.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace gltf_anim::compare::detail {

// The indices of a channel's samples, sorted by time.
std::vector<std::size_t> order_by_time(const samples::SampledChannel& c);

// For each golden time (by position in `go`, the golden samples by time), the
// index of the sample of `a` it matches, or -1.
std::vector<std::ptrdiff_t> match_times(const samples::SampledChannel& g,
                                        const std::vector<std::size_t>& go,
                                        const samples::SampledChannel& a, double eps);

// One sample's error under `measure`; NaN counts as infinitely wrong.
double sample_error(ErrorMeasure measure, std::span<const double> a, std::span<const double> b);
// A rotation's length error: | |actual| - 1 |, or | |actual| - |expected| | when
// smaller (keys not exactly unit, slerped as stored); 0 for other measures.
double length_error(ErrorMeasure measure, std::span<const double> expected,
                    std::span<const double> actual);
// Whether `actual` is within the channel's tolerances of `expected` (angle or
// absolute error, and a rotation's length).
bool sample_within(const ChannelResult& r, std::span<const double> expected,
                   std::span<const double> actual);

}  // namespace gltf_anim::compare::detail
