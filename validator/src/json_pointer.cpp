#include <gltf_anim/validator/json_pointer.hpp>

namespace gltf_anim::validator {

std::string escape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

void append_pointer_token(std::string& pointer, std::string_view token, std::size_t max_bytes) {
  pointer += '/';
  for (const char c : token) {
    if (pointer.size() >= max_bytes) return;
    pointer += c == '~' ? "~0" : c == '/' ? "~1" : std::string_view(&c, 1);
  }
}

JsonPointer JsonPointer::operator/(std::string_view member) const {
  return JsonPointer(text_ + "/" + escape_pointer_token(member));
}

JsonPointer JsonPointer::operator/(std::size_t index) const {
  return JsonPointer(text_ + "/" + std::to_string(index));
}

}  // namespace gltf_anim::validator
