// The calling thread's CPU time, exact (CLOCK_THREAD_CPUTIME_ID): getrusage's user/system split is adjusted to
// stay monotonic and can stand still over a short stretch, so short bursts are timed with this.
#pragma once

#include <time.h>

#include "core/time.h"

namespace openloop {

inline Nanos thread_cpu_time() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return Nanos(ts.tv_sec * 1'000'000'000LL + ts.tv_nsec);
}

}  // namespace openloop
