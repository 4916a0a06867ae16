// What an animation's targets hang from: the node hierarchy, the scenes and
// the skins, checked as glTF-Validator checks them (its codes, pointers and
// arguments). References (UNRESOLVED_REFERENCE: a node's camera, skin, mesh
// and children, a scene's nodes and the default scene, a skin's joints,
// skeleton and inverseBindMatrices), the hierarchy (NODE_PARENT_OVERRIDE,
// NODE_LOOP, SCENE_NON_ROOT_NODE, NODE_MATRIX_TRS, NODE_WEIGHTS_INVALID) and
// skins (SKIN_NO_COMMON_ROOT, SKIN_SKELETON_INVALID, the inverse bind
// matrices' accessor and their last rows), and a node's own transform
// (NODE_MATRIX_NON_TRS, ROTATION_NON_UNIT).
//
// Every pass is linear in the number of nodes and references, with no
// recursion: the parent of each node is its last parent (glTF-Validator's),
// loops are found in that functional graph by walking each node's parents
// once (a node is never walked twice), and "is an ancestor of" is answered in
// O(1) from the entry and exit times of one iterative depth-first walk over
// the trees that have a root. A node inside or below a loop has no root: its
// skin's root checks are left to NODE_LOOP.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ext_common.hpp"

namespace gltf_anim::validator {

using gltf::JsonPointer;

namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp

constexpr std::uint64_t kNoNode = std::numeric_limits<std::uint64_t>::max();

JsonPointer root_pointer(std::string_view collection, std::uint64_t i) {
  return JsonPointer() / collection / i;
}

// glTF-Validator's tolerance for unit quaternions (its unitLengthThresholdVec4),
// the same as for rotation keyframes.
constexpr double kUnitLengthTolerance = 0.00769;

// The n numbers of `array` into out; false unless it holds exactly n numbers
// (the schema phase reports any other length or type).
bool fixed_numbers(const gltf_anim::json::Value* array, double* out, std::size_t n) {
  if (array == nullptr || array->Size() != n) return false;
  for (rapidjson::SizeType k = 0; k < n; ++k) {
    if (!(*array)[k].IsNumber()) return false;
    out[k] = (*array)[k].GetDouble();
  }
  return true;
}

// A column-major 4x4 matrix is T * R * S when its last row is (0, 0, 0, 1)
// and its upper 3x3 part is a rotation times a positive or negative diagonal
// scale with no zero: columns orthogonal (within a relative 5e-5, as
// glTF-Validator allows an absolute 5e-5 after recomposing) and none of zero length.
bool trs_decomposable(const double* m) {
  if (m[3] != 0.0 || m[7] != 0.0 || m[11] != 0.0 || m[15] != 1.0) return false;
  const double* c[3] = {m, m + 4, m + 8};
  double length[3];
  for (int i = 0; i < 3; ++i) {
    length[i] = std::sqrt(c[i][0] * c[i][0] + c[i][1] * c[i][1] + c[i][2] * c[i][2]);
    if (!(length[i] > 0.0) || !std::isfinite(length[i])) return false;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) {
      const double dot = c[i][0] * c[j][0] + c[i][1] * c[j][1] + c[i][2] * c[j][2];
      if (std::abs(dot) > 5e-5 * length[i] * length[j]) return false;
    }
  }
  return true;
}

// The node forest: each node's (last) parent, which nodes are on a loop, and
// for nodes of a tree with a root, the root and entry/exit times.
struct Forest {
  std::vector<std::uint64_t> parent;
  std::vector<bool> on_loop;
  std::vector<std::uint64_t> root;  // kNoNode: inside or below a loop
  std::vector<std::uint64_t> enter;
  std::vector<std::uint64_t> exit;

  bool rooted(std::uint64_t n) const { return root[n] != kNoNode; }
  // a is b or one of its ancestors (both rooted).
  bool ancestor_or_self(std::uint64_t a, std::uint64_t b) const {
    return enter[a] <= enter[b] && exit[b] <= exit[a];
  }
};

