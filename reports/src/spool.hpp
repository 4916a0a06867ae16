#pragma once
// The spool of the JUnit and SARIF writers: their headers count every asset,
// so the per-asset parts are held here until end().
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>

namespace gltf_anim::reports::detail {

// Bytes written now and read back once, in order: an unnamed temporary file
// (std::tmpfile: removed when closed, also on a crash), or memory when no
// temporary file can be made. A failed write throws with the reason.
class Spool {
 public:
  Spool();
  ~Spool() {
    if (file_ != nullptr) std::fclose(file_);
  }
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  void put(char c) {
    buffer_ += c;
    if (buffer_.size() >= kBlock) drain();
  }
  void write(std::string_view s) {
    buffer_ += s;
    if (buffer_.size() >= kBlock) drain();
  }
  // Appends everything written so far to `out`.
  void copy_to(std::ostream& out);

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 16;
  void drain();
  [[noreturn]] static void fail();

  std::FILE* file_;
  std::string buffer_;  // not yet in file_ (everything, when there is no file)
};

}  // namespace gltf_anim::reports::detail
