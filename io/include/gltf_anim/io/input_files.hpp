#pragma once
// The inputs an output must never replace (docs/RELIABILITY.md "Outputs and
// I/O failures"): InputFiles watches for the output target among the files a
// command reads, by device and inode, so a hard link or a symlink to an input
// is that input.
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

namespace gltf_anim::io {

// What makes two names the same file.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  bool operator==(const FileIdentity&) const = default;
};

// stat() of `path`, following symlinks; nullopt when it cannot be stat'ed
// (absent, dangling link, no permission).
std::optional<FileIdentity> file_identity(const std::filesystem::path& path);
// The identity of what standard input is open on (a file, a pipe); nullopt if fstat fails.
std::optional<FileIdentity> standard_input_identity();

// Watches for one file (an existing output target) among the files a command
// reads. Readers call record() with the identity of every file they opened;
// only a match is kept, so memory does not grow with the number of inputs.
// Thread-safe.
class InputFiles {
 public:
  InputFiles() = default;
  explicit InputFiles(std::optional<FileIdentity> watched) : watched_(watched) {}
  void record(FileIdentity id, const std::string& path);
  // Stats `path` (following links) and records it; nothing when it cannot be stat'ed.
  void record(const std::filesystem::path& path);
  // The first recorded input that is the watched file, if any.
  std::optional<std::string> clash() const;

 private:
  std::optional<FileIdentity> watched_;
  mutable std::mutex mutex_;
  std::optional<std::string> clash_;
};

}  // namespace gltf_anim::io
