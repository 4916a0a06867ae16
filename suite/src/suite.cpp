#include "alternatives.hpp"

#include <gltf_anim/io/file_queries.hpp>
#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/suite/tolerance.hpp>
#include <gltf_anim/version.hpp>

#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/utf8.hpp>
#include <gltf_anim/text/words.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/io/resource_reader.hpp>

#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string_view>

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
// The asset is read by the caller: `channels` are its decoded channels, `sample_with` samples
// it with another request (the core-only view); a variant's whole samples file is handed back
// in `variant_files` (name in valid/, samples) for the caller to write with the case.
using Sampling = std::function<samples::SamplesFile(const sampler::SampleRequest&)>;
using NamedSamples = std::vector<std::pair<std::string, samples::SamplesFile>>;

Json case_entry(const Case& c, const std::string& file, const std::string& samples,
                const std::vector<sampler::DecodedChannel>& channels, const Sampling& sample_with,
                const samples::SamplesFile& golden, std::vector<std::string> extensions_used,
                NamedSamples& variant_files) {
  bool float32_time_is_a_variant = false;
  for (const Variant& v : c.variants)
    float32_time_is_a_variant |= v.allowed && v.name == "float32-time";
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
        variant_files.emplace_back(variant_file, sample_with(core_only));
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

    NamedSamples variant_files;
    assets.push(case_entry(
        c, "valid/" + asset, "valid/" + samples, sampler::decoded_channels(valid / asset),
        [&](const sampler::SampleRequest& r) { return sampler::sample_asset(valid / asset, r); },
        golden, builder.extensions_used(), variant_files));
    for (const auto& [name, file] : variant_files) write_samples(valid_dir, name, file);
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
using io::ReadResult;

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

// A path as messages show it: valid UTF-8, its control characters made visible (one line).
std::string shown(const fs::path& p) { return text::visible_text(p.string()); }

// The loader's resource reader over the asset's folder (io::FolderReader: confined, no
// blocking on a FIFO, only regular files, the size limit before any byte is read) that keeps
// the bytes of every file it read, so that each buffer is read once and copied as it was read,
// and an image is read the same way.
class KeepingReader final : public io::ResourceReader {
 public:
  explicit KeepingReader(fs::path folder) : folder_(std::move(folder)) {}
  ReadResult read(const fs::path& relative, std::uint64_t max_bytes) const override {
    // A file read already (a buffer the loader read) is handed again from memory: what is
    // copied is what was loaded, and it is read once.
    if (auto bytes = kept(relative.lexically_normal().generic_string())) {
      ReadResult again;
      again.storage = io::ByteStorage::from_shared(std::move(bytes));
      return again;
    }
    ReadResult r = folder_.read(relative, max_bytes);
    if (r.failure != ReadResult::Failure::kNone) return r;
    const auto bytes = r.storage->bytes();
    auto kept = std::make_shared<const std::vector<std::uint8_t>>(bytes.begin(), bytes.end());
    r.storage = io::ByteStorage::from_shared(kept);
    const std::lock_guard<std::mutex> lock(mutex_);
    kept_[relative.lexically_normal().generic_string()] = std::move(kept);
    return r;
  }
  std::string where() const override { return folder_.where(); }
  // The bytes read for `name` (a normalized relative path), or null.
  std::shared_ptr<const std::vector<std::uint8_t>> kept(const std::string& name) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = kept_.find(name);
    return it == kept_.end() ? nullptr : it->second;
  }

 private:
  io::FolderReader folder_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const std::vector<std::uint8_t>>> kept_;
};

std::string refusal_text(const ReadResult& r, std::uint64_t max_bytes) {
  switch (r.failure) {
    case ReadResult::Failure::kNone: return {};
    case ReadResult::Failure::kOutsideRoot: return "resolves outside the asset's folder";
    case ReadResult::Failure::kTooLarge:
      return "is " + std::to_string(r.size) + " bytes, more than the limit of " +
             std::to_string(max_bytes);
    case ReadResult::Failure::kNotRegular: return r.detail;
    case ReadResult::Failure::kOpen:
    case ReadResult::Failure::kRead: return r.detail;
  }
  return r.detail;
}

