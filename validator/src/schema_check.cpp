// Schema phase: the embedded draft-07 schemas (validator/schemas/) checked with
// valijson over RapidJSON, and valijson's errors mapped to glTF-Validator's
// codes and pointers. valijson is heavy to compile: it is included in this
// translation unit only. The schemas are parsed once per process.
//
// Memory is bounded by the document, not by its mistakes: valijson keeps every
// error it finds (about 500 bytes each, with its path) until validation ends,
// so 2 M wrong array items took 1.1 GB. Instead, this file walks the document
// alongside the compiled schema itself: at each value it runs valijson on that
// value's own constraints only (type, enum, required, minimum, ...) and maps
// the few errors they give straight into the issue collector; "items" and
// "properties" are followed here, one value at a time. So at most one value's
// errors are held at once, and no pointer is built unless an issue is
// reported. Our schemas use no keyword that combines subschemas (allOf,
// anyOf, ...; common.schema.json says why); SchemaSet refuses one.
//
// valijson describes an error in English; the mapping reads the kind of error
// from the description's fixed prefix (valijson 1.0) and the details (type,
// enum, index or not) from the schema documents.
#include <gltf_anim/validator/rules.hpp>
#include <gltf_anim/text/utf8.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/writer.h>
#include <gltf_anim/schema/schema_adapter.hpp>
#include <valijson/adapters/rapidjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validation_visitor.hpp>

#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <gltf_anim/gltf/json_access.hpp>
#include "schema_embedded.hpp"
#include <gltf_anim/schema/schema_patterns.hpp>

namespace gltf_anim::validator {
using schema::add_linear_patterns;
using schema::is_linear_pattern;
using schema::kLinearPatternKeyword;
using schema::take_patterns_from_valijson;

using gltf::escape_pointer_token;
using gltf::IssueCode;
using gltf::kMaxIssueTextBytes;

namespace {

namespace vc = valijson::constraints;
using valijson::Subschema;
using Adapter = gltf_anim::schema::SchemaAdapter;
using rules::paren;

constexpr std::string_view kRootSchema = "gltf.schema.json";

// ---------------------------------------------------------------------------
// The schema documents, and positions in them

using SchemaDocs = std::map<std::string, gltf_anim::json::Document, std::less<>>;  // by file name

// A node of the schema documents (the JSON the compiled schema came from).
struct SchemaPos {
  const gltf_anim::json::Value* node = nullptr;
  std::string_view file;  // the schema file (its $id) the node is in
  bool index = false;     // reached through a $ref to definitions/glTFid
};

SchemaPos follow_refs(const SchemaDocs& docs, SchemaPos pos) {
  for (int guard = 0; guard < 8 && pos.node != nullptr && pos.node->IsObject(); ++guard) {
    const auto ref = pos.node->FindMember("$ref");
    if (ref == pos.node->MemberEnd() || !ref->value.IsString()) break;
    const std::string_view text(ref->value.GetString(), ref->value.GetStringLength());
    const auto hash = text.find('#');
    const std::string_view file = hash == std::string_view::npos ? text : text.substr(0, hash);
    const std::string_view frag = hash == std::string_view::npos ? "" : text.substr(hash + 1);
    const auto doc = docs.find(file.empty() ? pos.file : file);
    if (doc == docs.end()) return {};
    const gltf_anim::json::Value* node = &doc->second;
    // Fragments are "/definitions/<name>" only.
    std::string_view rest = frag;
    while (!rest.empty() && node != nullptr) {
      rest.remove_prefix(1);
      const auto slash = rest.find('/');
      const std::string token(rest.substr(0, slash));
      rest = slash == std::string_view::npos ? "" : rest.substr(slash);
      const auto m = node->FindMember(token.c_str());
      node = (node->IsObject() && m != node->MemberEnd()) ? &m->value : nullptr;
    }
    pos = SchemaPos{node, doc->first, frag == "/definitions/glTFid"};
  }
  return pos;
}

// Member `keyword` of the schema node (e.g. "items"), or of its "properties"
// when `property` is given; refs followed.
SchemaPos schema_member(const SchemaDocs& docs, const SchemaPos& pos, const char* keyword,
                        const std::string* property = nullptr) {
  if (pos.node == nullptr || !pos.node->IsObject()) return {};
  const auto k = pos.node->FindMember(keyword);
  if (k == pos.node->MemberEnd() || !k->value.IsObject()) return {};
  if (property == nullptr) return follow_refs(docs, {&k->value, pos.file, false});
  const auto p = k->value.FindMember(rapidjson::StringRef(property->data(), property->size()));
  if (p == k->value.MemberEnd()) return {};
  return follow_refs(docs, {&p->value, pos.file, false});
}

// ---------------------------------------------------------------------------
// The compiled schema, indexed for the walk

// What the walk needs of one compiled subschema.
struct Shape {
  SchemaPos pos;                             // where it is written (refs followed)
  std::vector<const vc::Constraint*> own;    // checked on the value itself
  const vc::TypeConstraint* type = nullptr;  // also in `own`
  const Subschema* items = nullptr;          // "items"
  bool has_properties = false;               // "properties" / "additionalProperties"
  std::map<std::string, const Subschema*, std::less<>> properties;
  const Subschema* additional = nullptr;  // nullptr: additionalProperties false

