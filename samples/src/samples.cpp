// Samples files: model helpers, JSON and CSV writers, file dispatch.
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/text/words.hpp>

#include "samples_internal.hpp"
#include <gltf_anim/io/file_queries.hpp>
#include <gltf_anim/text/shortest_double.hpp>
#include <gltf_anim/text/escape.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <ostream>
#include <sstream>
#include <system_error>

namespace gltf_anim::samples {

static_assert(TextBuffer::kMaxNumber >= text::kShortestDoubleRoom);

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

// Target, asset and animation names come from the asset: one JSON policy
// with the reports (gltf_anim/text/escape.hpp), so a samples file is valid UTF-8 too.
void write_json_string(TextBuffer& out, std::string_view s) { out.put(text::json_string(s)); }

using text::csv_field;

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
  std::array<char, text::kShortestDoubleRoom> buf{};
  return std::string(buf.data(), text::write_shortest_double(buf.data(), v));
}

void TextBuffer::make_room(std::size_t n) {
  // A spilling buffer stays at 64 KiB (written out when full); a plain one doubles.
  constexpr std::size_t kBlock = std::size_t{1} << 16;
  if (spill_ != nullptr) {
    write_to(*spill_);
    if (capacity_ - used_ >= n) return;
  }
  const std::size_t capacity = std::max({kBlock, used_ + n, spill_ != nullptr ? std::size_t{0} : 2 * capacity_});
  auto data = std::make_unique_for_overwrite<char[]>(capacity);
  if (used_ != 0) std::memcpy(data.get(), data_.get(), used_);
  data_ = std::move(data);
  capacity_ = capacity;
}

void TextBuffer::put(std::string_view s) {
  if (s.size() > capacity_ - used_ && spill_ != nullptr && s.size() > std::size_t{1} << 15) {
    write_to(*spill_);  // a long piece goes straight to the stream
    spill_->write(s.data(), static_cast<std::streamsize>(s.size()));
    return;
  }
  std::memcpy(reserve(s.size()), s.data(), s.size());
  used_ += s.size();
}

void TextBuffer::put_uint(std::size_t v) {
  char* p = reserve(kMaxNumber);
  commit(std::to_chars(p, p + kMaxNumber, v).ptr);
}

void TextBuffer::put_double(double v) {
  if (std::isnan(v)) {
    put("nan");
  } else if (std::isinf(v)) {
    put(v < 0 ? std::string_view("-inf") : std::string_view("inf"));
  } else {
    commit(text::write_shortest_double(reserve(kMaxNumber), v));
  }
}

void TextBuffer::put_json_number(double v) {
  if (std::isfinite(v)) {
    commit(text::write_shortest_double(reserve(kMaxNumber), v));
  } else {
    put("null");
  }
}

void TextBuffer::write_to(std::ostream& out) {
  if (used_ != 0) out.write(data_.get(), static_cast<std::streamsize>(used_));
  used_ = 0;
}

FormattedTimes::FormattedTimes(std::span<const double> times) {
  ends_.reserve(times.size());
  std::array<char, TextBuffer::kMaxNumber> buf{};
  for (double t : times) {
    if (!std::isfinite(t)) throw std::invalid_argument("sample time must be finite");
    text_.append(buf.data(), text::write_shortest_double(buf.data(), t));
    ends_.push_back(text_.size());
  }
}

void SamplesWriter::begin_file(TextBuffer& out, std::string_view asset, std::string_view generator,
                               std::string_view error) const {
  if (format_ == SamplesFormat::kCsv) {
    out.put("animation,channel,target,t");
    for (std::size_t k = 0; k < csv_width_; ++k) {
      out.put(",v");
      out.put_uint(k);
    }
    out.put('\n');
    return;
  }
  out.put("{\n  \"asset\": ");
  write_json_string(out, asset);
  out.put(",\n  \"generator\": ");
  write_json_string(out, generator);
  if (!error.empty()) {
    out.put(",\n  \"error\": ");
    write_json_string(out, error);
  }
  out.put(",\n  \"animations\": [");
}

void SamplesWriter::begin_animation(TextBuffer& out, std::size_t index, std::string_view name, bool first) const {
  if (format_ == SamplesFormat::kCsv) return;
  out.put(first ? "\n" : ",\n");
  out.put("    {\n      \"index\": ");
  out.put_uint(index);
  out.put(",\n      \"name\": ");
  write_json_string(out, name);
  out.put(",\n      \"channels\": [");
}

