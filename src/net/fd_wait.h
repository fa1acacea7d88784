// A blocking wait for one descriptor, for the blocking exchanges outside the event loop (the lab's control
// client, a plan's setup and teardown steps).
#pragma once

#include "core/time.h"

namespace openloop::net {

/// Waits until `events` (poll(2)'s POLLIN, POLLOUT) on `fd`, or the deadline: false on timeout or a poll
/// error.
/// Waits in slices of at most a second, rounding the last one up so it never spins.
bool wait_fd(int fd, short events, SteadyTime deadline);

}  // namespace openloop::net
