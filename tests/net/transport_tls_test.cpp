// Tests for TLS Transport: a self-signed certificate made at test time, an in-test echo server thread
// (blocking, bounded by socket timeouts) and the client driven non-blocking with bounded poll waits.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "net/socket_test_util.h"
#include "net/tls_test_util.h"
#include "net/transport.h"

using namespace openloop;
using namespace openloop::net;
using namespace openloop::net::testing;

namespace {

/// Accepts `connections` TLS connections one after the other; on each, reads one message, answers
/// "echo:<msg>", then sends close_notify. Records the SNI each client sent ("" when none).
class TlsEchoServer {
 public:
  /// `alpn`: the server's ALPN policy (null: the server ignores ALPN).
  TlsEchoServer(const std::string& cert, const std::string& key, int connections, bool close_notify = true,
                AlpnSelect* alpn = nullptr)
      : m_close_notify(close_notify) {
    m_ctx = SSL_CTX_new(TLS_server_method());
    m_ok = m_ctx != nullptr && SSL_CTX_use_certificate_chain_file(m_ctx, cert.c_str()) == 1 &&
           SSL_CTX_use_PrivateKey_file(m_ctx, key.c_str(), SSL_FILETYPE_PEM) == 1;
    if (m_ok && alpn != nullptr) alpn->install(m_ctx);
    if (m_ok) m_thread = std::thread([this, connections] { serve(connections); });
  }
  ~TlsEchoServer() {
    join();
    if (m_ctx != nullptr) SSL_CTX_free(m_ctx);
  }
  TlsEchoServer(const TlsEchoServer&) = delete;
  TlsEchoServer& operator=(const TlsEchoServer&) = delete;

  bool ok() const { return m_ok; }
  std::uint16_t port() const { return m_listener.port; }
  void join() {
    if (m_thread.joinable()) m_thread.join();
  }
  /// SNI per connection; read only after join().
  const std::vector<std::string>& server_names() const { return m_names; }

 private:
  void serve(int connections) {
    for (int i = 0; i < connections; ++i) {
      const int fd = m_listener.accept_within(5000);
      if (fd < 0) return;
      SSL* ssl = SSL_new(m_ctx);
      SSL_set_fd(ssl, fd);
      if (SSL_accept(ssl) == 1) {
        const char* sni = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
        m_names.emplace_back(sni != nullptr ? sni : "");
        char buf[256];
        const int n = SSL_read(ssl, buf, sizeof buf);
        if (n > 0) {
          const std::string reply = "echo:" + std::string(buf, static_cast<std::size_t>(n));
          SSL_write(ssl, reply.data(), static_cast<int>(reply.size()));
        }
        if (m_close_notify) SSL_shutdown(ssl);
      }
      ERR_clear_error();
      SSL_free(ssl);
      ::close(fd);
    }
  }

  Listener m_listener;
  SSL_CTX* m_ctx = nullptr;
  bool m_ok = false;
  bool m_close_notify = true;
  std::thread m_thread;
  std::vector<std::string> m_names;
};

class TlsTransport : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_cert = std::make_unique<SelfSignedCert>();
    ASSERT_TRUE(s_cert->ok()) << "openssl req could not make a certificate in " << s_cert->dir();
  }
  static void TearDownTestSuite() { s_cert.reset(); }
  static std::string cert() { return s_cert->cert(); }
  static std::string key() { return s_cert->key(); }

  /// Connects to the server and runs the handshake to its end (bounded).
  static IoResult connect_tls(Transport& t, const TlsContext& ctx, std::uint16_t port,
                              const std::string& host) {
    const int fd = connect_within(loopback(port), 5000);
    if (fd < 0) return {IoStatus::error};
    if (!t.attach_tls(fd, ctx.get(), host)) return {IoStatus::error};
    return drive(t, [&] { return t.handshake(); });
  }

  /// Sends msg and reads until the echo and then the server's close_notify arrive.
  static void expect_echo(Transport& t, const std::string& msg) {
    const auto w = drive(t, [&] { return t.write(msg.data(), msg.size()); });
    ASSERT_EQ(w.status, IoStatus::ok) << t.error_string();
    ASSERT_EQ(w.bytes, msg.size());
    std::string got;
    char buf[256];
    IoResult r{IoStatus::ok};
    for (int i = 0; i < 100 && r.status == IoStatus::ok; ++i) {
      r = drive(t, [&] { return t.read(buf, sizeof buf); });
      if (r.status == IoStatus::ok) got.append(buf, r.bytes);
    }
    EXPECT_EQ(got, "echo:" + msg);
    EXPECT_EQ(r.status, IoStatus::closed) << t.error_string();
  }

  static inline std::unique_ptr<SelfSignedCert> s_cert;
};

}  // namespace

