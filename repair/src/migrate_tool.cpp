// The migrate tool (repair/tools.hpp): animation channels between KHR_animation2 (draft) and
// KHR_animation_pointer (migrate.hpp), through the repair tools' pipeline.
#include <gltf_anim/repair/tools.hpp>

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace gltf_anim::repair {

Tool migrate_tool(PointerExtension to) {
  Tool tool{
      "migrate", {}, [to](ToolInput& input, gltf::Edit& edit, ToolReport& report, std::string&) {
        const Migration m = migrate_channels(input.asset, input.model, to, edit);
        // Each channel's track (not the sqlerp one), found by one lookup: a walk of every
        // track per channel was quadratic in the channels.
        std::unordered_map<std::string_view, const EditableTrack*> track_of;
        for (const EditableTrack& t : input.tracks) {
          if (t.sqlerp) continue;
          track_of[t.channel_pointer] = &t;
          for (const EditableTrack::SharedChannel& c : t.shared) track_of[c.channel_pointer] = &t;
        }
        for (const ChannelMigration& c : m.channels) {
          ChannelSummary s;
          s.channel = c.channel;
          s.target = c.target;
          if (const auto it = track_of.find(c.channel); it != track_of.end()) {
            const EditableTrack& t = *it->second;
            s.interpolation_before = s.interpolation_after = t.interpolation;
            s.keys_before = s.keys_after = t.key_count;
            s.bytes_before = s.bytes_after =
                accessor_bytes(input.asset, t.input) + accessor_bytes(input.asset, t.output);
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
                               std::string(extension_name(to)));
        return true;
      }};
  // Only the tracks' counts are read: no key is decoded but to list the tracks.
  tool.one_group_at_a_time = true;
  return tool;
}

}  // namespace gltf_anim::repair
