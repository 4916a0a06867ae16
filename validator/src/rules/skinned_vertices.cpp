// The joints and weights of skinned vertices, as glTF-Validator checks them:
// for each mesh a skinned node instantiates, each primitive's JOINTS_n /
// WEIGHTS_n sets are read together, vertex by vertex: a joint index past the
// smallest skin that uses the mesh (ACCESSOR_JOINTS_INDEX_OOB), a joint given
// two non-zero weights (ACCESSOR_JOINTS_INDEX_DUPLICATE), a negative weight
// (ACCESSOR_WEIGHTS_NEGATIVE) and a vertex whose weights do not sum to 1
// within float32 accumulation (ACCESSOR_WEIGHTS_NON_NORMALIZED).
//
// These compare values across accessors at the same vertex, which the data
// pass (one accessor at a time) cannot; so this module reads the sets in
// lockstep itself, in chunks of stored data: a set whose accessor has no
// bufferView (implicit zeros, possibly of an enormous count) or whose counts,
// types or layout disagree is not read (the count and format rules are the
// mesh rules' business). Linear in what is stored: each combination of
// accessors is read once, however many nodes, meshes and primitives use it.
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ext_common.hpp"

namespace gltf_anim::validator {

using gltf::AccessorReader;
using gltf::JsonPointer;

namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp

constexpr std::size_t kVerticesPerChunk = 1024;

// One JOINTS_n / WEIGHTS_n pair of a primitive, opened for reading.
struct InfluenceSet {
  AccessorReader joints;
  AccessorReader weights;
  std::string joints_name;
  std::string weights_name;
  std::vector<double> joint_values;
  std::vector<double> weight_values;
};

// The accessors of JOINTS_0, WEIGHTS_0, JOINTS_1, ... of `attributes`, or
// nothing when a set is unpaired (nothing to compare then).
std::optional<std::vector<std::uint64_t>> set_accessors(const gltf_anim::json::Value& attributes) {
  std::vector<std::uint64_t> out;
  for (std::size_t n = 0;; ++n) {
    const auto j = index_member(attributes, "JOINTS_" + std::to_string(n));
    const auto w = index_member(attributes, "WEIGHTS_" + std::to_string(n));
    if (!j && !w) break;
    if (!j || !w) return std::nullopt;
    out.push_back(*j);
    out.push_back(*w);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// The readers of the sets, or nothing when one cannot be read as stored VEC4
// data of one count.
std::optional<std::vector<InfluenceSet>> open_sets(const RuleContext& ctx,
                                                   const std::vector<std::uint64_t>& accessors) {
  std::vector<InfluenceSet> sets;
  std::optional<std::uint64_t> count;
  for (std::size_t n = 0; n * 2 < accessors.size(); ++n) {
    const std::string joints_name = "JOINTS_" + std::to_string(n);
    const std::string weights_name = "WEIGHTS_" + std::to_string(n);
    auto jr = AccessorReader::open(ctx.asset, accessors[n * 2]);
    auto wr = AccessorReader::open(ctx.asset, accessors[n * 2 + 1]);
    if (!jr || !wr || !jr->has_stored_base() || !wr->has_stored_base()) return std::nullopt;
    if (jr->components() != 4 || wr->components() != 4 || jr->count() != wr->count()) {
      return std::nullopt;
    }
    if (count && *count != jr->count()) return std::nullopt;
    count = jr->count();
    sets.push_back(InfluenceSet{std::move(*jr), std::move(*wr), joints_name, weights_name, {}, {}});
  }
  return sets;
}

void check_primitive(RuleContext& ctx, std::vector<InfluenceSet>& sets,
                     const JsonPointer& attributes_at, std::uint64_t max_joint,
                     std::uint64_t limiting_skin) {
  const std::uint64_t count = sets.front().joints.count();
  std::vector<double> joints_seen;  // the non-zero-weight joints of the current vertex
  for (std::uint64_t first = 0; first < count; first += kVerticesPerChunk) {
    if (ctx.issues.truncated()) return;
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kVerticesPerChunk, count - first));
    for (InfluenceSet& s : sets) {
      s.joint_values.resize(n * 4);
      s.weight_values.resize(n * 4);
      if (!s.joints.read(first, n, s.joint_values.data()) ||
          !s.weights.read(first, n, s.weight_values.data())) {
        return;
      }
    }
    for (std::size_t v = 0; v < n; ++v) {
      const std::uint64_t vertex = first + v;
      float sum = 0.0f;  // accumulated in float32, as glTF-Validator does
      double threshold = 0.0;
      joints_seen.clear();
      for (std::uint32_t c = 0; c < 4; ++c) {
        const std::uint64_t index = vertex * 4 + c;
        for (InfluenceSet& s : sets) {
          const double joint = s.joint_values[v * 4 + c];
          if (joint > static_cast<double>(max_joint)) {
            ctx.issues.add("ACCESSOR_JOINTS_INDEX_OOB", attributes_at / s.joints_name,
                           {std::to_string(index), std::to_string(c), number_text(joint),
                            std::to_string(max_joint), std::to_string(limiting_skin)});
            continue;
          }
          const double weight = s.weight_values[v * 4 + c];
          if (weight == 0.0) continue;
          const bool unique =
              std::find(joints_seen.begin(), joints_seen.end(), joint) == joints_seen.end();
          if (!unique) {
            ctx.issues.add("ACCESSOR_JOINTS_INDEX_DUPLICATE", attributes_at / s.joints_name,
                           {std::to_string(index), std::to_string(c), number_text(joint)});
          } else {
            joints_seen.push_back(joint);
          }
          if (weight < 0.0) {
            ctx.issues.add("ACCESSOR_WEIGHTS_NEGATIVE", attributes_at / s.weights_name,
                           {std::to_string(index), std::to_string(c), number_text(weight)});
          } else if (unique) {
            sum = static_cast<float>(static_cast<double>(sum) + weight);
            threshold += 2e-7;
          }
        }
      }
      if (std::abs(static_cast<double>(sum) - 1.0) > threshold) {
        for (const InfluenceSet& s : sets) {
          ctx.issues.add("ACCESSOR_WEIGHTS_NON_NORMALIZED", attributes_at / s.weights_name,
                         {std::to_string(vertex * 4), std::to_string(vertex * 4 + 3),
                          number_text(static_cast<double>(sum))});
        }
      }
    }
  }
}

class SkinnedVertexRules final : public RuleModule {
 public:
  std::string_view name() const override { return "skinned-vertices"; }

