// The reduce tool (repair/tools.hpp; docs/TOOLS.md, "reduce"): the maths are reduce.hpp; this
// file groups the channels and turns reductions into edited tracks and summaries. The load,
// validate, write and report steps are the repair tools' one pipeline (repair/tool.hpp).
#include <gltf_anim/repair/tools.hpp>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::repair {
namespace {

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

// Why reduce keeps a track's outputs as they are (stored_type has none for their format).
std::string unwritable(const EditableTrack& t) {
  switch (t.output_format.component_type) {
    case gltf::ComponentType::kDouble:
    case gltf::ComponentType::kHalfFloat: {
      const bool f64 = t.output_format.component_type == gltf::ComponentType::kDouble;
      // The drafts validate accepts when declared; reduce writes FLOAT or normalized integers
      // only, and rounding to FLOAT is not a change a reduction may make unasked.
      return std::string("its outputs (accessor ") + std::to_string(t.output) +
             ") are componentType " + (f64 ? "5130 (float64" : "5131 (float16") +
             ", the draft KHR_accessor_" + (f64 ? "float64" : "float16") +
             "), which reduce does not write";
    }
    default:
      return "integer output (not interpolated)";
  }
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// glTF 2.0 3.11 allows normalized integer outputs for rotations and morph weights only
// (KHR_animation_pointer keeps that for the same properties).
bool may_quantize(const EditableTrack& t) {
  return t.keys.kind == reference::ValueKind::kRotation || ends_with(t.target, "/weights");
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
bool move_out_neighbours(ToolInput& in, gltf::Edit& edit, std::string& why) {
  // The first track that decodes each accessor, and as what (its times or its values): the
  // keys of a track whose were dropped are decoded again, one track at a time.
  struct Data {
    std::size_t track;
    bool times;
  };
  std::map<std::size_t, Data> decoded;
  for (std::size_t k = 0; k < in.tracks.size(); ++k) {
    decoded.emplace(in.tracks[k].input, Data{k, true});
    decoded.emplace(in.tracks[k].output, Data{k, false});
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
      EditableTrack& t = in.tracks[d.track];
      const bool held = t.keys_held;
      if (!decode_keys(in.asset, t)) {
        why = t.channel_pointer + ": its keys could not be decoded again";
        return false;
      }
      const bool ok = d.times ? edit.replace_accessor(a, t.keys.times,
                                                      gltf::ElementFormat{gltf::ComponentType::kFloat,
                                                                          gltf::ElementType::kScalar,
                                                                          false},
                                                      why)
                              : edit.replace_accessor(a, t.keys.values, t.output_format, why);
      if (!held) release_keys(t, nullptr);  // written: the session holds its bytes
      if (!ok) return false;
    }
  }
  return true;
}

// The tool's body: every group of channels that share a time accessor is reduced by
// reduce_tracks, jointly (a key goes only where all of them can lose it, so they
// keep sharing one reduced time accessor) or each alone when that stores fewer bytes
// (--keep-shared-times: always jointly); write_tracks gives samplers whose new times (or
// values) are equal one accessor, across groups and animations, and the accessors left
// unread read its bytes (EqualAccessors::kMerge). A channel that collapses to one
// value leaves its group. The tracks come without their keys: a group's are decoded when
// it is reduced and dropped once it is, so what is held is the input, one group's keys
// and the reduced tracks (those reduce leaves as they are are decoded again at the end:
// write_tracks compares their contents with the others').
bool reduce_body(const ReduceOptions& options, ToolInput& in, gltf::Edit& edit, ToolReport& report,
                 std::string& why) {
  std::vector<EditableTrack>& tracks = in.tracks;
  const auto decode = [&](EditableTrack& t) {
    if (decode_keys(in.asset, t)) return true;
    why = t.channel_pointer + ": its keys could not be decoded again";
    return false;
  };
  // The edited tracks: a reduced one is held in `changed`, one left as it was is the track
  // read (never a second decoded copy of the asset).
  std::deque<EditableTrack> changed;  // stable addresses
  std::vector<const EditableTrack*> after(tracks.size());
  for (std::size_t k = 0; k < tracks.size(); ++k) after[k] = &tracks[k];
  std::vector<EditableTrack*> copy(tracks.size(), nullptr);  // after[k], when reduced
  std::vector<ReducedTrack> reduced(tracks.size());  // without keys: they are in `changed`
  std::vector<bool> done(tracks.size(), false);
  std::vector<std::vector<std::string>> notes(tracks.size());
  std::vector<double> last_time(tracks.size(), 0.0);  // each track's last key's time
  for (const std::string& s : in.skipped) report.notes.push_back("not reduced: " + s);

  // Groups by input accessor, in channel order.
  std::map<std::size_t, std::vector<std::size_t>> groups;
  for (std::size_t k = 0; k < tracks.size(); ++k) {
    EditableTrack& t = tracks[k];
    const bool held = t.keys_held;
    if (!decode(t)) return false;
    if (!t.keys.times.empty()) last_time[k] = t.keys.times.back();
    const std::string bad = non_finite_keys(t);
    if (!held) release_keys(t, nullptr);
    if (t.sqlerp || t.keys.interpolation == reference::Interpolation::kCubicSlerp) {
      notes[k].push_back(
          "EXT_animation_sqlerp control points depend on the neighbouring keys: "
          "not reduced");
      continue;
    }
    if (!bad.empty()) {
      notes[k].push_back("not reduced: " + bad);
      continue;
    }
    if (!stored_type(t.output_format)) {
      notes[k].push_back(unwritable(t) + ": not reduced");
      continue;
    }
    groups[t.input].push_back(k);
  }
  for (const auto& [input, members] : groups) {
    for (std::size_t k : members) {
      if (!decode(tracks[k])) return false;
    }
    std::vector<TrackToReduce> group;
    for (std::size_t k : members)
      group.push_back(
          {tracks[k].view(), may_quantize(tracks[k]), *stored_type(tracks[k].output_format)});
    ReduceResult r = reduce_tracks(group, options);
    if (!r.error.empty()) {
      for (std::size_t k : members) notes[k].push_back("not reduced: " + r.error);
      continue;  // left as they are: decoded again at the end if dropped
    }
    for (std::size_t m = 0; m < members.size(); ++m) {
      const std::size_t k = members[m];
      EditableTrack& t = tracks[k];
      reduced[k] = std::move(r.tracks[m]);
      done[k] = true;
      // The track's copy, its keys then replaced (moved: the copy's own go at once).
      EditableTrack& e = changed.emplace_back(t);
      after[k] = copy[k] = &e;
      e.keys.times = std::move(reduced[k].keys.times);
      e.keys.values = std::move(reduced[k].keys.values);
      e.key_count = e.keys.times.size();
      // Dropped when they cannot equal the reduced keys, even once the end key below is
      // added back (one key more): the track's times and values both differ then. One
      // reduce barely changed stays decoded for the summary's and write_tracks' comparisons.
      if (e.keys.times.size() + 1 < t.keys.times.size()) release_keys(t, &e);
    }
  }

  // An animation lasts until the latest key of its channels: when every channel that
  // reached the end collapsed to one key, one of them keeps a second key there (the same
  // value, so the same error).
  std::map<std::size_t, double> end_before, end_after;
  for (std::size_t k = 0; k < tracks.size(); ++k) {
    if (tracks[k].key_count == 0) continue;
    double& before = end_before.try_emplace(tracks[k].animation, last_time[k]).first->second;
    before = std::max(before, last_time[k]);
    const double last = done[k] ? after[k]->keys.times.back() : last_time[k];
    double& now = end_after.try_emplace(tracks[k].animation, last).first->second;
    now = std::max(now, last);
  }
  for (std::size_t k = 0; k < tracks.size(); ++k) {
    const std::size_t a = tracks[k].animation;
    if (!done[k] || !reduced[k].collapsed || end_after[a] >= end_before[a] ||
        last_time[k] != end_before[a] || after[k]->keys.times.size() != 1)
      continue;
    EditableTrack& e = *copy[k];
    e.keys.times.push_back(last_time[k]);
    const std::vector<double> value = e.keys.values;
    e.keys.values.insert(e.keys.values.end(), value.begin(), value.end());
    end_after[a] = end_before[a];
  }

  // A time accessor shared by samplers counted once; equal times are written once across
  // the asset (EqualAccessors::kMerge), so they count once after the edit wherever they are.
  TimeBytes time_bytes(in.asset);
  for (std::size_t k = 0; k < tracks.size(); ++k) {
    EditableTrack& t = tracks[k];
    // Left as it was: its keys are its contents in write_tracks.
    if (!done[k] && !decode(t)) return false;
    ChannelSummary summary;
    summary.channel = t.channel_pointer;
    summary.target = t.target;
    summary.interpolation_before = summary.interpolation_after = t.interpolation;
    summary.keys_before = summary.keys_after = t.key_count;
    summary.notes = notes[k];
    const std::uint64_t input_bytes = accessor_bytes(in.asset, t.input);
    const std::uint64_t output_bytes = accessor_bytes(in.asset, t.output);
    summary.bytes_before = time_bytes.before(t, summary.notes) + output_bytes;
    if (done[k]) {
      const ReducedTrack& r = reduced[k];
      EditableTrack& e = *copy[k];
      std::size_t component_bytes = 4;
      if (r.quantization != Quantization::kNone) {
        e.output_format.component_type = component_type(r.quantization);
        e.output_format.normalized = true;
        component_bytes = component_size(r.quantization);
        summary.notes.push_back("outputs quantized to normalized " + type_name(r.quantization));
      } else {
        component_bytes = component_size(*stored_type(t.output_format));
      }
      if (r.collapsed) summary.notes.push_back("constant within the bound: one value");
      summary.keys_after = e.keys.times.size();
      // Keys dropped: they had more than the reduced track (above), so not the same times.
      const bool same_times = t.keys_held && t.keys.times.size() == e.keys.times.size() &&
                              std::memcmp(t.keys.times.data(), e.keys.times.data(),
                                          t.keys.times.size() * sizeof(double)) == 0;
      summary.bytes_after =
          time_bytes.after(t, e.keys.times, std::nullopt,
                           same_times ? input_bytes : 4 * e.keys.times.size(), summary.notes) +
          component_bytes * e.keys.values.size();
      if (t.keys.kind == reference::ValueKind::kRotation)
        summary.max_angle = r.max_error;
      else
        summary.max_error = r.max_error;
    } else {
      summary.bytes_after =
          time_bytes.after(t, t.keys.times, std::nullopt, input_bytes, summary.notes) +
          output_bytes;
    }
    add_summaries(report.channels, t, std::move(summary));
  }
  return write_tracks(edit, in.uses, tracks, after, why, EqualAccessors::kMerge) &&
         move_out_neighbours(in, edit, why);
}

}  // namespace

Tool reduce_tool(const ReduceOptions& options) {
  Tool tool;
  tool.name = "reduce";
  tool.body = [options](ToolInput& in, gltf::Edit& edit, ToolReport& report, std::string& why) {
    return reduce_body(options, in, edit, report, why);
  };
  tool.one_group_at_a_time = true;
  return tool;
}

}  // namespace gltf_anim::repair
