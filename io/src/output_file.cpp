// Outputs written to a temporary beside the target and renamed into place.
#include <gltf_anim/io/output_file.hpp>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <streambuf>
#include <system_error>
#include <vector>

#include <gltf_anim/text/words.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gltf_anim::io {

// ---------------------------------------------------------------- FdOstream

class FdOstream::Buffer : public std::streambuf {
 public:
  Buffer(int fd, std::size_t bytes) : fd_(fd), buffer_(bytes == 0 ? 1 : bytes) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n <= epptr() - pptr()) {
      traits_type::copy(pptr(), s, static_cast<std::size_t>(n));
      pbump(static_cast<int>(n));
      return n;
    }
    // Larger than the room left: drain, then write it straight through.
    if (!drain() || !write_all(s, static_cast<std::size_t>(n))) return 0;
    return n;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const auto pending = static_cast<std::size_t>(pptr() - pbase());
    const bool ok = write_all(pbase(), pending);
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return ok;
  }
  bool write_all(const char* p, std::size_t n) {
    if (error_ != 0) return false;
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return false;
      }
      if (w == 0) {  // a zero-byte write of a non-empty buffer: treat as no space
        error_ = ENOSPC;
        return false;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    return true;
  }

  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
};

FdOstream::FdOstream(int fd, std::size_t buffer_bytes)
    : std::ostream(nullptr), buffer_(std::make_unique<Buffer>(fd, buffer_bytes)) {
  rdbuf(buffer_.get());
}

FdOstream::~FdOstream() {
  // Best effort only: callers that care call finish() and look at its answer.
  if (good()) buffer_->pubsync();
}

int FdOstream::finish() {
  if (good()) flush();
  if (buffer_->error() != 0) return buffer_->error();
  return good() ? 0 : EIO;
}

// ---------------------------------------------------------------- OutputFile

namespace {

// Big enough that streamed samples go out in few system calls.
constexpr std::size_t kFileBuffer = std::size_t{1} << 20;

std::atomic<unsigned> g_temp_counter{0};

// The temporaries a signal handler removes: a fixed table, so the handler
// allocates nothing and takes no lock. An entry is claimed (taken), filled,
// then published (live); the handler reads only published entries. More
// outputs at once than entries: the extra ones are just not removed on a signal.
constexpr std::size_t kLiveTemporaries = 64;
struct LiveTemporary {
  std::atomic<bool> taken{false};
  std::atomic<bool> live{false};
  int dir_fd = -1;
  char name[64] = {};
};
LiveTemporary g_live[kLiveTemporaries];
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler reads these");

int register_temporary(int dir_fd, const std::string& name) {
  if (name.size() >= sizeof(LiveTemporary::name)) return -1;
  for (std::size_t i = 0; i < kLiveTemporaries; ++i) {
    bool expected = false;
    if (!g_live[i].taken.compare_exchange_strong(expected, true)) continue;
    g_live[i].dir_fd = dir_fd;
    std::memcpy(g_live[i].name, name.c_str(), name.size() + 1);
    g_live[i].live.store(true, std::memory_order_release);
    return static_cast<int>(i);
  }
  return -1;
}

void unregister_temporary(int& slot) {
  if (slot < 0) return;
  g_live[slot].live.store(false, std::memory_order_release);
  g_live[slot].taken.store(false, std::memory_order_release);
  slot = -1;
}

// While commit_together renames a group of outputs, a handled signal is only noted here,
// and handled when the group is in place (a signal handler may run on any thread, so a
// flag rather than a signal mask).
std::atomic<bool> g_committing{false};
std::atomic<int> g_deferred_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler writes it");

extern "C" void remove_temporaries_and_reraise(int sig) {
  if (g_committing.load(std::memory_order_acquire)) {
    g_deferred_signal.store(sig, std::memory_order_release);
    return;
  }
  const int saved = errno;
  for (auto& t : g_live) {
    if (t.live.load(std::memory_order_acquire)) ::unlinkat(t.dir_fd, t.name, 0);
  }
  errno = saved;
  // SA_RESETHAND restored the default action: the signal ends the process as
  // it would have without this handler (the exit status says which signal).
  ::raise(sig);
}

}  // namespace

void remove_temporaries_on_signals() {
  struct sigaction action {};
  action.sa_handler = remove_temporaries_and_reraise;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    // A signal the parent set to be ignored (nohup, a shell's background job)
    // stays ignored.
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &action, nullptr);
  }
}

