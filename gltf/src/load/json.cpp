// JSON text to a RapidJSON document, hardened: UTF-8 validated, no recursion
// (RapidJSON's iterative reader feeding the document), a nesting limit, exact
// numbers, and a clean INVALID_JSON for anything else.
#include "load/internal.hpp"

#include <gltf_anim/gltf/json_pointer.hpp>
#include <gltf_anim/gltf/json_syntax.hpp>
#include <gltf_anim/text/utf8.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace gltf_anim::gltf {

namespace {

// Numbers arrive as their text and are converted by DepthLimiter::RawNumber:
// min/max are compared exactly after rounding to float32, so RapidJSON's fast
// path (a few ulp off) will not do, and the full-precision path of RapidJSON
// 1.1.0 misreads some tokens ("0e40" became 2.36e21, with undefined behaviour on
// the way; found by fuzz_glb). The reader still checks the number grammar.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag |
                                 rapidjson::kParseValidateEncodingFlag |
                                 rapidjson::kParseNumbersAsStringsFlag;

// Forwards SAX events to the document and stops the reader (returning false
// makes it fail with kParseErrorTermination) once nesting or the number of
// values exceeds its limit.
// The document's own stack is a heap array, so a deep but allowed input costs
// memory, not C++ stack.
class DepthLimiter {
 public:
  DepthLimiter(gltf_anim::json::Document& doc, std::size_t max_depth, std::size_t max_values)
      : doc_(doc), max_depth_(max_depth), values_left_(max_values) {}
  bool Null() { return count() && doc_.Null(); }
  bool Bool(bool b) { return count() && doc_.Bool(b); }
  bool Int(int i) { return count() && doc_.Int(i); }
  bool Uint(unsigned i) { return count() && doc_.Uint(i); }
  bool Int64(std::int64_t i) { return count() && doc_.Int64(i); }
  bool Uint64(std::uint64_t i) { return count() && doc_.Uint64(i); }
  bool Double(double d) { return count() && doc_.Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool /*copy*/) {
    return count() && number(std::string_view(s, n));
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return count() && utf8(s, n) && doc_.String(s, n, copy);
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    return count() && utf8(s, n) && doc_.Key(s, n, copy);
  }
  bool StartObject() { return count() && enter() && doc_.StartObject(); }
  bool EndObject(rapidjson::SizeType n) {
    --depth_;
    return doc_.EndObject(n);
  }
  bool StartArray() { return count() && enter() && doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType n) {
    --depth_;
    return doc_.EndArray(n);
  }
  bool too_deep() const { return too_deep_; }
  bool too_many() const { return too_many_; }
  bool number_too_big() const { return number_too_big_; }
  bool lone_surrogate() const { return lone_surrogate_; }

 private:
  // Types a number token as RapidJSON does: integers (no '.', 'e', 'E') that fit
  // become Int/Uint (32 bits) or Int64/Uint64, anything else a double, rounded
  // correctly by strtod ("C" locale: the program never calls setlocale). "-0"
  // is the integer 0, as in RapidJSON. Out of double range is an error, as in
  // RapidJSON (kParseErrorNumberTooBig); underflow gives 0.
  bool number(std::string_view t) {
    if (t.find_first_of(".eE") == std::string_view::npos) {
      const char* end = t.data() + t.size();
      if (!t.empty() && t.front() == '-') {
        std::int64_t v = 0;
        const auto [p, ec] = std::from_chars(t.data(), end, v);
        if (ec == std::errc() && p == end) {
          return v >= INT_MIN ? doc_.Int(static_cast<int>(v)) : doc_.Int64(v);
        }
      } else {
        std::uint64_t v = 0;
        const auto [p, ec] = std::from_chars(t.data(), end, v);
        if (ec == std::errc() && p == end) {
          return v <= UINT_MAX ? doc_.Uint(static_cast<unsigned>(v)) : doc_.Uint64(v);
        }
      }
      // Beyond 64 bits: a double, as RapidJSON does.
    }
    const std::string text(t);
    const double d = std::strtod(text.c_str(), nullptr);
    if (std::isinf(d)) {
      number_too_big_ = true;
      return false;
    }
    return doc_.Double(d);
  }

  // kParseValidateEncodingFlag checks the raw bytes and RapidJSON 1.1.0
  // refuses a high surrogate escape without its low half, but it decodes a
  // lone low surrogate ("\udc00") to bytes that are not UTF-8. Checking the
  // decoded string catches it and anything else of the kind.
  bool utf8(const char* s, rapidjson::SizeType n) {
    if (text::is_valid_utf8(std::string_view(s, n))) return true;
    lone_surrogate_ = true;
    return false;
  }
  bool count() {
    if (values_left_ == 0) {
      too_many_ = true;
      return false;
    }
    --values_left_;
    return true;
  }
  bool enter() {
    if (depth_ >= max_depth_) {
      too_deep_ = true;
      return false;
    }
    ++depth_;
    return true;
  }
  gltf_anim::json::Document& doc_;
  std::size_t max_depth_;
  std::size_t depth_ = 0;
  std::size_t values_left_;
  bool too_deep_ = false;
  bool too_many_ = false;
  bool number_too_big_ = false;
  bool lone_surrogate_ = false;
};

}  // namespace

