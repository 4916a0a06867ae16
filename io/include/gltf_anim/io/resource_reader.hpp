#pragma once
// Where a library gets the bytes of a file it was pointed at: the one seam
// between the loader (and every reader of files named by data, such as a
// manifest's samples paths) and the system. Like cgltf's file callbacks,
// fastgltf's data getter and glTF-Validator's externalResourceFunction:
// `read(relative path, limit) -> bytes or a refusal with its reason`.
//
// Two readers:
//  - FolderReader: files of one folder on a POSIX system, with every
//    confinement the project promises (docs/RELIABILITY.md): no resolution
//    outside the folder (the kernel's openat2 RESOLVE_BENEATH, through a
//    symlink swapped in included), no blocking on a FIFO or device, only
//    regular files, the size limit checked before any byte is read, each file
//    read once into memory (never mapped: a file another process shrinks would
//    fault), and the identity of every file read recorded for InputFiles;
//  - MemoryReader: a name -> bytes map, for a web page handing over the files
//    a user dropped, and for tests.
// The reader decides what a name means; the caller (the loader) decides what
// a refusal is called in its report, from its Failure kind.
#include <gltf_anim/io/input_files.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::io {

// Owns bytes read from a file or handed over: a heap vector, shared bytes of a
// MemoryReader, or, for large files, anonymous memory (an uninitialised heap block in
// the WebAssembly build) the file was read into (never a mapping of the file itself).
class ByteStorage {
 public:
  static std::unique_ptr<ByteStorage> from_vector(std::vector<std::uint8_t> bytes);
  // Shares bytes kept alive elsewhere (no copy).
  static std::unique_ptr<ByteStorage> from_shared(
      std::shared_ptr<const std::vector<std::uint8_t>> bytes);
  // Views bytes the caller keeps alive for as long as the storage (no copy, nothing owned):
  // a repair tool's input and output, each loaded once without a second copy in memory.
  static std::unique_ptr<ByteStorage> borrow(std::span<const std::uint8_t> bytes);
  ByteStorage(const ByteStorage&) = delete;
  ByteStorage& operator=(const ByteStorage&) = delete;
  ~ByteStorage();
  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

 private:
  friend struct StorageAccess;
  ByteStorage() = default;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::vector<std::uint8_t> owned_;
  std::shared_ptr<const std::vector<std::uint8_t>> shared_;
  void* anonymous_ = nullptr;  // released on destruction when set
  std::size_t anonymous_size_ = 0;
  std::unique_ptr<std::uint8_t[]> block_;
};

// Outcome of reading one resource: bytes, or a refusal with its kind and reason.
struct ReadResult {
  enum class Failure {
    kNone,
    kOpen,         // absent, no permission, a name the system cannot resolve
    kNotRegular,   // a folder, FIFO, socket, device, or a symlink not followed
    kTooLarge,     // `size` bytes, above the limit; nothing was read
    kRead,         // the read itself failed
    kOutsideRoot,  // resolves outside the reader's folder; `detail` names that folder
  };
  std::unique_ptr<ByteStorage> storage;  // null on failure
  Failure failure = Failure::kNone;
  std::string detail;      // the reason as a message says it (strerror text or similar)
  std::uint64_t size = 0;  // the file size when known (kTooLarge)
  std::optional<FileIdentity> identity;  // of the file read, when it is one (fstat)
};

// The seam. Implementations are safe to call from several threads at once.
class ResourceReader {
 public:
  virtual ~ResourceReader() = default;
  // Reads the resource `relative` names: a relative path ('/'-separated,
  // percent-decoding already done), resolved against the reader's base. A
  // resource larger than max_bytes is refused (kTooLarge) before reading.
  virtual ReadResult read(const std::filesystem::path& relative, std::uint64_t max_bytes) const = 0;
  // The folder resources are confined to, as messages name it.
  virtual std::string where() const = 0;
};

// Files beneath a folder. Relative paths resolve against `base` and must stay
// inside `root` (empty: `base`; "../x" is accepted when it is still inside).
// Every file read is recorded in `inputs` when set.
class FolderReader final : public ResourceReader {
 public:
  explicit FolderReader(std::filesystem::path base, std::filesystem::path root = {},
                        InputFiles* inputs = nullptr);
  ReadResult read(const std::filesystem::path& relative, std::uint64_t max_bytes) const override;
  std::string where() const override { return root_.string(); }

 private:
  std::filesystem::path base_;
  std::filesystem::path root_;
  InputFiles* inputs_;
};

// Resources held in memory under their names ("scene.bin", "textures/a.png").
// A name is looked up in its lexically normal form ("a/./b" is "a/b"); one
// that leaves the top ("../x", "/x") is kOutsideRoot, one not held kOpen with
// the text of ENOENT, as a missing file on disk.
class MemoryReader final : public ResourceReader {
 public:
  void add(const std::string& name, std::vector<std::uint8_t> bytes);
  ReadResult read(const std::filesystem::path& relative, std::uint64_t max_bytes) const override;
  std::string where() const override { return "(in-memory resources)"; }

 private:
  std::map<std::string, std::shared_ptr<const std::vector<std::uint8_t>>, std::less<>> files_;
};

// The lexical half of confinement: `relative` is non-empty, relative (no root
// name or directory) and has no ".." component.
bool is_relative_without_dotdot(const std::filesystem::path& relative);

// For a file named by data rather than by the user (a manifest's samples
// paths): `relative` must pass is_relative_without_dotdot, then is read
// through `reader` (a FolderReader keeps it inside its folder, through a
// symlink included). nullopt on failure, with the reason in `why`.
std::optional<std::string> read_file_confined(const ResourceReader& reader,
                                              const std::filesystem::path& relative,
                                              std::uint64_t max_bytes, std::string& why);

// Files named by the user. Opens `path` without blocking (a FIFO returns at
// once), refuses anything but a regular file (fstat on the opened descriptor,
// so no race with a swapped name), refuses files above max_bytes before
// reading, then reads it once (at most the size fstat gave; less if it shrank
// meanwhile). When no_follow is set the last component may not be a symlink.
ReadResult read_regular_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                             bool no_follow);
// Opens `relative` beneath the folder `root` and reads it like
// read_regular_file. The kernel (openat2 RESOLVE_BENEATH) refuses any
// resolution that leaves `root`, even through a symlink swapped in after a
// caller's own path checks (kOutsideRoot). Falls back to an O_NOFOLLOW open
// where openat2 is missing.
ReadResult read_file_beneath(const std::filesystem::path& root,
                             const std::filesystem::path& relative, std::uint64_t max_bytes);

// Test hook: called with the descriptor between fstat and the read, so a test
// can change the file's size at exactly that point. Empty in production.
extern std::function<void(int)> g_after_fstat_for_test;

}  // namespace gltf_anim::io
