// The layout of bufferViews and accessors: does every byte an accessor claims
// lie inside its bufferView, and every bufferView inside its buffer? One pass,
// run by the loader: it decides each object's DataStatus and records the
// problems it met (LayoutFinding), which the link phase reports. All sums and
// products of file-supplied numbers are overflow-checked; an overflow is
// simply "does not fit".
#include "load/internal.hpp"

namespace gltf_anim::gltf {

namespace {

constexpr std::uint64_t kMax = static_cast<std::uint64_t>(-1);

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

// A number argument; nullopt is written "more than 2^64-1".
using Number = std::optional<std::uint64_t>;

// length as an argument: kMax stands for a product that overflowed.
Number length_number(std::uint64_t length) { return length == kMax ? Number() : Number(length); }

// a + b as an argument.
Number sum_number(std::uint64_t a, std::uint64_t b) {
  std::uint64_t total = 0;
  return add_overflows(a, b, total) ? Number() : Number(total);
}

using Member = LayoutFinding::Member;

// The bound asset.hpp states: a finding is a few words, allocation-free.
static_assert(sizeof(LayoutFinding) <= 56);

class Linker {
 public:
  Linker(const LoadedAsset& asset, std::vector<LayoutFinding>& findings,
         const std::vector<std::optional<DataStatus>>& compressed)
      : a_(asset), findings_(findings), compressed_(compressed) {}

  DataStatus view(std::size_t i) {
    const BufferView& bv = a_.buffer_views[i];
    if (!bv.well_formed) return DataStatus::kMalformed;
    const auto report = [&](IssueCode code, Member member, std::initializer_list<Number> args) {
      record(code, i, member, args);
    };
    if (*bv.buffer >= a_.buffers.size()) {
      report("UNRESOLVED_REFERENCE", Member::kBufferViewBuffer, {*bv.buffer});
      return DataStatus::kUnresolved;
    }
    DataStatus status = DataStatus::kReadable;
    if (bv.byte_stride && *bv.byte_stride > *bv.byte_length) {
      report("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", Member::kBufferViewByteStride,
             {*bv.byte_stride, *bv.byte_length});
    }
    const Buffer& buffer = a_.buffers[*bv.buffer];
    if (!buffer.well_formed) return DataStatus::kMalformed;
    if (!fits(bv.byte_offset, *bv.byte_length, *buffer.byte_length)) {
      report("BUFFER_VIEW_TOO_LONG", Member::kBufferViewByteLength,
             {*bv.buffer, *buffer.byte_length});
      status = DataStatus::kBadLayout;
    }
    // A compressed bufferView's bytes are the decoded ones (meshopt.cpp), never its buffer's:
    // that is a fallback, often without data. It must still hold the view (the spec: a
    // placeholder buffer's byteLength MUST be sufficiently large), as checked above.
    if (i < compressed_.size() && compressed_[i]) {
      return status == DataStatus::kReadable ? *compressed_[i] : status;
    }
    if (status == DataStatus::kReadable && !a_.buffer_data[*bv.buffer])
      status = DataStatus::kNoData;
    return status;
  }

