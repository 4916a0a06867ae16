// Filament's gltfio Animator through the conformance suite, headless: the C++ adapter
// template (adapters/templates/cpp) with Filament as its engine; the command line, the
// manifest, the paths and the samples files are adapter_main.hpp's.
//
//   filament_adapter SUITE_DIR OUT_DIR [CASE_ID...]
//
// For each case: Filament's AssetLoader parses the asset (cgltf inside), its
// ResourceLoader takes the buffers (handed over as bytes: Filament reads no file
// itself), and for every golden channel and time the Animator applies the animation
// (Animator::applyAnimation(index, float seconds), what a Filament app calls per frame)
// and the node's local transform is read back from the TransformManager and split
// into translation, rotation and scale. The engine runs on Filament's no-op backend:
// no GPU, no window.
//
// What the adapter cannot observe is left out of the samples file, with the reason
// on standard error and in the notes page: morph weights (Filament 1.9's
// RenderableManager sets them and has no getter), KHR_animation_pointer and
// KHR_animation2 channels (gltfio 1.9 does not read them), and nodes whose name does
// not designate one node (the Animator's result is read through the node's entity,
// found by name). Exit codes: adapter_main.hpp's.
#include "adapter_main.hpp"
#include "core_channels.hpp"

#include <filament/Engine.h>
#include <filament/TransformManager.h>
#include <gltfio/Animator.h>
#include <gltfio/AssetLoader.h>
#include <gltfio/FilamentAsset.h>
#include <gltfio/MaterialProvider.h>
#include <gltfio/ResourceLoader.h>
#include <utils/EntityManager.h>
#include <utils/NameComponentManager.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// A buffer URI of an asset: relative, without "..", so it stays in the asset's folder inside
// the suite (adapter_main.hpp confines the asset itself).
bool relative_inside(const fs::path& relative) {
  if (relative.empty() || relative.is_absolute() || relative.has_root_name()) return false;
  for (const auto& part : relative) {
    if (part == "..") return false;
  }
  return true;
}

class Engine : public gltf_anim::adapter::Engine {
 public:
  Engine() {
    engine_ = filament::Engine::create(filament::backend::Backend::NOOP);
    if (engine_ == nullptr) throw std::runtime_error("Filament's no-op backend did not start");
    materials_ = gltfio::createMaterialGenerator(engine_);
    names_ = new utils::NameComponentManager(utils::EntityManager::get());
    gltfio::AssetConfiguration config{};
    config.engine = engine_;
    config.materials = materials_;
    config.names = names_;
    loader_ = gltfio::AssetLoader::create(config);
  }
  ~Engine() override {
    unload();
    gltfio::AssetLoader::destroy(&loader_);
    materials_->destroyMaterials();
    delete materials_;
    delete names_;
    filament::Engine::destroy(&engine_);
  }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Loads one asset; empty, or why Filament refuses it.
  std::string load(const fs::path& asset) override {
    unload();
    const std::vector<std::uint8_t> bytes = gltf_anim::adapter::read_bytes(asset);
    const bool glb = bytes.size() >= 20 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    if (std::string why = channels_.read(bytes); !why.empty()) return why;
    asset_ = glb ? loader_->createAssetFromBinary(bytes.data(), static_cast<std::uint32_t>(bytes.size()))
                 : loader_->createAssetFromJson(bytes.data(), static_cast<std::uint32_t>(bytes.size()));
    if (asset_ == nullptr) return "gltfio's AssetLoader refused the asset";
    gltfio::ResourceConfiguration rc{};
    rc.engine = engine_;
    // The buffers are handed over below; the path only keys them (gltfio resolves a
    // URI against it before looking in the data it was given).
    const std::string asset_path = asset.string();
    rc.gltfPath = asset_path.c_str();
    rc.normalizeSkinningWeights = true;
    rc.recomputeBoundingBoxes = false;
    gltfio::ResourceLoader resources(rc);
    // External buffers, read here from inside the suite and handed over as bytes.
    const fs::path folder = asset.parent_path();
    for (std::size_t i = 0; i < asset_->getResourceUriCount(); ++i) {
      const std::string uri = asset_->getResourceUris()[i];
      if (uri.rfind("data:", 0) == 0) continue;
      if (!relative_inside(uri)) return "a buffer URI leads out of the suite: " + uri;
      // A file the suite does not hold (an image `generate --from` could not copy, which its
      // notes name) is not handed over: gltfio then goes without it, as an app would.
      std::error_code missing;
      if (!fs::is_regular_file(folder / uri, missing)) continue;
      auto* data = new std::vector<std::uint8_t>(gltf_anim::adapter::read_bytes(folder / uri));
      resources.addResourceData(uri.c_str(),
                                filament::backend::BufferDescriptor(
                                    data->data(), data->size(),
                                    [](void*, std::size_t, void* user) { delete static_cast<std::vector<std::uint8_t>*>(user); },
                                    data));
    }
    if (!resources.loadResources(asset_))
      return "gltfio's ResourceLoader could not load the buffers";
    animator_ = asset_->getAnimator();
    return {};
  }

