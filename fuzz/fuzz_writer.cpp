// libFuzzer target: the faithful writer's round trip (gltf/writer.hpp), checked
// against an independent oracle. The first byte chooses what to edit, the rest
// is the file.
//  * JSON text: no edit gives the text back byte for byte. Edits of values
//    chosen by their position in a walk of the parsed document (a value is
//    chosen only when no value around it is) must give a text that parses to
//    the original document with those values replaced at the places the walk
//    found them: the splices land on the values the pointers name, and every
//    other value survives.
//  * GLB: the same JSON chunk and no BIN gives the file back byte for byte
//    when its chunks tile it; a new JSON chunk leaves a file whose header,
//    chunk lengths and padding an independent reading of the container checks.
// A broken property aborts (a finding).
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/writer.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>

#include <rapidjson/memorystream.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace json = gltf_anim::json;
namespace gltf = gltf_anim::gltf;

[[noreturn]] void broken(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "writer round trip broken: %s %s\n", what, detail.c_str());
  std::abort();
}

// As the loader parses (gltf/src/load/json.cpp): numbers kept as their text, so
// an untouched number compares equal by its spelling.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag |
                                 rapidjson::kParseValidateEncodingFlag |
                                 rapidjson::kParseNumbersAsStringsFlag;

// Parsed from a plain memory stream, as the loader reads: Document::Parse(text,
// length) would skip any of the bytes EF, BB, BF at the start, one by one.
void parse(json::Document& d, std::string_view text) {
  rapidjson::MemoryStream stream(text.data(), text.size());
  d.ParseStream<kParseFlags>(stream);
}

bool has_duplicate_names(const json::Value& object) {
  for (auto a = object.MemberBegin(); a != object.MemberEnd(); ++a) {
    for (auto b = a + 1; b != object.MemberEnd(); ++b) {
      if (a->name == b->name) return true;
    }
  }
  return false;
}

// The replacement texts, each valid JSON.
constexpr const char* kNewValues[] = {"null",          "-1.5e3", "\"x\\u00e9/~\"",
                                      "[1,{\"a\":2}]", "{}",     "true"};

struct Walk {
  std::size_t every = 2, at = 0, seen = 0;
  bool duplicates = false;
  std::vector<gltf::ValueEdit> edits;
  // Per edit, where its value is: the member's or element's position at each level.
  std::vector<std::vector<rapidjson::SizeType>> places;
  std::vector<rapidjson::SizeType> place;  // of the value being walked
};

// Depth-first over the document; `depth` is bounded by the fuzzer's input size
// and the parse's own nesting (small inputs).
void walk(const json::Value& v, const std::string& pointer, Walk& w, int depth) {
  if (depth > 64) return;
  const bool chosen = !pointer.empty() && (w.seen++ % w.every) == w.at;
  if (chosen) {
    w.edits.push_back({pointer, kNewValues[w.edits.size() % std::size(kNewValues)]});
    w.places.push_back(w.place);
    return;  // nothing inside an edited value is edited
  }
  if (v.IsObject()) {
    if (has_duplicate_names(v)) w.duplicates = true;
    for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
      w.place.push_back(static_cast<rapidjson::SizeType>(m - v.MemberBegin()));
      walk(m->value,
           pointer + "/" +
               gltf_anim::gltf::escape_pointer_token(
                   {m->name.GetString(), m->name.GetStringLength()}),
           w, depth + 1);
      w.place.pop_back();
    }
  } else if (v.IsArray()) {
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      w.place.push_back(i);
      walk(v[i], pointer + "/" + std::to_string(i), w, depth + 1);
      w.place.pop_back();
    }
  }
}

