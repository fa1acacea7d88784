// A blocking wait for one descriptor.
#include "net/fd_wait.h"

#include <algorithm>
#include <cerrno>

#include <poll.h>

namespace openloop::net {

bool wait_fd(int fd, short events, SteadyTime deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count() + 1, 1000)));
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) return false;
  }
}

}  // namespace openloop::net
