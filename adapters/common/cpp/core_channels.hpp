// The core channels of an asset (target.node) and the names of the nodes they animate, read
// from its JSON: what the adapters of engines that find a node by its name need (Filament's
// entities, assimp's aiNodeAnim). Header-only, rapidjson.
#pragma once

#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gltf_anim::adapter {

// The property of "/nodes/<i>/<property>" ("translation", "rotation", "scale", "weights"), or
// empty for any other pointer.
inline std::string node_property(const std::string& target) {
  const std::string prefix = "/nodes/";
  if (target.compare(0, prefix.size(), prefix) != 0) return {};
  std::size_t i = prefix.size();
  const std::size_t digits = i;
  while (i < target.size() && target[i] >= '0' && target[i] <= '9') ++i;
  if (i == digits || i >= target.size() || target[i] != '/') return {};
  const std::string property = target.substr(i + 1);
  return property.find('/') == std::string::npos ? property : std::string();
}

class CoreChannels {
 public:
  // Reads the JSON of a .gltf or of a GLB's first chunk. Empty, or why it cannot be read.
  std::string read(const std::vector<std::uint8_t>& bytes) {
    std::string text;
    if (bytes.size() >= 20 && std::memcmp(bytes.data(), "glTF", 4) == 0) {
      const std::uint32_t length = std::uint32_t{bytes[12]} | std::uint32_t{bytes[13]} << 8 |
                                   std::uint32_t{bytes[14]} << 16 | std::uint32_t{bytes[15]} << 24;
      if (length > bytes.size() - 20) return "GLB JSON chunk longer than the file";
      text.assign(reinterpret_cast<const char*>(bytes.data()) + 20, length);
    } else {
      text.assign(bytes.begin(), bytes.end());
    }
    json_.Parse(text.c_str(), text.size());
    if (json_.HasParseError() || !json_.IsObject()) return "the asset's JSON does not parse";
    return {};
  }

  // The name of the node that channel `channel` of animation `animation` animates the core way
  // (target.node), when that name designates one node; empty with `why` otherwise (a
  // KHR_animation_pointer or KHR_animation2 channel, a node without a name or with another's).
  std::string node_name(std::size_t animation, std::size_t channel, std::string& why) const {
    const gltf_anim::json::Value* node = core_target(animation, channel);
    if (node == nullptr) {
      why = "not a core node channel (KHR_animation_pointer or KHR_animation2)";
      return {};
    }
    const auto nodes = json_.FindMember("nodes");
    if (!node->IsUint() || nodes == json_.MemberEnd() || !nodes->value.IsArray() ||
        node->GetUint() >= nodes->value.Size()) {
      why = "no such node";
      return {};
    }
    const auto& n = nodes->value[node->GetUint()];
    const auto name = n.FindMember("name");
    if (name == n.MemberEnd() || !name->value.IsString() || name->value.GetStringLength() == 0) {
      why = "node " + std::to_string(node->GetUint()) + " has no name to find it by";
      return {};
    }
    const std::string wanted(name->value.GetString(), name->value.GetStringLength());
    std::size_t same = 0;
    for (const auto& other : nodes->value.GetArray()) {
      const auto on = other.FindMember("name");
      if (on != other.MemberEnd() && on->value.IsString() &&
          wanted == std::string(on->value.GetString(), on->value.GetStringLength())) {
        ++same;
      }
    }
    if (same != 1) {
      why = "node name \"" + wanted + "\" is not unique: the node cannot be told apart";
      return {};
    }
    return wanted;
  }

 private:
  const gltf_anim::json::Value* core_target(std::size_t animation, std::size_t channel) const {
    const auto animations = json_.FindMember("animations");
    if (animations == json_.MemberEnd() || !animations->value.IsArray() ||
        animation >= animations->value.Size()) {
      return nullptr;
    }
    const auto& a = animations->value[static_cast<rapidjson::SizeType>(animation)];
    const auto channels = a.FindMember("channels");
    if (channels == a.MemberEnd() || !channels->value.IsArray() ||
        channel >= channels->value.Size())
      return nullptr;
    const auto& c = channels->value[static_cast<rapidjson::SizeType>(channel)];
    const auto target = c.FindMember("target");
    if (target == c.MemberEnd() || !target->value.IsObject()) return nullptr;
    const auto node = target->value.FindMember("node");
    return node == target->value.MemberEnd() ? nullptr : &node->value;
  }

  gltf_anim::json::Document json_;
};

}  // namespace gltf_anim::adapter
