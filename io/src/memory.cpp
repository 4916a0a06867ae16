// release_free_memory (memory.hpp).
#include <gltf_anim/io/memory.hpp>

#include <cstdlib>  // defines __GLIBC__ with glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gltf_anim::io {

void release_free_memory() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

}  // namespace gltf_anim::io
