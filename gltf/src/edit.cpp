// The edit session: JSON edits resolved to splices in one locator pass,
// accessor data encoded and placed, buffers compacted, output files formed.
#include <gltf_anim/gltf/edit.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>
#include <gltf_anim/gltf/locator.hpp>
#include <gltf_anim/gltf/writer.hpp>
#include <gltf_anim/text/base64.hpp>
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/shortest_double.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>
#include <unordered_map>

namespace gltf_anim::gltf {
namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The character at a place of the text (the locator's places are inside it,
// so they fit a size_t, 32-bit in the WebAssembly build).
char char_at(std::string_view text, std::uint64_t at) { return text[static_cast<std::size_t>(at)]; }

// Bytes of one component (component_size, the one table); 0 for the float64 and float16
// drafts' types, which edits do not encode.
std::uint32_t component_bytes(ComponentType ct) {
  return ct == ComponentType::kDouble || ct == ComponentType::kHalfFloat ? 0 : component_size(ct);
}

// Bytes of one element in a buffer, with the column padding of MAT2/MAT3 of
// 1- and 2-byte components (3.6.2.4): the smallest byteStride.
std::uint64_t element_bytes(const ElementFormat& f) {
  return component_bytes(f.component_type) == 0 ? 0 : element_size(f.component_type, f.type);
}

std::string integer_text(std::int64_t v) { return std::to_string(v); }

// The shortest decimal that reads back as `f` (strtof): at most 9 digits.
// By snprintf rather than std::to_chars(float), which the WebAssembly build's
// C++ library lacks.
std::string float_text(float f) {
  char buf[32];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  return buf;
}

std::string number_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (k != 0) out += ',';
    out += v[k];
  }
  return out + "]";
}

// A file name as a URI path segment: RFC 3986 unreserved characters kept,
// every other byte percent-encoded (a space, '#', '%', non-ASCII).
std::string uri_segment(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

bool is_data_uri(std::string_view uri) {
  return uri.size() >= 5 && (uri.substr(0, 5) == "data:" || uri.substr(0, 5) == "DATA:" ||
                             uri.substr(0, 5) == "Data:");
}

// The parent of a pointer and its last token (unescaped).
std::pair<std::string, std::string> split_pointer(std::string_view pointer) {
  const std::size_t slash = pointer.rfind('/');
  if (slash == std::string_view::npos) return {"", ""};
  std::string token;
  const std::string_view raw = pointer.substr(slash + 1);
  for (std::size_t k = 0; k < raw.size(); ++k) {
    if (raw[k] == '~' && k + 1 < raw.size()) {
      token += raw[k + 1] == '1' ? '/' : '~';
      ++k;
    } else {
      token += raw[k];
    }
  }
  return {std::string(pointer.substr(0, slash)), token};
}

}  // namespace

std::optional<EncodedData> encode(std::span<const double> values, const ElementFormat& format,
                                  std::string& why) {
  const std::uint32_t comps = component_count(format.type);
  double scale = 0;  // normalized: the type's largest value; 0 for FLOAT
  bool is_signed = false;
  if (format.component_type == ComponentType::kFloat && !format.normalized) {
  } else if (format.normalized && format.component_type == ComponentType::kByte) {
    scale = 127, is_signed = true;
  } else if (format.normalized && format.component_type == ComponentType::kUnsignedByte) {
    scale = 255;
  } else if (format.normalized && format.component_type == ComponentType::kShort) {
    scale = 32767, is_signed = true;
  } else if (format.normalized && format.component_type == ComponentType::kUnsignedShort) {
    scale = 65535;
  } else {
    why = "animation data is FLOAT or a normalized BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT";
    return std::nullopt;
  }
  const bool matrix = format.type == ElementType::kMat2 || format.type == ElementType::kMat3 ||
                      format.type == ElementType::kMat4;
  if (scale != 0 && matrix) {
    why = "matrices are encoded as FLOAT only";
    return std::nullopt;
  }
  if (values.empty() || values.size() % comps != 0) {
    why = std::to_string(values.size()) + " values are not a whole number (>= 1) of " +
          std::string(element_type_name(format.type)) + " elements";
    return std::nullopt;
  }
  EncodedData out;
  out.format = format;
  out.count = values.size() / comps;
  const std::uint32_t size = component_bytes(format.component_type);
  out.bytes.resize(values.size() * size);
  std::vector<double> lo(comps, std::numeric_limits<double>::infinity());
  std::vector<double> hi(comps, -std::numeric_limits<double>::infinity());
  for (std::size_t k = 0; k < values.size(); ++k) {
    const double v = values[k];
    double stored = 0;
    if (scale == 0) {
      const auto f = static_cast<float>(v);
      if (!std::isfinite(v) || !std::isfinite(f)) {
        why = "value " + std::to_string(k) + " (" + json_number(v) + ") is not a finite float";
        return std::nullopt;
      }
      std::memcpy(out.bytes.data() + k * 4, &f, 4);
      stored = f;
    } else {
      if (!(v >= (is_signed ? -1.0 : 0.0) && v <= 1.0)) {
        why = "value " + std::to_string(k) + " (" + json_number(v) + ") is outside [" +
              (is_signed ? "-1" : "0") + ", 1] for a normalized type";
        return std::nullopt;
      }
      const auto q = static_cast<std::int64_t>(std::lround(v * scale));
      const auto bits = static_cast<std::uint64_t>(q);
      for (std::uint32_t b = 0; b < size; ++b) {
        out.bytes[k * size + b] = static_cast<std::uint8_t>(bits >> (8 * b));
      }
      stored = static_cast<double>(q);
    }
    const std::size_t c = k % comps;
    lo[c] = std::min(lo[c], stored);
    hi[c] = std::max(hi[c], stored);
  }
  for (std::uint32_t c = 0; c < comps; ++c) {
    if (scale == 0) {
      out.min.push_back(float_text(static_cast<float>(lo[c])));
      out.max.push_back(float_text(static_cast<float>(hi[c])));
    } else {
      out.min.push_back(integer_text(static_cast<std::int64_t>(lo[c])));
      out.max.push_back(integer_text(static_cast<std::int64_t>(hi[c])));
    }
  }
  return out;
}

