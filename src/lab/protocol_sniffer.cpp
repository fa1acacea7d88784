// Deciding an h2c lab connection's protocol from its first bytes, peeked, and handing the socket over.
#include "lab/protocol_sniffer.h"

#include <algorithm>
#include <array>
#include <cerrno>

#include <sys/socket.h>
#include <unistd.h>

namespace openloop::lab {
namespace {

constexpr std::string_view k_preface_start = "PRI ";

}  // namespace

FirstBytes classify_first_bytes(std::string_view first) {
  const std::size_t n = std::min(first.size(), k_preface_start.size());
  if (first.substr(0, n) == k_preface_start.substr(0, n)) {
    return n == k_preface_start.size() ? FirstBytes::http2 : FirstBytes::undecided;
  }
  const char c = first.front();  // not empty: the empty prefix matched above
  return c >= 'A' && c <= 'Z' ? FirstBytes::http1 : FirstBytes::other;
}

ProtocolSniffer::ProtocolSniffer(ConnectionHost& host, SniffSink& sink, std::uint32_t slot)
    : m_host(host), m_sink(sink), m_slot(slot) {}

void ProtocolSniffer::open(int fd) {
  m_fd = fd;
  ++m_generation;
  // Edge-triggered: the peeked bytes stay readable, so level-triggered epoll would report them again at once
  // while they leave the protocol undecided. Bytes already there when it is added are reported too.
  if (!m_host.loop().add(fd, EPOLLIN | EPOLLET, this)) return close();
  // No cancel: a timer outlives a decided socket and is ignored by its generation (as the connections' are).
  m_host.timers().schedule(m_host.now() + m_host.config().header_timeout, this, m_generation);
}

void ProtocolSniffer::close() {
  if (m_fd < 0) return;
  m_host.loop().remove(m_fd);
  ::close(m_fd);
  m_fd = -1;
  m_host.on_closed(m_slot);
}

void ProtocolSniffer::on_io(std::uint32_t /*events*/) {
  if (m_fd < 0) return;
  std::array<char, k_preface_start.size()> first{};
  ssize_t n = -1;
  do {
    n = ::recv(m_fd, first.data(), first.size(), MSG_PEEK);
  } while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
  if (n <= 0) return close();  // the client closed (or reset) before saying anything we could decide on
  const FirstBytes kind = classify_first_bytes(std::string_view(first.data(), static_cast<std::size_t>(n)));
  if (kind == FirstBytes::undecided) return;  // "P", "PR" or "PRI": wait for the next bytes
  const int fd = m_fd;
  m_host.loop().remove(fd);
  m_fd = -1;
  m_sink.on_sniffed(m_slot, fd, kind);
}

void ProtocolSniffer::on_timer(std::uint64_t cookie) {
  if (cookie != m_generation || m_fd < 0) return;  // an earlier socket's timer, or decided since
  ++m_host.counters().read_timeouts;
  close();
}

}  // namespace openloop::lab
