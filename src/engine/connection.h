// One client connection: connect, TLS handshake, then a codec (engine/codec.h) carries exchanges over it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"
#include "engine/codec.h"
#include "engine/exchange.h"
#include "engine/http1_codec.h"
#include "engine/http2_codec.h"
#include "net/event_loop.h"
#include "net/resolver.h"
#include "net/transport.h"
#include "results/recording/counters.h"
#include "results/recording/phase_stats.h"

namespace openloop::engine {

class Connection;

/// The pool side of a connection: told when it can take work and when it was lost while carrying none.
/// (What happens to exchanges goes to CodecCallbacks.)
class ConnectionOwner {
 public:
  /// A connection became ready (connected and, for TLS, handshaken) with no exchange waiting for it.
  virtual void on_ready(Connection& c) = 0;
  /// The connection closed (the server closed an idle keep-alive connection, or sent bytes nobody asked for)
  /// while it carried no exchange. It is closed.
  virtual void on_closed_idle(Connection& c) = 0;

 protected:
  ~ConnectionOwner() = default;
};

/// Fixed per-worker settings shared by its connections.
struct ConnectionConfig {
  const net::Endpoint* endpoint = nullptr;
  SSL_CTX* tls = nullptr;       ///< null for plain HTTP
  std::string_view host;        ///< for SNI and certificate verification
  char* read_buffer = nullptr;  ///< shared by the worker's connections (reads are synchronous)
  std::size_t read_buffer_size = 0;
  std::uint64_t* open_count = nullptr;  ///< the worker's count of open sockets (connecting or connected)
  /// The worker's count of connections that became ready, by the protocol they speak (null: not counted).
  std::array<std::uint64_t, k_protocols>* ready_count = nullptr;
  CodecCallbacks* callbacks = nullptr;  ///< where every codec reports (the worker)
  /// The protocol spoken without TLS, or with TLS when the server chose none by ALPN.
  Protocol protocol = Protocol::http1;
  /// What the TLS context offers by ALPN (RunPlan::alpn_offer()): a server's choice outside it fails the
  /// connection.
  std::span<const std::string_view> alpn_offered;
  Http1Settings http1;  ///< what the HTTP/1.1 codec reads from responses
  Http2Settings http2;  ///< what the HTTP/2 codec asks of its peer and reads from responses
  /// Exchanges that may wait for the connection to become ready: 1 (HTTP/1.1, and TLS before ALPN has
  /// chosen); HTTP/2 by prior knowledge: its streams before the peer's SETTINGS
  /// (min(--max-streams, k_h2_initial_peer_streams), lowered to Http2Settings::lowest_peer_streams).
  std::uint32_t slots_before_ready = 1;
  /// A response completes when the kernel received its last bytes, not when the worker read them
  /// (--coalesce: the worker sleeps while responses come in).
  bool stamp_receipts = false;
  /// Where a ready HTTP/2 connection puts itself when start() leaves its frames unwritten, for the owner to
  /// write them with write_deferred() before its loop waits: every stream started in one loop round goes out
  /// in one write (system call), not one each. Null: start() writes at once (HTTP/1.1 always does).
  std::vector<Connection*>* deferred_writes = nullptr;
};

/// State machine over one socket, driven by the worker's event loop; owns the codec that carries exchanges
/// once it is ready. Allocation-free after open(); never throws.
class Connection final : public net::IoHandler, private CodecHost {
 public:
  enum class State : std::uint8_t { closed, connecting, handshaking, ready };

  Connection(ConnectionOwner& owner, net::EventLoop& loop, const ConnectionConfig& config);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Starts connecting (closed → connecting). Returns false when the socket could not even be started; the
  /// caller accounts the failure as open_failure() (errno is kept in last_errno()).
  bool open();
  /// How many more exchanges can start now: before it is ready, one (HTTP/1.1: the exchange waits for the
  /// connection); once ready, its codec's free slots.
  std::uint32_t free_slots() const;
  /// Starts an exchange (precondition: free_slots() > 0): written at once when ready (by write_deferred()
  /// when defers_writes()), once ready otherwise. The caller read the clock at x.attempt_start just before
  /// (the phase stamps reuse it).
  void start(Exchange& x);
  /// True when start() would leave the exchange's bytes for write_deferred() (ready, HTTP/2, and the config
  /// has a deferred_writes list).
  bool defers_writes() const {
    return m_state == State::ready && m_config.deferred_writes != nullptr && m_codec == &m_http2;
  }
  /// Writes what start() left unwritten (nothing when the connection closed meanwhile).
  void write_deferred();
  /// The size of x's request on the wire (its codec's, or before the connection is ready the configured
  /// protocol's).
  std::size_t request_size(const Exchange& x) const {
    if (m_codec != nullptr) return m_codec->request_size(x);
    return m_config.protocol == Protocol::http2 ? m_http2.request_size(x) : m_http1.request_size(x);
  }
  /// Gives up on an exchange it carries, reporting nothing (the caller accounts for it): HTTP/1.1 closes the
  /// connection; HTTP/2 resets the stream only.
  void cancel(Exchange& x);
  /// Closes the socket; every exchange it carries is forgotten (the caller accounted for them).
  void close();
  /// Why exchange x, started on this connection, is held back by its protocol (Codec::stall_reason), else "".
  const char* stall_reason(const Exchange& x) const {
    return m_codec != nullptr && m_waiting == nullptr ? m_codec->stall_reason(x) : "";
  }
  /// True while an exchange is started on it or waiting for it to be ready.
  bool carries_exchange() const;

