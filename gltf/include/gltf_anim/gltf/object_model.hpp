#pragma once
// The glTF 2.0 Asset Object Model as data: every pointer template of
// ../shared/specs/glTF-2.0-ObjectModel.adoc (core and extension tables, mutable
// and read-only) plus KHR_node_visibility's `visible`, with its type, whether
// the glTF spec gives it a default value, and whether it is read-only. The
// owning extensions of a template are the names that follow its `extensions`
// segments. gltf/src/object_model.cpp holds the table.
//
// Used by the KHR_animation_pointer rules and reusable by any rule that
// resolves a JSON pointer to an animatable property (KHR_animation2):
//   parse_pointer  RFC 6901 syntax and unescaping (~0 ~1; any other ~ fails);
//   match          the template a parsed pointer instantiates, with its indices;
//   resolve        whether the matched property is defined in a document.
// The types they return (object_model_types.hpp) are installed with the
// animation model; this table and its lookups are internal.
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/gltf/object_model_types.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/document.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::gltf::object_model {

// The whole table, in the adoc's order.
std::span<const Property> properties();

// Extensions a template belongs to, outermost first (the token after each
// "extensions" token): "/materials/{}/extensions/KHR_materials_clearcoat/
// clearcoatTexture/extensions/KHR_texture_transform/offset" -> both names.
std::vector<std::string_view> owning_extensions(const Property& p);

// RFC 6901: "" or a sequence of "/"-prefixed reference tokens, "~0" for "~"
// and "~1" for "/". Returns the unescaped tokens, or nullopt on bad syntax
// (no leading "/", "~" followed by anything but 0 or 1).
std::optional<std::vector<std::string>> parse_pointer(std::string_view pointer);

// Escapes and joins tokens back into a pointer.
std::string join_pointer(std::span<const std::string> tokens);

// An array-index token: "0" or [1-9][0-9]*. Values beyond uint64 saturate to
// UINT64_MAX (never a valid index), so absurd indices do not overflow.
std::optional<std::uint64_t> array_index(std::string_view token);

// The template the tokens instantiate ({} matches array-index tokens only), or
// nullopt. Pointers to vector components (/nodes/0/rotation/1) match nothing.
std::optional<Match> match(std::span<const std::string> tokens);

// Resolves a match against `doc` (the adoc's rules: a property is defined when
// present, or when it has a default and its enclosing object is present; node
// weights follow the instantiated mesh's morph targets, primitives[0].targets).
Resolved resolve(const gltf_anim::json::Value& doc, const Match& m);

// KHR_animation_pointer "Output Accessor Component Types": float and float[]
// from SCALAR, floatN from VECN, float4x4 from MAT4, with any component type
// (float as-is, integers converted, normalized integers dequantized); int from
// a SCALAR non-normalized integer type; bool from SCALAR UNSIGNED_BYTE.
bool output_format_ok(ValueType t, ElementType type, ComponentType component, bool normalized);
// The allowed formats of `t` as text for messages ("{SCALAR, UNSIGNED_BYTE}").
std::string allowed_output_formats(ValueType t);

// The JSON value the tokens reach in `doc` (objects by member, arrays by
// index token), or nullptr. Used for `extras` pointers, which the Object Model
// leaves to applications: they only have to exist.
const gltf_anim::json::Value* find_value(const gltf_anim::json::Value& doc,
                                         std::span<const std::string> tokens);

}  // namespace gltf_anim::gltf::object_model
