#pragma once
// The C++20 library pieces that the wasm build's standard library lacks. Emscripten 3.1.6
// (Debian 12) ships libc++ 13: no std::bit_cast, no std::jthread, and std::from_chars / std::to_chars for
// integers only, while the libraries read and write every JSON number with the
// floating-point overloads. web/cmake/wasm.cmake includes this header in every file of the
// wasm build (never in the native one), so the library code stays as the standard writes it;
// each piece steps aside when the library has it (its feature-test macro).
//
// The answers are libstdc++'s, byte for byte: reading is fast_float (Debian's
// libfast-float-dev, the algorithm libstdc++ 12 itself uses) with libstdc++'s range errors;
// writing is the project's shortest round-trip writer (text/src/shortest_double.cpp),
// which reproduces libstdc++'s plain to_chars exactly.
#include <bit>
#include <charconv>
#include <thread>
#include <utility>

namespace std {

#if !defined(__cpp_lib_bit_cast)
template <class To, class From>
[[nodiscard]] constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}
#endif

#if !defined(__cpp_lib_jthread)
// What the libraries use of std::jthread: a thread joined when it is destroyed (no stop
// token). The wasm build is single-threaded: starting one throws std::system_error, as
// std::thread does there.
class jthread {
 public:
  jthread() noexcept = default;
  template <class F, class... Args>
  explicit jthread(F&& f, Args&&... args) : t_(std::forward<F>(f), std::forward<Args>(args)...) {}
  jthread(jthread&&) noexcept = default;
  jthread& operator=(jthread&& other) noexcept {
    if (t_.joinable()) t_.join();
    t_ = std::move(other.t_);
    return *this;
  }
  ~jthread() {
    if (t_.joinable()) t_.join();
  }
  bool joinable() const noexcept { return t_.joinable(); }
  void join() { t_.join(); }

 private:
  thread t_;
};
#endif

#if !defined(__cpp_lib_to_chars)
from_chars_result from_chars(const char* first, const char* last, double& value,
                             chars_format fmt = chars_format::general) noexcept;
to_chars_result to_chars(char* first, char* last, double value) noexcept;
#endif

}  // namespace std
