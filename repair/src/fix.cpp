// `gltf-anim fix`: each repair on the decoded tracks, keyed by its issue code.
#include <gltf_anim/reference/interpolation.hpp>
#include <gltf_anim/reference/quaternion.hpp>
#include <gltf_anim/repair/fix.hpp>
#include <gltf_anim/gltf/accessor.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>

namespace gltf_anim::repair {
namespace {

using reference::Interpolation;

// Registered codes (gltf::IssueCode): a misspelt one does not build.
constexpr gltf::IssueCode kNonIncreasing = "ACCESSOR_ANIMATION_INPUT_NON_INCREASING";
constexpr gltf::IssueCode kNonUnit = "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION";
constexpr gltf::IssueCode kNegativeDot = "LINT_ROTATION_NEGATIVE_DOT";
constexpr gltf::IssueCode kCubicTangent = "LINT_CUBICSPLINE_NONZERO_END_TANGENT";
constexpr gltf::IssueCode kSqlerpTangent = "EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT";
constexpr gltf::IssueCode kBoundCodes[] = {
    "ACCESSOR_MIN_MISMATCH", "ACCESSOR_MAX_MISMATCH", "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND",
    "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS"};

// The largest |length - 1| the validator accepts of a rotation key:
// glTF-Validator's unitLengthThresholdVec4, which the validator's rules use.
// Keys within it are left as they are (nothing reports them).
constexpr double kUnitTolerance = 0.00769;

std::string count_text(std::size_t n, std::string_view what) {
  return std::to_string(n) + " " + std::string(what) + (n == 1 ? "" : "s");
}

// Largest difference between two valid tracks' playback at every key of
// either and kSegmentSamples - 1 evenly spaced times inside each of their segments
// (a normalized tangent bends the curve off its midpoint too): a component
// difference for vectors, the angle for rotations.
constexpr int kSegmentSamples = 8;
double playback_difference(const EditableTrack& a, const EditableTrack& b) {
  std::vector<double> times;
  for (const EditableTrack* t : {&a, &b}) {
    for (std::size_t k = 0; k < t->keys.times.size(); ++k) {
      times.push_back(t->keys.times[k]);
      if (k + 1 == t->keys.times.size()) continue;
      for (int s = 1; s < kSegmentSamples; ++s)
        times.push_back(t->keys.times[k] +
                        (t->keys.times[k + 1] - t->keys.times[k]) * s / kSegmentSamples);
    }
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  std::vector<double> va(a.keys.components * times.size()), vb(b.keys.components * times.size());
  reference::sample_batch(a.view(), times, va);
  reference::sample_batch(b.view(), times, vb);
  double worst = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const std::span<const double> x(va.data() + k * a.keys.components, a.keys.components);
    const std::span<const double> y(vb.data() + k * b.keys.components, b.keys.components);
    if (a.keys.kind == reference::ValueKind::kRotation) {
      worst = std::max(worst, reference::rotation_angle(x, y));
    } else {
      for (std::size_t c = 0; c < x.size(); ++c) worst = std::max(worst, std::abs(x[c] - y[c]));
    }
  }
  return worst;
}

// The bytes of a track's values written in its output format (float64 and float16 too).
std::uint64_t value_bytes(const EditableTrack& t) {
  return t.keys.values.size() * gltf::component_size(t.output_format.component_type);
}

// Bit for bit: NaN keys are the same keys when left as they are.
bool same_bits(std::span<const double> a, std::span<const double> b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// The accessor index a pointer "/accessors/i..." names.
std::optional<std::size_t> accessor_of(std::string_view pointer) {
  constexpr std::string_view kPrefix = "/accessors/";
  if (pointer.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  pointer.remove_prefix(kPrefix.size());
  std::size_t index = 0;
  const auto r = std::from_chars(pointer.data(), pointer.data() + pointer.size(), index);
  if (r.ec != std::errc() || (r.ptr != pointer.data() + pointer.size() && *r.ptr != '/')) {
    return std::nullopt;
  }
  return index;
}

// Values with the accessor's min and max: all its elements, or for an accessor without
// bufferView (every element zero but the sparse substitutions, and only those stored) its
// substituted elements and one zero element when an element is left zero. Linear in the
// bytes the asset stores, never in the count it declares. false when it cannot be read.
bool bounds_values(const gltf::LoadedAsset& asset, std::size_t accessor,
                   std::vector<double>& values) {
  values.clear();
  const std::optional<gltf::AccessorReader> reader = gltf::AccessorReader::open(asset, accessor);
  if (!reader) return false;
  if (reader->has_stored_base() || reader->count() == 0) {
    return gltf::read_accessor(asset, accessor, values);
  }
  const std::size_t n = reader->components();
  const std::span<const std::uint32_t> indices = reader->sparse_indices();
  values.resize(indices.size() * n);
  for (std::size_t k = 0; k < indices.size(); ++k) {
    if (!reader->read(indices[k], 1, values.data() + k * n)) return false;
  }
  if (indices.size() < reader->count()) values.insert(values.end(), n, 0.0);
  return true;
}

// A unit rotation `q` about to be written as normalized BYTE or SHORT: each component is
// rounded down or up (one quantization step at most from the unit value) as the
// combination that keeps the length within the validator's tolerance and, among those,
// makes the smallest angle to q; q becomes that decoded value, which the writer encodes
// back exactly. Plain rounding of each component can leave the length off by more than
// the tolerance (BYTE: up to 2/127) or turn the rotation by more than needed.
void requantize(double* q, const gltf::ElementFormat& format) {
  if (!format.normalized) return;
  const double scale = format.component_type == gltf::ComponentType::kByte    ? 127.0
                       : format.component_type == gltf::ComponentType::kShort ? 32767.0
                                                                               : 0.0;
  if (scale == 0.0) return;
  const std::array<double, 4> unit = {q[0], q[1], q[2], q[3]};
  std::array<double, 4> best = unit;
  bool best_ok = false;
  double best_angle = std::numeric_limits<double>::infinity();
  for (int mask = 0; mask < 16; ++mask) {
    std::array<double, 4> c;
    for (int i = 0; i < 4; ++i) {
      const double scaled = unit[i] * scale;
      const double r = (mask >> i) & 1 ? std::ceil(scaled) : std::floor(scaled);
      c[i] = std::clamp(r, -scale, scale) / scale;
    }
    const double length = std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2] + c[3] * c[3]);
    if (!(length > 0)) continue;
    const bool ok = std::abs(length - 1.0) <= kUnitTolerance;
    const double angle = reference::rotation_angle(c, unit);
    if ((ok && !best_ok) || (ok == best_ok && angle < best_angle)) {
      best = c;
      best_ok = ok;
      best_angle = angle;
    }
  }
  std::copy(best.begin(), best.end(), q);
}

class Fixer {
 public:
  Fixer(const FixOptions& options, ToolInput& in, gltf::Edit& edit, ToolReport& report)
      : options_(options), in_(in), edit_(edit), report_(report) {}

