#include <gltf_anim/io/stdin_bytes.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace gltf_anim::io {

bool StdinBytes::read_all(std::uint64_t cap) {
  constexpr std::size_t kFirst = std::size_t{1} << 20;
  for (;;) {
    if (size_ == capacity_) {
      if (size_ >= cap) {
        // At the limit: one more byte says "too large" (refused later) without
        // growing the memory past the limit for it.
        char probe = 0;
        ssize_t n = 0;
        do n = ::read(0, &probe, 1);
        while (n < 0 && errno == EINTR);
        if (n < 0) return false;
        over_ = n > 0;
        return true;
      }
      const std::uint64_t want =
          std::min<std::uint64_t>(std::max<std::uint64_t>(capacity_ * 2, kFirst), cap);
      if (!grow(static_cast<std::size_t>(want))) return false;
    }
    const ssize_t n = ::read(0, static_cast<char*>(data_) + size_, capacity_ - size_);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) return true;
    size_ += static_cast<std::size_t>(n);
  }
}

void StdinBytes::release() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
  data_ = nullptr;
  size_ = capacity_ = 0;
}

bool StdinBytes::grow(std::size_t capacity) {
  void* p = data_ == nullptr ? ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                             : ::mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) return false;
  data_ = p;
  capacity_ = capacity;
  return true;
}

}  // namespace gltf_anim::io
