// The manifest: what each case of a suite is (its golden samples, tolerances,
// variants and known divergences), read from manifest.json, and the samples
// files it names, confined to its folder.
#include "manifest.hpp"

#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/io/file_queries.hpp>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/text/utf8.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace gltf_anim::compare {

using samples::ReadOptions;
using samples::SamplesFile;
using samples::SamplesFormatError;

namespace fs = std::filesystem;

namespace {

using JValue = gltf_anim::json::Value;

using gltf::escape_pointer_token;

struct ManifestReader {
  std::string file;

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw SamplesFormatError(file, pointer, message);
  }
  std::string string_of(const JValue& v, const std::string& ptr) const {
    if (!v.IsString()) fail(ptr, "must be a string");
    return std::string(v.GetString(), v.GetStringLength());
  }
  std::string samples_path_of(const JValue& v, const std::string& ptr) const {
    std::string path = string_of(v, ptr);
    // Inside the manifest's folder (symlinks out are refused on opening: read_confined).
    if (!io::is_relative_without_dotdot(path)) {
      fail(ptr, "must be a relative path inside the manifest's folder (not absolute, no \"..\")");
    }
    return path;
  }
  std::vector<std::string> strings_of(const JValue& v, const std::string& ptr) const {
    if (v.IsString()) return {string_of(v, ptr)};
    if (!v.IsArray()) fail(ptr, "must be an array of strings");
    std::vector<std::string> out;
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      out.push_back(string_of(v[i], ptr + "/" + std::to_string(i)));
    }
    return out;
  }
  double tolerance_of(const JValue& v, const std::string& ptr) const {
    if (!v.IsNumber() || !(v.GetDouble() >= 0) || !std::isfinite(v.GetDouble())) {
      fail(ptr, "must be a non-negative number");
    }
    return v.GetDouble();
  }
  std::string joined(const JValue& v, const std::string& ptr) const {
    std::string out;
    for (const auto& s : strings_of(v, ptr)) {
      if (!out.empty()) out += " ";
      out += s;
    }
    return out;
  }

  ManifestVariant variant(std::string name, const JValue& v, const std::string& ptr) const {
    ManifestVariant var;
    var.name = std::move(name);
    for (const char* k : {"description", "notes", "note"}) {
      if (v.HasMember(k)) {
        var.notes = joined(v[k], ptr + "/" + k);
        break;
      }
    }
    if (!v.HasMember("samples")) return var;
    const JValue& s = v["samples"];
    const std::string sp = ptr + "/samples";
    if (s.IsString()) {
      var.samples = samples_path_of(s, sp);
      return var;
    }
    if (!s.IsArray()) fail(sp, "must be a path or an array of samples");
    for (rapidjson::SizeType i = 0; i < s.Size(); ++i) {
      const std::string ip = sp + "/" + std::to_string(i);
      const JValue& x = s[i];
      if (!x.IsObject()) fail(ip, "must be an object");
      VariantSample vs;
      for (const char* k : {"animation", "channel", "t", "value"}) {
        if (!x.HasMember(k)) fail(ip, std::string("missing member \"") + k + "\"");
      }
      if (!x["animation"].IsUint()) fail(ip + "/animation", "must be a non-negative integer");
      if (!x["channel"].IsUint()) fail(ip + "/channel", "must be a non-negative integer");
      if (!x["t"].IsNumber()) fail(ip + "/t", "must be a number");
      vs.animation = x["animation"].GetUint();
      vs.channel = x["channel"].GetUint();
      vs.t = x["t"].GetDouble();
      const JValue& val = x["value"];
      if (!val.IsArray() || val.Empty()) fail(ip + "/value", "must be a non-empty array of numbers");
      for (rapidjson::SizeType k = 0; k < val.Size(); ++k) {
        if (!val[k].IsNumber()) fail(ip + "/value/" + std::to_string(k), "must be a number");
        vs.value.push_back(val[k].GetDouble());
      }
      var.excerpt.push_back(std::move(vs));
    }
    return var;
  }

  // [{"animation": A, "channel": C, "tolerance" | "angleTolerance" | "lengthTolerance": X}, ...]
  std::vector<ChannelTolerance> channel_tolerances(const JValue& v, const std::string& ptr) const {
    if (!v.IsArray()) fail(ptr, "must be an array of channel tolerances");
    std::vector<ChannelTolerance> out;
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      const std::string ip = ptr + "/" + std::to_string(i);
      const JValue& x = v[i];
      if (!x.IsObject()) fail(ip, "must be an object");
      for (const char* k : {"animation", "channel"}) {
        if (!x.HasMember(k)) fail(ip, std::string("missing member \"") + k + "\"");
        if (!x[k].IsUint()) fail(ip + "/" + k, "must be a non-negative integer");
      }
      ChannelTolerance c;
      c.animation = x["animation"].GetUint();
      c.channel = x["channel"].GetUint();
      if (x.HasMember("tolerance")) c.absolute = tolerance_of(x["tolerance"], ip + "/tolerance");
      if (x.HasMember("angleTolerance"))
        c.angle = tolerance_of(x["angleTolerance"], ip + "/angleTolerance");
      if (x.HasMember("lengthTolerance"))
        c.length = tolerance_of(x["lengthTolerance"], ip + "/lengthTolerance");
      out.push_back(c);
    }
    return out;
  }

  ManifestEntry entry(const JValue& v, const std::string& ptr) const {
    if (!v.IsObject()) fail(ptr, "must be an object");
    ManifestEntry e;
    for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
      const std::string key(m->name.GetString(), m->name.GetStringLength());
      const std::string p = ptr + "/" + escape_pointer_token(key);
      const JValue& x = m->value;
      if (key == "id") e.id = string_of(x, p);
      else if (key == "file") e.file = string_of(x, p);
      else if (key == "samples") {
        const auto list = strings_of(x, p);
        if (!list.empty()) e.samples = samples_path_of(x.IsArray() ? x[0] : x, x.IsArray() ? p + "/0" : p);
      } else if (key == "features") e.features = strings_of(x, p);
      else if (key == "clauses") e.clauses = strings_of(x, p);
      else if (key == "extensions") e.extensions = strings_of(x, p);
      else if (key == "tolerance") e.tolerance = tolerance_of(x, p);
      else if (key == "angleTolerance") e.angle_tolerance = tolerance_of(x, p);
      else if (key == "lengthTolerance")
        e.length_tolerance = tolerance_of(x, p);
      else if (key == "channelTolerances")
        e.channel_tolerances = channel_tolerances(x, p);
      else if (key == "notes") e.notes = joined(x, p);
      else if (key == "variants" || key == "knownDivergences") {
        auto& list = key == "variants" ? e.variants : e.known_divergences;
        if (x.IsArray()) {
          for (rapidjson::SizeType i = 0; i < x.Size(); ++i) {
            const std::string vp = p + "/" + std::to_string(i);
            if (!x[i].IsObject()) fail(vp, "must be an object");
            std::string name = "variant " + std::to_string(i);
            if (x[i].HasMember("name")) name = string_of(x[i]["name"], vp + "/name");
            list.push_back(variant(std::move(name), x[i], vp));
          }
        } else if (x.IsObject()) {
          for (auto vm = x.MemberBegin(); vm != x.MemberEnd(); ++vm) {
            std::string name(vm->name.GetString(), vm->name.GetStringLength());
            const std::string vp = p + "/" + escape_pointer_token(name);
            if (!vm->value.IsObject()) fail(vp, "must be an object");
            list.push_back(variant(std::move(name), vm->value, vp));
          }
        } else {
          fail(p, "must be an object keyed by name or an array");
        }
      }
    }
    return e;
  }
};

