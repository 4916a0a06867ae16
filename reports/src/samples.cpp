// Samples files: model helpers, JSON and CSV writers, file dispatch.
#include <gltf_anim/reports/samples.hpp>

#include "samples_internal.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <system_error>

namespace gltf_anim::reports {

namespace {

std::string compose_what(const std::string& file, const std::string& location,
                         const std::string& message) {
  std::string out;
  if (!file.empty()) out += file + ": ";
  if (!location.empty()) out += location + ": ";
  out += message;
  return out;
}

bool has_csv_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".csv";
}

void write_json_string(std::ostream& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out << '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      case '\t': out << "\\t"; break;
      case '\b': out << "\\b"; break;
      case '\f': out << "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out << "\\u00" << kHex[c >> 4] << kHex[c & 15];
        } else {
          out << ch;
        }
    }
  }
  out << '"';
}

void write_json_number(std::ostream& out, double v) {
  if (std::isfinite(v)) out << format_double(v);
  else out << "null";
}

void write_csv_field(std::ostream& out, std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
    out << s;
    return;
  }
  out << '"';
  for (char c : s) {
    if (c == '"') out << "\"\"";
    else out << c;
  }
  out << '"';
}

const char* measure_name(Measure m) {
  switch (m) {
    case Measure::kAngle: return "angle";
    case Measure::kAbsolute: return "absolute";
    case Measure::kAuto: break;
  }
  return "";
}

}  // namespace

SamplesFormatError::SamplesFormatError(std::string file, std::string location, std::string message)
    : std::runtime_error(compose_what(file, location, message)),
      file_(std::move(file)),
      location_(std::move(location)),
      message_(std::move(message)) {}

void SampledChannel::add_sample(double t, std::span<const double> value) {
  if (!std::isfinite(t)) throw std::invalid_argument("sample time must be finite");
  if (value.empty()) throw std::invalid_argument("sample value must have at least one component");
  if (times.empty() && width == 0) {
    width = value.size();
  } else if (value.size() != width) {
    throw std::invalid_argument("sample value has " + std::to_string(value.size()) +
                                " components, the channel has " + std::to_string(width));
  }
  times.push_back(t);
  values.insert(values.end(), value.begin(), value.end());
}

std::string format_double(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  std::array<char, 64> buf{};
  const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), res.ptr);
}

void write_samples_json(std::ostream& out, const SamplesFile& file) {
  out << "{\n  \"asset\": ";
  write_json_string(out, file.asset);
  out << ",\n  \"generator\": ";
  write_json_string(out, file.generator);
  out << ",\n  \"animations\": [";
  for (std::size_t a = 0; a < file.animations.size(); ++a) {
    const SampledAnimation& anim = file.animations[a];
    out << (a ? ",\n" : "\n") << "    {\n      \"index\": " << anim.index << ",\n      \"name\": ";
    write_json_string(out, anim.name);
    out << ",\n      \"channels\": [";
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const SampledChannel& ch = anim.channels[c];
      out << (c ? ",\n" : "\n") << "        {\n          \"index\": " << ch.index
          << ",\n          \"target\": ";
      write_json_string(out, ch.target);
      if (!ch.interpolation.empty()) {
        out << ",\n          \"interpolation\": ";
        write_json_string(out, ch.interpolation);
      }
      if (ch.sampler) out << ",\n          \"sampler\": " << *ch.sampler;
      if (ch.measure != Measure::kAuto) {
        out << ",\n          \"measure\": \"" << measure_name(ch.measure) << '"';
      }
      if (!ch.keyframes.empty()) {
        out << ",\n          \"keyframes\": [";
        for (std::size_t k = 0; k < ch.keyframes.size(); ++k) {
          if (k) out << ", ";
          write_json_number(out, ch.keyframes[k]);
        }
        out << ']';
      }
      out << ",\n          \"samples\": [";
      for (std::size_t i = 0; i < ch.size(); ++i) {
        out << (i ? ",\n" : "\n") << "            {\"t\": ";
        write_json_number(out, ch.times[i]);
        out << ", \"value\": [";
        const auto v = ch.value(i);
        for (std::size_t k = 0; k < v.size(); ++k) {
          if (k) out << ", ";
          write_json_number(out, v[k]);
        }
        out << "]}";
      }
      out << (ch.size() ? "\n          ]\n        }" : "]\n        }");
    }
    out << (anim.channels.empty() ? "]\n    }" : "\n      ]\n    }");
  }
  out << (file.animations.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

std::string write_samples_json(const SamplesFile& file) {
  std::ostringstream out;
  write_samples_json(out, file);
  return out.str();
}

void write_samples_csv(std::ostream& out, const SamplesFile& file) {
  std::size_t max_width = 1;
  for (const auto& a : file.animations)
    for (const auto& c : a.channels) max_width = std::max(max_width, c.width);
  out << "animation,channel,target,t";
  for (std::size_t k = 0; k < max_width; ++k) out << ",v" << k;
  out << "\n";
  for (const auto& a : file.animations) {
    for (const auto& c : a.channels) {
      for (std::size_t i = 0; i < c.size(); ++i) {
        out << a.index << ',' << c.index << ',';
        write_csv_field(out, c.target);
        out << ',' << format_double(c.times[i]);
        const auto v = c.value(i);
        for (std::size_t k = 0; k < max_width; ++k) {
          out << ',';
          if (k < v.size()) out << format_double(v[k]);
        }
        out << "\n";
      }
    }
  }
}

std::string write_samples_csv(const SamplesFile& file) {
  std::ostringstream out;
  write_samples_csv(out, file);
  return out.str();
}

void write_samples_file(const std::filesystem::path& path, const SamplesFile& file) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path.string() + ": cannot open for writing");
  if (has_csv_extension(path)) write_samples_csv(out, file);
  else write_samples_json(out, file);
  out.flush();
  if (!out) throw std::runtime_error(path.string() + ": write failed");
}

SamplesFile read_samples_file(const std::filesystem::path& path, const ReadOptions& options) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw SamplesFormatError(name, "", ec ? "cannot read: " + ec.message()
                                          : "cannot read: not a regular file");
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw SamplesFormatError(name, "", "cannot read: " + ec.message());
  if (size > options.max_file_bytes) {
    throw SamplesFormatError(name, "", "file is " + std::to_string(size) +
                                           " bytes, more than the limit of " +
                                           std::to_string(options.max_file_bytes));
  }
  if (!has_csv_extension(path)) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!in) throw SamplesFormatError(name, "", "cannot open for reading");
    return detail::read_samples_json_stream(in.get(), name);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SamplesFormatError(name, "", "cannot open for reading");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (static_cast<std::uintmax_t>(in.gcount()) != size) {
    throw SamplesFormatError(name, "", "read failed");
  }
  return read_samples_csv(text, options, name);
}

}  // namespace gltf_anim::reports
