// Connection + HTTP/1.1 codec on their own, over real loopback sockets (the test plays the server): what the
// codec reports for each way an exchange can end, and what becomes of the connection. Bounded waits only.
#include "engine/connection.h"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "../net/socket_test_util.h"
#include "engine/exchange.h"

using namespace openloop;
using namespace openloop::engine;
using namespace openloop::net::testing;

namespace {

// Everything the connection and its codec report, in order.
struct Reports final : CodecCallbacks, ConnectionOwner {
  std::vector<std::size_t> sent;
  std::vector<ExchangeResult> completed;
  std::vector<ExchangeError> errors;
  int ready = 0, closed_idle = 0;
  std::function<void(Exchange&)> after_complete;  // e.g. start the next exchange from the callback

  void on_sent(Exchange&, std::size_t bytes) override { sent.push_back(bytes); }
  void on_complete(Exchange& x, const ExchangeResult& r) override {
    completed.push_back(r);
    if (after_complete) after_complete(x);
  }
  void on_error(Exchange&, const ExchangeError& e) override { errors.push_back(e); }
  void on_ready(Connection&) override { ++ready; }
  void on_closed_idle(Connection&) override { ++closed_idle; }
};

constexpr std::string_view k_request = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";
constexpr std::string_view k_ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

class ConnectionTest : public ::testing::Test {
 protected:
  ConnectionTest() : m_loop(std::move(*net::EventLoop::create())) {
    m_endpoint = loopback(m_listener.port);
    m_config.endpoint = &m_endpoint;
    m_config.read_buffer = m_buffer.data();
    m_config.read_buffer_size = m_buffer.size();
    m_config.open_count = &m_open;
    m_config.callbacks = &m_reports;
    m_config.http1.capture_retry_after = true;
    m_connection.emplace(m_reports, m_loop, m_config);
  }
  ~ConnectionTest() override {
    m_connection->close();
    if (m_server >= 0) ::close(m_server);
  }

