#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/schema/schema_patterns.hpp>

#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/validation_results.hpp>

#include <new>
#include <stdexcept>
#include <string>

namespace gltf_anim::schema {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// ^(0|[1-9][0-9]{0,8})$ on one part of a version.
bool version_number(std::string_view s) {
  if (s == "0") return true;
  if (s.empty() || s.size() > 9 || s.front() == '0') return false;
  for (const char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}

// asset.schema.json's version and minVersion.
bool version(std::string_view s) {
  const auto dot = s.find('.');
  return dot != std::string_view::npos && version_number(s.substr(0, dot)) &&
         version_number(s.substr(dot + 1));
}

// The config's issue code or glob of codes.
bool code_pattern(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (!((c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '*' || c == '?')) return false;
  }
  return true;
}

// The samples files' channel target: a JSON pointer.
bool json_pointer(std::string_view s) { return !s.empty() && s.front() == '/'; }

struct KnownPattern {
  std::string_view pattern;
  LinearMatcher matches;
};

constexpr KnownPattern kKnownPatterns[] = {
    {R"(^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$)", version},
    {"^[A-Z0-9_*?]+$", code_pattern},
    {"^/", json_pointer},
};

class LinearPatternConstraint : public valijson::constraints::PolyConstraint {
 public:
  explicit LinearPatternConstraint(LinearMatcher matches) : matches_(matches) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if (!target.isString()) return true;  // strong types: "pattern" applies to strings only
    if (matches_(target.asString())) return true;
    if (results != nullptr) {
      results->pushError(context, "Failed to match regex specified by 'pattern' constraint.");
    }
    return false;
  }

 private:
  Constraint* cloneInto(void* where) const override {
    return new (where) LinearPatternConstraint(matches_);
  }
  std::size_t sizeOf() const override { return sizeof(LinearPatternConstraint); }

  LinearMatcher matches_;
};

class LinearPatternBuilder : public valijson::ConstraintBuilder {
 public:
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& node) const override {
    const LinearMatcher m = node.isString() ? linear_matcher(node.asString()) : nullptr;
    if (m == nullptr) throw std::logic_error("schema pattern without a linear matcher");
    return new LinearPatternConstraint(m);
  }
};

bool is(const gltf_anim::json::Value& name, std::string_view word) {
  return std::string_view(name.GetString(), name.GetStringLength()) == word;
}

}  // namespace

LinearMatcher linear_matcher(std::string_view pattern) {
  for (const KnownPattern& k : kKnownPatterns) {
    if (k.pattern == pattern) return k.matches;
  }
  return nullptr;
}

void take_patterns_from_valijson(gltf_anim::json::Value& schema,
                                 gltf_anim::json::Document::AllocatorType& a) {
  if (schema.IsArray()) {
    for (auto& item : schema.GetArray()) take_patterns_from_valijson(item, a);
    return;
  }
  if (!schema.IsObject()) return;
  // Members by position: comparing rapidjson's mutable member iterators is ambiguous
  // in C++20 for clang (reversed operator!=), which the WebAssembly build rejects.
  for (rapidjson::SizeType k = 0; k < schema.MemberCount(); ++k) {
    auto& m = schema.MemberBegin()[k];
    // Maps of names to schemas: a schema's name is no keyword.
    if ((is(m.name, "properties") || is(m.name, "definitions")) && m.value.IsObject()) {
      for (rapidjson::SizeType j = 0; j < m.value.MemberCount(); ++j) {
        take_patterns_from_valijson(m.value.MemberBegin()[j].value, a);
      }
      continue;
    }
    // Values, not schemas: a member named "pattern" in them is data.
    if (is(m.name, "enum") || is(m.name, "const") || is(m.name, "default") ||
        is(m.name, "examples") || is(m.name, "description") || is(m.name, "title")) {
      continue;
    }
    if (is(m.name, "patternProperties")) {
      throw std::logic_error("embedded schema uses patternProperties (std::regex in valijson)");
    }
    if (is(m.name, "format") && m.value.IsString() &&
        (is(m.value, "date") || is(m.value, "time") || is(m.value, "date-time"))) {
      throw std::logic_error("embedded schema uses a format valijson checks with std::regex");
    }
    if (is(m.name, "pattern") && m.value.IsString()) {
      const std::string_view p(m.value.GetString(), m.value.GetStringLength());
      if (linear_matcher(p) == nullptr) {
        throw std::logic_error("embedded schema pattern without a linear matcher: " +
                               std::string(p));
      }
      m.name.SetString(kLinearPatternKeyword, a);
      continue;
    }
    take_patterns_from_valijson(m.value, a);
  }
}

void add_linear_patterns(valijson::SchemaParser& parser) {
  parser.addConstraintBuilder(kLinearPatternKeyword, new LinearPatternBuilder);
}

bool is_linear_pattern(const valijson::constraints::Constraint& c) {
  return dynamic_cast<const LinearPatternConstraint*>(&c) != nullptr;
}

}  // namespace gltf_anim::schema
