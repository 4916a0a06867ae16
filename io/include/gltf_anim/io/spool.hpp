#pragma once
// Bytes written now and read back once, in order: the parts of a report whose
// header counts every asset (JUnit, SARIF) wait here until the end. Held in
// memory up to a bound; past it they go to an unnamed temporary file (removed
// when closed, also on a crash) made in the first folder that takes one: the
// output's own folder when given (it has room for the report anyway), then
// $TMPDIR, then /tmp. A full or unwritable /tmp therefore never loses a report
// whose folder has room; a failure says where and why.
#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

namespace gltf_anim::io {

class Spool {
 public:
  // 1 MiB: a run keeps a window of reports alive besides, and a folder of large
  // reports must stay within HostileBounds.FolderReportsAreStreamed's 40 MB.
  static constexpr std::size_t kDefaultMemoryBytes = std::size_t{1} << 20;
  // `beside`: the folder of the output the bytes are for (empty: none).
  explicit Spool(std::filesystem::path beside = {}, std::size_t memory_bytes = kDefaultMemoryBytes);
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  void put(char c) {
    buffer_ += c;
    if (buffer_.size() >= memory_bytes_) drain();
  }
  void write(std::string_view s) {
    buffer_ += s;
    if (buffer_.size() >= memory_bytes_) drain();
  }
  // Appends everything written so far to `out`. Throws OutputError (a failed
  // read or write of the temporary file, with its folder and reason).
  void copy_to(std::ostream& out);
  // The folder of the temporary file; empty while everything is in memory.
  const std::filesystem::path& folder() const { return folder_; }

 private:
  void drain();  // throws OutputError when no folder takes the file or a write fails

  std::filesystem::path beside_;
  std::size_t memory_bytes_;
  std::string buffer_;  // not yet in the file (everything, while there is none)
  int fd_ = -1;
  std::filesystem::path folder_;
};

}  // namespace gltf_anim::io