// Marks the nodes on a loop of the parent graph: each node is walked once.
void find_loops(Forest& f) {
  const std::size_t n = f.parent.size();
  enum : std::uint8_t { kUnseen, kOnPath, kDone };
  std::vector<std::uint8_t> state(n, kUnseen);
  std::vector<std::uint64_t> path;
  f.on_loop.assign(n, false);
  for (std::uint64_t start = 0; start < n; ++start) {
    std::uint64_t x = start;
    while (x != kNoNode && state[x] == kUnseen) {
      state[x] = kOnPath;
      path.push_back(x);
      x = f.parent[x];
    }
    if (x != kNoNode && state[x] == kOnPath) {  // back on this walk: x is on a loop
      std::uint64_t y = x;
      do {
        f.on_loop[y] = true;
        y = f.parent[y];
      } while (y != x);
    }
    for (const std::uint64_t p : path) state[p] = kDone;
    path.clear();
  }
}

// Entry and exit times of an iterative depth-first walk from every root.
void number_trees(Forest& f) {
  const std::size_t n = f.parent.size();
  // Children lists from the parents, in one array (counting sort by parent).
  std::vector<std::uint64_t> first(n + 1, 0);
  for (std::uint64_t c = 0; c < n; ++c) {
    if (f.parent[c] != kNoNode) ++first[f.parent[c] + 1];
  }
  for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
  std::vector<std::uint64_t> children(first[n]);
  std::vector<std::uint64_t> fill(first.begin(), first.end() - 1);
  for (std::uint64_t c = 0; c < n; ++c) {
    if (f.parent[c] != kNoNode) children[fill[f.parent[c]]++] = c;
  }
  f.root.assign(n, kNoNode);
  f.enter.assign(n, 0);
  f.exit.assign(n, 0);
  std::uint64_t clock = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> stack;  // node, next child slot
  for (std::uint64_t r = 0; r < n; ++r) {
    if (f.parent[r] != kNoNode) continue;
    f.root[r] = r;
    f.enter[r] = clock++;
    stack.emplace_back(r, first[r]);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next == first[node + 1]) {
        f.exit[node] = clock++;
        stack.pop_back();
        continue;
      }
      const std::uint64_t child = children[next++];
      f.root[child] = r;
      f.enter[child] = clock++;
      stack.emplace_back(child, first[child]);
    }
  }
}

// An inverse-bind matrix's fourth row is (0, 0, 0, 1): components 3, 7, 11
// and 15 of the column-major MAT4. Messages give the flat component index.
class IbmChecker final : public ElementChecker {
 public:
  IbmChecker(gltf::IssueCollector& issues, std::string at) : issues_(issues), at_(std::move(at)) {}
  void consume(std::span<const double> values, std::uint64_t first_element) override {
    for (std::size_t k = 3; k < values.size(); k += 4) {
      const bool last = k % 16 == 15;
      if (values[k] == (last ? 1.0 : 0.0)) continue;
      issues_.add(
          "ACCESSOR_INVALID_IBM", at_,
          {std::to_string(first_element * 16 + k), std::to_string(k % 16), number_text(values[k])});
    }
  }
  // Implicit zeros (no bufferView) are skipped, as glTF-Validator skips them:
  // checking the zeros an accessor without bufferView holds is for animation
  // data, which `gltf-anim sample` plays (docs/VALIDATOR.md, differences);
  // an inverse bind matrix is not sampled.
  void consume_zeros(std::uint64_t /*first_element*/, std::uint64_t /*n*/) override {}

 private:
  gltf::IssueCollector& issues_;
  std::string at_;
};

class SceneGraphRules final : public RuleModule {
 public:
  std::string_view name() const override { return "scene-graph"; }

  void link(RuleContext& ctx) override {
    const gltf_anim::json::Value* nodes = array_member(ctx.doc, "nodes");
    const std::uint64_t node_count = array_size(nodes);
    Forest forest;
    forest.parent.assign(node_count, kNoNode);
    for (std::uint64_t i = 0; i < node_count; ++i) {
      const gltf_anim::json::Value* node = object_at(nodes, i);
      if (node != nullptr) check_node(ctx, *node, i, forest);
    }
    find_loops(forest);
    for (std::uint64_t i = 0; i < node_count; ++i) {
      if (forest.on_loop[i]) ctx.issues.add("NODE_LOOP", root_pointer("nodes", i));
    }
    number_trees(forest);
    check_scenes(ctx, forest);
    check_skins(ctx, forest);
  }