TEST_F(TlsTransport, VerifyingClientRejectsASelfSignedCertificateAndSaysWhy) {
  TlsEchoServer server(cert(), key(), 1);
  ASSERT_TRUE(server.ok());
  auto ctx = TlsContext::create_client(true);
  ASSERT_TRUE(ctx) << ctx.error().message;
  Transport t;
  const auto r = connect_tls(t, *ctx, server.port(), "localhost");
  EXPECT_EQ(r.status, IoStatus::error);
  EXPECT_EQ(t.error_string(), "certificate verify failed: self-signed certificate");
  EXPECT_EQ(t.last_errno(), 0);
  t.close();
}

TEST_F(TlsTransport, InsecureClientSkipsVerificationAndExchangesBytes) {
  TlsEchoServer server(cert(), key(), 1);
  ASSERT_TRUE(server.ok());
  auto ctx = TlsContext::create_client(false);
  ASSERT_TRUE(ctx) << ctx.error().message;
  Transport t;
  ASSERT_EQ(connect_tls(t, *ctx, server.port(), "localhost").status, IoStatus::ok) << t.error_string();
  EXPECT_TRUE(t.is_tls());
  expect_echo(t, "ping");
  t.close();
  server.join();
  ASSERT_EQ(server.server_names().size(), 1u);
  EXPECT_EQ(server.server_names()[0], "localhost");
}

TEST_F(TlsTransport, VerifyingClientTrustsTheGivenCaFileForTheCertificatesHostName) {
  TlsEchoServer server(cert(), key(), 1);
  ASSERT_TRUE(server.ok());
  auto ctx = TlsContext::create_client(true, cert());
  ASSERT_TRUE(ctx) << ctx.error().message;
  Transport t;
  ASSERT_EQ(connect_tls(t, *ctx, server.port(), "localhost").status, IoStatus::ok) << t.error_string();
  expect_echo(t, "verified");
}

TEST_F(TlsTransport, IpLiteralIsVerifiedAgainstTheIpSanAndSendsNoSni) {
  TlsEchoServer server(cert(), key(), 1);
  ASSERT_TRUE(server.ok());
  auto ctx = TlsContext::create_client(true, cert());
  ASSERT_TRUE(ctx);
  Transport t;
  ASSERT_EQ(connect_tls(t, *ctx, server.port(), "127.0.0.1").status, IoStatus::ok) << t.error_string();
  expect_echo(t, "by-ip");
  t.close();
  server.join();
  ASSERT_EQ(server.server_names().size(), 1u);
  EXPECT_EQ(server.server_names()[0], "");
}

TEST_F(TlsTransport, NameNotInTheCertificateIsAHostnameMismatch) {
  TlsEchoServer server(cert(), key(), 1);
  ASSERT_TRUE(server.ok());
  auto ctx = TlsContext::create_client(true, cert());
  ASSERT_TRUE(ctx);
  Transport t;
  EXPECT_EQ(connect_tls(t, *ctx, server.port(), "example.com").status, IoStatus::error);
  EXPECT_EQ(t.error_string(), "certificate verify failed: hostname mismatch");
}

TEST_F(TlsTransport, OneTransportServesSuccessiveConnections) {
  TlsEchoServer server(cert(), key(), 3);
  ASSERT_TRUE(server.ok());
  auto ctx = TlsContext::create_client(true, cert());
  ASSERT_TRUE(ctx);
  Transport t;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(connect_tls(t, *ctx, server.port(), "localhost").status, IoStatus::ok) << i << t.error_string();
    expect_echo(t, "round" + std::to_string(i));
    t.close();
  }
}

TEST_F(TlsTransport, PeerClosingWithoutCloseNotifyIsAnOrderlyClose) {
  TlsEchoServer server(cert(), key(), 1, /*close_notify=*/false);
  ASSERT_TRUE(server.ok());
  auto ctx = TlsContext::create_client(false);
  ASSERT_TRUE(ctx);
  Transport t;
  ASSERT_EQ(connect_tls(t, *ctx, server.port(), "localhost").status, IoStatus::ok) << t.error_string();
  expect_echo(t, "abrupt");
}

TEST_F(TlsTransport, PeerWithoutTlsFailsTheHandshakeWithAReason) {
  Listener plain;
  const int fd = connect_within(loopback(plain.port), 5000);
  ASSERT_GE(fd, 0);
  const int peer = plain.accept_within(5000);
  ASSERT_GE(peer, 0);
  auto ctx = TlsContext::create_client(false);
  ASSERT_TRUE(ctx);
  Transport t;
  ASSERT_TRUE(t.attach_tls(fd, ctx->get(), "localhost"));
  ASSERT_EQ(t.handshake().status, IoStatus::want_read);
  const std::string http = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
  ASSERT_EQ(::send(peer, http.data(), http.size(), 0), static_cast<ssize_t>(http.size()));
  EXPECT_EQ(drive(t, [&] { return t.handshake(); }).status, IoStatus::error);
  EXPECT_EQ(t.error_string().rfind("TLS handshake failed: ", 0), 0u) << t.error_string();
  ::close(peer);
}