std::string json_string(std::string_view text) { return text::json_string(text); }

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  return text::shortest_double(value);
}

Edit::Edit(Source source) : source_(std::move(source)) {
  source_accessors_ = source_.accessors.size();
  accessors_.reserve(source_accessors_);
  for (const SourceAccessor& a : source_.accessors)
    accessors_.push_back(AccessorState{a, false, false, false, {}, {}});
  overwritten_.resize(source_.buffers.size());
  aliased_.assign(source_accessors_, false);
  // Which accessors share bytes with another accessor or with a bufferView
  // used elsewhere: per buffer, ranges sorted by start; a range overlaps an
  // earlier one when the largest end before it passes its start, a later one
  // when the next start is before its end. O(n log n).
  struct Range {
    std::size_t buffer;
    std::uint64_t begin, end;
    std::size_t owner;  // accessor index, or SIZE_MAX for a bufferView used elsewhere
  };
  std::vector<Range> ranges;
  for (std::size_t v = 0; v < source_.buffer_views.size(); ++v) {
    const SourceBufferView& view = source_.buffer_views[v];
    if (view.used_elsewhere && view.readable) {
      ranges.push_back({view.buffer, view.byte_offset, view.byte_offset + view.byte_length,
                        std::numeric_limits<std::size_t>::max()});
    }
  }
  for (std::size_t i = 0; i < source_accessors_; ++i) {
    const SourceAccessor& a = source_.accessors[i];
    if (!a.readable || !a.buffer_view || *a.buffer_view >= source_.buffer_views.size()) continue;
    const SourceBufferView& view = source_.buffer_views[*a.buffer_view];
    const std::uint64_t element = element_bytes(a.format);
    const std::uint64_t stride = view.byte_stride.value_or(element);
    const std::uint64_t begin = view.byte_offset + a.byte_offset;
    const std::uint64_t end = a.count == 0 ? begin : begin + (a.count - 1) * stride + element;
    ranges.push_back({view.buffer, begin, end, i});
  }
  std::sort(ranges.begin(), ranges.end(), [](const Range& x, const Range& y) {
    return std::tie(x.buffer, x.begin, x.end) < std::tie(y.buffer, y.begin, y.end);
  });
  std::uint64_t max_end = 0;
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const Range& r = ranges[k];
    if (k == 0 || ranges[k - 1].buffer != r.buffer) max_end = 0;
    const bool before = k != 0 && ranges[k - 1].buffer == r.buffer && max_end > r.begin;
    const bool after =
        k + 1 < ranges.size() && ranges[k + 1].buffer == r.buffer && ranges[k + 1].begin < r.end;
    if ((before || after) && r.owner < aliased_.size()) aliased_[r.owner] = true;
    max_end = std::max(max_end, r.end);
  }
}

void Edit::set(std::string pointer, std::string value) {
  ops_.push_back({JsonOp::Kind::kSet, std::move(pointer), "", std::move(value)});
}
void Edit::put_member(std::string object, std::string name, std::string value) {
  ops_.push_back({JsonOp::Kind::kPut, std::move(object), std::move(name), std::move(value)});
}
void Edit::append(std::string array, std::string value) {
  ops_.push_back({JsonOp::Kind::kAppend, std::move(array), "", std::move(value)});
}
void Edit::remove(std::string pointer) {
  ops_.push_back({JsonOp::Kind::kRemove, std::move(pointer), "", ""});
}

bool Edit::aliased(std::size_t accessor) const {
  return accessor < aliased_.size() && aliased_[accessor];
}

const SourceAccessor* Edit::accessor(std::size_t index) const {
  return index < accessors_.size() ? &accessors_[index].now : nullptr;
}

void Edit::require_bounds(std::size_t accessor) {
  if (accessor < accessors_.size()) accessors_[accessor].force_bounds = true;
}

bool Edit::writes_bounds(std::size_t accessor) const {
  return accessor < accessors_.size() && !accessors_[accessor].min.empty();
}

std::size_t Edit::accessor_count() const { return accessors_.size(); }
std::size_t Edit::buffer_view_count() const {
  return source_.buffer_views.size() + new_views_.size();
}
bool Edit::empty() const {
  return ops_.empty() && new_views_.empty() &&
         std::none_of(accessors_.begin(), accessors_.end(),
                      [](const AccessorState& a) { return a.rewritten || !a.min.empty(); });
}

void Edit::note_bounds(AccessorState& state, const EncodedData& data) {
  state.min = data.min;
  state.max = data.max;
}

