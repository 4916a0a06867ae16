#pragma once
// Samples files against their JSON Schema, docs/samples.schema.json (embedded
// at build time), with valijson. The JSON reader hands its events to a
// SamplesSkeleton, which checks the file's own objects (root, animations,
// channels) with their known members as written, every `samples` and
// `keyframes` array empty. The samples and keyframes, millions in a large file,
// are checked by the reader's streaming rules instead: the same ones the schema
// states (tests/samples/test_schema.cpp keeps the two in step), since
// valijson takes about 5 us per sample object, ten times the cost of reading it.
#include <gltf_anim/schema/embedded_schema.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::samples::detail {

// The schema's text (docs/samples.schema.json).
std::string_view samples_schema_text();

using SchemaViolation = schema::SchemaViolation;

// The first violation of the schema by `document` (innermost value), or nullopt.
std::optional<SchemaViolation> samples_schema_violation(const gltf_anim::json::Value& document);

// Checks a samples file against the schema from the reader's SAX events, one
// object at a time: the root (its `animations` empty), each animation (its
// `channels` empty) and each channel (its `samples` and `keyframes` empty),
// each as soon as it ends, with its known members as written; unknown members
// are left out (the schema allows them). Memory: the open objects, never a
// sample; time: one small validation per channel.
class SamplesSkeleton {
 public:
  SamplesSkeleton() = default;
  SamplesSkeleton(const SamplesSkeleton&) = delete;
  SamplesSkeleton& operator=(const SamplesSkeleton&) = delete;
  // Inside a value left out (samples, keyframes, unknown members): the reader's
  // hot path, so the events below return at once there.
  bool skipping() const { return skip_from_ > 0; }
  void scalar(gltf_anim::json::Value&& value);
  void number(std::string_view text);
  void string(std::string_view text);
  void start(bool object) {
    ++depth_;
    if (!skipping()) open(object);
  }
  // False when the object just ended breaks the schema (see violation()).
  bool end() {
    if (!skipping()) return close() && !violation_;
    if (skip_from_ == depth_) skip_from_ = 0;
    --depth_;
    return true;
  }
  void key(std::string_view name);
  // The first object found breaking the schema, with the file's pointer.
  const std::optional<SchemaViolation>& violation() const { return violation_; }

 private:
  // One object being built: 0 the root, 1 an animation, 2 a channel.
  struct Piece {
    char buffer[4096];
    gltf_anim::json::Allocator allocator{buffer, sizeof buffer};
    gltf_anim::json::Document doc{&allocator};
    std::vector<gltf_anim::json::Value*>
        open;  // containers being filled (each its parent's last child)
  };
  void add(gltf_anim::json::Value&& value, bool open);
  void open(bool object);
  bool close();
  bool check_piece();
  void element_not_an_object(int list_depth);
  Piece pieces_[3];
  char scratch_[2048];  // the wrapper of a piece (check_piece)
  gltf_anim::json::Allocator scratch_allocator_{scratch_, sizeof scratch_};
  int level_ = -1;      // the piece being built
  std::string key_;     // member name waiting for its value
  bool lists_[6] = {};  // by depth: the animations (2) or channels (4) array is open
  std::size_t animations_ = 0, channels_ = 0;  // elements ended so far (for pointers)
  int depth_ = 0;                              // containers open in the parse
  int skip_from_ = 0;                          // > 0: inside a value left out, opened at this depth
  bool skip_value_ = false;                    // the next value is left out (unknown member)
  bool empty_array_ = false;  // the next value is a samples/keyframes array: kept empty
  std::optional<SchemaViolation> violation_;
};

}  // namespace gltf_anim::samples::detail
