#pragma once
// RFC 6901 JSON pointers, built segment by segment as the validator walks the
// document (the path stack of glTF-Validator's context).
#include <cstddef>
#include <string>
#include <string_view>

namespace gltf_anim::gltf {

// Escapes one reference token: '~' -> "~0", '/' -> "~1". The project's one RFC 6901
// escaper: the locator, the edit session and every pointer the passes build use it.
std::string escape_pointer_token(std::string_view token);
// The same, appended to `out` (the locator's walk builds each pointer in one buffer).
void append_pointer_token(std::string& out, std::string_view token);

class JsonPointer {
 public:
  JsonPointer() = default;
  explicit JsonPointer(std::string already_escaped) : text_(std::move(already_escaped)) {}

  // Appends a member name (escaped) or an array index; returns a new pointer.
  [[nodiscard]] JsonPointer operator/(std::string_view member) const;
  [[nodiscard]] JsonPointer operator/(std::size_t index) const;

  const std::string& str() const { return text_; }
  bool empty() const { return text_.empty(); }

 private:
  std::string text_;  // "" is the whole document
};

}  // namespace gltf_anim::gltf
