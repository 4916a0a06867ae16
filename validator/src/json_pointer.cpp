#include <gltf_anim/gltf/edit.hpp>
#include <gltf_anim/validator/json_pointer.hpp>

namespace gltf_anim::validator {

// RFC 6901's escaping has one home: the glTF text module's (gltf/edit.hpp).
std::string escape_pointer_token(std::string_view token) { return gltf::pointer_token(token); }

JsonPointer JsonPointer::operator/(std::string_view member) const {
  return JsonPointer(text_ + "/" + escape_pointer_token(member));
}

JsonPointer JsonPointer::operator/(std::size_t index) const {
  return JsonPointer(text_ + "/" + std::to_string(index));
}

}  // namespace gltf_anim::validator