  bool checks_nothing() const { return own.empty() && items == nullptr && !has_properties; }
};

// The parsed schema files, the compiled valijson schema and its shapes.
struct SchemaSet {
  SchemaDocs docs;
  valijson::Schema schema;
  std::unordered_map<const Subschema*, Shape> shapes;

  SchemaSet() {
    parse_documents();
    compile();
    index(schema, root_pos());
  }

  SchemaPos root_pos() const { return {&docs.find(kRootSchema)->second, kRootSchema, false}; }

  const Shape& shape(const Subschema& s) const { return shapes.at(&s); }

 private:
  void parse_documents() {
    for (std::size_t i = 0; i < detail::kEmbeddedSchemaCount; ++i) {
      const auto& e = detail::kEmbeddedSchemas[i];
      gltf_anim::json::Document d;
      d.Parse(e.text.data(), e.text.size());
      if (d.HasParseError()) {
        throw std::logic_error("embedded schema is not JSON: " + std::string(e.name));
      }
      take_patterns_from_valijson(d, d.GetAllocator());
      docs.emplace(std::string(e.name), std::move(d));
    }
    if (docs.find(kRootSchema) == docs.end()) {
      throw std::logic_error("embedded schemas lack gltf.schema.json");
    }
  }

  void compile() {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    add_linear_patterns(parser);
    Adapter adapter(docs.find(kRootSchema)->second);
    parser.populateSchema(
        adapter, schema,
        [this](const std::string& uri) -> const gltf_anim::json::Document* {
          std::string name = uri;
          if (const auto slash = name.find_last_of('/'); slash != std::string::npos) {
            name = name.substr(slash + 1);
          }
          const auto it = docs.find(name);
          if (it == docs.end()) throw std::logic_error("schema reference to unknown file " + uri);
          return &it->second;
        },
        [](const gltf_anim::json::Document*) {});
  }

  // Records the shape of `s` (written at `pos`) and of every subschema under it.
  void index(const Subschema& s, SchemaPos pos) {
    if (shapes.count(&s) != 0) return;
    Shape& shape = shapes[&s];  // unordered_map: the reference survives inserts
    shape.pos = follow_refs(docs, pos);
    Subschema::ApplyFunction classify = [&shape](const vc::Constraint& c) {
      add_constraint(shape, c);
      return true;
    };
    s.apply(classify);
    if (shape.items != nullptr) index(*shape.items, schema_member(docs, shape.pos, "items"));
    for (const auto& [name, sub] : shape.properties) {
      index(*sub, schema_member(docs, shape.pos, "properties", &name));
    }
    if (shape.additional != nullptr) {
      index(*shape.additional, schema_member(docs, shape.pos, "additionalProperties"));
    }
  }

