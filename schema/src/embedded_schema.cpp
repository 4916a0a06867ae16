#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/schema/embedded_schema.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>

#include <gltf_anim/schema/schema_patterns.hpp>

#include <gltf_anim/schema/schema_adapter.hpp>
#include <valijson/adapters/rapidjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <stdexcept>
#include <vector>

namespace gltf_anim::schema {

using gltf::escape_pointer_token;

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// valijson's context ("<root>", "[animations]", "[0]", ...) as a JSON pointer:
// each bracketed part is one reference token (a member name or an index).
std::string pointer_of(const std::vector<std::string>& context) {
  std::string out;
  for (const std::string& part : context) {
    if (part.size() < 2 || part.front() != '[' || part.back() != ']') continue;  // "<root>"
    out += '/';
    out += escape_pointer_token(std::string_view(part).substr(1, part.size() - 2));
  }
  return out;
}

}  // namespace

struct EmbeddedSchema::Compiled {
  gltf_anim::json::Document doc;  // the schema refers into it
  valijson::Schema schema;
};

EmbeddedSchema::EmbeddedSchema(std::string_view text, std::string_view what)
    : compiled_(std::make_unique<Compiled>()) {
  compiled_->doc.Parse(text.data(), text.size());
  if (compiled_->doc.HasParseError()) throw std::logic_error(std::string(what) + " is not JSON");
  take_patterns_from_valijson(compiled_->doc, compiled_->doc.GetAllocator());
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  add_linear_patterns(parser);
  gltf_anim::schema::SchemaAdapter adapter(compiled_->doc);
  parser.populateSchema(adapter, compiled_->schema);
}

EmbeddedSchema::~EmbeddedSchema() = default;

std::optional<SchemaViolation> EmbeddedSchema::violation(
    const gltf_anim::json::Value& document) const {
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  gltf_anim::schema::SchemaAdapter target(document);
  if (validator.validate(compiled_->schema, target, &results)) return std::nullopt;
  std::optional<SchemaViolation> best;
  std::size_t best_depth = 0;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    if (starts_with(error.description, "Failed to validate") ||
        starts_with(error.description, "Cannot validate")) {
      continue;
    }
    if (!best || error.context.size() > best_depth) {
      best = SchemaViolation{pointer_of(error.context), error.description};
      best_depth = error.context.size();
    }
  }
  if (!best) best = SchemaViolation{"", "does not match the schema"};
  return best;
}

}  // namespace gltf_anim::schema
