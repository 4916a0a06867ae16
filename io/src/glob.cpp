// glob_matches: the system's fnmatch(3), kept behind io/.
#include <gltf_anim/io/glob.hpp>

#include <fnmatch.h>

namespace gltf_anim::io {

bool glob_matches(const std::string& pattern, const std::string& name) {
  return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

}  // namespace gltf_anim::io
