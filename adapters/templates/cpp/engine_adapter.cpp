// A minimal conformance adapter in C++: copy this file and adapter_main.hpp, and replace the
// Engine class with calls into your engine. The rest (which times and channels to evaluate,
// the manifest's paths, the samples file format) is done by adapter_main.hpp with gltf-anim's
// compare library.
//
//   engine_adapter SUITE_DIR OUT_DIR [CASE_ID...]
//
// Writes OUT_DIR/<case id>.samples.json for each case (adapter_main.hpp says what is read and
// written, and the exit codes). Then judge one case with
//   gltf-anim compare --golden SUITE_DIR --actual OUT_DIR/<case id>.samples.json
// or all of them with --actual OUT_DIR.
#include "adapter_main.hpp"

#include <gltf_anim/sampler/sample.hpp>  // only for the placeholder engine below

#include <filesystem>
#include <string>
#include <vector>

namespace {

// ---- Your engine goes here ------------------------------------------------------------
// Placeholder: gltf-anim's own reference evaluator, so that the template passes as it is.
class Engine : public gltf_anim::adapter::Engine {
 public:
  // Load the asset (.gltf or .glb) with your engine; return why it refuses it, or "".
  std::string load(const std::filesystem::path& asset) override {
    channels_ = gltf_anim::sampler::decoded_channels(asset);
    return {};
  }

  // The value of one channel at `t` (adapter_main.hpp, Engine::sample, says the layout);
  // empty with `why` when your engine does not play the channel.
  std::vector<double> sample(std::size_t animation, std::size_t channel, const std::string& target,
                             double t, std::string& why) override {
    (void)target;
    for (const auto& c : channels_) {
      if (c.animation != animation || c.channel != channel) continue;
      std::vector<double> value(c.keys.components);
      gltf_anim::reference::sample(c.view(), t, value);
      return value;
    }
    why = "no such channel";
    return {};
  }

 private:
  std::vector<gltf_anim::sampler::DecodedChannel> channels_;
};
// ----------------------------------------------------------------------------------------

}  // namespace

int main(int argc, char** argv) {
  Engine engine;
  return gltf_anim::adapter::run(argc, argv, "engine_adapter", "engine_adapter template", engine);
}
