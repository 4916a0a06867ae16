#pragma once
// The loaded asset: what the loader (load.hpp) hands to the rules.
//
// A LoadedAsset owns
//  - the parsed JSON (`document`, null when the bytes were not a glTF JSON or GLB
//    container we could parse; the rules must then report nothing more);
//  - typed, tolerant views of the three objects that hold data: buffers,
//    bufferViews and accessors. They mirror the spec (cgltf style): an optional
//    member is std::optional, a member with a spec default holds the default. A
//    member of the wrong JSON type or out of range is left unset and the object
//    is not `well_formed`; the loader raises no issue for that (the JSON-Schema
//    check does), it only refuses to read data through such an object;
//  - the bytes of every buffer that could be loaded (`buffer_data`), each file
//    read once;
//  - the layout verdict of every bufferView and accessor (`*_status`): whether
//    its bytes can be read. Data checks must be skipped for an accessor whose
//    status is not kReadable, as glTF-Validator does (its _guardAccessor);
//  - the layout problems behind those verdicts (`layout_findings`), found by
//    the same single pass and reported by the link phase.
//
// Every number in these structs came from the file: nothing here is trusted
// until the status says so.

#include <gltf_anim/gltf/issue_registry.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// gltf_anim::json::Document, declared as rapidjson's own fwd.h does, so that
// this header (installed) needs no rapidjson. Its definition,
// gltf/include/gltf_anim/gltf/json.hpp, needs RapidJSON and is not installed:
// code in this build that reads LoadedAsset::document includes it. The loader
// checks that this is the very type json.hpp names Document.
namespace rapidjson {
template <typename CharType>
struct UTF8;
template <typename BaseAllocator>
class MemoryPoolAllocator;
template <typename Encoding, typename Allocator, typename StackAllocator>
class GenericDocument;
}  // namespace rapidjson
namespace gltf_anim::json {
struct ThrowingAllocator;
}  // namespace gltf_anim::json

namespace gltf_anim::io {
class ByteStorage;  // owns file bytes (read) or decoded data URIs
}  // namespace gltf_anim::io

