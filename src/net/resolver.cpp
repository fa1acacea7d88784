// getaddrinfo wrapper producing Endpoints, and their printable form.
#include "net/resolver.h"

#include <cstring>
#include <memory>

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>

#include "net/errno_text.h"

namespace openloop::net {

std::string Endpoint::to_string() const {
  char buf[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    const auto* sin = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &sin->sin_addr, buf, sizeof buf);
    return fmt::format("{}:{}", buf, ntohs(sin->sin_port));
  }
  if (addr.ss_family == AF_INET6) {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &sin6->sin6_addr, buf, sizeof buf);
    return fmt::format("[{}]:{}", buf, ntohs(sin6->sin6_port));
  }
  return fmt::format("<address family {}>", addr.ss_family);
}

Result<std::vector<Endpoint>> resolve(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_protocol = IPPROTO_TCP;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* list = nullptr;
  const std::string service = std::to_string(port);
  const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
  if (rc != 0) {
    const std::string reason = rc == EAI_SYSTEM ? errno_text(errno) : std::string(gai_strerror(rc));
    return runtime_error(fmt::format("DNS: cannot resolve host '{}': {}", host, reason));
  }
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owner(list, &freeaddrinfo);
  std::vector<Endpoint> out;
  for (const addrinfo* ai = list; ai != nullptr; ai = ai->ai_next) {
    if (ai->ai_addrlen > sizeof(sockaddr_storage)) continue;
    if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6) continue;
    Endpoint ep;
    std::memcpy(&ep.addr, ai->ai_addr, ai->ai_addrlen);
    ep.addr_len = ai->ai_addrlen;
    bool duplicate = false;
    for (const auto& seen : out) {
      duplicate =
          duplicate || (seen.addr_len == ep.addr_len && std::memcmp(&seen.addr, &ep.addr, ep.addr_len) == 0);
    }
    if (!duplicate) out.push_back(ep);
  }
  if (out.empty()) return runtime_error(fmt::format("DNS: host '{}' has no IPv4 or IPv6 address", host));
  return out;
}

}  // namespace openloop::net
