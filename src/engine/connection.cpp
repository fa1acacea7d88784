// Connection state machine: non-blocking connect → (TLS handshake) → ready, its codec carrying exchanges;
// level-triggered epoll.
#include "engine/connection.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

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
    : m_owner(owner),
      m_loop(loop),
      m_config(config),
      m_http1(*this, *config.callbacks, config.http1),
      m_http2(*this, *config.callbacks, config.http2) {
  m_transport.stamp_receipts(config.stamp_receipts);
}

bool Connection::open() {
  m_errno = 0;
  m_reason = "";
  m_failed = ErrorKind::connect;
  m_refused_alpn_len = 0;
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
  if (m_failed == ErrorKind::tls && m_refused_alpn_len > 0) {
    const std::string_view chosen(m_refused_alpn.data(), m_refused_alpn_len);
    bool was_offered = false;
    std::string offered;
    for (const std::string_view offer : m_config.alpn_offered) {
      was_offered = was_offered || offer == chosen;
      if (!offered.empty()) offered += ", ";
      offered += offer;
    }
    return "TLS: the server chose ALPN protocol '" + std::string(chosen) + "', which " +
           (was_offered ? "this client has no codec for" : "was not offered") +
           " (offered: " + (offered.empty() ? "none" : offered) + ")";
  }
  if (m_failed == ErrorKind::tls) {
    std::string e = m_transport.error_string();
    // The server refused every protocol offered by ALPN (RFC 7301's no_application_protocol alert):
    // --protocol h2 at a server speaking only http/1.1 over TLS, or h1 at an h2-only one. auto offers both.
    if (e.find("no application protocol") != std::string::npos && m_config.alpn_offered.size() == 1) {
      const std::string_view offered = m_config.alpn_offered.front();
      e += " (the server speaks none of the protocols offered by ALPN: " + std::string(offered) +
           "; use --protocol auto to let it choose, or --protocol " + (offered == "h2" ? "h1" : "h2") + ")";
    }
    return e;
  }
  if (m_errno == 0) {
    if (*m_reason != '\0') return m_reason;
    // A stream's failure on a connection that stays open (an HTTP/2 reset): the codec's reason.
    if (m_codec != nullptr && *m_codec->failure_reason() != '\0') return m_codec->failure_reason();
    return "unknown error";
  }
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

std::uint32_t Connection::free_slots() const {
  if (m_codec != nullptr) return m_codec->free_slots();
  // Not ready: HTTP/1.1's one exchange waits for it; HTTP/2 by prior knowledge, its initial streams (no more
  // than the server granted the worker's other connections).
  std::uint32_t before = m_config.slots_before_ready;
  if (const std::uint32_t* lowest = m_config.http2.lowest_peer_streams; before > 1 && lowest != nullptr)
    before = std::max<std::uint32_t>(1, std::min(before, *lowest));
  return m_waiting_count < before ? before - m_waiting_count : 0;
}

bool Connection::carries_exchange() const {
  return m_waiting != nullptr || (m_codec != nullptr && m_codec->busy());
}

void Connection::start(Exchange& x) {
  x.connection = this;
  x.carrier_id = id + 1;
  x.stream_id = 0;
  x.carrier_next = nullptr;
  x.new_connection = m_fresh;
  x.first_byte_seen = false;
  m_fresh = false;
  if (m_state == State::ready) {
    x.write_start = x.attempt_start;  // the worker read the clock just before: no read of our own
    m_codec->start(x);
    if (defers_writes()) {
      if (!m_write_deferred) m_config.deferred_writes->push_back(this);
      m_write_deferred = true;
      return;
    }
    send();
    return;
  }
  Exchange** tail = &m_waiting;
  while (*tail != nullptr) tail = &(*tail)->carrier_next;
  *tail = &x;
  ++m_waiting_count;
}

void Connection::write_deferred() {
  m_write_deferred = false;
  if (m_state == State::ready) send();
}

void Connection::cancel(Exchange& x) {
  if (m_codec != nullptr && m_waiting == nullptr) {
    m_codec->cancel(x);
    if (m_state == State::ready && !m_codec->output().empty()) send();  // an HTTP/2 stream's RST_STREAM
    return;
  }
  close();  // not ready yet: the setup it waits for served only it (HTTP/1.1)
}

void Connection::close_socket() {
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
  m_codec = nullptr;
  m_fresh = true;
}

void Connection::close() {
  m_waiting = nullptr;
  m_waiting_count = 0;
  if (m_codec != nullptr) m_codec->detach_all();
  close_socket();
}

void Connection::close_transport() {
  close_socket();
}

SteadyTime Connection::receipt_time() {
  return m_transport.received_at(m_loop.now());
}

void Connection::fail(ErrorKind kind) {
  m_failed = kind;
  // Every exchange on the connection fails with it. They are taken off the connection before any is
  // reported: a callback may start a new exchange on this connection.
  Exchange* failed = std::exchange(m_waiting, nullptr);
  m_waiting_count = 0;
  if (m_codec != nullptr) {
    Exchange* started = m_codec->detach_all();
    if (started != nullptr) {
      Exchange* last = started;
      while (last->carrier_next != nullptr) last = last->carrier_next;
      last->carrier_next = failed;
      failed = started;
    }
  }
  close_socket();
  if (failed == nullptr) {
    m_owner.on_closed_idle(*this);
    return;
  }
  const ExchangeError error{kind, kind == ErrorKind::connect};
  while (failed != nullptr) {
    Exchange& x = *std::exchange(failed, failed->carrier_next);
    x.carrier_next = nullptr;
    m_config.callbacks->on_error(x, error);
  }
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
    case State::ready:
      // Output first (HTTP/2 writes frames while no exchange is busy: its preface, acks). Readable with no
      // exchange: the server closed the connection, sent bytes nobody asked for (HTTP/1.1) or frames of
      // its own (HTTP/2); the codec tells.
      if ((events & EPOLLOUT) != 0 && !m_codec->output().empty()) send();
      if (m_state == State::ready &&
          (!m_codec->busy() || (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0))
        receive();
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

// The codec: the server's ALPN choice over TLS when it made one, else the configured protocol. Null when the
// server chose a protocol that was not offered (only a broken server does; OpenSSL may already refuse it).
Codec* Connection::choose_codec() {
  Protocol protocol = m_config.protocol;
  if (const std::string_view chosen = m_transport.alpn(); !chosen.empty()) {
    const std::optional<Protocol> p = alpn_choice(chosen, m_config.alpn_offered);
    if (!p) {
      m_refused_alpn_len = std::min(chosen.size(), m_refused_alpn.size());
      std::copy_n(chosen.data(), m_refused_alpn_len, m_refused_alpn.data());
      return nullptr;
    }
    protocol = *p;
  }
  switch (protocol) {
    case Protocol::http1:
      m_http1.reset();
      return &m_http1;
    case Protocol::http2:
      m_http2.reset();
      return &m_http2;
  }
  return nullptr;
}

void Connection::become_ready() {
  m_codec = choose_codec();
  if (m_codec == nullptr) {
    fail(ErrorKind::tls);
    return;
  }
  m_state = State::ready;
  if (m_config.ready_count != nullptr) ++(*m_config.ready_count)[static_cast<std::size_t>(m_codec->protocol())];
  watch(EPOLLIN | EPOLLRDHUP);
  if (m_waiting == nullptr) {
    send();  // HTTP/2: its preface and SETTINGS
    if (m_state == State::ready) m_owner.on_ready(*this);
    return;
  }
  while (m_waiting != nullptr && m_codec->can_start()) {
    Exchange& x = *std::exchange(m_waiting, m_waiting->carrier_next);
    x.carrier_next = nullptr;
    --m_waiting_count;
    x.write_start = m_ready;
    m_codec->start(x);
  }
  send();
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
  const std::string_view bytes = m_codec->output();
  if (bytes.empty()) return;
  const net::IoResult r = m_transport.write(bytes.data(), bytes.size());
  if (r.status == net::IoStatus::ok) {
    m_codec->wrote(r.bytes);  // may report on_sent
    watch(m_codec->output().empty() ? (EPOLLIN | EPOLLRDHUP) : (EPOLLIN | EPOLLOUT | EPOLLRDHUP));
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
  // Streams started in this round and not yet written (write_deferred) go out before anything is read: a GOAWAY
  // or a reset read now must find their requests sent, as they would have been without the deferral.
  if (!m_codec->output().empty()) {
    send();
    if (m_state != State::ready) return;
  }
  read_some();
  // What reading made due (HTTP/2: acks, window updates, streams started by the callbacks).
  if (m_state == State::ready && !m_codec->output().empty()) send();
}

void Connection::read_some() {
  for (int reads = 0; reads < k_max_reads_per_event; ++reads) {
    const net::IoResult r = m_transport.read(m_config.read_buffer, m_config.read_buffer_size);
    switch (r.status) {
      case net::IoStatus::ok: {
        const Codec::Feed fed = m_codec->on_data(m_config.read_buffer, r.bytes);
        if (fed == Codec::Feed::failed) {
          m_reason = m_codec->failure_reason();
          fail(m_codec->failure_kind());
          return;
        }
        if (fed == Codec::Feed::done) return;
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
        if (m_codec->on_eof() == Codec::Feed::done) return;
        m_reason = m_codec->failure_reason();
        fail(m_codec->failure_kind());
        return;
      }
      case net::IoStatus::error:
        m_errno = m_transport.last_errno();
        fail(m_errno == ECONNRESET ? ErrorKind::reset : ErrorKind::read);
        return;
    }
  }
}

results::AttemptPhases Connection::phases(const Exchange& x, SteadyTime done) const {
  // A response has passed every phase before the body: those are the phases reached, plus the body.
  results::AttemptPhases p = reached_phases(x);
  p[results::Phase::body] = std::max<std::int64_t>(0, (done - x.first_byte).count());
  return p;
}

results::AttemptPhases Connection::reached_phases(const Exchange& x) const {
  using results::Phase;
  results::AttemptPhases p;
  p.new_connection = x.new_connection;
  if (x.new_connection && m_connect_done) {
    p[Phase::connect] = (m_connected - m_opened).count();
    if (m_transport.is_tls() && m_ready_done) p[Phase::tls] = (m_ready - m_connected).count();
  }
  if (x.first_byte_seen) p[Phase::ttfb] = std::max<std::int64_t>(0, (x.first_byte - x.write_start).count());
  return p;
}

}  // namespace openloop::engine