bool Edit::overwrite_accessor(std::size_t accessor, std::span<const double> values,
                              std::string& why) {
  if (accessor >= accessors_.size()) {
    why = "accessor " + std::to_string(accessor) + " does not exist";
    return false;
  }
  AccessorState& state = accessors_[accessor];
  const SourceAccessor& a = state.now;
  const std::string name = "accessor " + std::to_string(accessor);
  if (!a.readable || !a.buffer_view || !a.sparse_views.empty()) {
    why = name + " is not a readable accessor with a bufferView and without sparse";
    return false;
  }
  const std::optional<EncodedData> data = encode(values, a.format, why);
  if (!data) return false;
  if (data->count != a.count) {
    why = name + " has " + std::to_string(a.count) + " elements, not " +
          std::to_string(data->count) + " (use new contents)";
    return false;
  }
  const std::size_t element = data->bytes.size() / data->count;
  if (*a.buffer_view >= source_.buffer_views.size()) {
    if (state.shares_view) {
      why = name + " shares its bytes with another accessor (use new contents)";
      return false;
    }
    // A bufferView this session made for the accessor: its bytes are its own.
    NewView& view = new_views_[*a.buffer_view - source_.buffer_views.size()];
    view.bytes = data->bytes;
    note_bounds(state, *data);
    return true;
  }
  if (aliased(accessor)) {
    why = name + " shares its bytes with another accessor or a bufferView used elsewhere";
    return false;
  }
  const SourceBufferView& view = source_.buffer_views[*a.buffer_view];
  if (view.buffer >= source_.buffers.size() || !source_.buffers[view.buffer].bytes) {
    why = name + "'s buffer is not loaded";
    return false;
  }
  // Recorded, not applied: a copy of the whole buffer per session held it twice with the
  // output's. Build applies the patches in order to its one copy.
  Patch patch;
  patch.stride = view.byte_stride.value_or(element_bytes(a.format));
  patch.first = view.byte_offset + a.byte_offset;
  patch.element = element;
  patch.elements = data->bytes;
  overwritten_[view.buffer].push_back(std::move(patch));
  note_bounds(state, *data);
  return true;
}

std::optional<std::size_t> Edit::target_buffer(std::size_t accessor) const {
  const SourceAccessor& a = accessors_[accessor].now;
  auto loaded = [this](std::size_t b) {
    return b < source_.buffers.size() && source_.buffers[b].bytes.has_value() &&
           (source_.buffers[b].uri || (source_.container == Container::kGlb && b == 0));
  };
  if (a.buffer_view) {
    const std::size_t v = *a.buffer_view;
    std::optional<std::size_t> b;
    if (v < source_.buffer_views.size()) b = source_.buffer_views[v].buffer;
    if (v >= source_.buffer_views.size() && v - source_.buffer_views.size() < new_views_.size()) {
      b = new_views_[v - source_.buffer_views.size()].buffer;
    }
    if (b && loaded(*b)) return b;
  }
  for (std::size_t b = 0; b < source_.buffers.size(); ++b) {
    if (loaded(b)) return b;
  }
  return std::nullopt;
}

bool Edit::replace_accessor(std::size_t accessor, std::span<const double> values,
                            const ElementFormat& format, std::string& why) {
  if (accessor >= accessors_.size()) {
    why = "accessor " + std::to_string(accessor) + " does not exist";
    return false;
  }
  std::optional<EncodedData> data = encode(values, format, why);
  if (!data) return false;
  const std::optional<std::size_t> buffer = target_buffer(accessor);
  if (!buffer) {
    why = "no loaded buffer to hold the new data";
    return false;
  }
  AccessorState& state = accessors_[accessor];
  const std::size_t first_new = source_.buffer_views.size();
  std::size_t view = 0;
  if (state.now.buffer_view && *state.now.buffer_view >= first_new && !state.shares_view) {
    view = *state.now.buffer_view;  // made by this session for this accessor: reused
    new_views_[view - first_new] = NewView{*buffer, std::move(data->bytes)};
  } else {
    view = first_new + new_views_.size();
    new_views_.push_back(NewView{*buffer, std::move(data->bytes)});
  }
  state.now.buffer_view = view;
  state.now.byte_offset = 0;
  state.now.format = format;
  state.now.count = data->count;
  state.now.sparse_views.clear();
  state.now.readable = true;
  state.rewritten = true;
  state.shares_view = false;
  note_bounds(state, *data);
  return true;
}

bool Edit::share_accessor(std::size_t accessor, std::size_t with, std::string& why) {
  if (accessor >= accessors_.size() || with >= accessors_.size() || accessor == with) {
    why = "accessor " + std::to_string(accessor) + " cannot read accessor " + std::to_string(with) +
          "'s data";
    return false;
  }
  const std::size_t first_new = source_.buffer_views.size();
  AccessorState& w = accessors_[with];
  AccessorState& s = accessors_[accessor];
  if (!w.rewritten || !w.now.buffer_view || *w.now.buffer_view < first_new) {
    why = "accessor " + std::to_string(with) + " has no data of this session";
    return false;
  }
  if (s.now.buffer_view && *s.now.buffer_view >= first_new && !s.shares_view) {
    why = "accessor " + std::to_string(accessor) + " has data of this session";
    return false;
  }
  s.now = w.now;
  s.rewritten = true;
  s.min = w.min;
  s.max = w.max;
  s.shares_view = w.shares_view = true;
  return true;
}

