// libFuzzer target: JSON parsing, schema and every rule module on .gltf text
// (load_bytes + validate_asset), then the JSON and text report writers, which
// print (and escape) whatever strings the issues carry from the input.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/load.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <cstdint>
#include <span>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace v = gltf_anim::validator;
  v::IssueCollector issues;
  v::LoadOptions options;
  options.max_file_bytes = 1 << 20;
  const v::LoadedAsset asset = v::load_bytes({data, size}, "fuzz.gltf", {}, options, issues);
  const v::ValidationReport report = v::validate_asset(asset, issues);
  std::ostringstream out;
  gltf_anim::reports::write_validation_json(out, std::span(&report, 1));
  gltf_anim::reports::write_validation_text(out, std::span(&report, 1));
  return 0;
}
