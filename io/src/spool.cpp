// The spool: memory up to a bound, then an unnamed file beside the output,
// in $TMPDIR or in /tmp (never std::tmpfile, which ignores TMPDIR).
#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/io/spool.hpp>

#include <gltf_anim/text/words.hpp>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace gltf_anim::io {

namespace fs = std::filesystem;

namespace {

// An unnamed file in `folder`: O_TMPFILE where the file system has it, else a
// unique name removed at once. -1 with errno on failure.
int unnamed_file_in(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR)) return fd;
  std::string name = (folder / ".gltf-anim-spool-XXXXXX").string();
  const int named = ::mkostemp(name.data(), O_CLOEXEC);
  if (named >= 0) ::unlink(name.c_str());
  return named;
}

}  // namespace

Spool::Spool(fs::path beside, std::size_t memory_bytes)
    : beside_(std::move(beside)), memory_bytes_(memory_bytes == 0 ? 1 : memory_bytes) {}

Spool::~Spool() {
  if (fd_ >= 0) ::close(fd_);
}

void Spool::drain() {
  if (fd_ < 0) {
    std::vector<fs::path> folders;
    if (!beside_.empty()) folders.push_back(beside_);
    if (const char* tmpdir = std::getenv("TMPDIR"); tmpdir != nullptr && *tmpdir != '\0') {
      folders.emplace_back(tmpdir);
    }
    folders.emplace_back("/tmp");
    std::string tried;
    for (const fs::path& f : folders) {
      fd_ = unnamed_file_in(f);
      if (fd_ >= 0) {
        folder_ = f;
        break;
      }
      tried += (tried.empty() ? "" : "; ") + f.string() + ": " + text::errno_text(errno);
    }
    if (fd_ < 0) throw OutputError("no folder takes the report's temporary file (" + tried + ")");
  }
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw OutputError("cannot write the report's temporary file in '" + folder_.string() +
                        "': " + text::errno_text(n < 0 ? errno : EIO));
    }
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void Spool::copy_to(std::ostream& out) {
  if (fd_ >= 0) {
    drain();
    std::string block(std::size_t{1} << 16, '\0');
    for (off_t at = 0;;) {
      const ssize_t n = ::pread(fd_, block.data(), block.size(), at);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        throw OutputError("cannot read the report's temporary file in '" + folder_.string() +
                          "': " + text::errno_text(errno));
      }
      if (n == 0) break;
      out.write(block.data(), n);
      at += n;
    }
  }
  out << buffer_;
}

}  // namespace gltf_anim::io
