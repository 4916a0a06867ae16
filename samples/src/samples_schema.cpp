// Samples files against docs/samples.schema.json (samples_schema.hpp), through
// the validator's EmbeddedSchema (compiled once per process).
#include "samples_schema.hpp"

#include <gltf_anim/schema/embedded_schema.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace gltf_anim::samples::detail {
namespace {

const schema::EmbeddedSchema& compiled() {
  static const schema::EmbeddedSchema schema(samples_schema_text(), "docs/samples.schema.json");
  return schema;  // thread-safe one-time initialisation
}

// Known members of each object of a samples file, by its nesting depth
// (1 the root, 3 an animation, 5 a channel); the rest is left out.
bool known_member(int depth, std::string_view name) {
  switch (depth) {
    case 1:
      return name == "asset" || name == "generator" || name == "error" || name == "animations";
    case 3: return name == "index" || name == "name" || name == "channels";
    case 5:
      return name == "index" || name == "target" || name == "interpolation" || name == "sampler" ||
             name == "measure" || name == "keyframes" || name == "unsupported" || name == "samples";
    default: return false;
  }
}

}  // namespace

std::optional<SchemaViolation> samples_schema_violation(const gltf_anim::json::Value& document) {
  return compiled().violation(document);
}

void SamplesSkeleton::add(gltf_anim::json::Value&& value, bool open) {
  if (level_ < 0) return;  // a root that is not an object: the reader refuses it
  Piece& piece = pieces_[level_];
  auto& alloc = piece.allocator;
  gltf_anim::json::Value& parent = *piece.open.back();
  gltf_anim::json::Value* added = nullptr;
  if (parent.IsObject()) {
    parent.AddMember(
        gltf_anim::json::Value(key_.data(), static_cast<rapidjson::SizeType>(key_.size()), alloc),
        value, alloc);
    added = &(parent.MemberEnd() - 1)->value;
  } else {
    parent.PushBack(value, alloc);
    added = &parent[parent.Size() - 1];
  }
  if (open) piece.open.push_back(added);
}

void SamplesSkeleton::scalar(gltf_anim::json::Value&& value) {
  if (skipping()) return;
  empty_array_ = false;
  if (skip_value_) {
    skip_value_ = false;
    return;
  }
  if (depth_ < 6 && lists_[depth_]) return element_not_an_object(depth_);
  add(std::move(value), false);
}

// An element of "animations" or "channels" that is not an object.
void SamplesSkeleton::element_not_an_object(int list_depth) {
  if (violation_) return;
  std::string pointer = "/animations/" + std::to_string(animations_);
  if (list_depth == 4) pointer += "/channels/" + std::to_string(channels_);
  violation_ = SchemaViolation{pointer, "must be an object"};
}

void SamplesSkeleton::number(std::string_view text) {
  if (skipping() || skip_value_) return scalar(gltf_anim::json::Value());
  const char* end = text.data() + text.size();
  std::int64_t i = 0;
  if (text.find_first_of(".eE") == std::string_view::npos) {
    if (const auto r = std::from_chars(text.data(), end, i); r.ec == std::errc() && r.ptr == end) {
      return scalar(gltf_anim::json::Value(i));
    }
  }
  double d = 0;
  std::from_chars(text.data(), end, d);  // the reader refuses what does not convert
  scalar(gltf_anim::json::Value(d));
}

void SamplesSkeleton::string(std::string_view text) {
  if (skipping() || skip_value_ || level_ < 0) return scalar(gltf_anim::json::Value());
  scalar(gltf_anim::json::Value(text.data(), static_cast<rapidjson::SizeType>(text.size()),
                                pieces_[level_].allocator));
}

