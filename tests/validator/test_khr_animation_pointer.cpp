// KHR_animation_pointer: the Object Model table against its source (the adoc),
// RFC 6901 parsing, template matching and resolution by hand-written cases,
// the generated valid pointer assets (no finding at all), and the real UnityGLTF
// export BlenderIO_24 (exactly the findings docs/VALIDATOR.md explains).
// The invalid assets are in conformance_assets/invalid/ext/KHR_animation_pointer/
// (compared by test_rules_invalid_assets.cpp).
#include <gltf_anim/gltf/object_model.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "optional_data.hpp"

namespace {

namespace fs = std::filesystem;
namespace om = gltf_anim::gltf::object_model;
using gltf_anim::validator::ValidateOptions;
using gltf_anim::validator::validate_file;

const fs::path kAssets = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets";
const fs::path kShared = fs::path(GLTF_ANIM_SOURCE_DIR) / ".." / "shared";

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> tokens(std::string_view pointer) {
  const auto t = om::parse_pointer(pointer);
  EXPECT_TRUE(t.has_value()) << pointer;
  return t.value_or(std::vector<std::string>{});
}

// ---- the table ---------------------------------------------------------------

// Every template row of the adoc (a table cell "| `/...`") is in the table, and
// the table has nothing else but the node extensions' booleans (KHR_node_visibility's
// `visible`, KHR_node_selectability's `selectable`, KHR_node_hoverability's `hoverable`,
// each from its own specification's Object Model table). Registered
// only when the adoc is there (tests/optional_data.hpp).
const fs::path kObjectModelAdoc = kShared / "specs" / "glTF-2.0-ObjectModel.adoc";
void TableEqualsTheAdocRows() {
  const fs::path& adoc = kObjectModelAdoc;
  std::set<std::string> from_adoc;
  const std::string text = read_text(adoc);
  const std::regex row(R"(\n\| `(/[^`]*)`)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator(); ++it) {
    from_adoc.insert((*it)[1].str());
  }
  EXPECT_EQ(from_adoc.size(), 138u);
  std::set<std::string> ours;
  for (const om::Property& p : om::properties()) {
    EXPECT_TRUE(ours.insert(std::string(p.pointer)).second) << "twice: " << p.pointer;
  }
  std::set<std::string> expected = from_adoc;
  expected.insert("/nodes/{}/extensions/KHR_node_visibility/visible");
  expected.insert("/nodes/{}/extensions/KHR_node_selectability/selectable");
  expected.insert("/nodes/{}/extensions/KHR_node_hoverability/hoverable");
  EXPECT_EQ(ours, expected);
}
[[maybe_unused]] const bool kAdocTest = gltf_anim::test::register_if_exists("ObjectModel", "TableEqualsTheAdocRows", kObjectModelAdoc,
                                                           TableEqualsTheAdocRows, __FILE__, __LINE__);

TEST(ObjectModel, TypesDefaultsAndFlagsOfSampleRows) {
  struct Row {
    const char* pointer;
    om::ValueType type;
    bool has_default, read_only, quaternion;
  };
  const Row rows[] = {
      {"/nodes/{}/rotation", om::ValueType::kFloat4, true, false, true},
      {"/nodes/{}/weights", om::ValueType::kFloatArray, true, false, false},
      {"/cameras/{}/perspective/zfar", om::ValueType::kFloat, false, false, false},
      {"/extensions/KHR_lights_punctual/lights/{}/range", om::ValueType::kFloat, false, false, false},
      {"/materials/{}/emissiveFactor", om::ValueType::kFloat3, true, false, false},
      {"/materials/{}/normalTexture/extensions/KHR_texture_transform/offset", om::ValueType::kFloat2,
       true, false, false},
      {"/nodes/{}/matrix", om::ValueType::kFloat4x4, false, true, false},
      {"/materials/{}/doubleSided", om::ValueType::kBool, false, true, false},
      {"/scene", om::ValueType::kInt, false, true, false},
      {"/nodes/{}/extensions/KHR_node_visibility/visible", om::ValueType::kBool, true, false, false},
      // KHR_node_selectability and KHR_node_hoverability: "| `/nodes/{}/extensions/..." | `bool` |",
      // "No, default: `true`".
      {"/nodes/{}/extensions/KHR_node_selectability/selectable", om::ValueType::kBool, true, false, false},
      {"/nodes/{}/extensions/KHR_node_hoverability/hoverable", om::ValueType::kBool, true, false, false},
      {"/extensions/EXT_lights_image_based/lights/{}/rotation", om::ValueType::kFloat4, true, false, true},
  };
  for (const Row& r : rows) {
    const auto it = std::find_if(om::properties().begin(), om::properties().end(),
                                 [&r](const om::Property& p) { return p.pointer == r.pointer; });
    ASSERT_NE(it, om::properties().end()) << r.pointer;
    EXPECT_EQ(it->type, r.type) << r.pointer;
    EXPECT_EQ(it->has_default, r.has_default) << r.pointer;
    EXPECT_EQ(it->read_only, r.read_only) << r.pointer;
    EXPECT_EQ(it->quaternion, r.quaternion) << r.pointer;
  }
  // Every row with a type the Object Model marks read-only-only (int, float4x4) is read-only.
  for (const om::Property& p : om::properties()) {
    if (p.type == om::ValueType::kInt || p.type == om::ValueType::kFloat4x4) {
      EXPECT_TRUE(p.read_only) << p.pointer;
    }
  }
}

TEST(ObjectModel, OwningExtensions) {
  const om::Property* clearcoat = nullptr;
  const om::Property* core = nullptr;
  for (const om::Property& p : om::properties()) {
    if (p.pointer ==
        "/materials/{}/extensions/KHR_materials_clearcoat/clearcoatTexture/extensions/"
        "KHR_texture_transform/scale") {
      clearcoat = &p;
    }
    if (p.pointer == "/materials/{}/alphaCutoff") core = &p;
  }
  ASSERT_NE(clearcoat, nullptr);
  ASSERT_NE(core, nullptr);
  EXPECT_EQ(om::owning_extensions(*clearcoat),
            (std::vector<std::string_view>{"KHR_materials_clearcoat", "KHR_texture_transform"}));
  EXPECT_TRUE(om::owning_extensions(*core).empty());
}

// ---- RFC 6901 ------------------------------------------------------------------

TEST(ObjectModel, ParsePointerUnescapesAndRejectsBadSyntax) {
  EXPECT_EQ(tokens(""), std::vector<std::string>{});
  EXPECT_EQ(tokens("/"), std::vector<std::string>{""});
  EXPECT_EQ(tokens("/a~1b/c~0d/~01"), (std::vector<std::string>{"a/b", "c~d", "~1"}));
  EXPECT_EQ(tokens("/nodes//x"), (std::vector<std::string>{"nodes", "", "x"}));
  for (const char* bad : {"nodes/0", "/a~", "/a~2", "/~x", "#/nodes/0"}) {
    EXPECT_FALSE(om::parse_pointer(bad).has_value()) << bad;
  }
  const std::vector<std::string> t = {"a/b", "c~d"};
  EXPECT_EQ(om::join_pointer(t), "/a~1b/c~0d");
}

TEST(ObjectModel, ArrayIndexTokens) {
  EXPECT_EQ(om::array_index("0"), 0u);
  EXPECT_EQ(om::array_index("42"), 42u);
  EXPECT_EQ(om::array_index("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(om::array_index("99999999999999999999999"), std::numeric_limits<std::uint64_t>::max());
  for (const char* bad : {"", "00", "01", "-1", "+1", "1e3", " 1", "0x1"}) {
    EXPECT_FALSE(om::array_index(bad).has_value()) << bad;
  }
}

TEST(ObjectModel, MatchCapturesIndices) {
  auto m = om::match(tokens("/materials/3/pbrMetallicRoughness/baseColorTexture/extensions/"
                            "KHR_texture_transform/rotation"));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->property->type, om::ValueType::kFloat);
  EXPECT_EQ(m->indices, std::vector<std::uint64_t>{3});
  m = om::match(tokens("/nodes/7/weights/2"));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->indices, (std::vector<std::uint64_t>{7, 2}));
  m = om::match(tokens("/nodes/1/children.length"));
  ASSERT_TRUE(m.has_value());
  EXPECT_TRUE(m->property->read_only);
  for (const char* none : {"/nodes/0/rotation/0", "/nodes/x/rotation", "/meshes/0/weights",
                           "/materials/0/normalTexture/offset", "/nodes/0", ""}) {
    EXPECT_FALSE(om::match(tokens(none)).has_value()) << none;
  }
}

om::Resolution resolve(const char* json, const char* pointer, std::uint64_t* width = nullptr) {
  gltf_anim::json::Document d;
  d.Parse(json);
  EXPECT_FALSE(d.HasParseError()) << json;
  const auto m = om::match(tokens(pointer));
  EXPECT_TRUE(m.has_value()) << pointer;
  if (!m) return om::Resolution::kUndefined;
  const om::Resolved r = om::resolve(d, *m);
  if (width != nullptr) *width = r.width;
  return r.status;
}

TEST(ObjectModel, ResolveFollowsTheDefinedRule) {
  using R = om::Resolution;
  // The extension README's own example: present, and defaulted inside a present object.
  const char* example = R"({"materials":[{"pbrMetallicRoughness":{"baseColorFactor":[1,0,0,1]}}]})";
  EXPECT_EQ(resolve(example, "/materials/0/pbrMetallicRoughness/baseColorFactor"), R::kDefined);
  EXPECT_EQ(resolve(example, "/materials/0/pbrMetallicRoughness/metallicFactor"), R::kDefined);
  EXPECT_EQ(resolve(example, "/materials/1/pbrMetallicRoughness/metallicFactor"), R::kUndefined);
  // An absent pbrMetallicRoughness has its defaults ("When undefined, all the default values
  // of pbrMetallicRoughness MUST apply", glTF 2.0; the Object Model's rule 2): its factors
  // are defined, its textures (no default) are not, nor is anything of an absent material.
  EXPECT_EQ(resolve(R"({"materials":[{}]})", "/materials/0/pbrMetallicRoughness/metallicFactor"),
            R::kDefined);
  EXPECT_EQ(resolve(R"({"materials":[{}]})", "/materials/0/pbrMetallicRoughness/baseColorFactor"),
            R::kDefined);
  EXPECT_EQ(resolve(R"({"materials":[{}]})",
                    "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/"
                    "KHR_texture_transform/offset"),
            R::kUndefined);
  EXPECT_EQ(resolve(R"({"materials":[{}]})", "/materials/1/pbrMetallicRoughness/roughnessFactor"),
            R::kUndefined);
  EXPECT_EQ(resolve(R"({"materials":[{"pbrMetallicRoughness":3}]})",
                    "/materials/0/pbrMetallicRoughness/roughnessFactor"),
            R::kUndefined);
  EXPECT_EQ(resolve(R"({"materials":[{}]})", "/materials/0/alphaCutoff"), R::kDefined);
  // No default: only when present.
  EXPECT_EQ(resolve(R"({"cameras":[{"perspective":{"yfov":1,"znear":1}}]})", "/cameras/0/perspective/zfar"),
            R::kUndefined);
  EXPECT_EQ(resolve(R"({"cameras":[{"perspective":{"yfov":1,"znear":1,"zfar":9}}]})",
                    "/cameras/0/perspective/zfar"),
            R::kDefined);
  // Node TRS and matrix.
  EXPECT_EQ(resolve(R"({"nodes":[{}]})", "/nodes/0/rotation"), R::kDefined);
  EXPECT_EQ(resolve(R"({"nodes":[{"matrix":[]}]})", "/nodes/0/rotation"), R::kNodeMatrix);
  EXPECT_EQ(resolve(R"({"nodes":[{"matrix":[]}]})", "/nodes/0/scale"), R::kNodeMatrix);
  EXPECT_EQ(resolve(R"({"nodes":[{"matrix":[]}]})", "/nodes/0/translation"), R::kDefined);
  EXPECT_EQ(resolve(R"({"nodes":[{}]})", "/nodes/18446744073709551615/rotation"), R::kUndefined);
  // Weights follow the mesh's morph targets.
  const char* morph = R"({"nodes":[{"mesh":0},{}],"meshes":[{"primitives":[{"targets":[{},{},{}]}]}]})";
  std::uint64_t width = 0;
  EXPECT_EQ(resolve(morph, "/nodes/0/weights", &width), R::kDefined);
  EXPECT_EQ(width, 3u);
  EXPECT_EQ(resolve(morph, "/nodes/0/weights/2", &width), R::kDefined);
  EXPECT_EQ(width, 1u);
  EXPECT_EQ(resolve(morph, "/nodes/0/weights/3"), R::kUndefined);
  EXPECT_EQ(resolve(morph, "/nodes/1/weights"), R::kNoMorphTargets);
  // Lights: a root extension; spot angles default inside a present spot object.
  const char* lights = R"({"extensions":{"KHR_lights_punctual":{"lights":[{"spot":{}},{}]}}})";
  EXPECT_EQ(resolve(lights, "/extensions/KHR_lights_punctual/lights/0/spot/innerConeAngle"), R::kDefined);
  EXPECT_EQ(resolve(lights, "/extensions/KHR_lights_punctual/lights/1/spot/innerConeAngle"), R::kUndefined);
  EXPECT_EQ(resolve(lights, "/extensions/KHR_lights_punctual/lights/0/range"), R::kUndefined);
  // Wrong JSON types on the way are undefined, never a crash.
  EXPECT_EQ(resolve(R"({"nodes":{"0":{}}})", "/nodes/0/rotation"), R::kUndefined);
  EXPECT_EQ(resolve(R"({"nodes":[5]})", "/nodes/0/rotation"), R::kUndefined);
  EXPECT_EQ(resolve(R"([])", "/nodes/0/rotation"), R::kUndefined);
}

// The output formats per type (KHR_animation_pointer "Output Accessor Component
// Types"); int has no mutable Object Model property yet, so only this test
// reaches its branch.
TEST(ObjectModel, OutputFormats) {
  using gltf_anim::gltf::ComponentType;
  using gltf_anim::gltf::ElementType;
  using VT = om::ValueType;
  const ComponentType ints[] = {ComponentType::kByte, ComponentType::kUnsignedByte, ComponentType::kShort,
                                ComponentType::kUnsignedShort, ComponentType::kUnsignedInt};
  for (const ComponentType c : ints) {
    EXPECT_TRUE(om::output_format_ok(VT::kInt, ElementType::kScalar, c, false));
    EXPECT_FALSE(om::output_format_ok(VT::kInt, ElementType::kScalar, c, true));
    EXPECT_FALSE(om::output_format_ok(VT::kInt, ElementType::kVec2, c, false));
    // floats accept every component type, normalized or not
    EXPECT_TRUE(om::output_format_ok(VT::kFloat3, ElementType::kVec3, c, false));
    EXPECT_TRUE(om::output_format_ok(VT::kFloat4, ElementType::kVec4, c, true));
    EXPECT_EQ(om::output_format_ok(VT::kBool, ElementType::kScalar, c, false),
              c == ComponentType::kUnsignedByte);
  }
  EXPECT_FALSE(om::output_format_ok(VT::kInt, ElementType::kScalar, ComponentType::kFloat, false));
  EXPECT_FALSE(om::output_format_ok(VT::kBool, ElementType::kScalar, ComponentType::kFloat, false));
  EXPECT_TRUE(om::output_format_ok(VT::kFloatArray, ElementType::kScalar, ComponentType::kFloat, false));
  EXPECT_FALSE(om::output_format_ok(VT::kFloatArray, ElementType::kVec2, ComponentType::kFloat, false));
  EXPECT_FALSE(om::output_format_ok(VT::kFloat2, ElementType::kVec3, ComponentType::kFloat, false));
  EXPECT_TRUE(om::output_format_ok(VT::kFloat4x4, ElementType::kMat4, ComponentType::kFloat, false));
  EXPECT_FALSE(om::output_format_ok(VT::kFloat, ElementType::kMat4, ComponentType::kFloat, false));
}

// ---- hostile input ---------------------------------------------------------------

std::vector<std::string> codes_of(const std::string& json) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(json.data());
  const auto r = gltf_anim::validator::validate_bytes(std::span<const std::uint8_t>(bytes, json.size()),
                                                      "hostile.gltf", fs::path("."), ValidateOptions{});
  std::vector<std::string> out;
  for (const auto& i : r.issues) out.emplace_back(i.code);
  return out;
}

