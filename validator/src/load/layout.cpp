// Link-phase layout checks of bufferViews and accessors: does every byte an
// accessor claims lie inside its bufferView, and every bufferView inside its
// buffer? All sums and products of file-supplied numbers are overflow-checked;
// an overflow is simply "does not fit".
#include "load/internal.hpp"

namespace gltf_anim::validator {

namespace {

constexpr std::uint64_t kMax = static_cast<std::uint64_t>(-1);

std::string num(std::uint64_t v) { return std::to_string(v); }

// Bytes spanned by `count` elements `stride` apart, the last one `element` long:
// stride * (count - 1) + element (glTF 2.0 3.6.2.4). kMax on overflow.
std::uint64_t span_length(std::uint64_t count, std::uint64_t stride, std::uint64_t element) {
  std::uint64_t body = 0;
  std::uint64_t total = 0;
  if (count == 0) return 0;
  if (mul_overflows(count - 1, stride, body) || add_overflows(body, element, total)) return kMax;
  return total;
}

// Does [offset, offset + length) fit in `capacity` bytes? Never adds.
bool fits(std::uint64_t offset, std::uint64_t length, std::uint64_t capacity) {
  return length != kMax && length <= capacity && offset <= capacity - length;
}

// length as a message argument: kMax stands for a product that overflowed.
std::string length_text(std::uint64_t length) {
  return length == kMax ? std::string("more than 2^64-1") : num(length);
}

class Linker {
 public:
  Linker(const LoadedAsset& asset, IssueCollector* issues) : a_(asset), issues_(issues) {}

  DataStatus view(std::size_t i) {
    const BufferView& bv = a_.buffer_views[i];
    if (!bv.well_formed) return DataStatus::kMalformed;
    const JsonPointer at = JsonPointer("/bufferViews") / i;
    if (*bv.buffer >= a_.buffers.size()) {
      report("UNRESOLVED_REFERENCE", at / "buffer", {num(*bv.buffer)});
      return DataStatus::kUnresolved;
    }
    DataStatus status = DataStatus::kReadable;
    if (bv.byte_stride && *bv.byte_stride > *bv.byte_length) {
      report("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", at / "byteStride",
             {num(*bv.byte_stride), num(*bv.byte_length)});
    }
    const Buffer& buffer = a_.buffers[*bv.buffer];
    if (!buffer.well_formed) return DataStatus::kMalformed;
    if (!fits(bv.byte_offset, *bv.byte_length, *buffer.byte_length)) {
      report("BUFFER_VIEW_TOO_LONG", at / "byteLength", {num(*bv.buffer), num(*buffer.byte_length)});
      status = DataStatus::kBadLayout;
    }
    if (status == DataStatus::kReadable && !a_.buffer_data[*bv.buffer]) status = DataStatus::kNoData;
    return status;
  }

