// Schema phase: the embedded draft-07 schemas (validator/schemas/) checked with
// valijson over RapidJSON, and valijson's errors mapped to glTF-Validator's
// codes and pointers. valijson is heavy to compile: it is included in this
// translation unit only. The schemas are parsed once per process.
//
// valijson reports an error as (context path, English description). The
// mapping below reads the kind of error from the description's fixed prefix
// (valijson 1.0), finds the instance value from the path, and walks the schema
// documents alongside to learn what was expected (type, enum, index or not).
#include <gltf_anim/validator/rules.hpp>
#include <gltf_anim/text/utf8.hpp>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <valijson/adapters/rapidjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rules/json_access.hpp"
#include "schema_embedded.hpp"

namespace gltf_anim::validator {
namespace {

using rules::paren;

constexpr std::string_view kRootSchema = "gltf.schema.json";

// The parsed schema files and the compiled valijson schema.
struct SchemaSet {
  std::map<std::string, rapidjson::Document, std::less<>> docs;  // by file name
  valijson::Schema schema;

  SchemaSet() {
    for (std::size_t i = 0; i < detail::kEmbeddedSchemaCount; ++i) {
      const auto& e = detail::kEmbeddedSchemas[i];
      rapidjson::Document d;
      d.Parse(e.text.data(), e.text.size());
      if (d.HasParseError()) {
        throw std::logic_error("embedded schema is not JSON: " + std::string(e.name));
      }
      docs.emplace(std::string(e.name), std::move(d));
    }
    const auto root = docs.find(kRootSchema);
    if (root == docs.end()) throw std::logic_error("embedded schemas lack gltf.schema.json");
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::RapidJsonAdapter adapter(root->second);
    parser.populateSchema(
        adapter, schema,
        [this](const std::string& uri) -> const rapidjson::Document* {
          std::string name = uri;
          if (const auto slash = name.find_last_of('/'); slash != std::string::npos) {
            name = name.substr(slash + 1);
          }
          const auto it = docs.find(name);
          if (it == docs.end()) throw std::logic_error("schema reference to unknown file " + uri);
          return &it->second;
        },
        [](const rapidjson::Document*) {});
  }
};

const SchemaSet& schema_set() {
  static const SchemaSet set;  // thread-safe one-time initialisation
  return set;
}

// A position in the schema documents while walking alongside the instance.
struct SchemaPos {
  const rapidjson::Value* node = nullptr;
  std::string_view file;
  bool index = false;  // reached through a $ref to definitions/glTFid
};

SchemaPos follow_refs(const SchemaSet& set, SchemaPos pos) {
  for (int guard = 0; guard < 8 && pos.node != nullptr && pos.node->IsObject(); ++guard) {
    const auto ref = pos.node->FindMember("$ref");
    if (ref == pos.node->MemberEnd() || !ref->value.IsString()) break;
    const std::string_view text(ref->value.GetString(), ref->value.GetStringLength());
    const auto hash = text.find('#');
    const std::string_view file = hash == std::string_view::npos ? text : text.substr(0, hash);
    const std::string_view frag = hash == std::string_view::npos ? "" : text.substr(hash + 1);
    const auto doc = set.docs.find(file.empty() ? pos.file : file);
    if (doc == set.docs.end()) return {};
    const rapidjson::Value* node = &doc->second;
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

SchemaPos schema_child(const SchemaSet& set, SchemaPos pos, const std::string& token,
                       bool instance_is_array) {
  pos = follow_refs(set, pos);
  if (pos.node == nullptr || !pos.node->IsObject()) return {};
  const rapidjson::Value& n = *pos.node;
  if (instance_is_array) {
    const auto items = n.FindMember("items");
    if (items == n.MemberEnd()) return {};
    return follow_refs(set, {&items->value, pos.file, false});
  }
  const auto props = n.FindMember("properties");
  if (props != n.MemberEnd() && props->value.IsObject()) {
    const auto p = props->value.FindMember(token.c_str());
    if (p != props->value.MemberEnd()) return follow_refs(set, {&p->value, pos.file, false});
  }
  const auto extra = n.FindMember("additionalProperties");
  if (extra != n.MemberEnd() && extra->value.IsObject()) {
    return follow_refs(set, {&extra->value, pos.file, false});
  }
  return {};
}

std::string json_text(const rapidjson::Value& v) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  v.Accept(writer);
  const std::string_view s(buffer.GetString(), buffer.GetSize());
  return s.size() > 64 ? text::truncate_utf8(s, 61) : std::string(s);
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

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// One mapped issue before filtering.
struct Mapped {
  IssueCode code;
  std::string pointer;
  std::vector<std::string> args;
};

void add_mapped(IssueCollector& issues, const Mapped& m) {
  switch (m.args.size()) {
    case 0: issues.add(m.code, std::string_view(m.pointer)); break;
    case 1: issues.add(m.code, std::string_view(m.pointer), {m.args[0]}); break;
    default: issues.add(m.code, std::string_view(m.pointer), {m.args[0], m.args[1]}); break;
  }
}

}  // namespace

void check_schema(const rapidjson::Value& doc, const RuleContext& ctx,
                  std::span<const std::unique_ptr<RuleModule>> modules) {
  const SchemaSet& set = schema_set();
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  valijson::adapters::RapidJsonAdapter target(doc);
  if (validator.validate(set.schema, target, &results)) return;

  std::vector<Mapped> mapped;
  std::set<std::pair<std::string_view, std::string>> seen;  // (code, pointer)
  std::set<std::string> typed;                         // pointers with a type error
  auto push = [&](IssueCode code, std::string pointer, std::vector<std::string> args) {
    if (!seen.emplace(code.name(), pointer).second) return;
    if (code == "TYPE_MISMATCH" || code == "NON_OBJECT_EXTRAS") typed.insert(pointer);
    mapped.push_back(Mapped{code, std::move(pointer), std::move(args)});
  };

  const SchemaPos root_schema{&set.docs.find(kRootSchema)->second, kRootSchema, false};
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    const std::string& desc = error.description;
    // Wrappers around errors already reported at the inner value.
    if (starts_with(desc, "Failed to validate item #") ||
        starts_with(desc, "Cannot validate item #") ||
        starts_with(desc, "Failed to validate against schema associated with property") ||
        starts_with(desc, "Failed to validate against additional properties schema") ||
        starts_with(desc, "Failed to validate against child schema") ||
        starts_with(desc, "Failed to validate against dependent schema")) {
      continue;
    }
    // Walk instance and schema along the context path.
    const rapidjson::Value* value = &doc;
    const rapidjson::Value* parent = nullptr;
    SchemaPos pos = root_schema;
    SchemaPos parent_pos;
    JsonPointer pointer;
    JsonPointer parent_pointer;
    std::size_t depth = 0;
    std::string top_member;
    bool ok = true;
    for (std::size_t i = 1; i < error.context.size() && ok; ++i) {
      const std::string& raw = error.context[i];
      if (raw.size() < 2 || raw.front() != '[' || raw.back() != ']') {
        ok = false;
        break;
      }
      const std::string token = raw.substr(1, raw.size() - 2);
      parent = value;
      parent_pos = pos;
      parent_pointer = pointer;
      if (value->IsArray()) {
        std::size_t index = 0;
        const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
        if (ec != std::errc() || p != token.data() + token.size() || index >= value->Size()) {
          ok = false;
          break;
        }
        pos = schema_child(set, pos, token, true);
        value = &(*value)[static_cast<rapidjson::SizeType>(index)];
        pointer = pointer / index;
      } else if (value->IsObject()) {
        const auto m = value->FindMember(rapidjson::StringRef(token.data(), token.size()));
        if (m == value->MemberEnd()) {
          ok = false;
          break;
        }
        pos = schema_child(set, pos, token, false);
        value = &m->value;
        pointer = pointer / std::string_view(token);
      } else {
        ok = false;
      }
      if (depth == 0) top_member = token;
      ++depth;
    }
    if (!ok) continue;  // cannot happen for valijson's own paths; never guess a pointer
    pos = follow_refs(set, pos);
    const std::string member = error.context.size() > 1
                                   ? error.context.back().substr(1, error.context.back().size() - 2)
                                   : std::string();

    if (starts_with(desc, "Missing required property '")) {
      const auto start = desc.find('\'') + 1;
      const auto end = desc.find('\'', start);
      const std::string missing = desc.substr(start, end - start);
      bool excused = false;
      for (const auto& mod : modules) {
        excused = excused || mod->excuses_member(ctx, "UNDEFINED_PROPERTY", pointer.str(), missing);
      }
      if (!excused) push("UNDEFINED_PROPERTY", pointer.str(), {missing});
    } else if (starts_with(desc, "Object contains a property that could not be validated")) {
      // valijson names only the first unexpected member: report each one.
      const rapidjson::Value* props = nullptr;
      if (pos.node != nullptr && pos.node->IsObject()) {
        const auto p = pos.node->FindMember("properties");
        if (p != pos.node->MemberEnd() && p->value.IsObject()) props = &p->value;
      }
      if (value->IsObject()) {
        for (const auto& m : value->GetObject()) {
          if (props != nullptr && props->HasMember(m.name)) continue;
          const std::string_view name(m.name.GetString(), m.name.GetStringLength());
          bool excused = false;
          for (const auto& mod : modules) {
            excused = excused || mod->excuses_member(ctx, "UNEXPECTED_PROPERTY", pointer.str(), name);
          }
          if (excused) continue;
          push("UNEXPECTED_PROPERTY",
               (pointer / std::string_view(m.name.GetString(), m.name.GetStringLength())).str(),
               {});
        }
      }
    } else if (starts_with(desc, "Value type not permitted by 'type' constraint")) {
      const std::string expected = schema_type(pos);
      const bool in_array = parent != nullptr && parent->IsArray();
      const bool root_collection = in_array && depth == 2 && top_member != "extensionsUsed" &&
                                   top_member != "extensionsRequired";
      if (!in_array && member == "extras") {
        push("NON_OBJECT_EXTRAS", pointer.str(), {});
      } else if (in_array && !root_collection) {
        push("ARRAY_TYPE_MISMATCH", parent_pointer.str(), {json_text(*value), expected});
      } else {
        push("TYPE_MISMATCH", pointer.str(), {json_text(*value), expected});
      }
    } else if (starts_with(desc, "Failed to match against any enum values")) {
      bool accepted = false;
      for (const auto& mod : modules) {
        if (mod->accepts_value(ctx, pointer.str(), *value)) accepted = true;
      }
      if (!accepted) push("VALUE_NOT_IN_LIST", pointer.str(), {json_text(*value), enum_list(pos)});
    } else if (starts_with(desc, "Expected number greater than") ||
               starts_with(desc, "Expected number less than")) {
      if (pos.index) {
        push("INVALID_INDEX", pointer.str(), {});
      } else {
        push("VALUE_NOT_IN_RANGE", pointer.str(), {json_text(*value)});
      }
    } else if (starts_with(desc, "Array should contain no fewer than") ||
               starts_with(desc, "Array should contain no more than")) {
      const auto lo = schema_uint(pos, "minItems");
      const auto hi = schema_uint(pos, "maxItems");
      const std::size_t size = value->IsArray() ? value->Size() : 0;
      if (size == 0 && lo && *lo >= 1) {
        push("EMPTY_ENTITY", pointer.str(), {});
      } else {
        // Our schemas only bound arrays of one fixed length (minItems == maxItems)
        // besides the non-empty ones above.
        push("ARRAY_LENGTH_NOT_IN_LIST", pointer.str(),
             {std::to_string(size), paren(lo ? *lo : (hi ? *hi : 0))});
      }
    } else if (starts_with(desc, "Value should be a multiple of")) {
      const auto of = schema_uint(pos, "multipleOf");
      push("VALUE_MULTIPLE_OF", pointer.str(), {json_text(*value), of ? std::to_string(*of) : ""});
    } else if (starts_with(desc, "Failed to match regex specified by 'pattern' constraint")) {
      std::string pattern;
      if (pos.node != nullptr && pos.node->IsObject() && pos.node->HasMember("pattern") &&
          (*pos.node)["pattern"].IsString()) {
        pattern = (*pos.node)["pattern"].GetString();
      }
      push("PATTERN_MISMATCH", pointer.str(), {json_text(*value), pattern});
    } else if (starts_with(desc, "Missing dependency '")) {
      // glTF-Validator points at the member that has the unmet dependency.
      if (pos.node != nullptr && pos.node->IsObject() && value->IsObject()) {
        const auto deps = pos.node->FindMember("dependencies");
        if (deps != pos.node->MemberEnd() && deps->value.IsObject()) {
          for (const auto& d : deps->value.GetObject()) {
            if (!value->HasMember(d.name) || !d.value.IsArray()) continue;
            for (const auto& need : d.value.GetArray()) {
              if (need.IsString() && !value->HasMember(need)) {
                push("UNSATISFIED_DEPENDENCY",
                     (pointer / std::string_view(d.name.GetString(), d.name.GetStringLength()))
                         .str(),
                     {need.GetString()});
              }
            }
          }
        }
      }
    } else if (starts_with(desc, "Elements at indexes #")) {
      // "Elements at indexes #i and #j violate uniqueness constraint."
      const auto second = desc.find('#', desc.find('#') + 1);
      std::size_t j = 0;
      if (second != std::string::npos) {
        std::from_chars(desc.data() + second + 1, desc.data() + desc.size(), j);
      }
      push("DUPLICATE_ELEMENTS", (pointer / j).str(), {});
    }
    // Any other description comes from a keyword our schemas do not use.
  }

  for (const Mapped& m : mapped) {
    const bool secondary = m.code != "TYPE_MISMATCH" && m.code != "NON_OBJECT_EXTRAS" &&
                           m.code != "UNEXPECTED_PROPERTY" && m.code != "UNDEFINED_PROPERTY" &&
                           m.code != "ARRAY_TYPE_MISMATCH";
    if (secondary && typed.count(m.pointer) != 0) continue;
    add_mapped(ctx.issues, m);
  }
}

}  // namespace gltf_anim::validator
