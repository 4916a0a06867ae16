#pragma once
// The plot of a failing channel in the HTML compare report: one <figure> with
// a caption and an inline SVG (no script, no external resource). Panels share
// the time axis: the values (golden thick, actual dashed, per component; STEP
// channels drawn as steps), for rotations the angle of rotation of both, and
// the error per sample as markers on a log scale with the tolerance line.
// Keyframes are marked on every panel. Long channels are decimated to a fixed
// number of time buckets (each bucket's smallest and largest value kept) and
// wide ones to the components with the largest error, so a plot's size is
// bounded whatever the channel; the caption says when either happened.
#include <gltf_anim/compare/compare.hpp>

#include <cstddef>
#include <iosfwd>

namespace gltf_anim::reports::detail {

// Samples drawn one by one up to this count; above it, kPlotBuckets buckets.
inline constexpr std::size_t kPlotMaxSamples = 300;
inline constexpr std::size_t kPlotBuckets = 200;
// Components drawn at most (the ones with the largest error).
inline constexpr std::size_t kPlotMaxComponents = 8;
// Plots in one HTML report at most: the first failing channels in the
// report's order (failures first). A plot is bounded (about 150 KB at worst),
// so the report stays one a browser opens (about 15 MB of plots at most)
// however many channels fail; every failing channel keeps its worst-samples
// table.
inline constexpr std::size_t kPlotMaxFigures = 100;

// Writes nothing when the channel has no plot data (times empty).
void write_channel_figure(std::ostream& out, const compare::ChannelResult& channel);

}  // namespace gltf_anim::reports::detail