  DataStatus accessor(std::size_t i, const std::vector<DataStatus>& views) {
    const Accessor& acc = a_.accessors[i];
    if (!acc.well_formed) return DataStatus::kMalformed;
    const JsonPointer at = JsonPointer("/accessors") / i;
    const std::uint64_t component = component_size(*acc.component_type);
    const std::uint64_t element = element_size(*acc.component_type, *acc.type);
    DataStatus status = DataStatus::kReadable;
    auto worsen = [&status](DataStatus s) {
      if (status == DataStatus::kReadable) status = s;
    };

    // "normalized ... MUST NOT be set to true for accessors with FLOAT or
    // UNSIGNED_INT component type" (3.6.2.1). The values are still read as stored,
    // so the data checks go on.
    if (acc.normalized && (*acc.component_type == ComponentType::kFloat ||
                           *acc.component_type == ComponentType::kUnsignedInt)) {
      report("ACCESSOR_NORMALIZED_INVALID", at / "normalized", {});
    }
    if (acc.buffer_view) {
      // Misalignment is a spec violation but reads stay exact (memcpy loads),
      // so it does not block the data checks.
      if (acc.byte_offset % component != 0) {
        report("ACCESSOR_OFFSET_ALIGNMENT", at / "byteOffset", {num(acc.byte_offset), num(component)});
      }
      if (*acc.buffer_view >= a_.buffer_views.size()) {
        report("UNRESOLVED_REFERENCE", at / "bufferView", {num(*acc.buffer_view)});
        worsen(DataStatus::kUnresolved);
      } else {
        const BufferView& bv = a_.buffer_views[*acc.buffer_view];
        if (!bv.well_formed) {
          worsen(DataStatus::kMalformed);
        } else {
          const std::uint64_t stride = bv.byte_stride.value_or(element);
          if (stride < element) {
            report("ACCESSOR_SMALL_BYTESTRIDE", at / "bufferView", {num(stride), num(element)});
            worsen(DataStatus::kBadLayout);
          }
          // Both remainders are < component, so their sum cannot wrap.
          if (acc.byte_offset % component == 0 && (bv.byte_offset % component) != 0) {
            report("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", at / "byteOffset",
                   {total_offset_text(bv.byte_offset, acc.byte_offset), num(component)});
          }
          const std::uint64_t length = span_length(*acc.count, stride, element);
          if (!fits(acc.byte_offset, length, *bv.byte_length)) {
            report("ACCESSOR_TOO_LONG", at / "byteOffset",
                   {num(acc.byte_offset), length_text(length), num(*acc.buffer_view),
                    num(*bv.byte_length)});
            worsen(DataStatus::kBadLayout);
          }
          worsen(views[*acc.buffer_view]);
        }
      }
    }

    if (acc.sparse) {
      const AccessorSparse& s = *acc.sparse;
      const JsonPointer sp = at / "sparse";
      if (s.count > *acc.count) {
        report("ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", sp / "count", {num(s.count), num(*acc.count)});
        worsen(DataStatus::kBadLayout);
      }
      worsen(sparse_part(sp / "indices", s.indices_buffer_view, s.indices_byte_offset,
                         span_length(s.count, component_size(s.indices_component_type),
                                     component_size(s.indices_component_type)),
                         views));
      worsen(sparse_part(sp / "values", s.values_buffer_view, s.values_byte_offset,
                         span_length(s.count, element, element), views));
    }
    return status;
  }

 private:
  // Sparse indices and values are tightly packed runs inside a bufferView.
  DataStatus sparse_part(const JsonPointer& at, std::uint64_t view, std::uint64_t offset,
                         std::uint64_t length, const std::vector<DataStatus>& views) {
    if (view >= a_.buffer_views.size()) {
      report("UNRESOLVED_REFERENCE", at / "bufferView", {num(view)});
      return DataStatus::kUnresolved;
    }
    const BufferView& bv = a_.buffer_views[view];
    if (!bv.well_formed) return DataStatus::kMalformed;
    if (!fits(offset, length, *bv.byte_length)) {
      report("ACCESSOR_TOO_LONG", at / "byteOffset",
             {num(offset), length_text(length), num(view), num(*bv.byte_length)});
      return DataStatus::kBadLayout;
    }
    return views[view];
  }

  static std::string total_offset_text(std::uint64_t a, std::uint64_t b) {
    std::uint64_t total = 0;
    return add_overflows(a, b, total) ? "more than 2^64-1" : num(total);
  }

  void report(IssueCode code, const JsonPointer& at, std::initializer_list<std::string> args) {
    if (issues_ != nullptr) issues_->add(code, at, args);
  }

  const LoadedAsset& a_;
  IssueCollector* issues_;
};

}  // namespace

void analyze_layout(const LoadedAsset& asset, std::vector<DataStatus>* view_status,
                    std::vector<DataStatus>* accessor_status, IssueCollector* issues) {
  Linker linker(asset, issues);
  std::vector<DataStatus> views;
  views.reserve(asset.buffer_views.size());
  for (std::size_t i = 0; i < asset.buffer_views.size(); ++i) views.push_back(linker.view(i));
  std::vector<DataStatus> accessors;
  accessors.reserve(asset.accessors.size());
  for (std::size_t i = 0; i < asset.accessors.size(); ++i) accessors.push_back(linker.accessor(i, views));
  if (view_status != nullptr) *view_status = std::move(views);
  if (accessor_status != nullptr) *accessor_status = std::move(accessors);
}

void check_buffers_and_accessors(const LoadedAsset& asset, IssueCollector& issues) {
  analyze_layout(asset, nullptr, nullptr, &issues);
}

}  // namespace gltf_anim::validator