namespace gltf_anim::gltf {

using JsonDocument =
    rapidjson::GenericDocument<rapidjson::UTF8<char>,
                               rapidjson::MemoryPoolAllocator<json::ThrowingAllocator>,
                               json::ThrowingAllocator>;

// The report's mimeType; kNone when neither JSON nor GLB could be parsed (the
// report then has no mimeType, as in glTF-Validator).
enum class MimeType { kNone, kGltfJson, kGltfBinary };
// "model/gltf+json", "model/gltf-binary", or "" for kNone.
std::string_view mime_type_name(MimeType m);

// accessor.componentType, with the GL enum values of the spec (3.6.2.2).
enum class ComponentType : std::uint32_t {
  kByte = 5120,
  kUnsignedByte = 5121,
  kShort = 5122,
  kUnsignedShort = 5123,
  kUnsignedInt = 5125,
  kFloat = 5126,
  // The drafts KHR_accessor_float64 (IEEE-754 binary64) and KHR_accessor_float16
  // (binary16): decoded whatever the asset declares; the rules report an
  // asset that does not declare them (KHR_ACCESSOR_FLOAT_UNDECLARED).
  kDouble = 5130,
  kHalfFloat = 5131,
};
// nullopt for any value neither the spec nor the two drafts list (5124 INT included).
std::optional<ComponentType> component_type_from_gl(std::uint64_t value);
std::string_view component_type_name(ComponentType c);  // "BYTE", "UNSIGNED_SHORT", ...
// A floating-point component type (FLOAT, DOUBLE, HALF_FLOAT): valid wherever
// FLOAT is (the drafts' "in all places where float component type accessors
// are valid"); its values are used as stored,
// never normalized, and may be NaN or infinite.
bool is_floating_point(ComponentType c);
// Bytes of one component: 1, 2 or 4.
std::uint32_t component_size(ComponentType c);

// accessor.type.
enum class ElementType { kScalar, kVec2, kVec3, kVec4, kMat2, kMat3, kMat4 };
std::optional<ElementType> element_type_from_name(std::string_view name);  // "SCALAR", ...
std::string_view element_type_name(ElementType t);
// Components per element: 1, 2, 3, 4, 4, 9, 16.
std::uint32_t component_count(ElementType t);
// Bytes of one element in a buffer, including the column padding the spec
// requires for MAT2/MAT3 of 1- and 2-byte components (3.6.2.4 "Data Alignment"):
// e.g. MAT3 of BYTE is 12, not 9. This is the minimum byteStride.
std::uint32_t element_size(ComponentType c, ElementType t);
// Bytes the last element of a run needs: element_size less the padding after
// its last column, which "MAY be omitted if there's no further data" (3.6.2.4):
// MAT2 of BYTE is 6, MAT3 of BYTE 11, MAT3 of SHORT 22; other types equal
// element_size. A bufferView holds count elements when
// byteOffset + stride * (count - 1) + element_extent <= byteLength.
std::uint32_t element_extent(ComponentType c, ElementType t);

// /buffers/i
struct Buffer {
  std::optional<std::string> uri;            // as written, not percent-decoded
  std::optional<std::uint64_t> byte_length;  // unset when absent or not an integer >= 1
  bool well_formed = false;                  // byteLength present and valid, uri absent or a string
  // extensions.EXT_meshopt_compression (or KHR_meshopt_compression).fallback is true: the
  // buffer only stands in for data that compressed bufferViews decode; it needs no bytes.
  bool meshopt_fallback = false;
  bool meshopt_khr = false;   // the extension object read is KHR_meshopt_compression's
  bool meshopt_both = false;  // both extensions are present
};

// The compression mode and filter of EXT_meshopt_compression / KHR_meshopt_compression.
enum class MeshoptMode : std::uint8_t { kAttributes, kTriangles, kIndices };
enum class MeshoptFilter : std::uint8_t { kNone, kOctahedral, kQuaternion, kExponential, kColor };
std::string_view meshopt_mode_name(MeshoptMode m);      // "ATTRIBUTES", ...
std::string_view meshopt_filter_name(MeshoptFilter f);  // "NONE", ...

// /bufferViews/i/extensions/EXT_meshopt_compression (or KHR_meshopt_compression): where the
// bufferView's bytes are stored compressed. The bufferView's own `buffer` is then a fallback.
struct MeshoptCompression {
  bool khr = false;  // KHR_meshopt_compression (which also allows the COLOR filter and the
                     // version 1 attribute stream); else EXT_meshopt_compression
  std::optional<std::uint64_t> buffer;
  std::uint64_t byte_offset = 0;  // spec default
  std::optional<std::uint64_t> byte_length;
  std::optional<std::uint64_t> byte_stride;
  std::optional<std::uint64_t> count;
  std::optional<MeshoptMode> mode;
  MeshoptFilter filter = MeshoptFilter::kNone;  // spec default
  // buffer, byteLength, byteStride, count and mode present, every member of its type and
  // filter one the extension lists (the schema check reports the rest).
  bool well_formed = false;
  std::string_view extension() const {
    return khr ? "KHR_meshopt_compression" : "EXT_meshopt_compression";
  }
};

// /bufferViews/i
struct BufferView {
  std::optional<std::uint64_t> buffer;
  std::uint64_t byte_offset = 0;  // spec default
  std::optional<std::uint64_t> byte_length;
  std::optional<std::uint64_t> byte_stride;
  std::optional<std::uint64_t> target;
  bool well_formed = false;  // buffer and byteLength present, every member of its type
  // Its bytes are stored compressed (EXT_ or KHR_meshopt_compression); when both extensions
  // are present (which KHR_meshopt_compression forbids), the KHR one.
  std::optional<MeshoptCompression> meshopt;
  bool meshopt_both = false;  // both extensions are present
};

// /accessors/i/sparse, kept only when every required member is present and valid.
struct AccessorSparse {
  std::uint64_t count = 0;
  std::uint64_t indices_buffer_view = 0;
  std::uint64_t indices_byte_offset = 0;
  ComponentType indices_component_type = ComponentType::kUnsignedInt;  // UBYTE, USHORT or UINT
  std::uint64_t values_buffer_view = 0;
  std::uint64_t values_byte_offset = 0;
};

// /accessors/i
struct Accessor {
  std::optional<std::uint64_t> buffer_view;  // absent: all zeros (then sparse on top)
  std::uint64_t byte_offset = 0;             // spec default
  std::optional<ComponentType> component_type;
  bool normalized = false;             // spec default
  std::optional<std::uint64_t> count;  // >= 1 when set
  std::optional<ElementType> type;
  std::optional<AccessorSparse> sparse;
  bool has_sparse_member = false;  // "sparse" present, whether or not it was well formed
  // componentType, count and type valid, sparse (if present) well formed, and
  // every present member of its JSON type.
  bool well_formed = false;
};

// Whether the bytes behind a bufferView or accessor can be read, decided once
// by the loader. Only kReadable objects are decoded.
enum class DataStatus {
  kReadable,    // every offset, length and stride checked against the bytes
  kMalformed,   // the JSON object itself is broken (see well_formed)
  kUnresolved,  // a bufferView/buffer index points nowhere
  kBadLayout,   // does not fit, overlapping stride, bad sparse layout
  kNoData,      // the referenced buffer could not be loaded (IO_ERROR etc.)
};

// One layout problem of a bufferView or accessor. The loader's layout pass
// finds it (the one analysis, which also decides the statuses above) and
// check_buffers_and_accessors reports it in the link phase, where the report
// wants it. Small and fixed-size (56 bytes, no allocation): at most 2 per
// bufferView (stride, length) and 7 per accessor (normalized, alignment,
// stride, length, sparse count, indices, values), so the findings of an asset
// are bounded by its bufferViews and accessors, like the loader's own views of
// them. The pointer and the message text are built only when reported.
struct LayoutFinding {
  // Where: the member of /bufferViews/i or /accessors/i the issue points at.
  enum class Member : std::uint8_t {
    kBufferViewBuffer,                 // /bufferViews/i/buffer
    kBufferViewByteLength,             // /bufferViews/i/byteLength
    kBufferViewByteStride,             // /bufferViews/i/byteStride
    kAccessorBufferView,               // /accessors/i/bufferView
    kAccessorByteOffset,               // /accessors/i/byteOffset
    kAccessorNormalized,               // /accessors/i/normalized
    kAccessorSparseCount,              // /accessors/i/sparse/count
    kAccessorSparseIndicesBufferView,  // /accessors/i/sparse/indices/bufferView
    kAccessorSparseIndicesByteOffset,  // /accessors/i/sparse/indices/byteOffset
    kAccessorSparseValuesBufferView,   // /accessors/i/sparse/values/bufferView
    kAccessorSparseValuesByteOffset,   // /accessors/i/sparse/values/byteOffset
  };
  IssueCode code;
  std::uint64_t index = 0;  // of the bufferView or accessor
  // The message arguments, all numbers (at most 4).
  std::array<std::uint64_t, 4> arguments{};
  Member member = Member::kAccessorByteOffset;
  std::uint8_t argument_count = 0;
  std::uint8_t past_2_64 = 0;  // bit k: argument k is a sum or product past 2^64-1

