// gltf-anim reduce: keyframe reduction under a guaranteed bound (docs/TOOLS.md, "reduce").
// The maths are repair/reduce.hpp; the load, validate, write and report steps are the
// repair tools' one pipeline (repair/tool.hpp). This file groups the channels and turns
// reductions into edited tracks and summaries.
#include <gltf_anim/repair/reduce.hpp>
#include <gltf_anim/repair/tool.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"
#include "repair_command.hpp"

namespace gltf_anim::cli {
namespace {

using repair::EditableTrack;
using repair::Quantization;

// The normalized type a stored format is, kNone for FLOAT; nullopt for a format reduce
// cannot write back (integers that are not normalized: KHR_animation_pointer int and bool
// targets, whose values are not interpolated numbers).
std::optional<Quantization> stored_type(const gltf::ElementFormat& f) {
  if (f.component_type == gltf::ComponentType::kFloat) return Quantization::kNone;
  if (!f.normalized) return std::nullopt;
  switch (f.component_type) {
    case gltf::ComponentType::kByte: return Quantization::kByte;
    case gltf::ComponentType::kUnsignedByte: return Quantization::kUnsignedByte;
    case gltf::ComponentType::kShort: return Quantization::kShort;
    case gltf::ComponentType::kUnsignedShort: return Quantization::kUnsignedShort;
    default: return std::nullopt;
  }
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// glTF 2.0 3.11 allows normalized integer outputs for rotations and morph weights only
// (KHR_animation_pointer keeps that for the same properties).
bool may_quantize(const EditableTrack& t) {
  return t.kind == reference::ValueKind::kRotation || ends_with(t.target, "/weights");
}

std::string type_name(Quantization q) {
  switch (q) {
    case Quantization::kByte: return "BYTE";
    case Quantization::kUnsignedByte: return "UNSIGNED_BYTE";
    case Quantization::kShort: return "SHORT";
    case Quantization::kUnsignedShort: return "UNSIGNED_SHORT";
    case Quantization::kNone: break;
  }
  return "FLOAT";
}

// Exporters pack many samplers' accessors in one bufferView, and a bufferView's bytes are
// dropped only when no accessor points at it any more. So an accessor that shares a
// bufferView with one the reduction rewrote, and that only samplers read, is moved out
// as it is (the same values in the same format); then the whole view can be compacted.
// A view that also holds an accessor we cannot move (a mesh's, a skin's, one no channel
// decodes) is left as it is.
bool move_out_neighbours(const repair::ToolInput& in, gltf::Edit& edit, std::string& why) {
  struct Data {
    const std::vector<double>* values;
    gltf::ElementFormat format;
  };
  std::map<std::size_t, Data> decoded;
  for (const EditableTrack& t : in.tracks) {
    decoded.emplace(
        t.input, Data{&t.times, gltf::ElementFormat{gltf::ComponentType::kFloat, gltf::ElementType::kScalar, false}});
    decoded.emplace(t.output, Data{&t.values, t.output_format});
  }
  std::map<std::uint64_t, std::vector<std::size_t>> by_view;
  for (std::size_t a = 0; a < in.asset.accessors.size(); ++a) {
    if (const auto view = in.asset.accessors[a].buffer_view) by_view[*view].push_back(a);
  }
  for (const auto& [view, accessors] : by_view) {
    bool some_moved = false, all_movable = true;
    for (std::size_t a : accessors) {
      const gltf::SourceAccessor* now = edit.accessor(a);
      if (now && now->buffer_view != in.asset.accessors[a].buffer_view) {
        some_moved = true;
      } else if (!decoded.count(a) || a >= in.uses.size() || in.uses[a].elsewhere) {
        all_movable = false;
      }
    }
    if (!some_moved || !all_movable) continue;
    for (std::size_t a : accessors) {
      const gltf::SourceAccessor* now = edit.accessor(a);
      if (now && now->buffer_view != in.asset.accessors[a].buffer_view) continue;
      const Data& d = decoded.at(a);
      if (!edit.replace_accessor(a, *d.values, d.format, why)) return false;
    }
  }
  return true;
}

// The tool's body: every group of channels that share a time accessor is reduced by
// repair::reduce_tracks, jointly (a key goes only where all of them can lose it, so they
// keep sharing one reduced time accessor) or each alone when that stores fewer bytes
// (--keep-shared-times: always jointly); write_tracks gives samplers whose new times (or
// values) are equal one accessor, across groups and animations, and the accessors left
// unread read its bytes (repair::EqualAccessors::kMerge). A channel that collapses to one
// value leaves its group.
bool reduce_body(const repair::ReduceOptions& options, repair::ToolInput& in, gltf::Edit& edit,
                 repair::ToolReport& report, std::string& why) {
  const std::vector<EditableTrack>& tracks = in.tracks;
  std::vector<EditableTrack> after = tracks;
  std::vector<repair::ReducedTrack> reduced(tracks.size());
  std::vector<bool> done(tracks.size(), false);
  std::vector<std::vector<std::string>> notes(tracks.size());
  for (const std::string& s : in.skipped) report.notes.push_back("not reduced: " + s);

  // Groups by input accessor, in channel order.
  std::map<std::size_t, std::vector<std::size_t>> groups;
  for (std::size_t k = 0; k < tracks.size(); ++k) {
    const EditableTrack& t = tracks[k];
    if (t.sqlerp || t.mode == reference::Interpolation::kCubicSlerp) {
      notes[k].push_back(
          "EXT_animation_sqlerp control points depend on the neighbouring keys: "
          "not reduced");
      continue;
    }
    if (!stored_type(t.output_format)) {
      notes[k].push_back("integer output (not interpolated): not reduced");
      continue;
    }
    groups[t.input].push_back(k);
  }
  for (const auto& [input, members] : groups) {
    std::vector<repair::TrackToReduce> group;
    for (std::size_t k : members)
      group.push_back(
          {tracks[k].view(), may_quantize(tracks[k]), *stored_type(tracks[k].output_format)});
    const repair::ReduceResult r = repair::reduce_tracks(group, options);
    if (!r.error.empty()) {
      for (std::size_t k : members) notes[k].push_back("not reduced: " + r.error);
      continue;
    }
    for (std::size_t m = 0; m < members.size(); ++m) {
      reduced[members[m]] = r.tracks[m];
      done[members[m]] = true;
    }
  }

  // An animation lasts until the latest key of its channels: when every channel that
  // reached the end collapsed to one key, one of them keeps a second key there (the same
  // value, so the same error).
  std::map<std::size_t, double> end_before, end_after;
  for (std::size_t k = 0; k < tracks.size(); ++k) {
    if (tracks[k].times.empty()) continue;
    double& before =
        end_before.try_emplace(tracks[k].animation, tracks[k].times.back()).first->second;
    before = std::max(before, tracks[k].times.back());
    const double last = done[k] ? reduced[k].times.back() : tracks[k].times.back();
    double& now = end_after.try_emplace(tracks[k].animation, last).first->second;
    now = std::max(now, last);
  }
  for (std::size_t k = 0; k < tracks.size(); ++k) {
    const std::size_t a = tracks[k].animation;
    if (!done[k] || !reduced[k].collapsed || end_after[a] >= end_before[a] ||
        tracks[k].times.back() != end_before[a] || reduced[k].times.size() != 1)
      continue;
    reduced[k].times.push_back(tracks[k].times.back());
    const std::vector<double> value = reduced[k].values;
    reduced[k].values.insert(reduced[k].values.end(), value.begin(), value.end());
    end_after[a] = end_before[a];
  }

  for (std::size_t k = 0; k < tracks.size(); ++k) {
    const EditableTrack& t = tracks[k];
    repair::ChannelSummary summary;
    summary.channel = t.channel_pointer;
    summary.target = t.target;
    summary.interpolation_before = summary.interpolation_after = t.interpolation;
    summary.keys_before = summary.keys_after = t.times.size();
    summary.bytes_before = summary.bytes_after =
        repair::accessor_bytes(in.asset, t.input) + repair::accessor_bytes(in.asset, t.output);
    summary.notes = notes[k];
    if (done[k]) {
      const repair::ReducedTrack& r = reduced[k];
      EditableTrack& e = after[k];
      e.times = r.times;
      e.values = r.values;
      std::size_t component_bytes = 4;
      if (r.quantization != Quantization::kNone) {
        e.output_format.component_type = repair::component_type(r.quantization);
        e.output_format.normalized = true;
        component_bytes = repair::component_size(r.quantization);
        summary.notes.push_back("outputs quantized to normalized " + type_name(r.quantization));
      } else {
        component_bytes = repair::component_size(*stored_type(t.output_format));
      }
      if (r.collapsed) summary.notes.push_back("constant within the bound: one value");
      summary.keys_after = e.times.size();
      summary.bytes_after = 4 * e.times.size() + component_bytes * e.values.size();
      if (t.kind == reference::ValueKind::kRotation)
        summary.max_angle = r.max_error;
      else
        summary.max_error = r.max_error;
    }
    repair::add_summaries(report.channels, t, std::move(summary));
  }
  return repair::write_tracks(edit, in.uses, tracks, after, why, repair::EqualAccessors::kMerge) &&
         move_out_neighbours(in, edit, why);
}

}  // namespace

int run_reduce(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "reduce",
      "gltf-anim reduce IN -o OUT --max-error E [--max-angle A] [--quantize] [--dry-run] "
      "[--format text|json]",
      "Removes keyframes while the animation stays within a bound over its whole time range:\n"
      "every component of translation, scale, weights and KHR_animation_pointer values within\n"
      "E, every rotation within the angle A (radians, default 2E). Checked against the\n"
      "original with the reference evaluator at every key and densely inside every segment.\n"
      "STEP, LINEAR and CUBICSPLINE (with the kept keys' own tangents); channels constant\n"
      "within the bound collapse to one value; channels that share a time accessor are\n"
      "reduced together and keep sharing it, or each alone when that stores fewer bytes\n"
      "(--keep-shared-times: always together); samplers' accessors of equal contents are\n"
      "written once. --quantize stores rotations and weights as\n"
      "normalized integers where the rounding fits in half the bound (counted in the error).\n"
      "The output is validated and refused (exit 2) if it has an error the input has not;\n"
      "the input is never overwritten without --in-place. Exit 1: the input has errors\n"
      "(--force to reduce anyway).",
      "gltf-anim reduce Fox.glb -o Fox.reduced.glb --max-error 1e-4\n"
      "  gltf-anim reduce scene.gltf -o small/scene.gltf --max-error 1e-3 --quantize --format "
      "json"};
  po::options_description options("Options");
  add_tool_options(options);
  options.add_options()("max-error", po::value<std::string>(),
                        "E: largest component error (required, >= 0)")(
      "max-angle", po::value<std::string>(), "A: largest rotation angle, radians (default 2E)")(
      "quantize", po::bool_switch(),
      "rotations and weights as normalized integers, within the bound")(
      "keep-shared-times", po::bool_switch(),
      "channels sharing a time accessor keep sharing it, even where splitting is smaller");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, tool_positional(), args, exit_code);
  if (!vm) return exit_code;
  const std::optional<repair::ToolOptions> tool_opts = tool_options(*vm, kHelp);
  if (!tool_opts) return kExitUsage;
  std::optional<double> max_error, max_angle;
  if (!number_option(*vm, kHelp, "max-error", 0.0, 1e300, false, max_error)) return kExitUsage;
  if (!number_option(*vm, kHelp, "max-angle", 0.0, 1e300, false, max_angle)) return kExitUsage;
  if (!max_error) {
    std::cerr << "gltf-anim reduce: --max-error is required (gltf-anim reduce --help)\n";
    return kExitUsage;
  }
  repair::ReduceOptions reduce;
  reduce.bounds = repair::ReduceBounds::from_max_error(*max_error, max_angle);
  reduce.quantize = (*vm)["quantize"].as<bool>();
  if ((*vm)["keep-shared-times"].as<bool>()) reduce.shared_times = repair::SharedTimes::kKeep;

  repair::Tool tool;
  tool.name = "reduce";
  tool.body = [&reduce](repair::ToolInput& in, gltf::Edit& edit, repair::ToolReport& report,
                        std::string& why) { return reduce_body(reduce, in, edit, report, why); };
  return run_repair_tool(tool, *tool_opts, kHelp);
}

}  // namespace gltf_anim::cli