std::string pointer_doc(const std::string& target, const std::string& more = "") {
  return R"({"asset":{"version":"2.0"},"extensionsUsed":["KHR_animation_pointer"],"nodes":[{}],)"
         R"("animations":[{"channels":[{"sampler":0,"target":)" + target +
         R"(}],"samplers":[{"input":0,"output":0}]}])" + more + "}";
}

bool contains(const std::vector<std::string>& codes, const char* code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

TEST(KhrAnimationPointerHostile, WrongShapesNeverCrash) {
  const char* targets[] = {
      R"({"path":"pointer","extensions":{"KHR_animation_pointer":5}})",
      R"({"path":"pointer","extensions":5})",
      R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":null}}})",
      R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":["/nodes/0/rotation"]}}})",
      R"({"path":7,"extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/rotation"}}})",
      R"({"path":"pointer","node":-1,"extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/weights/99999999999999999999999"}}})",
      R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/18446744073709551615/rotation"}}})",
      R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/extensions/KHR_lights_punctual/lights/0/color"}}})",
  };
  for (const char* t : targets) EXPECT_NO_THROW(codes_of(pointer_doc(t))) << t;
  // An extension member of the wrong type is the schema's TYPE_MISMATCH only (the
  // document has no accessors: the core rules add UNRESOLVED_REFERENCE twice).
  EXPECT_EQ(codes_of(pointer_doc(R"({"path":"pointer","extensions":{"KHR_animation_pointer":5}})")),
            (std::vector<std::string>{"TYPE_MISMATCH", "UNRESOLVED_REFERENCE", "UNRESOLVED_REFERENCE"}));
  // Broken surroundings: extensionsUsed, nodes and extensions of the wrong types.
  EXPECT_NO_THROW(codes_of(R"({"asset":{"version":"2.0"},"extensionsUsed":"KHR_animation_pointer",)"
                           R"("animations":[{"channels":[{"sampler":0,"target":{"path":"pointer"}}],)"
                           R"("samplers":[{"input":0,"output":0}]}]})"));
  EXPECT_TRUE(contains(codes_of(pointer_doc(
                           R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/extensions/KHR_lights_punctual/lights/0/color"}}})",
                           R"(,"extensions":{"KHR_lights_punctual":[]})")),
                       "KHR_ANIMATION_POINTER_UNDEFINED_TARGET"));
}

// KHR_node_selectability's `selectable` and KHR_node_hoverability's `hoverable` are bools
// of the Object Model (each extension's own table: "`/nodes/{}/extensions/...` | `bool`"),
// animated as KHR_node_visibility's `visible` is: the committed bool_linear asset
// (LINEAR: KHR_ANIMATION_POINTER_INTERPOLATION_NOT_STEP, its expected report) retargeted
// at each gives that one code, and the same channel with STEP validates with no finding.
TEST(ObjectModel, NodeSelectabilityAndHoverabilityAreAnimatableBools) {
  const std::string linear = read_text(fs::path(GLTF_ANIM_SOURCE_DIR) /
                                       "conformance_assets/invalid/ext/KHR_animation_pointer/sampler/bool_linear.gltf");
  auto replace_all = [](std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
    return text;
  };
  ASSERT_EQ(codes_of(linear), std::vector<std::string>{"KHR_ANIMATION_POINTER_INTERPOLATION_NOT_STEP"});
  for (const auto& [extension, property] : {std::pair<std::string, std::string>{"KHR_node_selectability", "selectable"},
                                            {"KHR_node_hoverability", "hoverable"}}) {
    SCOPED_TRACE(extension);
    std::string text = replace_all(linear, "\"visible\"", "\"" + property + "\"");
    text = replace_all(text, "/visible\"", "/" + property + "\"");
    text = replace_all(text, "KHR_node_visibility", extension);
    ASSERT_NE(text.find("/nodes/0/extensions/" + extension + "/" + property), std::string::npos);
    EXPECT_EQ(codes_of(text), std::vector<std::string>{"KHR_ANIMATION_POINTER_INTERPOLATION_NOT_STEP"});
    const std::string step = replace_all(text, "\"output\": 1", "\"output\": 1, \"interpolation\": \"STEP\"");
    ASSERT_NE(step, text);
    EXPECT_EQ(codes_of(step), std::vector<std::string>{});
    // Unknown to the Object Model before: the same pointer with a misspelt member is not a target.
    EXPECT_TRUE(contains(codes_of(replace_all(step, "/" + property + "\"", "/" + property + "x\"")),
                         "KHR_ANIMATION_POINTER_UNKNOWN_TARGET"));
  }
}

TEST(KhrAnimationPointerHostile, LongPointersAreLinear) {
  std::string deep;
  for (int i = 0; i < 200000; ++i) deep += "/a";
  EXPECT_TRUE(contains(codes_of(pointer_doc(R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":")" +
                                            deep + R"("}}})")),
                       "KHR_ANIMATION_POINTER_UNKNOWN_TARGET"));
  std::string bad = deep + "~2";
  EXPECT_TRUE(contains(codes_of(pointer_doc(R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":")" +
                                            bad + R"("}}})")),
                       "PATTERN_MISMATCH"));
}

