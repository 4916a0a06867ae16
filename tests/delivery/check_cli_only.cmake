# Run by CTest (delivery_cli_only_configure): configures the "cli" preset into
# WORK_DIR with GoogleTest and Google Benchmark made unfindable, so the CLI-only
# build provably needs neither, then lists its targets: gltf-anim and the
# libraries, no test_*, bench_* or fuzz_* target, and the package configuration.
# It configures as the GitHub Action does (scripts/build-cli.sh with
# -DBoost_USE_STATIC_LIBS=ON, so a cached binary needs no Boost on the runner)
# and checks that gltf-anim then links Boost's static library.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --preset cli -S ${SOURCE_DIR} -B ${WORK_DIR}
    -DGLTF_ANIM_VALIJSON_ROOT=${VALIJSON_ROOT}
    -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
    -DBoost_USE_STATIC_LIBS=ON
  WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the cli preset failed (${rc}):\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR} --target help
  RESULT_VARIABLE rc OUTPUT_VARIABLE targets)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "listing the targets failed (${rc})")
endif()
if(NOT targets MATCHES "\\.\\.\\. gltf-anim\n")
  message(FATAL_ERROR "no gltf-anim target in the cli build:\n${targets}")
endif()
if(targets MATCHES "\\.\\.\\. (test_|bench_|fuzz_)[^\n]*")
  message(FATAL_ERROR "the cli build has the target '${CMAKE_MATCH_0}'")
endif()
if(NOT EXISTS ${WORK_DIR}/CPackConfig.cmake)
  message(FATAL_ERROR "no CPackConfig.cmake: the .deb cannot be made from the cli build")
endif()
if(EXISTS ${WORK_DIR}/CTestTestfile.cmake)
  message(FATAL_ERROR "the cli build registers tests")
endif()
file(READ ${WORK_DIR}/cli/CMakeFiles/gltf-anim.dir/link.txt link)
if(NOT link MATCHES "libboost_program_options\\.a")
  message(FATAL_ERROR "with Boost_USE_STATIC_LIBS, gltf-anim does not link libboost_program_options.a:\n${link}")
endif()
message(STATUS "cli preset: gltf-anim and its libraries only, Boost linked statically on request")
