// A ready HTTP/2 connection with a deferred-writes list (the worker's): streams started in one loop round are
// written together by write_deferred(), not one write each; without the list, start() writes at once. Real
// loopback sockets; the test reads the client's frames raw on the server side. Bounded waits only.
#include <gtest/gtest.h>

#include <poll.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "../net/socket_test_util.h"
#include "engine/connection.h"
#include "engine/exchange.h"

using namespace openloop;
using namespace openloop::engine;
using namespace openloop::net::testing;

namespace {

struct Reports final : CodecCallbacks, ConnectionOwner {
  std::vector<Exchange*> sent;
  std::vector<ExchangeError> errors;
  int ready = 0;
  void on_sent(Exchange& x, std::size_t) override { sent.push_back(&x); }
  void on_complete(Exchange&, const ExchangeResult&) override {}
  void on_error(Exchange&, const ExchangeError& e) override { errors.push_back(e); }
  void on_ready(Connection&) override { ++ready; }
  void on_closed_idle(Connection&) override {}
};

constexpr std::size_t k_preface = 24;  // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
constexpr std::uint8_t k_headers_frame = 1;

class DeferredWritesTest : public ::testing::Test {
 protected:
  explicit DeferredWritesTest() : m_loop(std::move(*net::EventLoop::create())) {
    m_endpoint = loopback(m_listener.port);
    m_config.endpoint = &m_endpoint;
    m_config.read_buffer = m_buffer.data();
    m_config.read_buffer_size = m_buffer.size();
    m_config.open_count = &m_open;
    m_config.callbacks = &m_reports;
    m_config.protocol = Protocol::http2;
    m_config.slots_before_ready = k_h2_initial_peer_streams;
    m_parts.method = "GET";
    m_parts.target = "/";
    m_parts.authority = "t";
  }
  ~DeferredWritesTest() override {
    if (m_connection) m_connection->close();
    if (m_server >= 0) ::close(m_server);
  }

