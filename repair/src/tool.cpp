// The repair tools' one pipeline: load, validate, edit, build in memory,
// validate again, write atomically; and its report.
#include <gltf_anim/io/output_file.hpp>
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

// The output's resources: the files the session made, by name, and any other
// name read from the input's folder (the input's buffers the output still
// names), with that folder's confinement.
class OutputResources final : public io::ResourceReader {
 public:
  OutputResources(const std::map<std::string, std::vector<std::uint8_t>>& made,
                  const fs::path& folder)
      : folder_(folder) {
    for (const auto& [name, bytes] : made) made_.add(name, bytes);
    for (const auto& [name, bytes] : made) names_.push_back(name);
  }
  io::ReadResult read(const fs::path& relative, std::uint64_t max_bytes) const override {
    const std::string name = relative.lexically_normal().generic_string();
    if (std::find(names_.begin(), names_.end(), name) != names_.end()) {
      return made_.read(relative, max_bytes);
    }
    return folder_.read(relative, max_bytes);
  }
  std::string where() const override { return folder_.where(); }

 private:
  io::MemoryReader made_;
  std::vector<std::string> names_;
  io::FolderReader folder_;
};

// The asset's folder as the loader reads it, noting the identity of every file read: the
// files the output must never replace (by the name the loader resolved, percent-decoding
// and all, not by the URI as written).
class RecordingFolder final : public io::ResourceReader {
 public:
  RecordingFolder(const fs::path& base, const fs::path& root, io::InputFiles* inputs)
      : folder_(base, root, inputs) {}
  io::ReadResult read(const fs::path& relative, std::uint64_t max_bytes) const override {
    io::ReadResult r = folder_.read(relative, max_bytes);
    if (r.identity) read_.push_back({*r.identity, relative.string()});
    return r;
  }
  std::string where() const override { return folder_.where(); }
  const std::vector<std::pair<io::FileIdentity, std::string>>& files() const { return read_; }

 private:
  io::FolderReader folder_;
  mutable std::vector<std::pair<io::FileIdentity, std::string>> read_;
};

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

fs::path folder_of(const fs::path& p) {
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

bool same_folder(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  const bool same = fs::equivalent(folder_of(a), folder_of(b), ec);
  return !ec && same;
}

std::string number(double v) { return text::short_number(v, 6); }

}  // namespace

