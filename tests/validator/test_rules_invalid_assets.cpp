// Every asset under conformance_assets/invalid/ (one broken rule each) and
// conformance_assets/rules_valid/ is validated and compared with the report
// written beside it by hand (<name>.gltf.report.json): the multiset of
// (code, severity, pointer) must be equal, so an extra or a missing message
// fails. The expected reports come from the rules, not from this validator
// (conformance_assets/invalid/build_invalid_assets.py holds them with a note).
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "optional_data.hpp"

namespace {

namespace fs = std::filesystem;
using gltf_anim::gltf::Severity;
using gltf_anim::validator::validate_file;
using gltf_anim::validator::ValidateOptions;
using gltf_anim::validator::ValidationReport;

using Message = std::tuple<std::string, int, std::string>;  // code, severity, pointer

const fs::path kAssets = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets";

// Every rule at its registry severity, the opt-in lints included: what the
// expected reports hold (a run's lint policy is tested in test_issue_policy.cpp).
ValidateOptions every_rule() {
  ValidateOptions o;
  o.issues.lints = gltf_anim::gltf::LintPolicy::every_lint();
  return o;
}

std::vector<std::string> asset_names() {
  std::vector<std::string> out;
  for (const char* folder : {"invalid", "rules_valid"}) {
    if (!fs::exists(kAssets / folder)) continue;
    for (const auto& e : fs::recursive_directory_iterator(kAssets / folder)) {
      if (e.path().extension() == ".gltf") {
        out.push_back(fs::relative(e.path(), kAssets).generic_string());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<Message> expected_messages(const fs::path& report) {
  gltf_anim::json::Document d;
  const std::string text = read_text(report);
  d.Parse(text.c_str());
  EXPECT_FALSE(d.HasParseError()) << report;
  std::vector<Message> out;
  if (d.HasParseError()) return out;
  for (const auto& m : d["issues"]["messages"].GetArray()) {
    out.emplace_back(m["code"].GetString(), m["severity"].GetInt(), m["pointer"].GetString());
  }
  return out;
}

std::vector<Message> actual_messages(const ValidationReport& r) {
  std::vector<Message> out;
  for (const auto& i : r.issues) {
    out.emplace_back(std::string(i.code), static_cast<int>(i.severity), i.pointer);
  }
  return out;
}

std::string show(std::vector<Message> list) {
  std::string s;
  for (const auto& [code, sev, ptr] : list) {
    s += "  " + code + " " + std::to_string(sev) + " " + ptr + "\n";
  }
  return s.empty() ? "  (none)\n" : s;
}

class InvalidAsset : public ::testing::TestWithParam<std::string> {};

TEST_P(InvalidAsset, ReportMatchesExpected) {
  const fs::path asset = kAssets / GetParam();
  const fs::path report = asset.string() + ".report.json";
  ASSERT_TRUE(fs::exists(report)) << "no expected report beside " << asset;
  std::vector<Message> expected = expected_messages(report);
  const ValidationReport r = validate_file(asset, every_rule());
  std::vector<Message> actual = actual_messages(r);
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  EXPECT_EQ(actual, expected) << "expected:\n" << show(expected) << "actual:\n" << show(actual);
  EXPECT_EQ(r.mime_type, "model/gltf+json");
  EXPECT_FALSE(r.truncated);
}

TEST_P(InvalidAsset, OrderIsDeterministic) {
  const fs::path asset = kAssets / GetParam();
  const ValidationReport a = validate_file(asset, every_rule());
  const ValidationReport b = validate_file(asset, every_rule());
  EXPECT_EQ(actual_messages(a), actual_messages(b));
}

INSTANTIATE_TEST_SUITE_P(ConformanceAssets, InvalidAsset, ::testing::ValuesIn(asset_names()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string n = param_info.param;
                           for (char& c : n) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return n;
                         });

TEST(InvalidAssets, EveryFolderHasAssets) {
  // Guards against the parameterised suite silently becoming empty.
  EXPECT_GE(asset_names().size(), 40u);
}

// One asset per rule: every code of the rule phases (schema, link, semantic,
// data, lint) in the registry appears in at least one expected report, so a
// new rule code without an asset fails here. The io, glb and json phases are
// about the container and the text, not a rule of a glTF document: their
// codes are tested with the loader (tests/validator/test_load_*.cpp).
bool is_rule_phase(gltf_anim::gltf::Phase p) {
  using gltf_anim::gltf::Phase;
  return p == Phase::kSchema || p == Phase::kLink || p == Phase::kSemantic || p == Phase::kData ||
         p == Phase::kLint;
}

// Rule codes no asset of conformance_assets/invalid/ expects, each with the
// test that raises it instead (which must name it) and why it is tested there.
struct Exemption {
  const char* code;
  const char* tested_in;  // relative to the source folder
  const char* why;
};
constexpr const char* kHostile = "tests/hostile/expected.json";
constexpr const char* kLoadAccessors = "tests/validator/test_load_accessors.cpp";
constexpr const char* kLoadBuffers = "tests/validator/test_load_buffers.cpp";
constexpr const char* kLoadGlb = "tests/validator/test_load_glb.cpp";
constexpr const char* kLoadMeshopt = "tests/validator/test_load_meshopt.cpp";
constexpr const char* kDraco = "tests/validator/test_rules_draco.cpp";
const Exemption kExemptions[] = {
    // Sizes and offsets out of range are the hostile corpus's subject: it runs
    // them under memory and CPU limits, which this suite does not.
    {"ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", kHostile, "sparse count beyond the accessor's count"},
    {"ACCESSOR_SPARSE_INDEX_OOB", kHostile, "sparse index beyond the accessor's count"},
    {"ACCESSOR_TOO_LONG", kHostile, "accessor past its bufferView, up to 2^64 offsets"},
    {"BUFFER_BYTE_LENGTH_MISMATCH", kHostile, "buffer data shorter than byteLength"},
    {"BUFFER_VIEW_TOO_LONG", kHostile, "bufferView past its buffer, up to 2^64 offsets"},
    {"DATA_URI_INVALID_BASE64", kHostile, "broken base64 in a data URI"},
    // GLB containers: conformance_assets/invalid/ holds .gltf files only.
    {"BUFFER_VIEW_PLACEHOLDER_DATA", kLoadMeshopt,
     "an accessor reading a GLB's buffers[1] without uri"},
    {"BUFFER_GLB_CHUNK_TOO_BIG", kLoadGlb, "BIN chunk longer than the buffer's byteLength"},
    {"BUFFER_MISSING_GLB_DATA", kLoadGlb, "first buffer without uri and no BIN chunk"},
    // The loader's layout rules: their bytes are built beside each expectation
    // (strides, alignments, sparse order), one rule per test.
    {"ACCESSOR_OFFSET_ALIGNMENT", kLoadAccessors,
     "byteOffset not a multiple of the component size"},
    {"ACCESSOR_TOTAL_OFFSET_ALIGNMENT", kLoadAccessors, "view + accessor offset misaligned"},
    {"ACCESSOR_SMALL_BYTESTRIDE", kLoadAccessors, "byteStride shorter than an element"},
    {"BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", kLoadAccessors, "byteStride above 252"},
    {"ACCESSOR_SPARSE_INDICES_NON_INCREASING", kLoadAccessors, "sparse indices out of order"},
    // Buffers whose bytes matter (an external .bin, a data URI's media type).
    {"BUFFER_EXTERNAL_DATA_TOO_LONG", kLoadBuffers, "external .bin longer than byteLength + 3"},
    {"BUFFER_DATA_URI_MIME_TYPE_INVALID", kLoadBuffers, "data URI media type not a buffer's"},
    // EXT_/KHR_meshopt_compression: compressed streams are made with meshoptimizer's encoder
    // beside each expectation (GLB containers, which conformance_assets/invalid/ does not hold).
    {"MESHOPT_BYTE_LENGTH_MISMATCH", kLoadMeshopt, "count x byteStride != bufferView.byteLength"},
    {"MESHOPT_BYTE_STRIDE_INVALID", kLoadMeshopt, "byteStride against mode and filter"},
    {"MESHOPT_BYTE_STRIDE_MISMATCH", kLoadMeshopt, "EXT's byteStride != bufferView.byteStride"},
    {"MESHOPT_COMPRESSED_DATA_TOO_LONG", kLoadMeshopt, "compressed range past its buffer"},
    {"MESHOPT_DECODE_FAILED", kLoadMeshopt, "truncated, overlong or wrongly headed streams"},
    {"MESHOPT_DECODED_TOO_LARGE", kLoadMeshopt, "decoded views past the file size limit"},
    {"MESHOPT_EXTENSIONS_EXCLUSIVE", kLoadMeshopt, "EXT and KHR on one bufferView or buffer"},
    {"MESHOPT_FALLBACK_BUFFER_COMPRESSED_SOURCE", kLoadMeshopt, "compressed data in a fallback"},
    {"MESHOPT_FALLBACK_BUFFER_NOT_REQUIRED", kLoadMeshopt, "fallback without data, not required"},
    {"MESHOPT_FALLBACK_BUFFER_UNCOMPRESSED_VIEW", kLoadMeshopt, "plain view of a fallback buffer"},
    {"MESHOPT_FILTER_NOT_ALLOWED", kLoadMeshopt, "a filter on TRIANGLES or INDICES"},
    {"MESHOPT_TRIANGLES_COUNT", kLoadMeshopt, "TRIANGLES count not a multiple of 3"},
    // An information on valid assets, beside the zeros it replaces.
    {"KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED", kDraco,
     "accessors a Draco primitive decodes, against their zeros without the extension"},
};

TEST(InvalidAssets, EveryRuleCodeHasAnAsset) {
  std::set<std::string> covered;
  for (const std::string& name : asset_names()) {
    for (const auto& m : expected_messages(kAssets / (name + ".report.json"))) {
      covered.insert(std::get<0>(m));
    }
  }
  std::map<std::string, const Exemption*> exempt;
  for (const Exemption& e : kExemptions) {
    EXPECT_TRUE(exempt.emplace(e.code, &e).second) << e.code << " is exempted twice";
  }
  std::size_t rule_codes = 0;
  for (const auto& t : gltf_anim::gltf::issue_types()) {
    if (!is_rule_phase(t.phase)) continue;
    ++rule_codes;
    const std::string code(t.code);
    const auto e = exempt.find(code);
    if (e == exempt.end()) {
      EXPECT_EQ(covered.count(code), 1u) << "no asset under conformance_assets/invalid/ expects " << code;
      continue;
    }
    // An exemption that is no longer needed, or whose test does not raise the code, is stale.
    EXPECT_EQ(covered.count(code), 0u) << code << " has an asset now: remove its exemption";
    const std::string where = read_text(fs::path(GLTF_ANIM_SOURCE_DIR) / e->second->tested_in);
    EXPECT_NE(where.find("\"" + code + "\""), std::string::npos)
        << code << " is exempted as tested in " << e->second->tested_in << " (" << e->second->why
        << "), which does not name it";
    exempt.erase(e);
  }
  for (const auto& [code, e] : exempt) {
    ADD_FAILURE() << code << " is exempted but is not a registered rule-phase code";
  }
  EXPECT_GE(rule_codes, 60u);  // the phases above hold most of the registry
}

// The generated conformance suite (conformance_assets/valid/, written by the
// asset generator, not by these rules): every core, EXT_animation_sqlerp and
// KHR_animation2 asset gives no error and no warning, apart from the warnings
// listed here, each a deliberate property of its case (and each must appear,
// so the list cannot go stale). KHR_animation_pointer assets (with the
// extensions their pointers target) are covered too; test_khr_animation_pointer.cpp
// also requires them to give no information either.
TEST(GeneratedValidAssets, AssetsGiveNoErrorsOrWarnings) {
  const std::string kSlash = "KHR_ANIMATION2_POINTER_WITHOUT_LEADING_SLASH";
  const std::string kNegativeDot = "LINT_ROTATION_NEGATIVE_DOT";
  const std::map<std::string, std::set<std::string>> kExpectedWarnings = {
      // The KHR_animation2 case that copies the draft's own example "nodes/0/rotation".
      {"animation2_slerp.gltf", {kSlash}},
      // Cases about the quaternion sign: consecutive LINEAR keys with a negative dot.
      {"edge_quat_sign_flip.gltf", {kNegativeDot}},
      {"edge_quat_near_opposite.gltf", {kNegativeDot}},
      {"divergence_quat_sign_exact_key.gltf", {kNegativeDot}},
      // AnimatedTriangle's keys: 270 -> 360 degrees, the Magnum article's case.
      {"divergence_non_unit_quat.gltf", {kNegativeDot}},
      // Growing steps between keys every 1/24 s pass 180 degrees.
      {"divergence_resample_24fps.gltf", {kNegativeDot}},
      // A held key, then a segment from q to -q (the same rotation) on purpose.
      {"edge_quat_held_key.gltf", {kNegativeDot}},
      // Sampling after the last key, where engines that use the last
      // out-tangent differ: it is nonzero on purpose.
      {"divergence_cubic_after_last.gltf", {"LINT_CUBICSPLINE_NONZERO_END_TANGENT"}},
  };
  const std::set<std::string> kCovered = {
      "EXT_animation_sqlerp", "KHR_animation2", "KHR_animation_pointer", "KHR_node_visibility",
      "KHR_texture_transform", "KHR_lights_punctual", "KHR_materials_emissive_strength"};
  const fs::path dir = kAssets / "valid";
  // The generated suite is committed: a missing folder is a broken checkout.
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::size_t checked = 0;
  std::size_t extension_assets = 0;
  std::map<std::string, std::set<std::string>> seen;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".gltf" && ext != ".glb") continue;
    const ValidationReport r = validate_file(e.path(), every_rule());
    bool covered = true;
    bool any_extension = false;
    if (r.info) {
      for (const auto* list : {&r.info->extensions_used, &r.info->extensions_required}) {
        for (const std::string& name : *list) {
          covered = covered && kCovered.count(name) != 0;
          any_extension = true;
        }
      }
    }
    if (!covered) continue;
    const std::string name = e.path().filename().string();
    const auto expected = kExpectedWarnings.find(name);
    for (const auto& i : r.issues) {
      if (i.severity > Severity::kWarning) continue;
      const bool allowed = i.severity == Severity::kWarning && expected != kExpectedWarnings.end() &&
                           expected->second.count(std::string(i.code)) != 0;
      EXPECT_TRUE(allowed) << e.path() << ": " << i.code << " " << i.pointer << ": " << i.message;
      if (allowed) seen[name].insert(std::string(i.code));
    }
    ++checked;
    if (any_extension) ++extension_assets;
  }
  EXPECT_GT(checked, 20u);
  EXPECT_GE(extension_assets, 6u);  // 3 sqlerp and 3 KHR_animation2 cases
  for (const auto& [name, codes] : kExpectedWarnings) {
    EXPECT_EQ(seen[name], codes) << name << ": an expected warning did not appear";
  }
}

// Real assets (../shared/corpus, see its MANIFEST.md): optional.
const fs::path kCorpus = fs::path(GLTF_ANIM_SOURCE_DIR) / ".." / "shared" / "corpus";

// The corpus's manifest.json parsed (an array: per asset its file and the
// Khronos validator's counts), or nullopt when there is no corpus.
std::optional<gltf_anim::json::Document> read_corpus_manifest() {
  const fs::path file = kCorpus / "manifest.json";
  if (!fs::exists(file)) return std::nullopt;
  std::optional<gltf_anim::json::Document> m(std::in_place);
  const std::string text = read_text(file);
  m->Parse(text.c_str());
  return m;
}

// The corpus assets the Khronos validator finds no errors in, apart from the
// deliberately missing image files, must give no error here either.
void ValidAssetsGiveNoErrors() {
  const auto m = read_corpus_manifest();
  ASSERT_TRUE(m.has_value());
  ASSERT_TRUE(m->IsArray());
  std::size_t checked = 0;
  for (const auto& entry : m->GetArray()) {
    const auto& v = entry["validator"];
    const int real_errors = v["errors"].GetInt() - v["imageIoErrors"].GetInt();
    if (real_errors != 0) continue;  // invalid on purpose
    const fs::path file = kCorpus / entry["file"].GetString();
    // glTF-Validator checks KHR_animation_pointer syntax only; BlenderIO_24 has
    // pointer errors it does not see (test_khr_animation_pointer.cpp asserts them).
    if (file.filename() == "24_animation_pointer.gltf") continue;
    const ValidationReport r = validate_file(file, ValidateOptions{});
    std::string errors;
    for (const auto& i : r.issues) {
      if (i.severity == Severity::kError) {
        errors += "  " + std::string(i.code) + " " + i.pointer + ": " + i.message + "\n";
      }
    }
    EXPECT_TRUE(errors.empty()) << entry["file"].GetString() << ":\n" << errors;
    ++checked;
  }
  EXPECT_GT(checked, 10u);
}

// Agreement with the Khronos validator on the real assets, valid or not: for
// every code both validators know, the number of messages per asset is equal
// (its counts are in the corpus manifest). Not compared, with the reason:
//  - IO_ERROR: its errors are the deliberately missing image files; we never
//    load images;
//  - UNUSED_OBJECT: it also reports unused accessors, meshes, ...; we report
//    unused animation samplers only;
//  - LINT_*, EXT_ANIMATION_SQLERP_*, KHR_ANIMATION2_*: our own codes;
//  - in assets using KHR_animation_pointer, the pointer rules glTF-Validator
//    does not implement (it checks pointer syntax only): our own
//    KHR_ANIMATION_POINTER_* codes and ANIMATION_DUPLICATE_TARGETS between
//    pointer channels (test_khr_animation_pointer.cpp asserts BlenderIO_24's).
void CodeCountsAgreeWithGltfValidator() {
  const auto m = read_corpus_manifest();
  ASSERT_TRUE(m.has_value());
  ASSERT_TRUE(m->IsArray());
  std::size_t compared = 0;
  for (const auto& entry : m->GetArray()) {
    const std::string file = entry["file"].GetString();
    bool pointer_ext = false;
    for (const auto& e : entry["extensionsUsed"].GetArray()) {
      pointer_ext = pointer_ext || std::string(e.GetString()) == "KHR_animation_pointer";
    }
    std::map<std::string, int> theirs;
    for (const auto& c : entry["validator"]["codes"].GetObject()) {
      const std::string key = c.name.GetString();  // "CODE:severity"
      theirs[key.substr(0, key.find(':'))] += c.value.GetInt();
    }
    std::map<std::string, int> ours;
    for (const auto& i : validate_file(kCorpus / file, ValidateOptions{}).issues) {
      ++ours[std::string(i.code)];
    }
    for (const auto& t : gltf_anim::gltf::issue_types()) {
      const std::string code(t.code);
      if (code == "IO_ERROR" || code == "UNUSED_OBJECT") continue;
      // Our own codes, which glTF-Validator does not have: lints (counted, not
      // compared: docs/VALIDATOR.md "Lints") and the extensions it does not know.
      if (code.rfind("LINT_", 0) == 0 || code.rfind("EXT_ANIMATION_SQLERP_", 0) == 0 ||
          code.rfind("KHR_ANIMATION2_", 0) == 0) {
        continue;
      }
      const bool theirs_too = code == "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE" ||
                              code == "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH";
      if (pointer_ext && ((code.starts_with("KHR_ANIMATION_POINTER_") && !theirs_too) ||
                          code == "ANIMATION_DUPLICATE_TARGETS")) {
        continue;
      }
      EXPECT_EQ(ours[code], theirs[code]) << file << ": " << code;
      ++compared;
    }
  }
  EXPECT_GT(compared, 100u);
}

// Registered only when the corpus is there (tests/optional_data.hpp).
[[maybe_unused]] const bool kCorpusTests =
    gltf_anim::test::register_if_exists("Corpus", "ValidAssetsGiveNoErrors", kCorpus / "manifest.json",
                                        ValidAssetsGiveNoErrors, __FILE__, __LINE__) &&
    gltf_anim::test::register_if_exists("Corpus", "CodeCountsAgreeWithGltfValidator", kCorpus / "manifest.json",
                                        CodeCountsAgreeWithGltfValidator, __FILE__, __LINE__);

}  // namespace
