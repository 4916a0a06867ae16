#pragma once
// A small JSON Schema (draft 7) embedded in the binary (the project config's,
// the samples files'), compiled once, and the one violation its reader reports:
// valijson's deepest error with its JSON pointer. valijson is heavy to compile,
// so it stays inside embedded_schema.cpp. Internal: not an installed header.
// (The glTF schemas are walked differently, beside the document: schema_check.cpp.)
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace gltf_anim::schema {

struct SchemaViolation {
  std::string pointer;  // JSON pointer of the offending value ("" = the root)
  std::string message;  // valijson's description
};

class EmbeddedSchema {
 public:
  // Throws std::logic_error naming `what` when `text` is not JSON: the text is
  // ours, built in, so that is a defect of the build, not of the input.
  EmbeddedSchema(std::string_view text, std::string_view what);
  ~EmbeddedSchema();
  EmbeddedSchema(const EmbeddedSchema&) = delete;
  EmbeddedSchema& operator=(const EmbeddedSchema&) = delete;

  // nullopt when `document` satisfies the schema; else its innermost error
  // (valijson also reports each enclosing value that failed because of it,
  // "Failed to validate item #0": those are passed over). Thread-safe.
  std::optional<SchemaViolation> violation(const gltf_anim::json::Value& document) const;

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace gltf_anim::schema
