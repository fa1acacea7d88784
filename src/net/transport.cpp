// TCP connect helpers and the plain/TLS Transport; TLS runs over a tiny socket BIO that never raises SIGPIPE.
#include "net/transport.h"

#include <cerrno>
#include <cstring>
#include <ctime>

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/errno_text.h"

namespace openloop::net {

namespace {

std::string openssl_error_text() {
  const unsigned long code = ERR_peek_last_error();
  ERR_clear_error();
  if (code == 0) return "unknown OpenSSL error";
  char buf[256];
  ERR_error_string_n(code, buf, sizeof buf);
  return buf;
}

bool is_ip_literal(const std::string& host) {
  in6_addr a6{};
  in_addr a4{};
  return inet_pton(AF_INET, host.c_str(), &a4) == 1 || inet_pton(AF_INET6, host.c_str(), &a6) == 1;
}

// recv, or with receive stamps on, recvmsg keeping the kernel's SCM_TIMESTAMPNS (the time the last segment
// read arrived; TCP gives it for each read that returns data).
ssize_t receive(detail::SocketState& s, char* buf, std::size_t len) {
  if (!s.stamp_rx) return ::recv(s.fd, buf, len, 0);
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
  iovec iov{buf, len};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  const ssize_t n = ::recvmsg(s.fd, &msg, 0);
  if (n <= 0) return n;
  s.rx_stamp_ns = 0;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      timespec ts{};
      std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
      s.rx_stamp_ns = ts.tv_sec * 1'000'000'000LL + ts.tv_nsec;
    }
  }
  return n;
}

void enable_stamps(const detail::SocketState& s) {
  if (!s.stamp_rx) return;
  const int one = 1;
  setsockopt(s.fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);  // without it reads fall back to now
}

// --- A socket BIO over recv/send: MSG_NOSIGNAL so a reset peer never kills the process with SIGPIPE. ---
int bio_read(BIO* bio, char* buf, std::size_t len, std::size_t* done) {
  auto* s = static_cast<detail::SocketState*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  for (;;) {
    const ssize_t n = receive(*s, buf, len);
    if (n > 0) {
      *done = static_cast<std::size_t>(n);
      return 1;
    }
    if (n == 0) {
      s->eof = true;
      return 0;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      BIO_set_retry_read(bio);
    } else {
      s->err = errno;
    }
    return 0;
  }
}

int bio_write(BIO* bio, const char* buf, std::size_t len, std::size_t* done) {
  auto* s = static_cast<detail::SocketState*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  for (;;) {
    const ssize_t n = ::send(s->fd, buf, len, MSG_NOSIGNAL);
    if (n >= 0) {
      *done = static_cast<std::size_t>(n);
      return 1;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      BIO_set_retry_write(bio);
    } else {
      s->err = errno;
    }
    return 0;
  }
}

long bio_ctrl(BIO* bio, int cmd, long /*num*/, void* /*ptr*/) {
  switch (cmd) {
    case BIO_CTRL_FLUSH:
    case BIO_CTRL_DUP:
      return 1;
    case BIO_CTRL_EOF:  // lets OpenSSL tell an EOF from an error (SSL_OP_IGNORE_UNEXPECTED_EOF relies on it)
      return static_cast<detail::SocketState*>(BIO_get_data(bio))->eof ? 1 : 0;
    default:
      return 0;
  }
}

int bio_create(BIO* bio) {
  BIO_set_init(bio, 1);
  return 1;
}

// Created once per process and never freed (immutable after creation, shared by all threads).
BIO_METHOD* socket_bio_method() {
  static BIO_METHOD* const method = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "openloop socket");
    if (m == nullptr) return m;
    BIO_meth_set_read_ex(m, bio_read);
    BIO_meth_set_write_ex(m, bio_write);
    BIO_meth_set_ctrl(m, bio_ctrl);
    BIO_meth_set_create(m, bio_create);
    return m;
  }();
  return method;
}

const char* op_name(int op) {
  static constexpr const char* k_names[] = {"I/O", "TLS setup", "TLS handshake", "read", "write"};
  return k_names[op];
}

}  // namespace

