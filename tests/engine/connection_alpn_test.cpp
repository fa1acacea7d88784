// A Connection over TLS on loopback (a real handshake against an in-test OpenSSL server thread): the plan's
// ALPN offer reaches the server, and the codec is the server's choice, or the configured protocol when it
// chose none; a choice the connection cannot speak fails it as a TLS error. Bounded waits only.
#include <gtest/gtest.h>

#include <csignal>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <pthread.h>

#include "../net/socket_test_util.h"
#include "../net/tls_test_util.h"
#include "engine/connection.h"
#include "engine/exchange.h"
#include "engine/protocol.h"
#include "http/request.h"
#include "net/url.h"

using namespace openloop;
using namespace openloop::engine;
using namespace openloop::net::testing;

namespace {

struct Reports final : CodecCallbacks, ConnectionOwner {
  std::vector<ExchangeResult> completed;
  std::vector<ExchangeError> errors;
  void on_sent(Exchange&, std::size_t) override {}
  void on_complete(Exchange&, const ExchangeResult& r) override { completed.push_back(r); }
  void on_error(Exchange&, const ExchangeError& e) override { errors.push_back(e); }
  void on_ready(Connection&) override {}
  void on_closed_idle(Connection&) override {}
};

// Accepts one TLS connection (ALPN by `alpn`), answers one request head with a 200, then waits for the
// client to close (each blocking call bounded by the accepted socket's 5 s timeouts).
class TlsHttpServer {
 public:
  TlsHttpServer(const SelfSignedCert& cert, AlpnSelect& alpn) {
    m_ctx = SSL_CTX_new(TLS_server_method());
    m_ok = m_ctx != nullptr && SSL_CTX_use_certificate_chain_file(m_ctx, cert.cert().c_str()) == 1 &&
           SSL_CTX_use_PrivateKey_file(m_ctx, cert.key().c_str(), SSL_FILETYPE_PEM) == 1;
    if (!m_ok) return;
    alpn.install(m_ctx);
    m_thread = std::thread([this] { serve(); });
  }
  ~TlsHttpServer() {
    join();
    if (m_ctx != nullptr) SSL_CTX_free(m_ctx);
  }
  TlsHttpServer(const TlsHttpServer&) = delete;
  TlsHttpServer& operator=(const TlsHttpServer&) = delete;
  bool ok() const { return m_ok; }
  std::uint16_t port() const { return m_listener.port; }
  void join() {
    if (m_thread.joinable()) m_thread.join();
  }

 private:
  void serve() {
    // The client may close first (a refused choice): a write must fail with EPIPE, not kill the test with
    // SIGPIPE (OpenSSL's socket BIO writes without MSG_NOSIGNAL). Blocked on this thread only.
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
    const int fd = m_listener.accept_within(5000);
    if (fd < 0) return;
    SSL* ssl = SSL_new(m_ctx);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) == 1) {
      std::string head;
      char buf[4096];
      for (int i = 0; i < 100 && head.find("\r\n\r\n") == std::string::npos; ++i) {
        const int n = SSL_read(ssl, buf, sizeof buf);
        if (n <= 0) break;
        head.append(buf, static_cast<std::size_t>(n));
      }
      static constexpr std::string_view k_ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
      if (head.find("\r\n\r\n") != std::string::npos) {
        SSL_write(ssl, k_ok.data(), static_cast<int>(k_ok.size()));
        for (int i = 0; i < 100 && SSL_read(ssl, buf, sizeof buf) > 0; ++i) {
        }
      }
    }
    ERR_clear_error();
    SSL_free(ssl);
    ::close(fd);
  }

  Listener m_listener;
  SSL_CTX* m_ctx = nullptr;
  bool m_ok = false;
  std::thread m_thread;
};

constexpr std::string_view k_http1[] = {"http/1.1"};