  DataStatus accessor(std::size_t i, const std::vector<DataStatus>& views) {
    const Accessor& acc = a_.accessors[i];
    if (!acc.well_formed) return DataStatus::kMalformed;
    const auto report = [&](IssueCode code, Member member, std::initializer_list<Number> args) {
      record(code, i, member, args);
    };
    const std::uint64_t component = component_size(*acc.component_type);
    const std::uint64_t element = element_size(*acc.component_type, *acc.type);
    DataStatus status = DataStatus::kReadable;
    auto worsen = [&status](DataStatus s) {
      if (status == DataStatus::kReadable) status = s;
    };

    // "normalized ... MUST NOT be set to true for accessors with FLOAT or
    // UNSIGNED_INT component type" (3.6.2.1), nor for DOUBLE and HALF_FLOAT
    // (the KHR_accessor_float64/float16 drafts). The values are still read as
    // stored, so the data checks go on.
    if (acc.normalized && (is_floating_point(*acc.component_type) ||
                           *acc.component_type == ComponentType::kUnsignedInt)) {
      report("ACCESSOR_NORMALIZED_INVALID", Member::kAccessorNormalized, {});
    }
    if (acc.buffer_view) {
      // Misalignment is a spec violation but reads stay exact (memcpy loads),
      // so it does not block the data checks.
      if (acc.byte_offset % component != 0) {
        report("ACCESSOR_OFFSET_ALIGNMENT", Member::kAccessorByteOffset,
               {acc.byte_offset, component});
      }
      if (*acc.buffer_view >= a_.buffer_views.size()) {
        report("UNRESOLVED_REFERENCE", Member::kAccessorBufferView, {*acc.buffer_view});
        worsen(DataStatus::kUnresolved);
      } else {
        const BufferView& bv = a_.buffer_views[*acc.buffer_view];
        if (!bv.well_formed) {
          worsen(DataStatus::kMalformed);
        } else {
          const std::uint64_t stride = bv.byte_stride.value_or(element);
          if (stride < element) {
            report("ACCESSOR_SMALL_BYTESTRIDE", Member::kAccessorBufferView, {stride, element});
            worsen(DataStatus::kBadLayout);
          }
          // Both remainders are < component, so their sum cannot wrap.
          if (acc.byte_offset % component == 0 && (bv.byte_offset % component) != 0) {
            report("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", Member::kAccessorByteOffset,
                   {sum_number(bv.byte_offset, acc.byte_offset), component});
          }
          const std::uint64_t length =
              span_length(*acc.count, stride, element_extent(*acc.component_type, *acc.type));
          if (!fits(acc.byte_offset, length, *bv.byte_length)) {
            report("ACCESSOR_TOO_LONG", Member::kAccessorByteOffset,
                   {acc.byte_offset, length_number(length), *acc.buffer_view, *bv.byte_length});
            worsen(DataStatus::kBadLayout);
          }
          worsen(views[*acc.buffer_view]);
        }
      }
    }

    if (acc.sparse) {
      const AccessorSparse& s = *acc.sparse;
      if (s.count > *acc.count) {
        report("ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", Member::kAccessorSparseCount,
               {s.count, *acc.count});
        worsen(DataStatus::kBadLayout);
      }
      worsen(sparse_part(i, kSparseIndices, s.indices_buffer_view, s.indices_byte_offset,
                         span_length(s.count, component_size(s.indices_component_type),
                                     component_size(s.indices_component_type)),
                         views));
      worsen(sparse_part(i, kSparseValues, s.values_buffer_view, s.values_byte_offset,
                         span_length(s.count, element, element), views));
    }
    return status;
  }

 private:
  // The members of sparse.indices or sparse.values.
  struct SparseMembers {
    Member buffer_view;
    Member byte_offset;
  };
  static constexpr SparseMembers kSparseIndices{Member::kAccessorSparseIndicesBufferView,
                                                Member::kAccessorSparseIndicesByteOffset};
  static constexpr SparseMembers kSparseValues{Member::kAccessorSparseValuesBufferView,
                                               Member::kAccessorSparseValuesByteOffset};

  // Sparse indices and values are tightly packed runs inside a bufferView.
  DataStatus sparse_part(std::size_t i, const SparseMembers& members, std::uint64_t view,
                         std::uint64_t offset, std::uint64_t length,
                         const std::vector<DataStatus>& views) {
    if (view >= a_.buffer_views.size()) {
      record("UNRESOLVED_REFERENCE", i, members.buffer_view, {view});
      return DataStatus::kUnresolved;
    }
    const BufferView& bv = a_.buffer_views[view];
    if (!bv.well_formed) return DataStatus::kMalformed;
    if (!fits(offset, length, *bv.byte_length)) {
      record("ACCESSOR_TOO_LONG", i, members.byte_offset,
             {offset, length_number(length), view, *bv.byte_length});
      return DataStatus::kBadLayout;
    }
    return views[view];
  }

  void record(IssueCode code, std::size_t index, Member member,
              std::initializer_list<Number> args) {
    LayoutFinding f{code, index, {}, member, 0, 0};
    for (const Number& n : args) {
      if (!n) f.past_2_64 = static_cast<std::uint8_t>(f.past_2_64 | (1u << f.argument_count));
      f.arguments[f.argument_count++] = n.value_or(0);
    }
    findings_.push_back(f);
  }

