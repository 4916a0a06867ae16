# meshoptimizer for the wasm build: the decoder half (vertex and index codecs, vertex filters)
# compiled with em++ from the sources of Debian's meshoptimizer package
# (GLTF_ANIM_MESHOPT_SOURCE, fetched by scripts/build-web.sh), the version the native build
# links as libmeshoptimizer-dev, so the npm package decodes EXT_/KHR_meshopt_compression as
# the native CLI does.
if(NOT TARGET meshoptimizer::meshoptimizer)
  set(_src ${GLTF_ANIM_MESHOPT_SOURCE}/src)
  if(NOT EXISTS ${_src}/vertexcodec.cpp)
    message(FATAL_ERROR "wasm build: GLTF_ANIM_MESHOPT_SOURCE='${GLTF_ANIM_MESHOPT_SOURCE}' holds "
      "no src/vertexcodec.cpp (bash scripts/build-web.sh fetches it)")
  endif()
  add_library(gltf_anim_meshoptimizer STATIC
    ${_src}/vertexcodec.cpp ${_src}/indexcodec.cpp ${_src}/vertexfilter.cpp)
  target_include_directories(gltf_anim_meshoptimizer SYSTEM PUBLIC ${_src})
  # The decoders' asserts are preconditions the loader checks before every call.
  target_compile_definitions(gltf_anim_meshoptimizer PRIVATE NDEBUG)
  add_library(meshoptimizer::meshoptimizer ALIAS gltf_anim_meshoptimizer)
endif()
set(meshoptimizer_FOUND TRUE)
set(meshoptimizer_VERSION 0.18)