 private:
  // A reference to element `index` of the root collection `collection`.
  static void check_reference(RuleContext& ctx, const gltf_anim::json::Value& object,
                              std::string_view name, std::string_view collection,
                              const JsonPointer& at) {
    const auto index = index_member(object, name);
    if (index && *index >= array_size(array_member(ctx.doc, collection))) {
      ctx.issues.add("UNRESOLVED_REFERENCE", at / name, {std::to_string(*index)});
    }
  }

  static void check_node(RuleContext& ctx, const gltf_anim::json::Value& node, std::uint64_t i,
                         Forest& forest) {
    const JsonPointer at = root_pointer("nodes", i);
    check_reference(ctx, node, "camera", "cameras", at);
    check_reference(ctx, node, "skin", "skins", at);
    check_reference(ctx, node, "mesh", "meshes", at);
    if (const gltf_anim::json::Value* children = array_member(node, "children")) {
      const std::uint64_t node_count = forest.parent.size();
      for (rapidjson::SizeType k = 0; k < children->Size(); ++k) {
        const auto child = as_uint((*children)[k]);
        if (!child) continue;  // the schema phase's
        const JsonPointer child_at = at / std::string_view("children") / k;
        if (*child >= node_count) {
          ctx.issues.add("UNRESOLVED_REFERENCE", child_at, {std::to_string(*child)});
          continue;
        }
        if (forest.parent[*child] == i) continue;  // listed twice: DUPLICATE_ELEMENTS
        if (forest.parent[*child] != kNoNode) {
          ctx.issues.add("NODE_PARENT_OVERRIDE", child_at, {std::to_string(*child)});
        }
        forest.parent[*child] = i;
      }
    }
    if (has(node, "matrix") &&
        (has(node, "translation") || has(node, "rotation") || has(node, "scale"))) {
      ctx.issues.add("NODE_MATRIX_TRS", at / std::string_view("matrix"));
    }
    double m[16];
    if (fixed_numbers(array_member(node, "matrix"), m, 16) && !trs_decomposable(m)) {
      ctx.issues.add("NODE_MATRIX_NON_TRS", at / std::string_view("matrix"));
    }
    // A component outside [-1, 1] is the schema's VALUE_NOT_IN_RANGE already
    // (one cause, one issue, as glTF-Validator).
    double q[4];
    if (fixed_numbers(array_member(node, "rotation"), q, 4) &&
        std::all_of(q, q + 4, [](double c) { return c >= -1.0 && c <= 1.0; }) &&
        std::abs(std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1.0) >
            kUnitLengthTolerance) {
      ctx.issues.add("ROTATION_NON_UNIT", at / std::string_view("rotation"));
    }
    // node.weights against the morph targets of its mesh's first primitive.
    const gltf_anim::json::Value* weights = array_member(node, "weights");
    const auto mesh_index = index_member(node, "mesh");
    const gltf_anim::json::Value* mesh =
        mesh_index ? object_at(array_member(ctx.doc, "meshes"), *mesh_index) : nullptr;
    const gltf_anim::json::Value* primitives =
        mesh != nullptr ? array_member(*mesh, "primitives") : nullptr;
    const gltf_anim::json::Value* first = object_at(primitives, 0);
    if (weights != nullptr && first != nullptr) {
      const std::uint64_t targets = array_size(array_member(*first, "targets"));
      if (weights->Size() != targets) {
        ctx.issues.add("NODE_WEIGHTS_INVALID", at / std::string_view("weights"),
                       {std::to_string(weights->Size()), std::to_string(targets)});
      }
    }
  }

  static void check_scenes(RuleContext& ctx, const Forest& forest) {
    const gltf_anim::json::Value* scenes = array_member(ctx.doc, "scenes");
    check_reference(ctx, ctx.doc, "scene", "scenes", JsonPointer());
    for (std::uint64_t s = 0; s < array_size(scenes); ++s) {
      const gltf_anim::json::Value* scene = object_at(scenes, s);
      const gltf_anim::json::Value* list =
          scene != nullptr ? array_member(*scene, "nodes") : nullptr;
      for (std::uint64_t k = 0; k < array_size(list); ++k) {
        const auto n = as_uint((*list)[static_cast<rapidjson::SizeType>(k)]);
        if (!n) continue;
        const JsonPointer at = root_pointer("scenes", s) / std::string_view("nodes") / k;
        if (*n >= forest.parent.size()) {
          ctx.issues.add("UNRESOLVED_REFERENCE", at, {std::to_string(*n)});
        } else if (forest.parent[*n] != kNoNode) {
          ctx.issues.add("SCENE_NON_ROOT_NODE", at, {std::to_string(*n)});
        }
      }
    }
  }

