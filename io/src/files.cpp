// Reading a file once, safely: no blocking on FIFOs or devices, no size
// surprises. Files are read into memory, never mapped: a mapped file that
// another process shrinks faults (SIGBUS) on the next access to a page past
// its new end, anywhere in the rules; a read() of a shrinking file just ends
// early. docs/PERFORMANCE.md has the cost of the copy.
#include <gltf_anim/io/regular_file.hpp>
#include <gltf_anim/io/resource_reader.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <new>
#include <system_error>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gltf_anim/text/words.hpp>

namespace gltf_anim::io {

using text::errno_text;

namespace {

// From this size on, the bytes go to their own anonymous mapping (huge pages);
// below it a vector is as cheap.
constexpr std::uint64_t kAnonymousThreshold = std::uint64_t{1} << 20;

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::function<void(int)> g_after_fstat_for_test;

struct StorageAccess {
  static std::unique_ptr<ByteStorage> make() {
    return std::unique_ptr<ByteStorage>(new ByteStorage());
  }
  static void set_anonymous(ByteStorage& s, void* map, std::size_t size) {
    s.anonymous_ = map;
    s.anonymous_size_ = size;
    s.data_ = static_cast<const std::uint8_t*>(map);
    s.size_ = size;
  }
  static void set_block(ByteStorage& s, std::unique_ptr<std::uint8_t[]> block, std::size_t size) {
    s.data_ = block.get();
    s.size_ = size;
    s.block_ = std::move(block);
  }
  // The file ended before the size fstat gave (it shrank while being read).
  static void shrink(ByteStorage& s, std::size_t size) { s.size_ = std::min(s.size_, size); }
  static void set_vector(ByteStorage& s, std::vector<std::uint8_t> v) {
    s.owned_ = std::move(v);
    s.data_ = s.owned_.data();
    s.size_ = s.owned_.size();
  }
};

std::unique_ptr<ByteStorage> ByteStorage::from_vector(std::vector<std::uint8_t> bytes) {
  auto s = StorageAccess::make();
  StorageAccess::set_vector(*s, std::move(bytes));
  return s;
}

std::unique_ptr<ByteStorage> ByteStorage::from_shared(
    std::shared_ptr<const std::vector<std::uint8_t>> bytes) {
  auto s = StorageAccess::make();
  s->data_ = bytes->data();
  s->size_ = bytes->size();
  s->shared_ = std::move(bytes);
  return s;
}

std::unique_ptr<ByteStorage> ByteStorage::borrow(std::span<const std::uint8_t> bytes) {
  auto s = StorageAccess::make();
  s->data_ = bytes.data();
  s->size_ = bytes.size();
  return s;
}

ByteStorage::~ByteStorage() {
  if (anonymous_ != nullptr) ::munmap(anonymous_, anonymous_size_);
}

namespace {

// The checks before any byte of an opened descriptor is read: a regular file
// of at most max_bytes. False with `r`'s failure set otherwise; r.size and
// r.identity are set when fstat succeeded.
bool check_opened(int fd, std::uint64_t max_bytes, ReadResult& r) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    r.failure = ReadResult::Failure::kOpen;
    r.detail = errno_text(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    r.failure = ReadResult::Failure::kNotRegular;
    r.detail = S_ISDIR(st.st_mode)    ? errno_text(EISDIR)
               : S_ISFIFO(st.st_mode) ? "Is a FIFO (named pipe), not a regular file"
               : S_ISSOCK(st.st_mode) ? "Is a socket, not a regular file"
                                      : "Is a device, not a regular file";
    return false;
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  r.size = size;
  r.identity =
      FileIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
  if (size > max_bytes) {
    r.failure = ReadResult::Failure::kTooLarge;
    return false;
  }
  // Regular files never block; clear O_NONBLOCK anyway so read() semantics are plain.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return true;
}

// Checks and reads an already opened descriptor (owned by the caller).
ReadResult read_opened(int fd, std::uint64_t max_bytes) {
  ReadResult r;
  if (!check_opened(fd, max_bytes, r)) return r;
  const std::uint64_t size = r.size;

  if (g_after_fstat_for_test) g_after_fstat_for_test(fd);

  auto storage = StorageAccess::make();
  std::uint8_t* target = nullptr;
  std::vector<std::uint8_t> bytes;
  if (size > std::numeric_limits<std::size_t>::max()) {  // wasm32: past 4 GiB
    r.failure = ReadResult::Failure::kTooLarge;
    return r;
  }
  if (size >= kAnonymousThreshold) {
#if defined(__EMSCRIPTEN__)
    // emscripten's anonymous mmap is an allocation plus a memset that zero-fills it, a
    // loop in wasm: 1.2 s of a page's 1.6 s on a 342 MB asset. A heap block left
    // uninitialised is filled by the read alone (docs/PERFORMANCE.md).
    std::unique_ptr<std::uint8_t[]> block(new (std::nothrow) std::uint8_t[static_cast<std::size_t>(size)]);
    if (block) {
      target = block.get();
      StorageAccess::set_block(*storage, std::move(block), static_cast<std::size_t>(size));
    }
#else
    // Anonymous memory (not the file: truncation cannot take it away), on huge
    // pages where the system allows: 170 page faults instead of 83,000 for
    // 340 MB, and no zero-filling pass before the read.
    void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map != MAP_FAILED) {
      ::madvise(map, static_cast<std::size_t>(size), MADV_HUGEPAGE);
      StorageAccess::set_anonymous(*storage, map, static_cast<std::size_t>(size));
      target = static_cast<std::uint8_t*>(map);
    }
#endif
  }
  if (target == nullptr) {
    bytes.resize(static_cast<std::size_t>(size));
    target = bytes.data();
  }
  // The size came from fstat; the loop still stops at the real end if the file
  // shrank meanwhile, and never reads past `size` if it grew.
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, target + got, static_cast<std::size_t>(size) - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      r.failure = ReadResult::Failure::kRead;
      r.detail = errno_text(errno);
      return r;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (storage->bytes().data() != nullptr) {
    StorageAccess::shrink(*storage, got);
  } else {
    bytes.resize(got);
    StorageAccess::set_vector(*storage, std::move(bytes));
  }
  r.storage = std::move(storage);
  return r;
}

ReadResult open_failure(bool refused_link) {
  ReadResult r;
  r.failure = refused_link ? ReadResult::Failure::kNotRegular : ReadResult::Failure::kOpen;
  // O_NOFOLLOW fails with ELOOP, whose text ("Too many levels of symbolic
  // links") would mislead.
  r.detail = refused_link ? "Is a symbolic link (not followed)" : errno_text(errno);
  return r;
}

}  // namespace

// O_NONBLOCK everywhere: opening a FIFO for reading would otherwise wait for a writer.
constexpr int kOpenFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;

ReadResult read_regular_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                             bool no_follow) {
  Fd f;
  f.fd = ::open(path.c_str(), kOpenFlags | (no_follow ? O_NOFOLLOW : 0));
  if (f.fd < 0) return open_failure(errno == ELOOP && no_follow);
  return read_opened(f.fd, max_bytes);
}

