// The schema phase walks the document alongside the schema, one value at a
// time (validator/src/schema_check.cpp): what it reports must not depend on
// that: one ARRAY_TYPE_MISMATCH per array, every missing member, pointers cut
// as the collector cuts them, a duplicate key reported once, and the modules'
// hooks asked with the JSON object they decide about. A second method holds the
// walk: valijson validating the whole document itself must give the same
// verdict, on every committed asset and on each of them with one value
// replaced by a value of another type, for every value in turn.
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/validator/rules.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <gltf_anim/schema/schema_adapter.hpp>
#include <valijson/adapters/rapidjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "schema_embedded.hpp"
#include "validate_json.hpp"

namespace {

using gltf_anim::gltf::IssueCode;
using gltf_anim::gltf::IssueCollector;
using gltf_anim::gltf::LoadedAsset;
using gltf_anim::validator::DataChecks;
using gltf_anim::validator::RuleContext;
using gltf_anim::validator::RuleModule;
using gltf_anim::validator::SchemaSite;
using gltf_anim::validator::ValidationReport;

using rules_test::count;
using rules_test::count_code;

const std::string kHead = R"({"asset":{"version":"2.0"},)";

TEST(SchemaWalk, OneArrayTypeMismatchPerArrayQuotingItsFirstWrongItem) {
  const ValidationReport r = rules_test::validate_json(
      kHead + R"("nodes":[{"children":["a",1,"b"]},{"children":[true,false]},{}]})");
  ASSERT_EQ(count(r, "ARRAY_TYPE_MISMATCH", "/nodes/0/children"), 1u);
  ASSERT_EQ(count(r, "ARRAY_TYPE_MISMATCH", "/nodes/1/children"), 1u);
  EXPECT_EQ(count_code(r, "ARRAY_TYPE_MISMATCH"), 2u);
  for (const auto& i : r.issues) {
    if (i.pointer == "/nodes/0/children") {
      EXPECT_EQ(i.message, "Type mismatch. Array element \"a\" is not a 'integer'.");
    } else if (i.pointer == "/nodes/1/children") {
      EXPECT_EQ(i.message, "Type mismatch. Array element true is not a 'integer'.");
    }
  }
}

// JSON Schema 2020-12: "an integer is any number with a zero fractional part"
// (draft 7 allows it too), and glTF-Validator finds test/base/data/json/
// integer_written_as_float.gltf error-free: 1.0 and 2e0 are integers, 1.5 is
// not. The integer is read as such further on too: a bufferView of byteLength
// 4.0 holds the data of its accessor.
TEST(SchemaWalk, IntegersWrittenWithAZeroFractionAreIntegers) {
  const ValidationReport ok = rules_test::validate_json(
      kHead +
      R"("nodes":[{"children":[1.0,2e0]},{},{}],)"
      R"("buffers":[{"uri":"data:application/octet-stream;base64,AACAPw==","byteLength":4.0}],)"
      R"("bufferViews":[{"buffer":0.0,"byteLength":4.0}],)"
      R"("accessors":[{"bufferView":0.0,"componentType":5126.0,"count":1.0,"type":"SCALAR",)"
      R"("min":[1.0],"max":[1e0]}]})");
  for (const auto& i : ok.issues) {
    EXPECT_NE(i.severity, gltf_anim::gltf::Severity::kError) << i.code << " at " << i.pointer;
  }
  // The data were read: 1.0f is stored, min and max say 2, so both mismatch.
  const ValidationReport read = rules_test::validate_json(
      kHead +
      R"("buffers":[{"uri":"data:application/octet-stream;base64,AACAPw==","byteLength":4.0}],)"
      R"("bufferViews":[{"buffer":0.0,"byteLength":4.0}],)"
      R"("accessors":[{"bufferView":0.0,"componentType":5126.0,"count":1.0,"type":"SCALAR",)"
      R"("min":[2.0],"max":[2.0]}]})");
  EXPECT_EQ(count(read, "ACCESSOR_MIN_MISMATCH", "/accessors/0/min/0"), 1u);
  EXPECT_EQ(count(read, "ACCESSOR_MAX_MISMATCH", "/accessors/0/max/0"), 1u);

  const ValidationReport fraction =
      rules_test::validate_json(kHead + R"("nodes":[{"children":[1.5]},{}]})");
  EXPECT_EQ(count(fraction, "ARRAY_TYPE_MISMATCH", "/nodes/0/children"), 1u);
  const ValidationReport negative =
      rules_test::validate_json(kHead + R"("nodes":[{"mesh":-1.0}]})");
  EXPECT_EQ(count(negative, "TYPE_MISMATCH", "/nodes/0/mesh"), 0u);
  EXPECT_EQ(count(negative, "INVALID_INDEX", "/nodes/0/mesh"), 1u);
}

TEST(SchemaWalk, EveryMissingRequiredMemberIsOneIssue) {
  // accessor.schema.json of glTF 2.0: required componentType, count, type.
  const ValidationReport r = rules_test::validate_json(kHead + R"("accessors":[{}]})");
  EXPECT_EQ(count(r, "UNDEFINED_PROPERTY", "/accessors/0"), 3u);
  std::vector<std::string> messages;
  for (const auto& i : r.issues) {
    if (i.code == "UNDEFINED_PROPERTY") messages.push_back(i.message);
  }
  std::sort(messages.begin(), messages.end());
  EXPECT_EQ(messages, (std::vector<std::string>{"Property 'componentType' must be defined.",
                                                "Property 'count' must be defined.",
                                                "Property 'type' must be defined."}));
}

TEST(SchemaWalk, PointerThroughAHugeKeyIsCutAsTheCollectorCutsIt) {
  // An attribute index of -1 under a 5,000-byte attribute name: the stored
  // pointer is its first 1,016 bytes and the 8-byte cut mark (1 KiB).
  const std::string key(5000, 'k');
  const ValidationReport r = rules_test::validate_json(
      kHead + R"("meshes":[{"primitives":[{"attributes":{")" + key + R"(":-1,"a/b~c":-2}}]}]})");
  const std::string full = "/meshes/0/primitives/0/attributes/" + key;
  const std::string cut = full.substr(0, 1016) + "...(cut)";
  EXPECT_EQ(count(r, "INVALID_INDEX", cut), 1u);
  // RFC 6901 escapes in a member name: '/' is ~1, '~' is ~0.
  EXPECT_EQ(count(r, "INVALID_INDEX", "/meshes/0/primitives/0/attributes/a~1b~0c"), 1u);
}

TEST(SchemaWalk, UnexpectedDuplicateKeyIsReportedOnce) {
  const ValidationReport r =
      rules_test::validate_json(R"({"asset":{"version":"2.0","foo":1,"foo":2}})");
  EXPECT_EQ(count(r, "UNEXPECTED_PROPERTY", "/asset/foo"), 1u);
}

TEST(SchemaWalk, QuotedValueIsCutAfter61Bytes) {
  // asset.version is an array of 100 numbers: "[0,1,2,...,99]" is 291 bytes;
  // the quote keeps 61 of them and an ellipsis.
  std::string array = "[";
  for (int i = 0; i < 100; ++i) array += (i ? "," : "") + std::to_string(i);
  array += "]";
  const ValidationReport r = rules_test::validate_json(R"({"asset":{"version":)" + array + "}}");
  ASSERT_EQ(count(r, "TYPE_MISMATCH", "/asset/version"), 1u);
  for (const auto& i : r.issues) {
    if (i.code == "TYPE_MISMATCH") {
      EXPECT_EQ(i.message, "Type mismatch. Property value " + array.substr(0, 61) +
                               "\xE2\x80\xA6 is not a 'string'.");
    }
  }
}

TEST(SchemaWalk, AMemberOfTheWrongTypeHasNoDependencyIssue) {
  // node.weights needs node.mesh; a weights that is no array is its type's issue only.
  const ValidationReport typed = rules_test::validate_json(kHead + R"("nodes":[{"weights":"x"}]})");
  EXPECT_EQ(count(typed, "TYPE_MISMATCH", "/nodes/0/weights"), 1u);
  EXPECT_EQ(count_code(typed, "UNSATISFIED_DEPENDENCY"), 0u);
  const ValidationReport right = rules_test::validate_json(kHead + R"("nodes":[{"weights":[1]}]})");
  EXPECT_EQ(count(right, "UNSATISFIED_DEPENDENCY", "/nodes/0/weights"), 1u);
}

// Records what the schema phase asks, and accepts or excuses nothing.
class RecordingModule final : public RuleModule {
 public:
  struct Asked {
    std::string hook;
    std::string schema;
    const gltf_anim::json::Value* object;
    std::string member;
  };
  mutable std::vector<Asked> asked;

