#pragma once
// Base64 (RFC 4648, standard alphabet, '=' padding), the one copy: data URIs read by the
// loader, written by the edit session and by the suite's builder.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::text {

// `bytes` in base64 with padding: 4 characters per 3 bytes, the last group padded.
std::string base64_encode(std::span<const std::uint8_t> bytes);

// Strict base64: standard alphabet, '=' padding only in the last two places of the last
// group, no whitespace, a length that is a multiple of 4. On failure nullopt, with
// `error_at` the index of the offending character in `text` (its length when the length
// is wrong). Non-zero bits dropped by padding (RFC 4648 3.5) are accepted, as most
// decoders do: they change no byte.
std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text,
                                                       std::size_t& error_at);

}  // namespace gltf_anim::text
