// assimp's glTF 2 importer through the conformance suite: what an application that imports
// glTF with assimp gets to play. The C++ adapter template with assimp as its engine; the
// command line, the manifest, the paths and the samples files are adapter_main.hpp's.
//
//   assimp_adapter SUITE_DIR OUT_DIR [CASE_ID...]
//
// For each case: Assimp::Importer::ReadFile (no post-processing) imports the asset; every
// golden channel is found among the imported ones (aiAnimation i for glTF animation i; the
// aiNodeAnim or aiMeshMorphAnim named after the channel's node) and sampled as assimp's
// headers document its keys:
// - key times are in ticks, mTicksPerSecond per second;
// - between two keys, Assimp::Interpolator (anim.h): vectors and morph weights linearly,
//   rotations by aiQuaternion::Interpolate (slerp); at a key's time, the key;
// - before the first and after the last key, the channel's mPreState / mPostState
//   (aiAnimBehaviour): DEFAULT the node's own transformation (aiNode::mTransformation,
//   decomposed), CONSTANT the nearest key, LINEAR extrapolated from the two nearest keys,
//   REPEAT the keys again (t - first) mod (last - first). Morph-weight channels have no such
//   member; the nearest key is used.
// The import keeps keys only: no interpolation mode (STEP and CUBICSPLINE are played as
// above) and no CUBICSPLINE tangents. That is what the matrix row shows.
// Left out, with the reason: channels without target.node (KHR_animation_pointer,
// KHR_animation2: not imported) and nodes whose name is not unique (assimp names channels by
// node name). Exit codes: adapter_main.hpp's.
#include "adapter_main.hpp"
#include "core_channels.hpp"

#include <assimp/Importer.hpp>
#include <assimp/anim.h>
#include <assimp/scene.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<double> components(const aiVector3D& v) { return {v.x, v.y, v.z}; }
std::vector<double> components(const aiQuaternion& q) { return {q.x, q.y, q.z, q.w}; }

// The value of a key track (aiVectorKey or aiQuatKey) at `ticks`, as anim.h documents it.
// `rest`: the node's own value, for aiAnimBehaviour_DEFAULT.
template <typename Key, typename Value>
Value evaluate(const Key* keys, unsigned count, double ticks, aiAnimBehaviour pre,
               aiAnimBehaviour post, const Value& rest) {
  const Assimp::Interpolator<Key> interpolate;
  auto between = [&](unsigned k, double at) {
    Value out;
    const double d = keys[k + 1].mTime - keys[k].mTime;
    interpolate(out, keys[k], keys[k + 1],
                static_cast<ai_real>(d > 0 ? (at - keys[k].mTime) / d : 0));
    return out;
  };
  const double first = keys[0].mTime, last = keys[count - 1].mTime;
  if (ticks < first || ticks > last) {
    const aiAnimBehaviour behaviour = ticks < first ? pre : post;
    if (behaviour == aiAnimBehaviour_DEFAULT) return rest;
    if (behaviour == aiAnimBehaviour_REPEAT && last > first) {
      ticks = first + std::fmod(ticks - first, last - first);
      if (ticks < first) ticks += last - first;
    } else if (behaviour == aiAnimBehaviour_LINEAR && count > 1) {
      return ticks < first ? between(0, ticks) : between(count - 2, ticks);
    } else {
      return ticks < first ? keys[0].mValue : keys[count - 1].mValue;
    }
  }
  unsigned k = 0;
  while (k + 1 < count && keys[k + 1].mTime <= ticks) ++k;
  if (keys[k].mTime == ticks || k + 1 == count) return keys[k].mValue;
  return between(k, ticks);
}

class Engine : public gltf_anim::adapter::Engine {
 public:
  std::string load(const fs::path& asset) override {
    importer_.FreeScene();
    scene_ = nullptr;
    if (std::string why = channels_.read(gltf_anim::adapter::read_bytes(asset)); !why.empty())
      return why;
    scene_ = importer_.ReadFile(asset.string(), 0);
    if (scene_ == nullptr)
      return std::string("assimp refused the asset: ") + importer_.GetErrorString();
    return {};
  }

