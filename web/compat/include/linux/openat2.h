#pragma once
// <linux/openat2.h> for the wasm build (web/cmake/wasm.cmake puts it on em++'s include path).
// Emscripten has no openat2 system call: the constants and structure are the kernel's, and
// syscall() answers ENOSYS (posix_compat.cpp), so the loader takes its path for kernels
// before 5.6: the caller's canonical-path check, the last component not a link.
#include <stdint.h>

struct open_how {
  uint64_t flags;
  uint64_t mode;
  uint64_t resolve;
};

#define RESOLVE_NO_XDEV 0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#define RESOLVE_BENEATH 0x08
#define RESOLVE_IN_ROOT 0x10
#define RESOLVE_CACHED 0x20

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

// musl declares syscall() in <unistd.h>; emscripten's copy leaves it out.
#ifdef __cplusplus
extern "C" long syscall(long number, ...);
#else
long syscall(long number, ...);
#endif