namespace {

// Reports INVALID_JSON (or `code`) at byte `at` of the JSON text: the message
// says where in words, the issue carries the place for SARIF. For a GLB the
// text is the JSON chunk, which starts at `file_offset` (never 0: the header
// comes first).
void report_at(IssueCollector& issues, IssueCode code, std::span<const std::uint8_t> text,
               std::uint64_t file_offset, std::size_t at, std::string what) {
  const std::string_view chars(reinterpret_cast<const char*>(text.data()), text.size());
  TextPosition p = text_position(chars, at);
  p.byte_offset += file_offset;
  p.in_glb_chunk = file_offset != 0;
  const std::string where = line_column_text(p) + (p.in_glb_chunk ? " of the JSON chunk" : "") +
                            "; byte offset " + std::to_string(p.byte_offset);
  if (code == "INVALID_JSON") {
    issues.add_at_position(code, p, {what + " (at " + where + ")"});
  } else {
    issues.add_at_position(code, p, {what, where});
  }
}

// RapidJSON's tokenizer refuses a positive exponent past 308 (less the fraction's digits)
// before the number's text reaches DepthLimiter::number, even when the significand is zero:
// "0e309" and "-0.0e999999999999" are JSON for zero, which glTF-Validator and every JSON
// parser read. A copy of the text whose exponents of zero significands are written as
// zeros of the same length ("0e000") parses to the same values at the same offsets. One
// linear pass outside strings; made only after such a refusal.
bool zero_significand_exponents_as_zeros(std::string& t) {
  bool changed = false;
  const std::size_t n = t.size();
  auto digit = [&](std::size_t k) { return k < n && t[k] >= '0' && t[k] <= '9'; };
  bool in_string = false;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = t[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != '-' && !digit(i)) continue;
    std::size_t j = i + (c == '-' ? 1 : 0);
    bool zero = true;
    while (digit(j) || (j < n && t[j] == '.')) {
      if (t[j] >= '1' && t[j] <= '9') zero = false;
      ++j;
    }
    if (j < n && (t[j] == 'e' || t[j] == 'E')) {
      ++j;
      if (j < n && t[j] == '-') zero = false;  // a negative exponent is never refused
      if (j < n && (t[j] == '+' || t[j] == '-')) ++j;
      for (; digit(j); ++j) {
        if (zero && t[j] != '0') {
          t[j] = '0';
          changed = true;
        }
      }
    }
    i = j - 1;  // the token's last byte (j > i: at least '-' or a digit was read)
  }
  return changed;
}

}  // namespace

std::unique_ptr<gltf_anim::json::Document> parse_json(std::span<const std::uint8_t> text,
                                                      std::uint64_t file_offset,
                                                      std::size_t max_depth, std::size_t max_values,
                                                      IssueCollector& issues) {
  // RapidJSON keeps string lengths in 32 bits; a GLB JSON chunk cannot be
  // longer anyway, and a .gltf this size only fits under a raised size limit.
  if (text.size() > 0xFFFFFFFFu) {
    issues.add("INVALID_JSON", "",
               {"JSON text longer than 4 GiB is not supported (at byte offset " +
                std::to_string(file_offset) + ")"});
    return nullptr;
  }
  if (text.empty()) {
    report_at(issues, "INVALID_JSON", text, file_offset, 0,
              file_offset == 0 ? "The file is empty." : "The JSON chunk is empty.");
    return nullptr;
  }
  // glTF-Validator refuses a byte order mark too (RFC 8259 8.1 lets a parser
  // ignore it, the glTF spec says SHOULD NOT write it).
  if (text.size() >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF) {
    report_at(issues, "INVALID_JSON", text, file_offset, 0,
              describe_json_error(std::string_view(reinterpret_cast<const char*>(text.data()), 3),
                                  0, rapidjson::kParseErrorDocumentEmpty));
    return nullptr;
  }
  // RapidJSON treats '\0' as the end of input, so "{}\0junk" would pass. A raw
  // NUL can never be part of valid JSON text: refuse it up front.
  if (const void* nul = std::memchr(text.data(), 0, text.size()); nul != nullptr) {
    const auto at = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - text.data());
    report_at(issues, "INVALID_JSON", text, file_offset, at, "NUL character");
    return nullptr;
  }
  auto doc = std::make_unique<gltf_anim::json::Document>();
  rapidjson::MemoryStream stream(reinterpret_cast<const char*>(text.data()), text.size());
  gltf_anim::json::Reader reader;
  DepthLimiter limiter(*doc, max_depth, max_values);
  rapidjson::ParseResult result;
  auto generate = [&](gltf_anim::json::Document&) {
    result = reader.Parse<kParseFlags>(stream, limiter);
    return !result.IsError();
  };
  doc->Populate(generate);
  const DepthLimiter* done = &limiter;
  std::optional<DepthLimiter> second;
  if (result.Code() == rapidjson::kParseErrorNumberTooBig && !limiter.number_too_big()) {
    std::string zeros(reinterpret_cast<const char*>(text.data()), text.size());
    if (zero_significand_exponents_as_zeros(zeros)) {
      doc = std::make_unique<gltf_anim::json::Document>();
      rapidjson::MemoryStream again(zeros.data(), zeros.size());
      second.emplace(*doc, max_depth, max_values);
      done = &*second;
      auto generate_again = [&](gltf_anim::json::Document&) {
        result = reader.Parse<kParseFlags>(again, *second);
        return !result.IsError();
      };
      doc->Populate(generate_again);
    }
  }
  if (done->too_many()) {
    report_at(issues, "JSON_TOO_MANY_VALUES", text, file_offset, result.Offset(),
              std::to_string(max_values));
    return nullptr;
  }
  if (result.IsError()) {
    const std::string_view chars(reinterpret_cast<const char*>(text.data()), text.size());
    std::string what;
    if (done->too_deep()) {
      what = "Nesting deeper than " + std::to_string(max_depth) + " levels.";
    } else if (done->lone_surrogate()) {
      what = "The surrogate pair in string is invalid (an unpaired low surrogate escape).";
    } else if (done->number_too_big()) {
      what = rapidjson::GetParseError_En(rapidjson::kParseErrorNumberTooBig);
    } else {
      what = describe_json_error(chars, result.Offset(), result.Code());
    }
    report_at(issues, "INVALID_JSON", text, file_offset, result.Offset(), std::move(what));
    return nullptr;
  }
  return doc;
}

