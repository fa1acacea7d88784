// What took CPU away from the generator during a run: the hypervisor's steal (time this virtual machine's CPUs
// were runnable but the host ran something else, /proc/stat) and a thread's run delay (time it was runnable but
// waited for a CPU held by another thread or process, /proc/thread-self/schedstat). Either stalls a worker for
// milliseconds at a time, which shows as send lateness: the rig, not the target.
#pragma once

#include <optional>
#include <string_view>

#include "core/time.h"

namespace openloop {

/// The machine's CPU time over all CPUs, in clock ticks, from the first line of /proc/stat.
struct CpuTicks {
  double steal = 0;
  double total = 0;  ///< user + nice + system + idle + iowait + irq + softirq + steal
};

/// Parses the "cpu " line of /proc/stat's text; nullopt when it is missing or has fewer than 8 fields.
std::optional<CpuTicks> parse_cpu_ticks(std::string_view proc_stat);
/// /proc/stat now; nullopt where it cannot be read.
std::optional<CpuTicks> read_cpu_ticks();
/// The share of the machine's CPU time stolen between two readings (0 to 1); nullopt when no time passed.
std::optional<double> steal_share(const CpuTicks& before, const CpuTicks& after);

/// Parses a schedstat text ("run_ns wait_ns timeslices"): the wait, i.e. the run delay.
std::optional<Nanos> parse_run_delay(std::string_view schedstat);
/// The calling thread's run delay so far (/proc/thread-self/schedstat); nullopt where the kernel lacks it.
std::optional<Nanos> thread_run_delay();

}  // namespace openloop