ToolReport run_tool(const Tool& tool, const ToolOptions& options) {
  ToolReport report;
  report.tool = tool.name;
  report.input = options.input.string();
  report.dry_run = options.dry_run;
  auto stop = [&report](int code, std::string message) {
    report.exit_code = code;
    report.message = std::move(message);
    return report;
  };
  if (options.in_place && options.output)
    return stop(2, "--in-place and --output exclude each other");
  const std::optional<fs::path> target =
      options.in_place ? std::optional(options.input) : options.output;
  if (!target && !options.dry_run)
    return stop(2, "no output: give -o OUT, --in-place or --dry-run");
  if (target) report.output = target->string();

  // 1. Load and validate the input.
  gltf::IssueCollector issues(options.validate.issues);
  gltf::LoadOptions load = options.validate.load;
  std::optional<RecordingFolder> recording;
  if (load.resources == nullptr) {
    recording.emplace(folder_of(options.input), load.root, load.inputs);
    load.resources = &*recording;
  }
  const gltf::LoadedAsset asset = gltf::load_file(options.input, load, issues);
  const validator::ValidationReport before = validator::validate_asset(asset, issues);
  report.errors_before = before.count(gltf::Severity::kError);
  if (!asset.document || asset.file_bytes.empty()) {
    std::string why = "not a glTF asset";
    for (const gltf::Issue& i : before.issues) {
      if (i.severity == gltf::Severity::kError) {
        why = std::string(i.code) + ": " + i.message;
        break;
      }
    }
    return stop(2, "cannot read " + options.input.string() + ": " + why);
  }
  // The files the output must never replace: the asset, every buffer the loader read,
  // every file it names by relative URI (images, and any extension's, known or not).
  std::vector<std::pair<io::FileIdentity, std::string>> inputs;
  if (const auto id = io::file_identity(options.input)) inputs.push_back({*id, report.input});
  if (recording) inputs.insert(inputs.end(), recording->files().begin(), recording->files().end());
  std::vector<std::string> named;  // as file names relative to the input's folder
  for (const std::string& uri : relative_uris(asset)) {
    const std::optional<std::string> file = named_file(uri);
    if (!file) continue;
    named.push_back(fs::path(*file).lexically_normal().generic_string());
    if (const auto id = io::file_identity(folder_of(options.input) / *file)) {
      inputs.push_back({*id, *file});
    }
  }
  const auto input_named = [&inputs](const fs::path& p) -> std::optional<std::string> {
    const auto id = io::file_identity(p);
    if (!id) return std::nullopt;
    for (const auto& [input, name] : inputs) {
      if (input == *id) return name;
    }
    return std::nullopt;
  };
  // Refused before any work, as every command refuses it.
  if (target && !options.in_place && !options.dry_run) {
    if (const auto clash = input_named(*target)) {
      return stop(2, "refusing to write '" + target->string() + "': it is the input '" + *clash +
                         "' (same file); nothing written (use --in-place to replace the input)");
    }
  }
  report.file_bytes_before = asset.file_bytes.size();
  for (const gltf::Resource& r : asset.resources) {
    if (r.storage == "external") report.file_bytes_before += r.byte_length.value_or(0);
  }
  if (!options.force) {
    std::vector<std::string> blocking;
    for (const auto& [code, n] : error_codes(before)) {
      if (!tool.repairs_codes.count(code)) blocking.push_back(code);
    }
    if (!blocking.empty()) {
      std::string list;
      for (const std::string& c : blocking) list += (list.empty() ? "" : ", ") + c;
      return stop(1, "the input has errors " + tool.name + " does not repair (" + list +
                         "); run `gltf-anim validate` for the report, --force to edit anyway");
    }
  }

  // 2. The tool's edits.
  const gltf::model::AnimationModel model = gltf::model::build_animation_model(asset);
  ToolInput input{asset, model, before, {}, {}, accessor_uses(asset)};
  std::string refused;
  input.tracks = editable_tracks(asset, model, &input.skipped, &refused);
  if (!refused.empty()) return stop(2, refused + "; nothing written");
  gltf::Edit edit(edit_source(asset));
  std::string why;
  if (!tool.body(input, edit, report, why)) return stop(2, tool.name + ": " + why);

  // 3. The output in memory, validated again.
  const fs::path out_path = target ? *target : options.input;
  gltf::OutputNames names;
  names.stem = out_path.stem().string();
  const fs::path out_folder = folder_of(out_path);
  // Written elsewhere than the input's folder: the buffers go with the output.
  names.every_buffer = target && !same_folder(*target, options.input);
  // A buffer the output needs goes beside it under a name that is no input and nothing but
  // a regular file (or nothing yet): never written into a planted FIFO (a hang) or device.
  names.taken = [&](std::string_view name) {
    const fs::path p = out_folder / fs::path(std::string(name));
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    // A file the asset names, even one missing now, is never the new buffer's name beside it.
    const bool named_here =
        same_folder(out_path, options.input) &&
        std::find(named.begin(), named.end(),
                  fs::path(std::string(name)).lexically_normal().generic_string()) != named.end();
    return fs::path(std::string(name)) == out_path.filename() || input_named(p) || named_here ||
           (fs::exists(st) && !fs::is_regular_file(st));
  };
  const std::optional<gltf::EditOutput> built = edit.build(names, why);
  if (!built) return stop(2, tool.name + ": " + why);
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
  if (target && !same_folder(*target, options.input)) {
    std::optional<std::string> stays;
    if (built->keeps_input_buffers)
      stays = "the output keeps the input's external buffers by relative URI";
    const io::FolderReader folder(folder_of(options.input), load.root);
    for (const std::string& uri : relative_uris(asset, false)) {
      if (stays) break;
      const std::optional<std::string> file = named_file(uri);
      if (!file) continue;
      const fs::path name = fs::path(*file).lexically_normal();
      const std::string key = name.generic_string();
      if (copies.count(key) != 0) continue;
      if (name.has_parent_path() || key.empty() || key == "." || key == "..") {
        stays = "the output names '" + text::visible_text(key) +
                "' by relative URI, which is not a file beside the asset";
        break;
      }
      if (key == out_path.filename().generic_string() || built->buffers.count(key) != 0) {
        stays = "the output names '" + text::visible_text(key) + "', the name of a file it writes";
        break;
      }
      const io::ReadResult read = folder.read(name, load.max_file_bytes);
      if (!read.storage) {
        stays = "the output names '" + text::visible_text(key) + "', which cannot be read (" +
                read.detail + ")";
        break;
      }
      const std::span<const std::uint8_t> bytes = read.storage->bytes();
      copies[key].assign(bytes.begin(), bytes.end());
    }
    if (stays) {
      return stop(2, *stays + ": write it in the input's folder (" +
                         folder_of(options.input).string() + ")");
    }
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
    OutputResources resources(built->buffers, folder_of(options.input));
    validator::ValidateOptions again = options.validate;
    again.load.resources = &resources;
    again.load.inputs = nullptr;
    const validator::ValidationReport after =
        validator::validate_bytes(built->main, out_path.filename().string(), {}, again);
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
  if (options.dry_run) return report;

  // 4. Written as one output: every file to its temporary first (where a full disk or a
  // size limit fails, before any target changes), then the buffers renamed into place and
  // the asset that names them last. A target that is a device or a pipe is written in
  // place, with no folder of its own for buffers: refused when it needs one.
  std::error_code ec;
  const fs::file_status target_status = fs::status(*target, ec);
  if (!built->buffers.empty() && fs::exists(target_status) && !fs::is_regular_file(target_status)) {
    return stop(2, "cannot write '" + target->string() + "': it is not a regular file, and the " +
                       "output needs its buffer " + built->buffers.begin()->first +
                       " beside it; nothing written");
  }
  if (!options.in_place) {
    if (const auto clash = input_named(*target)) {
      return stop(2, "refusing to write '" + target->string() + "': it is the input '" + *clash +
                         "' (same file); nothing written (use --in-place to replace the input)");
    }
  }
  try {
    std::vector<std::unique_ptr<io::OutputFile>> files;  // the buffers, then the asset
    std::vector<std::pair<fs::path, bool>> paths;        // each one's target, and whether new
    const auto stage = [&](const fs::path& path, const std::vector<std::uint8_t>& bytes) {
      std::error_code absent;
      paths.push_back({path, !fs::exists(fs::symlink_status(path, absent))});
      files.push_back(std::make_unique<io::OutputFile>(path));
      std::ostream& out = files.back()->stream();
      out.write(reinterpret_cast<const char*>(bytes.data()),
                static_cast<std::streamsize>(bytes.size()));
      out.flush();
      // A failed write: commit() throws with its reason, and every temporary goes with
      // the OutputFiles.
      if (!out) files.back()->commit();
    };
    for (const auto& [name, bytes] : built->buffers) stage(out_folder / name, bytes);
    for (const auto& [name, bytes] : copies) {
      // A file of that name there already: kept when it holds these bytes, else refused (it
      // is not ours to replace).
      const fs::path path = out_folder / name;
      std::error_code absent;
      if (fs::exists(fs::symlink_status(path, absent))) {
        if (fs::is_regular_file(fs::symlink_status(path, absent)) && !input_named(path)) {
          const io::ReadResult there = io::FolderReader(out_folder).read(name, bytes.size());
          if (there.storage && std::ranges::equal(there.storage->bytes(), bytes)) continue;
        }
        return stop(2, "cannot copy '" + name + "' beside the output: '" + path.string() +
                           "' is there already with other contents; nothing written");
      }
      stage(path, bytes);
    }
    stage(*target, built->main);
    // Renames only from here, as one output: an interruption meanwhile is handled once
    // the asset is in place, and a failed close or rename removes the new buffers already
    // renamed (no partial output).
    // The report goes out before any target changes: when it cannot, the temporaries go
    // with the OutputFiles and nothing is written.
    if (options.deliver) {
      ToolReport ready = report;
      for (const auto& [name, bytes] : built->buffers) {
        ready.notes.push_back("wrote " + (out_folder / name).string());
      }
      for (const auto& [name, bytes] : copies) {
        ready.notes.push_back("copied " + name + " beside the output");
      }
      ready.written = true;
      if (!options.deliver(ready)) return stop(2, "the report could not be delivered; nothing written");
    }
    std::vector<io::OutputFile*> group;
    std::unique_ptr<bool[]> created = std::make_unique<bool[]>(files.size());
    for (std::size_t k = 0; k < files.size(); ++k) {
      group.push_back(files[k].get());
      created[k] = k + 1 < files.size() && paths[k].second;
    }
    io::commit_together(group, std::span<const bool>(created.get(), files.size()));
  } catch (const io::OutputError& e) {
    return stop(2, e.what());
  }
  for (const auto& [name, bytes] : built->buffers) {
    report.notes.push_back("wrote " + (out_folder / name).string());
  }
  for (const auto& [name, bytes] : copies) {
    report.notes.push_back("copied " + name + " beside the output");
  }
  report.written = true;
  return report;
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
      out << (k ? "," : "") << "{\"code\":" << s(p.code) << ",\"pointer\":" << s(p.pointer)
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
    out << "  " << (p.fixed ? "fixed " : "NOT FIXABLE ") << p.code << " at " << v(p.pointer) << ": "
        << v(p.action) << "\n      playback: " << v(p.playback) << "\n";
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
