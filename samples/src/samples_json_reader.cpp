// Samples files: the JSON reader. A RapidJSON SAX handler (iterative parser,
// full-precision numbers, validated UTF-8) builds the model directly, so memory
// stays proportional to the samples kept and nesting depth cannot exhaust the
// stack. Every structural problem stops the parse with a JSON pointer. The
// file's objects are also checked against docs/samples.schema.json
// (samples_schema.hpp).
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/gltf/json_syntax.hpp>
#include <gltf_anim/text/utf8.hpp>
#include <gltf_anim/text/words.hpp>
#include <gltf_anim/gltf/json.hpp>

#include "samples_internal.hpp"
#include "samples_schema.hpp"

#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace gltf_anim::samples {
namespace {

enum class Kind { kRoot, kAnimations, kAnimation, kChannels, kChannel, kSamples, kSample, kValue, kKeyframes };

// Known members, one bit each, to find duplicates and missing ones.
enum Member : std::uint32_t {
  kMemNone = 0,
  kMemAsset = 1u << 0,
  kMemGenerator = 1u << 1,
  kMemAnimations = 1u << 2,
  kMemIndex = 1u << 3,
  kMemName = 1u << 4,
  kMemChannels = 1u << 5,
  kMemTarget = 1u << 6,
  kMemInterpolation = 1u << 7,
  kMemSampler = 1u << 8,
  kMemMeasure = 1u << 9,
  kMemSamples = 1u << 10,
  kMemT = 1u << 11,
  kMemValue = 1u << 12,
  kMemKeyframes = 1u << 13,
  kMemError = 1u << 14,
  kMemUnsupported = 1u << 15,
};

struct Frame {
  Kind kind;
  std::string key;          // objects: the member being read
  Member member = kMemNone; // objects: its known-member bit (kMemNone = unknown, skipped)
  std::uint32_t seen = 0;   // objects: members seen so far
  std::size_t count = 0;    // arrays: elements started so far
};

std::string escape_token(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

Member member_of(Kind kind, std::string_view key) {
  switch (kind) {
    case Kind::kRoot:
      if (key == "asset") return kMemAsset;
      if (key == "generator") return kMemGenerator;
      if (key == "error") return kMemError;
      if (key == "animations") return kMemAnimations;
      break;
    case Kind::kAnimation:
      if (key == "index") return kMemIndex;
      if (key == "name") return kMemName;
      if (key == "channels") return kMemChannels;
      break;
    case Kind::kChannel:
      if (key == "index") return kMemIndex;
      if (key == "target") return kMemTarget;
      if (key == "interpolation") return kMemInterpolation;
      if (key == "sampler") return kMemSampler;
      if (key == "measure") return kMemMeasure;
      if (key == "samples") return kMemSamples;
      if (key == "keyframes") return kMemKeyframes;
      if (key == "unsupported") return kMemUnsupported;
      break;
    case Kind::kSample:
      if (key == "t") return kMemT;
      if (key == "value") return kMemValue;
      break;
    default: break;
  }
  return kMemNone;
}

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  SamplesFile result;
  std::string error;          // empty = no error from the handler
  std::string error_pointer;

  // ---- scalars ----
  bool Null() { return scalar(Scalar::kNull, 0, 0); }
  bool Bool(bool) { return scalar(Scalar::kBool, 0, 0); }
  // Numbers arrive as text (kParseNumbersAsStringsFlag) so that "-0" keeps its
  // sign and every double is converted by std::from_chars (correctly rounded).
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    if (skip_) return true;
    // Hot path: sample values (most numbers of a file).
    if (!stack_.empty() && stack_.back().kind == Kind::kValue) {
      double d = 0;
      const auto r = std::from_chars(s, s + n, d);
      ++stack_.back().count;
      if (r.ec != std::errc() || r.ptr != s + n) {
        return fail("number " + std::string(s, n) + " is out of the range of a double");
      }
      pending_values_.push_back(d);
      return true;
    }
    const std::string_view text(s, n);
    if (text.find_first_of(".eE") == std::string_view::npos && text != "-0") {
      std::uint64_t u = 0;
      const bool negative = text[0] == '-';
      const auto r = std::from_chars(s + (negative ? 1 : 0), s + n, u);
      if (r.ec == std::errc() && r.ptr == s + n &&
          u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        const auto i = negative ? -static_cast<std::int64_t>(u) : static_cast<std::int64_t>(u);
        // Integers beyond 2^53 still become the nearest double below.
        double d = 0;
        std::from_chars(s, s + n, d);
        return scalar(Scalar::kInt, i, d);
      }
    }
    double d = 0;
    const auto r = std::from_chars(s, s + n, d);
    if (r.ec != std::errc() || r.ptr != s + n) {
      return number_fail("number " + std::string(text) + " is out of the range of a double");
    }
    return scalar(Scalar::kDouble, 0, d);
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    if (!decodes_to_utf8(s, n)) return false;
    string_.assign(s, n);
    return scalar(Scalar::kString, 0, 0);
  }

