# Layout rules of the sources that no compiler checks, one scan per rule
# (cmake -DSOURCE_DIR=<checkout> -P check_sources.cmake). Each violation is
# printed as file:line and fails the test.
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "SOURCE_DIR is not set")
endif()

set(violations "")

# Lines of the files matching `globs` (relative to SOURCE_DIR) that match
# `regex`, appended to `violations` as "file:line: text" with `why`.
function(scan why regex)
  set(found "")
  file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${ARGN})
  foreach(f IN LISTS files)
    file(STRINGS ${SOURCE_DIR}/${f} lines)
    set(n 0)
    foreach(line IN LISTS lines)
      math(EXPR n "${n} + 1")
      if(line MATCHES "${regex}")
        string(STRIP "${line}" text)
        # A ";" would split the entry in two (CMake lists): shown as ",".
        string(REPLACE ";" "," text "${text}")
        list(APPEND found "${f}:${n}: ${text}  (${why})")
      endif()
    endforeach()
  endforeach()
  set(violations ${violations} ${found} PARENT_SCOPE)
endfunction()

# The rule modules, the repair tools and the CLI read samplers and their accessors
# through the animation model (gltf/include/gltf_anim/gltf/animation_model.hpp): none
# follows a sampler's, a channel's or an extension's index in the JSON (an edit that
# writes one, put_member, is not a read).
scan("a sampler link read from the JSON; use the animation model"
  "(^|[^_A-Za-z])(index_member|string_member|member|has)\\([^;]*\"(sampler|input|output|interpolation)\""
  ${SOURCE_DIR}/validator/src/rules/*.cpp ${SOURCE_DIR}/validator/src/rules/*.hpp
  ${SOURCE_DIR}/repair/*.cpp ${SOURCE_DIR}/repair/*.hpp ${SOURCE_DIR}/cli/*.cpp
  ${SOURCE_DIR}/cli/*.hpp)

# The repair tools edit an asset in memory (repair::edit_asset: bytes and an
# io::ResourceReader in, the report and the edited files out): no file is opened, read,
# written or looked at in repair/. std::filesystem::path names a resource (the reader's
# seam); every other std::filesystem call, fopen and the file streams are refused. The
# step on files around it, run_tool, is the CLI's (cli/tool_files.cpp, through io/).
scan("a file touched in repair/: repair/ works on memory (the file step is cli/tool_files.cpp)"
  "(^|[^A-Za-z_])(fopen|freopen|[io]?fstream)([^A-Za-z_]|$)|(std::filesystem|(^|[^A-Za-z_])fs)::([a-oq-z_]|p[b-z]|pa[a-su-z]|pat[a-gi-z]|path[a-z_])"
  ${SOURCE_DIR}/repair/*.cpp ${SOURCE_DIR}/repair/*.hpp)

# What the repair tools decide (which extensions the asset declares, which bufferViews and
# accessors meshes, skins, images, KHR_draco_mesh_compression and EXT_mesh_gpu_instancing
# use, a channel's EXT_animation_sqlerp sampler, a KHR_animation2 targetpointer) is read from
# the animation model, not the JSON. The JSON reads repair/ keeps are those of text it copies
# or edits: a channel's `extensions` object (whether an edit adds to it or writes it), the
# KHR_animation_pointer target a migration replaces (whether the edit would drop a member),
# and the `uri`s of the files a written asset takes along (relative_uris). An edit call that
# names a list (edit.append("/extensionsUsed", ...)) writes, and is not a read.
scan("a raw-JSON read of what the animation model holds (extension lists, mesh and node extensions, targetpointer)"
  "(^|[^_A-Za-z:])(index_member|string_member|array_member|member|has|HasMember|FindMember|each|lists|string_list)\\([^;]*\"(extensionsUsed|extensionsRequired|KHR_draco_mesh_compression|EXT_mesh_gpu_instancing|EXT_animation_sqlerp|targetpointer|meshes|skins|images|nodes)\""
  ${SOURCE_DIR}/repair/*.cpp ${SOURCE_DIR}/repair/*.hpp ${SOURCE_DIR}/cli/*.cpp
  ${SOURCE_DIR}/cli/*.hpp)

# The sampler, the samples format, compare and the engine adapters read assets through gltf/
# (the loader, the asset, the models) and never the validator: a web page or an engine's test
# harness that samples or compares links no schema walk and no rule.
set(before ${violations})
set(violations "")
scan("a validator header outside the validator's users: read assets through gltf/"
  "^[ \t]*#[ \t]*include[ \t]*<gltf_anim/validator/"
  ${SOURCE_DIR}/samples/*.cpp ${SOURCE_DIR}/samples/*.hpp ${SOURCE_DIR}/sampler/*.cpp
  ${SOURCE_DIR}/sampler/*.hpp ${SOURCE_DIR}/compare/*.cpp ${SOURCE_DIR}/compare/*.hpp
  ${SOURCE_DIR}/adapters/*.cpp ${SOURCE_DIR}/adapters/*.hpp)
list(FILTER violations EXCLUDE REGEX "(^|/)node_modules/")
set(violations ${before} ${violations})

# Files are opened, read, written and looked at through io/ (or by the CLI, which parses and
# wires): the libraries take bytes and an io::ResourceReader, so that they compile to
# WebAssembly and read what a page hands them. std::filesystem::path names a resource and is
# allowed; every other std::filesystem call, fopen and the file streams are refused in the
# libraries (repair/ has its own rule above). The programs around them (tests/, bench/,
# fuzz/, the engine adapters, web/) set up and read their own files. What a name is, a
# folder's listing and the resolution of a path on disk are io/'s too (io/file_queries.hpp).
set(library_globs "")
foreach(d text reference gltf schema validator samples sampler compare reports suite)
  foreach(ext cpp hpp h cc)
    list(APPEND library_globs ${SOURCE_DIR}/${d}/*.${ext})
  endforeach()
endforeach()
set(before ${violations})
set(violations "")
scan("a file call outside io/ and cli/: read and write through io/ (io::ResourceReader, io::OutputFile, io::read_regular_file)"
  "(^|[^A-Za-z_])(fopen|freopen|[io]?fstream)([^A-Za-z_]|$)|(std::filesystem|(^|[^A-Za-z_])fs)::([a-oq-z_]|p[b-z]|pa[a-su-z]|pat[a-gi-z]|path[a-z_])"
  ${library_globs})
set(violations ${before} ${violations})

# The repair tools decode a sampler's keys through gltf/ (gltf/sampler_keys.hpp), as the sampler
# does: repair/ stands beside the sampler, not on it (docs/ARCHITECTURE.md, the module order),
# and links neither the sampling pipeline nor the samples format.
scan("a sampler header in repair/: decode keys through gltf/ (gltf/sampler_keys.hpp)"
  "^[ \t]*#[ \t]*include[ \t]*<gltf_anim/sampler/"
  ${SOURCE_DIR}/repair/*.cpp ${SOURCE_DIR}/repair/*.hpp)

# POSIX and Linux headers only in io/ (the seam that lets every other module
# compile to WebAssembly and read what a page hands it). Tests may use them to
# set up files and processes; web/compat/ is the WebAssembly build's stand-in
# for the system calls io/ makes.
file(GLOB top RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*)
set(module_globs "")
foreach(d IN LISTS top)
  if(IS_DIRECTORY ${SOURCE_DIR}/${d} AND NOT d MATCHES "^(io|tests|build.*|\\..*)$")
    foreach(ext cpp hpp h cc)
      list(APPEND module_globs ${SOURCE_DIR}/${d}/*.${ext})
    endforeach()
  endif()
endforeach()
set(before ${violations})
set(violations "")
scan("a POSIX or Linux header outside io/: add an io/ function"
  "^[ \t]*#[ \t]*include[ \t]*<(unistd\\.h|fcntl\\.h|dirent\\.h|fnmatch\\.h|sys/|linux/)"
  ${module_globs})
list(FILTER violations EXCLUDE REGEX "(^|/)node_modules/|^web/compat/")
set(violations ${before} ${violations})

# Test scratch folders start at gltf_anim_test::scratch_root() (tests/scratch.hpp),
# one folder per test process: CTest runs tests concurrently, and a folder named
# after a fixture alone is shared, so one test's clean-up deletes another's files.
set(before ${violations})
set(violations "")
scan("a scratch path from GLTF_ANIM_TEST_TMP itself, start it at gltf_anim_test::scratch_root()"
  "path\\(GLTF_ANIM_TEST_TMP\\)|GLTF_ANIM_TEST_TMP[ \t]*[/+]"
  ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.hpp)
list(FILTER violations EXCLUDE REGEX "^tests/scratch\\.hpp:")
set(violations ${before} ${violations})

# RapidJSON's own types allocate through its unchecked CrtAllocator: under a
# memory limit they write through a null pointer. The project's JSON types
# (gltf/include/gltf_anim/gltf/json.hpp) throw std::bad_alloc instead.
set(before ${violations})
set(violations "")
scan("RapidJSON's unchecked allocator: use gltf_anim::json's type (gltf_anim/gltf/json.hpp)"
  "rapidjson::(Value|Document|Reader|StringBuffer|Writer|PrettyWriter|Pointer|CrtAllocator)([^A-Za-z0-9_]|$)|MemoryPoolAllocator<>|(^|[^A-Za-z])RapidJsonAdapter([^<A-Za-z]|$)|rapidjson/fwd\\.h"
  ${module_globs} ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.hpp)
list(FILTER violations EXCLUDE REGEX "(^|/)node_modules/|^gltf/include/gltf_anim/gltf/json\\.hpp:")
set(violations ${before} ${violations})

# No test skips itself: a skipped test passes having checked nothing. A test that cannot
# run somewhere is not registered there (tests/optional_data.hpp, #ifndef
# GLTF_ANIM_TEST_ASAN) or checks what it can.
scan("GTEST_SKIP: register the test only where it can run, or check what it can"
  "GTEST_SKIP"
  ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.hpp)

list(LENGTH violations count)
if(count GREATER 0)
  list(JOIN violations "\n" text)
  message(FATAL_ERROR "${count} layout violation(s):\n${text}")
endif()
message(STATUS "source layout: ok")
