// The system calls the wasm build lacks (see include/linux/openat2.h): emscripten implements
// POSIX calls by name, not the generic syscall(); every number answers ENOSYS, as a kernel
// without that call does, and the callers take their fallback.
#include <linux/openat2.h>

#include <cerrno>

extern "C" long syscall(long /*number*/, ...) {
  errno = ENOSYS;
  return -1;
}
