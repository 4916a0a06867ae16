#include <gltf_anim/gltf/json_pointer.hpp>

namespace gltf_anim::gltf {

void append_pointer_token(std::string& out, std::string_view token) {
  for (const char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
}

std::string escape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  append_pointer_token(out, token);
  return out;
}

JsonPointer JsonPointer::operator/(std::string_view member) const {
  return JsonPointer(text_ + "/" + escape_pointer_token(member));
}

JsonPointer JsonPointer::operator/(std::size_t index) const {
  return JsonPointer(text_ + "/" + std::to_string(index));
}

}  // namespace gltf_anim::gltf