  bool run(std::string& why) {
    // A channel whose keys cannot be decoded cannot be repaired here: said, with why.
    for (const std::string& s : in_.skipped) report_.notes.push_back("not repaired: " + s);
    // A repair of a channel's keys that the channel's skip prevents is refused, not left
    // to a note: the code would stay in the output while fix exits 0.
    if (const std::optional<std::string> refusal = skipped_key_repair()) {
      why = *refusal;
      return false;
    }
    // A copy kept only of the tracks a repair changes (one at a time is made to try): a
    // track left as it was is handed back as the one read, so an asset that needs few
    // repairs is not held twice decoded.
    // Each track is decoded as it is reached and its keys dropped once repaired and
    // summarized: the asset is held decoded one sampler at a time, not whole.
    std::deque<EditableTrack> changed;  // stable addresses
    std::vector<const EditableTrack*> after(in_.tracks.size());
    // The summaries go into the report once the edit is written, as before.
    std::vector<ChannelSummary> summaries;
    for (std::size_t k = 0; k < after.size(); ++k) {
      EditableTrack& before = in_.tracks[k];
      if (!decode_keys(in_.asset, before)) {
        why = before.channel_pointer + ": its keys could not be decoded again";
        return false;
      }
      EditableTrack t = before;
      fix_track(before, t);  // changes times and values only
      if (same_bits(t.keys.times, before.keys.times) && same_bits(t.keys.values, before.keys.values)) {
        after[k] = &before;
      } else {
        changed.push_back(std::move(t));
        after[k] = &changed.back();
      }
      summarize(before, *after[k], summaries);
      release_keys(before, after[k]);
    }
    if (!write_tracks(edit_, in_.uses, in_.tracks, after, why)) return false;
    report_.channels.insert(report_.channels.end(), std::make_move_iterator(summaries.begin()),
                            std::make_move_iterator(summaries.end()));
    fix_bounds();
    if (!options_.only) report_unfixable();
    return true;
  }

