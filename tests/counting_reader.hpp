#pragma once
// A MemoryReader that counts the reads of each name, for the tests that prove a library
// function on memory asks for each file once (compare may read on several threads).
#include <gltf_anim/io/resource_reader.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gltf_anim::test_support {

class CountingReader final : public io::ResourceReader {
 public:
  void add(const std::string& name, std::vector<std::uint8_t> bytes) { files_.add(name, std::move(bytes)); }
  void add(const std::string& name, const std::string& text) {
    files_.add(name, std::vector<std::uint8_t>(text.begin(), text.end()));
  }
  io::ReadResult read(const std::filesystem::path& relative, std::uint64_t max_bytes) const override {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      ++reads_[relative.generic_string()];
    }
    return files_.read(relative, max_bytes);
  }
  std::string where() const override { return files_.where(); }
  std::map<std::string, int> reads() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return reads_;
  }

 private:
  io::MemoryReader files_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, int> reads_;
};

}  // namespace gltf_anim::test_support