ReadResult read_file_beneath(const std::filesystem::path& root,
                             const std::filesystem::path& relative, std::uint64_t max_bytes) {
  Fd dir;
  dir.fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir.fd < 0) return open_failure(false);
  open_how how{};
  how.flags = static_cast<std::uint64_t>(kOpenFlags);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  Fd f;
  f.fd = static_cast<int>(::syscall(SYS_openat2, dir.fd, relative.c_str(), &how, sizeof how));
  if (f.fd < 0) {
    if (errno == ENOSYS || errno == EPERM) {
      // Kernels before 5.6 (or seccomp filters) lack openat2: the caller's
      // canonical-path check stands, and the last component may not be a link.
      return read_regular_file(root / relative, max_bytes, /*no_follow=*/true);
    }
    if (errno == EXDEV) {
      ReadResult r;
      r.failure = ReadResult::Failure::kOutsideRoot;
      r.detail = "resolves outside the root";
      return r;
    }
    return open_failure(false);
  }
  return read_opened(f.fd, max_bytes);
}


std::unique_ptr<RegularFile> RegularFile::open(const std::filesystem::path& path,
                                               std::uint64_t max_bytes, ReadResult& refusal) {
  Fd f;
  f.fd = ::open(path.c_str(), kOpenFlags);
  if (f.fd < 0) {
    refusal = open_failure(false);
    return nullptr;
  }
  refusal = ReadResult{};
  if (!check_opened(f.fd, max_bytes, refusal)) return nullptr;
  std::unique_ptr<RegularFile> file(new RegularFile());
  file->size_ = refusal.size;
  file->identity_ = *refusal.identity;
  file->fd_ = f.fd;
  f.fd = -1;  // the RegularFile owns it now
  return file;
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::ptrdiff_t RegularFile::read_at(std::uint64_t offset, void* into, std::size_t n) const {
  if (offset > static_cast<std::uint64_t>(std::numeric_limits<off_t>::max())) return 0;
  for (;;) {
    const ssize_t got = ::pread(fd_, into, n, static_cast<off_t>(offset));
    if (got >= 0 || errno != EINTR) return got;
  }
}

}  // namespace gltf_anim::io
