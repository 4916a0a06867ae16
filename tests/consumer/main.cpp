// A tiny downstream project: uses the installed headers and libraries only
// (validate, issues, the animation model, the accessor reader, the reference
// evaluator). Expected values are worked out by hand in the comments.
#include <gltf_anim/reference/normalized.hpp>
#include <gltf_anim/reference/track.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/version.hpp>

#include <cstdint>
#include <iostream>
#include <span>
#include <string>
#include <vector>

namespace {

namespace v = gltf_anim::validator;

namespace gltf = gltf_anim::gltf;

std::span<const std::uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// One node, one LINEAR translation channel: times (0, 1), values (0,0,0) and
// (2,4,6), as little-endian floats in a 32-byte data URI. `sampler` is the
// channel's sampler index.
std::string asset(int sampler) {
  return R"({"asset":{"version":"2.0"},"nodes":[{}],
    "buffers":[{"byteLength":32,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAABAAACAQAAAwEA="}],
    "bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
                 {"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"}],
    "animations":[{"samplers":[{"input":0,"output":1}],
                   "channels":[{"sampler":)" +
         std::to_string(sampler) + R"(,"target":{"node":0,"path":"translation"}}]}]})";
}

bool check(bool ok, const char* what) {
  if (!ok) std::cerr << "consumer: " << what << "\n";
  return ok;
}

}  // namespace

int main() {
  bool ok = true;
  const std::string p = (gltf::JsonPointer() / "animations" / 0 / "a/b~c").str();
  ok &= check(p == "/animations/0/a~1b~0c", "JSON pointer escaping");
  ok &= check(gltf_anim::reference::decode_normalized(static_cast<std::int8_t>(-128)) == -1.0,
              "normalized BYTE -128 is -1");

  // A channel naming sampler 5 of an animation with one sampler.
  const v::ValidationReport bad = v::validate_bytes(bytes_of(asset(5)), "bad.gltf", {}, {});
  bool unresolved = false;
  for (const gltf::Issue& issue : bad.issues) {
    unresolved |= issue.code == "UNRESOLVED_REFERENCE" && issue.pointer == "/animations/0/channels/0/sampler";
  }
  ok &= check(unresolved && bad.count(gltf::Severity::kError) >= 1, "unresolved sampler reported");
  ok &= check(
      v::validate_bytes(bytes_of(asset(0)), "good.gltf", {}, {}).count(gltf::Severity::kError) == 0,
      "the valid asset has no error");

  // The model of the valid asset, its data, and the reference evaluator at t = 0.5:
  // halfway between (0,0,0) and (2,4,6) is (1,2,3).
  gltf::IssueCollector issues;
  const gltf::LoadedAsset loaded =
      gltf::load_bytes(bytes_of(asset(0)), "good.gltf", {}, {}, issues);
  const gltf::model::AnimationModel model = gltf::model::build_animation_model(loaded);
  const auto* target =
      model.animations.size() == 1 && model.animations[0].channels.size() == 1
          ? std::get_if<gltf::model::Target>(&model.animations[0].channels[0].target)
          : nullptr;
  ok &= check(target != nullptr && target->pointer == "/nodes/0/translation", "the channel's target");
  std::vector<double> times, values;
  ok &= check(gltf::read_accessor(loaded, 0, times) && gltf::read_accessor(loaded, 1, values),
              "accessors read");
  if (ok) {
    const gltf_anim::reference::TrackView track{times, values, 3, gltf_anim::reference::Interpolation::kLinear};
    std::vector<double> at(3);
    gltf_anim::reference::sample(track, 0.5, at);
    ok &= check(at == std::vector<double>{1.0, 2.0, 3.0}, "translation at t = 0.5");
  }
  std::cout << gltf_anim::kGenerator << " " << p << (ok ? " ok" : " FAILED") << "\n";
  return ok ? 0 : 1;
}