// ------------------------------------------------------------------------------------------------ TlsContext

Result<TlsContext> TlsContext::create_client(bool verify, const std::string& ca_file,
                                             std::span<const std::string_view> alpn) {
  // ALPN's wire form (RFC 7301): each id preceded by its length in one byte.
  std::string offer;
  for (const std::string_view id : alpn) {
    if (id.empty() || id.size() > 255)
      return usage_error(fmt::format("ALPN protocol id '{}': must be 1 to 255 bytes long", id));
    offer += static_cast<char>(id.size());
    offer += id;
  }
  ERR_clear_error();
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (ctx == nullptr) return runtime_error("TLS: cannot create a client context: " + openssl_error_text());
  TlsContext out(ctx, verify);
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  // Many HTTP servers close without close_notify; responses are framed by HTTP, so treat that as EOF.
  SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
  // Returns 0 on success (unlike most of OpenSSL).
  if (!offer.empty() && SSL_CTX_set_alpn_protos(ctx, reinterpret_cast<const unsigned char*>(offer.data()),
                                                static_cast<unsigned>(offer.size())) != 0)
    return runtime_error("TLS: cannot set the ALPN protocols to offer: " + openssl_error_text());
  if (verify) {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
    if (SSL_CTX_set_default_verify_paths(ctx) != 1)
      ERR_clear_error();  // no system store: ca_file may suffice
  } else {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
  }
  if (!ca_file.empty() && SSL_CTX_load_verify_locations(ctx, ca_file.c_str(), nullptr) != 1) {
    return usage_error(
        fmt::format("CA file '{}': cannot load certificates ({}); give a PEM file of CA certificates",
                    ca_file, openssl_error_text()));
  }
  return out;
}

TlsContext::TlsContext(TlsContext&& other) noexcept : m_ctx(other.m_ctx), m_verify(other.m_verify) {
  other.m_ctx = nullptr;
}

TlsContext& TlsContext::operator=(TlsContext&& other) noexcept {
  if (this != &other) {
    if (m_ctx != nullptr) SSL_CTX_free(m_ctx);
    m_ctx = other.m_ctx;
    m_verify = other.m_verify;
    other.m_ctx = nullptr;
  }
  return *this;
}

TlsContext::~TlsContext() {
  if (m_ctx != nullptr) SSL_CTX_free(m_ctx);
}

// ------------------------------------------------------------------------------------------------ TCP
// connect

int tcp_connect_nonblocking(const Endpoint& ep) {
  const int fd = ::socket(ep.addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
  if (fd < 0) return -errno;
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&ep.addr), ep.addr_len) == 0) return fd;
  // EINTR: the connect carries on asynchronously, exactly like EINPROGRESS.
  if (errno == EINPROGRESS || errno == EINTR) return fd;
  const int err = errno;
  ::close(fd);
  return -err;
}

int tcp_connect_result(int fd) {
  int err = 0;
  socklen_t len = sizeof err;
  if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return errno;
  return err;
}

// ------------------------------------------------------------------------------------------------ Transport

Transport::~Transport() {
  close();
  if (m_ssl != nullptr) SSL_free(m_ssl);
}

void Transport::reset_errors() {
  m_error_op = Op::none;
  m_errno = 0;
  m_ssl_reason = 0;
  m_verify_result = X509_V_OK;
  m_eof_error = false;
  m_sock.eof = false;
  m_sock.err = 0;
  m_sock.rx_stamp_ns = 0;
}