  // Connects (h2c: ready once connected) and reads the client's preface and SETTINGS off the server side.
  void open(std::vector<Connection*>* deferred) {
    m_config.deferred_writes = deferred;
    m_connection.emplace(m_reports, m_loop, m_config);
    ASSERT_TRUE(m_connection->open());
    m_server = m_listener.accept_within(2000);
    ASSERT_GE(m_server, 0);
    for (int i = 0; i < 200 && m_reports.ready == 0; ++i)
      m_loop.poll(m_loop.now() + std::chrono::milliseconds(10));
    ASSERT_EQ(m_reports.ready, 1);
    ASSERT_EQ(m_connection->state(), Connection::State::ready);
    m_frames = read_frames(k_preface);
    ASSERT_FALSE(m_frames.empty());  // SETTINGS at least
  }
  Exchange& exchange() {
    Exchange& x = m_exchanges.emplace_back();
    x.parts = &m_parts;
    x.attempt_start = m_loop.now();
    return x;
  }
  // The types of the frames the client wrote since the last call (skipping `skip` leading bytes), waiting up to
  // 100 ms for the first bytes; empty when nothing came.
  std::vector<std::uint8_t> read_frames(std::size_t skip = 0) {
    std::string got;
    pollfd p{m_server, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) return {};
    char buf[65536];
    for (;;) {
      const ssize_t n = ::recv(m_server, buf, sizeof buf, MSG_DONTWAIT);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
    std::vector<std::uint8_t> types;
    for (std::size_t at = skip; at + 9 <= got.size();) {
      const std::size_t length = (static_cast<std::size_t>(static_cast<std::uint8_t>(got[at])) << 16) |
                                 (static_cast<std::size_t>(static_cast<std::uint8_t>(got[at + 1])) << 8) |
                                 static_cast<std::uint8_t>(got[at + 2]);
      types.push_back(static_cast<std::uint8_t>(got[at + 3]));
      at += 9 + length;
    }
    return types;
  }
  static std::size_t headers_in(const std::vector<std::uint8_t>& types) {
    return static_cast<std::size_t>(std::count(types.begin(), types.end(), k_headers_frame));
  }

  Listener m_listener;
  net::Endpoint m_endpoint;
  net::EventLoop m_loop;
  std::vector<char> m_buffer = std::vector<char>(64 * 1024);
  std::uint64_t m_open = 0;
  ConnectionConfig m_config;
  Reports m_reports;
  http::RequestParts m_parts;
  std::optional<Connection> m_connection;
  std::deque<Exchange> m_exchanges;
  std::vector<std::uint8_t> m_frames;
  int m_server = -1;
};

TEST_F(DeferredWritesTest, StreamsStartedInOneRoundAreWrittenTogetherByWriteDeferred) {
  std::vector<Connection*> deferred;
  open(&deferred);
  ASSERT_TRUE(m_connection->defers_writes());
  Exchange& a = exchange();
  Exchange& b = exchange();
  Exchange& c = exchange();
  m_connection->start(a);
  m_connection->start(b);
  m_connection->start(c);
  // Nothing written yet: no on_sent, no frame at the server; the connection is listed once for the round.
  EXPECT_TRUE(m_reports.sent.empty());
  EXPECT_EQ(deferred, std::vector<Connection*>{&*m_connection});
  EXPECT_EQ(headers_in(read_frames()), 0U);
  m_connection->write_deferred();
  EXPECT_EQ(m_reports.sent, (std::vector<Exchange*>{&a, &b, &c}));
  EXPECT_EQ(headers_in(read_frames()), 3U);
  // The next round lists it again.
  deferred.clear();
  m_connection->start(exchange());
  EXPECT_EQ(deferred.size(), 1U);
}

TEST_F(DeferredWritesTest, WithoutTheListEachStartWritesAtOnce) {
  open(nullptr);
  EXPECT_FALSE(m_connection->defers_writes());
  Exchange& a = exchange();
  m_connection->start(a);
  EXPECT_EQ(m_reports.sent, std::vector<Exchange*>{&a});
  EXPECT_EQ(headers_in(read_frames()), 1U);
}

// A read before the round's write (the worker polls while it issues arrivals) writes the round's streams first:
// a GOAWAY that refuses them then finds their requests sent, as without the deferral (attempts = sent + resent).
TEST_F(DeferredWritesTest, AReadWritesTheRoundsStreamsBeforeReading) {
  std::vector<Connection*> deferred;
  open(&deferred);
  Exchange& a = exchange();
  m_connection->start(a);
  ASSERT_TRUE(m_reports.sent.empty());
  // The server's SETTINGS (empty) and a GOAWAY whose last stream id is 0: stream 1 was never processed.
  const unsigned char frames[] = {0, 0, 0, 4, 0, 0, 0, 0, 0,                       // SETTINGS
                                  0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // GOAWAY 0 NO_ERROR
  ASSERT_EQ(::send(m_server, frames, sizeof frames, MSG_NOSIGNAL), static_cast<ssize_t>(sizeof frames));
  for (int i = 0; i < 200 && m_reports.errors.empty(); ++i)
    m_loop.poll(m_loop.now() + std::chrono::milliseconds(10));
  ASSERT_EQ(m_reports.errors.size(), 1U);
  EXPECT_TRUE(m_reports.errors[0].unprocessed);
  EXPECT_EQ(m_reports.sent, std::vector<Exchange*>{&a});  // written before the GOAWAY was read
  EXPECT_EQ(headers_in(read_frames()), 1U);
}

TEST_F(DeferredWritesTest, AConnectionClosedBeforeItsRoundEndsWritesNothing) {
  std::vector<Connection*> deferred;
  open(&deferred);
  m_connection->start(exchange());
  m_connection->close();
  m_connection->write_deferred();
  EXPECT_TRUE(m_reports.sent.empty());
  EXPECT_FALSE(m_connection->defers_writes());
}

}  // namespace
