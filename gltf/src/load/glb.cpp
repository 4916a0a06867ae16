// The GLB container (glTF 2.0 "GLB File Format Specification"): a 12-byte
// header, then chunks of {uint32 length, uint32 type, data}. Every length read
// from the file is compared against what remains (cgltf's pattern); untrusted
// lengths are never added to one another, so no sum can wrap.
#include "load/internal.hpp"

#include <cstring>
#include <sstream>

namespace gltf_anim::gltf {

namespace {

constexpr std::uint64_t kHeaderLength = 12;
constexpr std::uint64_t kChunkHeaderLength = 8;

std::uint32_t read_u32(std::span<const std::uint8_t> bytes, std::uint64_t at) {
  std::uint32_t v;
  std::memcpy(&v, bytes.data() + at, 4);  // little-endian host (static_assert in accessor.hpp)
  return v;
}

std::string hex(std::uint32_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uppercase;
  s.width(8);
  s.fill('0');
  s << v;
  return s.str();
}

}  // namespace

bool looks_like_glb(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= 4 && read_u32(bytes, 0) == kGlbMagic;
}

void report_missing_glb_magic(std::span<const std::uint8_t> bytes, IssueCollector& issues) {
  if (bytes.size() < 4) {
    issues.add_at_offset("GLB_UNEXPECTED_END_OF_HEADER", bytes.size());
    return;
  }
  issues.add_at_offset("GLB_INVALID_MAGIC", 0, {hex(read_u32(bytes, 0)), describe_binary(bytes)});
}

GlbChunks read_glb(std::span<const std::uint8_t> bytes, IssueCollector& issues) {
  GlbChunks out;
  const std::uint64_t size = bytes.size();
  if (size < kHeaderLength) {
    issues.add_at_offset("GLB_UNEXPECTED_END_OF_HEADER", size);
    return out;
  }
  if (const std::uint32_t magic = read_u32(bytes, 0); magic != kGlbMagic) {
    issues.add_at_offset("GLB_INVALID_MAGIC", 0, {hex(magic), describe_binary(bytes)});
    return out;
  }
  if (const std::uint32_t version = read_u32(bytes, 4); version != 2) {
    // Another container version may lay out chunks differently: stop here.
    issues.add_at_offset("GLB_INVALID_VERSION", 4, {std::to_string(version)});
    return out;
  }
  out.header_ok = true;
  const std::uint64_t declared = read_u32(bytes, 8);
  if (declared < kHeaderLength + kChunkHeaderLength) {
    issues.add_at_offset("GLB_LENGTH_TOO_SMALL", 8, {std::to_string(declared)});
  } else if (declared > size) {
    issues.add_at_offset("GLB_LENGTH_MISMATCH", 8,
                         {std::to_string(declared), std::to_string(size)});
  }
  // Chunks are read within the declared length when it is sane and fits the
  // file; bytes beyond it are not part of the GLB.
  const std::uint64_t end =
      (declared >= kHeaderLength + kChunkHeaderLength && declared <= size) ? declared : size;
  // Bytes after a GLB whose header is whole are no defect of the GLB itself
  // (it ends at `length`, "the total length of the Binary glTF"): a warning
  // after the chunks, as glTF-Validator's GLB_EXTRA_DATA.
  const auto done = [&] {
    if (end < size) issues.add_at_offset("GLB_EXTRA_DATA", end);
    return out;
  };

  std::uint64_t pos = kHeaderLength;
  std::size_t chunk_index = 0;
  bool unknown_seen = false;
  if (end - pos < kChunkHeaderLength) {
    issues.add_at_offset("GLB_UNEXPECTED_END_OF_CHUNK_HEADER", pos);
    return done();
  }
  while (pos < end) {
    if (end - pos < kChunkHeaderLength) {
      issues.add_at_offset("GLB_UNEXPECTED_END_OF_CHUNK_HEADER", pos);
      break;
    }
    const std::uint64_t length = read_u32(bytes, pos);
    const std::uint32_t type = read_u32(bytes, pos + 4);
    const std::uint64_t data_at = pos + kChunkHeaderLength;
    // `end - data_at` cannot wrap: the test above ensured data_at <= end.
    if (length > end - data_at) {
      if (declared >= kHeaderLength + kChunkHeaderLength && declared <= size) {
        issues.add_at_offset("GLB_CHUNK_TOO_BIG", pos, {hex(type), std::to_string(length)});
      } else {
        // The file ends before the declared GLB does: the data is cut short.
        issues.add_at_offset("GLB_UNEXPECTED_END_OF_CHUNK_DATA", size);
      }
      break;
    }
    if (length % 4 != 0) issues.add_at_offset("GLB_CHUNK_LENGTH_UNALIGNED", pos, {hex(type)});
    const auto data =
        bytes.subspan(static_cast<std::size_t>(data_at), static_cast<std::size_t>(length));

    if (chunk_index == 0 && type != kChunkJson) {
      issues.add_at_offset("GLB_UNEXPECTED_FIRST_CHUNK", pos, {hex(type)});
    }
    switch (type) {
      case kChunkJson:
        if (out.json) {
          issues.add_at_offset("GLB_DUPLICATE_CHUNK", pos, {hex(type)});
        } else {
          if (length == 0) issues.add_at_offset("GLB_EMPTY_CHUNK", pos, {hex(type)});
          out.json = data;
          out.json_offset = data_at;
        }
        break;
      case kChunkBin:
        if (out.bin) {
          issues.add_at_offset("GLB_DUPLICATE_CHUNK", pos, {hex(type)});
        } else {
          // BIN must be the second chunk: directly after JSON, before any unknown
          // one. A BIN chunk in first place was already GLB_UNEXPECTED_FIRST_CHUNK.
          if (chunk_index > 0 && (chunk_index != 1 || unknown_seen || !out.json)) {
            issues.add_at_offset("GLB_UNEXPECTED_BIN_CHUNK", pos);
          }
          if (length == 0) issues.add_at_offset("GLB_EMPTY_CHUNK", pos, {hex(type)});
          out.bin = data;
        }
        break;
      default:
        // The spec: unknown chunk types MUST be ignored (extensions may add them).
        unknown_seen = true;
        issues.add_at_offset("GLB_UNKNOWN_CHUNK_TYPE", pos, {hex(type)});
        break;
    }
    ++chunk_index;
    pos = data_at + length;  // <= end, so no wrap
  }
  return done();
}

}  // namespace gltf_anim::gltf
