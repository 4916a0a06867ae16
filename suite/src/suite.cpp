#include "alternatives.hpp"

#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/suite/tolerance.hpp>
#include <gltf_anim/version.hpp>

#include <gltf_anim/text/words.hpp>

#include <algorithm>
#include <cerrno>
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
  validator::OutputFile out(dir.fd(), name, dir.shown() + "/" + name);
  out.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.commit();
}

void write_file(const Folder& dir, const std::string& name, const std::vector<std::uint8_t>& bytes) {
  write_file(dir, name, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

void write_samples(const Folder& dir, const std::string& name, const samples::SamplesFile& file) {
  validator::OutputFile out(dir.fd(), name, dir.shown() + "/" + name);
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