void check_json(std::uint8_t control, std::string_view text) {
  std::string why;
  // No edit: the same bytes.
  const auto same = gltf::apply_splices(text, {}, why);
  if (!same || *same != text) broken("no splice changed the text", why);

  // The loader refuses a byte order mark and a NUL (RapidJSON's Parse skips the
  // one and stops at the other), so the writer never gets such a text.
  if (text.starts_with("\xEF\xBB\xBF") || text.find('\0') != std::string_view::npos) return;
  json::Document original;
  parse(original, text);
  if (original.HasParseError()) return;
  Walk w;
  w.every = (control & 7) + 1;
  w.at = (control >> 3) % w.every;
  walk(original, "", w, 0);
  // A pointer through duplicate member names names the first of them for
  // RapidJSON; the validator reports such files, and edits stay out of them.
  if (w.duplicates || w.edits.empty()) return;

  const auto splices = gltf::splices_for(text, w.edits, why);
  if (!splices) broken("edits of values the document has were refused", why);
  const auto edited = gltf::apply_splices(text, *splices, why);
  if (!edited) broken("splices for the edits did not apply", why);

  // The oracle: the original document with each value replaced where the walk
  // found it, by position (no pointer: RapidJSON 1.1.0's own pointers miss a
  // member whose name holds "\u0000", as its FindMember takes the name as a C string).
  json::Document expected;
  expected.CopyFrom(original, expected.GetAllocator());
  for (std::size_t k = 0; k < w.edits.size(); ++k) {
    json::Value* at = &expected;
    for (const rapidjson::SizeType i : w.places[k]) {
      at = at->IsObject() ? &(at->MemberBegin() + i)->value : &(*at)[i];
    }
    json::Document value;
    parse(value, w.edits[k].value);
    at->CopyFrom(value, expected.GetAllocator());
  }
  json::Document got;
  parse(got, *edited);
  if (got.HasParseError()) broken("the edited text is not JSON", *edited);
  if (got != expected) {
    std::string detail = *edited + "\nedits:";
    for (const gltf::ValueEdit& e : w.edits) detail += " [" + e.pointer + "] = " + e.value;
    broken("the edited text differs from the oracle", detail);
  }
}

std::uint32_t u32(std::span<const std::uint8_t> b, std::size_t at) {
  return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at + 2]} << 16 |
         std::uint32_t{b[at + 3]} << 24;
}

constexpr std::uint32_t kJsonChunk = 0x4E4F534A;  // "JSON"

void check_glb(std::uint8_t control, std::span<const std::uint8_t> file) {
  if (file.size() < 20 || u32(file, 12) > file.size() - 20 || u32(file, 16) != kJsonChunk) return;
  const std::size_t json_length = u32(file, 12);
  const std::string_view json_text(reinterpret_cast<const char*>(file.data()) + 20, json_length);
  // Do the chunks tile the file, each a multiple of 4 bytes, as the header says?
  bool tiles = u32(file, 8) == file.size();
  std::size_t at = 12;
  while (tiles && at < file.size()) {
    if (file.size() - at < 8) {
      tiles = false;
      break;
    }
    const std::size_t length = u32(file, at);
    tiles = length % 4 == 0 && length <= file.size() - at - 8;
    at += 8 + length;
  }
  std::string why;
  const auto same = gltf::write_glb(file, json_text, std::nullopt, why);
  if (tiles && (!same || !std::equal(same->begin(), same->end(), file.begin(), file.end()))) {
    broken("the same JSON chunk changed a well-formed GLB", why);
  }
  if (!tiles) return;  // what a malformed container becomes is the first check's business
  // A new JSON chunk: `control` spaces longer than the old one's text.
  const std::string longer = std::string(json_text) + std::string(control % 7, ' ') + "1";
  const auto out = gltf::write_glb(file, longer, std::nullopt, why);
  if (!out) return;
  const std::span<const std::uint8_t> o(*out);
  if (o.size() < 20 || u32(o, 8) != o.size()) broken("the header's length is not the file's");
  const std::size_t new_length = u32(o, 12);
  if (new_length % 4 != 0 || new_length < longer.size() || new_length > longer.size() + 3 ||
      u32(o, 16) != kJsonChunk || 20 + new_length > o.size()) {
    broken("the new JSON chunk's length or type is wrong");
  }
  if (std::memcmp(o.data() + 20, longer.data(), longer.size()) != 0) broken("JSON chunk text");
  for (std::size_t i = 20 + longer.size(); i < 20 + new_length; ++i) {
    if (o[i] != ' ') broken("the JSON chunk is not padded with spaces");
  }
  // Everything after the JSON chunk is the old file's.
  const std::size_t old_end = 20 + json_length;
  if (o.size() - (20 + new_length) != file.size() - old_end ||
      !std::equal(o.begin() + static_cast<std::ptrdiff_t>(20 + new_length), o.end(),
                  file.begin() + static_cast<std::ptrdiff_t>(old_end))) {
    broken("the chunks after the JSON chunk changed");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t control = data[0];
  const std::span<const std::uint8_t> rest(data + 1, size - 1);
  if (rest.size() >= 4 && std::memcmp(rest.data(), "glTF", 4) == 0) {
    check_glb(control, rest);
  } else {
    check_json(control, std::string_view(reinterpret_cast<const char*>(rest.data()), rest.size()));
  }
  return 0;
}
