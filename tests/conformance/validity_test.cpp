// Every valid asset of the suite passes the validator without errors. The only
// exceptions are the draft-extension cases whose JSON follows the draft rather
// than the core schema (documented in README.md "Drafts").
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>

#include <algorithm>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

bool follows_a_draft_schema(const Case& c) {
  return c.id == "sqlerp_without_fallback" ||
         std::find(c.features.begin(), c.features.end(), "KHR_animation2") != c.features.end();
}

TEST(Validity, EveryValidAssetHasNoValidationErrors) {
  for (const Case& c : suite_cases()) {
    const auto report = validator::validate_file(valid_asset(asset_file_name(c)), {});
    const std::size_t errors = report.count(gltf::Severity::kError);
    if (follows_a_draft_schema(c)) {
      // The draft's channel shape: the core schema reports the missing member(s).
      for (const auto& issue : report.issues) {
        if (issue.severity != gltf::Severity::kError) continue;
        EXPECT_EQ(issue.code, "UNDEFINED_PROPERTY") << c.id << ": " << issue.message;
      }
      continue;
    }
    EXPECT_EQ(errors, 0u) << c.id;
    for (const auto& issue : report.issues) {
      if (issue.severity == gltf::Severity::kError)
        ADD_FAILURE() << c.id << ": " << issue.code << " " << issue.message;
    }
  }
}

}  // namespace
}  // namespace gltf_anim::suite::test