  // The channel's value at t, or empty with `why` when the adapter cannot observe it.
  std::vector<double> sample(std::size_t animation, std::size_t channel, const std::string& target,
                             double t, std::string& why) override {
    const std::string name = channels_.node_name(animation, channel, why);
    if (name.empty()) {
      why += ": gltfio 1.9 plays only core node channels, found by the node's name";
      return {};
    }
    const std::string path = gltf_anim::adapter::node_property(target);
    if (path == "weights") {
      why = "morph weights: Filament 1.9's RenderableManager has no getter for them";
      return {};
    }
    const utils::Entity entity = asset_->getFirstEntityByName(name.c_str());
    if (entity.isNull()) {
      why = "gltfio made no entity named \"" + name + "\"";
      return {};
    }
    if (animation >= animator_->getAnimationCount()) {
      why = "gltfio made no animation " + std::to_string(animation);
      return {};
    }
    // What a Filament app does every frame: the animation at a float time in seconds.
    animator_->applyAnimation(animation, static_cast<float>(t));
    auto& tm = engine_->getTransformManager();
    const filament::math::mat4f m = tm.getTransform(tm.getInstance(entity));
    // The local transform is T * R * S: translation in the last column, each of the
    // first three columns a rotated axis scaled by its scale factor.
    if (path == "translation") return {m[3][0], m[3][1], m[3][2]};
    const double sx = std::sqrt(double{m[0][0]} * m[0][0] + double{m[0][1]} * m[0][1] + double{m[0][2]} * m[0][2]);
    const double sy = std::sqrt(double{m[1][0]} * m[1][0] + double{m[1][1]} * m[1][1] + double{m[1][2]} * m[1][2]);
    const double sz = std::sqrt(double{m[2][0]} * m[2][0] + double{m[2][1]} * m[2][1] + double{m[2][2]} * m[2][2]);
    if (path == "scale") return {sx, sy, sz};
    if (path == "rotation") return rotation_of(m, sx, sy, sz);
    why = "unknown node path " + path;
    return {};
  }

 private:
  // The unit quaternion (x, y, z, w) of the rotation part (Shepperd's method, in double).
  static std::vector<double> rotation_of(const filament::math::mat4f& m, double sx, double sy, double sz) {
    // r(row, col) of the rotation matrix: column c of m divided by its scale.
    const double s[3] = {sx, sy, sz};
    auto r = [&](int row, int col) { return double{m[col][row]} / s[col]; };
    const double trace = r(0, 0) + r(1, 1) + r(2, 2);
    double x, y, z, w;
    if (trace > 0) {
      const double k = 0.5 / std::sqrt(trace + 1.0);
      w = 0.25 / k;
      x = (r(2, 1) - r(1, 2)) * k;
      y = (r(0, 2) - r(2, 0)) * k;
      z = (r(1, 0) - r(0, 1)) * k;
    } else if (r(0, 0) > r(1, 1) && r(0, 0) > r(2, 2)) {
      const double k = 2.0 * std::sqrt(1.0 + r(0, 0) - r(1, 1) - r(2, 2));
      w = (r(2, 1) - r(1, 2)) / k;
      x = 0.25 * k;
      y = (r(0, 1) + r(1, 0)) / k;
      z = (r(0, 2) + r(2, 0)) / k;
    } else if (r(1, 1) > r(2, 2)) {
      const double k = 2.0 * std::sqrt(1.0 + r(1, 1) - r(0, 0) - r(2, 2));
      w = (r(0, 2) - r(2, 0)) / k;
      x = (r(0, 1) + r(1, 0)) / k;
      y = 0.25 * k;
      z = (r(1, 2) + r(2, 1)) / k;
    } else {
      const double k = 2.0 * std::sqrt(1.0 + r(2, 2) - r(0, 0) - r(1, 1));
      w = (r(1, 0) - r(0, 1)) / k;
      x = (r(0, 2) + r(2, 0)) / k;
      y = (r(1, 2) + r(2, 1)) / k;
      z = 0.25 * k;
    }
    const double n = std::sqrt(x * x + y * y + z * z + w * w);
    return {x / n, y / n, z / n, w / n};
  }

  void unload() {
    if (asset_ != nullptr) loader_->destroyAsset(asset_);
    asset_ = nullptr;
    animator_ = nullptr;
  }

  filament::Engine* engine_ = nullptr;
  gltfio::MaterialProvider* materials_ = nullptr;
  utils::NameComponentManager* names_ = nullptr;
  gltfio::AssetLoader* loader_ = nullptr;
  gltfio::FilamentAsset* asset_ = nullptr;
  gltfio::Animator* animator_ = nullptr;
  gltf_anim::adapter::CoreChannels channels_;
};

}  // namespace

int main(int argc, char** argv) {
  try {
    Engine engine;
    return gltf_anim::adapter::run(
        argc, argv, "filament_adapter",
        "Filament 1.9 gltfio Animator (no-op backend), gltf-anim adapters/filament", engine);
  } catch (const std::exception& e) {
    std::cerr << "filament_adapter: " << e.what() << "\n";
    return 2;
  }
}
