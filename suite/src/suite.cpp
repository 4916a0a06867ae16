#include "alternatives.hpp"

#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/suite/tolerance.hpp>
#include <gltf_anim/version.hpp>

#include <gltf_anim/text/words.hpp>

#include <algorithm>
#include <cerrno>
#include <set>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gltf_anim::suite {
namespace {

using text::errno_text;

// A folder held open: every file of the suite is created relative to it, so a
// symlink planted in the output folder (for a file or for valid/) is never
// followed; rename replaces such a link itself, never what it points to.
struct Folder {
  int fd = -1;
  std::string shown;
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;
  Folder(int f, std::string s) : fd(f), shown(std::move(s)) {}
  ~Folder() {
    if (fd >= 0) ::close(fd);
  }
};

// The folder the user named (created if missing; a symlink they name is theirs to follow).
Folder open_out_folder(const std::filesystem::path& out) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw std::runtime_error("cannot create " + out.string() + ": " + ec.message());
  const int fd = ::open(out.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open folder " + out.string() + ": " + errno_text(errno));
  return Folder(fd, out.string());
}

// `name` inside `parent`, created if missing; refused when it is a symlink.
Folder open_subfolder(const Folder& parent, const std::string& name) {
  const std::string shown = parent.shown + "/" + name;
  if (::mkdirat(parent.fd, name.c_str(), 0777) != 0 && errno != EEXIST) {
    throw std::runtime_error("cannot create " + shown + ": " + errno_text(errno));
  }
  const int fd = ::openat(parent.fd, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    throw std::runtime_error("cannot open folder " + shown + ": " +
                             (e == ELOOP || e == ENOTDIR ? std::string("not a folder (a symlink or a file)")
                                                         : errno_text(e)));
  }
  return Folder(fd, shown);
}

void write_file(const Folder& dir, const std::string& name, std::string_view bytes) {
  validator::OutputFile out(dir.fd, name, dir.shown + "/" + name);
  out.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.commit();
}

void write_file(const Folder& dir, const std::string& name, const std::vector<std::uint8_t>& bytes) {
  write_file(dir, name, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

void write_samples(const Folder& dir, const std::string& name, const samples::SamplesFile& file) {
  validator::OutputFile out(dir.fd, name, dir.shown + "/" + name);
  samples::write_samples_json(out.stream(), file);
  out.commit();
}

Json strings(const std::vector<std::string>& items) {
  Json j = Json::array();
  for (const auto& s : items) j.push(s);
  return j;
}

}  // namespace

std::string asset_file_name(const Case& c) {
  return c.id + (c.container == Container::kGlb ? ".glb" : ".gltf");
}

std::size_t generate(const std::filesystem::path& out) {
  const std::filesystem::path valid = out / "valid";
  const Folder out_dir = open_out_folder(out);
  const Folder valid_dir = open_subfolder(out_dir, "valid");

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

    bool float32_time_is_a_variant = false;
    for (const Variant& v : c.variants) float32_time_is_a_variant |= v.allowed && v.name == "float32-time";
    const std::vector<sampler::DecodedChannel> channels = sampler::decoded_channels(valid / asset);
    const CaseTolerances tolerances = derive_tolerances(channels, float32_time_is_a_variant);
    const std::vector<Variant> alternatives = case_alternatives(c, channels, golden, tolerances);
    // The extensions a client must implement for the golden samples to apply
    // (compare --extensions excludes the case for a client without one): those
    // the asset uses, none when an allowed variant is what a client without
    // them plays (EXT_animation_sqlerp's LINEAR fallback).
    bool core_view_is_a_variant = false;
    for (const Variant& v : alternatives) core_view_is_a_variant |= v.allowed && v.core_only_view;
    std::vector<std::string> extensions;
    if (!core_view_is_a_variant) extensions = builder.extensions_used();
    std::sort(extensions.begin(), extensions.end());
    Json entry = Json::object({{"id", c.id},
                               {"file", "valid/" + asset},
                               {"samples", "valid/" + samples},
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
          const std::string file = c.id + "." + v.name + ".variant.json";
          write_samples(valid_dir, file, sampler::sample_asset(valid / asset, core_only));
          variant.set("samples", "valid/" + file);
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
    assets.push(std::move(entry));
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
