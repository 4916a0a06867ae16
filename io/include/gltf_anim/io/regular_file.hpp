#pragma once
// A regular file named by the user, kept open and read in pieces at any offset:
// for an input read more than once and too large to hold whole (`gltf-anim
// merge` reads each report twice, a piece at a time). Opened with
// read_regular_file's checks.
#include <gltf_anim/io/resource_reader.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>

namespace gltf_anim::io {

class RegularFile {
 public:
  // Opens `path` without blocking (a FIFO returns at once), refuses anything
  // but a regular file and a file above max_bytes before reading any byte, as
  // read_regular_file does. Null with `refusal` (its failure, detail, size) set
  // otherwise.
  static std::unique_ptr<RegularFile> open(const std::filesystem::path& path,
                                           std::uint64_t max_bytes, ReadResult& refusal);
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;
  ~RegularFile();
  // The size fstat gave when it was opened.
  std::uint64_t size() const { return size_; }
  FileIdentity identity() const { return identity_; }
  // Reads up to `n` bytes at `offset` into `into`: how many, 0 past the end.
  // -1 with errno set when the read fails.
  std::ptrdiff_t read_at(std::uint64_t offset, void* into, std::size_t n) const;

 private:
  RegularFile() = default;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  FileIdentity identity_{};
};

}  // namespace gltf_anim::io
