// Connection state machine: non-blocking connect → (TLS handshake) → idle ⇄ busy; level-triggered epoll.
#include "engine/connection.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <unistd.h>

namespace openloop::engine {

using results::ErrorKind;

namespace {
// Reads per readiness event at most (each up to the worker's read buffer, 64 KiB): a peer that sends faster
// than the worker reads (an endless body) must not keep the worker in one connection's read loop, where no
// deadline is checked and no other connection is served. Epoll is level-triggered, so the rest is read on the
// next loop round. (TLS: SSL_read returns at most one record, 16 KiB, so no plaintext is left buffered inside
// OpenSSL, unseen by epoll, when the loop stops.)
constexpr int k_max_reads_per_event = 16;
}  // namespace

Connection::Connection(ConnectionOwner& owner, net::EventLoop& loop, const ConnectionConfig& config)
    : m_owner(owner), m_loop(loop), m_config(config) {
  if (config.capture_retry_after) m_parser.capture_retry_after(true);
  if (config.capture_server_timing) m_parser.capture_server_timing(true, config.server_timing_metric);
  m_transport.stamp_receipts(config.stamp_receipts);
}

bool Connection::open() {
  m_errno = 0;
  m_reason = "";
  m_failed = ErrorKind::connect;
  m_connect_done = m_ready_done = false;  // a new socket: none of its setup is done yet
  const int fd = m_loop.connect(*m_config.endpoint);
  if (fd < 0) {
    m_errno = -fd;
    return false;
  }
  m_fd = fd;
  m_opened = m_loop.now();  // once per connection: the connect phase starts here
  ++*m_config.open_count;
  m_state = State::connecting;
  m_fresh = true;
  m_events = EPOLLOUT | EPOLLRDHUP;
  if (!m_loop.add(fd, m_events, this)) {
    m_errno = errno;
    m_loop.close_socket(fd);
    --*m_config.open_count;
    m_fd = -1;
    m_state = State::closed;
    return false;
  }
  return true;
}

std::string Connection::error_string() const {
  if (m_failed == ErrorKind::tls) return m_transport.error_string();
  if (m_errno == 0) return *m_reason != '\0' ? m_reason : "unknown error";
  char buf[128];
  return strerror_r(m_errno, buf, sizeof buf);  // GNU: thread-safe, returns the message
}

ErrorKind Connection::open_failure() const {
  switch (m_errno) {
    case EMFILE:
    case ENFILE:
    case ENOBUFS:
    case ENOMEM:
    case ENOSPC:  // epoll_ctl: the user's epoll watch limit
    case EADDRNOTAVAIL:
    case EAGAIN:  // connect: no local port left
      return ErrorKind::generator;
    default:
      return ErrorKind::connect;
  }
}

void Connection::watch(std::uint32_t events) {
  if (events == m_events || m_fd < 0) return;
  m_events = events;
  m_loop.modify(m_fd, events, this);
}

void Connection::assign(const InFlight& request) {
  m_request = request;
  m_has_request = true;
  m_written = 0;
  m_bytes_in = 0;
  m_parser.reset(request.head, m_fresh);
  m_first_byte_seen = false;
  m_first_request = m_fresh;
  if (m_state == State::idle) {
    m_sent = request.attempt_start;  // the worker read the clock just before: no read of our own
    m_state = State::busy;
    send();
  }
}

void Connection::close() {
  if (m_fd >= 0) {
    m_loop.remove(m_fd);
    if (m_state == State::connecting) {
      m_loop.close_socket(m_fd);
    } else {
      m_transport.close();
    }
    --*m_config.open_count;
  }
  m_fd = -1;
  m_events = 0;
  m_state = State::closed;
  m_has_request = false;
  m_fresh = true;
}

void Connection::fail(ErrorKind kind) {
  m_failed = kind;
  const bool had_request = m_has_request;
  close();
  m_owner.on_failure(*this, kind, had_request);
}

void Connection::on_io(std::uint32_t events) {
  switch (m_state) {
    case State::closed:
      return;  // stale event for a connection closed earlier in this poll round
    case State::connecting: {
      // Only writability (or an error) completes a connect; anything else is a stale event for an earlier
      // socket that used this connection object in the same poll round.
      if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) == 0) return;
      const int err = m_loop.connect_result(m_fd);
      if (err != 0) {
        m_errno = err;
        fail(ErrorKind::connect);
        return;
      }
      m_connected = m_loop.now();
      m_connect_done = true;
      on_connected();
      return;
    }
    case State::handshaking:
      continue_handshake();
      return;
    case State::idle:
      // Readable while idle: the server closed the connection (or sent bytes nobody asked for).
      receive();
      return;
    case State::busy:
      if ((events & EPOLLOUT) != 0 && m_written < m_request.bytes.size()) send();
      if (m_state == State::busy && (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) receive();
      return;
  }
}

void Connection::on_connected() {
  if (m_config.tls != nullptr && m_loop.simulated_network() == nullptr) {
    if (!m_transport.attach_tls(m_fd, m_config.tls, std::string(m_config.host))) {
      m_state = State::handshaking;  // the transport owns the fd now
      fail(ErrorKind::tls);
      return;
    }
    m_state = State::handshaking;
    continue_handshake();
    return;
  }
  if (net::SimulatedNetwork* sim = m_loop.simulated_network()) {
    m_transport.attach_simulated(m_fd, *sim);
  } else {
    m_transport.attach_plain(m_fd);
  }
  m_ready = m_connected;
  m_ready_done = true;
  become_ready();
}

