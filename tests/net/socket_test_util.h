// Test helpers for real loopback sockets: listeners, bounded waits and a driver for non-blocking Transport
// calls.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/resolver.h"
#include "net/transport.h"

namespace openloop::net::testing {

/// A blocking listening socket on 127.0.0.1 with a kernel-chosen port; closed on destruction.
struct Listener {
  int fd = -1;
  std::uint16_t port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in sin{};
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&sin), sizeof sin);
    ::listen(fd, 16);
    socklen_t len = sizeof sin;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&sin), &len);
    port = ntohs(sin.sin_port);
  }
  ~Listener() {
    if (fd >= 0) ::close(fd);
  }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  /// Accepts one connection within timeout_ms (-1 on timeout); the accepted fd is blocking with 5 s I/O
  /// timeouts.
  int accept_within(int timeout_ms) const {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) != 1) return -1;
    const int c = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (c >= 0) {
      timeval tv{5, 0};
      ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      ::setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    }
    return c;
  }
};

inline Endpoint loopback(std::uint16_t port) {
  Endpoint ep;
  auto* sin = reinterpret_cast<sockaddr_in*>(&ep.addr);
  sin->sin_family = AF_INET;
  sin->sin_port = htons(port);
  sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ep.addr_len = sizeof(sockaddr_in);
  return ep;
}

/// poll() for one fd; true when any of `events` (or an error/hangup) is ready within timeout_ms.
inline bool wait_for(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  return ::poll(&p, 1, timeout_ms) == 1;
}

/// Connects without blocking and waits (bounded) for the outcome: the fd, or -errno.
inline int connect_within(const Endpoint& ep, int timeout_ms) {
  const int fd = tcp_connect_nonblocking(ep);
  if (fd < 0) return fd;
  if (!wait_for(fd, POLLOUT, timeout_ms)) {
    ::close(fd);
    return -ETIMEDOUT;
  }
  const int err = tcp_connect_result(fd);
  if (err != 0) {
    ::close(fd);
    return -err;
  }
  return fd;
}

/// Repeats a non-blocking Transport call, waiting on want_read/want_write, until it returns anything else or
/// timeout_ms passes (then the last want_* result is returned).
template <class Op>
IoResult drive(Transport& t, Op op, int timeout_ms = 5000) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const IoResult r = op();
    if (r.status != IoStatus::want_read && r.status != IoStatus::want_write) return r;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return r;
    wait_for(t.fd(), r.status == IoStatus::want_read ? POLLIN : POLLOUT, static_cast<int>(left.count()));
  }
}

}  // namespace openloop::net::testing
