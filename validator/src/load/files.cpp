// Reading a file once, safely: no blocking on FIFOs or devices, no size
// surprises, mapped when large so a 300 MB .bin costs no copy.
#include "load/internal.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gltf_anim::validator {

namespace {

// Below this a read() into a vector is as cheap as a mapping and avoids the
// page-granular waste of many small mappings.
constexpr std::uint64_t kMapThreshold = 1u << 20;

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

struct FileOpener {
  static std::unique_ptr<ByteStorage> make() { return std::unique_ptr<ByteStorage>(new ByteStorage()); }
  static void set_mapping(ByteStorage& s, void* map, std::size_t size) {
    s.mapping_ = map;
    s.data_ = static_cast<const std::uint8_t*>(map);
    s.size_ = size;
  }
  static void set_vector(ByteStorage& s, std::vector<std::uint8_t> v) {
    s.owned_ = std::move(v);
    s.data_ = s.owned_.data();
    s.size_ = s.owned_.size();
  }
};

std::unique_ptr<ByteStorage> ByteStorage::from_vector(std::vector<std::uint8_t> bytes) {
  auto s = FileOpener::make();
  FileOpener::set_vector(*s, std::move(bytes));
  return s;
}

ByteStorage::~ByteStorage() {
  if (mapping_ != nullptr) ::munmap(mapping_, size_);
}

ReadResult read_regular_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                             bool no_follow) {
  ReadResult r;
  Fd f;
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
  if (no_follow) flags |= O_NOFOLLOW;
  f.fd = ::open(path.c_str(), flags);
  if (f.fd < 0) {
    r.failure = (errno == ELOOP && no_follow) ? ReadResult::Failure::kNotRegular
                                              : ReadResult::Failure::kOpen;
    r.detail = std::strerror(errno);
    return r;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    r.failure = ReadResult::Failure::kOpen;
    r.detail = std::strerror(errno);
    return r;
  }
  if (!S_ISREG(st.st_mode)) {
    r.failure = ReadResult::Failure::kNotRegular;
    r.detail = "not a regular file";
    return r;
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  r.size = size;
  if (size > max_bytes) {
    r.failure = ReadResult::Failure::kTooLarge;
    return r;
  }
  // Regular files never block; clear O_NONBLOCK anyway so read() semantics are plain.
  ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);

  auto storage = FileOpener::make();
  if (size >= kMapThreshold) {
    void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, f.fd, 0);
    if (map != MAP_FAILED) {
      ::madvise(map, static_cast<std::size_t>(size), MADV_SEQUENTIAL);
      FileOpener::set_mapping(*storage, map, static_cast<std::size_t>(size));
      r.storage = std::move(storage);
      return r;
    }
  }
  // The size came from fstat, which we trust as much as the file itself; the
  // loop still stops at the real end if the file shrank meanwhile, and never
  // reads past `size` if it grew.
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(f.fd, bytes.data() + got, bytes.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      r.failure = ReadResult::Failure::kRead;
      r.detail = std::strerror(errno);
      return r;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  FileOpener::set_vector(*storage, std::move(bytes));
  r.storage = std::move(storage);
  return r;
}

}  // namespace gltf_anim::validator