namespace {

// The values of a channel repeat a lot (a uniform scale's three components, a
// rotation's zero components over the whole channel): a value with the same bits
// as the last one of its column, or as the one just before it in its sample, gets
// that text copied instead of formatted again (~15 ns per write_shortest_double). Same
// bytes: the shortest round-trip text is a function of the bits.
class RepeatedNumbers {
 public:
  explicit RepeatedNumbers(std::size_t columns) : columns_(columns) {}

  // Writes finite `v`, component `column` of a sample.
  void put(TextBuffer& out, std::size_t column, double v) {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    Entry& e = columns_[column];
    if (e.bits != bits) {
      if (column > 0 && columns_[column - 1].bits == bits) {
        e = columns_[column - 1];
      } else {
        char* p = out.reserve(TextBuffer::kMaxNumber);
        char* end = text::write_shortest_double(p, v);
        e.bits = bits;
        e.size = static_cast<std::uint8_t>(end - p);
        std::memcpy(e.text.data(), p, e.size);
        out.commit(end);
        return;
      }
    }
    out.put(std::string_view(e.text.data(), e.size));
  }

 private:
  struct Entry {
    std::uint64_t bits = ~std::uint64_t{0};  // a NaN: never equal to a finite value's bits
    std::uint8_t size = 0;
    std::array<char, 32> text{};  // >= 24, the longest double
  };
  std::vector<Entry> columns_;
};

}  // namespace

void SamplesWriter::channel(TextBuffer& out, std::size_t animation_index, const SampledChannel& ch, bool first,
                            const FormattedTimes& times, std::span<const double> values, std::size_t width,
                            const FormattedTimes* keyframes) const {
  if (format_ == SamplesFormat::kCsv) {
    // "animation,channel,target," is the same for every row of the channel.
    const std::string prefix = std::to_string(animation_index) + ',' + std::to_string(ch.index) + ',' +
                               text::csv_field(ch.target) + ',';
    RepeatedNumbers numbers(width);
    for (std::size_t i = 0; i < times.size(); ++i) {
      out.put(prefix);
      out.put(times[i]);
      const auto v = values.subspan(i * width, width);
      for (std::size_t k = 0; k < csv_width_; ++k) {
        out.put(',');
        if (k >= v.size()) continue;
        if (std::isfinite(v[k])) numbers.put(out, k, v[k]);
        else out.put_double(v[k]);
      }
      out.put('\n');
    }
    return;
  }
  out.put(first ? "\n" : ",\n");
  out.put("        {\n          \"index\": ");
  out.put_uint(ch.index);
  out.put(",\n          \"target\": ");
  write_json_string(out, ch.target);
  if (!ch.interpolation.empty()) {
    out.put(",\n          \"interpolation\": ");
    write_json_string(out, ch.interpolation);
  }
  if (ch.sampler) {
    out.put(",\n          \"sampler\": ");
    out.put_uint(*ch.sampler);
  }
  if (ch.measure != Measure::kAuto) {
    out.put(",\n          \"measure\": \"");
    out.put(measure_name(ch.measure));
    out.put('"');
  }
  if (!ch.keyframes.empty()) {
    out.put(",\n          \"keyframes\": [");
    for (std::size_t k = 0; k < ch.keyframes.size(); ++k) {
      if (k) out.put(", ");
      if (keyframes != nullptr) out.put((*keyframes)[k]);
      else out.put_json_number(ch.keyframes[k]);
    }
    out.put(']');
  }
  if (!ch.unsupported.empty()) {
    out.put(",\n          \"unsupported\": ");
    write_json_string(out, ch.unsupported);
  }
  out.put(",\n          \"samples\": [");
  RepeatedNumbers numbers(width);
  for (std::size_t i = 0; i < times.size(); ++i) {
    out.put(i ? ",\n            {\"t\": " : "\n            {\"t\": ");
    out.put(times[i]);
    out.put(", \"value\": [");
    const auto v = values.subspan(i * width, width);
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (k) out.put(", ");
      if (std::isfinite(v[k])) numbers.put(out, k, v[k]);
      else out.put("null");
    }
    out.put("]}");
  }
  out.put(times.size() ? "\n          ]\n        }" : "]\n        }");
}

