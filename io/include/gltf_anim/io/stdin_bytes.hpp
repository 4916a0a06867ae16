#pragma once
// Standard input of a command, read once into memory: the process's file
// descriptor 0 and Linux's mremap, so it lives in io/; the library takes the
// bytes as a span (validator::StandardInput), wherever a caller got them.
#include <cstddef>
#include <cstdint>
#include <span>

namespace gltf_anim::io {

// Standard input, read up to `cap` bytes into anonymous memory that grows in
// place (mremap), so the bytes are held once: a doubling vector would hold up
// to three times the input while it copies. Holds at most `cap` bytes: at the
// limit one more byte is read aside, and too_large() says it came.
class StdinBytes {
 public:
  StdinBytes() = default;
  StdinBytes(const StdinBytes&) = delete;
  StdinBytes& operator=(const StdinBytes&) = delete;
  ~StdinBytes() { release(); }
  // False with errno on a read or allocation failure.
  bool read_all(std::uint64_t cap);
  std::span<const std::uint8_t> bytes() const {
    return {static_cast<const std::uint8_t*>(data_), size_};
  }
  void release();
  bool too_large() const { return over_; }

 private:
  bool grow(std::size_t capacity);

  void* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  bool over_ = false;
};

}  // namespace gltf_anim::io