void check_duplicate_keys(const gltf_anim::json::Value& root, IssueCollector& issues) {
  // Iterative walk over containers only. Each container remembers its parent
  // and its token, so a pointer is built only when a duplicate is found.
  struct Frame {
    const gltf_anim::json::Value* value;
    std::size_t parent;                 // index into frames, npos for the root
    const gltf_anim::json::Value* key;  // member name when the parent is an object
    std::size_t index;                  // array index when the parent is an array
  };
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::vector<Frame> frames;
  std::vector<std::size_t> todo;
  if (!root.IsObject() && !root.IsArray()) return;
  frames.push_back({&root, npos, nullptr, 0});
  todo.push_back(0);

  // The pointer of member `name` of frame f, built only as far as an issue can
  // store it (IssueCollector cuts at kMaxIssueTextBytes): a duplicate under a
  // 20 KB key costs about 1 KiB, not 20 KB per duplicate.
  auto pointer_of = [&](std::size_t f, std::string_view name) {
    std::vector<std::size_t> chain;
    for (; f != npos && frames[f].parent != npos; f = frames[f].parent) chain.push_back(f);
    std::string p;
    // Each token cut to the issue-text budget first, so a huge member name
    // costs no more than a short one (the collector cuts the pointer again).
    auto append = [&p](std::string_view token) {
      p += '/';
      p += escape_pointer_token(token.substr(0, kMaxIssueTextBytes));
    };
    for (auto it = chain.rbegin(); it != chain.rend() && p.size() <= kMaxIssueTextBytes; ++it) {
      const Frame& fr = frames[*it];
      if (fr.key != nullptr) {
        append(std::string_view(fr.key->GetString(), fr.key->GetStringLength()));
      } else {
        append(std::to_string(fr.index));
      }
    }
    if (p.size() <= kMaxIssueTextBytes) append(name);
    return p;
  };

  std::vector<std::string_view> names;
  while (!todo.empty()) {
    const std::size_t f = todo.back();
    todo.pop_back();
    const gltf_anim::json::Value& v = *frames[f].value;
    if (v.IsObject()) {
      names.clear();
      const std::size_t first_child = frames.size();
      for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
        names.emplace_back(m->name.GetString(), m->name.GetStringLength());
        if (m->value.IsObject() || m->value.IsArray())
          frames.push_back({&m->value, f, &m->name, 0});
      }
      // Pushed last-first so children are visited in document order.
      for (std::size_t c = frames.size(); c > first_child; --c) todo.push_back(c - 1);
      if (names.size() > 1) {
        std::vector<std::string_view> sorted = names;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t i = 1; i < sorted.size(); ++i) {
          if (sorted[i] == sorted[i - 1] &&
              (i + 1 == sorted.size() || sorted[i + 1] != sorted[i])) {
            issues.add("JSON_DUPLICATE_KEY", pointer_of(f, sorted[i]), {std::string(sorted[i])});
          }
        }
      }
    } else {
      const std::size_t first_child = frames.size();
      rapidjson::SizeType i = 0;
      for (auto e = v.Begin(); e != v.End(); ++e, ++i) {
        if (e->IsObject() || e->IsArray()) frames.push_back({e, f, nullptr, i});
      }
      for (std::size_t c = frames.size(); c > first_child; --c) todo.push_back(c - 1);
    }
  }
}

}  // namespace gltf_anim::gltf