// ---- assets --------------------------------------------------------------------

// The generated suite's pointer assets (conformance_assets/valid/pointer_*,
// divergence_pointer_*, written by the asset generator, not by these rules)
// give no finding of any severity, but the one information every pointer into
// extras gets: pointer_int_step animates node 0's extras value `level` (a
// number) from SHORT data with STEP, which fits.
TEST(GeneratedValidAssets, PointerAssetsGiveNoFindings) {
  const std::string extras_pointer =
      "/animations/0/channels/0/target/extensions/KHR_animation_pointer/pointer";
  std::size_t extras_infos = 0;
  const fs::path dir = kAssets / "valid";
  // The generated suite is committed: a missing folder is a broken checkout.
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::size_t checked = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".gltf") continue;
    if (!name.starts_with("pointer_") && !name.starts_with("divergence_pointer_")) continue;
    const auto r = validate_file(e.path(), ValidateOptions{});
    for (const auto& i : r.issues) {
      if (name == "pointer_int_step.gltf" && i.code == "KHR_ANIMATION_POINTER_EXTRAS_TARGET" &&
          i.pointer == extras_pointer) {
        ++extras_infos;
        continue;
      }
      ADD_FAILURE() << name << ": " << i.code << " " << i.pointer << ": " << i.message;
    }
    ++checked;
  }
  EXPECT_GE(checked, 20u);
  EXPECT_EQ(extras_infos, 1u);
}

