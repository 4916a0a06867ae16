#include "alternatives.hpp"

#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/suite/tolerance.hpp>
#include <gltf_anim/version.hpp>

#include <gltf_anim/text/words.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>

namespace gltf_anim::suite {
namespace {

// Every file of the suite is created relative to a folder held open
// (io::OutputFolder), so a symlink planted in the output folder (for a file or
// for valid/) is never followed; rename replaces such a link itself, never
// what it points to.
using Folder = io::OutputFolder;

void write_file(const Folder& dir, const std::string& name, std::string_view bytes) {
  io::OutputFile out(dir.fd(), name, dir.shown() + "/" + name);
  out.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.commit();
}

void write_file(const Folder& dir, const std::string& name, const std::vector<std::uint8_t>& bytes) {
  write_file(dir, name, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

void write_samples(const Folder& dir, const std::string& name, const samples::SamplesFile& file) {
  io::OutputFile out(dir.fd(), name, dir.shown() + "/" + name);
  samples::write_samples_json(out.stream(), file);
  out.commit();
}

Json strings(const std::vector<std::string>& items) {
  Json j = Json::array();
  for (const auto& s : items) j.push(s);
  return j;
}

// The manifest entry of one case whose asset (`asset_path`, named `file` in the manifest) and
// golden samples (`samples`) are written: its tolerances, the extensions a client needs
// (`extensions_used`, none when an allowed variant is what a client without them plays), and
// its variants and known divergences (whole-file variants written into `valid_dir`).
Json case_entry(const Case& c, const std::string& file, const std::string& samples,
                const std::filesystem::path& asset_path, const Folder& valid_dir,
                const samples::SamplesFile& golden, std::vector<std::string> extensions_used) {
  bool float32_time_is_a_variant = false;
  for (const Variant& v : c.variants)
    float32_time_is_a_variant |= v.allowed && v.name == "float32-time";
  const std::vector<sampler::DecodedChannel> channels = sampler::decoded_channels(asset_path);
  const CaseTolerances tolerances = derive_tolerances(channels, float32_time_is_a_variant);
  const std::vector<Variant> alternatives = case_alternatives(c, channels, golden, tolerances);
  // The extensions a client must implement for the golden samples to apply
  // (compare --extensions excludes the case for a client without one): those
  // the asset uses, none when an allowed variant is what a client without
  // them plays (EXT_animation_sqlerp's LINEAR fallback).
  bool core_view_is_a_variant = false;
  for (const Variant& v : alternatives) core_view_is_a_variant |= v.allowed && v.core_only_view;
  std::vector<std::string> extensions;
  if (!core_view_is_a_variant) extensions = std::move(extensions_used);
  std::sort(extensions.begin(), extensions.end());
  Json entry = Json::object({{"id", c.id},
                             {"file", file},
                             {"samples", samples},
                             {"group", c.group},
                             {"features", strings(c.features)},
                             {"clauses", strings(c.clauses)},
                             {"extensions", strings(extensions)},
                             {"tolerance", tolerances.absolute},
                             {"angleTolerance", tolerances.angle}});
  bool any_rotation = false;
  Json per_channel = Json::array();
  for (const ChannelTolerances& t : tolerances.channels) {
    any_rotation |= t.rotation;
    Json own = Json::object({{"animation", t.animation}, {"channel", t.channel}});
    own.set(t.rotation ? "angleTolerance" : "tolerance", t.value);
    if (t.rotation) own.set("lengthTolerance", t.length);
    per_channel.push(std::move(own));
  }
  if (any_rotation) entry.set("lengthTolerance", tolerances.length);
  entry.set("channelTolerances", std::move(per_channel));
  entry.set("notes", c.notes);
  for (const bool allowed : {true, false}) {
    Json variants = Json::object();
    bool any = false;
    for (const Variant& v : alternatives) {
      if (v.allowed != allowed) continue;
      any = true;
      Json variant = Json::object({{"description", v.description}});
      if (v.core_only_view) {
        sampler::SampleRequest core_only;
        core_only.extensions = false;
        const std::string variant_file = c.id + "." + v.name + ".variant.json";
        write_samples(valid_dir, variant_file, sampler::sample_asset(asset_path, core_only));
        variant.set("samples", "valid/" + variant_file);
      } else if (v.excerpt) {
        Json excerpt = Json::array();
        for (const compare::VariantSample& s : v.excerpt(golden)) {
          excerpt.push(Json::object({{"animation", s.animation},
                                     {"channel", s.channel},
                                     {"t", s.t},
                                     {"value", Json::floats(s.value)}}));
        }
        variant.set("samples", std::move(excerpt));
      }
      variants.set(v.name, std::move(variant));
    }
    if (any) entry.set(allowed ? "variants" : "knownDivergences", std::move(variants));
  }
  return entry;
}

}  // namespace

std::string asset_file_name(const Case& c) {
  return c.id + (c.container == Container::kGlb ? ".glb" : ".gltf");
}

std::size_t generate(const std::filesystem::path& out) {
  const std::filesystem::path valid = out / "valid";
  const Folder out_dir = Folder::open(out);
  const Folder valid_dir = out_dir.subfolder("valid");

  Json assets = Json::array();
  std::set<std::string> ids;
  for (const Case& c : suite_cases()) {
    if (!ids.insert(c.id).second) throw std::logic_error("duplicate case id " + c.id);
    GltfBuilder builder;
    c.build(builder);
    for (const auto& file : builder.finish(c.id, c.container)) write_file(valid_dir, file.name, file.bytes);

    const std::string asset = asset_file_name(c);
    const std::string samples = c.id + ".samples.json";
    const samples::SamplesFile golden = sampler::sample_asset(valid / asset);
    write_samples(valid_dir, samples, golden);

    assets.push(case_entry(c, "valid/" + asset, "valid/" + samples, valid / asset, valid_dir,
                           golden, builder.extensions_used()));
  }
  Json manifest = Json::object(
      {{"suite", "gltf-anim conformance suite (valid assets)"},
       {"generator", kGenerator},
       {"regenerate", "gltf-anim generate --out conformance_assets"},
       {"sampling",
        "Golden samples: gltf-anim sample with default times (every key, segment quarter points and "
        "midpoints, 0.5 s before the earliest and after the latest key of each animation, and t = 0)."},
       {"assets", std::move(assets)}});
  const std::string text = manifest.dump(2);
  write_file(out_dir, "manifest.json", text);
  return ids.size();
}

}  // namespace gltf_anim::suite

namespace gltf_anim::suite {
namespace {

namespace fs = std::filesystem;

bool is_asset_file(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return ext == ".gltf" || ext == ".glb";
}

// The stem reduced to [A-Za-z0-9._-] (a case id is a file name in every adapter's output).
std::string plain_id(const fs::path& file) {
  std::string id;
  for (const char ch : file.stem().string()) {
    const auto u = static_cast<unsigned char>(ch);
    id.push_back(std::isalnum(u) != 0 || ch == '.' || ch == '_' || ch == '-' ? ch : '_');
  }
  if (id.empty() || id == "." || id == "..") id = "asset";
  return id;
}

bool within(const fs::path& folder, const fs::path& path) {
  const auto [f, p] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return f == folder.end();
}

std::vector<std::uint8_t> read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return {std::istreambuf_iterator<char>(in), {}};
}

// The JSON text of a .gltf, or of a GLB's first chunk; empty with `why` when a GLB's chunk
// length does not fit the file.
std::string json_text_of(const std::vector<std::uint8_t>& bytes, std::string& why) {
  if (bytes.size() >= 20 && std::memcmp(bytes.data(), "glTF", 4) == 0) {
    const std::uint32_t length = std::uint32_t{bytes[12]} | std::uint32_t{bytes[13]} << 8 |
                                 std::uint32_t{bytes[14]} << 16 | std::uint32_t{bytes[15]} << 24;
    if (length > bytes.size() - 20) {
      why = "its GLB JSON chunk is longer than the file";
      return {};
    }
    return std::string(reinterpret_cast<const char*>(bytes.data()) + 20, length);
  }
  return std::string(bytes.begin(), bytes.end());
}

// The relative URIs (buffers and images) an asset names, each checked to stay in the asset's
// folder: no scheme, no absolute path, no "..", no percent-encoding (copied as written).
// Empty `why` when every one is such a path or a data: URI.
std::vector<std::string> relative_uris(const std::vector<std::uint8_t>& bytes, std::string& why) {
  const std::string text = json_text_of(bytes, why);
  if (!why.empty()) return {};
  gltf_anim::json::Document doc;
  doc.Parse(text.c_str(), text.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    why = "its JSON does not parse";
    return {};
  }
  // Read through a const reference: rapidjson's mutable member iterators do not
  // compare in C++20 under clang (the WebAssembly build).
  const gltf_anim::json::Value& root = doc;
  std::vector<std::string> uris;
  for (const char* list : {"buffers", "images"}) {
    const auto m = root.FindMember(list);
    if (m == root.MemberEnd() || !m->value.IsArray()) continue;
    for (const auto& item : m->value.GetArray()) {
      if (!item.IsObject()) continue;
      const auto u = item.FindMember("uri");
      if (u == item.MemberEnd() || !u->value.IsString()) continue;
      const std::string uri(u->value.GetString(), u->value.GetStringLength());
      if (uri.rfind("data:", 0) == 0) continue;
      const fs::path rel(uri);
      bool ok =
          !uri.empty() && !rel.has_root_path() && uri.find_first_of(":%\\") == std::string::npos;
      for (const auto& part : rel) ok = ok && part != ".." && part != ".";
      if (!ok) {
        why = "it names a file outside its folder or a URI this command does not copy: " +
              uri.substr(0, 200);
        return {};
      }
      uris.push_back(uri);
    }
  }
  return uris;
}

// The extensions an asset declares (extensionsUsed), sorted.
std::vector<std::string> extensions_used(const std::vector<std::uint8_t>& bytes) {
  std::string why;
  const std::string text = json_text_of(bytes, why);
  gltf_anim::json::Document doc;
  doc.Parse(text.c_str(), text.size());
  std::vector<std::string> out;
  if (doc.HasParseError() || !doc.IsObject()) return out;
  const gltf_anim::json::Value& root = doc;  // const: see relative_uris
  const auto m = root.FindMember("extensionsUsed");
  if (m == root.MemberEnd() || !m->value.IsArray()) return out;
  for (const auto& e : m->value.GetArray()) {
    if (e.IsString()) out.emplace_back(e.GetString(), e.GetStringLength());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

FromResult generate_from(const std::vector<fs::path>& inputs, const fs::path& out) {
  if (inputs.empty()) throw std::runtime_error("no asset or folder given (--from)");
  const fs::path out_real = fs::weakly_canonical(fs::absolute(out));
  // The assets, in the order given; a folder's in name order.
  std::vector<fs::path> files;
  for (const fs::path& input : inputs) {
    std::error_code ec;
    const fs::path real = fs::canonical(input, ec);
    if (ec) throw std::runtime_error("cannot open " + input.string() + ": " + ec.message());
    if (fs::is_directory(real)) {
      if (within(real, out_real)) {
        throw std::runtime_error("the output folder " + out.string() +
                                 " lies inside the input folder " + input.string());
      }
      std::vector<fs::path> found;
      for (fs::recursive_directory_iterator it(real, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file() && is_asset_file(it->path())) found.push_back(it->path());
      }
      if (ec)
        throw std::runtime_error("cannot read folder " + input.string() + ": " + ec.message());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(real);
    }
  }
  for (const fs::path& f : files) {
    if (within(out_real, f))
      throw std::runtime_error("the input " + f.string() + " lies inside the output folder");
  }
  const Folder out_dir = Folder::open(out);
  const Folder valid_dir = out_dir.subfolder("valid");
  FromResult result;
  Json assets = Json::array();
  std::set<std::string> ids;
  for (const fs::path& file : files) {
    const std::string shown = file.string();
    // Reading and sampling the user's file: a failure skips that asset, with the reason.
    std::vector<std::uint8_t> bytes;
    std::vector<std::string> uris;
    samples::SamplesFile golden;
    try {
      bytes = read_all(file);
      std::string why;
      uris = relative_uris(bytes, why);
      if (!why.empty()) {
        result.skipped.push_back(shown + ": " + why);
        continue;
      }
      for (const std::string& uri : uris) {
        const fs::path source = fs::canonical(file.parent_path() / uri);
        if (!within(fs::canonical(file.parent_path()), source)) {
          result.skipped.push_back(shown + ": " + uri +
                                   " leads out of the asset's folder (a symbolic link)");
          why = "skipped";
          break;
        }
      }
      if (!why.empty()) continue;
      golden = sampler::sample_asset(file);
    } catch (const std::exception& e) {
      result.skipped.push_back(shown + ": " + e.what());
      continue;
    }
    std::size_t channels = 0;
    for (const auto& a : golden.animations) channels += a.channels.size();
    if (channels == 0) {
      result.skipped.push_back(shown + ": no animation channel to play");
      continue;
    }
    std::string id = plain_id(file);
    for (int n = 2; !ids.insert(id).second; ++n) id = plain_id(file) + "-" + std::to_string(n);
    // The asset and the files it names, copied as they are into valid/<id>/ (writing errors
    // end the command).
    const Folder case_dir = valid_dir.subfolder(id);
    write_file(case_dir, file.filename().string(), bytes);
    for (const std::string& uri : uris) {
      const fs::path rel(uri);
      if (rel.has_parent_path()) fs::create_directories(out / "valid" / id / rel.parent_path());
      write_file(case_dir, uri, read_all(file.parent_path() / rel));
    }
    const std::string rel_asset = id + "/" + file.filename().string();
    golden.asset = file.filename().string();
    const std::string samples = id + ".samples.json";
    write_samples(valid_dir, samples, golden);
    Case c;
    c.id = id;
    c.group = "user";
    c.notes = "From " + file.filename().string() + " (gltf-anim generate --from).";
    assets.push(case_entry(c, "valid/" + rel_asset, "valid/" + samples, out / "valid" / rel_asset,
                           valid_dir, golden, extensions_used(bytes)));
    ++result.written;
  }
  Json manifest = Json::object(
      {{"suite", "gltf-anim suite from the user's assets"},
       {"generator", kGenerator},
       {"sampling",
        "Golden samples: gltf-anim sample with default times (every key, segment quarter "
        "points and midpoints, 0.5 s before the earliest and after the latest key of each "
        "animation, and t = 0)."},
       {"assets", std::move(assets)}});
  write_file(out_dir, "manifest.json", manifest.dump(2));
  return result;
}

}  // namespace gltf_anim::suite
