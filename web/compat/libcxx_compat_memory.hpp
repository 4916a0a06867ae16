#pragma once
// std::make_unique_for_overwrite for the wasm build: libc++ 13 lacks it (see libcxx_compat.hpp).
// Included only in the files of the modules that use it (web/CMakeLists.txt: samples), so
// that adding it did not rebuild every file of the wasm build.
#include <cstddef>
#include <memory>
#include <type_traits>

#if !defined(__cpp_lib_smart_ptr_for_overwrite)
namespace std {

// Arrays of unknown bound only (the one form used): default-initialised, not zeroed.
template <class T>
  requires is_unbounded_array_v<T>
unique_ptr<T> make_unique_for_overwrite(size_t n) {
  return unique_ptr<T>(new remove_extent_t<T>[n]);
}

}  // namespace std
#endif
