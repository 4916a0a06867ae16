// Decoding accessor bytes to numbers. Every range used here was proven to lie
// inside its buffer by the layout pass (status kReadable); open() re-derives
// the spans from the same numbers and re-checks them, so a reader can never
// be built over bytes it does not own.
#include <gltf_anim/reference/normalized.hpp>
#include <gltf_anim/gltf/accessor.hpp>

#include "load/internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace gltf_anim::gltf {

namespace {

// A binary16 component as stored (two bytes); decode() gives its value.
struct Half {
  std::uint16_t bits;
};
static_assert(sizeof(Half) == 2);

template <typename T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// One component as the spec defines its value.
template <typename T>
double decode(const std::uint8_t* p, bool normalized) {
  const T v = load<T>(p);
  if constexpr (std::is_same_v<T, Half>) {
    return half_to_double(v.bits);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<double>(v);
  } else {
    return normalized ? reference::decode_normalized(v) : static_cast<double>(v);
  }
}

double decode_component(ComponentType type, const std::uint8_t* p, bool normalized) {
  switch (type) {
    case ComponentType::kByte: return decode<std::int8_t>(p, normalized);
    case ComponentType::kUnsignedByte: return decode<std::uint8_t>(p, normalized);
    case ComponentType::kShort: return decode<std::int16_t>(p, normalized);
    case ComponentType::kUnsignedShort: return decode<std::uint16_t>(p, normalized);
    case ComponentType::kUnsignedInt: return decode<std::uint32_t>(p, normalized);
    case ComponentType::kFloat: return decode<float>(p, false);
    case ComponentType::kDouble: return decode<double>(p, false);
    case ComponentType::kHalfFloat: return decode<Half>(p, false);
  }
  return 0.0;
}

// Elements [first, first + n) of a strided run, typed loop per component type.
template <typename T>
void decode_run(const std::uint8_t* base, std::uint64_t stride, const std::uint32_t* offsets,
                std::uint32_t components, bool normalized, std::uint64_t first, std::size_t n,
                double* out) {
  const std::uint8_t* p = base + first * stride;
  const bool packed =
      stride == sizeof(T) * components && offsets[components - 1] == sizeof(T) * (components - 1);
  if (packed) {
    // Tightly packed without matrix padding: one flat loop the compiler vectorizes.
    const std::size_t total = n * components;
    for (std::size_t k = 0; k < total; ++k) out[k] = decode<T>(p + k * sizeof(T), normalized);
    return;
  }
  for (std::size_t e = 0; e < n; ++e, p += stride) {
    for (std::uint32_t c = 0; c < components; ++c) *out++ = decode<T>(p + offsets[c], normalized);
  }
}

// count elements `stride` apart, the last `element` long; nullopt on overflow.
std::optional<std::uint64_t> run_length(std::uint64_t count, std::uint64_t stride,
                                        std::uint64_t element) {
  std::uint64_t body = 0;
  std::uint64_t total = 0;
  if (count == 0) return 0;
  if (mul_overflows(count - 1, stride, body) || add_overflows(body, element, total))
    return std::nullopt;
  return total;
}

std::optional<std::span<const std::uint8_t>> view_bytes(const LoadedAsset& asset,
                                                        std::uint64_t view, std::uint64_t offset,
                                                        std::uint64_t length) {
  if (view >= asset.buffer_views.size()) return std::nullopt;
  const BufferView& bv = asset.buffer_views[view];
  if (!bv.well_formed || *bv.buffer >= asset.buffer_data.size()) return std::nullopt;
  if (bv.meshopt) {
    // Compressed: the decoded bytes are the bufferView's, exactly byteLength long.
    if (view >= asset.buffer_view_data.size() || !asset.buffer_view_data[view]) return std::nullopt;
    const std::span<const std::uint8_t> decoded = *asset.buffer_view_data[view];
    if (decoded.size() != *bv.byte_length) return std::nullopt;
    if (length > decoded.size() || offset > decoded.size() - length) return std::nullopt;
    return decoded.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
  }
  const auto& data = asset.buffer_data[*bv.buffer];
  if (!data) return std::nullopt;
  // Within the bufferView, and the bufferView within the loaded bytes.
  const std::uint64_t size = data->size();
  if (*bv.byte_length > size || bv.byte_offset > size - *bv.byte_length) return std::nullopt;
  if (length > *bv.byte_length || offset > *bv.byte_length - length) return std::nullopt;
  return data->subspan(static_cast<std::size_t>(bv.byte_offset + offset),
                       static_cast<std::size_t>(length));
}

}  // namespace