// A relative URI as a file to copy beside the asset: its path percent-decoded as the loader
// decodes it, relative, without ".." components and without a scheme, in its lexically normal
// form ("./a.bin" is "a.bin"); nullopt otherwise.
std::optional<std::string> copied_name(const std::string& uri) {
  const auto colon = uri.find(':');
  if (colon != std::string::npos && colon < uri.find_first_of("/?#")) return std::nullopt;
  const std::optional<std::string> decoded = gltf::decode_uri_path(uri);
  if (!decoded || decoded->empty() || decoded->find('\\') != std::string::npos) return std::nullopt;
  const fs::path rel(*decoded);
  if (!io::is_relative_without_dotdot(rel)) return std::nullopt;
  const fs::path normal = rel.lexically_normal();
  if (normal.empty() || normal == "." || !normal.has_filename()) return std::nullopt;
  return normal.generic_string();
}

// The string member `name` of /<list>/<i>, when it is one.
std::optional<std::string> member_string(const gltf::JsonDocument& doc, const char* list,
                                         std::size_t i, const char* name) {
  const gltf_anim::json::Value& root = doc;  // const: rapidjson's mutable iterators (clang)
  const auto m = root.FindMember(list);
  if (m == root.MemberEnd() || !m->value.IsArray() || i >= m->value.Size()) return std::nullopt;
  const gltf_anim::json::Value& item = m->value[static_cast<rapidjson::SizeType>(i)];
  if (!item.IsObject()) return std::nullopt;
  const auto u = item.FindMember(name);
  if (u == item.MemberEnd() || !u->value.IsString()) return std::nullopt;
  return std::string(u->value.GetString(), u->value.GetStringLength());
}

std::size_t list_size(const gltf::JsonDocument& doc, const char* list) {
  const gltf_anim::json::Value& root = doc;
  const auto m = root.FindMember(list);
  return m == root.MemberEnd() || !m->value.IsArray() ? 0 : m->value.Size();
}