  // ---- containers ----
  bool StartObject() {
    if (skip_) { ++skip_; return true; }
    if (stack_.empty()) {
      stack_.push_back(Frame{Kind::kRoot, {}, kMemNone, 0, 0});
      return true;
    }
    Frame& top = stack_.back();
    switch (top.kind) {
      case Kind::kAnimations:
        ++top.count;
        result.animations.emplace_back();
        stack_.push_back(Frame{Kind::kAnimation, {}, kMemNone, 0, 0});
        return true;
      case Kind::kChannels:
        ++top.count;
        result.animations.back().channels.emplace_back();
        result.animations.back().channels.back().index = top.count - 1;
        stack_.push_back(Frame{Kind::kChannel, {}, kMemNone, 0, 0});
        return true;
      case Kind::kSamples:
        ++top.count;
        pending_values_.clear();
        pending_t_ = 0;
        stack_.push_back(Frame{Kind::kSample, {}, kMemNone, 0, 0});
        return true;
      case Kind::kValue:
        ++top.count;
        return fail("must be a number (or null for NaN)");
      case Kind::kKeyframes:
        ++top.count;
        return fail("must be a number");
      default:  // an object member
        if (top.member == kMemNone) { skip_ = 1; return true; }
        return fail(type_message(top));
    }
  }

  bool Key(const char* s, rapidjson::SizeType n, bool) {
    if (!decodes_to_utf8(s, n)) return false;
    if (skip_) return true;
    Frame& top = stack_.back();
    top.key.assign(s, n);
    top.member = member_of(top.kind, top.key);
    if (top.member != kMemNone) {
      if (top.seen & top.member) return fail("duplicate member \"" + top.key + "\"");
      top.seen |= top.member;
    }
    return true;
  }

  bool EndObject(rapidjson::SizeType) {
    if (skip_) { --skip_; return true; }
    Frame& top = stack_.back();
    top.key.clear();
    top.member = kMemNone;
    bool ok = true;
    switch (top.kind) {
      case Kind::kRoot: ok = end_root(top); break;
      case Kind::kAnimation: ok = end_animation(top); break;
      case Kind::kChannel: ok = end_channel(top); break;
      case Kind::kSample: ok = end_sample(top); break;
      default: break;
    }
    if (!ok) return false;
    stack_.pop_back();
    return true;
  }

  bool StartArray() {
    if (skip_) { ++skip_; return true; }
    if (stack_.empty()) return fail("the document must be a JSON object");
    Frame& top = stack_.back();
    switch (top.kind) {
      case Kind::kRoot:
        if (top.member == kMemAnimations) return push_array(Kind::kAnimations);
        break;
      case Kind::kAnimation:
        if (top.member == kMemChannels) return push_array(Kind::kChannels);
        break;
      case Kind::kChannel:
        if (top.member == kMemSamples) return push_array(Kind::kSamples);
        if (top.member == kMemKeyframes) return push_array(Kind::kKeyframes);
        break;
      case Kind::kSample:
        if (top.member == kMemValue) return push_array(Kind::kValue);
        break;
      case Kind::kAnimations:
      case Kind::kChannels:
      case Kind::kSamples:
        ++top.count;
        return fail("must be an object");
      case Kind::kValue:
        ++top.count;
        return fail("must be a number (or null for NaN)");
      case Kind::kKeyframes:
        ++top.count;
        return fail("must be a number");
    }
    if (top.member == kMemNone) { skip_ = 1; return true; }
    return fail(type_message(top));
  }

