#pragma once
// The one way the reports write JSON: RapidJSON's PrettyWriter over a block
// stream, strings through text::json_value (repaired UTF-8, RFC 8259 escapes),
// numbers as RapidJSON writes them or, for samples values, as the samples
// files write them (shortest round-trip, samples::format_double) so a value
// reads the same in a report and in the file it came from.
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/prettywriter.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::reports::detail {

// A rapidjson output stream that hands the ostream 64 KiB blocks: one virtual
// call per character (rapidjson::OStreamWrapper) made the validation writer
// the slowest part of a folder run. The block is a plain array: std::string's
// push_back per character was a third of a million-issue report's time in the
// WebAssembly build (libc++ does not inline it there).
class BlockOStream {
 public:
  using Ch = char;
  explicit BlockOStream(std::ostream& out)
      : out_(out), buffer_(new char[kBlock]) {}
  void Put(char c) {
    buffer_[size_++] = c;
    if (size_ == kBlock) Flush();
  }
  void Flush() {
    out_.write(buffer_.get(), static_cast<std::streamsize>(size_));
    size_ = 0;
  }

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 16;
  std::ostream& out_;
  std::unique_ptr<char[]> buffer_;
  std::size_t size_ = 0;
};
using JsonWriter = gltf_anim::json::PrettyWriter<BlockOStream>;

inline void json_key(JsonWriter& w, const char* k) { w.Key(k); }
inline void json_str(JsonWriter& w, std::string_view s) { text::json_value(w, s); }

// A value from a samples file or computed from one: shortest round-trip
// digits; null when not finite (JSON has no NaN or infinity).
inline void json_sample_number(JsonWriter& w, double v) {
  if (!std::isfinite(v)) {
    w.Null();
    return;
  }
  const std::string s = samples::format_double(v);
  w.RawValue(s.data(), s.size(), rapidjson::kNumberType);
}
inline void json_sample_numbers(JsonWriter& w, std::span<const double> v) {
  w.StartArray();
  for (double x : v) json_sample_number(w, x);
  w.EndArray();
}
inline void json_strings(JsonWriter& w, const std::vector<std::string>& v) {
  w.StartArray();
  for (const std::string& s : v) json_str(w, s);
  w.EndArray();
}

}  // namespace gltf_anim::reports::detail
