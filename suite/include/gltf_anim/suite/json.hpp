#pragma once
// A small ordered JSON value for writing assets and the manifest.
//
// Objects keep their members in insertion order, numbers keep whether they
// were given as integers, and write_json() always prints the same bytes for the
// same value (RapidJSON's Writer: integers as integers, doubles in their
// shortest round-trip form). That is what makes the suite byte-identical from
// run to run. It is a writer-side type only; reading goes through the
// validator's loader.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace gltf_anim::suite {

class Json {
 public:
  enum class Kind { kNull, kBool, kInt, kDouble, kString, kArray, kObject };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : kind_(Kind::kBool), bool_(b) {}
  Json(int i) : kind_(Kind::kInt), int_(i) {}
  Json(std::int64_t i) : kind_(Kind::kInt), int_(i) {}
  Json(std::size_t i) : kind_(Kind::kInt), int_(static_cast<std::int64_t>(i)) {}
  Json(double d) : kind_(Kind::kDouble), double_(d) {}
  Json(float f) : kind_(Kind::kDouble), double_(static_cast<double>(f)) {}
  Json(const char* s) : kind_(Kind::kString), string_(s) {}
  Json(std::string s) : kind_(Kind::kString), string_(std::move(s)) {}

  static Json array(std::vector<Json> items = {});
  static Json object(std::initializer_list<std::pair<std::string, Json>> members = {});
  static Json floats(const std::vector<double>& values);
  static Json floats(const std::vector<float>& values);
  static Json ints(const std::vector<int>& values);

  Kind kind() const { return kind_; }
  bool is_object() const { return kind_ == Kind::kObject; }
  bool is_array() const { return kind_ == Kind::kArray; }

  // Arrays.
  std::size_t push(Json value);  // returns the index of the new item
  std::size_t size() const { return items_.size(); }
  Json& at(std::size_t i) { return items_.at(i); }

  // Objects: set() replaces an existing member or appends a new one;
  // operator[] creates a null member when missing.
  Json& set(const std::string& key, Json value);
  Json& operator[](const std::string& key);
  bool has(const std::string& key) const;

  // Writes compact (indent 0) or pretty-printed JSON followed by a newline.
  std::string dump(int indent = 2) const;

 private:
  template <class W>
  void write(W& writer) const;

  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  std::int64_t int_ = 0;
  double double_ = 0.0;
  std::string string_;
  std::vector<Json> items_;       // array items, or object member values
  std::vector<std::string> keys_;  // object member names, parallel to items_
};

}  // namespace gltf_anim::suite