// Forwards a reader's events to a document, converting every number from its
// text with std::from_chars (correctly rounded), as the loader and the samples
// reader do: RapidJSON 1.1.0's full-precision parser misreads some tokens
// ("0e200" became a huge number, so a tolerance of zero let anything pass).
class ExactNumbers {
 public:
  explicit ExactNumbers(gltf_anim::json::Document& doc) : doc_(doc) {}
  bool Null() { return doc_.Null(); }
  bool Bool(bool b) { return doc_.Bool(b); }
  bool Int(int i) { return doc_.Int(i); }
  bool Uint(unsigned i) { return doc_.Uint(i); }
  bool Int64(std::int64_t i) { return doc_.Int64(i); }
  bool Uint64(std::uint64_t i) { return doc_.Uint64(i); }
  bool Double(double d) { return doc_.Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool /*copy*/) {
    const char* end = s + n;
    if (std::string_view(s, n).find_first_of(".eE") == std::string_view::npos) {
      std::int64_t i = 0;
      std::uint64_t u = 0;
      if (*s == '-') {
        if (const auto r = std::from_chars(s, end, i); r.ec == std::errc() && r.ptr == end) return doc_.Int64(i);
      } else if (const auto r = std::from_chars(s, end, u); r.ec == std::errc() && r.ptr == end) {
        return doc_.Uint64(u);
      }
    }
    double d = 0;
    const auto r = std::from_chars(s, end, d);
    if (r.ec != std::errc() || r.ptr != end) {
      bad_number_ = std::string(s, n);
      return false;
    }
    return doc_.Double(d);
  }
  // The raw text is UTF-8 (kParseValidateEncodingFlag), but RapidJSON 1.1.0
  // decodes a lone low surrogate escape ("\udc00") to bytes that are not:
  // refused, as the loader and the samples reader refuse it.
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return decodes_to_utf8(s, n) && doc_.String(s, n, copy);
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    return decodes_to_utf8(s, n) && doc_.Key(s, n, copy);
  }
  bool StartObject() { return doc_.StartObject(); }
  bool EndObject(rapidjson::SizeType n) { return doc_.EndObject(n); }
  bool StartArray() { return doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType n) { return doc_.EndArray(n); }
  const std::string& bad_number() const { return bad_number_; }
  bool bad_string() const { return bad_string_; }

 private:
  bool decodes_to_utf8(const char* s, rapidjson::SizeType n) {
    bad_string_ = !text::is_valid_utf8(std::string_view(s, n));
    return !bad_string_;
  }

  gltf_anim::json::Document& doc_;
  std::string bad_number_;
  bool bad_string_ = false;
};

