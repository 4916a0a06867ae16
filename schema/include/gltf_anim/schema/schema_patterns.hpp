#pragma once
// The "pattern"s of the schemas we embed (the glTF schemas, the project
// config's, the samples files'), each matched by hand in one pass. valijson
// checks "pattern" with std::regex, whose matcher recurses once per character:
// a 50 KB string in a config file overflowed the stack. So before valijson
// compiles one of our schemas, each "pattern" keyword is renamed to
// kLinearPatternKeyword and compiled into a constraint that calls the matcher
// below; a pattern without a matcher, "patternProperties" and the "format"s
// valijson checks with std::regex are refused when the schema is compiled (a
// defect of the build, caught by every test that loads the schema).
// Internal to the validator library (valijson is heavy to compile).
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>
#include <valijson/schema_parser.hpp>

#include <string_view>

namespace gltf_anim::schema {

// Whether `s` matches the ECMAScript `pattern` (as JSON Schema's "pattern":
// a search, anchored by ^ and $ where written); nullptr for a pattern we have
// no linear matcher for.
using LinearMatcher = bool (*)(std::string_view s);
LinearMatcher linear_matcher(std::string_view pattern);

// The keyword a schema's "pattern" is renamed to (its text unchanged).
inline constexpr const char* kLinearPatternKeyword = "x-gltf-anim-linear-pattern";

// Renames every "pattern" keyword of the schema document to
// kLinearPatternKeyword; throws std::logic_error for a pattern without a
// matcher, for "patternProperties" and for a "format" valijson checks with
// std::regex (date, time, date-time).
void take_patterns_from_valijson(gltf_anim::json::Value& schema,
                                 gltf_anim::json::Document::AllocatorType& a);

// Teaches `parser` kLinearPatternKeyword. Its failure has valijson's own
// description ("Failed to match regex specified by 'pattern' constraint."),
// so readers of valijson's errors need no change.
void add_linear_patterns(valijson::SchemaParser& parser);

// Whether `c` is a constraint add_linear_patterns compiled.
bool is_linear_pattern(const valijson::constraints::Constraint& c);

}  // namespace gltf_anim::schema