 private:
  bool selected(std::string_view code) const {
    return !options_.only || std::any_of(options_.only->begin(), options_.only->end(),
                                         [code](gltf::IssueCode c) { return c.name() == code; });
  }
  bool selected(gltf::IssueCode code) const { return selected(code.name()); }

  // One record per place: channels sharing an accessor share its repair.
  // The first key repair (in the order of the skipped channels, then of the issues) that
  // lands on a channel editable_tracks skipped, as the refusal that says so. The skipped
  // channels ("/animations/A/channels/C: why") are indexed once and each issue looks up the
  // channel its pointer starts with: one pass over each list. Before, every issue was
  // compared with every skipped channel (a string built per pair): 4,000 animations whose
  // channels name no sampler took 4.6 s of CPU, 10,000 took 54 s.
  std::optional<std::string> skipped_key_repair() const {
    if (in_.skipped.empty()) return std::nullopt;
    std::unordered_map<std::string_view, std::size_t> first_skip;
    for (std::size_t k = 0; k < in_.skipped.size(); ++k) {
      const std::string& s = in_.skipped[k];
      first_skip.emplace(std::string_view(s).substr(0, s.find(": ")), k);
    }
    std::optional<std::pair<std::size_t, std::size_t>> first;  // (skip, issue)
    for (std::size_t i = 0; i < in_.report.issues.size(); ++i) {
      const gltf::Issue& issue = in_.report.issues[i];
      const bool key_repair =
          issue.code == kNonUnit.name() || issue.code == kNegativeDot.name() ||
          issue.code == kCubicTangent.name() || issue.code == kSqlerpTangent.name();
      if (!key_repair || !selected(issue.code)) continue;
      const std::optional<std::string_view> channel = channel_of(issue.pointer);
      if (!channel) continue;
      const auto it = first_skip.find(*channel);
      if (it == first_skip.end()) continue;
      if (!first || it->second < first->first) first.emplace(it->second, i);
    }
    if (!first) return std::nullopt;
    const std::string& s = in_.skipped[first->first];
    const gltf::Issue& issue = in_.report.issues[first->second];
    const std::size_t channel = s.find(": ");
    return std::string(issue.code) + " at " + issue.pointer +
           " cannot be repaired: its channel's keys are not decoded (" +
           s.substr(std::min(s.size(), channel == std::string::npos ? s.size() : channel + 2)) +
           "); nothing written (--only without it leaves it as it is)";
  }

  // "/animations/A/channels/C" of a pointer that is it or starts with it and "/".
  static std::optional<std::string_view> channel_of(std::string_view pointer) {
    constexpr std::string_view kAnimations = "/animations/";
    if (pointer.substr(0, kAnimations.size()) != kAnimations) return std::nullopt;
    std::size_t end = kAnimations.size();
    for (int token = 0; token < 3; ++token) {  // A, "channels", C
      end = pointer.find('/', end);
      if (end == std::string_view::npos) {
        if (token == 2) break;
        return std::nullopt;
      }
      if (token == 0 && pointer.substr(end, 10) != "/channels/") return std::nullopt;
      if (token < 2) ++end;
    }
    return pointer.substr(0, end == std::string_view::npos ? pointer.size() : end);
  }

