// The spool: an unnamed temporary file (std::tmpfile), or memory.
#include "spool.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gltf_anim::reports::detail {

Spool::Spool() : file_(std::tmpfile()) {}

void Spool::copy_to(std::ostream& out) {
  if (file_ != nullptr) {
    drain();
    if (std::fflush(file_) != 0) fail();
    std::rewind(file_);
    std::string block(kBlock, '\0');
    while (const std::size_t n = std::fread(block.data(), 1, block.size(), file_)) {
      out.write(block.data(), static_cast<std::streamsize>(n));
    }
    if (std::ferror(file_)) fail();
  }
  out << buffer_;
}

void Spool::drain() {
  if (file_ == nullptr) return;  // everything stays in buffer_
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) fail();
  buffer_.clear();
}

void Spool::fail() {
  throw std::runtime_error(std::string("temporary file for the report: ") + std::strerror(errno));
}

}  // namespace gltf_anim::reports::detail