void SamplesWriter::end_animation(TextBuffer& out, bool empty) const {
  if (format_ == SamplesFormat::kJson) out.put(empty ? "]\n    }" : "\n      ]\n    }");
}

void SamplesWriter::end_file(TextBuffer& out, bool empty) const {
  if (format_ == SamplesFormat::kJson) out.put(empty ? "]\n}\n" : "\n  ]\n}\n");
}

namespace {

// The model writers: the streaming pieces over every animation and channel.
void write_model(std::ostream& stream, const SamplesFile& file, SamplesFormat format) {
  std::size_t csv_width = 1;
  for (const auto& a : file.animations)
    for (const auto& c : a.channels) csv_width = std::max(csv_width, c.width);
  const SamplesWriter writer(format, csv_width);
  TextBuffer out(stream);
  writer.begin_file(out, file.asset, file.generator, file.error);
  for (std::size_t a = 0; a < file.animations.size(); ++a) {
    const SampledAnimation& anim = file.animations[a];
    writer.begin_animation(out, anim.index, anim.name, a == 0);
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const SampledChannel& ch = anim.channels[c];
      writer.channel(out, anim.index, ch, c == 0, FormattedTimes(ch.times), ch.values, ch.width);
    }
    writer.end_animation(out, anim.channels.empty());
  }
  writer.end_file(out, file.animations.empty());
  out.flush();
}

}  // namespace

void write_samples_json(std::ostream& out, const SamplesFile& file) { write_model(out, file, SamplesFormat::kJson); }

std::string write_samples_json(const SamplesFile& file) {
  std::ostringstream out;
  write_samples_json(out, file);
  return out.str();
}

void write_samples_csv(std::ostream& out, const SamplesFile& file) { write_model(out, file, SamplesFormat::kCsv); }

std::string write_samples_csv(const SamplesFile& file) {
  std::ostringstream out;
  write_samples_csv(out, file);
  return out.str();
}

void write_samples_file(const std::filesystem::path& path, const SamplesFile& file) {
  io::OutputFile out(path);
  if (has_csv_extension(path)) write_samples_csv(out.stream(), file);
  else write_samples_json(out.stream(), file);
  out.commit();
}

SamplesFile read_samples_named(std::string_view text, const std::string& name,
                               const ReadOptions& options) {
  return has_csv_extension(name) ? read_samples_csv(text, options, name)
                                 : read_samples_json(text, options, name);
}

SamplesFile read_samples_file(const std::filesystem::path& path, const ReadOptions& options) {
  const std::string name = path.string();
  // Opened without blocking (a FIFO is refused at once, not waited on), its type and size
  // from the open descriptor, so a name swapped meanwhile cannot change what is read.
  io::ReadResult refusal;
  const std::unique_ptr<io::RegularFile> in = io::RegularFile::open(path, options.max_file_bytes, refusal);
  if (!in) {
    switch (refusal.failure) {
      case io::ReadResult::Failure::kTooLarge:
        throw SamplesFormatError(name, "", "file is " + std::to_string(refusal.size) +
                                               " bytes, more than the limit of " +
                                               std::to_string(options.max_file_bytes));
      case io::ReadResult::Failure::kNotRegular:
        throw SamplesFormatError(name, "", refusal.detail == text::errno_text(EISDIR)
                                               ? "cannot read: " + refusal.detail
                                               : "cannot read: not a regular file");
      default: {
        // A name that is there but would not open (no read permission) is said as
        // such; one that cannot be looked at (absent, a folder on the way not searchable)
        // cannot be read.
        std::error_code ec;
        const bool there = io::file_type_of(path, ec) == io::FileType::kRegular;
        throw SamplesFormatError(name, "", (there ? "cannot open for reading: " : "cannot read: ") +
                                               refusal.detail);
      }
    }
  }
  if (options.inputs) options.inputs->record(in->identity(), name);
  if (!has_csv_extension(path)) return detail::read_samples_json_stream(*in, name);
  const std::uint64_t size = in->size();
  std::string text(static_cast<std::size_t>(size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const std::ptrdiff_t n = in->read_at(got, text.data() + got, text.size() - got);
    if (n < 0) throw SamplesFormatError(name, "", "read failed: " + text::errno_text());
    if (n == 0) throw SamplesFormatError(name, "", "read failed: the file shrank while read");
    got += static_cast<std::size_t>(n);
  }
  return read_samples_csv(text, options, name);
}

}  // namespace gltf_anim::samples