OutputFile::OutputFile(const std::filesystem::path& target) : shown_(target.string()) {
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) throw OutputError("cannot write '" + shown_ + "': it is a folder");
    // A device or a pipe (/dev/null, /dev/stdout, a FIFO): written in place.
    // Renaming a temporary over it would replace the device node itself.
    fd_ = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw OutputError("cannot write '" + shown_ + "': " + text::errno_text(errno));
    stream_ = std::make_unique<FdOstream>(fd_, kFileBuffer);
    return;
  }
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : ".";
  name_ = target.filename().string();
  if (name_.empty() || name_ == "." || name_ == "..") {
    throw OutputError("cannot write '" + shown_ + "': not a file name");
  }
  owned_dir_fd_ = ::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (owned_dir_fd_ < 0) {
    throw OutputError("cannot write '" + shown_ + "': folder '" + folder.string() +
                      "': " + text::errno_text(errno));
  }
  dir_fd_ = owned_dir_fd_;
  try {
    open(kFileBuffer);
  } catch (...) {
    ::close(owned_dir_fd_);
    throw;
  }
}

OutputFile::OutputFile(int dir_fd, const std::string& name, const std::string& shown)
    : dir_fd_(dir_fd), name_(name), shown_(shown) {
  open(kFileBuffer);
}

void OutputFile::open(std::size_t buffer_bytes) {
  // Hidden, short (a target name near NAME_MAX still gets a valid temporary
  // name) and unique: pid, a per-process counter and retries on EEXIST.
  // O_EXCL|O_NOFOLLOW: never an existing file, never through a planted link.
  // The name is registered for the signal handler before the file is made: a signal
  // between the two would otherwise leave a temporary no handler knows of (a signal can
  // reach any thread, so masking it here would not close that window). Removing a name
  // not made yet is harmless; a name that exists already (EEXIST) can only be a
  // leftover of an earlier process with this pid, and is unregistered at once.
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_name_ = ".gltf-anim-" + std::to_string(::getpid()) + "-" +
                 std::to_string(g_temp_counter++) + ".tmp";
    live_slot_ = register_temporary(dir_fd_, temp_name_);
    fd_ = ::openat(dir_fd_, temp_name_.c_str(),
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ >= 0) break;
    const int e = errno;
    unregister_temporary(live_slot_);
    if (e != EEXIST) {
      temp_name_.clear();
      throw OutputError("cannot write '" + shown_ + "': " + text::errno_text(e));
    }
  }
  if (fd_ < 0) {
    temp_name_.clear();
    throw OutputError("cannot write '" + shown_ + "': no free temporary name beside it");
  }
  stream_ = std::make_unique<FdOstream>(fd_, buffer_bytes);
}

void OutputFile::fail(const std::string& what, int error) {
  discard();
  throw OutputError(what + " '" + shown_ + "': " + text::errno_text(error));
}

void OutputFile::commit() {
  if (fd_ < 0) throw OutputError("cannot write '" + shown_ + "': already closed");
  if (const int e = stream_->finish(); e != 0) fail("cannot write", e);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {  // NFS and quotas may report a failed write only here
    const int e = errno;
    fail("cannot write", e);
  }
  if (temp_name_.empty()) return;  // written in place (a device or a pipe)
  if (::renameat(dir_fd_, temp_name_.c_str(), dir_fd_, name_.c_str()) != 0) {
    const int e = errno;
    fail("cannot replace", e);
  }
  unregister_temporary(live_slot_);
  temp_name_.clear();
}

void OutputFile::remove_committed_target() {
  if (dir_fd_ >= 0) ::unlinkat(dir_fd_, name_.c_str(), 0);  // never a device written in place
}

void commit_together(std::span<OutputFile* const> files, std::span<const bool> created,
                     const std::function<void()>& between) {
  g_committing.store(true, std::memory_order_release);
  struct HandleDeferred {
    ~HandleDeferred() {
      g_committing.store(false, std::memory_order_release);
      if (const int sig = g_deferred_signal.exchange(0)) remove_temporaries_and_reraise(sig);
    }
  } handle_deferred;
  std::size_t done = 0;
  try {
    for (; done < files.size(); ++done) {
      files[done]->commit();
      if (between && done + 1 < files.size()) between();
    }
  } catch (const OutputError&) {
    for (std::size_t k = 0; k < done; ++k) {
      if (k < created.size() && created[k]) files[k]->remove_committed_target();
    }
    throw;
  }
}

void OutputFile::discard() {
  // The stream stays (a caller may still hold it) but goes bad: nothing more
  // reaches the descriptor.
  if (stream_) stream_->setstate(std::ios::badbit);
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!temp_name_.empty()) {
    ::unlinkat(dir_fd_, temp_name_.c_str(), 0);
    temp_name_.clear();
  }
  unregister_temporary(live_slot_);
}

OutputFile::~OutputFile() {
  discard();
  if (owned_dir_fd_ >= 0) ::close(owned_dir_fd_);
}

void write_output_file(const std::filesystem::path& target, const std::string& bytes) {
  OutputFile out(target);
  out.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.commit();
}

}  // namespace gltf_anim::io
