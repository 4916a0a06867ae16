// A tiny downstream project: uses the installed headers and libraries.
#include <gltf_anim/reference/normalized.hpp>
#include <gltf_anim/validator/json_pointer.hpp>
#include <gltf_anim/version.hpp>

#include <cstdint>
#include <iostream>

int main() {
  using gltf_anim::validator::JsonPointer;
  const std::string p = (JsonPointer() / "animations" / 0 / "a/b~c").str();
  const double v = gltf_anim::reference::decode_normalized(static_cast<std::int8_t>(-128));
  std::cout << gltf_anim::kGenerator << " " << p << " " << v << "\n";
  return (p == "/animations/0/a~1b~0c" && v == -1.0) ? 0 : 1;
}
