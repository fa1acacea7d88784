#include "core/malloc_policy.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace openloop {

bool keep_freed_memory() {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  // mallopt returns 1 on success. Setting either threshold also turns off glibc's dynamic adjustment of both.
  const bool trim = mallopt(M_TRIM_THRESHOLD, 1 << 30) == 1;
  const bool mmap = mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1;
  return trim && mmap;
#else
  return false;
#endif
}

}  // namespace openloop
