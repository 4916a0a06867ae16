#pragma once
// std::ostringstream::view() for the wasm build: libc++ 13 lacks it (see libcxx_compat.hpp).
// A member cannot be added to a standard class, so in the one file that calls it
// (web/CMakeLists.txt: reports/src/validation_ci.cpp) `ostringstream` names a derived class
// with view(). No header of that file passes an ostringstream across files, so nothing
// outside it sees the other name. view() returns a copy's view (valid until the next call or
// write), where C++20's view() needs none: linear all the same.
#include <sstream>
#include <string>
#include <string_view>

#if !defined(__cpp_lib_sstream_view) && !defined(GLTF_ANIM_COMPAT_SSTREAM_VIEW)
#define GLTF_ANIM_COMPAT_SSTREAM_VIEW 1
namespace std {

class gltf_anim_ostringstream : public basic_ostringstream<char> {
 public:
  using basic_ostringstream<char>::basic_ostringstream;
  string_view view() const {
    copy_ = str();
    return copy_;
  }

 private:
  mutable string copy_;
};

}  // namespace std
#define ostringstream gltf_anim_ostringstream
#endif
