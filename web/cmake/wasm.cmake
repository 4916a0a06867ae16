# The WebAssembly build (CMake preset `wasm`, Debian's emscripten): where em++ finds the
# header-only dependencies and Boost.Program_options, and the flags every target shares.
# Included by the top-level CMakeLists.txt before the modules when the toolchain is
# emscripten; the native build never reads this file.
#
# The dependencies are Debian's: their headers come from the same packages as the native
# build (rapidjson-dev, libfmt-dev, libboost-program-options-dev, libfast-float-dev,
# valijson), seen through a folder of links so that em++ never searches /usr/include (glibc's
# headers there would shadow emscripten's libc). Boost.Program_options is compiled here from
# the sources of Debian's boost1.74 package (scripts/build-web.sh fetches them with
# `apt-get source`), the same version as the headers; so is meshoptimizer's decoder, from
# Debian's meshoptimizer sources (web/cmake/find/Findmeshoptimizer.cmake).

set(GLTF_ANIM_BOOST_SOURCE "" CACHE PATH
  "Debian's boost1.74 source tree (holding libs/program_options/src): scripts/build-web.sh")
# Defaults to the environment's (scripts/build-web.sh exports it), so the `wasm` preset needs
# no entry for it.
set(GLTF_ANIM_MESHOPT_SOURCE "$ENV{GLTF_ANIM_MESHOPT_SOURCE}" CACHE PATH
  "Debian's meshoptimizer source tree (holding src/vertexcodec.cpp): scripts/build-web.sh")
set(GLTF_ANIM_WASM_MAX_MEMORY "2GB" CACHE STRING
  "Largest wasm memory; past it an allocation fails and the command reports it (exit 2)")

set(GLTF_ANIM_WASM_INCLUDE ${PROJECT_BINARY_DIR}/wasm-include)
file(MAKE_DIRECTORY ${GLTF_ANIM_WASM_INCLUDE})
foreach(dep boost fmt rapidjson fast_float)
  if(NOT EXISTS /usr/include/${dep})
    message(FATAL_ERROR "wasm build: /usr/include/${dep} is missing (scripts/build-web.sh installs it)")
  endif()
  file(CREATE_LINK /usr/include/${dep} ${GLTF_ANIM_WASM_INCLUDE}/${dep} SYMBOLIC)
endforeach()
# Linux headers the loader includes that emscripten lacks (web/compat/include).
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/web/compat/include/linux ${GLTF_ANIM_WASM_INCLUDE}/linux SYMBOLIC)

# The modules' find_path/find_package calls take these instead of searching the host.
set(GLTF_ANIM_RAPIDJSON_INCLUDE ${GLTF_ANIM_WASM_INCLUDE} CACHE PATH "" FORCE)
set(GLTF_ANIM_VALIJSON_INCLUDE ${GLTF_ANIM_VALIJSON_ROOT} CACHE PATH "" FORCE)
list(PREPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR}/find)

# Exceptions are the libraries' error path (emscripten ignores them by default);
# libc++ 13 lacks std::bit_cast and floating-point <charconv>: web/compat supplies them.
add_compile_options(-fexceptions
  "SHELL:-include ${PROJECT_SOURCE_DIR}/web/compat/libcxx_compat.hpp")
add_link_options(-fexceptions)
add_library(gltf_anim_wasm_compat STATIC ${PROJECT_SOURCE_DIR}/web/compat/libcxx_compat.cpp
  ${PROJECT_SOURCE_DIR}/web/compat/posix_compat.cpp
  ${PROJECT_SOURCE_DIR}/text/src/shortest_double.cpp)
target_include_directories(gltf_anim_wasm_compat PRIVATE ${PROJECT_SOURCE_DIR}/text/include)
target_include_directories(gltf_anim_wasm_compat SYSTEM PRIVATE ${GLTF_ANIM_WASM_INCLUDE})
target_compile_definitions(gltf_anim_wasm_compat PRIVATE FMT_HEADER_ONLY=1)
target_link_libraries(gltf_anim_wasm_compat PRIVATE gltf_anim_warnings)
