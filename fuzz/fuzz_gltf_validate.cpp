// libFuzzer target: JSON parsing, schema and every rule module on .gltf text
// (load_bytes + validate_asset), then the JSON and text report writers, which
// print (and escape) whatever strings the issues carry from the input, and
// the JUnit and SARIF writers on two copies of the report (their per-asset
// parts go through a spool); the SARIF output must parse as JSON. SARIF only
// for one input size in eight: its 70 KB of rules, the same every time, would
// otherwise cut the executions per second several times.
// Property: every JSON syntax error carries its place, consistent with the
// input (line and column from 1, a column never past the bytes before it, the
// offset inside the input) and said in the message.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/document.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace v = gltf_anim::validator;
  namespace gltf = gltf_anim::gltf;
  gltf::IssueCollector issues;
  gltf::LoadOptions options;
  options.max_file_bytes = 1 << 20;
  const gltf::LoadedAsset asset = gltf::load_bytes({data, size}, "fuzz.gltf", {}, options, issues);
  for (const gltf::Issue& i : issues.issues()) {
    if (i.code != "INVALID_JSON") continue;
    if (!i.position) std::abort();
    const gltf::TextPosition& p = *i.position;
    if (p.line < 1 || p.column < 1 || p.column > p.byte_offset + 1 || p.byte_offset > size) std::abort();
    const std::string words = "line " + std::to_string(p.line) + ", column " + std::to_string(p.column);
    if (i.message.find(words) == std::string::npos) std::abort();
  }
  const v::ValidationReport report = v::validate_asset(asset, issues);
  std::ostringstream out;
  gltf_anim::reports::write_validation_json(out, std::span(&report, 1));
  gltf_anim::reports::write_validation_text(out, std::span(&report, 1));
  const std::array<v::ValidationReport, 2> two{report, report};
  gltf_anim::reports::write_validation_junit(out, two);
  if (size % 8 == 0) {
    std::ostringstream sarif;
    gltf_anim::reports::write_validation_sarif(sarif, two);
    const std::string text = sarif.str();
    gltf_anim::json::Document d;
    d.Parse(text.data(), text.size());
    if (d.HasParseError() || !d.IsObject()) __builtin_trap();
  }
  return 0;
}
