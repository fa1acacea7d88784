// A listening TCP socket (the lab's, the metrics endpoint's): parsing "HOST:PORT", binding (port 0 = any free
// port), and naming what was bound.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"

namespace openloop::net {

/// A bound, listening, non-blocking TCP socket. Owns the fd.
class ListenSocket {
 public:
  /// Parses `address` ("127.0.0.1:8080", "[::1]:0", "localhost:0"; only numeric addresses and localhost),
  /// binds with SO_REUSEADDR and listens. A bad address is a usage error naming `what` (e.g. "--listen");
  /// a failure to bind or listen is a runtime error.
  static Result<ListenSocket> open(std::string_view address, std::string_view what);
  ListenSocket(ListenSocket&& other) noexcept : m_fd(other.m_fd), m_name(std::move(other.m_name)) {
    other.m_fd = -1;
  }
  ListenSocket& operator=(ListenSocket&&) = delete;
  ListenSocket(const ListenSocket&) = delete;
  ~ListenSocket();

  int fd() const { return m_fd; }
  /// The address actually bound, "HOST:PORT" with the real port (IPv6 as "[addr]:port").
  const std::string& name() const { return m_name; }

 private:
  ListenSocket(int fd, std::string name) : m_fd(fd), m_name(std::move(name)) {}
  int m_fd = -1;
  std::string m_name;
};

}  // namespace openloop::net
