// A blocking wait for one descriptor.
#include "net/fd_wait.h"

#include <algorithm>
#include <cerrno>

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include "net/errno_text.h"
#include "net/transport.h"

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

Result<void> connect_blocking(const std::vector<Endpoint>& endpoints, const std::string& host,
                              const TlsContext* tls, Transport& t, SteadyTime deadline) {
  std::string why = "no address";
  for (const Endpoint& ep : endpoints) {
    const int fd = tcp_connect_nonblocking(ep);
    if (fd < 0) {
      why = fmt::format("{}: {}", ep.to_string(), errno_text(-fd));
      continue;
    }
    const int err = wait_fd(fd, POLLOUT, deadline) ? tcp_connect_result(fd) : ETIMEDOUT;
    if (err != 0) {
      ::close(fd);
      why = fmt::format("{}: {}", ep.to_string(), errno_text(err));
      continue;
    }
    if (tls == nullptr) {
      t.attach_plain(fd);
      return {};
    }
    if (!t.attach_tls(fd, tls->get(), host)) return runtime_error(t.error_string());
    for (;;) {
      const IoResult r = t.handshake();
      if (r.status == IoStatus::ok) return {};
      if (r.status == IoStatus::error || r.status == IoStatus::closed)
        return runtime_error("TLS handshake failed: " + t.error_string());
      if (!wait_fd(t.fd(), r.status == IoStatus::want_write ? POLLOUT : POLLIN, deadline))
        return runtime_error("the TLS handshake timed out");
    }
  }
  return runtime_error(fmt::format("cannot connect: {}", why));
}

}  // namespace openloop::net
