// Compiled, never run, by the issue_code_* tests of tests/CMakeLists.txt: an
// issue code is checked against the registry while compiling. As written the
// file must compile; with -DMISSPELT the same call with one letter swapped
// must not, and the compiler must say why (unregistered_issue_code).
#include <gltf_anim/gltf/issue_collector.hpp>

void report_unused_sampler(gltf_anim::gltf::IssueCollector& issues) {
#ifdef MISSPELT
  issues.add("UNUSED_OBJETC", "/animations/0/samplers/1");
#else
  issues.add("UNUSED_OBJECT", "/animations/0/samplers/1");
#endif
}
