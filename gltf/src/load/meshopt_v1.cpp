// The version 1 attribute stream of KHR_meshopt_compression (header 0xa1), decoded as the
// extension's Appendix A specifies it: meshoptimizer 0.18, which the loader links for version 0
// and the index codecs, predates it. Scalar code, one pass: every read is checked against the
// end of the data region (the stream less its tail), so a hostile stream fails, never reads
// past its bytes; time and memory are linear in count x byteStride.
#include "load/internal.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace gltf_anim::gltf {

namespace {

constexpr std::size_t kGroup = 16;  // elements per group

std::uint8_t unzigzag8(std::uint8_t v) {
  return static_cast<std::uint8_t>((v & 1) != 0 ? ~(v >> 1) : (v >> 1));
}
std::uint16_t unzigzag16(std::uint16_t v) {
  return static_cast<std::uint16_t>((v & 1) != 0 ? ~(v >> 1) : (v >> 1));
}
// The spec's rotate(v, r) = (v << r) | (v >> ((32 - r) & 31)) is what the encoder applies to
// the XOR of two elements; decoding undoes it (checked against gltfpack's streams).
std::uint32_t rotate_right(std::uint32_t v, unsigned r) {
  return (v >> r) | (v << ((32 - r) & 31));
}

// Reads the data blocks; `pos` is the next byte, `end` the start of the tail.
class V1Reader {
 public:
  V1Reader(const std::uint8_t* pos, const std::uint8_t* end) : pos_(pos), end_(end) {}

  bool take(std::size_t n, const std::uint8_t*& out) {
    if (static_cast<std::size_t>(end_ - pos_) < n) return false;
    out = pos_;
    pos_ += n;
    return true;
  }
  bool at_end() const { return pos_ == end_; }

  // One data block (one byte position of `groups` groups of 16 elements) into `deltas`,
  // under control mode `control` (0 or 1: header bits per group select the bit length).
  bool data_block(unsigned control, std::size_t groups, std::uint8_t* deltas) {
    static constexpr std::array<std::array<unsigned, 4>, 2> kBits = {{{0, 1, 2, 4}, {1, 2, 4, 8}}};
    const std::uint8_t* header = nullptr;
    if (!take((groups + 3) / 4, header)) return false;
    for (std::size_t g = 0; g < groups; ++g) {
      const unsigned mode = (header[g / 4] >> ((g % 4) * 2)) & 3u;
      const unsigned bits = kBits[control][mode];
      std::uint8_t* out = deltas + g * kGroup;
      if (bits == 0) {
        std::memset(out, 0, kGroup);
        continue;
      }
      const std::uint8_t* packed = nullptr;
      if (!take(kGroup * bits / 8, packed)) return false;
      if (bits == 8) {
        std::memcpy(out, packed, kGroup);
        continue;
      }
      const unsigned sentinel = (1u << bits) - 1;
      for (std::size_t i = 0; i < kGroup; ++i) {
        unsigned v = 0;
        if (bits == 1) {
          v = (packed[i / 8] >> (i % 8)) & 1u;  // least significant bit first
        } else {
          const std::size_t per_byte = 8 / bits;  // most significant bits first
          const unsigned shift = static_cast<unsigned>((per_byte - 1 - i % per_byte) * bits);
          v = (packed[i / per_byte] >> shift) & sentinel;
        }
        if (v == sentinel) {
          const std::uint8_t* explicit_byte = nullptr;
          if (!take(1, explicit_byte)) return false;
          v = *explicit_byte;
        }
        out[i] = static_cast<std::uint8_t>(v);
      }
    }
    return true;
  }

 private:
  const std::uint8_t* pos_;
  const std::uint8_t* end_;
};

}  // namespace

