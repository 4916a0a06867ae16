# Run by CTest (install_and_consume): cmake --install into a scratch prefix,
# check the installed headers are the public API alone, configure and build the
# consumer against the prefix, then run the consumer.
cmake_minimum_required(VERSION 3.25)  # script mode: today's policies (list() keeps empty items)
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
if(NOT EXISTS ${prefix}/bin/gltf-anim)
  message(FATAL_ERROR "the CLI was not installed")
endif()

# Internal headers are not installed (README, "Use as a library").
foreach(internal validator/rules.hpp validator/object_model.hpp validator/json_syntax.hpp
                 text/utf8.hpp suite/suite.hpp reports/validation_report.hpp)
  if(EXISTS ${prefix}/include/gltf_anim/${internal})
    message(FATAL_ERROR "internal header installed: gltf_anim/${internal}")
  endif()
endforeach()

# Every installed header, alone, must reach nothing but the prefix and the C++
# standard library: no rapidjson, valijson, fmt or Boost. The standard
# library's files are whatever a translation unit of all its headers includes,
# with the same compiler.
set(std_headers algorithm any array atomic barrier bit bitset cassert cctype cerrno cfloat
  charconv chrono cinttypes climits clocale cmath codecvt compare complex concepts
  condition_variable coroutine csetjmp csignal cstdarg cstddef cstdint cstdio cstdlib
  cstring ctime cuchar cwchar cwctype deque exception execution expected filesystem format
  forward_list fstream functional future initializer_list iomanip ios iosfwd iostream
  istream iterator latch limits list locale map memory memory_resource mutex new numbers
  numeric optional ostream queue random ranges ratio regex scoped_allocator semaphore set
  shared_mutex source_location span sstream stack stdexcept stop_token streambuf string
  string_view syncstream system_error thread tuple type_traits typeindex typeinfo
  unordered_map unordered_set utility valarray variant vector version)
set(std_tu "")
foreach(h IN LISTS std_headers)
  string(APPEND std_tu "#if __has_include(<${h}>)\n#include <${h}>\n#endif\n")
endforeach()
file(WRITE ${WORK_DIR}/headers/std.cpp "${std_tu}")

function(dependencies_of source out)
  execute_process(COMMAND ${CXX} -std=c++20 -M -I${prefix}/include ${source}
    RESULT_VARIABLE rc OUTPUT_VARIABLE deps ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "preprocessing ${source} failed:\n${err}")
  endif()
  string(REPLACE "\\\n" " " deps "${deps}")
  string(REGEX REPLACE "^[^:]*:" "" deps "${deps}")
  string(REGEX REPLACE "[ \t\r\n]+" ";" deps "${deps}")
  list(FILTER deps EXCLUDE REGEX "^$")
  set(${out} ${deps} PARENT_SCOPE)
endfunction()

dependencies_of(${WORK_DIR}/headers/std.cpp std_files)
file(GLOB_RECURSE installed RELATIVE ${prefix}/include ${prefix}/include/*.hpp)
set(header_tus "")
foreach(header IN LISTS installed)
  string(MAKE_C_IDENTIFIER ${header} id)
  set(tu ${WORK_DIR}/headers/${id}.cpp)
  file(WRITE ${tu} "// ${header} alone\n#include <${header}>\n")
  list(APPEND header_tus ${tu})
  dependencies_of(${tu} deps)
  foreach(dep IN LISTS deps)
    if(dep STREQUAL tu OR dep MATCHES "^${prefix}/include/")
      continue()
    endif()
    list(FIND std_files ${dep} at)
    if(at EQUAL -1)
      message(FATAL_ERROR "installed header ${header} includes ${dep}, which is neither "
                          "installed nor part of the C++ standard library")
    endif()
  endforeach()
endforeach()
list(LENGTH installed count)
if(count LESS 10)
  message(FATAL_ERROR "only ${count} headers were installed: ${installed}")
endif()
message(STATUS "${count} installed headers reach only the prefix and the standard library")

# The consumer compiles each installed header alone too (with warnings as
# errors), through the package's targets.
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SRC} -B ${WORK_DIR}/build
  -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release
  "-DHEADER_TUS=${header_tus}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel 2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${WORK_DIR}/build/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "consumer printed: ${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer failed: ${rc}")
endif()