std::optional<std::size_t> Edit::add_accessor(std::span<const double> values,
                                              const ElementFormat& format, std::string& why) {
  accessors_.push_back(AccessorState{});
  const std::size_t index = accessors_.size() - 1;
  if (!replace_accessor(index, values, format, why)) {
    accessors_.pop_back();
    return std::nullopt;
  }
  return index;
}

// What build()'s steps share: the JSON edits (the session's, then those the data asks
// for), each buffer's new bytes, where bufferViews move, and the splices they become.
struct Edit::Build {
  using Kind = JsonOp::Kind;
  // One splice with what asked for it, for messages.
  struct Placed {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::string text;
    std::string what;
    // A removal of an object's first member: it swallows the comma after it,
    // recomputed when the next member goes too.
    bool removal = false;
    bool first_member = false;
    std::uint64_t value_end = 0;
  };
  // Insertions per container (by its pointer): its location and the texts.
  struct Insert {
    Location at;
    std::vector<std::string> texts;
    std::string what;
  };

  Build(const Edit& edit, const OutputNames& output_names)
      : names(output_names),
        ops(edit.ops_),
        content(edit.source_.buffers.size()),
        view_offset(edit.source_.buffer_views.size()),
        repointed(edit.source_.buffer_views.size(), false),
        new_offset(edit.new_views_.size(), 0),
        json(edit.source_.json_text) {
    // The buffers overwritten in place: a copy of each, the elements written over it.
    for (std::size_t b = 0; b < edit.overwritten_.size(); ++b) {
      if (edit.overwritten_[b].empty() || !edit.source_.buffers[b].bytes) continue;
      const std::span<const std::uint8_t> bytes = *edit.source_.buffers[b].bytes;
      std::vector<std::uint8_t>& copy = content[b].emplace(bytes.begin(), bytes.end());
      for (const Patch& p : edit.overwritten_[b]) {
        const std::uint64_t count = p.element == 0 ? 0 : p.elements.size() / p.element;
        for (std::uint64_t i = 0; i < count; ++i)
          std::memcpy(copy.data() + p.first + i * p.stride, p.elements.data() + i * p.element,
                      p.element);
      }
    }
  }

  void put(std::string object, std::string name, std::string value) {
    ops.push_back({Kind::kPut, std::move(object), std::move(name), std::move(value)});
  }
  // Each value changed once.
  bool once(const std::string& pointer, std::string& why) {
    if (!touched.insert(pointer).second) {
      why = "two changes to " + pointer;
      return false;
    }
    return true;
  }
  void remove_member(const Location& at, const std::string& pointer) {
    std::uint64_t p = at.name->begin.byte;
    while (p > 0 && is_ws(char_at(json, p - 1))) --p;
    Placed r{0, at.value.end.byte, "", "removal of " + pointer};
    r.removal = true;
    r.value_end = at.value.end.byte;
    if (p > 0 && char_at(json, p - 1) == ',') {
      r.begin = p - 1;
    } else {
      r.begin = at.name->begin.byte;
      r.first_member = true;
    }
    placed.push_back(std::move(r));
  }

  const OutputNames& names;
  EditOutput result;
  std::vector<JsonOp> ops;
  // Members changed only where the source has them: pointer -> the new value,
  // or nullopt to remove the member.
  std::map<std::string, std::optional<std::string>> if_present;

  // Each buffer's new bytes, when it changes; new bufferViews' offsets.
  std::vector<std::optional<std::vector<std::uint8_t>>> content;
  std::vector<std::optional<std::uint64_t>> view_offset;  // moved source views
  std::vector<bool> repointed;                            // lost their users
  std::vector<std::uint64_t> new_offset;
  // A source bufferView the edits emptied: it had users and has none now.
  std::vector<bool> emptied;
  std::optional<std::vector<std::uint8_t>> bin;  // the GLB's BIN chunk, when it changes

  const std::string_view json;
  std::vector<Placed> placed;
  std::set<std::string> touched;
  std::map<std::string, Insert> inserts;  // into existing objects and arrays
};

std::optional<EditOutput> Edit::build(const OutputNames& names, std::string& why) const {
  Build state(*this, names);
  // The buffers' bytes: compacted, then the new bufferViews' appended.
  find_emptied_buffer_views(state);
  for (std::size_t b = 0; b < source_.buffers.size(); ++b) compact_buffer(state, b);
  place_new_buffer_views(state);
  // The JSON edits the data asks for, after the session's own.
  edit_accessors(state);
  edit_buffer_views(state);
  if (!edit_buffers(state, why)) return std::nullopt;
  // The edited JSON text, then the main file around it.
  if (!resolve_json_edits(state, why)) return std::nullopt;
  const std::optional<std::string> text = splice_json(state, why);
  if (!text) return std::nullopt;
  if (!write_main_file(state, *text, why)) return std::nullopt;
  return std::move(state.result);
}