  JsonPointer pointer() const;
  // Argument k as the message writes it ("more than 2^64-1" when past).
  std::string argument_text(std::size_t k) const;
};

// A problem the loader found that is not a LayoutFinding (those of compressed bufferViews and
// of buffers without data), reported with them by check_buffers_and_accessors. At most a few
// per bufferView.
struct LoaderFinding {
  IssueCode code;
  JsonPointer pointer;
  std::vector<std::string> arguments;  // at most 6
};

// One entry of the report's info.resources (buffers only; images are not loaded).
struct Resource {
  std::string pointer;                       // "/buffers/0"
  std::string storage;                       // "data-uri", "glb" or "external"
  std::optional<std::string> uri;            // absent for glb storage and data URIs
  std::optional<std::uint64_t> byte_length;  // bytes actually loaded; absent when it failed
};

// Move-only: the spans point into storage owned here.
struct LoadedAsset {
  LoadedAsset();
  ~LoadedAsset();
  LoadedAsset(LoadedAsset&&) noexcept;
  LoadedAsset& operator=(LoadedAsset&&) noexcept;
  LoadedAsset(const LoadedAsset&) = delete;
  LoadedAsset& operator=(const LoadedAsset&) = delete;

  std::string uri;  // as given for the report
  MimeType mime_type = MimeType::kNone;
  std::unique_ptr<JsonDocument> document;  // null when unparsable
  // The whole input as it was read (the .gltf text, or the GLB file), owned
  // here; empty when it could not be read. What a writer copies unchanged.
  std::span<const std::uint8_t> file_bytes;
  // The JSON text the document was parsed from: all of a .gltf, or a GLB's
  // JSON chunk (a part of file_bytes). The locator (<gltf_anim/gltf/locator.hpp>)
  // finds a pointer's value in it, so reports and the writer need not read the
  // file again. Empty when there was no JSON text (no document either).
  std::string_view json_text;
  // Where json_text starts in file_bytes: 0 for a .gltf, 20 for a GLB (after
  // its 12-byte header and the JSON chunk's 8-byte header).
  std::uint64_t json_offset = 0;

  std::vector<Buffer> buffers;           // /buffers (empty when absent or not an array)
  std::vector<BufferView> buffer_views;  // /bufferViews
  std::vector<Accessor> accessors;       // /accessors

  // One per /buffers/i: the buffer's bytes, exactly byteLength long (a longer
  // source is cut to byteLength), or nullopt when it could not be loaded.
  std::vector<std::optional<std::span<const std::uint8_t>>> buffer_data;
  std::vector<DataStatus> buffer_view_status;  // one per /bufferViews/i
  std::vector<DataStatus> accessor_status;     // one per /accessors/i
  // The problems behind those statuses, bufferViews (in index order) then
  // accessors (in index order); empty for an asset whose layout is sound.
  std::vector<LayoutFinding> layout_findings;
  // One per /bufferViews/i: the decoded bytes of a compressed bufferView (exactly its
  // byteLength) that an accessor reads and that decoded; nullopt otherwise. Accessors read a
  // compressed bufferView's bytes here, never from its fallback buffer.
  std::vector<std::optional<std::span<const std::uint8_t>>> buffer_view_data;
  // Problems of compressed bufferViews and of buffers without data, reported after
  // layout_findings.
  std::vector<LoaderFinding> loader_findings;
  // In /buffers order: one per buffer with a uri, plus the GLB-stored buffer 0.
  // Empty when LoadOptions::load_buffers is false.
  std::vector<Resource> resources;

 private:
  friend struct LoaderAccess;
  std::vector<std::unique_ptr<io::ByteStorage>> storage_;
};

}  // namespace gltf_anim::gltf