  std::string_view name() const override { return "recording"; }
  bool accepts_value(const RuleContext&, const SchemaSite& site,
                     const gltf_anim::json::Value&) const override {
    asked.push_back(
        {"accepts_value", std::string(site.schema), &site.object, std::string(site.member)});
    return false;
  }
  bool excuses_member(const RuleContext&, IssueCode code, const SchemaSite& site) const override {
    asked.push_back({std::string(code.name()), std::string(site.schema), &site.object,
                     std::string(site.member)});
    return false;
  }
  void link(RuleContext&) override {}
};

TEST(SchemaWalk, HooksReceiveTheObjectTheyDecideAbout) {
  LoadedAsset asset;
  asset.document = std::make_unique<gltf_anim::json::Document>();
  gltf_anim::json::Document& doc = *asset.document;
  doc.Parse(
      R"({"asset":{"version":"2.0"},"animations":[{"channels":[{"target":{"path":"pointer"},"x":1}],
               "samplers":[{"input":0,"output":1,"interpolation":"SLERP"}]}]})");
  ASSERT_FALSE(doc.HasParseError());
  IssueCollector issues;
  DataChecks data;
  std::vector<std::unique_ptr<RuleModule>> modules;
  modules.push_back(std::make_unique<RecordingModule>());
  const auto* recorder = static_cast<const RecordingModule*>(modules[0].get());
  const gltf_anim::gltf::model::AnimationModel no_animations;  // the schema pass reads none
  const RuleContext ctx{asset, doc, issues, data, {}, modules, no_animations};
  gltf_anim::validator::check_schema(doc, ctx, modules);

  const gltf_anim::json::Value& channel = doc["animations"][0]["channels"][0];
  const gltf_anim::json::Value& sampler = doc["animations"][0]["samplers"][0];
  const auto asked = [&](const std::string& hook, const std::string& member) {
    return std::count_if(recorder->asked.begin(), recorder->asked.end(),
                         [&](const auto& a) { return a.hook == hook && a.member == member; });
  };
  ASSERT_EQ(recorder->asked.size(), 4u);
  for (const auto& a : recorder->asked) {
    SCOPED_TRACE(a.hook + " " + a.member);
    if (a.member == "sampler" || a.member == "x") {
      EXPECT_EQ(a.object, &channel);
      EXPECT_EQ(a.schema, gltf_anim::validator::kChannelSchema);
    } else if (a.member == "path") {
      EXPECT_EQ(a.object, &channel["target"]);
      EXPECT_EQ(a.schema, gltf_anim::validator::kChannelTargetSchema);
    } else {
      EXPECT_EQ(a.object, &sampler);
      EXPECT_EQ(a.schema, gltf_anim::validator::kSamplerSchema);
    }
  }
  EXPECT_EQ(asked("UNDEFINED_PROPERTY", "sampler"), 1);
  EXPECT_EQ(asked("UNEXPECTED_PROPERTY", "x"), 1);
  EXPECT_EQ(asked("accepts_value", "path"), 1);
  EXPECT_EQ(asked("accepts_value", "interpolation"), 1);
  // Nothing was excused or accepted: each is reported.
  EXPECT_TRUE(issues.has("UNDEFINED_PROPERTY"));
  EXPECT_TRUE(issues.has("UNEXPECTED_PROPERTY"));
  EXPECT_TRUE(issues.has("VALUE_NOT_IN_LIST"));
}

