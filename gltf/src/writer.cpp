// The faithful writer: splices into the JSON text, chunks of a GLB.
#include <gltf_anim/gltf/locator.hpp>
#include <gltf_anim/gltf/writer.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>

namespace gltf_anim::gltf {
namespace {

constexpr std::uint32_t kMagic = 0x46546C67;  // "glTF"
constexpr std::uint32_t kJsonChunk = 0x4E4F534A;
constexpr std::uint32_t kBinChunk = 0x004E4942;

std::uint32_t le32(std::span<const std::uint8_t> b, std::size_t at) {
  return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at + 2]} << 16 |
         std::uint32_t{b[at + 3]} << 24;
}

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}

void set32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k)
    out[at + static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(v >> (8 * k));
}

// One chunk as it is in the file: [header, data end).
struct ChunkSpan {
  std::size_t header = 0;
  std::uint32_t length = 0;
  std::uint32_t type = 0;
};

}  // namespace

std::optional<std::string> apply_splices(std::string_view json, std::span<const Splice> splices,
                                         std::string& why) {
  // Every offset is checked against the text's size first, so each fits a size_t
  // (32-bit in the WebAssembly build) and the casts below lose nothing.
  std::uint64_t checked = 0;
  std::size_t size = json.size();
  for (const Splice& s : splices) {
    if (s.begin < checked || s.end < s.begin || s.end > json.size()) {
      why = "the changes overlap, are out of order or leave the JSON text (bytes " +
            std::to_string(s.begin) + " to " + std::to_string(s.end) + ")";
      return std::nullopt;
    }
    checked = s.end;
    size = size - static_cast<std::size_t>(s.end - s.begin) + s.text.size();
  }
  std::string out;
  out.reserve(size);
  std::size_t copied = 0;
  for (const Splice& s : splices) {
    const auto begin = static_cast<std::size_t>(s.begin);
    out.append(json.substr(copied, begin - copied));
    out += s.text;
    copied = static_cast<std::size_t>(s.end);
  }
  out.append(json.substr(copied));
  return out;
}

std::optional<std::vector<Splice>> splices_for(std::string_view json,
                                               std::span<const ValueEdit> edits, std::string& why) {
  std::vector<std::string> pointers;
  pointers.reserve(edits.size());
  for (const ValueEdit& e : edits) pointers.push_back(e.pointer);
  const std::vector<std::optional<Location>> found = locate(json, pointers);
  std::vector<Splice> out;
  out.reserve(edits.size());
  for (std::size_t k = 0; k < edits.size(); ++k) {
    if (!found[k]) {
      why = "no value at " + edits[k].pointer + " to change";
      return std::nullopt;
    }
    out.push_back(Splice{found[k]->value.begin.byte, found[k]->value.end.byte, edits[k].value});
  }
  std::vector<std::size_t> order(out.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&out](std::size_t a, std::size_t b) { return out[a].begin < out[b].begin; });
  std::vector<Splice> sorted;
  sorted.reserve(out.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k != 0 && out[order[k]].begin < sorted.back().end) {
      why = "two changes to one value: " + edits[order[k - 1]].pointer + " and " +
            edits[order[k]].pointer;
      return std::nullopt;
    }
    sorted.push_back(std::move(out[order[k]]));
  }
  return sorted;
}

std::optional<std::vector<std::uint8_t>> write_glb(std::span<const std::uint8_t> file,
                                                   std::string_view json,
                                                   std::optional<std::span<const std::uint8_t>> bin,
                                                   std::string& why) {
  if (file.size() < 12 || le32(file, 0) != kMagic) {
    why = "not a GLB file";
    return std::nullopt;
  }
  const std::uint64_t declared = le32(file, 8);
  const std::size_t end = static_cast<std::size_t>(std::min<std::uint64_t>(declared, file.size()));
  std::vector<ChunkSpan> chunks;
  std::size_t at = 12;
  while (at + 8 <= end) {
    const ChunkSpan c{at, le32(file, at), le32(file, at + 4)};
    if (c.length > end - at - 8) {
      why = "GLB chunk at byte " + std::to_string(at) + " does not fit the file";
      return std::nullopt;
    }
    chunks.push_back(c);
    at += 8 + c.length;
  }
  if (chunks.empty() || chunks.front().type != kJsonChunk) {
    why = "GLB without a JSON chunk first";
    return std::nullopt;
  }
  std::vector<std::uint8_t> out(file.begin(), file.begin() + 12);
  out.reserve(file.size() + json.size() + (bin ? bin->size() : 0) + 8);
  auto put_data = [&out](std::uint32_t type, std::span<const std::uint8_t> data, std::uint8_t pad) {
    const std::size_t padded = (data.size() + 3) / 4 * 4;
    put32(out, static_cast<std::uint32_t>(padded));
    put32(out, type);
    out.insert(out.end(), data.begin(), data.end());
    out.insert(out.end(), padded - data.size(), pad);
  };
  auto copy_chunk = [&out, &file](const ChunkSpan& c) {
    out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(c.header),
               file.begin() + static_cast<std::ptrdiff_t>(c.header + 8 + c.length));
  };
  const std::uint64_t total =
      std::uint64_t{12} + 8 + json.size() + 3 + (bin ? 8 + bin->size() + 3 : 0) + file.size();
  if (total > 0xFFFFFFFFull) {
    why = "the GLB would pass 4 GiB";
    return std::nullopt;
  }
  const auto json_bytes = std::span<const std::uint8_t>(
      reinterpret_cast<const std::uint8_t*>(json.data()), json.size());
  bool bin_written = false;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const ChunkSpan& c = chunks[k];
    if (k == 0) {
      put_data(kJsonChunk, json_bytes, 0x20);
      // A BIN chunk comes second (glTF 2.0 4.4.3.3): added there when there was none.
      if (bin && (chunks.size() < 2 || chunks[1].type != kBinChunk)) {
        put_data(kBinChunk, *bin, 0);
        bin_written = true;
      }
    } else if (k == 1 && c.type == kBinChunk && bin && !bin_written) {
      put_data(kBinChunk, *bin, 0);
      bin_written = true;
    } else {
      copy_chunk(c);
    }
  }
  // Bytes after the last whole chunk (a short tail, or past the declared
  // length) are kept as they were; the declared length moves by what the
  // replaced chunks grew or shrank, so an unchanged file keeps its own.
  out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(at), file.end());
  const auto grown = static_cast<std::int64_t>(out.size()) - static_cast<std::int64_t>(file.size());
  set32(out, 8, static_cast<std::uint32_t>(static_cast<std::int64_t>(declared) + grown));
  return out;
}

}  // namespace gltf_anim::gltf