  bool EndArray(rapidjson::SizeType) {
    if (skip_) { --skip_; return true; }
    const Frame& top = stack_.back();
    if (top.kind == Kind::kValue && top.count == 0) {
      stack_.pop_back();  // point at "value" itself
      return fail("must have at least one component");
    }
    stack_.pop_back();
    return true;
  }

  // Pointer of the value being read (or of the innermost container when
  // `upto` frames are given).
  std::string pointer(std::size_t upto) const {
    std::string out;
    for (std::size_t i = 0; i < upto && i < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      switch (f.kind) {
        case Kind::kAnimations:
        case Kind::kChannels:
        case Kind::kSamples:
        case Kind::kValue:
        case Kind::kKeyframes:
          if (f.count > 0) out += '/';
            out += std::to_string(f.count - 1);
          break;
        default:
          if (!f.key.empty() || f.member != kMemNone) {
            out += '/';
            out += escape_token(f.key);
          }
          break;
      }
    }
    return out;
  }

 private:
  enum class Scalar { kNull, kBool, kInt, kDouble, kString };

  std::vector<Frame> stack_;
  int skip_ = 0;
  std::string string_;
  double pending_t_ = 0;
  std::vector<double> pending_values_;
  std::set<std::size_t> animation_indices_;

  // A number where a number is wanted but out of range; elsewhere the usual
  // type error (scalar() decides) — so route through scalar() with NaN unless
  // the number is a sample time or value.
  bool number_fail(std::string message) {
    if (stack_.empty()) return fail("the document must be a JSON object");
    Frame& top = stack_.back();
    if (top.kind == Kind::kValue || top.kind == Kind::kKeyframes) {
      ++top.count;
      return fail(std::move(message));
    }
    if (top.kind == Kind::kSample && top.member == kMemT) return fail(std::move(message));
    return scalar(Scalar::kDouble, 0, std::nan(""));
  }

  // The raw text is UTF-8 (kParseValidateEncodingFlag), but RapidJSON 1.1.0
  // decodes a lone low surrogate escape ("\udc00") to bytes that are not.
  bool decodes_to_utf8(const char* s, rapidjson::SizeType n) {
    if (text::is_valid_utf8(std::string_view(s, n))) return true;
    return fail("string is not valid UTF-8 (an unpaired UTF-16 surrogate escape)");
  }
  bool fail(std::string message) {
    error = std::move(message);
    error_pointer = pointer(stack_.size());
    return false;
  }
  bool fail_at(std::string ptr, std::string message) {
    error = std::move(message);
    error_pointer = std::move(ptr);
    return false;
  }

  bool push_array(Kind kind) {
    stack_.push_back(Frame{kind, {}, kMemNone, 0, 0});
    return true;
  }

  static std::string type_message(const Frame& top) {
    switch (top.member) {
      case kMemAsset: case kMemGenerator: case kMemName: case kMemTarget:
      case kMemInterpolation:
        return "must be a string";
      case kMemError:
      case kMemUnsupported: return "must be a non-empty string";
      case kMemMeasure: return "must be \"angle\" or \"absolute\"";
      case kMemAnimations: case kMemChannels: case kMemSamples:
        return "must be an array of objects";
      case kMemKeyframes: return "must be an array of numbers";
      case kMemIndex: case kMemSampler: return "must be a non-negative integer";
      case kMemT: return "must be a number";
      case kMemValue: return "must be an array of numbers";
      default: return "unexpected value";
    }
  }

  bool integer(std::int64_t i) {
    return scalar(Scalar::kInt, i, static_cast<double>(i));
  }

