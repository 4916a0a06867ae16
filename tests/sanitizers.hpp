#pragma once
// GLTF_ANIM_TEST_ASAN is defined when the tests are built with AddressSanitizer
// (GCC defines __SANITIZE_ADDRESS__, clang has __has_feature). Tests that run
// children under an address-space limit or a CPU ceiling adjust to it: ASan's
// shadow memory needs terabytes of address space and slows everything 2-5x.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GLTF_ANIM_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(GLTF_ANIM_TEST_ASAN)
#define GLTF_ANIM_TEST_ASAN 1
#endif