  void record(gltf::IssueCode code, const std::string& pointer, std::string action,
              std::string playback, bool fixed = true) {
    if (!recorded_.insert(std::string(code.name()) + " " + pointer).second) return;
    report_.repairs.push_back({code, pointer, std::move(action), std::move(playback), fixed});
  }

  void fix_track(const EditableTrack& before, EditableTrack& t) {
    const std::size_t per_key = reference::mode_of(t.keys.interpolation).outputs_per_key;
    const std::size_t stride = per_key * t.keys.components;
    const std::string input = "/accessors/" + std::to_string(t.input);
    const std::string output = "/accessors/" + std::to_string(t.output);
    // Finite times that increase (the usual case) keep every key: no list of the kept ones
    // (8 bytes a key) is made for a channel that has nothing to drop.
    bool increasing = true;
    for (std::size_t k = 0; k < t.keys.times.size() && increasing; ++k)
      increasing = std::isfinite(t.keys.times[k]) && (k == 0 || t.keys.times[k] > t.keys.times[k - 1]);
    if (selected(kNonIncreasing) && !increasing) {
      // Keep a key when its time is greater than the last kept key's; at an
      // equal time the later key replaces it; anything else is dropped.
      std::vector<std::size_t> keep;
      std::size_t repeated = 0;
      for (std::size_t k = 0; k < t.keys.times.size(); ++k) {
        const double time = t.keys.times[k];
        if (!std::isfinite(time)) continue;
        if (keep.empty() || time > t.keys.times[keep.back()]) {
          keep.push_back(k);
        } else if (time == t.keys.times[keep.back()]) {
          keep.back() = k;
          ++repeated;
        }
      }
      if (keep.empty() && !t.keys.times.empty()) {
        // No time to keep (all NaN or infinite): dropping every key would leave a sampler
        // without keys, which no player plays either. The channel stays as it is, said.
        // Under the code validate reports for these times (one per element).
        record("ACCESSOR_INVALID_FLOAT", input,
               "not fixable: " + non_finite_keys(before) + ", so no key can be kept; " +
                   t.sampler_pointer + " and its channels are left as they are",
               "unchanged: the spec defines no playback for times that are not numbers", false);
        return;
      }
      if (keep.size() != t.keys.times.size()) {
        std::vector<double> times, values;
        for (const std::size_t k : keep) {
          times.push_back(t.keys.times[k]);
          values.insert(values.end(),
                        t.keys.values.begin() + static_cast<std::ptrdiff_t>(k * stride),
                        t.keys.values.begin() + static_cast<std::ptrdiff_t>((k + 1) * stride));
        }
        const std::size_t dropped = t.keys.times.size() - keep.size();
        record(kNonIncreasing, input,
               count_text(dropped, "key") + " dropped of " + std::to_string(t.keys.times.size()) +
                   " (" + count_text(repeated, "repeated time") +
                   " keeping the later key's value; the others not after the last kept key or "
                   "not finite), every sampler of this input alike",
               "the spec defines no playback for times that do not increase; now each kept key "
               "plays as stored, a repeated time takes the value of its later key (no jump "
               "there), keys that went back in time are gone");
        t.keys.times = std::move(times);
        t.keys.values = std::move(values);
      }
    }
    const bool rotation = t.keys.kind == reference::ValueKind::kRotation && t.keys.components == 4;
    const std::size_t value_at =
        reference::mode_of(t.keys.interpolation).value_index * t.keys.components;
    if (rotation && selected(kNonUnit)) {
      std::size_t fixed = 0;
      for (std::size_t k = 0; k < t.keys.times.size(); ++k) {
        double* q = t.keys.values.data() + k * stride + value_at;
        const double length = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (std::abs(length - 1.0) <= kUnitTolerance) continue;
        if (!(length > 0) || !std::isfinite(length)) {
          record(kNonUnit, output + " key " + std::to_string(k),
                 "not changed: a zero (or not finite) quaternion names no rotation",
                 "the spec defines no playback for it", false);
          continue;
        }
        for (int c = 0; c < 4; ++c) q[c] /= length;
        // CUBICSPLINE: the key's tangents scaled by the same 1 / |v|. Near the key the
        // Hermite is v + e b (e the time from the key, b the out-tangent; the in-tangent
        // alike before it), played as (v + e b) / |v + e b|; scaling v and b by one factor
        // leaves that direction unchanged, while dividing v alone turns it into
        // (v / |v| + e b) / |...|, the same rotation reached |v| times faster (or slower),
        // which bends the playback between keys.
        if (t.keys.interpolation == Interpolation::kCubicSpline) {
          double* key = t.keys.values.data() + k * stride;
          for (int c = 0; c < 4; ++c) {
            key[c] /= length;                       // in-tangent
            key[2 * t.keys.components + c] /= length;  // out-tangent
          }
        }
        requantize(q, t.output_format);
        ++fixed;
      }
      if (fixed != 0) {
        record(kNonUnit, output,
               count_text(fixed, "rotation key") + " divided by " + (fixed == 1 ? "its" : "their") +
                   " length",
               "the spec defines rotations by unit quaternions only; at each key players that "
               "normalize show the same rotation, between keys the slerp of unit keys");
      }
    }
    if (rotation && t.keys.interpolation == Interpolation::kLinear && selected(kNegativeDot)) {
      // Shortest path: q and -q are one rotation. Each key's sign relative to
      // the key before flips where their dot is negative (Appendix C's slerp
      // negates there itself) and is kept everywhere else, a dot of exactly 0
      // included (there the slerp does not negate, and flipping one key of the
      // pair would change the path): conforming playback is unchanged, and a
      // plain slerp takes the short way too.
      std::size_t negated = 0;
      bool flip = false;
      std::array<double, 4> previous{};
      for (std::size_t k = 0; k < t.keys.times.size(); ++k) {
        double* q = t.keys.values.data() + k * stride;
        const std::array<double, 4> original = {q[0], q[1], q[2], q[3]};
        if (k != 0) {
          const double dot =
              previous[0] * q[0] + previous[1] * q[1] + previous[2] * q[2] + previous[3] * q[3];
          if (dot < 0) flip = !flip;
        }
        previous = original;
        if (!flip) continue;
        for (int c = 0; c < 4; ++c) q[c] = -q[c];
        ++negated;
      }
      if (negated != 0) {
        record(kNegativeDot, t.channel_pointer + "/sampler",
               count_text(negated, "rotation key") + " negated (q and -q are one rotation)",
               "none for a player with the spec's shortest-path slerp; a player without it "
               "now turns the short way instead of the long way");
      }
    }
    const bool cubic = t.keys.interpolation == Interpolation::kCubicSpline ||
                       t.keys.interpolation == Interpolation::kCubicSlerp;
    const gltf::IssueCode tangent_code =
        t.keys.interpolation == Interpolation::kCubicSlerp ? kSqlerpTangent : kCubicTangent;
    if (cubic && selected(tangent_code) && !t.keys.times.empty()) {
      const std::size_t c = t.keys.components;
      const std::size_t last_out = (t.keys.times.size() - 1) * stride + 2 * c;
      bool changed = false;
      for (const std::size_t at : {std::size_t{0}, last_out}) {
        for (std::size_t i = 0; i < c; ++i) {
          changed = changed || t.keys.values[at + i] != 0.0;
          t.keys.values[at + i] = 0.0;
        }
      }
      if (changed) {
        record(tangent_code, t.sampler_pointer + "/output",
               "the first in-tangent and the last out-tangent set to zero",
               "none: the spec's interpolation never uses them");
      }
    }
    (void)before;
  }

