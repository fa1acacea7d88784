#include "core/thread_priority.h"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

namespace openloop {

LowPriority lower_this_thread_priority() {
  const sched_param none{};
  if (sched_setscheduler(0, SCHED_IDLE, &none) == 0) return LowPriority::idle;
  if (setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19) == 0) return LowPriority::nice19;
  return LowPriority::unchanged;
}

}  // namespace openloop