// Which source bufferViews have users before and after the edits.
void Edit::find_emptied_buffer_views(Build& state) const {
  const std::size_t nviews = source_.buffer_views.size();
  auto users = [&](auto accessor_of) {
    std::vector<bool> live(nviews, false);
    for (std::size_t v = 0; v < nviews; ++v) live[v] = source_.buffer_views[v].used_elsewhere;
    for (std::size_t i = 0; i < source_accessors_; ++i) {
      const SourceAccessor& a = accessor_of(i);
      if (a.buffer_view && *a.buffer_view < nviews) live[*a.buffer_view] = true;
      for (const std::size_t v : a.sparse_views) {
        if (v < nviews) live[v] = true;
      }
    }
    return live;
  };
  const std::vector<bool> live_before =
      users([this](std::size_t i) -> const SourceAccessor& { return source_.accessors[i]; });
  const std::vector<bool> live_after =
      users([this](std::size_t i) -> const SourceAccessor& { return accessors_[i].now; });
  // Only an emptied bufferView's bytes may go; every other bufferView (used, or unused
  // from the start, as exporters leave them) keeps addressing exactly its bytes, and
  // bytes no bufferView covers stay.
  state.emptied.assign(nviews, false);
  for (std::size_t v = 0; v < nviews; ++v) state.emptied[v] = live_before[v] && !live_after[v];
}

// Compaction of buffer b: the bytes only emptied bufferViews covered dropped, the other
// bufferViews moved with their bytes, the emptied ones re-pointed.
void Edit::compact_buffer(Build& state, std::size_t b) const {
  const std::size_t nviews = source_.buffer_views.size();
  EditOutput& result = state.result;
  const std::vector<bool>& emptied = state.emptied;
  bool lost = false;
  bool movable = source_.buffers[b].bytes.has_value();
  for (std::size_t v = 0; v < nviews; ++v) {
    const SourceBufferView& view = source_.buffer_views[v];
    if (view.buffer != b) continue;
    lost = lost || emptied[v];
    movable = movable && (emptied[v] || view.readable);
  }
  if (!lost) return;
  if (source_.compaction_blocked) {
    result.compaction_skipped = *source_.compaction_blocked;
    return;
  }
  if (!movable) {
    result.compaction_skipped =
        "buffer " + std::to_string(b) + " is not loaded or has a bufferView that does not fit";
    return;
  }
  const std::span<const std::uint8_t> base = state.content[b]
                                                 ? std::span<const std::uint8_t>(*state.content[b])
                                                 : *source_.buffers[b].bytes;
  // The bytes to drop: the emptied bufferViews' ranges (inside the buffer) less every
  // range a kept bufferView covers. Both sorted and merged, then subtracted.
  auto merged_ranges = [&](bool of_emptied) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;
    for (std::size_t v = 0; v < nviews; ++v) {
      const SourceBufferView& view = source_.buffer_views[v];
      if (view.buffer != b || emptied[v] != of_emptied) continue;
      const std::uint64_t begin = std::min<std::uint64_t>(view.byte_offset, base.size());
      const std::uint64_t end =
          std::min<std::uint64_t>(base.size() - begin, view.byte_length) + begin;
      if (begin < end) runs.emplace_back(begin, end);
    }
    std::sort(runs.begin(), runs.end());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> merged;
    for (const auto& r : runs) {
      if (!merged.empty() && r.first <= merged.back().second) {
        merged.back().second = std::max(merged.back().second, r.second);
      } else {
        merged.push_back(r);
      }
    }
    return merged;
  };
  const auto drop = merged_ranges(true);
  const auto keep = merged_ranges(false);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> dropped;
  std::size_t k = 0;
  for (auto [begin, end] : drop) {
    while (k < keep.size() && keep[k].second <= begin) ++k;
    for (std::size_t j = k; j < keep.size() && keep[j].first < end; ++j) {
      if (keep[j].first > begin) dropped.emplace_back(begin, keep[j].first);
      begin = std::max(begin, keep[j].second);
    }
    if (begin < end) dropped.emplace_back(begin, end);
  }
  // The kept runs: the buffer's bytes between the dropped ones.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> merged;
  std::uint64_t from = 0;
  for (const auto& [begin, end] : dropped) {
    if (from < begin) merged.emplace_back(from, begin);
    from = end;
  }
  if (from < base.size()) merged.emplace_back(from, base.size());
  std::vector<std::uint8_t> out;
  std::vector<std::uint64_t> moved_to;  // new start of each merged run
  for (const auto& [begin, end] : merged) {
    // Same offset modulo 8: every accessor and bufferView alignment holds.
    const std::uint64_t at = out.size() + ((begin % 8) + 8 - out.size() % 8) % 8;
    out.resize(static_cast<std::size_t>(at), 0);
    out.insert(out.end(), base.begin() + static_cast<std::ptrdiff_t>(begin),
               base.begin() + static_cast<std::ptrdiff_t>(end));
    moved_to.push_back(at);
  }
  const bool gets_new = std::any_of(new_views_.begin(), new_views_.end(),
                                    [b](const NewView& n) { return n.buffer == b; });
  if (out.empty() && !gets_new) {
    result.compaction_skipped = "buffer " + std::to_string(b) + " would be left empty";
    return;
  }
  if (out.size() >= base.size()) return;  // nothing to gain
  for (std::size_t v = 0; v < nviews; ++v) {
    const SourceBufferView& view = source_.buffer_views[v];
    if (view.buffer != b) continue;
    if (emptied[v]) {
      state.repointed[v] = true;
      continue;
    }
    // Where the view's first byte went: inside its kept run (a view of no bytes
    // inside dropped ones: after the run before it).
    const auto run = std::upper_bound(
        merged.begin(), merged.end(),
        std::make_pair(view.byte_offset, std::numeric_limits<std::uint64_t>::max()));
    std::uint64_t to = 0;
    if (run != merged.begin()) {
      const auto& [begin, end] = *(run - 1);
      const std::uint64_t at = moved_to[static_cast<std::size_t>(run - 1 - merged.begin())];
      to = at + (std::min(view.byte_offset, end) - begin);
    }
    if (to != view.byte_offset) state.view_offset[v] = to;
  }
  result.dropped_bytes[b] = base.size() - out.size();
  state.content[b] = std::move(out);
}

