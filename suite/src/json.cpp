#include <gltf_anim/suite/json.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <stdexcept>

namespace gltf_anim::suite {

Json Json::array(std::vector<Json> items) {
  Json j;
  j.kind_ = Kind::kArray;
  j.items_ = std::move(items);
  return j;
}

Json Json::object(std::initializer_list<std::pair<std::string, Json>> members) {
  Json j;
  j.kind_ = Kind::kObject;
  for (const auto& [key, value] : members) j.set(key, value);
  return j;
}

Json Json::floats(const std::vector<double>& values) {
  Json j = array();
  for (double v : values) j.push(v);
  return j;
}

Json Json::floats(const std::vector<float>& values) {
  Json j = array();
  for (float v : values) j.push(v);
  return j;
}

Json Json::ints(const std::vector<int>& values) {
  Json j = array();
  for (int v : values) j.push(v);
  return j;
}

std::size_t Json::push(Json value) {
  if (kind_ == Kind::kNull) kind_ = Kind::kArray;
  if (kind_ != Kind::kArray) throw std::logic_error("Json::push on a non-array");
  items_.push_back(std::move(value));
  return items_.size() - 1;
}

Json& Json::set(const std::string& key, Json value) {
  Json& slot = (*this)[key];
  slot = std::move(value);
  return slot;
}

Json& Json::operator[](const std::string& key) {
  if (kind_ == Kind::kNull) kind_ = Kind::kObject;
  if (kind_ != Kind::kObject) throw std::logic_error("Json::operator[] on a non-object");
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return items_[i];
  }
  keys_.push_back(key);
  items_.emplace_back();
  return items_.back();
}

bool Json::has(const std::string& key) const {
  for (const auto& k : keys_) {
    if (k == key) return true;
  }
  return false;
}

template <class W>
void Json::write(W& writer) const {
  switch (kind_) {
    case Kind::kNull: writer.Null(); break;
    case Kind::kBool: writer.Bool(bool_); break;
    case Kind::kInt: writer.Int64(int_); break;
    case Kind::kDouble:
      if (!std::isfinite(double_)) throw std::logic_error("Json: non-finite number");
      writer.Double(double_);
      break;
    case Kind::kString:
      writer.String(string_.data(), static_cast<rapidjson::SizeType>(string_.size()));
      break;
    case Kind::kArray:
      writer.StartArray();
      for (const auto& item : items_) item.write(writer);
      writer.EndArray();
      break;
    case Kind::kObject:
      writer.StartObject();
      for (std::size_t i = 0; i < keys_.size(); ++i) {
        writer.Key(keys_[i].data(), static_cast<rapidjson::SizeType>(keys_[i].size()));
        items_[i].write(writer);
      }
      writer.EndObject();
      break;
  }
}

std::string Json::dump(int indent) const {
  gltf_anim::json::StringBuffer buffer;
  if (indent <= 0) {
    gltf_anim::json::Writer<gltf_anim::json::StringBuffer> writer(buffer);
    write(writer);
  } else {
    gltf_anim::json::PrettyWriter<gltf_anim::json::StringBuffer> writer(buffer);
    writer.SetIndent(' ', static_cast<unsigned>(indent));
    writer.SetFormatOptions(rapidjson::kFormatSingleLineArray);
    write(writer);
  }
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace gltf_anim::suite