  static void add_constraint(Shape& shape, const vc::Constraint& c) {
    if (const auto* items = dynamic_cast<const vc::SingularItemsConstraint*>(&c)) {
      shape.items = items->getItemsSubschema();
    } else if (const auto* props = dynamic_cast<const vc::PropertiesConstraint*>(&c)) {
      shape.has_properties = true;
      props->applyToProperties([&shape](const auto& name, const Subschema* sub) {
        shape.properties.emplace(std::string(name.c_str()), sub);
        return true;
      });
      props->applyToPatternProperties([](const auto&, const Subschema*) -> bool {
        throw std::logic_error("schema walk: patternProperties is not supported");
      });
      shape.additional = props->getAdditionalPropertiesSubschema();
    } else if (const auto* deps = dynamic_cast<const vc::DependenciesConstraint*>(&c)) {
      deps->applyToSchemaDependencies([](const auto&, const Subschema*) -> bool {
        throw std::logic_error("schema walk: schema dependencies are not supported");
      });
      shape.own.push_back(&c);
    } else if (is_linear_pattern(c)) {
      shape.own.push_back(&c);
    } else if (dynamic_cast<const vc::AllOfConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::AnyOfConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::OneOfConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::NotConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::ConditionalConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::LinearItemsConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::ContainsConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::PropertyNamesConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::UniqueItemsConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::PolyConstraint*>(&c) != nullptr ||
               dynamic_cast<const vc::PatternConstraint*>(&c) != nullptr) {
      // Combinators would hold their errors in valijson again; uniqueItems
      // compares every pair of items (quadratic); valijson's own "pattern"
      // runs std::regex (schema_patterns.hpp).
      throw std::logic_error("schema walk: a schema keyword that the walk does not support");
    } else {
      if (const auto* type = dynamic_cast<const vc::TypeConstraint*>(&c)) shape.type = type;
      shape.own.push_back(&c);
    }
  }
};

const SchemaSet& schema_set() {
  static const SchemaSet set;  // thread-safe one-time initialisation
  return set;
}

// ---------------------------------------------------------------------------
// Texts for messages

// Collects at most kLimit bytes of what a json::Writer writes, so that
// quoting a huge value costs no memory beyond the quote.
class QuoteStream {
 public:
  using Ch = char;
  static constexpr std::size_t kLimit = 65;
  void Put(char c) {
    if (text_.size() < kLimit) text_ += c;
  }
  void Flush() {}
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// The value as JSON text, at most 64 bytes (a longer one is cut with a mark).
std::string json_text(const gltf_anim::json::Value& v) {
  QuoteStream stream;
  gltf_anim::json::Writer<QuoteStream> writer(stream);
  v.Accept(writer);
  const std::string& s = stream.text();
  return s.size() > 64 ? text::truncate_utf8(s, 61) : s;
}

std::string type_label(std::string_view schema_type) {
  if (schema_type == "object") return "JSON object";
  if (schema_type == "array") return "JSON array";
  return std::string(schema_type);
}

std::string schema_type(const SchemaPos& pos) {
  if (pos.node == nullptr || !pos.node->IsObject()) return "value";
  const auto t = pos.node->FindMember("type");
  if (t == pos.node->MemberEnd() || !t->value.IsString()) return "value";
  return type_label(t->value.GetString());
}

std::string enum_list(const SchemaPos& pos) {
  std::string out = "(";
  if (pos.node != nullptr && pos.node->IsObject()) {
    const auto e = pos.node->FindMember("enum");
    if (e != pos.node->MemberEnd() && e->value.IsArray()) {
      bool first = true;
      for (const auto& v : e->value.GetArray()) {
        if (!first) out += ", ";
        out += json_text(v);
        first = false;
      }
    }
  }
  return out + ")";
}

std::optional<std::uint64_t> schema_uint(const SchemaPos& pos, const char* keyword) {
  if (pos.node == nullptr || !pos.node->IsObject()) return std::nullopt;
  const auto m = pos.node->FindMember(keyword);
  if (m == pos.node->MemberEnd() || !m->value.IsUint64()) return std::nullopt;
  return m->value.GetUint64();
}

std::string schema_string(const SchemaPos& pos, const char* keyword) {
  if (pos.node == nullptr || !pos.node->IsObject()) return {};
  const auto m = pos.node->FindMember(keyword);
  if (m == pos.node->MemberEnd() || !m->value.IsString()) return {};
  return std::string(m->value.GetString(), m->value.GetStringLength());
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The name between the first pair of quotes of a valijson description
// ("Missing required property 'x'.").
std::string quoted_name(const std::string& desc) {
  const auto start = desc.find('\'') + 1;
  const auto end = desc.find('\'', start);
  return desc.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// ---------------------------------------------------------------------------
// The walk

// Where the value being checked sits.
struct Place {
  const gltf_anim::json::Value* parent = nullptr;  // nullptr at the root
  std::string_view parent_schema;            // the schema file describing the parent
  std::string_view member;                   // its name, when the parent is an object
  // For an item of an array: whether the array's ARRAY_TYPE_MISMATCH was given.
  bool* array_type_reported = nullptr;
};

// Issues of one value before the type filter: a wrong type makes the value's
// other findings (enum, range, length, ...) consequences, not causes.
struct Finding {
  IssueCode code;
  bool at_parent = false;  // ARRAY_TYPE_MISMATCH: at the enclosing array
  std::string member;      // a member of the value (UNSATISFIED_DEPENDENCY), else ""
  std::vector<std::string> args;
};

bool is_type_code(IssueCode code) { return code == "TYPE_MISMATCH" || code == "NON_OBJECT_EXTRAS"; }

bool is_secondary(IssueCode code) {
  return !is_type_code(code) && code != "UNEXPECTED_PROPERTY" && code != "UNDEFINED_PROPERTY" &&
         code != "ARRAY_TYPE_MISMATCH";
}

class SchemaWalk {
 public:
  SchemaWalk(const SchemaSet& set, const RuleContext& ctx,
             std::span<const std::unique_ptr<RuleModule>> modules)
      : set_(set), ctx_(ctx), modules_(modules) {}

  void run(const gltf_anim::json::Value& doc) { check_value(doc, set_.schema, Place{}); }

 private:
  // An integer is any number with a zero fractional part (JSON Schema 2020-12;
  // draft 7 says so too, and glTF-Validator reads 1.0 as 1), but RapidJSON
  // keeps 1.0 a double and valijson's strict "integer" wants an int: such a
  // value is handed to valijson as the integer it is, in `scratch`.
  static const gltf_anim::json::Value& integral(const gltf_anim::json::Value& v,
                                                gltf_anim::json::Value& scratch) {
    if (!v.IsDouble()) return v;
    if (const auto u = gltf::json_access::as_uint(v)) {
      scratch.SetUint64(*u);
      return scratch;
    }
    const double d = v.GetDouble();
    // Negative integers: exact in int64 from -2^63 up.
    if (d < 0.0 && d >= -9223372036854775808.0 && std::floor(d) == d) {
      scratch.SetInt64(static_cast<std::int64_t>(d));
      return scratch;
    }
    return v;
  }

  // One token of the path from the root to the value being checked.
  struct Step {
    std::string_view name;
    std::size_t index = 0;
    bool is_index = false;
  };

  void check_value(const gltf_anim::json::Value& v, const Subschema& s, const Place& at) {
    if (ctx_.issues.truncated()) return;  // nothing more can be reported
    const Shape& shape = set_.shape(s);
    if (!shape.own.empty()) check_own_constraints(v, shape, at);
    if (shape.items != nullptr && v.IsArray()) check_items(v, shape);
    if (shape.has_properties && v.IsObject()) check_members(v, shape);
  }

  // Runs the value's own constraints with valijson and reports what they find.
  void check_own_constraints(const gltf_anim::json::Value& v, const Shape& shape, const Place& at) {
    gltf_anim::json::Value integer;
    const Adapter target(integral(v, integer));
    valijson::ValidationVisitor<Adapter> visitor(target, {}, true, &results_, regexes_);
    for (const vc::Constraint* c : shape.own) c->accept(visitor);
    std::vector<Finding> findings;
    valijson::ValidationResults::Error error;
    while (results_.popError(error)) map_error(error.description, v, shape, at, findings);
    report(findings, at);
  }

  // Every item against the "items" subschema; one ARRAY_TYPE_MISMATCH per array.
  void check_items(const gltf_anim::json::Value& array, const Shape& shape) {
    bool array_type_reported = false;
    const Place item_place{&array, shape.pos.file, {}, &array_type_reported};
    for (rapidjson::SizeType i = 0; i < array.Size(); ++i) {
      path_.push_back(Step{{}, i, true});
      check_value(array[i], *shape.items, item_place);
      path_.pop_back();
    }
  }

  // "properties" (the first of duplicate keys, as valijson), then the other
  // members against "additionalProperties", or UNEXPECTED_PROPERTY.
  void check_members(const gltf_anim::json::Value& object, const Shape& shape) {
    for (const auto& [name, sub] : shape.properties) {
      const auto m = object.FindMember(rapidjson::StringRef(name.data(), name.size()));
      if (m == object.MemberEnd()) continue;
      check_member(object, shape, name, m->value, *sub);
    }
    // A duplicate key is reported once. The set grows only while issues are
    // kept (the loop ends at the issue limits), so it stays smaller than they are.
    std::unordered_set<std::string_view> unexpected;
    for (const auto& m : object.GetObject()) {
      if (ctx_.issues.truncated()) return;
      const std::string_view name(m.name.GetString(), m.name.GetStringLength());
      if (shape.properties.find(name) != shape.properties.end()) continue;
      if (shape.additional != nullptr) {
        if (!set_.shape(*shape.additional).checks_nothing()) {
          check_member(object, shape, name, m.value, *shape.additional);
        }
      } else if (unexpected.insert(name).second &&
                 !excused("UNEXPECTED_PROPERTY", SchemaSite{shape.pos.file, object, name})) {
        ctx_.issues.add("UNEXPECTED_PROPERTY", pointer(name));
      }
    }
  }

  void check_member(const gltf_anim::json::Value& object, const Shape& shape, std::string_view name,
                    const gltf_anim::json::Value& value, const Subschema& s) {
    path_.push_back(Step{name, 0, false});
    check_value(value, s, Place{&object, shape.pos.file, name, nullptr});
    path_.pop_back();
  }

  // One valijson error of the value's own constraints, as a finding.
  void map_error(const std::string& desc, const gltf_anim::json::Value& v, const Shape& shape,
                 const Place& at, std::vector<Finding>& findings) {
    const SchemaPos& pos = shape.pos;
    if (starts_with(desc, "Missing required property '")) {
      std::string missing = quoted_name(desc);
      if (!excused("UNDEFINED_PROPERTY", SchemaSite{pos.file, v, missing})) {
        findings.push_back({"UNDEFINED_PROPERTY", false, {}, {std::move(missing)}});
      }
    } else if (starts_with(desc, "Value type not permitted by 'type' constraint")) {
      findings.push_back(type_finding(v, pos, at));
    } else if (starts_with(desc, "Failed to match against any enum values")) {
      if (!accepted(v, at)) {
        findings.push_back({"VALUE_NOT_IN_LIST", false, {}, {json_text(v), enum_list(pos)}});
      }
    } else if (starts_with(desc, "Expected number greater than") ||
               starts_with(desc, "Expected number less than")) {
      if (pos.index) {
        findings.push_back({"INVALID_INDEX", false, {}, {}});
      } else {
        findings.push_back({"VALUE_NOT_IN_RANGE", false, {}, {json_text(v)}});
      }
    } else if (starts_with(desc, "Array should contain no fewer than") ||
               starts_with(desc, "Array should contain no more than")) {
      findings.push_back(length_finding(v, pos));
    } else if (starts_with(desc, "Value should be a multiple of")) {
      const auto of = schema_uint(pos, "multipleOf");
      findings.push_back(
          {"VALUE_MULTIPLE_OF", false, {}, {json_text(v), of ? std::to_string(*of) : ""}});
    } else if (starts_with(desc, "Failed to match regex specified by 'pattern' constraint")) {
      findings.push_back(
          {"PATTERN_MISMATCH", false, {}, {json_text(v), schema_string(pos, kLinearPatternKeyword)}});
    } else if (starts_with(desc, "Missing dependency '")) {
      dependency_findings(v, shape, findings);
    }
    // Any other description comes from a keyword our schemas do not use.
  }

  // glTF-Validator: a wrong item type is one ARRAY_TYPE_MISMATCH at the array,
  // except for the elements of the root collections (nodes, accessors, ...),
  // each a TYPE_MISMATCH; extras that are no object are NON_OBJECT_EXTRAS.
  Finding type_finding(const gltf_anim::json::Value& v, const SchemaPos& pos,
                       const Place& at) const {
    const bool in_array = at.parent != nullptr && at.parent->IsArray();
    const bool root_collection = in_array && path_.size() == 2 &&
                                 path_[0].name != "extensionsUsed" &&
                                 path_[0].name != "extensionsRequired";
    if (!in_array && at.member == "extras") return {"NON_OBJECT_EXTRAS", false, {}, {}};
    if (in_array && !root_collection) {
      return {"ARRAY_TYPE_MISMATCH", true, {}, {json_text(v), schema_type(pos)}};
    }
    return {"TYPE_MISMATCH", false, {}, {json_text(v), schema_type(pos)}};
  }

  static Finding length_finding(const gltf_anim::json::Value& v, const SchemaPos& pos) {
    const auto lo = schema_uint(pos, "minItems");
    const auto hi = schema_uint(pos, "maxItems");
    const std::size_t size = v.IsArray() ? v.Size() : 0;
    if (size == 0 && lo && *lo >= 1) return {"EMPTY_ENTITY", false, {}, {}};
    // Our schemas only bound arrays of one fixed length (minItems == maxItems)
    // besides the non-empty ones above.
    return {"ARRAY_LENGTH_NOT_IN_LIST",
            false,
            {},
            {std::to_string(size), paren(lo ? *lo : (hi ? *hi : 0))}};
  }

  // glTF-Validator points at the member that has the unmet dependency; a member
  // of the wrong type has its TYPE_MISMATCH instead.
  void dependency_findings(const gltf_anim::json::Value& object, const Shape& shape,
                           std::vector<Finding>& findings) {
    const SchemaPos& pos = shape.pos;
    if (pos.node == nullptr || !pos.node->IsObject() || !object.IsObject()) return;
    const auto deps = pos.node->FindMember("dependencies");
    if (deps == pos.node->MemberEnd() || !deps->value.IsObject()) return;
    for (const auto& d : deps->value.GetObject()) {
      const std::string_view name(d.name.GetString(), d.name.GetStringLength());
      const auto m = object.FindMember(d.name);
      if (m == object.MemberEnd() || !d.value.IsArray() || mistyped(m->value, shape, name))
        continue;
      for (const auto& need : d.value.GetArray()) {
        if (need.IsString() && !object.HasMember(need)) {
          findings.push_back(
              {"UNSATISFIED_DEPENDENCY", false, std::string(name), {need.GetString()}});
        }
      }
    }
  }

  // Whether member `name` (of an object of `shape`) fails its "type".
  bool mistyped(const gltf_anim::json::Value& value, const Shape& shape, std::string_view name) {
    const auto p = shape.properties.find(name);
    if (p == shape.properties.end()) return false;
    const vc::TypeConstraint* type = set_.shape(*p->second).type;
    if (type == nullptr) return false;
    gltf_anim::json::Value integer;
    const Adapter target(integral(value, integer));
    valijson::ValidationVisitor<Adapter> visitor(target, {}, true, nullptr, regexes_);
    return !type->accept(visitor);
  }

  // Reports the findings of one value; with a type finding, only the primary ones.
  void report(const std::vector<Finding>& findings, const Place& at) {
    bool typed = false;
    for (const Finding& f : findings) typed = typed || is_type_code(f.code);
    for (const Finding& f : findings) {
      if (typed && is_secondary(f.code) && f.member.empty()) continue;
      if (f.at_parent) {
        if (*at.array_type_reported) continue;
        *at.array_type_reported = true;
      }
      const std::string p = f.at_parent ? pointer_of_parent() : pointer(f.member);
      switch (f.args.size()) {
        case 0: ctx_.issues.add(f.code, std::string_view(p)); break;
        case 1: ctx_.issues.add(f.code, std::string_view(p), {f.args[0]}); break;
        default: ctx_.issues.add(f.code, std::string_view(p), {f.args[0], f.args[1]}); break;
      }
    }
  }

  bool excused(IssueCode code, const SchemaSite& site) const {
    for (const auto& mod : modules_) {
      if (mod->excuses_member(ctx_, code, site)) return true;
    }
    return false;
  }

  // A value the core schema does not list, defined by an extension: a sampler
  // interpolation of the interpolation table whose extension is used, or what
  // an extension module accepts.
  bool accepted(const gltf_anim::json::Value& v, const Place& at) const {
    if (at.parent == nullptr || !at.parent->IsObject()) return false;
    const SchemaSite site{at.parent_schema, *at.parent, at.member};
    if (site.schema == kSamplerSchema && site.member == "interpolation" && v.IsString() &&
        ctx_.interpolation(std::string_view(v.GetString(), v.GetStringLength()))) {
      return true;
    }
    for (const auto& mod : modules_) {
      if (mod->accepts_value(ctx_, site, v)) return true;
    }
    return false;
  }

  // The JSON pointer of the current value (plus `member` when not empty),
  // built only as far as the collector stores it (kMaxIssueTextBytes, then it
  // cuts): a value under a 1 MB key costs 1 KiB per issue, not 1 MB.
  std::string pointer(std::string_view member = {}) const {
    return build_pointer(path_.size(), member);
  }
  std::string pointer_of_parent() const {
    return build_pointer(path_.empty() ? 0 : path_.size() - 1, {});
  }

  std::string build_pointer(std::size_t steps, std::string_view member) const {
    std::string p;
    const auto append = [&p](std::string_view token) {
      p += '/';
      p += escape_pointer_token(token.substr(0, kMaxIssueTextBytes));
    };
    for (std::size_t i = 0; i < steps && p.size() <= kMaxIssueTextBytes; ++i) {
      if (path_[i].is_index) {
        append(std::to_string(path_[i].index));
      } else {
        append(path_[i].name);
      }
    }
    if (!member.empty() && p.size() <= kMaxIssueTextBytes) append(member);
    return p;
  }

  const SchemaSet& set_;
  const RuleContext& ctx_;
  std::span<const std::unique_ptr<RuleModule>> modules_;
  std::vector<Step> path_;
  valijson::ValidationResults results_;                  // one value's errors at a time
  // valijson's visitor takes a cache of compiled std::regex "pattern"s; it stays
  // empty: our patterns are matched by hand (schema_patterns.hpp).
  std::unordered_map<std::string, std::regex> regexes_;
};

}  // namespace

void check_schema(const gltf_anim::json::Value& doc, const RuleContext& ctx,
                  std::span<const std::unique_ptr<RuleModule>> modules) {
  SchemaWalk(schema_set(), ctx, modules).run(doc);
}

}  // namespace gltf_anim::validator