  bool scalar(Scalar type, std::int64_t i, double d) {
    if (skip_) return true;
    if (stack_.empty()) return fail("the document must be a JSON object");
    Frame& top = stack_.back();
    switch (top.kind) {
      case Kind::kAnimations: case Kind::kChannels: case Kind::kSamples:
        ++top.count;
        return fail("must be an object");
      case Kind::kValue:
        ++top.count;
        if (type == Scalar::kNull) { pending_values_.push_back(std::nan("")); return true; }
        if (type == Scalar::kInt || type == Scalar::kDouble) { pending_values_.push_back(d); return true; }
        return fail("must be a number (or null for NaN)");
      case Kind::kKeyframes:
        ++top.count;
        if (type != Scalar::kInt && type != Scalar::kDouble) return fail("must be a number");
        result.animations.back().channels.back().keyframes.push_back(d);
        return true;
      default: break;
    }
    if (top.member == kMemNone) return true;  // unknown member: ignored
    const bool is_index = top.member == kMemIndex || top.member == kMemSampler;
    const bool is_string = type == Scalar::kString;
    if (is_index) {
      if (type != Scalar::kInt || i < 0) return fail(type_message(top));
    } else if (top.member == kMemT) {
      if (type != Scalar::kInt && type != Scalar::kDouble) return fail(type_message(top));
      if (!std::isfinite(d)) return fail("must be finite");
    } else if (top.member == kMemValue || top.member == kMemKeyframes ||
               top.member == kMemAnimations ||
               top.member == kMemChannels || top.member == kMemSamples) {
      return fail(type_message(top));
    } else if (!is_string) {
      return fail(type_message(top));
    }
    const auto index = static_cast<std::size_t>(i);
    switch (top.kind) {
      case Kind::kRoot:
        if (top.member == kMemError && string_.empty()) return fail(type_message(top));
        if (top.member == kMemAsset) result.asset = string_;
        else if (top.member == kMemError)
          result.error = string_;
        else result.generator = string_;
        break;
      case Kind::kAnimation: {
        SampledAnimation& a = result.animations.back();
        if (top.member == kMemIndex) a.index = index;
        else a.name = string_;
        break;
      }
      case Kind::kChannel: {
        SampledChannel& c = result.animations.back().channels.back();
        switch (top.member) {
          case kMemIndex: c.index = index; break;
          case kMemSampler: c.sampler = index; break;
          case kMemTarget:
            if (string_.empty() || string_[0] != '/') {
              return fail("must be a JSON pointer to the animated property, starting with '/'");
            }
            c.target = string_;
            break;
          case kMemInterpolation: c.interpolation = string_; break;
          case kMemUnsupported:
            if (string_.empty()) return fail(type_message(top));
            c.unsupported = string_;
            break;
          case kMemMeasure:
            if (string_ == "angle") c.measure = Measure::kAngle;
            else if (string_ == "absolute") c.measure = Measure::kAbsolute;
            else return fail(type_message(top));
            break;
          default: break;
        }
        break;
      }
      case Kind::kSample:
        pending_t_ = d;
        break;
      default: break;
    }
    return true;
  }

  bool require(const Frame& f, std::uint32_t members, const char* const* names) {
    for (std::size_t bit = 0; bit < 32; ++bit) {
      const std::uint32_t m = 1u << bit;
      if ((members & m) && !(f.seen & m)) {
        return fail_at(pointer(stack_.size() - 1), std::string("missing member \"") + names[bit] + "\"");
      }
    }
    return true;
  }

  static constexpr const char* kNames[] = {"asset",   "generator", "animations", "index",
                                           "name",    "channels",  "target",     "interpolation",
                                           "sampler", "measure",   "samples",    "t",
                                           "value",   "keyframes", "error",      "unsupported"};

  bool end_root(const Frame& f) { return require(f, kMemAsset | kMemAnimations, kNames); }

  bool end_animation(const Frame& f) {
    if (!require(f, kMemIndex | kMemChannels, kNames)) return false;
    const SampledAnimation& a = result.animations.back();
    if (!animation_indices_.insert(a.index).second) {
      return fail_at(pointer(stack_.size() - 1) + "/index",
                     "duplicate animation index " + std::to_string(a.index));
    }
    std::set<std::string_view> targets;
    for (std::size_t i = 0; i < a.channels.size(); ++i) {
      if (!targets.insert(a.channels[i].target).second) {
        return fail_at(pointer(stack_.size() - 1) + "/channels/" + std::to_string(i) + "/target",
                       "duplicate target \"" + a.channels[i].target + "\" in this animation");
      }
    }
    return true;
  }

