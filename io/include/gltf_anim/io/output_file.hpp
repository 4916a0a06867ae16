#pragma once
// Files a command writes, and the inputs an output must never replace. Used by
// every command of the CLI and by the suite generator, so that one rule holds
// everywhere (docs/RELIABILITY.md "Outputs and I/O failures"):
//  - an output is written to a temporary file created exclusively beside its
//    target (same folder, so the final rename is atomic), every write checked,
//    closed with its error checked, and renamed over the target only then; on
//    any failure or exception the temporary is removed and the target is left
//    as it was. rename() replaces a symlink at the target itself, never the
//    file it points to;
//  - a write error keeps its reason (errno: ENOSPC, EFBIG with SIGXFSZ
//    ignored, EIO...) so the command can say why;
//  - InputFiles watches for the output target among the files a command reads
//    (device and inode: a hard link or a symlink to an input is that input).
#include <gltf_anim/io/input_files.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>

namespace gltf_anim::io {

// An I/O failure with its reason, e.g. "cannot write 'out.json': No space left on device".
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An ostream over a file descriptor (not owned) that keeps the errno of the
// first failed write; the stream goes bad at that point. Large writes bypass
// the buffer.
class FdOstream : public std::ostream {
 public:
  explicit FdOstream(int fd, std::size_t buffer_bytes = std::size_t{1} << 16);
  FdOstream(const FdOstream&) = delete;
  FdOstream& operator=(const FdOstream&) = delete;
  ~FdOstream() override;
  // Flushes; returns 0, or the errno of the first failure (EIO when the stream
  // was failed by its writer without an errno).
  int finish();

 private:
  class Buffer;
  std::unique_ptr<Buffer> buffer_;
};

// A folder held open for writing files in it (OutputFile(folder.fd(), ...)):
// whatever is renamed over its path afterwards, files go where it was opened.
class OutputFolder {
 public:
  // The folder the user named, created with its parents if missing (a symlink
  // they name is theirs to follow). Throws std::runtime_error with the reason.
  static OutputFolder open(const std::filesystem::path& path);
  // `name` (one component) inside this folder, created if missing; refused
  // when it is a symlink or not a folder. Throws std::runtime_error.
  OutputFolder subfolder(const std::string& name) const;

  OutputFolder(OutputFolder&& other) noexcept;
  OutputFolder& operator=(OutputFolder&&) = delete;
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  ~OutputFolder();

  int fd() const { return fd_; }
  const std::string& shown() const { return shown_; }  // its path in messages

 private:
  OutputFolder(int fd, std::string shown) : fd_(fd), shown_(std::move(shown)) {}
  int fd_ = -1;
  std::string shown_;
};

// A file being written: a temporary beside the target until commit().
class OutputFile {
 public:
  // The temporary goes in the folder of `target` ("." when it has none).
  // An existing target that is not a regular file (/dev/null, /dev/stdout, a
  // FIFO) is written in place: renaming over it would replace the device node.
  // Throws OutputError (folder missing, not writable, target a folder...).
  explicit OutputFile(const std::filesystem::path& target);
  // In the folder open as `dir_fd` (not owned; keep it open until commit),
  // under the single component `name`: with a folder opened O_NOFOLLOW nothing
  // here goes through a symlink. `shown` names the target in messages.
  OutputFile(int dir_fd, const std::string& name, const std::string& shown);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Not committed: the temporary is removed, the target untouched.
  ~OutputFile();

  std::ostream& stream() { return *stream_; }
  // Flushes and closes the temporary (every error checked), then renames it
  // over the target. Throws OutputError with the reason; the temporary is gone
  // either way.
  void commit();
  // Removes the temporary without touching the target.
  void discard();

 private:
  friend void commit_together(std::span<OutputFile* const>, std::span<const bool>,
                              const std::function<void()>&);
  // After commit(): removes the target it renamed into place.
  void remove_committed_target();
  void open(std::size_t buffer_bytes);
  [[noreturn]] void fail(const std::string& what, int error);

  int owned_dir_fd_ = -1;
  int dir_fd_ = -1;
  std::string name_;
  std::string shown_;
  std::string temp_name_;
  int fd_ = -1;
  int live_slot_ = -1;  // this temporary's entry in the signal handlers' registry
  std::unique_ptr<FdOstream> stream_;
};

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temporary
// of every OutputFile not yet committed or discarded (a fixed registry,
// walked with async-signal-safe calls only), then end the process by the same
// signal, as if no handler had been installed. For a command's main().
void remove_temporaries_on_signals();

// Commits `files` in order as one output (the buffers, then the asset that names them).
// A SIGINT, SIGTERM or SIGHUP that comes while the renames run is held until the last
// one is done, then handled as remove_temporaries_on_signals() says: so an interruption
// leaves either no target touched or every file in place, never buffers without their
// asset. When a commit fails, the targets renamed before it that did not exist before
// (`created[k]` for files[k]) are removed again and the OutputError is rethrown.
// `between`, when set, runs after each rename but the last (a test's interruption).
void commit_together(std::span<OutputFile* const> files, std::span<const bool> created,
                     const std::function<void()>& between = {});

// Writes `bytes` to `target` through an OutputFile. Throws OutputError.
void write_output_file(const std::filesystem::path& target, const std::string& bytes);

}  // namespace gltf_anim::io