  static void check_skins(RuleContext& ctx, const Forest& forest) {
    const gltf_anim::json::Value* skins = array_member(ctx.doc, "skins");
    const std::uint64_t node_count = forest.parent.size();
    for (std::uint64_t s = 0; s < array_size(skins); ++s) {
      const gltf_anim::json::Value* skin = object_at(skins, s);
      if (skin == nullptr) continue;
      const JsonPointer at = root_pointer("skins", s);
      const gltf_anim::json::Value* joints = array_member(*skin, "joints");
      std::vector<std::uint64_t> resolved;
      for (std::uint64_t k = 0; k < array_size(joints); ++k) {
        const auto j = as_uint((*joints)[static_cast<rapidjson::SizeType>(k)]);
        if (!j) continue;
        if (*j >= node_count) {
          ctx.issues.add("UNRESOLVED_REFERENCE", at / std::string_view("joints") / k,
                         {std::to_string(*j)});
        } else {
          resolved.push_back(*j);
        }
      }
      // The common roots are the ancestors (or self) of every joint: there is
      // one when all joints are in one tree.
      bool in_loop = false;
      bool common = !resolved.empty();
      for (const std::uint64_t j : resolved) {
        if (!forest.rooted(j)) {
          in_loop = true;
        } else if (forest.root[j] != forest.root[resolved.front()]) {
          common = false;
        }
      }
      const bool has_joints = array_size(joints) != 0;
      if (has_joints && !in_loop && !common) {
        ctx.issues.add("SKIN_NO_COMMON_ROOT", at / std::string_view("joints"));
      }
      if (const auto skeleton = index_member(*skin, "skeleton")) {
        if (*skeleton >= node_count) {
          ctx.issues.add("UNRESOLVED_REFERENCE", at / std::string_view("skeleton"),
                         {std::to_string(*skeleton)});
        } else if (has_joints && !in_loop && forest.rooted(*skeleton)) {
          bool valid = common;
          for (const std::uint64_t j : resolved) {
            if (!valid) break;
            valid = forest.ancestor_or_self(*skeleton, j);
          }
          if (!valid) ctx.issues.add("SKIN_SKELETON_INVALID", at / std::string_view("skeleton"));
        }
      }
      check_inverse_bind_matrices(ctx, *skin, at, array_size(joints));
    }
  }

  static void check_inverse_bind_matrices(RuleContext& ctx, const gltf_anim::json::Value& skin,
                                          const JsonPointer& skin_at, std::uint64_t joints) {
    const auto index = index_member(skin, "inverseBindMatrices");
    if (!index) return;
    const JsonPointer at = skin_at / std::string_view("inverseBindMatrices");
    const auto& accessors = ctx.asset.accessors;
    if (*index >= array_size(array_member(ctx.doc, "accessors")) || *index >= accessors.size()) {
      ctx.issues.add("UNRESOLVED_REFERENCE", at, {std::to_string(*index)});
      return;
    }
    const gltf::Accessor& acc = accessors[*index];
    if (!acc.well_formed) return;  // the schema phase's
    if (acc.buffer_view && *acc.buffer_view < ctx.asset.buffer_views.size() &&
        ctx.asset.buffer_views[*acc.buffer_view].byte_stride) {
      ctx.issues.add("SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", at);
    }
    // "floating-point components of MAT4 type": FLOAT, or a draft's double
    // or half (KHR_accessor_float64/float16), never normalized integers.
    const bool format_ok = acc.type == gltf::ElementType::kMat4 && acc.component_type &&
                           gltf::is_floating_point(*acc.component_type) && !acc.normalized;
    if (!format_ok) {
      ctx.issues.add("SKIN_IBM_INVALID_FORMAT", at, {format_text(acc), "{MAT4, FLOAT}"});
    } else {
      ctx.data.attach(*index, "skin.inverseBindMatrices",
                      std::make_unique<IbmChecker>(ctx.issues, at.str()));
    }
    if (acc.count && *acc.count < joints) {
      ctx.issues.add("INVALID_IBM_ACCESSOR_COUNT", at,
                     {std::to_string(joints), std::to_string(*acc.count)});
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_scene_graph_rules() { return std::make_unique<SceneGraphRules>(); }

}  // namespace gltf_anim::validator