  void summarize(const EditableTrack& before, const EditableTrack& after,
                 std::vector<ChannelSummary>& out) {
    ChannelSummary s;
    s.channel = before.channel_pointer + (before.sqlerp ? " (EXT_animation_sqlerp)" : "");
    s.target = before.target;
    s.interpolation_before = before.interpolation;
    s.interpolation_after = after.interpolation;
    s.keys_before = before.keys.times.size();
    s.keys_after = after.keys.times.size();
    // A time accessor several samplers read counted once (TimeBytes).
    const std::uint64_t input_bytes = accessor_bytes(in_.asset, before.input);
    const std::uint64_t output_bytes = accessor_bytes(in_.asset, before.output);
    s.bytes_before = time_bytes_.before(before, s.notes) + output_bytes;
    const bool same_times = same_bits(before.keys.times, after.keys.times);
    const bool same_values = same_bits(before.keys.values, after.keys.values) &&
                             before.output_format == after.output_format;
    const bool same = same_times && same_values;
    s.bytes_after =
        time_bytes_.after(before, after.keys.times, before.input,
                          same_times ? input_bytes : 4 * after.keys.times.size(), s.notes) +
        (same_values ? output_bytes : value_bytes(after));
    if (same) {
      s.notes.push_back("unchanged");
    } else if (!reference::validate(before.view()).empty()) {
      s.notes.push_back("the input's playback is not defined (" +
                        reference::validate(before.view()) + "): no error measured");
    } else if (reference::validate(after.view()).empty()) {
      const double d = playback_difference(before, after);
      if (before.keys.kind == reference::ValueKind::kRotation) {
        s.max_angle = d;
      } else {
        s.max_error = d;
      }
    }
    add_summaries(out, before, std::move(s));
  }