void Connection::become_ready() {
  m_state = State::idle;
  watch(EPOLLIN | EPOLLRDHUP);
  if (m_has_request) {
    m_sent = m_ready;
    m_state = State::busy;
    send();
  } else {
    m_owner.on_ready(*this);
  }
}

void Connection::continue_handshake() {
  const net::IoResult r = m_transport.handshake();
  switch (r.status) {
    case net::IoStatus::ok:
      m_ready = m_loop.now();
      m_ready_done = true;
      become_ready();
      return;
    case net::IoStatus::want_read:
      watch(EPOLLIN | EPOLLRDHUP);
      return;
    case net::IoStatus::want_write:
      watch(EPOLLOUT | EPOLLRDHUP);
      return;
    case net::IoStatus::closed:
    case net::IoStatus::error:
      m_errno = m_transport.last_errno();
      fail(ErrorKind::tls);
      return;
  }
}

void Connection::send() {
  const std::string_view bytes = m_request.bytes;
  const bool first = m_written == 0;
  const net::IoResult r = m_transport.write(bytes.data() + m_written, bytes.size() - m_written);
  if (r.status == net::IoStatus::ok) {
    m_written += r.bytes;
    if (first) m_owner.on_sent(*this, bytes.size());
    watch(m_written < bytes.size() ? (EPOLLIN | EPOLLOUT | EPOLLRDHUP) : (EPOLLIN | EPOLLRDHUP));
    return;
  }
  if (r.status == net::IoStatus::want_write || r.status == net::IoStatus::want_read) {
    watch(EPOLLIN | EPOLLOUT | EPOLLRDHUP);
    return;
  }
  m_errno = m_transport.last_errno();
  fail(m_errno == ECONNRESET || m_errno == EPIPE ? ErrorKind::reset : ErrorKind::write);
}

void Connection::receive() {
  for (int reads = 0; reads < k_max_reads_per_event; ++reads) {
    const net::IoResult r = m_transport.read(m_config.read_buffer, m_config.read_buffer_size);
    switch (r.status) {
      case net::IoStatus::ok: {
        m_bytes_in += r.bytes;
        if (!m_has_request) {  // bytes nobody asked for: protocol violation, drop the connection quietly
          m_reason = "bytes received while no request was outstanding";
          fail(ErrorKind::parse);
          return;
        }
        const auto st = m_parser.feed(m_config.read_buffer, r.bytes);
        if (st == http::ResponseParser::State::error) {
          m_reason = m_parser.error_reason();
          fail(ErrorKind::parse);
          return;
        }
        if (st == http::ResponseParser::State::complete) {
          const bool keep = m_parser.keep_alive() && m_parser.trailing_bytes() == 0;
          const SteadyTime now = m_transport.received_at(m_loop.now());
          if (!m_first_byte_seen) {  // the whole response in one read: first byte = last (no extra read)
            m_first_byte = now;
            m_first_byte_seen = true;
          }
          m_has_request = false;
          m_fresh = false;
          if (keep) {
            m_state = State::idle;
          } else {
            close();
          }
          m_owner.on_response(*this, now, m_parser.status(), m_bytes_in);
          return;
        }
        if (!m_first_byte_seen) {  // the response spans several reads: its first byte needs a time of its own
          m_first_byte = m_transport.received_at(m_loop.now());
          m_first_byte_seen = true;
        }
        // Plain TCP: a short read means the socket is drained; wait for the next readiness event.
        if (!m_transport.is_tls() && r.bytes < m_config.read_buffer_size) return;
        continue;
      }
      case net::IoStatus::want_read:
        return;
      case net::IoStatus::want_write:
        watch(EPOLLIN | EPOLLOUT | EPOLLRDHUP);
        return;
      case net::IoStatus::closed: {
        if (!m_has_request) {  // idle keep-alive connection closed by the server: not an error
          fail(ErrorKind::reset);
          return;
        }
        if (m_parser.finish() == http::ResponseParser::State::complete) {
          const SteadyTime now = m_transport.received_at(m_loop.now());
          if (!m_first_byte_seen) {
            m_first_byte = now;
            m_first_byte_seen = true;
          }
          m_has_request = false;
          close();
          m_owner.on_response(*this, now, m_parser.status(), m_bytes_in);
          return;
        }
        m_reason = m_parser.error_reason();  // closed before a response, or inside one
        fail(m_bytes_in == 0 ? ErrorKind::reset : ErrorKind::read);
        return;
      }
      case net::IoStatus::error:
        m_errno = m_transport.last_errno();
        fail(m_errno == ECONNRESET ? ErrorKind::reset : ErrorKind::read);
        return;
    }
  }
}

results::AttemptPhases Connection::phases(SteadyTime done) const {
  // A response has passed every phase before the body: those are the phases reached, plus the body.
  results::AttemptPhases p = reached_phases();
  p[results::Phase::body] = std::max<std::int64_t>(0, (done - m_first_byte).count());
  return p;
}

results::AttemptPhases Connection::reached_phases() const {
  using results::Phase;
  results::AttemptPhases p;
  p.new_connection = m_first_request;
  if (m_first_request && m_connect_done) {
    p[Phase::connect] = (m_connected - m_opened).count();
    if (m_transport.is_tls() && m_ready_done) p[Phase::tls] = (m_ready - m_connected).count();
  }
  if (m_first_byte_seen) p[Phase::ttfb] = std::max<std::int64_t>(0, (m_first_byte - m_sent).count());
  return p;
}

}  // namespace openloop::engine
