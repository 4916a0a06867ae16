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

JsonPointer JsonPointer::operator/(std::string_view member) const {
  return JsonPointer(text_ + "/" + escape_pointer_token(member));
}

JsonPointer JsonPointer::operator/(std::size_t index) const {
  return JsonPointer(text_ + "/" + std::to_string(index));
}

}  // namespace gltf_anim::validator
