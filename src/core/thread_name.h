// A name for the calling thread, as top -H, ps -L, perf and /proc/PID/task/TID/comm show it, so a user (or a
// bench) can tell a worker from the coordinator and pin or watch each.
#pragma once

#include <string>

namespace openloop {

/// Names the calling thread; Linux keeps the first 15 bytes. Failure is ignored: a name is a convenience.
void name_this_thread(const std::string& name);

}  // namespace openloop