  void on_io(std::uint32_t events) override;

  State state() const { return m_state; }
  /// The protocol of the codec in use (meaningful once ready): over TLS the server's ALPN choice when it made
  /// one, else the configured protocol.
  Protocol protocol() const { return m_codec != nullptr ? m_codec->protocol() : m_config.protocol; }
  /// The phases of exchange `x`, which completed at `done`. On the first exchange a socket carries
  /// (x.new_connection), the connection's setup: connect (open → connected) and, for TLS, the handshake
  /// (connected → ready), whether the exchange waited for them or the connection was opened ahead
  /// (pre-warm). For every exchange: time to first byte from its write start, body from the first byte to
  /// `done`.
  results::AttemptPhases phases(const Exchange& x, SteadyTime done) const;
  /// The phases exchange `x` reached when it ends without a response (a failure, or cut at its deadline): on
  /// a new connection, connect and TLS when they completed; time to first byte when a first byte arrived;
  /// never body. All −1 when nothing completed (e.g. the connect failed). Valid after close() too, until the
  /// next open().
  results::AttemptPhases reached_phases(const Exchange& x) const;
  int last_errno() const { return m_errno; }
  /// The kind of the last open() failure: generator when this process ran out of its own resources (file
  /// descriptors, memory, local ports: EMFILE, ENFILE, ENOBUFS, ENOMEM, EADDRNOTAVAIL, ...), connect
  /// otherwise.
  results::ErrorKind open_failure() const;
  /// Why the connection last failed, for the report's one example per error kind (builds a string: call once
  /// per kind, not per event): TLS's reason, the errno's text, or ours ("connection closed before a response
  /// was received", llhttp's "Expected HTTP/", a server's ALPN choice that was not offered, ...).
  std::string error_string() const;

  std::uint32_t id = 0;      ///< index in the worker's connections
  std::int32_t holder = -1;  ///< the user holding this connection between requests, −1 when pooled

 private:
  // CodecHost
  SteadyTime receipt_time() override;
  void close_transport() override;

  void on_connected();
  void become_ready();
  Codec* choose_codec();
  void continue_handshake();
  void send();
  void receive();
  void read_some();
  void fail(results::ErrorKind kind);
  void close_socket();
  void watch(std::uint32_t events);

  ConnectionOwner& m_owner;
  net::EventLoop& m_loop;
  const ConnectionConfig& m_config;
  net::Transport m_transport;
  Http1Codec m_http1;
  Http2Codec m_http2;
  Codec* m_codec = nullptr;       // the codec in use while ready (chosen by become_ready), else null
  Exchange* m_waiting = nullptr;  // exchanges started before the connection was ready (carrier_next list)
  std::uint32_t m_waiting_count = 0;
  State m_state = State::closed;
  int m_fd = -1;
  std::uint32_t m_events = 0;
  bool m_fresh = true;  // no exchange started on this socket yet
  bool m_write_deferred = false;  // in m_config.deferred_writes, not yet written
  int m_errno = 0;
  const char* m_reason = "";                                  // a failure without an errno (a static string)
  results::ErrorKind m_failed = results::ErrorKind::connect;  // the kind of the last failure
  // A server's ALPN choice that was not offered (the last failure's, cut to fit; empty: none).
  std::array<char, 32> m_refused_alpn{};
  std::size_t m_refused_alpn_len = 0;
  // Phase edges of the socket (steady clock). Clock reads are taken only at edges no other code reads: open,
  // connect and handshake completion (once per connection); an exchange's write start reuses the worker's
  // dispatch time (ready connection) or the ready time.
  SteadyTime m_opened{}, m_connected{}, m_ready{};
  bool m_connect_done = false, m_ready_done = false;  // this socket connected / finished its handshake
};

}  // namespace openloop::engine