class ConnectionAlpn : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_cert = std::make_unique<SelfSignedCert>();
    ASSERT_TRUE(s_cert->ok()) << "openssl req could not make a certificate in " << s_cert->dir();
  }
  static void TearDownTestSuite() { s_cert.reset(); }

  ConnectionAlpn() : m_loop(std::move(*net::EventLoop::create())) {}
  ~ConnectionAlpn() override {
    if (m_connection) m_connection->close();
  }

  // Connects with a TLS context offering `offer` (the connection told it offers `config_offer`), sends one
  // request and runs the loop until it completes or fails (at most 5 s of 10 ms polls).
  void exchange_with(const TlsHttpServer& server, std::span<const std::string_view> offer,
                     std::span<const std::string_view> config_offer) {
    auto ctx = net::TlsContext::create_client(false, "", offer);
    ASSERT_TRUE(ctx) << ctx.error().message;
    m_ctx.emplace(std::move(*ctx));
    m_endpoint = loopback(server.port());
    m_config.endpoint = &m_endpoint;
    m_config.tls = m_ctx->get();
    m_config.host = "localhost";
    m_config.read_buffer = m_buffer.data();
    m_config.read_buffer_size = m_buffer.size();
    m_config.open_count = &m_open;
    m_config.callbacks = &m_reports;
    m_config.protocol = Protocol::http1;
    m_config.alpn_offered = config_offer;
    m_connection.emplace(m_reports, m_loop, m_config);
    m_request = *http::build_request("GET", *net::parse_url("https://localhost/"), {}, "");
    m_exchange.parts = &m_request.parts();
    m_exchange.prebuilt_http1 = m_request.http1();
    m_exchange.attempt_start = m_loop.now();
    ASSERT_TRUE(m_connection->open());
    m_connection->start(m_exchange);
    for (int i = 0; i < 500 && m_reports.completed.empty() && m_reports.errors.empty(); ++i)
      m_loop.poll(m_loop.now() + std::chrono::milliseconds(10));
  }

  static inline std::unique_ptr<SelfSignedCert> s_cert;
  net::EventLoop m_loop;
  std::optional<net::TlsContext> m_ctx;
  net::Endpoint m_endpoint;
  std::vector<char> m_buffer = std::vector<char>(64 * 1024);
  std::uint64_t m_open = 0;
  ConnectionConfig m_config;
  Reports m_reports;
  http::ConstantRequest m_request;
  Exchange m_exchange;
  std::optional<Connection> m_connection;
};

TEST_F(ConnectionAlpn, TheServersAlpnChoiceOfHttp11CarriesTheExchange) {
  AlpnSelect alpn("http/1.1");
  TlsHttpServer server(*s_cert, alpn);
  ASSERT_TRUE(server.ok());
  exchange_with(server, k_http1, k_http1);
  ASSERT_EQ(m_reports.completed.size(), 1U) << (m_reports.errors.empty() ? "" : m_connection->error_string());
  EXPECT_EQ(m_reports.completed[0].status, 200);
  EXPECT_EQ(m_connection->state(), Connection::State::ready);
  EXPECT_EQ(m_connection->protocol(), Protocol::http1);
  m_connection->close();
  server.join();
  ASSERT_EQ(alpn.offers().size(), 1U);
  EXPECT_EQ(alpn.offers()[0], (std::vector<std::string>{"http/1.1"}))
      << "the plan's offer reached the server";
}

TEST_F(ConnectionAlpn, AServerThatChoosesNothingGetsTheConfiguredProtocol) {
  AlpnSelect alpn("");
  TlsHttpServer server(*s_cert, alpn);
  ASSERT_TRUE(server.ok());
  exchange_with(server, k_http1, k_http1);
  ASSERT_EQ(m_reports.completed.size(), 1U) << (m_reports.errors.empty() ? "" : m_connection->error_string());
  EXPECT_EQ(m_reports.completed[0].status, 200);
  EXPECT_EQ(m_connection->protocol(), Protocol::http1);
  m_connection->close();
  server.join();
  EXPECT_EQ(alpn.offers().size(), 1U);
}

// "h2" chosen by the server selects the HTTP/2 codec; this test server then answers the preface in
// HTTP/1.1, which the codec names (what to use instead) rather than waiting for a SETTINGS frame.
TEST_F(ConnectionAlpn, AChoiceOfH2SelectsTheHttp2Codec) {
  AlpnSelect alpn("h2");
  TlsHttpServer server(*s_cert, alpn);
  ASSERT_TRUE(server.ok());
  constexpr std::string_view k_both[] = {"h2", "http/1.1"};
  exchange_with(server, k_both, k_both);
  ASSERT_EQ(m_reports.errors.size(), 1U);
  EXPECT_TRUE(m_reports.completed.empty());
  EXPECT_EQ(m_reports.errors[0].kind, results::ErrorKind::parse);
  EXPECT_FALSE(m_reports.errors[0].retryable);
  EXPECT_EQ(m_connection->state(), Connection::State::closed);
  EXPECT_EQ(m_connection->error_string(), k_h2_no_preface);
  EXPECT_EQ(m_open, 0U) << "the socket was closed";
}

// A broken server answers a protocol nobody offered: a TLS error, whether OpenSSL refuses it in the handshake
// or the connection does after it.
TEST_F(ConnectionAlpn, AChoiceThatWasNotOfferedFailsTheConnectionAsATlsError) {
  AlpnSelect alpn("spdy/3");
  TlsHttpServer server(*s_cert, alpn);
  ASSERT_TRUE(server.ok());
  exchange_with(server, k_http1, k_http1);
  ASSERT_EQ(m_reports.errors.size(), 1U);
  EXPECT_EQ(m_reports.errors[0].kind, results::ErrorKind::tls);
  EXPECT_EQ(m_connection->state(), Connection::State::closed);
  const std::string why = m_connection->error_string();
  EXPECT_TRUE(why.find("spdy/3") != std::string::npos || why.rfind("TLS handshake failed: ", 0) == 0) << why;
}

}  // namespace