TEST_F(TlsTransport, UnreadableCaFileIsAUsageErrorNamingTheFile) {
  auto ctx = TlsContext::create_client(true, s_cert->dir() + "/missing.pem");
  ASSERT_FALSE(ctx);
  EXPECT_EQ(ctx.error().code, ExitCode::usage);
  EXPECT_NE(ctx.error().message.find("missing.pem"), std::string::npos) << ctx.error().message;
}

// ALPN: what the context offers reaches the server, and the transport reports the server's choice.

TEST_F(TlsTransport, TheAlpnOfferReachesTheServerAndAlpnReportsItsChoice) {
  AlpnSelect alpn("http/1.1");
  TlsEchoServer server(cert(), key(), 1, true, &alpn);
  ASSERT_TRUE(server.ok());
  constexpr std::string_view k_offer[] = {"http/1.1"};
  auto ctx = TlsContext::create_client(false, "", k_offer);
  ASSERT_TRUE(ctx) << ctx.error().message;
  Transport t;
  ASSERT_EQ(connect_tls(t, *ctx, server.port(), "localhost").status, IoStatus::ok) << t.error_string();
  EXPECT_EQ(t.alpn(), "http/1.1");
  expect_echo(t, "alpn");
  t.close();
  EXPECT_EQ(t.alpn(), "") << "a closed transport has no protocol";
  server.join();
  ASSERT_EQ(alpn.offers().size(), 1U);
  EXPECT_EQ(alpn.offers()[0], (std::vector<std::string>{"http/1.1"}));
}

TEST_F(TlsTransport, SeveralAlpnIdsAreOfferedInOrderAndTheServerPicksOne) {
  AlpnSelect alpn("h2");
  TlsEchoServer server(cert(), key(), 1, true, &alpn);
  ASSERT_TRUE(server.ok());
  constexpr std::string_view k_offer[] = {"h2", "http/1.1"};
  auto ctx = TlsContext::create_client(false, "", k_offer);
  ASSERT_TRUE(ctx) << ctx.error().message;
  Transport t;
  ASSERT_EQ(connect_tls(t, *ctx, server.port(), "localhost").status, IoStatus::ok) << t.error_string();
  EXPECT_EQ(t.alpn(), "h2");
  expect_echo(t, "two");
  server.join();
  ASSERT_EQ(alpn.offers().size(), 1U);
  EXPECT_EQ(alpn.offers()[0], (std::vector<std::string>{"h2", "http/1.1"}));
}

TEST_F(TlsTransport, AServerThatChoosesNoAlpnLeavesItEmpty) {
  AlpnSelect alpn("");
  TlsEchoServer server(cert(), key(), 1, true, &alpn);
  ASSERT_TRUE(server.ok());
  constexpr std::string_view k_offer[] = {"http/1.1"};
  auto ctx = TlsContext::create_client(false, "", k_offer);
  ASSERT_TRUE(ctx) << ctx.error().message;
  Transport t;
  ASSERT_EQ(connect_tls(t, *ctx, server.port(), "localhost").status, IoStatus::ok) << t.error_string();
  EXPECT_EQ(t.alpn(), "");
  expect_echo(t, "none");
  server.join();
  ASSERT_EQ(alpn.offers().size(), 1U) << "the offer was made";
}

TEST_F(TlsTransport, AContextWithoutAlpnOffersNothing) {
  AlpnSelect alpn("http/1.1");
  TlsEchoServer server(cert(), key(), 1, true, &alpn);
  ASSERT_TRUE(server.ok());
  auto ctx = TlsContext::create_client(false);
  ASSERT_TRUE(ctx) << ctx.error().message;
  Transport t;
  ASSERT_EQ(connect_tls(t, *ctx, server.port(), "localhost").status, IoStatus::ok) << t.error_string();
  EXPECT_EQ(t.alpn(), "");
  expect_echo(t, "silent");
  server.join();
  EXPECT_TRUE(alpn.offers().empty()) << "the server's callback runs only for an offer";
}

TEST_F(TlsTransport, AnAlpnIdThatCannotBeEncodedIsAUsageErrorNamingIt) {
  constexpr std::string_view k_empty[] = {"http/1.1", ""};
  auto empty = TlsContext::create_client(false, "", k_empty);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, ExitCode::usage);
  EXPECT_NE(empty.error().message.find("ALPN protocol id ''"), std::string::npos) << empty.error().message;
  const std::string long_id(256, 'x');
  const std::string_view k_long[] = {long_id};
  auto too_long = TlsContext::create_client(false, "", k_long);
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.error().code, ExitCode::usage);
  EXPECT_NE(too_long.error().message.find("255 bytes"), std::string::npos) << too_long.error().message;
}

TEST(TransportAlpn, PlainTcpHasNone) {
  Listener plain;
  const int fd = connect_within(loopback(plain.port), 5000);
  ASSERT_GE(fd, 0);
  Transport t;
  t.attach_plain(fd);
  EXPECT_EQ(t.alpn(), "");
  t.close();
}