// The extensions an asset declares (extensionsUsed), sorted.
std::vector<std::string> extensions_used(const gltf::JsonDocument& doc) {
  std::vector<std::string> out;
  for (std::size_t i = 0, n = list_size(doc, "extensionsUsed"); i < n; ++i) {
    const gltf_anim::json::Value& root = doc;
    const auto& e = root["extensionsUsed"][static_cast<rapidjson::SizeType>(i)];
    if (e.IsString()) out.emplace_back(e.GetString(), e.GetStringLength());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The golden samples as --from writes them:
//  - an animation without a name is named as compare and the reports name it, "animation N";
//  - a STEP channel's samples at a key time whose value differs from the previous key's are
//    left out: a float32 engine's time arithmetic (a playhead normalized by the clip's
//    duration, an accumulated clock) can land one float32 step before such a key and play the
//    previous key, which no tolerance absorbs. The shipped suite's STEP keys (0, 1, 2, 3.5 s)
//    survive that arithmetic exactly; a user's keys (1/24 s) do not. Returns how many samples
//    were left out.
std::size_t finish_golden(samples::SamplesFile& golden) {
  std::size_t dropped = 0;
  for (samples::SampledAnimation& a : golden.animations) {
    if (a.name.empty()) a.name = "animation " + std::to_string(a.index);
    for (samples::SampledChannel& c : a.channels) {
      if (c.interpolation != "STEP" || c.keyframes.size() < 2 || c.width == 0) continue;
      std::map<double, std::size_t> at;  // sample time -> index
      for (std::size_t i = 0; i < c.size(); ++i) at.emplace(c.times[i], i);
      std::set<std::size_t> drop;
      for (std::size_t k = 1; k < c.keyframes.size(); ++k) {
        const auto now = at.find(c.keyframes[k]);
        const auto before = at.find(c.keyframes[k - 1]);
        if (now == at.end() || before == at.end()) continue;
        const auto v = c.value(now->second);
        const auto p = c.value(before->second);
        if (!std::equal(v.begin(), v.end(), p.begin(), p.end())) drop.insert(now->second);
      }
      if (drop.empty()) continue;
      std::vector<double> times, values;
      for (std::size_t i = 0; i < c.size(); ++i) {
        if (drop.count(i) != 0) continue;
        times.push_back(c.times[i]);
        const auto v = c.value(i);
        values.insert(values.end(), v.begin(), v.end());
      }
      dropped += drop.size();
      c.times = std::move(times);
      c.values = std::move(values);
    }
  }
  return dropped;
}

// Why the manifest entry cannot be written ("" when it can): a member holding a number that
// is not finite, which JSON cannot hold. The tolerance model's bound is NaN where a sample's
// sensitivity to its keys is (a CUBICSPLINE rotation through a zero-length interpolant).
std::string non_finite_member(Json& entry) {
  for (const char* key : {"tolerance", "angleTolerance", "lengthTolerance", "channelTolerances",
                          "variants", "knownDivergences"}) {
    if (!entry.has(key)) continue;
    try {
      (void)entry[key].dump(0);
    } catch (const std::exception&) {
      return std::string("its manifest entry's \"") + key +
             "\" holds a number that is not finite: the tolerance model cannot bound its "
             "samples";
    }
  }
  return {};
}

// One asset checked and sampled, ready to be written.
struct Prepared {
  std::vector<std::pair<std::string, std::shared_ptr<const io::ByteStorage>>> files;
  samples::SamplesFile golden;
  std::vector<sampler::DecodedChannel> channels;
  std::vector<std::string> notes;  // what was not copied, and why
};

// Checks and samples one loaded asset, and reads the files it names through its reader.
// nullopt with the reason in `why` when it is skipped.
std::optional<Prepared> prepare(const FromAsset& in, std::string& why) {
  static const std::vector<gltf::Issue> kNoIssues;
  const std::vector<gltf::Issue>& issues = in.load_issues ? *in.load_issues : kNoIssues;
  const gltf::LoadedAsset& asset = *in.asset;
  const fs::path& file = in.path;
  Prepared p;
  if (!asset.document || !asset.document->IsObject()) {
    why = asset.document ? "the JSON root is not an object" : "not a glTF asset (JSON or GLB)";
    for (const auto& issue : issues) {
      if (issue.severity == gltf::Severity::kError) {
        why = std::string(issue.code) + ": " + issue.message;
        break;
      }
    }
    return std::nullopt;
  }
  const gltf::JsonDocument& doc = *asset.document;
  // The files it names: buffers (read by the loader) and images, through the same reader. A
  // buffer that cannot be copied where the asset's URI expects it skips the asset; an image is
  // a note (an animation suite needs none), and so is a buffer that could not be read when no
  // animation needs it.
  std::set<std::string> named;
  for (const char* list : {"buffers", "images"}) {
    const bool buffers = std::string_view(list) == "buffers";
    for (std::size_t i = 0, n = list_size(doc, list); i < n; ++i) {
      const std::optional<std::string> uri = member_string(doc, list, i, "uri");
      if (!uri || uri->rfind("data:", 0) == 0) continue;
      const std::string at = "/" + std::string(list) + "/" + std::to_string(i);
      const std::optional<std::string> name = copied_name(*uri);
      if (!name) {
        if (buffers) {
          why = "it names a file outside its folder or a URI this command does not copy: " +
                text::truncate_utf8(*uri, 200);
          return std::nullopt;
        }
        p.notes.push_back(at + " (" + text::truncate_utf8(*uri, 200) +
                          ") is not copied: not a file in the asset's folder");
        continue;
      }
      if (!named.insert(*name).second) continue;
      std::shared_ptr<const io::ByteStorage> bytes;
      std::string reason;
      ReadResult r = in.resources ? in.resources->read(*name, in.max_file_bytes) : ReadResult{};
      if (r.storage) {
        bytes = std::move(r.storage);
      } else if (buffers) {
        // The loader's word for it, as validate says it.
        reason = "not read";
        for (const auto& issue : issues) {
          if (issue.pointer.rfind(at, 0) == 0) {
            reason = std::string(issue.code) + ": " + issue.message;
            break;
          }
        }
      } else {
        reason = in.resources ? refusal_text(r, in.max_file_bytes) : "not read";
      }
      if (!bytes) {
        p.notes.push_back(at + " (" + *name + ") is not copied: " + reason);
        continue;
      }
      p.files.emplace_back(*name, std::move(bytes));
    }
  }
  try {
    const std::string described = file.string();
    sampler::SampleRequest request;
    request.asset_name = file.filename().string();  // replaced below when not UTF-8
    p.golden = sampler::sample_asset(asset, described, request);
    p.channels = sampler::decoded_channels(asset, described, request);
  } catch (const std::exception& e) {
    // The sampler's message starts with the asset's path, which the caller puts first.
    const std::string prefix = file.string() + ": ";
    why = e.what();
    if (why.rfind(prefix, 0) == 0) why.erase(0, prefix.size());
    return std::nullopt;
  }
  if (p.channels.empty()) {
    why = "no animation channel to play";
    return std::nullopt;
  }
  return p;
}

// The folders of one case, each opened once (created if missing, never through a symlink)
// and held open while its files are written: valid/<id>/ and the folders of the files the
// asset names ("textures/" of "textures/skin.png").
class CaseFolders {
 public:
  explicit CaseFolders(Folder root) { folders_.emplace("", std::move(root)); }
  const Folder& root() const { return folders_.at(""); }
  // The folder of the relative file name `name` ('/'-separated, no "." or "..").
  const Folder& of(const std::string& name) {
    std::string key;
    const Folder* at = &root();
    for (const auto& part : fs::path(name).parent_path()) {
      key += (key.empty() ? "" : "/") + part.string();
      auto it = folders_.find(key);
      if (it == folders_.end()) it = folders_.emplace(key, at->subfolder(part.string())).first;
      at = &it->second;
    }
    return *at;
  }

 private:
  std::map<std::string, Folder> folders_;  // nodes never move: references stay valid
};

// Writes `bytes` to `name` in `dir` through a temporary renamed into place.
void commit_file(const Folder& dir, const std::string& name, std::span<const std::uint8_t> bytes) {
  io::OutputFile out(dir.fd(), name, dir.shown() + "/" + name);
  out.stream().write(reinterpret_cast<const char*>(bytes.data()),
                     static_cast<std::streamsize>(bytes.size()));
  out.commit();
}

}  // namespace

FromResult generate_from(const std::vector<fs::path>& inputs, const fs::path& out) {
  if (inputs.empty()) throw std::runtime_error("no asset or folder given (--from)");
  const fs::path out_real = io::weakly_canonical_path(io::absolute_path(out));
  // The assets, in the order given; a folder's in name order, each with the folder it lies
  // beneath (opened there, so a name swapped for a link out of the folder is refused).
  // Inside a folder no symbolic link is followed, as `validate DIR` does.
  std::vector<std::pair<fs::path, fs::path>> files;
  FromResult result;
  for (const fs::path& input : inputs) {
    std::error_code ec;
    const fs::path real = io::canonical_path(input, ec);
    if (ec) throw std::runtime_error("cannot open " + shown(input) + ": " + ec.message());
    const io::FileType type = io::file_type_of(real, ec);
    if (type == io::FileType::kUnknown) {
      throw std::runtime_error("cannot open " + shown(input) + ": " + ec.message());
    }
    if (type == io::FileType::kFolder) {
      if (within(real, out_real)) {
        throw std::runtime_error("the output folder " + shown(out) +
                                 " lies inside the input folder " + shown(input));
      }
      std::vector<fs::path> found;
      io::TreeListing listing = io::list_tree(real, /*follow_links=*/false, /*skip_unreadable=*/false);
      if (listing.error) {
        throw std::runtime_error("cannot read folder " + shown(input) + ": " + listing.error.message());
      }
      for (io::TreeEntry& e : listing.entries) {
        if (!is_asset_file(e.path)) continue;
        if (e.type == io::FileType::kSymlink) {
          result.notes.push_back(shown(e.path) +
                                 ": a symbolic link (links inside a folder are not followed)");
        } else if (e.type == io::FileType::kRegular) {
          found.push_back(std::move(e.path));
        }
      }
      if (found.empty())
        throw std::runtime_error("no .gltf or .glb file in folder '" + shown(input) + "'");
      std::sort(found.begin(), found.end());
      for (fs::path& f : found) files.emplace_back(std::move(f), real);
    } else {
      files.emplace_back(real, fs::path());
    }
  }
  for (const auto& [f, folder] : files) {
    if (within(out_real, f))
      throw std::runtime_error("the input " + shown(f) + " lies inside the output folder");
  }
  const Folder out_dir = Folder::open(out);
  const Folder valid_dir = out_dir.subfolder("valid");
  FromSuite suite;
  for (const auto& [file, folder] : files) {
    // Loaded here, through io/ (beneath the input folder it was found in); everything the
    // suite decides of it is FromSuite's, on memory.
    fs::path base = file.parent_path();
    if (base.empty()) base = ".";
    KeepingReader reader(base);
    gltf::IssueCollector issues;
    gltf::LoadOptions options;
    options.resources = &reader;
    options.asset_folder = folder;
    const gltf::LoadedAsset asset = gltf::load_file(file, options, issues);
    FromAsset in;
    in.asset = &asset;
    in.load_issues = &issues.issues();
    in.resources = &reader;
    in.max_file_bytes = options.max_file_bytes;
    in.path = file;
    const std::optional<FromCase> c = suite.add(in, result);
    if (!c) continue;

    // The case's files, each through a temporary renamed into place: first the files the asset
    // names, one at a time (an asset may name thousands: never as many descriptors open at
    // once), then the asset, its golden samples and its variants together
    // (io::commit_together: an interruption leaves all of them or none). When a write fails,
    // the files this case created are removed again, and the error ends the command before
    // the manifest, written last, could name the case: the manifest names only cases whose
    // every file is in place.
    CaseFolders folders(valid_dir.subfolder(c->id));
    const fs::path case_path = out / "valid" / c->id;
    std::vector<fs::path> created_here;
    const auto is_new = [](const fs::path& target) {
      return !io::name_exists(target);
    };
    try {
      for (const auto& [name, bytes] : c->named) {
        const bool made = is_new(case_path / name);
        commit_file(folders.of(name), fs::path(name).filename().string(), bytes->bytes());
        if (made) created_here.push_back(case_path / name);
      }
      std::vector<std::unique_ptr<io::OutputFile>> outputs;
      std::unique_ptr<bool[]> made(new bool[c->texts.size() + 1]);
      std::size_t n = 0;
      const auto add = [&](const Folder& dir, const std::string& name, const fs::path& target,
                           std::span<const std::uint8_t> bytes) {
        made[n++] = is_new(target);
        auto& o = outputs.emplace_back(
            std::make_unique<io::OutputFile>(dir.fd(), name, dir.shown() + "/" + name));
        o->stream().write(reinterpret_cast<const char*>(bytes.data()),
                          static_cast<std::streamsize>(bytes.size()));
      };
      add(folders.root(), c->copy, case_path / c->copy, c->asset_bytes);
      for (const auto& [name, text] : c->texts) {
        add(valid_dir, name, out / "valid" / name,
            std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
      }
      std::vector<io::OutputFile*> order;
      for (auto& o : outputs) order.push_back(o.get());
      io::commit_together(order, std::span<const bool>(made.get(), n));
    } catch (...) {
      for (const fs::path& f : created_here) io::remove_file(f);
      throw;
    }
  }
  write_file(out_dir, "manifest.json", suite.manifest());
  return result;
}

struct FromSuite::State {
  Json assets = Json::array();
  std::set<std::string> ids;
};

FromSuite::FromSuite() : state_(std::make_unique<State>()) {}
FromSuite::~FromSuite() = default;

std::optional<FromCase> FromSuite::add(const FromAsset& in, FromResult& result) {
  if (in.asset == nullptr) throw std::invalid_argument("FromSuite::add: no asset");
  const fs::path& file = in.path;
  std::set<std::string>& ids = state_->ids;
  std::string why;
  std::optional<Prepared> p = prepare(in, why);
  if (!p) {
    result.skipped.push_back(shown(file) + ": " + why);
    return std::nullopt;
  }
  std::string id = plain_id(file);
  for (int n = 2; !ids.insert(id).second; ++n) id = plain_id(file) + "-" + std::to_string(n);
  // The copy keeps the asset's file name, unless that is not UTF-8 (the manifest names it):
  // then <id> and the extension.
  std::string copy = file.filename().string();
  if (!text::is_valid_utf8(copy)) {
    std::string ext = file.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    copy = id + ext;
  }
  // A buffer or image named like the asset itself is the asset.
  std::erase_if(p->files, [&copy](const auto& f) { return f.first == copy; });
  p->golden.asset = copy;
  const std::size_t step_samples_left_out = finish_golden(p->golden);

  const std::string rel_asset = id + "/" + copy;
  const std::string samples = id + ".samples.json";
  Case c;
  c.id = id;
  c.group = "user";
  c.notes =
      "From " + text::repair_utf8(file.filename().string()) + " (gltf-anim generate --from).";
  if (step_samples_left_out != 0) {
    c.notes += " " + std::to_string(step_samples_left_out) +
               " STEP sample(s) at a key where the value changes left out (a float32 "
               "engine's time can land one float32 step before such a key).";
  }
  for (const std::string& note : p->notes) c.notes += " " + note + ".";
  NamedSamples variant_files;
  const Prepared& prepared = *p;
  const gltf::LoadedAsset& asset = *in.asset;
  const std::string described = file.string();
  Json entry = case_entry(
      c, "valid/" + rel_asset, "valid/" + samples, prepared.channels,
      [&asset, &described, &copy](const sampler::SampleRequest& r) {
        sampler::SampleRequest named = r;
        named.asset_name = copy;
        samples::SamplesFile f = sampler::sample_asset(asset, described, named);
        finish_golden(f);
        return f;
      },
      prepared.golden, extensions_used(*asset.document), variant_files);

  // The golden samples and variants as written, each read back as compare reads it: an asset
  // whose samples compare would refuse (two channels of one animation on the same target,
  // which validate reports) is skipped with compare's reason, never written into the suite.
  FromCase out;
  out.texts.emplace_back(samples, samples::write_samples_json(prepared.golden));
  for (const auto& [name, f] : variant_files)
    out.texts.emplace_back(name, samples::write_samples_json(f));
  std::string refused = non_finite_member(entry);
  for (const auto& [name, text] : out.texts) {
    if (!refused.empty()) break;
    try {
      samples::read_samples_json(text, {}, name);
    } catch (const samples::SamplesFormatError& e) {
      refused = "its golden samples are not what compare reads: " + compare::describe(e);
      break;
    }
  }
  if (!refused.empty()) {
    ids.erase(id);
    result.skipped.push_back(shown(file) + ": " + refused);
    return std::nullopt;
  }
  for (const std::string& note : p->notes) result.notes.push_back(shown(file) + ": " + note);
  out.id = id;
  out.named = std::move(p->files);
  out.copy = copy;
  out.asset_bytes = asset.file_bytes;
  state_->assets.push(std::move(entry));
  ++result.written;
  return out;
}

std::string FromSuite::manifest() const {
  Json assets = state_->assets;
  Json manifest = Json::object(
      {{"suite", "gltf-anim suite from the user's assets"},
       {"generator", kGenerator},
       {"sampling",
        "Golden samples: gltf-anim sample with default times (every key, segment quarter "
        "points and midpoints, 0.5 s before the earliest and after the latest key of each "
        "animation, and t = 0); a STEP channel's samples at a key where its value changes are "
        "left out."},
       {"assets", std::move(assets)}});
  return manifest.dump(2);
}

FromSuiteFiles generate_from_assets(const std::vector<FromAsset>& assets) {
  FromSuiteFiles out;
  FromSuite suite;
  for (const FromAsset& a : assets) {
    if (auto c = suite.add(a, out.result)) out.cases.push_back(std::move(*c));
  }
  out.manifest = suite.manifest();
  return out;
}

}  // namespace gltf_anim::suite