SteadyTime Transport::received_at(SteadyTime now) const {
  if (m_sock.rx_stamp_ns == 0) return now;
  // The stamp is on the wall clock: its distance from the wall clock's now is its distance from `now`.
  timespec wall{};
  clock_gettime(CLOCK_REALTIME, &wall);
  const std::int64_t age = wall.tv_sec * 1'000'000'000LL + wall.tv_nsec - m_sock.rx_stamp_ns;
  if (age <= 0 || age > 1'000'000'000LL) return now;
  return now - Nanos(age);
}

void Transport::attach_plain(int fd) {
  close();
  reset_errors();
  m_sim = nullptr;
  m_sock.fd = fd;
  m_tls = false;
  enable_stamps(m_sock);
}

void Transport::attach_simulated(int fd, SimulatedNetwork& net) {
  close();
  reset_errors();
  m_sim = &net;
  m_sock.fd = fd;
  m_tls = false;
}

bool Transport::attach_tls(int fd, SSL_CTX* ctx, const std::string& host) {
  close();
  reset_errors();
  m_sim = nullptr;
  m_sock.fd = fd;
  m_tls = true;
  enable_stamps(m_sock);
  m_handshake_done = false;
  m_fatal = false;
  ERR_clear_error();
  // Reuse the SSL object (and its BIO) when it belongs to the same context: SSL_clear avoids reallocating it.
  if (m_ssl != nullptr && (SSL_get_SSL_CTX(m_ssl) != ctx || SSL_clear(m_ssl) != 1)) {
    SSL_free(m_ssl);
    m_ssl = nullptr;
  }
  if (m_ssl == nullptr) {
    BIO_METHOD* method = socket_bio_method();
    m_ssl = ctx != nullptr && method != nullptr ? SSL_new(ctx) : nullptr;
    BIO* bio = m_ssl != nullptr ? BIO_new(method) : nullptr;
    if (bio == nullptr) {
      m_error_op = Op::setup;
      m_ssl_reason = ERR_peek_last_error();
      ERR_clear_error();
      if (m_ssl != nullptr) SSL_free(m_ssl);
      m_ssl = nullptr;
      return false;
    }
    BIO_set_data(bio, &m_sock);
    SSL_set_bio(m_ssl, bio, bio);
  }
  SSL_set_connect_state(m_ssl);
  const bool ip = is_ip_literal(host);
  // The macro casts away const; OpenSSL copies the name.
  char* sni = ip ? nullptr : const_cast<char*>(host.c_str());
  bool ok = SSL_set_tlsext_host_name(m_ssl, sni) == 1;
  if ((SSL_CTX_get_verify_mode(ctx) & SSL_VERIFY_PEER) != 0) {
    X509_VERIFY_PARAM* param = SSL_get0_param(m_ssl);
    if (ip) {
      ok = ok && X509_VERIFY_PARAM_set1_host(param, nullptr, 0) == 1 &&
           X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) == 1;
    } else {
      ok = ok && X509_VERIFY_PARAM_set1_ip(param, nullptr, 0) == 1 && SSL_set1_host(m_ssl, host.c_str()) == 1;
    }
  }
  if (!ok) {
    m_error_op = Op::setup;
    m_ssl_reason = ERR_peek_last_error();
    ERR_clear_error();
    return false;
  }
  return true;
}

IoResult Transport::simulated_result(Op op, IoResult r) {
  // A simulated error carries its errno in `bytes` (the interface's only other field).
  if (r.status != IoStatus::error) return r;
  return plain_error(op, static_cast<int>(r.bytes));
}

IoResult Transport::plain_error(Op op, int err) {
  m_error_op = op;
  m_errno = err;
  return {IoStatus::error};
}

IoResult Transport::tls_failure(Op op, int ret) {
  switch (SSL_get_error(m_ssl, ret)) {
    case SSL_ERROR_WANT_READ:
      return {IoStatus::want_read};
    case SSL_ERROR_WANT_WRITE:
      return {IoStatus::want_write};
    case SSL_ERROR_ZERO_RETURN:
      if (op != Op::handshake) return {IoStatus::closed};
      m_eof_error = true;
      break;
    case SSL_ERROR_SYSCALL:
      m_fatal = true;
      if (m_sock.err == 0 && op == Op::read) return {IoStatus::closed};
      m_errno = m_sock.err;
      m_eof_error = m_sock.err == 0;
      break;
    default:
      m_fatal = true;
      m_ssl_reason = ERR_peek_error();
      if (op == Op::handshake) m_verify_result = SSL_get_verify_result(m_ssl);
      break;
  }
  ERR_clear_error();
  m_error_op = op;
  return {IoStatus::error};
}

