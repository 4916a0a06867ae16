// The data phase: one streaming pass per accessor, in accessor order. Each
// readable accessor is decoded once, in chunks, and every check attached to it
// sees the chunk: the generic ones (NaN/Inf in FLOAT data, min/max) and those
// rule modules attached during link. Memory: one chunk, whatever the count.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ext_common.hpp"
#include <gltf_anim/gltf/json_access.hpp>

namespace gltf_anim::validator {

using gltf::AccessorReader;
using gltf::ComponentType;
using gltf::DataStatus;
using gltf::is_floating_point;
using gltf::IssueCode;
using gltf::JsonPointer;
using gltf::round_to_half;

bool DataChecks::attach(std::size_t accessor, std::string key,
                        std::unique_ptr<ElementChecker> checker) {
  std::vector<Entry>& list = by_accessor_[accessor];
  for (const Entry& e : list) {
    if (e.key == key) return false;
  }
  list.push_back(Entry{std::move(key), std::move(checker)});
  return true;
}

bool DataChecks::has(std::size_t accessor, std::string_view key) const {
  const auto it = by_accessor_.find(accessor);
  if (it == by_accessor_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [key](const Entry& e) { return e.key == key; });
}

std::vector<ElementChecker*> DataChecks::checkers_of(std::size_t accessor) const {
  std::vector<ElementChecker*> out;
  const auto it = by_accessor_.find(accessor);
  if (it != by_accessor_.end()) {
    for (const Entry& e : it->second) out.push_back(e.checker.get());
  }
  return out;
}

namespace {

using rules::member;
using rules::number_text;
using rules::object_at;

constexpr std::size_t kChunkElements = 4096;

// The value a declared bound stands for in decoded units: FLOAT bounds are
// float32 values written in decimal (spec 3.6.2.5: round them to single
// precision); normalized integer bounds are raw integers ("normalized has no
// effect on these properties"), so they go through the same dequantization as
// the data (spec 3.11 "normalized" formulas).
// DOUBLE bounds are used as written, HALF_FLOAT ones rounded to binary16 (the
// same rule: bounds have the component type's precision).
double declared_in_decoded_units(double declared, ComponentType ct, bool normalized) {
  if (ct == ComponentType::kFloat) return static_cast<double>(static_cast<float>(declared));
  if (ct == ComponentType::kHalfFloat) return round_to_half(declared);
  if (ct == ComponentType::kDouble) return declared;
  if (!normalized) return declared;
  switch (ct) {
    case ComponentType::kByte: return std::max(declared / 127.0, -1.0);
    case ComponentType::kUnsignedByte: return declared / 255.0;
    case ComponentType::kShort: return std::max(declared / 32767.0, -1.0);
    case ComponentType::kUnsignedShort: return declared / 65535.0;
    case ComponentType::kUnsignedInt: return declared / 4294967295.0;
    case ComponentType::kFloat:
    case ComponentType::kDouble:
    case ComponentType::kHalfFloat: break;
  }
  return declared;
}

struct Bound {
  bool present = false;
  std::vector<double> declared;  // raw JSON values
  std::vector<double> decoded;   // in the data's units
  std::vector<double> actual;    // running min or max
  std::vector<std::uint64_t> beyond;  // elements beyond the declared bound
};

// Reads accessor.min or .max when it is an array of numbers of the right length
// (other shapes were reported by the schema or the accessor rules).
Bound read_bound(const gltf_anim::json::Value* json, const char* name, std::uint32_t components,
                 ComponentType ct, bool normalized, bool is_min) {
  Bound b;
  const gltf_anim::json::Value* v = json == nullptr ? nullptr : member(*json, name);
  if (v == nullptr || !v->IsArray() || v->Size() != components) return b;
  for (const auto& x : v->GetArray()) {
    if (!x.IsNumber()) return b;
  }
  b.present = true;
  for (const auto& x : v->GetArray()) {
    b.declared.push_back(x.GetDouble());
    b.decoded.push_back(declared_in_decoded_units(x.GetDouble(), ct, normalized));
  }
  b.actual.assign(components, is_min ? std::numeric_limits<double>::infinity()
                                     : -std::numeric_limits<double>::infinity());
  b.beyond.assign(components, 0);
  return b;
}

// Visits every element of `reader` in order, in time and memory linear in what
// is stored, never in the declared count: decoded chunks go to on_values(chunk,
// first); for an accessor without bufferView, each run of implicit zeros between
// sparse substitutions is one on_zeros(first, n) call (count 2^50 is one call),
// and consecutive substitutions are decoded together. False when a read fails.
template <typename OnValues, typename OnZeros>
bool walk_elements(const AccessorReader& reader, OnValues&& on_values, OnZeros&& on_zeros) {
  std::vector<double> chunk;
  auto decode = [&](std::uint64_t first, std::uint64_t n) {
    for (std::uint64_t done = 0; done < n; done += kChunkElements) {
      const auto m = static_cast<std::size_t>(std::min<std::uint64_t>(kChunkElements, n - done));
      chunk.resize(m * reader.components());
      if (!reader.read(first + done, m, chunk.data())) return false;
      on_values(chunk, first + done);
    }
    return true;
  };
  if (reader.has_stored_base()) return decode(0, reader.count());
  const std::span<const std::uint32_t> indices = reader.sparse_indices();
  std::uint64_t next = 0;  // first element not visited yet
  for (std::size_t k = 0; k < indices.size();) {
    std::size_t end = k + 1;
    while (end < indices.size() && indices[end] == indices[end - 1] + 1u) ++end;
    if (indices[k] > next) on_zeros(next, indices[k] - next);
    if (!decode(indices[k], end - k)) return false;
    next = std::uint64_t{indices[k]} + (end - k);
    k = end;
  }
  if (next < reader.count()) on_zeros(next, reader.count() - next);
  return true;
}

// KHR_meshopt_compression: "When a buffer view using filters also has an uncompressed
// fallback, the min and max values in accessor bounds must be exact with respect to the
// uncompressed fallback data and may not be exact with respect to the compressed data." The
// accessor's values are the decoded (filtered) ones, so its bounds are not compared with them.
bool bounds_follow_fallback(const gltf::LoadedAsset& asset, std::size_t index) {
  const gltf::Accessor& accessor = asset.accessors[index];
  if (!accessor.buffer_view || *accessor.buffer_view >= asset.buffer_views.size()) return false;
  const gltf::BufferView& view = asset.buffer_views[*accessor.buffer_view];
  return view.meshopt && view.meshopt->khr && view.meshopt->filter != gltf::MeshoptFilter::kNone &&
         view.buffer && *view.buffer < asset.buffer_data.size() &&
         asset.buffer_data[*view.buffer].has_value();
}

void check_accessor(RuleContext& ctx, std::size_t index) {
  std::optional<AccessorReader> reader = AccessorReader::open(ctx.asset, index, &ctx.issues);
  if (!reader) return;
  const std::uint32_t comps = reader->components();
  const bool is_float = is_floating_point(reader->component_type());
  const JsonPointer ap = JsonPointer() / std::string_view("accessors") / index;
  const gltf_anim::json::Value* json = object_at(rules::array_member(ctx.doc, "accessors"), index);
  Bound lo = read_bound(json, "min", comps, reader->component_type(), reader->normalized(), true);
  Bound hi = read_bound(json, "max", comps, reader->component_type(), reader->normalized(), false);
  if (bounds_follow_fallback(ctx.asset, index)) lo.present = hi.present = false;
  const std::vector<ElementChecker*> checkers = ctx.data.checkers_of(index);

  auto on_values = [&](const std::vector<double>& chunk, std::uint64_t first) {
    bool chunk_finite = true;
    if (is_float) {
      for (std::size_t k = 0; k < chunk.size(); ++k) {
        if (!std::isfinite(chunk[k])) {
          chunk_finite = false;
          ctx.issues.add("ACCESSOR_INVALID_FLOAT", ap, {std::to_string(first * comps + k)});
        }
      }
    }
    // Bounds, component by component (NaN/Inf excluded: reported above).
    for (Bound* b : {&lo, &hi}) {
      if (!b->present) continue;
      const bool is_min = b == &lo;
      for (std::uint32_t c = 0; c < comps; ++c) {
        double actual = b->actual[c];
        const double bound = b->decoded[c];
        std::uint64_t beyond = 0;
        for (std::size_t k = c; k < chunk.size(); k += comps) {
          const double v = chunk[k];
          if (!chunk_finite && !std::isfinite(v)) continue;
          if (is_min) {
            actual = v < actual ? v : actual;
            beyond += v < bound ? 1 : 0;
          } else {
            actual = v > actual ? v : actual;
            beyond += v > bound ? 1 : 0;
          }
        }
        b->actual[c] = actual;
        b->beyond[c] += beyond;
      }
    }
    for (ElementChecker* checker : checkers) checker->consume(chunk, first);
  };
  // n elements of value 0 in every component, in O(1).
  auto on_zeros = [&](std::uint64_t first, std::uint64_t n) {
    for (Bound* b : {&lo, &hi}) {
      if (!b->present) continue;
      const bool is_min = b == &lo;
      for (std::uint32_t c = 0; c < comps; ++c) {
        b->actual[c] = is_min ? std::min(b->actual[c], 0.0) : std::max(b->actual[c], 0.0);
        if (is_min ? 0.0 < b->decoded[c] : 0.0 > b->decoded[c]) b->beyond[c] += n;
      }
    }
    for (ElementChecker* checker : checkers) checker->consume_zeros(first, n);
  };
  if (!walk_elements(*reader, on_values, on_zeros)) return;
  for (ElementChecker* checker : checkers) checker->finish();

  struct Kind {
    Bound* bound;
    const char* name;
    IssueCode mismatch;
    IssueCode beyond;
  };
  for (const Kind& kind : {Kind{&lo, "min", "ACCESSOR_MIN_MISMATCH", "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND"},
                           Kind{&hi, "max", "ACCESSOR_MAX_MISMATCH", "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND"}}) {
    Bound& b = *kind.bound;
    if (!b.present) continue;
    for (std::uint32_t c = 0; c < comps; ++c) {
      if (!std::isfinite(b.actual[c])) continue;  // every value NaN/Inf: reported above
      if (b.actual[c] == b.decoded[c]) continue;
      const JsonPointer at = ap / std::string_view(kind.name) / c;
      ctx.issues.add(kind.mismatch, at, {number_text(b.declared[c]), number_text(b.actual[c])});
      if (b.beyond[c] != 0) {
        ctx.issues.add(kind.beyond, at, {std::to_string(b.beyond[c]), number_text(b.declared[c])});
      }
    }
  }
}

}  // namespace

void run_data_phase(RuleContext& ctx) {
  const std::size_t n = std::min(ctx.asset.accessors.size(), ctx.asset.accessor_status.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (ctx.asset.accessor_status[i] != DataStatus::kReadable) continue;
    if (ctx.data.is_exempt(i)) continue;
    if (ctx.issues.truncated()) return;
    check_accessor(ctx, i);
  }
}

std::optional<InterpolationInfo> RuleContext::interpolation(std::string_view name) const {
  const reference::InterpolationMode* mode = reference::find_mode(name);
  if (mode == nullptr) return std::nullopt;
  if (!mode->extension.empty()) {
    // An extension's mode: known when the asset uses the extension and its
    // rule module is in this run.
    const bool module = std::any_of(modules.begin(), modules.end(), [mode](const auto& m) {
      return m->name() == mode->extension;
    });
    if (!module || !rules::lists_extension(doc, "extensionsUsed", mode->extension)) {
      return std::nullopt;
    }
  }
  InterpolationInfo info;
  info.outputs_per_key = mode->outputs_per_key;
  info.value_index = mode->value_index;
  // One key is the schema's (accessor count >= 1); an extension's mode reports
  // too few keys with its own code.
  info.min_keys = mode->extension.empty() && mode->min_keys > 1 ? mode->min_keys : 0;
  info.mode = mode;
  return info;
}

std::vector<std::unique_ptr<RuleModule>> rule_modules() {
  std::vector<std::unique_ptr<RuleModule>> modules;
  modules.push_back(make_unique_element_rules());
  modules.push_back(make_accessor_rules());
  modules.push_back(make_animation_rules());
  modules.push_back(make_scene_graph_rules());
  modules.push_back(make_mesh_rules());
  modules.push_back(make_skinned_vertex_rules());
  modules.push_back(make_buffer_view_usage_rules());
  modules.push_back(make_khr_animation_pointer_rules());
  modules.push_back(make_khr_accessor_float_rules());
  modules.push_back(make_khr_draco_mesh_compression_rules());
  modules.push_back(make_ext_animation_sqlerp_rules());
  modules.push_back(make_khr_animation2_rules());
  modules.push_back(make_lint_rules());
  return modules;
}

}  // namespace gltf_anim::validator