constexpr std::uint64_t kMaxManifestBytes = std::uint64_t{256} << 20;

// A path named by the manifest (an entry's or a variant's `samples`), relative
// to the manifest's folder and confined to it: no absolute path, no "..", no
// symlink out (io::read_file_confined through the folder's reader, as for
// external buffer URIs).
std::string read_confined(const io::ResourceReader& reader, const fs::path& base,
                          const std::string& relative, std::uint64_t limit) {
  std::string why;
  auto text = io::read_file_confined(reader, fs::path(relative), limit, why);
  if (!text) throw SamplesFormatError((base / relative).string(), "", why);
  return std::move(*text);
}

}  // namespace

namespace detail {

SamplesFile read_manifest_samples(const ManifestFiles& files, const std::string& relative,
                                  const ReadOptions& options) {
  const fs::path base = files.manifest.path.parent_path();
  const std::string text = read_confined(files.reader, base, relative, options.max_file_bytes);
  return samples::read_samples_named(text, (base / relative).string(), options);
}

}  // namespace detail

Manifest read_manifest(const fs::path& path) {
  // Confined to its own folder too: a manifest.json that is a symlink to a file
  // elsewhere is refused.
  const std::string text = read_confined(io::FolderReader(path.parent_path()), path.parent_path(),
                                         path.filename().string(), kMaxManifestBytes);
  return parse_manifest(text, path);
}

Manifest parse_manifest(std::string_view text, const fs::path& path) {
  ManifestReader r{path.string()};
  if (text.size() > kMaxManifestBytes) {
    r.fail("", "is " + std::to_string(text.size()) + " bytes, more than the limit of " +
                   std::to_string(kMaxManifestBytes));
  }
  gltf_anim::json::Document doc;
  rapidjson::MemoryStream stream(text.data(), text.size());
  gltf_anim::json::Reader reader;
  ExactNumbers exact(doc);
  rapidjson::ParseResult parsed;
  auto generate = [&](gltf_anim::json::Document&) {
    parsed = reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag |
                          rapidjson::kParseNumbersAsStringsFlag>(stream, exact);
    return !parsed.IsError();
  };
  doc.Populate(generate);
  if (parsed.IsError()) {
    const std::size_t offset = std::min<std::size_t>(parsed.Offset(), text.size());
    const std::size_t line = 1 + static_cast<std::size_t>(
                                     std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    const std::size_t last_nl = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t column = offset - (last_nl == std::string::npos || offset == 0 ? 0 : last_nl + 1) + 1;
    r.fail("line " + std::to_string(line) + ", column " + std::to_string(column),
           exact.bad_string() ? std::string("string is not valid UTF-8 (an unpaired UTF-16 surrogate escape)")
           : exact.bad_number().empty()
               ? std::string("invalid JSON: ") + rapidjson::GetParseError_En(parsed.Code())
               : "number " + exact.bad_number() + " is out of the range of a double");
  }
  Manifest m;
  m.path = path;
  const JValue* list = nullptr;
  std::string list_ptr;
  if (doc.IsArray()) {
    list = &doc;
  } else if (doc.IsObject()) {
    for (const char* k : {"assets", "cases", "entries"}) {
      if (doc.HasMember(k)) {
        list = &doc[k];
        list_ptr = std::string("/") + k;
        break;
      }
    }
    if (doc.HasMember("tolerance")) m.tolerance = r.tolerance_of(doc["tolerance"], "/tolerance");
    if (doc.HasMember("angleTolerance")) {
      m.angle_tolerance = r.tolerance_of(doc["angleTolerance"], "/angleTolerance");
      if (doc.HasMember("lengthTolerance"))
        m.length_tolerance = r.tolerance_of(doc["lengthTolerance"], "/lengthTolerance");
    }
    if (!list) r.fail("", "missing member \"assets\" (the array of entries)");
  } else {
    r.fail("", "must be an array of entries or an object with \"assets\"");
  }
  if (!list->IsArray()) r.fail(list_ptr, "must be an array of entries");
  for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
    m.entries.push_back(r.entry((*list)[i], list_ptr + "/" + std::to_string(i)));
    m.lists_extensions = m.lists_extensions || (*list)[i].HasMember("extensions");
  }
  return m;
}

std::optional<fs::path> find_manifest(const fs::path& start) {
  std::error_code ec;
  fs::path dir = io::absolute_path(start, ec);
  if (ec) return std::nullopt;
  // Only there: a walk up the folders would let any manifest.json above (a
  // stray /tmp/manifest.json) set the tolerances.
  if (!io::is_folder(dir)) dir = dir.parent_path();
  fs::path candidate = dir / "manifest.json";
  if (io::name_exists(candidate)) return candidate;
  return std::nullopt;
}

}  // namespace gltf_anim::compare
