#pragma once
// The command line every repair tool shares (docs/TOOLS.md, "The common contract"):
// IN, -o/--output OUT, --in-place, --dry-run, --force, --format text|json; and how a
// tool's report leaves the process (the report on standard output, the exit code).
#include <gltf_anim/repair/tool.hpp>

#include <optional>

#include "cli_common.hpp"

namespace gltf_anim::cli {

// Adds the shared options (IN is positional: pass tool_positional()).
void add_tool_options(po::options_description& options);
po::positional_options_description tool_positional();

// The options a tool runs with, or nullopt (a usage error printed) when they are wrong.
std::optional<repair::ToolOptions> tool_options(const po::variables_map& vm,
                                                const CommandHelp& help);

// Runs `tool`, writes its report in the requested format to standard output, and
// returns its exit code (kExitUsage when the report cannot be written).
int run_repair_tool(const repair::Tool& tool, const repair::ToolOptions& options,
                    const CommandHelp& help);

}  // namespace gltf_anim::cli
