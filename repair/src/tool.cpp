// The repair tools' one pipeline in memory (edit_asset): load from bytes, validate, edit,
// build, validate again; and its report. The files are the CLI's
// (cli::run_tool, cli/tool_files.cpp): nothing here opens one.
#include <gltf_anim/io/memory.hpp>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/repair/tool.hpp>
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/words.hpp>
#include <gltf_anim/gltf/load.hpp>

#include <algorithm>
#include <map>
#include <span>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

namespace gltf_anim::repair {
namespace {

namespace fs = std::filesystem;

// The output's resources: the files the session made, by name, and any other name read
// through the input's reader (the input's buffers the output still names).
class OutputResources final : public io::ResourceReader {
 public:
  OutputResources(const std::map<std::string, std::vector<std::uint8_t>>& made,
                  const io::ResourceReader* input)
      : input_(input) {
    for (const auto& [name, bytes] : made) made_.add(name, bytes);
    for (const auto& [name, bytes] : made) names_.push_back(name);
  }
  io::ReadResult read(const fs::path& relative, std::uint64_t max_bytes) const override {
    const std::string name = relative.lexically_normal().generic_string();
    if (std::find(names_.begin(), names_.end(), name) != names_.end() || input_ == nullptr) {
      return made_.read(relative, max_bytes);
    }
    return input_->read(relative, max_bytes);
  }
  std::string where() const override { return input_ != nullptr ? input_->where() : made_.where(); }

