// The repair tools' files (run_tool, tool_files.hpp): the input read and its folder's files
// recorded, the output's names checked against every input, and the edited asset's files
// written through io/ (temporaries beside their targets, renamed together). The edits are
// repair::edit_asset's, in memory: repair/ opens no file.
#include "tool_files.hpp"

#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/text/utf8.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace gltf_anim::cli {

using repair::EditOptions;
using repair::Tool;
using repair::ToolAsset;
using repair::ToolOptions;
using repair::ToolOutput;
using repair::ToolReport;
using repair::ToolRun;
using repair::ToolTarget;

namespace {

namespace fs = std::filesystem;

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

fs::path folder_of(const fs::path& p) {
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

bool same_folder(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  const bool same = fs::equivalent(folder_of(a), folder_of(b), ec);
  return !ec && same;
}

// A URI the asset names as a file name, decoded as the loader decodes a buffer's; nullopt
// for a data URI or a bad escape.
std::optional<std::string> named_file(std::string_view uri) {
  if (uri.substr(0, 5) == "data:") return std::nullopt;
  return gltf::decode_uri_path(uri);
}

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

  // The input, read as the loader reads a file, and its folder's files through a reader
  // that records each one's identity.
  const gltf::LoadOptions& load = options.validate.load;
  ToolAsset in;
  in.name = options.input.string();
  in.folder = folder_of(options.input).string();
  io::ReadResult read =
      load.asset_folder.empty()
          ? io::read_regular_file(options.input, load.max_file_bytes, /*no_follow=*/false)
          : io::read_file_beneath(load.asset_folder,
                                  options.input.lexically_relative(load.asset_folder),
                                  load.max_file_bytes);
  switch (read.failure) {
    case io::ReadResult::Failure::kNone: break;
    case io::ReadResult::Failure::kTooLarge:
      in.read_error = ToolAsset::ReadError{true, read.size, ""};
      break;
    case io::ReadResult::Failure::kNotRegular:
    case io::ReadResult::Failure::kOpen:
    case io::ReadResult::Failure::kRead:
    case io::ReadResult::Failure::kOutsideRoot:
      in.read_error = ToolAsset::ReadError{
          false, 0, text::truncate_utf8(options.input.string(), 512) + ": " + read.detail};
      break;
  }
  if (!in.read_error) {
    if (load.inputs && read.identity) load.inputs->record(*read.identity, options.input.string());
    in.bytes = read.storage->bytes();
  }
  std::optional<RecordingFolder> recording;
  in.resources = load.resources;
  if (in.resources == nullptr) {
    recording.emplace(folder_of(options.input), load.root, load.inputs);
    in.resources = &*recording;
  }
  // The output's validation reads the input's buffers it still names from the input's folder.
  const io::FolderReader input_folder(folder_of(options.input));
  in.output_resources = &input_folder;

  // The files the output must never replace: the asset, every buffer the loader read,
  // every file it names by relative URI (images, and any extension's, known or not).
  std::vector<std::pair<io::FileIdentity, std::string>> inputs;
  std::vector<std::string> named;  // as file names relative to the input's folder
  const auto input_named = [&inputs](const fs::path& p) -> std::optional<std::string> {
    const auto id = io::file_identity(p);
    if (!id) return std::nullopt;
    for (const auto& [input, name] : inputs) {
      if (input == *id) return name;
    }
    return std::nullopt;
  };
  const fs::path out_path = target ? *target : options.input;
  const fs::path out_folder = folder_of(out_path);
  ToolTarget to;
  if (target) to.name = target->string();
  to.file_name = out_path.filename().string();
  to.stem = out_path.stem().string();
  to.elsewhere = target && !same_folder(*target, options.input);
  to.refused = [&](const gltf::LoadedAsset& asset) -> std::optional<std::string> {
    if (const auto id = io::file_identity(options.input)) inputs.push_back({*id, report.input});
    if (recording)
      inputs.insert(inputs.end(), recording->files().begin(), recording->files().end());
    for (const std::string& uri : repair::relative_uris(asset)) {
      const std::optional<std::string> file = named_file(uri);
      if (!file) continue;
      named.push_back(fs::path(*file).lexically_normal().generic_string());
      if (const auto id = io::file_identity(folder_of(options.input) / *file)) {
        inputs.push_back({*id, *file});
      }
    }
    if (target && !options.in_place && !options.dry_run) {
      if (const auto clash = input_named(*target)) {
        return "refusing to write '" + target->string() + "': it is the input '" + *clash +
               "' (same file); nothing written (use --in-place to replace the input)";
      }
    }
    return std::nullopt;
  };
  // A buffer the output needs goes beside it under a name that is no input and nothing but
  // a regular file (or nothing yet): never written into a planted FIFO (a hang) or device.
  to.taken = [&](std::string_view name) {
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
  ToolRun run =
      repair::edit_asset(tool, in, to, EditOptions{options.dry_run, options.force, options.validate});
  report = std::move(run.report);
  if (!run.output || options.dry_run) return report;
  const ToolOutput& output = *run.output;
  const std::map<std::string, std::vector<std::uint8_t>>& copies = output.copies;

  // 4. Written as one output: every file to its temporary first (where a full disk or a
  // size limit fails, before any target changes), then the buffers renamed into place and
  // the asset that names them last. A target that is a device or a pipe is written in
  // place, with no folder of its own for buffers: refused when it needs one.
  std::error_code ec;
  const fs::file_status target_status = fs::status(*target, ec);
  if (!output.buffers.empty() && fs::exists(target_status) && !fs::is_regular_file(target_status)) {
    return stop(2, "cannot write '" + target->string() + "': it is not a regular file, and the " +
                       "output needs its buffer " + output.buffers.begin()->first +
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
    for (const auto& [name, bytes] : output.buffers) stage(out_folder / name, bytes);
    for (const auto& [name, bytes] : copies) {
      // A file of that name there already: kept when it holds these bytes, else refused (it
      // is not ours to replace).
      const fs::path path = out_folder / name;
      std::error_code absent;
      if (fs::exists(fs::symlink_status(path, absent))) {
        if (fs::is_regular_file(fs::symlink_status(path, absent)) && !input_named(path)) {
          const io::ReadResult there = io::FolderReader(out_folder).read(name, bytes.size());
          if (there.storage) {
            // std::equal, not std::ranges::equal: emscripten's libc++ (the WebAssembly
            // build's) lacks the latter.
            const std::span<const std::uint8_t> held = there.storage->bytes();
            if (std::equal(held.begin(), held.end(), bytes.begin(), bytes.end())) continue;
          }
        }
        return stop(2, "cannot copy '" + name + "' beside the output: '" + path.string() +
                           "' is there already with other contents; nothing written");
      }
      stage(path, bytes);
    }
    stage(*target, output.main);
    // Renames only from here, as one output: an interruption meanwhile is handled once
    // the asset is in place, and a failed close or rename removes the new buffers already
    // renamed (no partial output).
    // The report goes out before any target changes: when it cannot, the temporaries go
    // with the OutputFiles and nothing is written.
    if (options.deliver) {
      ToolReport ready = report;
      for (const auto& [name, bytes] : output.buffers) {
        ready.notes.push_back("wrote " + (out_folder / name).string());
      }
      for (const auto& [name, bytes] : copies) {
        ready.notes.push_back("copied " + name + " beside the output");
      }
      ready.written = true;
      if (!options.deliver(ready))
        return stop(2, "the report could not be delivered; nothing written");
    }
    std::vector<io::OutputFile*> group;
    std::unique_ptr<bool[]> created = std::make_unique<bool[]>(files.size());
    for (std::size_t k = 0; k < files.size(); ++k) {
      group.push_back(files[k].get());
      created[k] = k + 1 < files.size() && paths[k].second;
    }
    io::commit_together(group, std::span<const bool>(created.get(), files.size()));
  } catch (const io::OutputError& e) { return stop(2, e.what()); }
  for (const auto& [name, bytes] : output.buffers) {
    report.notes.push_back("wrote " + (out_folder / name).string());
  }
  for (const auto& [name, bytes] : copies) {
    report.notes.push_back("copied " + name + " beside the output");
  }
  report.written = true;
  return report;
}

}  // namespace gltf_anim::cli
