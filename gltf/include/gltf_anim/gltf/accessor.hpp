#pragma once
// Reading accessor data as numbers, exactly as the spec defines them.
//
// Three ways in, from fastest to most general:
//  - float_view(): zero-copy view of a tightly packed FLOAT accessor without
//    sparse (the usual animation input/output). Element i, component c is
//    view[i * components + c]. Returns nullopt when the accessor is anything
//    else; then use AccessorReader.
//  - AccessorReader: decodes any readable accessor in caller-sized chunks into
//    doubles (all component types, normalized via the spec's formula, strides,
//    sparse substitution, accessors without a bufferView as zeros). Memory use is
//    the caller's chunk plus the sparse indices, never proportional to `count`.
//  - read_accessor(): the whole accessor into a vector<double>, for small data
//    and tests; refuses more than `max_values` values.
//
// Only accessors whose LoadedAsset::accessor_status is kReadable can be read.
// Reads are little-endian memcpy loads: no alignment or aliasing assumptions.
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

namespace gltf_anim::gltf {

// glTF data is little-endian; the memcpy reads below rely on a little-endian host.
static_assert(std::endian::native == std::endian::little, "big-endian hosts are not supported");

// A run of float32 values stored little-endian in a buffer. Indexing is a
// 4-byte memcpy (one load on little-endian hosts).
class FloatView {
 public:
  FloatView() = default;
  explicit FloatView(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::size_t size() const { return bytes_.size() / 4; }
  float operator[](std::size_t i) const;
  std::span<const std::uint8_t> bytes() const { return bytes_; }

 private:
  std::span<const std::uint8_t> bytes_;
};

// The zero-copy view, or nullopt unless: readable, componentType FLOAT, not
// normalized, a bufferView, no sparse, and byteStride absent or equal to the
// element size. size() == count * components.
std::optional<FloatView> float_view(const LoadedAsset& asset, std::size_t accessor_index);

class AccessorReader {
 public:
  // nullopt when the accessor is not kReadable, or when its sparse indices fail
  // the data checks; those failures are reported to `issues` (if not null) at
  // /accessors/i/sparse: ACCESSOR_SPARSE_INDICES_NON_INCREASING and
  // ACCESSOR_SPARSE_INDEX_OOB, the first offending index of each. Pass
  // `issues` on one open() per accessor only (the data pass), nullptr elsewhere,
  // or the sparse issues repeat.
  static std::optional<AccessorReader> open(const LoadedAsset& asset, std::size_t accessor_index,
                                            IssueCollector* issues = nullptr);

  std::uint64_t count() const { return count_; }            // elements
  std::uint32_t components() const { return components_; }  // per element
  ComponentType component_type() const { return component_type_; }
  bool normalized() const { return normalized_; }

  // Decodes elements [first, first + n) into out[0 .. n * components()).
  // Precondition: first + n <= count() (checked; false and nothing written
  // otherwise). Matrix column padding is skipped.
  bool read(std::uint64_t first, std::size_t n, double* out) const;

  // False for an accessor without bufferView: every element is zero except
  // the sparse substitutions, and only those are stored.
  bool has_stored_base() const { return !base_.empty(); }
  // The sparse indices, strictly increasing, each < count() (empty when not sparse).
  std::span<const std::uint32_t> sparse_indices() const { return sparse_indices_; }

 private:
  AccessorReader() = default;
  void decode_base(std::uint64_t first, std::size_t n, double* out) const;

  std::uint64_t count_ = 0;
  std::uint32_t components_ = 0;
  ComponentType component_type_ = ComponentType::kFloat;
  bool normalized_ = false;
  std::span<const std::uint8_t> base_;  // empty: no bufferView, base is zeros
  std::uint64_t stride_ = 0;            // bytes between elements
  // Byte offset of each component inside an element (handles matrix padding).
  std::vector<std::uint32_t> component_offsets_;
  // Sparse substitution: indices strictly increasing, all < count_.
  std::vector<std::uint32_t> sparse_indices_;
  std::span<const std::uint8_t> sparse_values_;  // tightly packed, values element layout
};

// IEEE-754 binary16 (KHR_accessor_float16): the value of the bits (exact in
// a double: subnormals, infinities and NaN included), and the binary16 value
// nearest to x (ties to even; past the largest finite half, 65504, by more
// than half an ulp: infinity), for declared min/max.
double half_to_double(std::uint16_t bits);
double round_to_half(double x);

// The whole accessor: out gets count * components values. false (out cleared)
// when not readable or when count * components > max_values.
bool read_accessor(const LoadedAsset& asset, std::size_t accessor_index, std::vector<double>& out,
                   IssueCollector* issues = nullptr, std::size_t max_values = std::size_t{1} << 26);

inline float FloatView::operator[](std::size_t i) const {
  static_assert(sizeof(float) == 4);
  float f;
  std::memcpy(&f, bytes_.data() + i * 4, 4);  // glTF is little-endian; so are our targets
  return f;
}

}  // namespace gltf_anim::gltf
