// Address parsing and socket(2)/bind(2)/listen(2) with errors that say what went wrong.
#include "net/listen_socket.h"

#include <cerrno>
#include <charconv>
#include <cstring>

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace openloop::net {
namespace {

constexpr int k_backlog = 4096;

tl::unexpected<Error> bad_address(std::string_view what, std::string_view address) {
  return usage_error(
      fmt::format("{}: \"{}\" is not an address to listen on; use HOST:PORT with a numeric host or "
                  "localhost, e.g. 127.0.0.1:8080, [::1]:8080, or port 0 for any free port",
                  what, address));
}

std::string name_of(const sockaddr_storage& ss) {
  char host[INET6_ADDRSTRLEN] = {};
  if (ss.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(ss);
    inet_ntop(AF_INET6, &a.sin6_addr, host, sizeof host);
    return fmt::format("[{}]:{}", host, ntohs(a.sin6_port));
  }
  const auto& a = reinterpret_cast<const sockaddr_in&>(ss);
  inet_ntop(AF_INET, &a.sin_addr, host, sizeof host);
  return fmt::format("{}:{}", host, ntohs(a.sin_port));
}

// Fills ss from "HOST:PORT"; false when it is not one.
bool parse(std::string_view address, sockaddr_storage& ss, socklen_t& len) {
  const auto colon = address.rfind(':');
  if (colon == std::string_view::npos) return false;
  std::string host(address.substr(0, colon));
  const std::string_view port_text = address.substr(colon + 1);
  unsigned port = 0;
  auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || ptr != port_text.data() + port_text.size() || port > 65535) return false;
  if (host == "localhost" || host.empty()) host = "127.0.0.1";
  std::memset(&ss, 0, sizeof ss);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    auto& a = reinterpret_cast<sockaddr_in6&>(ss);
    a.sin6_family = AF_INET6;
    a.sin6_port = htons(static_cast<std::uint16_t>(port));
    len = sizeof a;
    return inet_pton(AF_INET6, host.substr(1, host.size() - 2).c_str(), &a.sin6_addr) == 1;
  }
  auto& a = reinterpret_cast<sockaddr_in&>(ss);
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  len = sizeof a;
  return inet_pton(AF_INET, host.c_str(), &a.sin_addr) == 1;
}

}  // namespace

Result<ListenSocket> ListenSocket::open(std::string_view address, std::string_view what) {
  sockaddr_storage ss{};
  socklen_t len = 0;
  if (!parse(address, ss, len)) return bad_address(what, address);
  const int fd = ::socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return runtime_error(fmt::format("{} {}: socket: {}", what, address, std::strerror(errno)));
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&ss), len) != 0 || ::listen(fd, k_backlog) != 0) {
    const int err = errno;
    ::close(fd);
    return runtime_error(fmt::format("{} {}: cannot listen: {}", what, address, std::strerror(err)));
  }
  sockaddr_storage bound{};
  socklen_t bound_len = sizeof bound;
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &bound_len);
  return ListenSocket(fd, name_of(bound));
}

ListenSocket::~ListenSocket() {
  if (m_fd >= 0) ::close(m_fd);
}

}  // namespace openloop::net
