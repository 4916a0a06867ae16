#include "alternatives.hpp"

#include <gltf_anim/conformance/sample.hpp>
#include <gltf_anim/conformance/suite.hpp>
#include <gltf_anim/conformance/tolerance.hpp>
#include <gltf_anim/version.hpp>

#include <fstream>
#include <set>
#include <stdexcept>

namespace gltf_anim::conformance {
namespace {

void write_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
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
  std::error_code ec;
  std::filesystem::create_directories(valid, ec);
  if (ec) throw std::runtime_error("cannot create " + valid.string() + ": " + ec.message());

  Json assets = Json::array();
  std::set<std::string> ids;
  for (const Case& c : suite_cases()) {
    if (!ids.insert(c.id).second) throw std::logic_error("duplicate case id " + c.id);
    GltfBuilder builder;
    c.build(builder);
    for (const auto& file : builder.finish(c.id, c.container)) write_file(valid / file.name, file.bytes);

    const std::string asset = asset_file_name(c);
    const std::string samples = c.id + ".samples.json";
    const reports::SamplesFile golden = sample_asset(valid / asset);
    reports::write_samples_file(valid / samples, golden);

    bool float32_time_is_a_variant = false;
    for (const Variant& v : c.variants) float32_time_is_a_variant |= v.allowed && v.name == "float32-time";
    const std::vector<DecodedChannel> channels = decoded_channels(valid / asset);
    const CaseTolerances tolerances = derive_tolerances(channels, float32_time_is_a_variant);
    const std::vector<Variant> alternatives = case_alternatives(c, channels, golden, tolerances);
    Json entry = Json::object({{"id", c.id},
                               {"file", "valid/" + asset},
                               {"samples", "valid/" + samples},
                               {"group", c.group},
                               {"features", strings(c.features)},
                               {"clauses", strings(c.clauses)},
                               {"tolerance", tolerances.absolute},
                               {"angleTolerance", tolerances.angle},
                               {"notes", c.notes}});
    for (const bool allowed : {true, false}) {
      Json variants = Json::object();
      bool any = false;
      for (const Variant& v : alternatives) {
        if (v.allowed != allowed) continue;
        any = true;
        Json variant = Json::object({{"description", v.description}});
        if (v.core_only_view) {
          SampleRequest core_only;
          core_only.extensions = false;
          const std::string file = c.id + "." + v.name + ".variant.json";
          reports::write_samples_file(valid / file, sample_asset(valid / asset, core_only));
          variant.set("samples", "valid/" + file);
        } else if (v.excerpt) {
          Json excerpt = Json::array();
          for (const VariantSample& s : v.excerpt(golden)) {
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
  write_file(out / "manifest.json", std::vector<std::uint8_t>(text.begin(), text.end()));
  return ids.size();
}

}  // namespace gltf_anim::conformance