  void fix_bounds() {
    std::set<std::size_t> accessors;
    std::map<std::size_t, gltf::IssueCode> code_of;
    for (const gltf::Issue& issue : in_.report.issues) {
      const auto* code = std::find_if(std::begin(kBoundCodes), std::end(kBoundCodes),
                                      [&](gltf::IssueCode c) { return c.name() == issue.code; });
      if (code == std::end(kBoundCodes) || !selected(code->name())) continue;
      std::optional<std::size_t> index = accessor_of(issue.pointer);
      if (!index) index = sampler_input(issue.pointer);
      if (!index || *index >= in_.asset.accessors.size()) continue;
      if (accessors.insert(*index).second) code_of.emplace(*index, *code);
    }
    for (const std::size_t i : accessors) {
      const std::string at = "/accessors/" + std::to_string(i);
      const gltf::IssueCode code = code_of.at(i);
      const std::string playback = "none: min and max describe the data";
      if (edit_.writes_bounds(i)) {
        edit_.require_bounds(i);
        record(code, at, "min and max written with the accessor's new data", playback);
        continue;
      }
      std::vector<double> values;
      const std::optional<gltf::ElementFormat> format = element_format(in_.asset.accessors[i]);
      std::string why = "its data cannot be read";
      std::optional<gltf::EncodedData> bounds;
      if (format && bounds_values(in_.asset, i, values)) {
        if (format->component_type != gltf::ComponentType::kFloat && !format->normalized) {
          // Integers as they are: the bounds are the values.
          bounds.emplace();
          const std::size_t n = gltf::component_count(format->type);
          for (std::size_t c = 0; c < n && !values.empty(); ++c) {
            double lo = values[c], hi = values[c];
            for (std::size_t k = c; k < values.size(); k += n) {
              lo = std::min(lo, values[k]);
              hi = std::max(hi, values[k]);
            }
            bounds->min.push_back(gltf::json_number(lo));
            bounds->max.push_back(gltf::json_number(hi));
          }
        } else {
          bounds = gltf::encode(values, *format, why);
        }
      }
      if (!bounds) {
        record(code, at, "not changed: " + why, "none", false);
        continue;
      }
      auto list = [](const std::vector<std::string>& v) {
        std::string out = "[";
        for (std::size_t k = 0; k < v.size(); ++k) out += (k ? "," : "") + v[k];
        return out + "]";
      };
      edit_.put_member(at, "min", list(bounds->min));
      edit_.put_member(at, "max", list(bounds->max));
      record(code, at, "min and max recomputed from the data", playback);
    }
  }