IoResult Transport::handshake() {
  if (!m_tls || m_handshake_done) return {IoStatus::ok};
  if (m_ssl == nullptr || m_sock.fd < 0) return plain_error(Op::handshake, EBADF);
  ERR_clear_error();
  const int r = SSL_do_handshake(m_ssl);
  if (r == 1) {
    m_handshake_done = true;
    return {IoStatus::ok};
  }
  return tls_failure(Op::handshake, r);
}

std::string_view Transport::alpn() const {
  if (!m_tls || !m_handshake_done || m_ssl == nullptr) return {};
  const unsigned char* id = nullptr;
  unsigned len = 0;
  SSL_get0_alpn_selected(m_ssl, &id, &len);
  if (id == nullptr) return {};
  return {reinterpret_cast<const char*>(id), len};
}

IoResult Transport::read(char* buf, std::size_t cap) {
  if (cap == 0) return {IoStatus::ok};
  if (m_sim != nullptr) return simulated_result(Op::read, m_sim->read(m_sock.fd, buf, cap));
  if (m_tls) {
    if (m_ssl == nullptr || m_sock.fd < 0) return plain_error(Op::read, EBADF);
    ERR_clear_error();
    std::size_t n = 0;
    if (SSL_read_ex(m_ssl, buf, cap, &n) == 1) return {IoStatus::ok, n};
    return tls_failure(Op::read, 0);
  }
  for (;;) {
    const ssize_t n = receive(m_sock, buf, cap);
    if (n > 0) return {IoStatus::ok, static_cast<std::size_t>(n)};
    if (n == 0) return {IoStatus::closed};
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return {IoStatus::want_read};
    return plain_error(Op::read, errno);
  }
}

IoResult Transport::write(const char* buf, std::size_t len) {
  if (len == 0) return {IoStatus::ok};
  if (m_sim != nullptr) return simulated_result(Op::write, m_sim->write(m_sock.fd, buf, len));
  if (m_tls) {
    if (m_ssl == nullptr || m_sock.fd < 0) return plain_error(Op::write, EBADF);
    ERR_clear_error();
    std::size_t n = 0;
    if (SSL_write_ex(m_ssl, buf, len, &n) == 1) return {IoStatus::ok, n};
    return tls_failure(Op::write, 0);
  }
  for (;;) {
    const ssize_t n = ::send(m_sock.fd, buf, len, MSG_NOSIGNAL);
    if (n >= 0) return {IoStatus::ok, static_cast<std::size_t>(n)};
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return {IoStatus::want_write};
    return plain_error(Op::write, errno);
  }
}

void Transport::close() {
  if (m_sock.fd < 0) return;
  if (m_sim != nullptr) {
    m_sim->close(m_sock.fd);
    m_sock.fd = -1;
    return;
  }
  if (m_tls && m_ssl != nullptr && m_handshake_done && !m_fatal) {
    // One non-blocking attempt at close_notify: it lets the session be resumed on the next connection.
    ERR_clear_error();
    SSL_shutdown(m_ssl);
    ERR_clear_error();
  }
  ::close(m_sock.fd);
  m_sock.fd = -1;
  m_handshake_done = false;
}

std::string Transport::error_string() const {
  const char* op = op_name(static_cast<int>(m_error_op));
  if (m_error_op == Op::none) return "no error";
  if (m_verify_result != X509_V_OK && ERR_GET_REASON(m_ssl_reason) == SSL_R_CERTIFICATE_VERIFY_FAILED) {
    return fmt::format("certificate verify failed: {}", X509_verify_cert_error_string(m_verify_result));
  }
  if (m_ssl_reason != 0) {
    const char* reason = ERR_reason_error_string(m_ssl_reason);
    if (reason != nullptr) return fmt::format("{} failed: {}", op, reason);
    char buf[256];
    ERR_error_string_n(m_ssl_reason, buf, sizeof buf);
    return fmt::format("{} failed: {}", op, buf);
  }
  if (m_errno != 0) return fmt::format("{} failed: {}", op, errno_text(m_errno));
  if (m_eof_error) return fmt::format("{} failed: connection closed by the peer", op);
  return fmt::format("{} failed", op);
}

}  // namespace openloop::net
