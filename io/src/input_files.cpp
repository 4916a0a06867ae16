// InputFiles: an output target found among the files a command read.
#include <gltf_anim/io/input_files.hpp>

#include <sys/stat.h>
#include <unistd.h>

namespace gltf_anim::io {

std::optional<FileIdentity> file_identity(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

std::optional<FileIdentity> standard_input_identity() {
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) return std::nullopt;
  return FileIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

void InputFiles::record(FileIdentity id, const std::string& path) {
  if (!watched_ || id != *watched_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!clash_) clash_ = path;
}

void InputFiles::record(const std::filesystem::path& path) {
  if (!watched_) return;
  if (const auto id = file_identity(path)) record(*id, path.string());
}

std::optional<std::string> InputFiles::clash() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return clash_;
}

}  // namespace gltf_anim::io