  const LoadedAsset& a_;
  std::vector<LayoutFinding>& findings_;
  const std::vector<std::optional<DataStatus>>& compressed_;
};

}  // namespace

void analyze_layout(LoadedAsset& asset, const std::vector<std::optional<DataStatus>>& compressed) {
  std::vector<LayoutFinding> findings;
  Linker linker(asset, findings, compressed);
  std::vector<DataStatus> views;
  views.reserve(asset.buffer_views.size());
  for (std::size_t i = 0; i < asset.buffer_views.size(); ++i) views.push_back(linker.view(i));
  std::vector<DataStatus> accessors;
  accessors.reserve(asset.accessors.size());
  for (std::size_t i = 0; i < asset.accessors.size(); ++i)
    accessors.push_back(linker.accessor(i, views));
  asset.buffer_view_status = std::move(views);
  asset.accessor_status = std::move(accessors);
  asset.layout_findings = std::move(findings);
}

JsonPointer LayoutFinding::pointer() const {
  const bool of_view = member == Member::kBufferViewBuffer ||
                       member == Member::kBufferViewByteLength ||
                       member == Member::kBufferViewByteStride;
  const JsonPointer at =
      JsonPointer(of_view ? "/bufferViews" : "/accessors") / static_cast<std::size_t>(index);
  switch (member) {
    case Member::kBufferViewBuffer: return at / "buffer";
    case Member::kBufferViewByteLength: return at / "byteLength";
    case Member::kBufferViewByteStride: return at / "byteStride";
    case Member::kAccessorBufferView: return at / "bufferView";
    case Member::kAccessorByteOffset: return at / "byteOffset";
    case Member::kAccessorNormalized: return at / "normalized";
    case Member::kAccessorSparseCount: return at / "sparse" / "count";
    case Member::kAccessorSparseIndicesBufferView: return at / "sparse" / "indices" / "bufferView";
    case Member::kAccessorSparseIndicesByteOffset: return at / "sparse" / "indices" / "byteOffset";
    case Member::kAccessorSparseValuesBufferView: return at / "sparse" / "values" / "bufferView";
    case Member::kAccessorSparseValuesByteOffset: return at / "sparse" / "values" / "byteOffset";
  }
  return at;
}

std::string LayoutFinding::argument_text(std::size_t k) const {
  return (past_2_64 >> k) & 1u ? std::string("more than 2^64-1") : std::to_string(arguments[k]);
}

void check_buffers_and_accessors(const LoadedAsset& asset, IssueCollector& issues) {
  for (const LayoutFinding& f : asset.layout_findings) {
    const JsonPointer at = f.pointer();
    switch (f.argument_count) {  // the codes of this file take 0, 1, 2 or 4 arguments
      case 0: issues.add(f.code, at); break;
      case 1: issues.add(f.code, at, {f.argument_text(0)}); break;
      case 2: issues.add(f.code, at, {f.argument_text(0), f.argument_text(1)}); break;
      default:
        issues.add(
            f.code, at,
            {f.argument_text(0), f.argument_text(1), f.argument_text(2), f.argument_text(3)});
        break;
    }
  }
  for (const LoaderFinding& f : asset.loader_findings) {
    const auto& x = f.arguments;
    switch (x.size()) {
      case 0: issues.add(f.code, f.pointer); break;
      case 1: issues.add(f.code, f.pointer, {x[0]}); break;
      case 2: issues.add(f.code, f.pointer, {x[0], x[1]}); break;
      case 3: issues.add(f.code, f.pointer, {x[0], x[1], x[2]}); break;
      case 4: issues.add(f.code, f.pointer, {x[0], x[1], x[2], x[3]}); break;
      case 5: issues.add(f.code, f.pointer, {x[0], x[1], x[2], x[3], x[4]}); break;
      default: issues.add(f.code, f.pointer, {x[0], x[1], x[2], x[3], x[4], x[5]}); break;
    }
  }
}

}  // namespace gltf_anim::gltf