  bool end_channel(const Frame& f) {
    if (!require(f, kMemTarget | kMemSamples, kNames)) return false;
    const SampledChannel& c = result.animations.back().channels.back();
    if (!c.unsupported.empty() && c.size() > 0) {
      return fail_at(
          pointer(stack_.size() - 1) + "/samples",
          "must be empty: the channel is declared unsupported (\"" + c.unsupported + "\")");
    }
    std::vector<std::size_t> order(c.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return c.times[x] < c.times[y]; });
    for (std::size_t k = 1; k < order.size(); ++k) {
      if (c.times[order[k]] == c.times[order[k - 1]]) {
        return fail_at(pointer(stack_.size() - 1) + "/samples/" + std::to_string(order[k]) + "/t",
                       "duplicate t " + format_double(c.times[order[k]]) + " (also sample " +
                           std::to_string(order[k - 1]) + ")");
      }
    }
    return true;
  }

  bool end_sample(const Frame& f) {
    if (!require(f, kMemT | kMemValue, kNames)) return false;
    SampledChannel& c = result.animations.back().channels.back();
    if (c.width != 0 && pending_values_.size() != c.width) {
      return fail_at(pointer(stack_.size() - 1) + "/value",
                     "has " + std::to_string(pending_values_.size()) +
                         " components, earlier samples of this channel have " +
                         std::to_string(c.width));
    }
    c.add_sample(pending_t_, pending_values_);
    return true;
  }
};

// Where and what a syntax error is, in the words the validator uses for
// assets (line and column in code points; the usual mistakes named). `text`
// holds at least the bytes up to `offset`, and a few after it when it can.
struct SyntaxError {
  std::string location;
  std::string message;
};
SyntaxError syntax_error(std::string_view text, std::size_t offset, rapidjson::ParseErrorCode code) {
  return {gltf::line_column_text(gltf::text_position(text, offset)),
          "invalid JSON: " + gltf::describe_json_error(text, offset, code)};
}

}  // namespace

namespace {

constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag |
                            rapidjson::kParseValidateEncodingFlag |
                            rapidjson::kParseNumbersAsStringsFlag;

// The reader's events, also to the skeleton checked against the schema
// (samples_schema.hpp).
class Tee : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Tee> {
 public:
  Handler handler;
  detail::SamplesSkeleton skeleton;

  bool Null() {
    if (!skeleton.skipping()) skeleton.scalar(gltf_anim::json::Value());
    return handler.Null();
  }
  bool Bool(bool b) {
    if (!skeleton.skipping()) skeleton.scalar(gltf_anim::json::Value(b));
    return handler.Bool(b);
  }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) {
    if (!skeleton.skipping()) skeleton.number(std::string_view(s, n));
    return handler.RawNumber(s, n, copy);
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    if (!skeleton.skipping()) skeleton.string(std::string_view(s, n));
    return handler.String(s, n, copy);
  }
  bool StartObject() {
    skeleton.start(true);
    return handler.StartObject();
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    skeleton.key(std::string_view(s, n));
    return handler.Key(s, n, copy);
  }
  // The reader's checks first: its message wins where both would refuse.
  bool EndObject(rapidjson::SizeType n) { return handler.EndObject(n) && skeleton.end(); }
  bool StartArray() {
    skeleton.start(false);
    return handler.StartArray();
  }
  bool EndArray(rapidjson::SizeType n) { return handler.EndArray(n) && skeleton.end(); }
};

// Parses `stream`; on a syntax error calls where(offset, code) for its SyntaxError.
template <typename Stream, typename Where>
SamplesFile parse(Stream& stream, const std::string& file, Where&& where) {
  gltf_anim::json::Reader reader;
  Tee tee;
  Handler& handler = tee.handler;
  const rapidjson::ParseResult ok = reader.Parse<kFlags>(stream, tee);
  if (!handler.error.empty()) {
    throw SamplesFormatError(file, handler.error_pointer, handler.error);
  }
  if (const auto& v = tee.skeleton.violation()) {
    throw SamplesFormatError(
        file, v->pointer,
        "not allowed by the samples schema (docs/samples.schema.json): " + v->message);
  }
  if (!ok) {
    if (ok.Code() == rapidjson::kParseErrorDocumentEmpty) {
      throw SamplesFormatError(file, "", "empty document (expected a JSON object)");
    }
    const SyntaxError e = where(ok.Offset(), ok.Code());
    throw SamplesFormatError(file, e.location, e.message);
  }
  return std::move(handler.result);
}

}  // namespace

