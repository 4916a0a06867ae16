# Boost.Program_options for the wasm build, compiled with em++ from Debian's boost1.74
# sources (GLTF_ANIM_BOOST_SOURCE) against Debian's installed 1.74 headers: the parser the
# native CLI links, so the npm CLI accepts exactly the same options.
if(NOT TARGET Boost::program_options)
  set(_src ${GLTF_ANIM_BOOST_SOURCE}/libs/program_options/src)
  if(NOT EXISTS ${_src}/cmdline.cpp)
    message(FATAL_ERROR "wasm build: GLTF_ANIM_BOOST_SOURCE='${GLTF_ANIM_BOOST_SOURCE}' holds no "
      "libs/program_options/src (bash scripts/build-web.sh fetches it)")
  endif()
  add_library(gltf_anim_boost_program_options STATIC
    ${_src}/cmdline.cpp ${_src}/config_file.cpp ${_src}/convert.cpp
    ${_src}/options_description.cpp ${_src}/parsers.cpp ${_src}/positional_options.cpp
    ${_src}/split.cpp ${_src}/utf8_codecvt_facet.cpp ${_src}/value_semantic.cpp
    ${_src}/variables_map.cpp)
  target_include_directories(gltf_anim_boost_program_options SYSTEM PUBLIC ${GLTF_ANIM_WASM_INCLUDE})
  target_compile_definitions(gltf_anim_boost_program_options PUBLIC BOOST_ALL_NO_LIB)
  add_library(Boost::program_options ALIAS gltf_anim_boost_program_options)
endif()
set(Boost_FOUND TRUE)
set(Boost_VERSION 1.74.0)