// New bufferViews after each buffer's kept bytes, 4-byte aligned.
void Edit::place_new_buffer_views(Build& state) const {
  for (std::size_t k = 0; k < new_views_.size(); ++k) {
    const std::size_t b = new_views_[k].buffer;
    if (!state.content[b]) {
      const std::span<const std::uint8_t> bytes = *source_.buffers[b].bytes;
      state.content[b].emplace(bytes.begin(), bytes.end());
    }
    std::vector<std::uint8_t>& out = *state.content[b];
    out.resize((out.size() + 3) / 4 * 4, 0);
    state.new_offset[k] = out.size();
    out.insert(out.end(), new_views_[k].bytes.begin(), new_views_[k].bytes.end());
  }
}

// The JSON edits the data asks for: accessors' members, added accessors.
void Edit::edit_accessors(Build& state) const {
  using Kind = JsonOp::Kind;
  for (std::size_t i = 0; i < accessors_.size(); ++i) {
    const AccessorState& s = accessors_[i];
    const std::string at = "/accessors/" + std::to_string(i);
    if (i >= source_accessors_) {
      std::string json = "{\"bufferView\":" + std::to_string(*s.now.buffer_view) +
                         ",\"componentType\":" +
                         std::to_string(static_cast<std::uint32_t>(s.now.format.component_type));
      if (s.now.format.normalized) json += ",\"normalized\":true";
      json += ",\"count\":" + std::to_string(s.now.count) +
              ",\"type\":" + json_string(std::string(element_type_name(s.now.format.type))) +
              ",\"min\":" + number_list(s.min) + ",\"max\":" + number_list(s.max) + "}";
      state.ops.push_back({Kind::kAppend, "/accessors", "", std::move(json)});
      continue;
    }
    if (s.rewritten) {
      state.put(at, "bufferView", std::to_string(*s.now.buffer_view));
      state.if_present[at + "/byteOffset"] = std::nullopt;
      state.put(at, "componentType",
                std::to_string(static_cast<std::uint32_t>(s.now.format.component_type)));
      if (s.now.format.normalized) {
        state.put(at, "normalized", "true");
      } else {
        state.if_present[at + "/normalized"] = std::nullopt;
      }
      state.put(at, "count", std::to_string(s.now.count));
      state.put(at, "type", json_string(std::string(element_type_name(s.now.format.type))));
      state.if_present[at + "/sparse"] = std::nullopt;
    }
    if (!s.min.empty() && (s.rewritten || s.force_bounds)) {
      state.put(at, "min", number_list(s.min));
      state.put(at, "max", number_list(s.max));
    } else if (!s.min.empty()) {
      // Overwritten in place: the bounds where the accessor has them.
      state.if_present[at + "/min"] = number_list(s.min);
      state.if_present[at + "/max"] = number_list(s.max);
    }
  }
}

// The JSON edits of bufferViews: moved and re-pointed ones, added ones.
void Edit::edit_buffer_views(Build& state) const {
  for (std::size_t v = 0; v < source_.buffer_views.size(); ++v) {
    const std::string at = "/bufferViews/" + std::to_string(v);
    if (state.view_offset[v]) state.put(at, "byteOffset", std::to_string(*state.view_offset[v]));
    if (state.repointed[v]) {
      const std::size_t b = source_.buffer_views[v].buffer;
      state.put(at, "byteOffset", "0");
      state.put(at, "byteLength",
                std::to_string(std::min<std::uint64_t>(source_.buffer_views[v].byte_length,
                                                       state.content[b]->size())));
      state.if_present[at + "/byteStride"] = std::nullopt;
    }
  }
  for (std::size_t k = 0; k < new_views_.size(); ++k) {
    state.ops.push_back({JsonOp::Kind::kAppend, "/bufferViews", "",
                         "{\"buffer\":" + std::to_string(new_views_[k].buffer) +
                             ",\"byteOffset\":" + std::to_string(state.new_offset[k]) +
                             ",\"byteLength\":" + std::to_string(new_views_[k].bytes.size()) +
                             "}"});
  }
}