  // Runs the loop until `done` (at most 2 s of 10 ms polls).
  bool pump(const std::function<bool()>& done) {
    for (int i = 0; i < 200 && !done(); ++i) m_loop.poll(m_loop.now() + std::chrono::milliseconds(10));
    return done();
  }
  Exchange& exchange() {
    m_exchanges.emplace_back();
    Exchange& x = m_exchanges.back();
    x.parts = &m_request.parts();
    x.prebuilt_http1 = k_request;
    x.attempt_start = m_loop.now();
    return x;
  }
  // Opens the connection, starts x, accepts on the server side and reads the request.
  std::string open_and_send(Exchange& x) {
    EXPECT_TRUE(connection().open());
    connection().start(x);
    m_server = m_listener.accept_within(2000);
    EXPECT_GE(m_server, 0);
    EXPECT_TRUE(pump([&] { return !m_reports.sent.empty(); }));
    return read_request();
  }
  std::string read_request() {
    std::string got;
    char buf[4096];
    while (got.find("\r\n\r\n") == std::string::npos) {
      const ssize_t n = ::recv(m_server, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
    return got;
  }
  void reply(std::string_view bytes) {
    ASSERT_EQ(::send(m_server, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  }
  Connection& connection() { return *m_connection; }
  // k_request as parts: GET /, authority t, no User-Agent line (flagged as given, with no such header).
  static http::RequestBuffer request_parts() {
    http::RequestBuffer b;
    b.append("GET");
    b.end(http::RequestBuffer::Field::method);
    b.append("/");
    b.end(http::RequestBuffer::Field::target);
    b.append("t");
    b.end(http::RequestBuffer::Field::authority);
    b.end(http::RequestBuffer::Field::body);
    b.finish(http::RequestFlags{.given_user_agent = true});
    return b;
  }
  const http::RequestBuffer m_request = request_parts();

  Listener m_listener;
  net::Endpoint m_endpoint;
  net::EventLoop m_loop;
  std::vector<char> m_buffer = std::vector<char>(64 * 1024);
  std::uint64_t m_open = 0;
  ConnectionConfig m_config;
  Reports m_reports;
  std::optional<Connection> m_connection;
  std::deque<Exchange> m_exchanges;
  int m_server = -1;
};

TEST_F(ConnectionTest, AResponseCompletesTheExchangeAndKeepsTheConnection) {
  Exchange& x = exchange();
  EXPECT_EQ(open_and_send(x), k_request);
  ASSERT_EQ(m_reports.sent.size(), 1U);
  EXPECT_EQ(m_reports.sent[0], k_request.size());
  EXPECT_TRUE(connection().carries_exchange());
  EXPECT_EQ(connection().free_slots(), 0U);
  reply(k_ok);
  ASSERT_TRUE(pump([&] { return !m_reports.completed.empty(); }));
  EXPECT_EQ(m_reports.completed[0].status, 200);
  EXPECT_EQ(m_reports.completed[0].protocol_status, -1);
  EXPECT_EQ(m_reports.completed[0].bytes_in, k_ok.size());
  EXPECT_TRUE(m_reports.errors.empty());
  EXPECT_EQ(connection().state(), Connection::State::ready);
  EXPECT_EQ(connection().protocol(), Protocol::http1);
  EXPECT_FALSE(connection().carries_exchange());
  EXPECT_EQ(connection().free_slots(), 1U);
  EXPECT_TRUE(x.new_connection);
  const results::AttemptPhases p = connection().phases(x, m_reports.completed[0].at);
  EXPECT_TRUE(p.new_connection);
  EXPECT_GE(p[results::Phase::connect], 0);
  EXPECT_GE(p[results::Phase::ttfb], 0);
  EXPECT_EQ(p[results::Phase::tls], -1);

  // The next exchange on the same socket is not new and pays no setup.
  Exchange& y = exchange();
  y.attempt_start = m_loop.now();
  connection().start(y);
  EXPECT_EQ(read_request(), k_request);
  reply("HTTP/1.1 503 Busy\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n");
  ASSERT_TRUE(pump([&] { return m_reports.completed.size() == 2; }));
  EXPECT_EQ(m_reports.completed[1].status, 503);
  EXPECT_FALSE(y.new_connection);
  EXPECT_EQ(connection().phases(y, m_reports.completed[1].at)[results::Phase::connect], -1);
}

TEST_F(ConnectionTest, ACallbackMayStartTheNextExchangeAndSeesTheRetryAfter) {
  Exchange& x = exchange();
  Exchange& y = exchange();
  std::string retry_after;
  m_reports.after_complete = [&](Exchange& done) {
    if (&done != &x) return;
    retry_after = std::string(m_reports.completed.back().retry_after);
    y.attempt_start = m_loop.now();
    connection().start(y);
  };
  open_and_send(x);
  reply("HTTP/1.1 429 Slow\r\nRetry-After: 3\r\nContent-Length: 0\r\n\r\n");
  ASSERT_TRUE(pump([&] { return m_reports.sent.size() == 2; }));
  EXPECT_EQ(retry_after, "3");
  EXPECT_EQ(read_request(), k_request);
}

TEST_F(ConnectionTest, TheCodecFeedsAnExchangesResponseSink) {
  http::ResponseSink sink({"X-Id"}, 16, 4);
  Exchange& x = exchange();
  x.sink = &sink;
  open_and_send(x);
  reply("HTTP/1.1 200 OK\r\nX-Id: 42\r\nContent-Length: 6\r\n\r\nabcdef");
  ASSERT_TRUE(pump([&] { return !m_reports.completed.empty(); }));
  EXPECT_EQ(sink.status(), 200);
  ASSERT_TRUE(sink.header(0));
  EXPECT_EQ(*sink.header(0), "42");
  EXPECT_EQ(sink.body(), "abcd");
  EXPECT_TRUE(sink.truncated());
  // The next exchange asks for nothing: the sink is left as it was.
  Exchange& y = exchange();
  y.attempt_start = m_loop.now();
  connection().start(y);
  read_request();
  reply("HTTP/1.1 404 No\r\nX-Id: 7\r\nContent-Length: 0\r\n\r\n");
  ASSERT_TRUE(pump([&] { return m_reports.completed.size() == 2; }));
  EXPECT_EQ(*sink.header(0), "42");
}

TEST_F(ConnectionTest, ADeadlineHeaderIsSerializedIntoTheRequest) {
  Exchange& x = exchange();
  x.extra_header = "X-Deadline";
  x.extra_header_value = 1234;
  const std::string expected = "GET / HTTP/1.1\r\nHost: t\r\nX-Deadline: 1234\r\n\r\n";
  EXPECT_EQ(connection().request_size(x), expected.size());
  EXPECT_EQ(open_and_send(x), expected);
  ASSERT_EQ(m_reports.sent.size(), 1U);
  EXPECT_EQ(m_reports.sent[0], expected.size());
}

TEST_F(ConnectionTest, AResponseInSeveralReadsStampsItsFirstByteEarlier) {
  Exchange& x = exchange();
  open_and_send(x);
  reply("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nab");
  ASSERT_TRUE(pump([&] { return x.first_byte_seen; }));
  EXPECT_TRUE(m_reports.completed.empty());
  reply("cd");
  ASSERT_TRUE(pump([&] { return !m_reports.completed.empty(); }));
  EXPECT_LE(x.first_byte, m_reports.completed[0].at);
  EXPECT_GE(x.first_byte, x.write_start);
}

TEST_F(ConnectionTest, ConnectionCloseEndsTheConnectionBeforeTheReport) {
  Exchange& x = exchange();
  Connection::State state_in_callback = Connection::State::ready;
  m_reports.after_complete = [&](Exchange&) { state_in_callback = connection().state(); };
  open_and_send(x);
  reply("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
  ASSERT_TRUE(pump([&] { return !m_reports.completed.empty(); }));
  EXPECT_EQ(state_in_callback, Connection::State::closed);
  EXPECT_EQ(m_open, 0U);
}

TEST_F(ConnectionTest, AServerThatClosesBeforeAResponseFailsTheExchangeAsReset) {
  Exchange& x = exchange();
  open_and_send(x);
  ::close(m_server);
  m_server = -1;
  ASSERT_TRUE(pump([&] { return !m_reports.errors.empty(); }));
  EXPECT_EQ(m_reports.errors[0].kind, results::ErrorKind::reset);
  EXPECT_FALSE(m_reports.errors[0].retryable);
  EXPECT_TRUE(m_reports.completed.empty());
  EXPECT_EQ(connection().state(), Connection::State::closed);
  EXPECT_EQ(m_reports.closed_idle, 0);
}

TEST_F(ConnectionTest, GarbageFailsTheExchangeAsAParseErrorWithTheParsersReason) {
  Exchange& x = exchange();
  open_and_send(x);
  reply("SMTP ready\r\n\r\n");
  ASSERT_TRUE(pump([&] { return !m_reports.errors.empty(); }));
  EXPECT_EQ(m_reports.errors[0].kind, results::ErrorKind::parse);
  EXPECT_FALSE(connection().error_string().empty());
}

TEST_F(ConnectionTest, ARefusedConnectFailsTheWaitingExchangeAsRetryable) {
  const std::uint16_t port = m_listener.port;
  ::close(m_listener.fd);  // nothing listens there now
  m_listener.fd = -1;
  m_endpoint = loopback(port);
  Exchange& x = exchange();
  ASSERT_TRUE(connection().open());
  connection().start(x);
  EXPECT_TRUE(connection().carries_exchange());
  ASSERT_TRUE(pump([&] { return !m_reports.errors.empty(); }));
  EXPECT_EQ(m_reports.errors[0].kind, results::ErrorKind::connect);
  EXPECT_TRUE(m_reports.errors[0].retryable);
  EXPECT_TRUE(m_reports.sent.empty());
  EXPECT_EQ(connection().reached_phases(x)[results::Phase::connect], -1);
}

TEST_F(ConnectionTest, CancelClosesTheConnectionAndReportsNothing) {
  Exchange& x = exchange();
  open_and_send(x);
  connection().cancel(x);
  EXPECT_EQ(connection().state(), Connection::State::closed);
  EXPECT_FALSE(connection().carries_exchange());
  ::send(m_server, k_ok.data(), k_ok.size(), MSG_NOSIGNAL);  // may fail: the client is gone
  for (int i = 0; i < 5; ++i) m_loop.poll(m_loop.now() + std::chrono::milliseconds(10));
  EXPECT_TRUE(m_reports.completed.empty());
  EXPECT_TRUE(m_reports.errors.empty());
  EXPECT_EQ(m_reports.closed_idle, 0);
}

TEST_F(ConnectionTest, AnIdleConnectionClosedByTheServerIsReportedToTheOwner) {
  ASSERT_TRUE(connection().open());
  m_server = m_listener.accept_within(2000);
  ASSERT_TRUE(pump([&] { return m_reports.ready == 1; }));
  ::close(m_server);
  m_server = -1;
  ASSERT_TRUE(pump([&] { return m_reports.closed_idle == 1; }));
  EXPECT_TRUE(m_reports.errors.empty());
  EXPECT_EQ(connection().state(), Connection::State::closed);
}

}  // namespace