std::optional<AccessorReader> AccessorReader::open(const LoadedAsset& asset, std::size_t index,
                                                   IssueCollector* issues) {
  if (index >= asset.accessors.size() || index >= asset.accessor_status.size() ||
      asset.accessor_status[index] != DataStatus::kReadable) {
    return std::nullopt;
  }
  const Accessor& acc = asset.accessors[index];
  if (!acc.well_formed) return std::nullopt;
  AccessorReader r;
  r.count_ = *acc.count;
  r.component_type_ = *acc.component_type;
  r.components_ = component_count(*acc.type);
  r.normalized_ = acc.normalized && !is_floating_point(r.component_type_);
  const std::uint32_t size = component_size(r.component_type_);
  const std::uint32_t element = element_size(r.component_type_, *acc.type);
  // Matrix columns start on 4-byte boundaries; rows are contiguous.
  const std::uint32_t rows = *acc.type == ElementType::kMat2   ? 2
                             : *acc.type == ElementType::kMat3 ? 3
                             : *acc.type == ElementType::kMat4 ? 4
                                                               : r.components_;
  const std::uint32_t column = rows == r.components_ ? rows * size : (rows * size + 3u) / 4u * 4u;
  r.component_offsets_.resize(r.components_);
  for (std::uint32_t c = 0; c < r.components_; ++c) {
    r.component_offsets_[c] = (c / rows) * column + (c % rows) * size;
  }

  if (acc.buffer_view) {
    const BufferView& bv = asset.buffer_views[*acc.buffer_view];
    r.stride_ = bv.byte_stride.value_or(element);
    const auto length =
        run_length(r.count_, r.stride_, element_extent(r.component_type_, *acc.type));
    if (!length || r.stride_ < element) return std::nullopt;
    const auto bytes = view_bytes(asset, *acc.buffer_view, acc.byte_offset, *length);
    if (!bytes) return std::nullopt;
    r.base_ = *bytes;
  }

  if (acc.sparse) {
    const AccessorSparse& s = *acc.sparse;
    const JsonPointer at = JsonPointer("/accessors") / index / "sparse";
    const ComponentType itype = s.indices_component_type;
    const std::uint32_t isize = component_size(itype);
    if (s.count > r.count_) return std::nullopt;
    const auto indices_length = run_length(s.count, isize, isize);
    const auto values_length = run_length(s.count, element, element);
    if (!indices_length || !values_length) return std::nullopt;
    const auto indices =
        view_bytes(asset, s.indices_buffer_view, s.indices_byte_offset, *indices_length);
    const auto values =
        view_bytes(asset, s.values_buffer_view, s.values_byte_offset, *values_length);
    if (!indices || !values) return std::nullopt;
    // s.count * isize bytes exist, so this allocation is bounded by the file.
    r.sparse_indices_.resize(static_cast<std::size_t>(s.count));
    bool ok = true;
    bool non_increasing_reported = false;
    bool oob_reported = false;
    for (std::size_t k = 0; k < r.sparse_indices_.size(); ++k) {
      const std::uint8_t* p = indices->data() + k * isize;
      const std::uint32_t v = itype == ComponentType::kUnsignedByte    ? load<std::uint8_t>(p)
                              : itype == ComponentType::kUnsignedShort ? load<std::uint16_t>(p)
                                                                       : load<std::uint32_t>(p);
      r.sparse_indices_[k] = v;
      if (k > 0 && v <= r.sparse_indices_[k - 1]) {
        ok = false;
        if (issues != nullptr && !non_increasing_reported) {
          issues->add(
              "ACCESSOR_SPARSE_INDICES_NON_INCREASING", at,
              {std::to_string(k), std::to_string(v), std::to_string(r.sparse_indices_[k - 1])});
        }
        non_increasing_reported = true;
      }
      if (v >= r.count_) {
        ok = false;
        if (issues != nullptr && !oob_reported) {
          issues->add("ACCESSOR_SPARSE_INDEX_OOB", at,
                      {std::to_string(k), std::to_string(v), std::to_string(r.count_)});
        }
        oob_reported = true;
      }
    }
    if (!ok) return std::nullopt;
    r.sparse_values_ = *values;
  }
  return r;
}