// valijson's verdict on the whole document against the embedded schemas,
// compiled here on their own (not through the walk's SchemaSet).
class WholeDocumentValidator {
 public:
  WholeDocumentValidator() {
    namespace detail = gltf_anim::validator::detail;
    for (std::size_t i = 0; i < detail::kEmbeddedSchemaCount; ++i) {
      gltf_anim::json::Document d;
      d.Parse(detail::kEmbeddedSchemas[i].text.data(), detail::kEmbeddedSchemas[i].text.size());
      docs_.emplace(std::string(detail::kEmbeddedSchemas[i].name), std::move(d));
    }
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    gltf_anim::schema::SchemaAdapter root(docs_.at("gltf.schema.json"));
    parser.populateSchema(
        root, schema_,
        [this](const std::string& uri) -> const gltf_anim::json::Document* {
          return &docs_.at(uri.substr(uri.find_last_of('/') + 1));
        },
        [](const gltf_anim::json::Document*) {});
  }
  bool valid(const gltf_anim::json::Value& doc) {
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    return validator.validate(schema_, gltf_anim::schema::SchemaAdapter(doc), nullptr);
  }

 private:
  std::map<std::string, gltf_anim::json::Document> docs_;
  valijson::Schema schema_;
};

// Whether the walk, with no module to accept or excuse anything and no issue
// limit, reports nothing.
bool walk_finds_nothing(const gltf_anim::json::Document& doc) {
  LoadedAsset asset;
  gltf_anim::gltf::IssueOptions unlimited;
  unlimited.max_issues = 0;
  unlimited.max_issue_bytes = 0;
  IssueCollector issues(unlimited);
  DataChecks data;
  const std::vector<std::unique_ptr<RuleModule>> modules;
  const gltf_anim::gltf::model::AnimationModel no_animations;  // the schema pass reads none
  const RuleContext ctx{asset, doc, issues, data, {}, modules, no_animations};
  gltf_anim::validator::check_schema(doc, ctx, modules);
  return issues.issues().empty();
}

