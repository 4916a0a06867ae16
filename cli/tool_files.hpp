#pragma once
// The repair tools' step on files, around repair::edit_asset (which works in memory): the
// CLI's, and the tests', since repair/ opens no file (the source_layout test refuses one).
#include <gltf_anim/repair/tool.hpp>

namespace gltf_anim::cli {

// The whole pipeline on files: reads the input through io/, runs edit_asset, and writes
// its files through io/ (step 4: every file to a temporary beside its target, renamed into
// place together once the report is delivered). Exit codes (ToolReport::exit_code): 0
// written (or dry run); 1 the input has errors the tool does not repair (no --force); 2
// usage, I/O, the tool's refusal, or an output that validates worse.
repair::ToolReport run_tool(const repair::Tool& tool, const repair::ToolOptions& options);

}  // namespace gltf_anim::cli