void AccessorReader::decode_base(std::uint64_t first, std::size_t n, double* out) const {
  if (base_.empty()) {
    std::fill(out, out + n * components_, 0.0);
    return;
  }
  const std::uint32_t* offsets = component_offsets_.data();
  switch (component_type_) {
    case ComponentType::kByte:
      decode_run<std::int8_t>(base_.data(), stride_, offsets, components_, normalized_, first, n,
                              out);
      break;
    case ComponentType::kUnsignedByte:
      decode_run<std::uint8_t>(base_.data(), stride_, offsets, components_, normalized_, first, n,
                               out);
      break;
    case ComponentType::kShort:
      decode_run<std::int16_t>(base_.data(), stride_, offsets, components_, normalized_, first, n,
                               out);
      break;
    case ComponentType::kUnsignedShort:
      decode_run<std::uint16_t>(base_.data(), stride_, offsets, components_, normalized_, first, n,
                                out);
      break;
    case ComponentType::kUnsignedInt:
      decode_run<std::uint32_t>(base_.data(), stride_, offsets, components_, normalized_, first, n,
                                out);
      break;
    case ComponentType::kFloat:
      decode_run<float>(base_.data(), stride_, offsets, components_, false, first, n, out);
      break;
    case ComponentType::kDouble:
      decode_run<double>(base_.data(), stride_, offsets, components_, false, first, n, out);
      break;
    case ComponentType::kHalfFloat:
      decode_run<Half>(base_.data(), stride_, offsets, components_, false, first, n, out);
      break;
  }
}

bool AccessorReader::read(std::uint64_t first, std::size_t n, double* out) const {
  if (first > count_ || n > count_ - first) return false;
  if (n == 0) return true;
  decode_base(first, n, out);
  if (sparse_indices_.empty()) return true;
  // Sparse indices are strictly increasing (checked in open): binary search
  // the first one in range, then walk.
  const std::uint64_t last = first + n;
  const std::size_t element = sparse_values_.size() / sparse_indices_.size();
  auto it = std::lower_bound(sparse_indices_.begin(), sparse_indices_.end(), first);
  for (; it != sparse_indices_.end() && *it < last; ++it) {
    const auto k = static_cast<std::size_t>(it - sparse_indices_.begin());
    const std::uint8_t* p = sparse_values_.data() + k * element;
    double* dst = out + (*it - first) * components_;
    for (std::uint32_t c = 0; c < components_; ++c) {
      dst[c] = decode_component(component_type_, p + component_offsets_[c], normalized_);
    }
  }
  return true;
}

double half_to_double(std::uint16_t bits) {
  const double sign = (bits & 0x8000u) != 0 ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1F;
  const int fraction = bits & 0x3FF;
  if (exponent == 0x1F) {
    return fraction == 0 ? sign * std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::quiet_NaN();
  }
  if (exponent == 0) return sign * std::ldexp(fraction, -24);  // zero and subnormals: f x 2^-24
  return sign * std::ldexp(1024 + fraction, exponent - 25);    // (1 + f/1024) x 2^(e-15)
}

double round_to_half(double x) {
  if (!std::isfinite(x) || x == 0.0) return x;
  int e = 0;
  std::frexp(x, &e);                          // |x| in [2^(e-1), 2^e)
  const int exponent = std::max(e - 1, -14);  // subnormals share the step of 2^-14
  const double step = std::ldexp(1.0, exponent - 10);
  const double r = std::nearbyint(x / step) * step;  // exact scaling; ties to even
  return std::fabs(r) > 65504.0 ? std::copysign(std::numeric_limits<double>::infinity(), x) : r;
}

std::optional<FloatView> float_view(const LoadedAsset& asset, std::size_t index) {
  if (index >= asset.accessors.size() || index >= asset.accessor_status.size() ||
      asset.accessor_status[index] != DataStatus::kReadable) {
    return std::nullopt;
  }
  const Accessor& acc = asset.accessors[index];
  if (!acc.well_formed || acc.component_type != ComponentType::kFloat || acc.normalized ||
      !acc.buffer_view || acc.has_sparse_member) {
    return std::nullopt;
  }
  const std::uint64_t element = element_size(ComponentType::kFloat, *acc.type);
  const BufferView& bv = asset.buffer_views[*acc.buffer_view];
  if (bv.byte_stride && *bv.byte_stride != element) return std::nullopt;
  const auto length = run_length(*acc.count, element, element);
  if (!length) return std::nullopt;
  const auto bytes = view_bytes(asset, *acc.buffer_view, acc.byte_offset, *length);
  if (!bytes) return std::nullopt;
  return FloatView(*bytes);
}

bool read_accessor(const LoadedAsset& asset, std::size_t index, std::vector<double>& out,
                   IssueCollector* issues, std::size_t max_values) {
  out.clear();
  const auto reader = AccessorReader::open(asset, index, issues);
  if (!reader) return false;
  std::uint64_t total = 0;
  if (mul_overflows(reader->count(), reader->components(), total) || total > max_values)
    return false;
  out.resize(static_cast<std::size_t>(total));
  return reader->read(0, static_cast<std::size_t>(reader->count()), out.data());
}

}  // namespace gltf_anim::gltf