// Buffers: byteLength, and where a .gltf's changed bytes go (a data URI re-encoded, an
// external file beside the output, the GLB's BIN chunk). false with the reason when a
// changed buffer has nowhere to go.
bool Edit::edit_buffers(Build& state, std::string& why) const {
  const std::size_t nbuffers = source_.buffers.size();
  const OutputNames& names = state.names;
  EditOutput& result = state.result;
  // An output in another folder takes every external buffer it can with it.
  std::vector<bool> copied(nbuffers, false);
  for (std::size_t b = 0; names.every_buffer && b < nbuffers; ++b) {
    const SourceBuffer& buffer = source_.buffers[b];
    if (state.content[b] || !buffer.uri || is_data_uri(*buffer.uri) || !buffer.bytes) continue;
    state.content[b].emplace(buffer.bytes->begin(), buffer.bytes->end());
    copied[b] = true;
  }
  std::size_t external_changed = 0;
  for (std::size_t b = 0; b < nbuffers; ++b) {
    const SourceBuffer& buffer = source_.buffers[b];
    if (state.content[b] && buffer.uri && !is_data_uri(*buffer.uri)) ++external_changed;
  }
  for (std::size_t b = 0; b < nbuffers; ++b) {
    const SourceBuffer& buffer = source_.buffers[b];
    if (!state.content[b]) {
      if (buffer.uri && !is_data_uri(*buffer.uri)) result.keeps_input_buffers = true;
      continue;
    }
    const std::string at = "/buffers/" + std::to_string(b);
    if (!copied[b]) state.put(at, "byteLength", std::to_string(state.content[b]->size()));
    if (!buffer.uri) {
      if (source_.container != Container::kGlb || b != 0) {
        why = "buffer " + std::to_string(b) + " has no uri and is not a GLB's BIN chunk";
        return false;
      }
      state.bin = std::move(state.content[b]);
      continue;
    }
    if (is_data_uri(*buffer.uri)) {
      // The media type as written, re-encoded in base64.
      const std::string_view uri = *buffer.uri;
      const std::size_t comma = uri.find(',');
      std::string head(uri.substr(0, comma == std::string_view::npos ? uri.size() : comma));
      if (head.size() < 7 || head.substr(head.size() - 7) != ";base64") head += ";base64";
      state.put(at, "uri", json_string(head + "," + text::base64_encode(*state.content[b])));
      continue;
    }
    std::string name =
        external_changed == 1 ? names.stem + ".bin" : names.stem + "_" + std::to_string(b) + ".bin";
    for (std::uint64_t k = 1; (names.taken && names.taken(name)) || result.buffers.count(name);
         ++k) {
      name = names.stem + "_" + std::to_string(b) + "_" + std::to_string(k) + ".bin";
    }
    state.put(at, "uri", json_string(uri_segment(name)));
    result.buffers[name] = std::move(*state.content[b]);
  }
  return true;
}

// Resolve every JSON edit to splices and insertions: one locator pass for all pointers.
// false with the reason when an edit names no value or two change one value.
bool Edit::resolve_json_edits(Build& state, std::string& why) const {
  using Kind = JsonOp::Kind;
  const std::vector<JsonOp>& ops = state.ops;
  const std::string_view json = state.json;
  std::vector<std::string> pointers;
  for (const JsonOp& op : ops) {
    pointers.push_back(op.pointer);
    pointers.push_back(op.kind == Kind::kPut      ? op.pointer + "/" + escape_pointer_token(op.name)
                       : op.kind == Kind::kAppend ? split_pointer(op.pointer).first
                                                  : std::string());
  }
  for (const auto& [p, value] : state.if_present) pointers.push_back(p);
  const std::vector<std::optional<Location>> found = locate(json, pointers);

  // Arrays to create: pointer -> the parent object's location and the elements.
  std::map<std::string, std::pair<Location, std::vector<std::string>>> created;
  for (std::size_t k = 0; k < ops.size(); ++k) {
    const JsonOp& op = ops[k];
    const std::optional<Location>& at = found[2 * k];
    const std::optional<Location>& second = found[2 * k + 1];
    switch (op.kind) {
      case Kind::kSet:
        if (!at) {
          why = "no value at " + op.pointer + " to change";
          return false;
        }
        if (!state.once(op.pointer, why)) return false;
        state.placed.push_back({at->value.begin.byte, at->value.end.byte, op.value, op.pointer});
        break;
      case Kind::kRemove:
        if (!at || !at->name) {
          why = "no object member at " + op.pointer + " to remove";
          return false;
        }
        if (!state.once(op.pointer, why)) return false;
        state.remove_member(*at, op.pointer);
        break;
      case Kind::kPut: {
        const std::string member = op.pointer + "/" + escape_pointer_token(op.name);
        if (!state.once(member, why)) return false;
        if (second) {
          state.placed.push_back(
              {second->value.begin.byte, second->value.end.byte, op.value, member});
        } else if (at && char_at(json, at->value.begin.byte) == '{') {
          Build::Insert& ins = state.inserts[op.pointer];
          ins.at = *at;
          ins.what = "members added to " + op.pointer;
          ins.texts.push_back(json_string(op.name) + ":" + op.value);
        } else {
          why = "no object at " + op.pointer + " to hold " + op.name;
          return false;
        }
        break;
      }
      case Kind::kAppend:
        if (at && char_at(json, at->value.begin.byte) == '[') {
          Build::Insert& ins = state.inserts[op.pointer];
          ins.at = *at;
          ins.what = "elements appended to " + op.pointer;
          ins.texts.push_back(op.value);
        } else if (!at && second && char_at(json, second->value.begin.byte) == '{') {
          auto& c = created[op.pointer];
          c.first = *second;
          c.second.push_back(op.value);
        } else {
          why = "no array at " + op.pointer + " (nor an object to hold it) to append to";
          return false;
        }
        break;
    }
  }
  for (auto& [pointer, made] : created) {
    const auto& [at, elements] = made;
    auto [parent, name] = split_pointer(pointer);
    if (!state.once(pointer, why)) return false;
    std::string array = "[";
    for (std::size_t k = 0; k < elements.size(); ++k) array += (k ? "," : "") + elements[k];
    Build::Insert& ins = state.inserts[parent];
    ins.at = at;
    ins.what = "members added to " + parent;
    ins.texts.push_back(json_string(name) + ":" + array + "]");
  }
  std::size_t next = 2 * ops.size();
  for (const auto& [pointer, value] : state.if_present) {
    const auto& at = found[next++];
    if (!at || !at->name) continue;
    if (!state.once(pointer, why)) return false;
    if (value) {
      state.placed.push_back({at->value.begin.byte, at->value.end.byte, *value, pointer});
    } else {
      state.remove_member(*at, pointer);
    }
  }
  return true;
}