std::vector<std::filesystem::path> committed_assets() {
  std::vector<std::filesystem::path> out;
  for (const char* dir : {"conformance_assets", "tests/hostile/cases"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(
             std::filesystem::path(GLTF_ANIM_SOURCE_DIR) / dir)) {
      if (e.is_regular_file() && e.path().extension() == ".gltf") out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every value of the document, containers included, in document order;
// false when an object has a duplicate key. (valijson compares the number of
// members with the number of names it matched, so it rejects an object with a
// duplicate known key; glTF-Validator and the walk read the first one, and
// the loader reports JSON_DUPLICATE_KEY.)
bool collect_values(gltf_anim::json::Value& v, std::vector<gltf_anim::json::Value*>& out) {
  out.push_back(&v);
  bool unique = true;
  if (v.IsObject()) {
    std::set<std::string> names;
    for (auto& m : v.GetObject()) {
      unique = names.emplace(m.name.GetString(), m.name.GetStringLength()).second && unique;
      unique = collect_values(m.value, out) && unique;
    }
  } else if (v.IsArray()) {
    for (auto& item : v.GetArray()) unique = collect_values(item, out) && unique;
  }
  return unique;
}

TEST(SchemaWalk, AgreesWithValijsonOnEveryCommittedAssetAndEverySingleMutation) {
  WholeDocumentValidator valijson_alone;
  const char* replacements[] = {"null", "-1", "1.5", "\"x\"", "[-1]", "{\"x\":1}"};
  std::size_t documents = 0, invalid = 0;
  for (const auto& path : committed_assets()) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    gltf_anim::json::Document doc;
    doc.Parse(text.str().c_str(), text.str().size());
    if (doc.HasParseError()) continue;  // not the schema's business
    std::vector<gltf_anim::json::Value*> values;
    if (!collect_values(doc, values)) continue;
    SCOPED_TRACE(path.string());
    ASSERT_EQ(valijson_alone.valid(doc), walk_finds_nothing(doc));
    ++documents;
    // Mutations of the small assets (most of them: hand-written cases), one
    // replacement per value, in turn (the root stays an object).
    for (std::size_t i = 1; i < values.size() && values.size() <= 400; ++i) {
      {
        const char* replacement = replacements[i % std::size(replacements)];
        gltf_anim::json::Document with;
        with.Parse(replacement);
        gltf_anim::json::Value swapped(with, doc.GetAllocator());
        values[i]->Swap(swapped);  // the document now holds the replacement
        const bool reference = valijson_alone.valid(doc);
        const bool walk = walk_finds_nothing(doc);
        values[i]->Swap(swapped);  // and its value again
        ASSERT_EQ(reference, walk) << "value " << i << " replaced by " << replacement;
        ++documents;
        invalid += reference ? 0 : 1;
      }
    }
  }
  // The mutations reach the schema: most of them make the asset invalid.
  EXPECT_GT(documents, 10000u);
  EXPECT_GT(invalid, documents / 2);
}

}  // namespace
