// gltf-anim migrate: animation channels between KHR_animation2 (draft) and
// KHR_animation_pointer (repair/migrate.hpp), through the repair tools' pipeline.
#include <gltf_anim/repair/migrate.hpp>

#include <iostream>
#include <string>
#include <string_view>
#include <unordered_map>

#include "commands.hpp"
#include "repair_command.hpp"

namespace gltf_anim::cli {

int run_migrate(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "migrate",
      "gltf-anim migrate IN -o OUT --to khr_animation_pointer|khr_animation2 [--dry-run] "
      "[--format json]",
      "Moves animation channels between the KHR_animation2 draft (targetpointer, SLERP) and\n"
      "KHR_animation_pointer, so that every channel plays the same: a SLERP quaternion sampler\n"
      "becomes LINEAR and back. A channel the other extension cannot express (one component of\n"
      "a vector, extras, a CUBICSPLINE quaternion, ...) stays as it is and the report says why.\n"
      "extensionsUsed/extensionsRequired lose the old name only when nothing uses it any more.\n"
      "The output is validated before it is written (docs/TOOLS.md).",
      "gltf-anim migrate draft.gltf -o pointer.gltf --to khr_animation_pointer"};
  po::options_description options("Options");
  add_tool_options(options);
  options.add_options()("to", po::value<std::string>(),
                        "khr_animation_pointer or khr_animation2: the extension to migrate to");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, tool_positional(), args, exit_code);
  if (!vm) return exit_code;
  std::optional<repair::ToolOptions> tool_opts = tool_options(*vm, kHelp);
  if (!tool_opts) return kExitUsage;
  const std::optional<repair::PointerExtension> to =
      vm->count("to") ? repair::parse_pointer_extension((*vm)["to"].as<std::string>())
                      : std::nullopt;
  if (!to) {
    std::cerr << "gltf-anim migrate: --to must be khr_animation_pointer or khr_animation2\n";
    return kExitUsage;
  }
  repair::Tool tool{
      "migrate",
      {},
      [to](repair::ToolInput& input, gltf::Edit& edit, repair::ToolReport& report, std::string&) {
        const repair::Migration m = repair::migrate_channels(input.asset, input.model, *to, edit);
        // Each channel's track (not the sqlerp one), found by one lookup: a walk of every
        // track per channel was quadratic in the channels.
        std::unordered_map<std::string_view, const repair::EditableTrack*> track_of;
        for (const repair::EditableTrack& t : input.tracks) {
          if (t.sqlerp) continue;
          track_of[t.channel_pointer] = &t;
          for (const repair::EditableTrack::SharedChannel& c : t.shared)
            track_of[c.channel_pointer] = &t;
        }
        for (const repair::ChannelMigration& c : m.channels) {
          repair::ChannelSummary s;
          s.channel = c.channel;
          s.target = c.target;
          if (const auto it = track_of.find(c.channel); it != track_of.end()) {
            const repair::EditableTrack& t = *it->second;
            s.interpolation_before = s.interpolation_after = t.interpolation;
            s.keys_before = s.keys_after = t.times.size();
            s.bytes_before = s.bytes_after = repair::accessor_bytes(input.asset, t.input) +
                                             repair::accessor_bytes(input.asset, t.output);
          }
          if (c.migrated) {
            // SLERP and LINEAR name the same slerp here (docs/REFERENCE.md).
            if (c.change.find("SLERP -> LINEAR") != std::string::npos)
              s.interpolation_after = "LINEAR";
            if (c.change.find("LINEAR -> SLERP") != std::string::npos)
              s.interpolation_after = "SLERP";
            s.notes.push_back("migrated: " + c.change);
            s.max_error = 0.0;
          } else {
            s.notes.push_back("not migrated: " + c.why);
          }
          report.channels.push_back(std::move(s));
        }
        report.notes.insert(report.notes.end(), m.changes.begin(), m.changes.end());
        report.notes.push_back(std::to_string(m.migrated()) + " of " +
                               std::to_string(m.channels.size()) + " channels migrated to " +
                               std::string(repair::extension_name(*to)));
        return true;
      }};
  return run_repair_tool(tool, *tool_opts, kHelp);
}

}  // namespace gltf_anim::cli
