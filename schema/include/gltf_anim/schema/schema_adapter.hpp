#pragma once
// valijson over the project's JSON values (gltf_anim/gltf/json.hpp, whose
// allocations throw). valijson's schema parser asks AdapterTraits for the
// document type of the schemas it resolves, and declares it only for
// RapidJSON's two stock allocators: this declares it for ours.
#include <gltf_anim/gltf/json.hpp>

#include <valijson/adapters/rapidjson_adapter.hpp>

#include <string>

namespace gltf_anim::schema {
using SchemaAdapter = valijson::adapters::GenericRapidJsonAdapter<json::Value>;
}  // namespace gltf_anim::schema

template <>
struct valijson::adapters::AdapterTraits<gltf_anim::schema::SchemaAdapter> {
  using DocumentType = gltf_anim::json::Document;
  static std::string adapterName() { return "GenericRapidJsonAdapter (gltf_anim::json)"; }
};
