#pragma once
// Samples files: the values of every animated property at chosen times, as
// written by `gltf-anim sample` (golden samples) and by implementers (actual
// samples), and read by `gltf-anim compare`. Format (docs/CONFORMANCE.md):
//
//   {"asset": "rotation_linear.gltf", "generator": "gltf-anim 0.1.0",
//    "animations": [{"index": 0, "name": "spin",
//      "channels": [{"index": 0, "target": "/nodes/0/rotation",
//                    "interpolation": "LINEAR", "sampler": 0,
//                    "samples": [{"t": 0.5, "value": [0, 0, 0.3826834323650898, 0.9238795325112867]}]}]}]}
//
// or CSV with the header `animation,channel,target,t,v0,v1,...` (one row per
// sample; rows of narrower channels leave the trailing v columns empty).
//
// Writers are deterministic (same model -> same bytes) and print every double
// in its shortest form that reads back to the same double: the bytes of
// std::to_chars(double), written by a faster equivalent (text/shortest_double.hpp, the
// project's one number writer).
// Readers never crash on hostile input: every structural problem throws
// SamplesFormatError naming the file and the JSON pointer (CSV: line/field).
//
// Typical use by the sample command:
//   SamplesFile f;  f.asset = "rotation_linear.gltf";  f.generator = gltf_anim::kGenerator;
//   SampledAnimation& a = f.animations.emplace_back();  a.index = 0;  a.name = "spin";
//   SampledChannel& c = a.channels.emplace_back();
//   c.index = 0;  c.target = "/nodes/0/rotation";  c.interpolation = "LINEAR";  c.sampler = 0;
//   c.add_sample(0.5, std::array{0.0, 0.0, 0.38268343236508984, 0.9238795325112867});
//   write_samples_json(std::cout, f);   // or write_samples_csv
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/output_file.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::samples {

// How `compare` measures the error of a channel. `gltf-anim sample` writes it
// for every channel (angle for a quaternion, wherever it lives). kAuto (not
// stated, e.g. CSV): an angle for 4-wide channels whose interpolation is
// rotation-only ("SLERP", "CUBICSLERP"), else absolute per component; the
// target's name is never read. Written to JSON as "measure": "angle" |
// "absolute" only when not kAuto.
enum class Measure { kAuto, kAbsolute, kAngle };

// One channel: the animated property `target` sampled at `times`.
// Values are stored flat: sample i is values[i*width .. i*width+width).
// All samples of a channel have the same width (>= 1); times are finite and
// unique within a channel (any order). Non-finite values are allowed in the
// model; JSON writes them as null and reads null back as NaN (an
// implementation that produced NaN can still hand in its samples; compare
// then fails that sample).
struct SampledChannel {
  std::size_t index = 0;        // index of the channel in the glTF animation
  std::string target;           // JSON pointer of the animated property, e.g. "/nodes/0/rotation"
  std::string interpolation;    // "LINEAR", "STEP", "CUBICSPLINE", ...; "" = not stated
  std::optional<std::size_t> sampler;  // the sampler actually evaluated; nullopt = not stated
  Measure measure = Measure::kAuto;
  // Optional: the times of the sampler's keyframes (its input accessor), so
  // reports can mark them on plots. JSON "keyframes": [0, 0.5, 1] (written
  // when non-empty, before "samples"); not part of CSV.
  std::vector<double> keyframes;
  // Set by an engine's adapter for a channel its engine cannot play: the feature
  // it lacks ("KHR_animation_pointer", "CUBICSPLINE", "morph weights"). Such a
  // channel has no samples; compare reports it as not run, never as a failure.
  // JSON "unsupported" (written when non-empty); not part of CSV.
  std::string unsupported;
  std::size_t width = 0;        // components per sample; 0 until the first sample
  std::vector<double> times;
  std::vector<double> values;   // times.size() * width

  std::size_t size() const { return times.size(); }
  std::span<const double> value(std::size_t i) const {
    return std::span<const double>(values).subspan(i * width, width);
  }
  // Appends one sample. The first sample fixes `width`; a later sample of a
  // different width, an empty value or a non-finite t throws std::invalid_argument.
  void add_sample(double t, std::span<const double> value);
  void add_sample(double t, std::initializer_list<double> value) {
    add_sample(t, std::span<const double>(value.begin(), value.size()));
  }
};

struct SampledAnimation {
  std::size_t index = 0;        // index of the animation in the glTF file
  std::string name;             // "" = unnamed (written as "name": "" anyway)
  std::vector<SampledChannel> channels;
};

struct SamplesFile {
  std::string asset;            // the sampled asset, e.g. "rotation_linear.gltf"; CSV: ""
  std::string generator;        // e.g. "gltf-anim 0.1.0" or the implementer's tool; CSV: ""
  // Set by an engine's adapter when the engine failed on this asset (an exception while
  // loading or sampling): its message. compare fails the case with it. JSON "error"
  // (written when non-empty, before "animations"); not part of CSV.
  std::string error;
  std::vector<SampledAnimation> animations;
};

// Thrown by the readers. what() is "<file>: <location>: <message>" (file and
// location omitted when empty). location is a JSON pointer into the file
// ("/animations/0/channels/2/samples/7/t"; "" = the document root) for JSON,
// or "line N" / "line N, field M" for CSV; for JSON syntax errors it is
// "line L, column C".
class SamplesFormatError : public std::runtime_error {
 public:
  SamplesFormatError(std::string file, std::string location, std::string message);
  const std::string& file() const { return file_; }
  const std::string& location() const { return location_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_, location_, message_;
};

struct ReadOptions {
  // Files larger than this are refused before reading (bounded memory).
  std::uint64_t max_file_bytes = std::uint64_t{4} << 30;  // 4 GiB
  // When set, every file read (samples files, the manifest) is recorded here,
  // so a command can refuse an output that is one of them.
  io::InputFiles* inputs = nullptr;
};

// Readers. Unknown members are ignored; required members: "asset" (string),
// "animations"; per animation "index", "channels"; per channel "target",
// "samples"; per sample "t", "value". Optional: "generator", "name",
// channel "index" (default: position in the array), "interpolation",
// "sampler", "measure", "keyframes", "unsupported" (then "samples" is empty); root "error".
// Duplicate animation indices, duplicate targets within an animation, duplicate t within a channel
// and mixed widths are errors. `file` only names the source in error messages.
SamplesFile read_samples_json(std::string_view text, const ReadOptions& options = {},
                              const std::string& file = "");
SamplesFile read_samples_csv(std::string_view text, const ReadOptions& options = {},
                             const std::string& file = "");
// Samples held in memory, read as `name` says: CSV when its extension is .csv (any case),
// JSON otherwise (the rule read_samples_file follows); `name` also names the source in errors.
SamplesFile read_samples_named(std::string_view text, const std::string& name,
                               const ReadOptions& options = {});
// Reads a file: CSV when the extension is .csv (any case), JSON otherwise.
// JSON is streamed from the file (memory holds the model, not the text).
// I/O problems also throw SamplesFormatError (location "").
SamplesFile read_samples_file(const std::filesystem::path& path, const ReadOptions& options = {});

// Writers. JSON: two-space indentation, one sample per line, members in the
// order of the format above ("sampler" omitted when nullopt, "interpolation"
// when empty, "measure" when kAuto, "unsupported" and the root's "error" when empty). CSV: header
// with max-width v columns, rows in model order, RFC 4180 quoting for targets that need it.
void write_samples_json(std::ostream& out, const SamplesFile& file);
std::string write_samples_json(const SamplesFile& file);
void write_samples_csv(std::ostream& out, const SamplesFile& file);
std::string write_samples_csv(const SamplesFile& file);
// Writes JSON or CSV by the extension of `path` (.csv -> CSV) through a
// temporary renamed into place (validator/output_file.hpp); throws
// std::runtime_error (OutputError, with the reason) if it cannot be written.
void write_samples_file(const std::filesystem::path& path, const SamplesFile& file);

// ---- Streaming: a samples file written piece by piece ----
// `gltf-anim sample` samples and writes channel by channel (bounded memory) and
// formats channels on several threads, each into its own TextBuffer, then writes
// the buffers in channel order. The model writers above are built from the same
// pieces, so both give the same bytes.

// Text being built: a growable char buffer, numbers as std::to_chars writes them. With a
// stream (spill) it holds at most ~64 KiB and writes to the stream in blocks.
class TextBuffer {
 public:
  TextBuffer() = default;                                // grows; read with view()
  explicit TextBuffer(std::ostream& spill) : spill_(&spill) {}  // writes out in blocks
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;
  TextBuffer(TextBuffer&&) = default;
  TextBuffer& operator=(TextBuffer&&) = default;
  ~TextBuffer() = default;  // no implicit flush: a throwing stream must not throw here

  static constexpr std::size_t kMaxNumber = 64;  // > the longest number (24 chars for a double)

  // Room for `n` more bytes; returns the write position (then commit the end).
  char* reserve(std::size_t n) {
    if (capacity_ - used_ < n) make_room(n);
    return data_.get() + used_;
  }
  void commit(char* end) { used_ = static_cast<std::size_t>(end - data_.get()); }
  void put(char c) { *reserve(1) = c; ++used_; }
  void put(std::string_view s);
  void put_uint(std::size_t v);
  // Shortest round-trip text (format_double): nan, inf, -inf for non-finite values.
  void put_double(double v);
  // JSON number: shortest round-trip text, null for non-finite values.
  void put_json_number(double v);

  std::string_view view() const { return {data_.get(), used_}; }
  void clear() { used_ = 0; }  // keeps the allocation for the next piece
  // Writes the text to `out` (or to the spill stream) and clears it.
  void write_to(std::ostream& out);
  void flush() { if (spill_ != nullptr) write_to(*spill_); }

 private:
  void make_room(std::size_t n);
  std::ostream* spill_ = nullptr;
  std::unique_ptr<char[]> data_;
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
};

// The text of each time of a sequence (finite, shortest round-trip), formatted
// once and reused by every channel sampled at those times (JSON "t" and the CSV
// t column are the same text). Throws std::invalid_argument for a non-finite time.
class FormattedTimes {
 public:
  FormattedTimes() = default;
  explicit FormattedTimes(std::span<const double> times);
  std::size_t size() const { return ends_.size(); }
  std::string_view operator[](std::size_t i) const {
    const std::size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(text_).substr(begin, ends_[i] - begin);
  }

 private:
  std::string text_;               // all texts, back to back
  std::vector<std::size_t> ends_;  // end of text i in text_
};

enum class SamplesFormat { kJson, kCsv };

// The pieces of a samples file, in this order:
//   begin_file, { begin_animation, { channel }..., end_animation }..., end_file
// Each appends to a TextBuffer; nothing is kept between calls, so channels can
// be formatted in any order into separate buffers as long as the buffers are
// written in file order. `first` tells whether a piece is the first of its
// list (JSON separators); `empty` whether the list had none.
// CSV: only begin_file (the header) and channel write text; csv_width is the
// number of v columns, the largest channel width of the whole file (>= 1), so
// it must be known before the first channel.
class SamplesWriter {
 public:
  SamplesWriter(SamplesFormat format, std::size_t csv_width) : format_(format), csv_width_(csv_width) {}
  // `error`: SamplesFile::error, written when non-empty (JSON only).
  void begin_file(TextBuffer& out, std::string_view asset, std::string_view generator,
                  std::string_view error = {}) const;
  void begin_animation(TextBuffer& out, std::size_t index, std::string_view name, bool first) const;
  // `channel` gives the header (index, target, interpolation, sampler, measure,
  // keyframes; its own times/values are not used): the samples are `times` with
  // values[i*width .. i*width+width) (width >= 1 when there are samples).
  // `keyframes`: the text of channel.keyframes when the caller has it already
  // (channels sharing an input accessor share their keyframes); nullptr: formatted here.
  void channel(TextBuffer& out, std::size_t animation_index, const SampledChannel& channel, bool first,
               const FormattedTimes& times, std::span<const double> values, std::size_t width,
               const FormattedTimes* keyframes = nullptr) const;
  void end_animation(TextBuffer& out, bool empty) const;
  void end_file(TextBuffer& out, bool empty) const;

 private:
  SamplesFormat format_;
  std::size_t csv_width_;
};

// Shortest text that reads back (strtod/from_chars) to exactly `v`:
// "0.1", "-0", "1e-300", "5e-324". NaN -> "nan", infinities -> "inf"/"-inf"
// (the JSON writer writes null for those instead).
std::string format_double(double v);

}  // namespace gltf_anim::samples