// The JSON text with every splice and insertion applied; nullopt with the reason when
// two overlap.
std::optional<std::string> Edit::splice_json(Build& state, std::string& why) const {
  using Placed = Build::Placed;
  const std::string_view json = state.json;
  std::vector<Placed>& placed = state.placed;
  // First-member removals take the comma after them; when the next member
  // goes too, the two become one removal that takes the comma after both.
  std::sort(placed.begin(), placed.end(),
            [](const Placed& x, const Placed& y) { return x.begin < y.begin; });
  auto first_member_end = [&json](std::uint64_t value_end) {
    std::uint64_t q = value_end;
    while (q < json.size() && is_ws(char_at(json, q))) ++q;
    if (q < json.size() && char_at(json, q) == ',') {
      ++q;
      while (q < json.size() && is_ws(char_at(json, q))) ++q;
      return q;
    }
    return value_end;
  };
  std::vector<Placed> splices;
  for (Placed& p : placed) {
    if (p.first_member) p.end = first_member_end(p.value_end);
    if (!splices.empty() && splices.back().first_member && p.removal &&
        p.begin < splices.back().end && p.begin >= splices.back().value_end) {
      splices.back().value_end = p.value_end;
      splices.back().end = first_member_end(p.value_end);
      continue;
    }
    splices.push_back(std::move(p));
  }
  // Whether a container keeps an element: a character that is not
  // whitespace and not inside a removal, between its brackets.
  auto keeps_content = [&](const Location& at) {
    std::uint64_t q = at.value.begin.byte + 1;
    const std::uint64_t end = at.value.end.byte - 1;
    std::size_t r = static_cast<std::size_t>(
        std::lower_bound(splices.begin(), splices.end(), q,
                         [](const Placed& s, std::uint64_t x) { return s.end <= x; }) -
        splices.begin());
    while (q < end) {
      while (r < splices.size() && splices[r].end <= q) ++r;
      if (r < splices.size() && splices[r].removal && splices[r].begin <= q) {
        q = splices[r].end;
        continue;
      }
      if (!is_ws(char_at(json, q))) return true;
      ++q;
    }
    return false;
  };
  std::vector<Placed> insertions;
  for (const auto& [pointer, ins] : state.inserts) {
    std::uint64_t p = ins.at.value.end.byte - 1;  // the closing bracket
    while (p > ins.at.value.begin.byte + 1 && is_ws(char_at(json, p - 1))) --p;
    std::string text;
    bool comma = keeps_content(ins.at);
    for (const std::string& t : ins.texts) {
      if (comma) text += ',';
      text += t;
      comma = true;
    }
    insertions.push_back({p, p, std::move(text), ins.what});
  }
  splices.insert(splices.end(), insertions.begin(), insertions.end());
  std::stable_sort(splices.begin(), splices.end(),
                   [](const Placed& x, const Placed& y) { return x.begin < y.begin; });
  std::vector<Splice> plain;
  for (std::size_t k = 0; k < splices.size(); ++k) {
    if (k != 0 && splices[k].begin < splices[k - 1].end) {
      why = "conflicting changes: " + splices[k - 1].what + " and " + splices[k].what;
      return std::nullopt;
    }
    plain.push_back(Splice{splices[k].begin, splices[k].end, std::move(splices[k].text)});
  }
  return apply_splices(json, plain, why);
}

// The main file: a GLB rewritten with the new JSON and BIN chunks, or the .gltf with
// the new JSON text. false with the reason when it cannot be formed.
bool Edit::write_main_file(Build& state, const std::string& text, std::string& why) const {
  EditOutput& result = state.result;
  if (source_.container == Container::kGlb) {
    std::optional<std::vector<std::uint8_t>> glb =
        state.bin
            ? write_glb(source_.file_bytes, text, std::span<const std::uint8_t>(*state.bin), why)
            : write_glb(source_.file_bytes, text, std::nullopt, why);
    if (!glb) return false;
    result.main = std::move(*glb);
    return true;
  }
  // A .gltf: the text where the JSON was (any bytes before or after it kept).
  const std::span<const std::uint8_t> file = source_.file_bytes;
  const std::string_view json = state.json;
  if (source_.json_offset > file.size() || json.size() > file.size() - source_.json_offset) {
    why = "the JSON text is not inside the file";
    return false;
  }
  const auto json_begin = static_cast<std::ptrdiff_t>(source_.json_offset);
  result.main.assign(file.begin(), file.begin() + json_begin);
  result.main.insert(result.main.end(), text.begin(), text.end());
  result.main.insert(result.main.end(),
                     file.begin() + json_begin + static_cast<std::ptrdiff_t>(json.size()),
                     file.end());
  return true;
}

}  // namespace gltf_anim::gltf