// BlenderIO_24 (UnityGLTF "AnimateAllTheThings", 70 pointer channels): exactly
// these findings (docs/VALIDATOR.md, "KHR_animation_pointer", says why), lints aside.
// Registered only when the asset is there (tests/optional_data.hpp).
const fs::path kBlenderIO24 =
    kShared / "corpus" / "BlenderIO_24_animation_pointer" / "glTF" / "24_animation_pointer.gltf";
void BlenderIO24AnimationPointerFindings() {
  const fs::path& file = kBlenderIO24;
  using Message = std::tuple<std::string, int, std::string>;
  const std::string ext = "/target/extensions/KHR_animation_pointer/pointer";
  std::vector<Message> expected = {
      {"KHR_ANIMATION_POINTER_UNKNOWN_TARGET", 0, "/animations/0/channels/40" + ext},
      {"ANIMATION_DUPLICATE_TARGETS", 0, "/animations/0/channels/51/target"},
      {"KHR_ANIMATION_POINTER_UNKNOWN_TARGET", 0, "/animations/0/channels/69" + ext},
  };
  std::vector<Message> actual;
  for (const auto& i : validate_file(file, ValidateOptions{}).issues) {
    // Lints (LINT_*, warnings and infos beyond the specs) have their own tests.
    if (std::string_view(i.code).starts_with("LINT_")) continue;
    actual.emplace_back(std::string(i.code), static_cast<int>(i.severity), i.pointer);
  }
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  EXPECT_EQ(actual, expected);
}
[[maybe_unused]] const bool kBlenderIO24Test = gltf_anim::test::register_if_exists(
    "Corpus", "BlenderIO24AnimationPointerFindings", kBlenderIO24, BlenderIO24AnimationPointerFindings, __FILE__,
    __LINE__);

}  // namespace