std::optional<std::string> decode_meshopt_attributes_v1(std::uint8_t* out, std::size_t count,
                                                        std::size_t stride,
                                                        std::span<const std::uint8_t> stream) {
  if (stride == 0 || stride % 4 != 0 || stride > 256) return "byteStride must be 4..256";
  const std::size_t channels = stride / 4;
  const std::size_t tail = std::max<std::size_t>(24, stride + channels);
  if (stream.size() < 1 + tail) return "the stream ends before all elements are decoded";
  if (stream[0] != 0xa1) return "the header byte is not 0xa1";
  const std::uint8_t* const end = stream.data() + stream.size() - tail;
  const std::uint8_t* const modes = stream.data() + stream.size() - channels;
  const std::uint8_t* const baseline = modes - stride;
  for (std::size_t c = 0; c < channels; ++c) {
    const unsigned mode = modes[c] & 15u;
    if (mode >= 3 || (mode < 2 && (modes[c] >> 4) != 0)) {
      return "channel " + std::to_string(c) + " has the invalid mode byte " +
             std::to_string(modes[c]);
    }
  }
  std::array<std::uint8_t, 256> last{};
  std::memcpy(last.data(), baseline, stride);
  const std::size_t max_block = std::min<std::size_t>((8192 / stride) & ~std::size_t{15}, 256);
  std::vector<std::uint8_t> deltas(stride * 256);
  V1Reader reader(stream.data() + 1, end);
  for (std::size_t first = 0; first < count; first += max_block) {
    const std::size_t n = std::min(count - first, max_block);
    const std::size_t groups = (n + kGroup - 1) / kGroup;
    const std::size_t aligned = groups * kGroup;
    const std::uint8_t* control = nullptr;
    if (!reader.take(channels, control)) return "the stream ends before all elements are decoded";
    for (std::size_t k = 0; k < stride; ++k) {
      std::uint8_t* d = deltas.data() + k * aligned;
      const unsigned c = (control[k / 4] >> ((k % 4) * 2)) & 3u;
      if (c == 2) {
        std::memset(d, 0, aligned);
      } else if (c == 3) {
        // Literal: one delta byte per element of the block, no group padding.
        const std::uint8_t* literal = nullptr;
        if (!reader.take(n, literal)) return "the stream ends before all elements are decoded";
        std::memcpy(d, literal, n);
      } else if (!reader.data_block(c, groups, d)) {
        return "the stream ends before all elements are decoded";
      }
    }
    // Deltas to values, channel by channel (4 bytes each), from the previous element.
    for (std::size_t ch = 0; ch < channels; ++ch) {
      const unsigned mode = modes[ch] & 15u;
      const std::size_t b0 = ch * 4;
      const auto delta = [&](std::size_t byte, std::size_t i) {
        return deltas[(b0 + byte) * aligned + i];
      };
      for (std::size_t i = 0; i < n; ++i) {
        std::uint8_t* element = out + (first + i) * stride + b0;
        if (mode == 0) {
          for (std::size_t b = 0; b < 4; ++b) {
            last[b0 + b] = static_cast<std::uint8_t>(last[b0 + b] + unzigzag8(delta(b, i)));
          }
        } else if (mode == 1) {
          for (std::size_t h = 0; h < 4; h += 2) {
            const auto d16 = static_cast<std::uint16_t>(delta(h, i) | (delta(h + 1, i) << 8));
            const auto p16 = static_cast<std::uint16_t>(last[b0 + h] | (last[b0 + h + 1] << 8));
            const auto v16 = static_cast<std::uint16_t>(p16 + unzigzag16(d16));
            last[b0 + h] = static_cast<std::uint8_t>(v16 & 0xff);
            last[b0 + h + 1] = static_cast<std::uint8_t>(v16 >> 8);
          }
        } else {
          std::uint32_t d32 = 0;
          std::uint32_t p32 = 0;
          for (std::size_t b = 0; b < 4; ++b) {
            d32 |= std::uint32_t{delta(b, i)} << (8 * b);
            p32 |= std::uint32_t{last[b0 + b]} << (8 * b);
          }
          const std::uint32_t v32 = p32 ^ rotate_right(d32, modes[ch] >> 4);
          for (std::size_t b = 0; b < 4; ++b) {
            last[b0 + b] = static_cast<std::uint8_t>(v32 >> (8 * b));
          }
        }
        std::memcpy(element, last.data() + b0, 4);
      }
    }
  }
  if (!reader.at_end()) return "bytes are left over between the encoded data and the tail";
  return std::nullopt;
}

}  // namespace gltf_anim::gltf
