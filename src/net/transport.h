// One connection's byte stream over non-blocking TCP, plain or TLS (OpenSSL 3), with status results, no
// exceptions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <openssl/ssl.h>

#include "core/error.h"
#include "core/time.h"
#include "net/resolver.h"
#include "net/simulated_network.h"

namespace openloop::net {

/// Outcome of one non-blocking transport call.
enum class IoStatus : std::uint8_t {
  ok,          ///< progress made (bytes says how much for read/write)
  want_read,   ///< retry when the fd is readable
  want_write,  ///< retry when the fd is writable
  closed,      ///< orderly end of stream from the peer (TCP FIN, TLS close_notify or EOF)
  error        ///< failed; see Transport::last_errno() / error_string()
};
struct IoResult {
  IoStatus status;
  std::size_t bytes = 0;
};

/// Client TLS settings shared by every connection of a run (one per worker thread is fine). Offers the ALPN
/// protocols it was made with, accepts a peer's EOF without close_notify as an orderly close, allows partial
/// writes.
class TlsContext {
 public:
  /// verify=true: the peer's chain is verified against the system store (plus ca_file when given) and its
  /// name against the host given to Transport::attach_tls; SNI is always sent for names. verify=false
  /// (--insecure): no verification. `alpn`: the protocol ids offered by ALPN, most preferred first (e.g.
  /// {"http/1.1"}), encoded once here; empty: no ALPN extension. Errors: usage when ca_file cannot be loaded
  /// (names the file) or an ALPN id is empty or longer than 255 bytes (names it), runtime when OpenSSL fails.
  static Result<TlsContext> create_client(bool verify, const std::string& ca_file = "",
                                          std::span<const std::string_view> alpn = {});
  TlsContext(TlsContext&& other) noexcept;
  TlsContext& operator=(TlsContext&& other) noexcept;
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;
  ~TlsContext();

  /// The context, valid while this object lives (SSL objects made from it keep their own reference).
  SSL_CTX* get() const { return m_ctx; }
  bool verifies() const { return m_verify; }

 private:
  TlsContext(SSL_CTX* ctx, bool verify) : m_ctx(ctx), m_verify(verify) {}
  SSL_CTX* m_ctx = nullptr;
  bool m_verify = false;
};

/// Starts a non-blocking TCP connect (SOCK_NONBLOCK | SOCK_CLOEXEC, TCP_NODELAY). Returns an fd ≥ 0 that is
/// connecting or connected (wait for writability, then call tcp_connect_result), or -errno (e.g. -EMFILE).
int tcp_connect_nonblocking(const Endpoint& ep);
/// After the connecting fd is writable: 0 when connected, else the errno of the failure (SO_ERROR),
/// e.g. ECONNREFUSED.
int tcp_connect_result(int fd);

namespace detail {
/// Socket state shared with the TLS layer's custom BIO (which sends with MSG_NOSIGNAL: no SIGPIPE ever).
struct SocketState {
  int fd = -1;
  bool eof = false;              ///< the peer's FIN was read
  int err = 0;                   ///< errno of the last failed recv/send
  bool stamp_rx = false;         ///< ask the kernel for receive timestamps (SO_TIMESTAMPNS)
  std::int64_t rx_stamp_ns = 0;  ///< CLOCK_REALTIME stamp of the last bytes received; 0 = none
};
}  // namespace detail

/// One connection's stream. Single-threaded; not copyable or movable (the TLS layer points at it).
/// Hot-path calls (read, write) never allocate, throw or log. The SSL object is kept across connections
/// (SSL_clear), so reconnects allocate only what the TLS handshake itself needs.
class Transport {
 public:
  Transport() = default;
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  /// Takes ownership of a connected fd, plain TCP (closes a previously attached fd first).
  void attach_plain(int fd);
  /// Takes ownership of a connected descriptor of a simulated network: read, write and close go to `net`
  /// (plain bytes: a simulated connection has no TLS), until the next attach.
  void attach_simulated(int fd, SimulatedNetwork& net);
  /// Takes ownership of a connected fd (in every case, closed by close()) and prepares a TLS client session:
  /// SNI = host unless host is an IP literal; when ctx verifies, the certificate must match host (name or
  /// IP). Returns false if OpenSSL could not set up the session (error_string() says why).
  bool attach_tls(int fd, SSL_CTX* ctx, const std::string& host);
  /// Drives the TLS handshake (plain: ok at once). ok = done; want_read/want_write = call again when ready;
  /// error = failed (error_string() says why, e.g. "certificate verify failed: self-signed certificate").
  IoResult handshake();
  /// Reads up to cap bytes. ok with bytes > 0 (bytes 0 only when cap is 0); want_read / want_write (TLS may
  /// need either); closed = orderly EOF; error.
  IoResult read(char* buf, std::size_t cap);
  /// Writes up to len bytes; ok with the bytes written (may be partial); want_read / want_write; error
  /// (EPIPE, ECONNRESET, ...). After want_*, retry with the same unwritten bytes.
  IoResult write(const char* buf, std::size_t len);
  /// With on, every later attach asks the kernel to time-stamp received data (SO_TIMESTAMPNS), so
  /// received_at() can tell when bytes arrived however late they are read.
  void stamp_receipts(bool on) { m_sock.stamp_rx = on; }
  /// When the kernel received the bytes of the last successful read, on the steady clock; `now` when not
  /// stamped (stamp_receipts off, no stamp given, or one more than a second old: the wall clock stepped).
  /// Never later than `now`.
  SteadyTime received_at(SteadyTime now) const;
  /// Closes the fd, first sending TLS close_notify if the session is healthy (never blocks). Safe to call
  /// twice. The last error stays readable until the next attach.
  void close();

  int fd() const { return m_sock.fd; }
  bool is_tls() const { return m_tls; }
  /// The protocol the server selected by ALPN in this connection's completed handshake (e.g. "http/1.1");
  /// empty when it selected none, for plain TCP and simulated connections, and before the handshake is done
  /// or after close(). A view into the TLS session (no copy, no allocation), valid until the next attach or
  /// close().
  std::string_view alpn() const;
  /// errno of the last error (0 for TLS-level errors), for classifying reset vs other.
  int last_errno() const { return m_errno; }
  /// Human-readable reason for the last handshake/read/write error (builds a string: not for the hot path).
  std::string error_string() const;

 private:
  enum class Op : std::uint8_t { none, setup, handshake, read, write };
  void reset_errors();
  IoResult plain_error(Op op, int err);
  IoResult simulated_result(Op op, IoResult r);
  IoResult tls_failure(Op op, int ret);

  detail::SocketState m_sock;
  SimulatedNetwork* m_sim = nullptr;  // set by attach_simulated: every call below goes there
  SSL* m_ssl = nullptr;
  bool m_tls = false;
  bool m_handshake_done = false;
  bool m_fatal = false;  // a TLS fatal error: no close_notify may be sent
  Op m_error_op = Op::none;
  int m_errno = 0;
  unsigned long m_ssl_reason = 0;  // first OpenSSL error-queue code of the last TLS error
  long m_verify_result = 0;        // X509_V_OK unless the chain/hostname check failed
  bool m_eof_error = false;        // the peer closed during the handshake
};

}  // namespace openloop::net