  void link(RuleContext& ctx) override {
    const gltf_anim::json::Value* nodes = array_member(ctx.doc, "nodes");
    const gltf_anim::json::Value* meshes = array_member(ctx.doc, "meshes");
    const gltf_anim::json::Value* skins = array_member(ctx.doc, "skins");
    // Per mesh: the fewest joints of a skin a node gives it, and that skin.
    struct Limit {
      std::uint64_t joints = 0;
      std::uint64_t skin = 0;
    };
    std::vector<std::optional<Limit>> limits(array_size(meshes));
    for (std::uint64_t i = 0; i < array_size(nodes); ++i) {
      const gltf_anim::json::Value* node = object_at(nodes, i);
      if (node == nullptr) continue;
      const auto mesh = index_member(*node, "mesh");
      const auto skin = index_member(*node, "skin");
      if (!mesh || !skin || *mesh >= limits.size()) continue;
      const gltf_anim::json::Value* skin_object = object_at(skins, *skin);
      const std::uint64_t joints =
          skin_object != nullptr ? array_size(array_member(*skin_object, "joints")) : 0;
      if (joints == 0) continue;
      if (!limits[*mesh] || joints < limits[*mesh]->joints) limits[*mesh] = Limit{joints, *skin};
    }
    // Each combination of accessors is read once, however many primitives
    // share it (else n meshes over one large accessor would read it n times):
    // against the smallest skin any of them is used with, reported at the
    // first primitive that uses it.
    struct Use {
      JsonPointer at;
      Limit limit;
    };
    std::map<std::vector<std::uint64_t>, Use> uses;
    std::vector<const std::vector<std::uint64_t>*> order;
    for (std::uint64_t m = 0; m < limits.size(); ++m) {
      const gltf_anim::json::Value* mesh = object_at(meshes, m);
      if (!limits[m] || mesh == nullptr) continue;
      const gltf_anim::json::Value* primitives = array_member(*mesh, "primitives");
      for (std::uint64_t p = 0; p < array_size(primitives); ++p) {
        const gltf_anim::json::Value* primitive = object_at(primitives, p);
        const gltf_anim::json::Value* attributes =
            primitive != nullptr ? member(*primitive, "attributes") : nullptr;
        if (attributes == nullptr || !attributes->IsObject()) continue;
        auto accessors = set_accessors(*attributes);
        if (!accessors) continue;
        const JsonPointer at = JsonPointer() / std::string_view("meshes") / m /
                               std::string_view("primitives") / p / std::string_view("attributes");
        const auto [it, added] = uses.try_emplace(std::move(*accessors), Use{at, *limits[m]});
        if (added) {
          order.push_back(&it->first);
        } else if (limits[m]->joints < it->second.limit.joints) {
          it->second.limit = *limits[m];
        }
      }
    }
    for (const std::vector<std::uint64_t>* accessors : order) {
      const Use& use = uses.at(*accessors);
      auto sets = open_sets(ctx, *accessors);
      if (!sets) continue;
      check_primitive(ctx, *sets, use.at, use.limit.joints - 1, use.limit.skin);
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_skinned_vertex_rules() {
  return std::make_unique<SkinnedVertexRules>();
}

}  // namespace gltf_anim::validator