  // The input accessor of "/animations/a/samplers/s/input", from the
  // animation model (whether or not the channel could be decoded). The table
  // of every sampler's input is made once: one lookup per issue, not a walk of
  // every sampler (quadratic in the samplers when each lacks its bounds).
  std::optional<std::size_t> sampler_input(const std::string& pointer) {
    if (!inputs_) {
      inputs_.emplace();
      for (const gltf::model::Animation& anim : in_.model.animations) {
        for (const gltf::model::Sampler& sampler : anim.samplers) {
          const gltf::model::AccessorRef* ref = gltf::model::linked(sampler.input);
          if (ref == nullptr) continue;
          inputs_->emplace("/animations/" + std::to_string(anim.index) + "/samplers/" +
                               std::to_string(sampler.index) + "/input",
                           ref->index);
        }
      }
    }
    const auto it = inputs_->find(pointer);
    if (it == inputs_->end()) return std::nullopt;
    return it->second;
  }

  void report_unfixable() {
    for (const gltf::Issue& issue : in_.report.issues) {
      constexpr gltf::IssueCode kDangling = "UNRESOLVED_REFERENCE";
      const bool dangling =
          issue.code == kDangling.name() && issue.pointer.rfind("/animations/", 0) == 0;
      const auto unfixable =
          std::find_if(kUnfixableCodes.begin(), kUnfixableCodes.end(),
                       [&](gltf::IssueCode c) { return c.name() == issue.code; });
      if (!dangling && unfixable == kUnfixableCodes.end()) continue;
      record(dangling ? kDangling : *unfixable, issue.pointer,
             "not fixable: the data does not say what was meant (" + issue.message + ")",
             "unchanged: the spec defines no playback for this channel", false);
    }
  }

  const FixOptions& options_;
  ToolInput& in_;
  gltf::Edit& edit_;
  ToolReport& report_;
  std::set<std::string> recorded_;
  std::optional<std::unordered_map<std::string, std::size_t>> inputs_;
  TimeBytes time_bytes_{in_.asset};
};

}  // namespace

const std::vector<gltf::IssueCode> kFixCodes = {
    kNonIncreasing, kNonUnit,       kNegativeDot,   kCubicTangent,  kSqlerpTangent,
    kBoundCodes[0], kBoundCodes[1], kBoundCodes[2], kBoundCodes[3], kBoundCodes[4],
};

// From constants, not literals in the vector's initializer list: clang 14 (Debian's emscripten)
// leaves a consteval constructor there unevaluated, and the link then misses
// unregistered_issue_code.
constexpr gltf::IssueCode kOutputCount = "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT";
constexpr gltf::IssueCode kSqlerpOutputCount = "EXT_ANIMATION_SQLERP_INVALID_OUTPUT_COUNT";
const std::vector<gltf::IssueCode> kUnfixableCodes = {kOutputCount, kSqlerpOutputCount};

Tool fix_tool(const FixOptions& options) {
  Tool tool;
  tool.name = "fix";
  for (const gltf::IssueCode code : kFixCodes) {
    if (!options.only ||
        std::find(options.only->begin(), options.only->end(), code) != options.only->end()) {
      tool.repairs_codes.push_back(code);
    }
  }
  tool.body = [options](ToolInput& in, gltf::Edit& edit, ToolReport& report, std::string& why) {
    return Fixer(options, in, edit, report).run(why);
  };
  tool.one_group_at_a_time = true;
  return tool;
}

}  // namespace gltf_anim::repair
