// The lowest CPU priority for a helper thread (coordinator, metrics endpoint) that may share a core
// with a worker: the worker preempts it whenever it wakes.
#pragma once

namespace openloop {

/// What lower_this_thread_priority() obtained.
enum class LowPriority { idle, nice19, unchanged };

/// Puts the calling thread (only it: on Linux the policy and nice value are per thread) under SCHED_IDLE,
/// which a waking normal thread always preempts; where that is refused, nice 19 (under EEVDF a waking thread
/// may wait up to the nice-19 thread's slice, a few ms). Threads the caller creates afterwards inherit the
/// result, so only call it on a thread of its own that starts no workers.
LowPriority lower_this_thread_priority();

}  // namespace openloop
