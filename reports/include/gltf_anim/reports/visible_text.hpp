#pragma once
// Text from the input (file names, member names, values) on its way to a
// terminal: the command's messages on standard error quote it, and a file
// named with terminal escapes must not drive the user's terminal.
#include <string>
#include <string_view>

namespace gltf_anim::reports {

// `raw` as valid UTF-8 (invalid sequences become U+FFFD) with every control,
// bidirectional-override and line-separator character shown as an escape
// (`\x1b`, `\u202e`, `\n`): the text report's policy (docs/RELIABILITY.md).
std::string visible_text(std::string_view raw);

}  // namespace gltf_anim::reports