void SamplesSkeleton::open(bool object) {
  const auto type = object ? rapidjson::kObjectType : rapidjson::kArrayType;
  if (skip_value_ || empty_array_) {
    if (empty_array_) add(gltf_anim::json::Value(type), false);
    skip_value_ = empty_array_ = false;
    skip_from_ = depth_;
    return;
  }
  // A new piece: the root, an element of "animations", an element of "channels".
  if (object && (depth_ == 1 || (depth_ == 3 && lists_[2]) || (depth_ == 5 && lists_[4]))) {
    level_ = depth_ / 2;
    Piece& piece = pieces_[level_];
    piece.doc.SetObject();
    piece.open.assign(1, &piece.doc);
    return;
  }
  if (!object && depth_ - 1 < 6 && lists_[depth_ - 1]) {
    element_not_an_object(depth_ - 1);
    skip_from_ = depth_;
    return;
  }
  // The lists of pieces: kept empty in their parent.
  if (!object && ((depth_ == 2 && key_ == "animations") || (depth_ == 4 && key_ == "channels")) &&
      level_ == depth_ / 2 - 1) {
    add(gltf_anim::json::Value(type), false);
    lists_[depth_] = true;
    return;
  }
  add(gltf_anim::json::Value(type), true);
}

bool SamplesSkeleton::close() {
  const int depth = depth_--;
  if (depth < 6 && lists_[depth]) {
    lists_[depth] = false;
    return true;
  }
  if (level_ < 0) {
    if (depth == 1) violation_ = SchemaViolation{"", "the document must be a JSON object"};
    return depth != 1;
  }
  Piece& piece = pieces_[level_];
  if (piece.open.size() > 1) {
    piece.open.pop_back();
    return true;
  }
  const bool ok = check_piece();
  if (level_ == 2) ++channels_;
  if (level_ == 1) {
    ++animations_;
    channels_ = 0;
  }
  piece.doc.SetNull();
  piece.open.clear();
  if (level_ > 0) piece.allocator.Clear();  // keeps the buffer: no allocation per channel
  --level_;
  return ok;
}

// The piece ended, inside the smallest file around it that is otherwise valid
// ({"asset": "", "animations": [{"index": 0, "channels": [PIECE]}]}), against
// the whole schema; its pointers are then the file's.
bool SamplesSkeleton::check_piece() {
  Piece& piece = pieces_[level_];
  scratch_allocator_.Clear();
  gltf_anim::json::Document wrapper(&scratch_allocator_);
  auto& alloc = wrapper.GetAllocator();
  gltf_anim::json::Value* where = &wrapper;
  std::string prefix, real;
  if (level_ == 0) {
    where = &piece.doc;
  } else {
    wrapper.SetObject();
    wrapper.AddMember("asset", "", alloc);
    gltf_anim::json::Value animations(rapidjson::kArrayType);
    if (level_ == 1) {
      animations.PushBack(
          gltf_anim::json::Value(std::move(static_cast<gltf_anim::json::Value&>(piece.doc))),
          alloc);
      prefix = "/animations/0";
      real = "/animations/" + std::to_string(animations_);
    } else {
      gltf_anim::json::Value animation(rapidjson::kObjectType);
      animation.AddMember("index", 0, alloc);
      gltf_anim::json::Value channels(rapidjson::kArrayType);
      channels.PushBack(
          gltf_anim::json::Value(std::move(static_cast<gltf_anim::json::Value&>(piece.doc))),
          alloc);
      animation.AddMember("channels", channels, alloc);
      animations.PushBack(animation, alloc);
      prefix = "/animations/0/channels/0";
      real =
          "/animations/" + std::to_string(animations_) + "/channels/" + std::to_string(channels_);
    }
    wrapper.AddMember("animations", animations, alloc);
  }
  auto v = samples_schema_violation(*where);
  if (!v) return true;
  if (v->pointer.starts_with(prefix)) v->pointer = real + v->pointer.substr(prefix.size());
  violation_ = std::move(v);
  return false;
}

void SamplesSkeleton::key(std::string_view name) {
  if (skipping()) return;
  if (!known_member(depth_, name)) {
    skip_value_ = true;
    return;
  }
  key_.assign(name);
  empty_array_ = depth_ == 5 && (name == "samples" || name == "keyframes");
}

}  // namespace gltf_anim::samples::detail
