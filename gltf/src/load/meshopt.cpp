// EXT_meshopt_compression and KHR_meshopt_compression: a bufferView whose bytes are stored
// compressed in another buffer range, its own `buffer` being a fallback (often a placeholder
// without data). This pass checks the extension objects and the fallback buffers, and decodes
// the compressed bufferViews that accessors read, so that every accessor reader (the layout
// pass, the data rules, the sampler, the repair tools) reads the decoded bytes as the
// bufferView's bytes and nothing downstream knows about compression.
//
// Memory and time: only bufferViews an accessor reads are decoded; each is allocated at its
// declared byteLength only after count x byteStride == byteLength, the compressed range inside
// its loaded buffer, and byteLength <= kMaxRatio x the compressed length (no valid stream
// decodes to more) have been checked; all decoded views together stay within the loader's file
// size limit. Decoding is linear in the decoded bytes.
#include "load/internal.hpp"

#include <gltf_anim/gltf/json.hpp>

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace gltf_anim::gltf {

namespace {

// No valid stream of any mode decodes to more than this many bytes per compressed byte: an
// attribute block of up to 256 elements costs at least byteStride / 4 bytes (version 1's
// control header, every byte unchanged) for 256 x byteStride decoded bytes; version 0 costs
// more (2 header bits per 16 elements per byte), triangles one code byte per 3 indices and
// index sequences one byte per index.
constexpr std::uint64_t kMaxRatio = 1024;

std::string hex_byte(std::uint8_t b) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", b);
  return text;
}

std::string num(std::uint64_t n) { return std::to_string(n); }

// The part of this pass that reports: it knows the pointers.
class MeshoptPass {
 public:
  MeshoptPass(LoadedAsset& asset, std::uint64_t max_decoded_bytes)
      : a_(asset), budget_(max_decoded_bytes) {}

  std::vector<std::optional<DataStatus>> run() {
    const std::size_t nviews = a_.buffer_views.size();
    std::vector<std::optional<DataStatus>> status(nviews);
    a_.buffer_view_data.assign(nviews, std::nullopt);
    const std::vector<bool> used = used_views();
    required_ext_ = listed("extensionsRequired", "EXT_meshopt_compression");
    required_khr_ = listed("extensionsRequired", "KHR_meshopt_compression");
    check_fallback_buffers();
    for (std::size_t i = 0; i < nviews; ++i) {
      const BufferView& bv = a_.buffer_views[i];
      const JsonPointer at = JsonPointer("/bufferViews") / i;
      if (bv.meshopt_both) add("MESHOPT_EXTENSIONS_EXCLUSIVE", at / "extensions", {});
      if (bv.meshopt) {
        status[i] = compressed_view(i, at, used[i]);
      } else {
        plain_view(i, at, used[i]);
      }
    }
    return status;
  }

 private:
  bool listed(const char* list, std::string_view name) const {
    if (!a_.document || !a_.document->IsObject()) return false;
    const gltf_anim::json::Value& doc = *a_.document;  // const iterators on both sides
    const auto it = doc.FindMember(list);
    if (it == doc.MemberEnd() || !it->value.IsArray()) return false;
    for (const auto& v : it->value.GetArray()) {
      if (v.IsString() && std::string_view(v.GetString(), v.GetStringLength()) == name) return true;
    }
    return false;
  }

  // The bufferViews an accessor reads (its own, sparse indices and values).
  std::vector<bool> used_views() const {
    std::vector<bool> used(a_.buffer_views.size(), false);
    auto mark = [&used](std::uint64_t v) {
      if (v < used.size()) used[static_cast<std::size_t>(v)] = true;
    };
    for (const Accessor& acc : a_.accessors) {
      if (acc.buffer_view) mark(*acc.buffer_view);
      if (acc.sparse) {
        mark(acc.sparse->indices_buffer_view);
        mark(acc.sparse->values_buffer_view);
      }
    }
    return used;
  }

  // A buffer without data of its own: no uri, and not a GLB's buffers[0].
  bool placeholder(std::size_t b) const {
    return !a_.buffers[b].uri && !(a_.mime_type == MimeType::kGltfBinary && b == 0);
  }

  void check_fallback_buffers() {
    for (std::size_t b = 0; b < a_.buffers.size(); ++b) {
      const Buffer& buffer = a_.buffers[b];
      const JsonPointer at = JsonPointer("/buffers") / b;
      if (buffer.meshopt_both) add("MESHOPT_EXTENSIONS_EXCLUSIVE", at / "extensions", {});
      if (!buffer.meshopt_fallback || !placeholder(b)) continue;
      // A loader without the extension finds no data here, so the asset needs it.
      if (!(buffer.meshopt_khr ? required_khr_ : required_ext_)) {
        add("MESHOPT_FALLBACK_BUFFER_NOT_REQUIRED", at, {tag_name(b)});
      }
    }
  }

  std::string tag_name(std::size_t b) const {
    return a_.buffers[b].meshopt_khr ? "KHR_meshopt_compression" : "EXT_meshopt_compression";
  }

  // A bufferView without compression: it reads its buffer's bytes.
  void plain_view(std::size_t i, const JsonPointer& at, bool used) {
    const BufferView& bv = a_.buffer_views[i];
    if (!bv.buffer || *bv.buffer >= a_.buffers.size()) return;  // the layout pass reports it
    const auto b = static_cast<std::size_t>(*bv.buffer);
    if (a_.buffers[b].meshopt_fallback) {
      add("MESHOPT_FALLBACK_BUFFER_UNCOMPRESSED_VIEW", at / "buffer", {tag_name(b), num(b)});
    } else if (used && placeholder(b)) {
      add("BUFFER_VIEW_PLACEHOLDER_DATA", at / "buffer", {num(b)});
    }
  }

  // The extension's own rules (stride per mode and filter, count, length), whether or not an
  // accessor reads the view. False when the view cannot be decoded.
  bool fields_valid(const BufferView& bv, const MeshoptCompression& m, const JsonPointer& at,
                    const JsonPointer& ext) {
    const std::string name(m.extension());
    const std::uint64_t stride = *m.byte_stride;
    const std::uint64_t count = *m.count;
    const MeshoptMode mode = *m.mode;
    bool ok = true;
    std::uint64_t decoded = 0;
    if (mul_overflows(count, stride, decoded) || decoded != *bv.byte_length) {
      const bool over = mul_overflows(count, stride, decoded);
      add("MESHOPT_BYTE_LENGTH_MISMATCH", ext / "count",
          {name, num(count), num(stride), over ? std::string("more than 2^64-1") : num(decoded),
           num(*bv.byte_length)});
      ok = false;
    }
    if (!m.khr && bv.byte_stride && *bv.byte_stride != stride) {
      add("MESHOPT_BYTE_STRIDE_MISMATCH", at / "byteStride",
          {name, num(*bv.byte_stride), num(stride)});
    }
    // One reason per view: the mode's rule first, then the filter's.
    const char* why = nullptr;
    if (mode == MeshoptMode::kAttributes) {
      if (stride % 4 != 0 || stride > 256) why = "ATTRIBUTES needs a multiple of 4 up to 256";
      if (m.khr && stride < 4) why = "ATTRIBUTES needs a multiple of 4 from 4 to 256";
      if (stride == 0) why = "ATTRIBUTES needs a multiple of 4 from 4 to 256";
    } else if (stride != 2 && stride != 4) {
      why = "TRIANGLES and INDICES need 2 or 4";
    }
    if (why == nullptr) {
      switch (m.filter) {
        case MeshoptFilter::kNone: break;
        case MeshoptFilter::kOctahedral:
          if (stride != 4 && stride != 8) why = "OCTAHEDRAL needs 4 or 8";
          break;
        case MeshoptFilter::kQuaternion:
          if (stride != 8) why = "QUATERNION needs 8";
          break;
        case MeshoptFilter::kExponential:
          if (stride % 4 != 0) why = "EXPONENTIAL needs a multiple of 4";
          break;
        case MeshoptFilter::kColor:
          if (stride != 4 && stride != 8) why = "COLOR needs 4 or 8";
          break;
      }
    }
    if (why != nullptr) {
      add("MESHOPT_BYTE_STRIDE_INVALID", ext / "byteStride",
          {name, num(stride), std::string(meshopt_mode_name(mode)),
           std::string(meshopt_filter_name(m.filter)), why});
      ok = false;
    }
    if (mode == MeshoptMode::kTriangles && count % 3 != 0) {
      add("MESHOPT_TRIANGLES_COUNT", ext / "count", {name, num(count)});
      ok = false;
    }
    if (mode != MeshoptMode::kAttributes && m.filter != MeshoptFilter::kNone) {
      add("MESHOPT_FILTER_NOT_ALLOWED", ext / "filter",
          {name, std::string(meshopt_filter_name(m.filter)), std::string(meshopt_mode_name(mode))});
      ok = false;
    }
    return ok;
  }

  std::optional<DataStatus> compressed_view(std::size_t i, const JsonPointer& at, bool used) {
    const BufferView& bv = a_.buffer_views[i];
    const MeshoptCompression& m = *bv.meshopt;
    const std::string name(m.extension());
    const JsonPointer ext = at / "extensions" / name;
    if (!m.well_formed || !bv.well_formed) return DataStatus::kMalformed;  // the schema's
    bool ok = fields_valid(bv, m, at, ext);
    if (*m.buffer >= a_.buffers.size()) {
      add("UNRESOLVED_REFERENCE", ext / "buffer", {num(*m.buffer)});
      return DataStatus::kUnresolved;
    }
    const auto b = static_cast<std::size_t>(*m.buffer);
    const Buffer& source = a_.buffers[b];
    if (source.meshopt_fallback) {
      add("MESHOPT_FALLBACK_BUFFER_COMPRESSED_SOURCE", ext / "buffer", {name, num(b)});
      ok = false;
    }
    if (!source.well_formed) return DataStatus::kMalformed;
    const std::uint64_t capacity = *source.byte_length;
    const std::uint64_t length = *m.byte_length;
    if (length > capacity || m.byte_offset > capacity - length) {
      add("MESHOPT_COMPRESSED_DATA_TOO_LONG", ext / "byteLength",
          {name, num(m.byte_offset), num(length), num(b), num(capacity)});
      ok = false;
    }
    if (!ok) return DataStatus::kBadLayout;
    if (!used) return DataStatus::kNoData;  // never read: not decoded
    if (!a_.buffer_data[b]) {
      if (placeholder(b)) add("BUFFER_VIEW_PLACEHOLDER_DATA", ext / "buffer", {num(b)});
      return DataStatus::kNoData;
    }
    const std::span<const std::uint8_t> stream = a_.buffer_data[b]->subspan(
        static_cast<std::size_t>(m.byte_offset), static_cast<std::size_t>(length));
    const std::uint64_t size = *bv.byte_length;  // == count x byteStride, checked above
    const auto failed = [&](const std::string& why) {
      add("MESHOPT_DECODE_FAILED", ext,
          {name, std::string(meshopt_mode_name(*m.mode)), num(length), num(*m.count),
           num(*m.byte_stride), why});
      return DataStatus::kBadLayout;
    };
    if (length == 0 || size / kMaxRatio > length) {
      return failed("a stream of " + num(length) + " bytes cannot hold " + num(size) +
                    " decoded bytes");
    }
    if (size > budget_ - used_budget_) {
      add("MESHOPT_DECODED_TOO_LARGE", ext, {name, num(used_budget_ + size), num(budget_)});
      return DataStatus::kNoData;
    }
    const std::uint8_t header = stream[0];
    // KHR's version 1 attribute stream: our decoder (meshopt_v1.cpp), the library's predates it.
    const bool version_1 = *m.mode == MeshoptMode::kAttributes && header == 0xa1 && m.khr;
    const std::uint8_t expected = *m.mode == MeshoptMode::kAttributes  ? 0xa0
                                  : *m.mode == MeshoptMode::kTriangles ? 0xe1
                                                                       : 0xd1;
    if (header != expected && !version_1) {
      std::string why = "the header byte is " + hex_byte(header) + ", not " + hex_byte(expected);
      if (*m.mode == MeshoptMode::kAttributes && header == 0xa1)
        why += " (0xa1, version 1, is KHR_meshopt_compression's only)";
      return failed(why);
    }
    used_budget_ += size;
    std::vector<std::uint8_t> out(static_cast<std::size_t>(size));
    const auto count = static_cast<std::size_t>(*m.count);
    const auto stride = static_cast<std::size_t>(*m.byte_stride);
    int rc = 0;
    switch (*m.mode) {
      case MeshoptMode::kAttributes:
        if (version_1) {
          if (const auto why = decode_meshopt_attributes_v1(out.data(), count, stride, stream))
            return failed(*why);
          break;
        }
        rc = meshopt_decodeVertexBuffer(out.data(), count, stride, stream.data(), stream.size());
        break;
      case MeshoptMode::kTriangles:
        rc = meshopt_decodeIndexBuffer(out.data(), count, stride, stream.data(), stream.size());
        break;
      case MeshoptMode::kIndices:
        rc = meshopt_decodeIndexSequence(out.data(), count, stride, stream.data(), stream.size());
        break;
    }
    if (rc != 0) {
      // The decoders' results: -1 a bad header or version (checked above), -2 the stream ends
      // before the data it must hold, -3 bytes left over between the data and the tail.
      if (rc == -2) return failed("the stream ends before all elements are decoded");
      if (rc == -3) return failed("bytes are left over between the encoded data and the tail");
      return failed("the decoder refused the stream (" + std::to_string(rc) + ")");
    }
    switch (m.filter) {
      case MeshoptFilter::kNone: break;
      case MeshoptFilter::kOctahedral: meshopt_decodeFilterOct(out.data(), count, stride); break;
      case MeshoptFilter::kQuaternion: meshopt_decodeFilterQuat(out.data(), count, stride); break;
      case MeshoptFilter::kExponential: meshopt_decodeFilterExp(out.data(), count, stride); break;
      case MeshoptFilter::kColor: decode_color_filter(out.data(), count, stride); break;
    }
    a_.buffer_view_data[i] = LoaderAccess::keep(a_, ByteStorage::from_vector(std::move(out)));
    return DataStatus::kReadable;
  }

  // KHR_meshopt_compression Appendix B, filter 4 (color): YCoCg with K-bit components, K read
  // from the alpha component's most significant bit. meshoptimizer 0.18 predates the filter.
  template <typename T>
  static void color(std::uint8_t* data, std::size_t count) {
    constexpr float kMax = static_cast<float>(static_cast<T>(~T{0}));
    using Signed = std::make_signed_t<T>;
    for (std::size_t e = 0; e < count; ++e) {
      T in[4];
      std::memcpy(in, data + e * sizeof in, sizeof in);
      int msb = -1;
      for (unsigned v = in[3]; v != 0; v >>= 1) ++msb;
      const int as = (1 << (msb + 1)) - 1;  // msb < 16: no overflow
      const int y = in[0];
      const int co = static_cast<Signed>(in[1]);
      const int cg = static_cast<Signed>(in[2]);
      const int r = y + co - cg;
      const int g = y + cg;
      const int b = y - co - cg;
      int alpha = in[3] & (as >> 1);
      alpha = (alpha << 1) | (alpha & 1);
      const float ss = as > 0 ? kMax / static_cast<float>(as) : 0.0f;
      const auto to = [=](float v) {
        // Rounded half away from zero; out-of-range input (unspecified by the filter) is
        // clamped rather than converted out of range.
        const float r2 = std::round(v);
        return static_cast<T>(std::clamp(r2, 0.0f, kMax));
      };
      const T out[4] = {to(static_cast<float>(r) * ss), to(static_cast<float>(g) * ss),
                        to(static_cast<float>(b) * ss), to(static_cast<float>(alpha) * ss)};
      std::memcpy(data + e * sizeof out, out, sizeof out);
    }
  }

  static void decode_color_filter(std::uint8_t* data, std::size_t count, std::size_t stride) {
    if (stride == 4) color<std::uint8_t>(data, count);
    if (stride == 8) color<std::uint16_t>(data, count);
  }

  void add(IssueCode code, const JsonPointer& at, std::vector<std::string> args) {
    a_.loader_findings.push_back(LoaderFinding{code, at, std::move(args)});
  }

  LoadedAsset& a_;
  const std::uint64_t budget_;
  std::uint64_t used_budget_ = 0;
  bool required_ext_ = false;
  bool required_khr_ = false;
};

}  // namespace

std::vector<std::optional<DataStatus>> decode_compressed_views(LoadedAsset& asset,
                                                               std::uint64_t max_decoded_bytes) {
  return MeshoptPass(asset, max_decoded_bytes).run();
}

}  // namespace gltf_anim::gltf