  std::vector<double> sample(std::size_t animation, std::size_t channel, const std::string& target,
                             double t, std::string& why) override {
    const std::string name = channels_.node_name(animation, channel, why);
    if (name.empty()) {
      why += ": assimp imports only core node channels, named after their node";
      return {};
    }
    if (animation >= scene_->mNumAnimations) {
      why = "assimp imported no animation " + std::to_string(animation);
      return {};
    }
    const aiAnimation& a = *scene_->mAnimations[animation];
    const double per_second = a.mTicksPerSecond != 0 ? a.mTicksPerSecond : 1.0;
    const double ticks = t * per_second;
    const std::string path = gltf_anim::adapter::node_property(target);
    if (path == "weights") return weights(a, name, ticks, why);
    const aiNodeAnim* c = nullptr;
    for (unsigned i = 0; i < a.mNumChannels && c == nullptr; ++i) {
      if (name == a.mChannels[i]->mNodeName.C_Str()) c = a.mChannels[i];
    }
    const aiNode* node =
        scene_->mRootNode != nullptr ? scene_->mRootNode->FindNode(name.c_str()) : nullptr;
    if (c == nullptr || node == nullptr) {
      why = "assimp imported no channel for node \"" + name + "\"";
      return {};
    }
    aiVector3D rest_scale, rest_position;
    aiQuaternion rest_rotation;
    node->mTransformation.Decompose(rest_scale, rest_rotation, rest_position);
    if (path == "translation" && c->mNumPositionKeys > 0) {
      return components(evaluate(c->mPositionKeys, c->mNumPositionKeys, ticks, c->mPreState,
                                 c->mPostState, rest_position));
    }
    if (path == "rotation" && c->mNumRotationKeys > 0) {
      return components(evaluate(c->mRotationKeys, c->mNumRotationKeys, ticks, c->mPreState,
                                 c->mPostState, rest_rotation));
    }
    if (path == "scale" && c->mNumScalingKeys > 0) {
      return components(evaluate(c->mScalingKeys, c->mNumScalingKeys, ticks, c->mPreState,
                                 c->mPostState, rest_scale));
    }
    why = "assimp imported no " + path + " keys for node \"" + name + "\"";
    return {};
  }

 private:
  // Morph weights: the aiMeshMorphAnim named after the node; each key holds (target index,
  // weight) pairs. Linear between keys (Assimp::Interpolator's default), the nearest key outside.
  std::vector<double> weights(const aiAnimation& a, const std::string& name, double ticks,
                              std::string& why) const {
    const aiMeshMorphAnim* m = nullptr;
    for (unsigned i = 0; i < a.mNumMorphMeshChannels && m == nullptr; ++i) {
      if (name == a.mMorphMeshChannels[i]->mName.C_Str()) m = a.mMorphMeshChannels[i];
    }
    if (m == nullptr || m->mNumKeys == 0) {
      why = "assimp imported no morph-weight channel for node \"" + name + "\"";
      return {};
    }
    auto values = [&](unsigned k) {
      const aiMeshMorphKey& key = m->mKeys[k];
      std::vector<double> out;
      for (unsigned i = 0; i < key.mNumValuesAndWeights; ++i) {
        if (key.mValues[i] >= out.size()) out.resize(key.mValues[i] + 1, 0.0);
        out[key.mValues[i]] = key.mWeights[i];
      }
      return out;
    };
    const unsigned n = m->mNumKeys;
    if (ticks <= m->mKeys[0].mTime) return values(0);
    if (ticks >= m->mKeys[n - 1].mTime) return values(n - 1);
    unsigned k = 0;
    while (k + 1 < n && m->mKeys[k + 1].mTime <= ticks) ++k;
    if (m->mKeys[k].mTime == ticks) return values(k);
    const double s = (ticks - m->mKeys[k].mTime) / (m->mKeys[k + 1].mTime - m->mKeys[k].mTime);
    std::vector<double> v0 = values(k), v1 = values(k + 1);
    v0.resize(std::max(v0.size(), v1.size()), 0.0);
    v1.resize(v0.size(), 0.0);
    for (std::size_t i = 0; i < v0.size(); ++i) v0[i] += (v1[i] - v0[i]) * s;
    return v0;
  }

  Assimp::Importer importer_;
  const aiScene* scene_ = nullptr;
  gltf_anim::adapter::CoreChannels channels_;
};

}  // namespace

int main(int argc, char** argv) {
  try {
    Engine engine;
    return gltf_anim::adapter::run(argc, argv, "assimp_adapter",
                                   "assimp glTF 2 importer, gltf-anim adapters/assimp", engine);
  } catch (const std::exception& e) {
    std::cerr << "assimp_adapter: " << e.what() << "\n";
    return 2;
  }
}
