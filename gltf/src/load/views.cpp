// Tolerant typed views of /buffers, /bufferViews and /accessors. Nothing is
// reported here: a member of the wrong type (the schema check's business)
// just leaves the object not well_formed, so no data is read through it.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/json_access.hpp>
#include "load/internal.hpp"

namespace gltf_anim::gltf {

namespace {

// A member read from the JSON: absent, present and valid, or present but wrong.
template <typename T>
struct Member {
  bool present = false;
  std::optional<T> value;
  bool bad() const { return present && !value; }
};

// glTF integers are JSON numbers with a zero fractional part (1.0 and 1e2
// too: json_access::as_uint).
Member<std::uint64_t> get_uint(const gltf_anim::json::Value& obj, const char* name,
                               std::uint64_t min = 0) {
  Member<std::uint64_t> m;
  const auto it = obj.FindMember(name);
  if (it == obj.MemberEnd()) return m;
  m.present = true;
  if (const auto u = json_access::as_uint(it->value); u && *u >= min) m.value = *u;
  return m;
}

Member<std::string> get_string(const gltf_anim::json::Value& obj, const char* name) {
  Member<std::string> m;
  const auto it = obj.FindMember(name);
  if (it == obj.MemberEnd()) return m;
  m.present = true;
  if (it->value.IsString())
    m.value = std::string(it->value.GetString(), it->value.GetStringLength());
  return m;
}

Member<bool> get_bool(const gltf_anim::json::Value& obj, const char* name) {
  Member<bool> m;
  const auto it = obj.FindMember(name);
  if (it == obj.MemberEnd()) return m;
  m.present = true;
  if (it->value.IsBool()) m.value = it->value.GetBool();
  return m;
}

const gltf_anim::json::Value* get_array(const gltf_anim::json::Value& root, const char* name) {
  const auto it = root.FindMember(name);
  if (it == root.MemberEnd() || !it->value.IsArray()) return nullptr;
  return &it->value;
}

const gltf_anim::json::Value* get_object(const gltf_anim::json::Value& obj, const char* name) {
  const auto it = obj.FindMember(name);
  if (it == obj.MemberEnd() || !it->value.IsObject()) return nullptr;
  return &it->value;
}

// extensions.<name> of an object, when both are objects.
const gltf_anim::json::Value* get_extension(const gltf_anim::json::Value& obj, const char* name) {
  const auto* extensions = get_object(obj, "extensions");
  return extensions == nullptr ? nullptr : get_object(*extensions, name);
}

constexpr const char* kMeshoptExt = "EXT_meshopt_compression";
constexpr const char* kMeshoptKhr = "KHR_meshopt_compression";

Buffer make_buffer(const gltf_anim::json::Value& v) {
  Buffer b;
  if (!v.IsObject()) return b;
  const auto uri = get_string(v, "uri");
  const auto length = get_uint(v, "byteLength", 1);
  b.uri = uri.value;
  b.byte_length = length.value;
  b.well_formed = !uri.bad() && length.value.has_value();
  const auto* ext = get_extension(v, kMeshoptExt);
  const auto* khr = get_extension(v, kMeshoptKhr);
  b.meshopt_both = ext != nullptr && khr != nullptr;
  b.meshopt_khr = khr != nullptr;
  const auto* tag = khr != nullptr ? khr : ext;
  b.meshopt_fallback = tag != nullptr && get_bool(*tag, "fallback").value.value_or(false);
  return b;
}

std::optional<MeshoptMode> meshopt_mode(std::string_view name) {
  if (name == "ATTRIBUTES") return MeshoptMode::kAttributes;
  if (name == "TRIANGLES") return MeshoptMode::kTriangles;
  if (name == "INDICES") return MeshoptMode::kIndices;
  return std::nullopt;
}

// COLOR is KHR_meshopt_compression's only.
std::optional<MeshoptFilter> meshopt_filter(std::string_view name, bool khr) {
  if (name == "NONE") return MeshoptFilter::kNone;
  if (name == "OCTAHEDRAL") return MeshoptFilter::kOctahedral;
  if (name == "QUATERNION") return MeshoptFilter::kQuaternion;
  if (name == "EXPONENTIAL") return MeshoptFilter::kExponential;
  if (name == "COLOR" && khr) return MeshoptFilter::kColor;
  return std::nullopt;
}

MeshoptCompression make_meshopt(const gltf_anim::json::Value& v, bool khr) {
  MeshoptCompression m;
  m.khr = khr;
  const auto buffer = get_uint(v, "buffer");
  const auto offset = get_uint(v, "byteOffset");
  const auto length = get_uint(v, "byteLength");
  const auto stride = get_uint(v, "byteStride");
  const auto count = get_uint(v, "count");
  const auto mode = get_string(v, "mode");
  const auto filter = get_string(v, "filter");
  m.buffer = buffer.value;
  m.byte_offset = offset.value.value_or(0);
  m.byte_length = length.value;
  m.byte_stride = stride.value;
  m.count = count.value;
  if (mode.value) m.mode = meshopt_mode(*mode.value);
  std::optional<MeshoptFilter> f = MeshoptFilter::kNone;
  if (filter.present) f = filter.value ? meshopt_filter(*filter.value, khr) : std::nullopt;
  m.filter = f.value_or(MeshoptFilter::kNone);
  m.well_formed =
      buffer.value && !offset.bad() && length.value && stride.value && count.value && m.mode && f;
  return m;
}

BufferView make_buffer_view(const gltf_anim::json::Value& v) {
  BufferView bv;
  if (!v.IsObject()) return bv;
  const auto buffer = get_uint(v, "buffer");
  const auto offset = get_uint(v, "byteOffset");
  const auto length = get_uint(v, "byteLength", 1);
  const auto stride = get_uint(v, "byteStride");
  const auto target = get_uint(v, "target");
  bv.buffer = buffer.value;
  bv.byte_offset = offset.value.value_or(0);
  bv.byte_length = length.value;
  bv.byte_stride = stride.value;
  bv.target = target.value;
  // The schema: byteStride in [4, 252], a multiple of 4.
  const bool stride_ok = !stride.present || (stride.value && *stride.value >= 4 &&
                                             *stride.value <= 252 && *stride.value % 4 == 0);
  bv.well_formed = buffer.value && length.value && !offset.bad() && stride_ok && !target.bad();
  const auto* ext = get_extension(v, kMeshoptExt);
  const auto* khr = get_extension(v, kMeshoptKhr);
  bv.meshopt_both = ext != nullptr && khr != nullptr;
  if (khr != nullptr) {
    bv.meshopt = make_meshopt(*khr, true);
  } else if (ext != nullptr) {
    bv.meshopt = make_meshopt(*ext, false);
  }
  return bv;
}

std::optional<AccessorSparse> make_sparse(const gltf_anim::json::Value& v) {
  if (!v.IsObject()) return std::nullopt;
  const auto count = get_uint(v, "count", 1);
  const auto indices = v.FindMember("indices");
  const auto values = v.FindMember("values");
  if (!count.value || indices == v.MemberEnd() || values == v.MemberEnd() ||
      !indices->value.IsObject() || !values->value.IsObject()) {
    return std::nullopt;
  }
  const auto i_view = get_uint(indices->value, "bufferView");
  const auto i_offset = get_uint(indices->value, "byteOffset");
  const auto i_type = get_uint(indices->value, "componentType");
  const auto v_view = get_uint(values->value, "bufferView");
  const auto v_offset = get_uint(values->value, "byteOffset");
  if (!i_view.value || i_offset.bad() || !i_type.value || !v_view.value || v_offset.bad()) {
    return std::nullopt;
  }
  const auto type = component_type_from_gl(*i_type.value);
  if (type != ComponentType::kUnsignedByte && type != ComponentType::kUnsignedShort &&
      type != ComponentType::kUnsignedInt) {
    return std::nullopt;
  }
  AccessorSparse s;
  s.count = *count.value;
  s.indices_buffer_view = *i_view.value;
  s.indices_byte_offset = i_offset.value.value_or(0);
  s.indices_component_type = *type;
  s.values_buffer_view = *v_view.value;
  s.values_byte_offset = v_offset.value.value_or(0);
  return s;
}

Accessor make_accessor(const gltf_anim::json::Value& v) {
  Accessor a;
  if (!v.IsObject()) return a;
  const auto view = get_uint(v, "bufferView");
  const auto offset = get_uint(v, "byteOffset");
  const auto component = get_uint(v, "componentType");
  const auto normalized = get_bool(v, "normalized");
  const auto count = get_uint(v, "count", 1);
  const auto type = get_string(v, "type");
  a.buffer_view = view.value;
  a.byte_offset = offset.value.value_or(0);
  if (component.value) a.component_type = component_type_from_gl(*component.value);
  a.normalized = normalized.value.value_or(false);
  a.count = count.value;
  if (type.value) a.type = element_type_from_name(*type.value);
  bool sparse_ok = true;
  if (const auto s = v.FindMember("sparse"); s != v.MemberEnd()) {
    a.has_sparse_member = true;
    a.sparse = make_sparse(s->value);
    sparse_ok = a.sparse.has_value();
  }
  a.well_formed = !view.bad() && !offset.bad() && a.component_type && !normalized.bad() &&
                  a.count && a.type && sparse_ok;
  return a;
}

}  // namespace

void build_views(LoadedAsset& asset) {
  if (!asset.document || !asset.document->IsObject()) return;
  const gltf_anim::json::Value& root = *asset.document;
  // Sizes follow JSON arrays already in memory, so they are bounded by the input.
  if (const auto* a = get_array(root, "buffers")) {
    asset.buffers.reserve(a->Size());
    for (const auto& v : a->GetArray()) asset.buffers.push_back(make_buffer(v));
  }
  if (const auto* a = get_array(root, "bufferViews")) {
    asset.buffer_views.reserve(a->Size());
    for (const auto& v : a->GetArray()) asset.buffer_views.push_back(make_buffer_view(v));
  }
  if (const auto* a = get_array(root, "accessors")) {
    asset.accessors.reserve(a->Size());
    for (const auto& v : a->GetArray()) asset.accessors.push_back(make_accessor(v));
  }
}

}  // namespace gltf_anim::gltf
