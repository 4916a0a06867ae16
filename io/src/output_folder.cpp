// OutputFolder (output_file.hpp): folders held open as O_PATH descriptors.
#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/text/words.hpp>

#include <cerrno>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gltf_anim::io {

OutputFolder OutputFolder::open(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw std::runtime_error("cannot create " + path.string() + ": " + ec.message());
  const int fd = ::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    throw std::runtime_error("cannot open folder " + path.string() + ": " +
                             text::errno_text(errno));
  }
  return OutputFolder(fd, path.string());
}

OutputFolder OutputFolder::subfolder(const std::string& name) const {
  const std::string shown = shown_ + "/" + name;
  if (::mkdirat(fd_, name.c_str(), 0777) != 0 && errno != EEXIST) {
    throw std::runtime_error("cannot create " + shown + ": " + text::errno_text(errno));
  }
  // O_NOFOLLOW: a symlink planted under the name is refused, never followed.
  const int fd = ::openat(fd_, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    throw std::runtime_error("cannot open folder " + shown + ": " +
                             (e == ELOOP || e == ENOTDIR
                                  ? std::string("not a folder (a symlink or a file)")
                                  : text::errno_text(e)));
  }
  return OutputFolder(fd, shown);
}

OutputFolder::OutputFolder(OutputFolder&& other) noexcept
    : fd_(other.fd_), shown_(std::move(other.shown_)) {
  other.fd_ = -1;
}

OutputFolder::~OutputFolder() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace gltf_anim::io