SamplesFile read_samples_json(std::string_view text, const ReadOptions& options,
                              const std::string& file) {
  if (text.size() > options.max_file_bytes) {
    throw SamplesFormatError(file, "", "input is " + std::to_string(text.size()) +
                                           " bytes, more than the limit of " +
                                           std::to_string(options.max_file_bytes));
  }
  std::size_t skipped = 0;
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") skipped = 3;  // UTF-8 BOM
  const std::string_view body = text.substr(skipped);
  rapidjson::MemoryStream stream(body.data(), body.size());
  return parse(stream, file, [&](std::size_t offset, rapidjson::ParseErrorCode code) {
    return syntax_error(body, offset, code);
  });
}

namespace detail {

namespace {

// rapidjson's FileReadStream over an io::RegularFile read at offsets from `start`: the
// same buffering and the same end (a NUL after the last byte), and a failed read is
// said as such rather than taken for the end of the text.
class RegularFileStream {
 public:
  using Ch = char;
  RegularFileStream(const io::RegularFile& in, std::uint64_t start, std::vector<char>& buffer,
                    const std::string& file)
      : in_(in), offset_(start), buffer_(buffer.data()), size_(buffer.size() - 1),
        last_(nullptr), current_(buffer_), file_(file) {
    read();
  }
  Ch Peek() const { return *current_; }
  Ch Take() {
    const Ch c = *current_;
    read();
    return c;
  }
  std::size_t Tell() const { return count_ + static_cast<std::size_t>(current_ - buffer_); }
  void Put(Ch) { RAPIDJSON_ASSERT(false); }
  void Flush() { RAPIDJSON_ASSERT(false); }
  Ch* PutBegin() {
    RAPIDJSON_ASSERT(false);
    return nullptr;
  }
  std::size_t PutEnd(Ch*) {
    RAPIDJSON_ASSERT(false);
    return 0;
  }
  const Ch* Peek4() const { return current_ + 4 <= last_ ? current_ : nullptr; }

 private:
  // The step to the next byte is inlined into Take(), the refill kept out of line: with the
  // refill inline, a 71 MB samples file parsed a tenth slower than through fread.
  void read() {
    if (current_ < last_) {
      ++current_;
    } else if (!eof_) {
      refill();
    }
  }
  [[gnu::noinline]] void refill() {
    count_ += got_;
    got_ = 0;
    while (got_ < size_) {  // as fread: the whole buffer unless the file ends
      const std::ptrdiff_t n = in_.read_at(offset_, buffer_ + got_, size_ - got_);
      if (n < 0) throw SamplesFormatError(file_, "", "read failed: " + text::errno_text());
      if (n == 0) break;
      got_ += static_cast<std::size_t>(n);
      offset_ += static_cast<std::uint64_t>(n);
    }
    last_ = buffer_ + got_ - 1;
    current_ = buffer_;
    if (got_ < size_) {
      buffer_[got_] = '\0';
      ++last_;
      eof_ = true;
    }
  }

  const io::RegularFile& in_;
  std::uint64_t offset_;
  Ch* buffer_;
  std::size_t size_;
  Ch* last_;
  Ch* current_;
  std::size_t got_ = 0;
  std::size_t count_ = 0;
  bool eof_ = false;
  const std::string& file_;
};

}  // namespace

SamplesFile read_samples_json_stream(const io::RegularFile& in, const std::string& file) {
  // Streamed in 64 KiB chunks: memory is the model, not the file's text.
  char bom[3] = {0, 0, 0};
  const std::ptrdiff_t got = in.read_at(0, bom, 3);
  const bool has_bom = got == 3 && bom[0] == '\xEF' && bom[1] == '\xBB' && bom[2] == '\xBF';
  const std::uint64_t start = has_bom ? 3 : 0;
  std::vector<char> buffer((std::size_t{64} << 10) + 1);  // one more for the NUL at the end
  RegularFileStream stream(in, start, buffer, file);
  return parse(stream, file, [&](std::size_t offset, rapidjson::ParseErrorCode code) {
    // Only on a syntax error: read the text up to the offset again, and the
    // few bytes after it that name a mistake ("//", "NaN").
    constexpr std::size_t kAfter = 16;
    std::string head(offset + kAfter, '\0');
    std::size_t have = 0;
    while (have < head.size()) {
      const std::ptrdiff_t n = in.read_at(start + have, head.data() + have, head.size() - have);
      if (n <= 0) break;
      have += static_cast<std::size_t>(n);
    }
    head.resize(have);
    return syntax_error(head, std::min(offset, head.size()), code);
  });
}

}  // namespace detail

}  // namespace gltf_anim::samples
