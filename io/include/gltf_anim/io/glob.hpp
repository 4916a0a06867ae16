#pragma once
// Shell wildcard matching of names (compare's --cases), as the system's
// fnmatch(3) does with no flags: '*', '?', '[...]' and '\' escapes; '/' is an
// ordinary character.
#include <string>

namespace gltf_anim::io {

bool glob_matches(const std::string& pattern, const std::string& name);

}  // namespace gltf_anim::io
