// What every /proc and /sys sampler needs: the file root and the kernel's units (injectable for tests).
#pragma once

#include "observe/file_root.h"

namespace openloop::observe {

struct ProcContext {
  FileRoot root;
  double ticks_per_s = 100;  ///< USER_HZ: /proc/*/stat and /proc/stat count CPU time in these
  double page_bytes = 4096;  ///< /proc/PID/stat rss and /proc/net/sockstat mem count pages
  /// The real system's values (sysconf).
  static ProcContext system();
};

}  // namespace openloop::observe