 private:
  io::MemoryReader made_;
  std::vector<std::string> names_;
  const io::ResourceReader* input_;
};

// A relative name as the readers compare it ("a/./b" is "a/b"): lexical only.
std::string lexically_normal(const std::string& name) {
  return fs::path(name).lexically_normal().generic_string();
}

// A URI the asset names as a file name, decoded as the loader decodes a buffer's; nullopt
// for a data URI or a bad escape.
std::optional<std::string> named_file(std::string_view uri) {
  if (uri.substr(0, 5) == "data:") return std::nullopt;
  return gltf::decode_uri_path(uri);
}

std::map<std::string, std::size_t> error_codes(const validator::ValidationReport& report) {
  std::map<std::string, std::size_t> out;
  for (const gltf::Issue& issue : report.issues) {
    if (issue.severity == gltf::Severity::kError) ++out[std::string(issue.code)];
  }
  return out;
}

std::string number(double v) { return text::short_number(v, 6); }

// The errors that stop a tool, each where validate reports it first (and how many more), and,
// for an accessor's error, which samplers read it: a user asked to run validate finds the
// channel from here without it ("ACCESSOR_INVALID_FLOAT x11 at /accessors/0, the times of
// /animations/0/samplers/0").
std::string blocking_errors(const validator::ValidationReport& report,
                            const gltf::model::AnimationModel& model,
                            const std::vector<std::string>& codes) {
  std::string list;
  for (const std::string& code : codes) {
    const gltf::Issue* first = nullptr;
    std::size_t n = 0;
    for (const gltf::Issue& i : report.issues) {
      if (i.severity != gltf::Severity::kError || i.code != code) continue;
      if (first == nullptr) first = &i;
      ++n;
    }
    list += (list.empty() ? "" : "; ") + code;
    if (n > 1) list += " x" + std::to_string(n);
    if (first == nullptr || first->pointer.empty()) continue;
    list += " at " + first->pointer;
    // "/accessors/N" or "/accessors/N/...": the samplers that read accessor N.
    const std::string_view prefix = "/accessors/";
    if (first->pointer.rfind(prefix, 0) != 0) continue;
    std::size_t accessor = 0, k = prefix.size();
    if (k == first->pointer.size()) continue;
    for (; k < first->pointer.size() && first->pointer[k] >= '0' && first->pointer[k] <= '9'; ++k)
      accessor = accessor * 10 + static_cast<std::size_t>(first->pointer[k] - '0');
    // Not an index, or one past what a size_t holds (it would wrap onto another accessor).
    if ((k < first->pointer.size() && first->pointer[k] != '/') || k == prefix.size() ||
        k - prefix.size() > 18)
      continue;
    std::size_t named = 0;
    for (const gltf::model::Animation& a : model.animations) {
      for (const gltf::model::Sampler& s : a.samplers) {
        for (const auto& [link, role] : {std::pair{&s.input, "the times of "},
                                         std::pair{&s.output, "the values of "}}) {
          const gltf::model::AccessorRef* ref = gltf::model::linked(*link);
          if (ref == nullptr || ref->index != accessor) continue;
          if (++named > 3) continue;  // a few samplers say which channels; validate has all
          list += std::string(", ") + role + "/animations/" + std::to_string(a.index) +
                  "/samplers/" + std::to_string(s.index);
        }
      }
    }
    if (named > 3) list += " and " + std::to_string(named - 3) + " more";
  }
  return list;
}

}  // namespace

ToolRun edit_asset(const Tool& tool, const ToolAsset& in, const ToolTarget& target,
                   const EditOptions& options) {
  ToolRun run;
  ToolReport& report = run.report;
  report.tool = tool.name;
  report.input = in.name;
  report.output = target.name;
  report.dry_run = options.dry_run;
  auto stop = [&run](int code, std::string message) {
    run.report.exit_code = code;
    run.report.message = std::move(message);
    run.output.reset();
    return std::move(run);
  };

  // 1. Load and validate the input.
  gltf::IssueCollector issues(options.validate.issues);
  gltf::LoadOptions load = options.validate.load;
  load.resources = in.resources;
  load.borrow_bytes = true;  // the caller holds the input: not copied a second time
  gltf::LoadedAsset asset;
  if (in.read_error) {
    asset.uri = in.name;
    if (in.read_error->too_large) {
      issues.add("FILE_TOO_LARGE", "",
                 {std::to_string(in.read_error->size), std::to_string(load.max_file_bytes)});
    } else {
      issues.add("IO_ERROR", "", {in.read_error->what});
    }
  } else {
    asset = gltf::load_bytes(in.bytes, in.name, {}, load, issues);
  }
  // The model is built once: the validation's rules and the tool read the same one.
  const gltf::model::AnimationModel model = gltf::model::build_animation_model(asset);
  const validator::ValidationReport before = validator::validate_asset(asset, model, issues);
  report.errors_before = before.count(gltf::Severity::kError);
  if (!asset.document || asset.file_bytes.empty()) {
    std::string why = "not a glTF asset";
    for (const gltf::Issue& i : before.issues) {
      if (i.severity == gltf::Severity::kError) {
        why = std::string(i.code) + ": " + i.message;
        break;
      }
    }
    return stop(2, "cannot read " + in.name + ": " + why);
  }
  // Refused before any work, as every command refuses it.
  if (target.refused) {
    if (std::optional<std::string> why = target.refused(asset)) return stop(2, std::move(*why));
  }
  report.file_bytes_before = asset.file_bytes.size();
  for (const gltf::Resource& r : asset.resources) {
    if (r.storage == "external") report.file_bytes_before += r.byte_length.value_or(0);
  }
  if (!options.force) {
    std::vector<std::string> blocking;
    for (const auto& counted : error_codes(before)) {
      // Not a structured binding: emscripten's clang 14 cannot capture one in a lambda.
      const std::string& code = counted.first;
      const bool repaired = std::any_of(tool.repairs_codes.begin(), tool.repairs_codes.end(),
                                        [&](gltf::IssueCode c) { return c.name() == code; });
      if (!repaired) blocking.push_back(code);
    }
    if (!blocking.empty()) {
      return stop(1, "the input has errors " + tool.name + " does not repair (" +
                         blocking_errors(before, model, blocking) +
                         "); run `gltf-anim validate` for the report, --force to edit anyway");
    }
  }

  // 2. The tool's edits.
  ToolInput input{asset, model, before, {}, {}, accessor_uses(asset, model)};
  std::string refused;
  input.tracks =
      editable_tracks(asset, model, &input.skipped, &refused, !tool.one_group_at_a_time);
  if (!refused.empty()) return stop(2, refused + "; nothing written");
  gltf::Edit edit(edit_source(asset, model));
  std::string why;
  // The CLI's line and the report's header name the tool already.
  if (!tool.body(input, edit, report, why)) return stop(2, why);
  // The session holds what the tool changed: the decoded tracks (8 bytes a value, twice the
  // file's floats) go before the output is built beside the input.
  std::vector<EditableTrack>().swap(input.tracks);
  io::release_free_memory();

  // 3. The output in memory, validated again.
  gltf::OutputNames names;
  names.stem = target.stem;
  // Written elsewhere than the input's folder: the buffers go with the output.
  names.every_buffer = target.elsewhere;
  names.taken = target.taken;
  std::optional<gltf::EditOutput> built = edit.build(names, why);
  if (!built) return stop(2, why);
  if (built->compaction_skipped)
    report.notes.push_back("compaction skipped: " + *built->compaction_skipped);
  for (const auto& [buffer, dropped] : built->dropped_bytes) {
    report.notes.push_back("buffer " + std::to_string(buffer) + ": " + std::to_string(dropped) +
                           " bytes no bufferView uses any more dropped");
  }
  // Written elsewhere, the output takes with it the files it names beside the input (an
  // image, an extension's file): each copied beside it under the name the asset gives it
  // (its buffers are written there by the edit session). One in a subfolder or outside the
  // input's folder, one that cannot be read, or a buffer that is not loaded keep the output
  // in the input's folder.
  std::map<std::string, std::vector<std::uint8_t>> copies;  // file name -> bytes
  if (target.elsewhere) {
    std::optional<std::string> stays;
    if (built->keeps_input_buffers)
      stays = "the output keeps the input's external buffers by relative URI";
    for (const std::string& uri : relative_uris(asset, false)) {
      if (stays) break;
      const std::optional<std::string> file = named_file(uri);
      if (!file) continue;
      const std::string key = lexically_normal(*file);
      if (copies.count(key) != 0) continue;
      if (key.find('/') != std::string::npos || key.empty() || key == "." || key == "..") {
        stays = "the output names '" + text::visible_text(key) +
                "' by relative URI, which is not a file beside the asset";
        break;
      }
      if (key == target.file_name || built->buffers.count(key) != 0) {
        stays = "the output names '" + text::visible_text(key) + "', the name of a file it writes";
        break;
      }
      const io::ReadResult read = in.resources != nullptr
                                      ? in.resources->read(key, load.max_file_bytes)
                                      : io::MemoryReader().read(key, load.max_file_bytes);
      if (!read.storage) {
        stays = "the output names '" + text::visible_text(key) + "', which cannot be read (" +
                read.detail + ")";
        break;
      }
      const std::span<const std::uint8_t> bytes = read.storage->bytes();
      copies[key].assign(bytes.begin(), bytes.end());
    }
    if (stays) return stop(2, *stays + ": write it in the input's folder (" + in.folder + ")");
  }
  report.file_bytes_after = built->main.size();
  for (const auto& [name, bytes] : built->buffers) report.file_bytes_after += bytes.size();
  for (const gltf::Resource& r : asset.resources) {
    if (r.storage == "external" && built->keeps_input_buffers && r.uri &&
        std::none_of(built->buffers.begin(), built->buffers.end(),
                     [&](const auto& b) { return b.first == *r.uri; })) {
      // Unchanged external buffers count on both sides.
      report.file_bytes_after += r.byte_length.value_or(0);
    }
  }
  {
    OutputResources resources(built->buffers,
                              in.output_resources != nullptr ? in.output_resources : in.resources);
    validator::ValidateOptions again = options.validate;
    again.load.resources = &resources;
    again.load.inputs = nullptr;
    again.load.borrow_bytes = true;  // built->main outlives this validation
    const validator::ValidationReport after =
        validator::validate_bytes(built->main, target.file_name, {}, again);
    report.errors_after = after.count(gltf::Severity::kError);
    const auto was = error_codes(before);
    for (const auto& [code, n] : error_codes(after)) {
      const auto it = was.find(code);
      if (it == was.end() || it->second < n) report.new_error_codes.push_back(code);
    }
  }
  if (!report.new_error_codes.empty()) {
    std::string list;
    for (const std::string& c : report.new_error_codes) list += (list.empty() ? "" : ", ") + c;
    return stop(2, "refused: the output would have errors the input has not (" + list + ")");
  }
  run.output = ToolOutput{std::move(built->main), std::move(built->buffers), std::move(copies)};
  return run;
}

void write_report(const ToolReport& r, ReportFormat format, std::ostream& out) {
  auto opt_number = [](const std::optional<double>& v) {
    return v ? number(*v) : std::string("null");
  };
  if (format == ReportFormat::kJson) {
    auto s = [](std::string_view v) { return text::json_string(v); };
    out << "{\"tool\":" << s(r.tool) << ",\"input\":" << s(r.input)
        << ",\"output\":" << (r.output.empty() ? "null" : s(r.output))
        << ",\"dryRun\":" << (r.dry_run ? "true" : "false")
        << ",\"written\":" << (r.written ? "true" : "false") << ",\"exitCode\":" << r.exit_code
        << ",\"message\":" << s(r.message) << ",\"bytesBefore\":" << r.file_bytes_before
        << ",\"bytesAfter\":" << r.file_bytes_after << ",\"errorsBefore\":" << r.errors_before
        << ",\"errorsAfter\":" << r.errors_after << ",\"newErrorCodes\":[";
    for (std::size_t k = 0; k < r.new_error_codes.size(); ++k) {
      out << (k ? "," : "") << s(r.new_error_codes[k]);
    }
    out << "],\"repairs\":[";
    for (std::size_t k = 0; k < r.repairs.size(); ++k) {
      const Repair& p = r.repairs[k];
      out << (k ? "," : "") << "{\"code\":" << s(p.code.name()) << ",\"pointer\":" << s(p.pointer)
          << ",\"fixed\":" << (p.fixed ? "true" : "false") << ",\"action\":" << s(p.action)
          << ",\"playback\":" << s(p.playback) << "}";
    }
    out << "],\"channels\":[";
    for (std::size_t k = 0; k < r.channels.size(); ++k) {
      const ChannelSummary& c = r.channels[k];
      out << (k ? "," : "") << "{\"channel\":" << s(c.channel) << ",\"target\":" << s(c.target)
          << ",\"interpolationBefore\":" << s(c.interpolation_before)
          << ",\"interpolationAfter\":" << s(c.interpolation_after)
          << ",\"keysBefore\":" << c.keys_before << ",\"keysAfter\":" << c.keys_after
          << ",\"bytesBefore\":" << c.bytes_before << ",\"bytesAfter\":" << c.bytes_after
          << ",\"maxError\":" << opt_number(c.max_error)
          << ",\"maxAngle\":" << opt_number(c.max_angle) << ",\"notes\":[";
      for (std::size_t n = 0; n < c.notes.size(); ++n) out << (n ? "," : "") << s(c.notes[n]);
      out << "]}";
    }
    out << "],\"notes\":[";
    for (std::size_t k = 0; k < r.notes.size(); ++k) out << (k ? "," : "") << s(r.notes[k]);
    out << "]}\n";
    return;
  }
  auto v = [](std::string_view t) { return text::visible_text(t); };
  out << r.tool << ": " << v(r.input);
  if (!r.output.empty()) out << " -> " << v(r.output);
  out << (r.dry_run ? " (dry run: nothing written)" : r.written ? "" : " (not written)") << "\n";
  if (!r.message.empty()) out << "  " << v(r.message) << "\n";
  for (const Repair& p : r.repairs) {
    out << "  " << (p.fixed ? "fixed " : "NOT FIXABLE ") << p.code.name() << " at " << v(p.pointer)
        << ": " << v(p.action) << "\n      playback: " << v(p.playback) << "\n";
  }
  for (const ChannelSummary& c : r.channels) {
    out << "  " << v(c.channel) << " " << v(c.target) << ": " << v(c.interpolation_before);
    if (c.interpolation_after != c.interpolation_before) out << " -> " << v(c.interpolation_after);
    out << ", keys " << c.keys_before << " -> " << c.keys_after << ", bytes " << c.bytes_before
        << " -> " << c.bytes_after;
    if (c.max_error) out << ", max error " << number(*c.max_error);
    if (c.max_angle) out << ", max angle " << number(*c.max_angle) << " rad";
    out << "\n";
    for (const std::string& n : c.notes) out << "      " << v(n) << "\n";
  }
  for (const std::string& n : r.notes) out << "  " << v(n) << "\n";
  if (r.exit_code == 0) {
    out << "  file bytes " << r.file_bytes_before << " -> " << r.file_bytes_after << ", errors "
        << r.errors_before << " -> " << r.errors_after << "\n";
  }
}

}  // namespace gltf_anim::repair
