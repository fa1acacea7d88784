// The protocol sniffer and the server around it: an h2c lab (--http2) on 127.0.0.1 serves HTTP/1.1 on the
// same port, chosen by each connection's first bytes: the control client's requests, h2 beside them, noise
// refused, a client that says nothing cut off, and a slot that served one protocol and then the other never
// routing a stale answer across.
#include "lab/protocol_sniffer.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "core/clock.h"
#include "lab/config_fields.h"
#include "lab/control_client.h"
#include "lab/server.h"

namespace openloop::lab {
namespace {

using namespace std::chrono_literals;

int connect_to(const std::string& address) {
  const auto colon = address.rfind(':');
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<std::uint16_t>(std::stoi(address.substr(colon + 1))));
  inet_pton(AF_INET, address.substr(0, colon).c_str(), &sa.sin_addr);
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  EXPECT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof sa), 0);
  return fd;
}

void send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    ASSERT_GT(n, 0);
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

/// Everything the peer sends until it closes, or nullopt when it has not closed within `timeout`.
std::optional<std::string> read_until_closed(int fd, Nanos timeout) {
  std::string got;
  const SteadyTime end = SteadyClock::now() + timeout;
  while (SteadyClock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    char buf[4096];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return got;
    got.append(buf, static_cast<std::size_t>(n));
  }
  return std::nullopt;
}

/// GET /_lab/stats again and again on one keep-alive HTTP/1.1 connection (so polling holds one slot).
class StatsPoller {
 public:
  explicit StatsPoller(const std::string& address) : m_fd(connect_to(address)) {}
  ~StatsPoller() { ::close(m_fd); }
  StatsPoller(const StatsPoller&) = delete;
  StatsPoller& operator=(const StatsPoller&) = delete;

  nlohmann::json get() {
    send_all(m_fd, "GET /_lab/stats HTTP/1.1\r\nHost: lab\r\n\r\n");
    std::string got;
    const SteadyTime end = SteadyClock::now() + 5s;
    while (SteadyClock::now() < end) {
      const auto head_end = got.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        const auto length_at = got.find("Content-Length: ");
        const std::size_t length =
            length_at == std::string::npos ? 0 : std::stoul(got.substr(length_at + 16));
        if (got.size() >= head_end + 4 + length)
          return nlohmann::json::parse(got.substr(head_end + 4, length));
      }
      pollfd p{m_fd, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      char buf[16384];
      const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
    ADD_FAILURE() << "no stats answer: " << got;
    return nlohmann::json::object();
  }

 private:
  int m_fd;
};

struct H2Response {
  std::map<std::string, std::string> headers;
  std::string body;
  bool closed = false;
};

/// A blocking HTTP/2 client (nghttp2's client session, prior knowledge) on a TCP connection to the lab.
class H2Client {
 public:
  /// `before` is sent ahead of the client's own bytes (e.g. the first bytes of its preface).
  explicit H2Client(const std::string& address, std::string_view before = {}) : m_fd(connect_to(address)) {
    m_skip = before.size();
    send_all(m_fd, before);
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(
        cb,
        [](nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name, std::size_t name_length,
           const std::uint8_t* value, std::size_t value_length, std::uint8_t, void* user) {
          static_cast<H2Client*>(user)
              ->responses[frame->hd.stream_id]
              .headers[std::string(reinterpret_cast<const char*>(name), name_length)] =
              std::string(reinterpret_cast<const char*>(value), value_length);
          return 0;
        });
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(
        cb, [](nghttp2_session*, std::uint8_t, std::int32_t id, const std::uint8_t* data, std::size_t length,
               void* user) {
          static_cast<H2Client*>(user)->responses[id].body.append(reinterpret_cast<const char*>(data),
                                                                  length);
          return 0;
        });
    nghttp2_session_callbacks_set_on_stream_close_callback(
        cb, [](nghttp2_session*, std::int32_t id, std::uint32_t, void* user) {
          static_cast<H2Client*>(user)->responses[id].closed = true;
          return 0;
        });
    nghttp2_session_client_new(&m_session, cb, this);
    nghttp2_session_callbacks_del(cb);
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, nullptr, 0);
  }
  ~H2Client() {
    nghttp2_session_del(m_session);
    ::close(m_fd);
  }
  H2Client(const H2Client&) = delete;
  H2Client& operator=(const H2Client&) = delete;

  /// Sends GET `path`; returns its stream id.
  std::int32_t get(const std::string& path) {
    auto nv = [](const char* name, const std::string& value) {
      return nghttp2_nv{reinterpret_cast<std::uint8_t*>(const_cast<char*>(name)),
                        reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())),
                        std::char_traits<char>::length(name), value.size(), NGHTTP2_NV_FLAG_NONE};
    };
    const std::string method = "GET", scheme = "http", authority = "lab";
    const nghttp2_nv headers[] = {nv(":method", method), nv(":scheme", scheme), nv(":authority", authority),
                                  nv(":path", path)};
    const std::int32_t id =
        nghttp2_submit_request(m_session, nullptr, headers, std::size(headers), nullptr, nullptr);
    flush();
    return id;
  }

  /// Exchanges frames until stream `id` is closed; false when it is not within `timeout`.
  bool wait(std::int32_t id, Nanos timeout) {
    const SteadyTime end = SteadyClock::now() + timeout;
    while (!responses[id].closed && SteadyClock::now() < end) {
      pollfd p{m_fd, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      char buf[16384];
      const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
      if (n <= 0) return false;
      if (nghttp2_session_mem_recv(m_session, reinterpret_cast<const std::uint8_t*>(buf),
                                   static_cast<std::size_t>(n)) < 0) {
        return false;
      }
      flush();
    }
    return responses[id].closed;
  }

  std::map<std::int32_t, H2Response> responses;

 private:
  void flush() {
    const std::uint8_t* data = nullptr;
    for (ssize_t n = 0; (n = nghttp2_session_mem_send(m_session, &data)) > 0;) {
      std::string_view bytes(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
      const std::size_t skip = std::min(m_skip, bytes.size());  // sent already, ahead
      m_skip -= skip;
      send_all(m_fd, bytes.substr(skip));
    }
  }

  int m_fd;
  std::size_t m_skip = 0;
  nghttp2_session* m_session = nullptr;
};

/// An h2c lab on a free loopback port, on a thread of its own.
class DualLab : public ::testing::Test {
 protected:
  void start(LabConfig cfg = {}) {
    cfg.listen = "127.0.0.1:0";
    cfg.http2.enabled = true;
    auto server = Server::create(cfg, m_clock);
    ASSERT_TRUE(server) << server.error().message;
    m_server = std::move(*server);
    m_thread = std::thread([this] { m_server->run(); });
    auto client = ControlClient::create("http://" + m_server->address() + "/_lab/config", 5s);
    ASSERT_TRUE(client) << client.error().message;
    m_client.emplace(std::move(*client));
  }
  void TearDown() override {
    if (m_server) m_server->request_stop();
    if (m_thread.joinable()) m_thread.join();
  }
  nlohmann::json stats() const {
    auto s = m_client->stats();
    EXPECT_TRUE(s) << s.error().message;
    return s ? *s : nlohmann::json::object();
  }

  RealClock m_clock;
  std::unique_ptr<Server> m_server;
  std::thread m_thread;
  std::optional<ControlClient> m_client;
};

TEST(ClassifyFirstBytes, ThePrefaceIsHttp2AnUpperCaseMethodHttp1AnythingElseOther) {
  EXPECT_EQ(classify_first_bytes(""), FirstBytes::undecided);
  EXPECT_EQ(classify_first_bytes("P"), FirstBytes::undecided);
  EXPECT_EQ(classify_first_bytes("PRI"), FirstBytes::undecided);
  EXPECT_EQ(classify_first_bytes("PRI "), FirstBytes::http2);
  EXPECT_EQ(classify_first_bytes("PRI * HTTP/2.0\r\n"), FirstBytes::http2);
  EXPECT_EQ(classify_first_bytes("GET / HTTP/1.1\r\n"), FirstBytes::http1);
  EXPECT_EQ(classify_first_bytes("PO"), FirstBytes::http1);
  EXPECT_EQ(classify_first_bytes("PUT "), FirstBytes::http1);
  EXPECT_EQ(classify_first_bytes("\x16\x03\x01"), FirstBytes::other);
  EXPECT_EQ(classify_first_bytes("hello"), FirstBytes::other);
}

TEST_F(DualLab, TheControlClientsHttp1RequestsAreAnsweredAndCountedAsHttp1) {
  start();
  const auto changed = m_client->post_config({{"workers", 3}});
  ASSERT_TRUE(changed) << changed.error().message;
  EXPECT_EQ((*changed)["workers"], 3);
  const nlohmann::json s = stats();
  EXPECT_EQ(s["config"]["workers"], 3);
  EXPECT_EQ(s["http2"]["http1_connections"], 2);  // the POST's and the GET's (one connection each)
  EXPECT_EQ(s["http2"]["connections"], 0);
  EXPECT_EQ(s["http2"]["bad_preface"], 0);
}

TEST_F(DualLab, Http1DataPlaneAndH2RequestsAreServedOnTheSamePort) {
  start();
  const int fd = connect_to(m_server->address());
  send_all(fd, "GET /x HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n");
  const auto http1 = read_until_closed(fd, 5s);
  ::close(fd);
  ASSERT_TRUE(http1);
  EXPECT_EQ(http1->rfind("HTTP/1.1 200 ", 0), 0u) << *http1;

  H2Client h2(m_server->address());
  const std::int32_t id = h2.get("/y");
  ASSERT_TRUE(h2.wait(id, 5s));
  EXPECT_EQ(h2.responses[id].headers[":status"], "200");

  const nlohmann::json s = stats();
  EXPECT_EQ(s["http2"]["connections"], 1);
  EXPECT_EQ(s["http2"]["streams"], 1);
  EXPECT_EQ(s["http2"]["bad_preface"], 0);
  EXPECT_EQ(s["completed"], 2) << s.dump();
}

TEST_F(DualLab, APrefaceThatArrivesInPiecesWaitsForTheByteThatDecides) {
  start();
  // "PR" leaves the protocol undecided (PROPFIND would start so too); the stats round trip lets the lab see it.
  H2Client h2(m_server->address(), "PR");
  EXPECT_EQ(stats()["http2"]["connections"], 0);
  const std::int32_t id = h2.get("/y");
  ASSERT_TRUE(h2.wait(id, 5s));
  EXPECT_EQ(h2.responses[id].headers[":status"], "200");
  const nlohmann::json s = stats();
  EXPECT_EQ(s["http2"]["connections"], 1);
  EXPECT_EQ(s["http2"]["bad_preface"], 0);
}

TEST_F(DualLab, NoiseAndTlsStillGetGoawayAndCountAsBadPreface) {
  start();
  for (const std::string_view first :
       {std::string_view("hello\r\n\r\n"), std::string_view("\x16\x03\x01\x02")}) {
    const int fd = connect_to(m_server->address());
    send_all(fd, first);
    const auto answer = read_until_closed(fd, 5s);
    ::close(fd);
    ASSERT_TRUE(answer);
    EXPECT_NE(answer->find("expected the HTTP/2 connection preface"),
              std::string::npos);  // GOAWAY's debug data
  }
  EXPECT_EQ(stats()["http2"]["bad_preface"], 2);
}

TEST_F(DualLab, AClientThatSendsNothingIsClosedAfterTheHeaderTimeout) {
  LabConfig cfg;
  cfg.header_timeout = 200ms;
  start(cfg);
  const int fd = connect_to(m_server->address());
  const auto answer = read_until_closed(fd, 5s);
  ::close(fd);
  ASSERT_TRUE(answer) << "still open after 5 s";
  EXPECT_EQ(*answer, "");
  EXPECT_EQ(stats()["server"]["read_timeouts"], 1);
}

/// The milliseconds of `name;dur=` in a Server-Timing value, or -1 when it is not there.
double timing_ms(const std::string& server_timing, const std::string& name) {
  const auto at = server_timing.find(name + ";dur=");
  return at == std::string::npos ? -1 : std::stod(server_timing.substr(at + name.size() + 5));
}

// One worker serving 2 s: the HTTP/1.1 request takes it and its client leaves; the slot it freed serves an h2
// connection whose request queues behind it. The HTTP/1.1 request's answer comes first and must be dropped,
// not given to the h2 stream (both are the first request of their connection object, generation 0 each),
// which gets its own.
TEST_F(DualLab, ASlotThatServedHttp1ThenH2NeverRoutesTheStaleAnswerToTheOther) {
  LabConfig cfg;
  ASSERT_TRUE(apply_setting(cfg, "service", "2s", "test"));
  start(cfg);
  StatsPoller poller(m_server->address());  // holds its own slot throughout
  auto wait_for = [&](const char* key, int value) {
    const SteadyTime end = SteadyClock::now() + 5s;
    nlohmann::json s = poller.get();
    while (s[key] != value && SteadyClock::now() < end) s = poller.get();
    return s;
  };
  const int fd = connect_to(m_server->address());
  send_all(fd, "GET /first HTTP/1.1\r\nHost: lab\r\n\r\n");
  ASSERT_EQ(wait_for("busy_workers", 1)["busy_workers"], 1);
  ::close(fd);
  // Once the lab has seen the close, the only free slot is the one the HTTP/1.1 connection held: the h2
  // connection takes it.
  const SteadyTime end = SteadyClock::now() + 5s;
  while (poller.get()["server"]["connections_open"] != 1 && SteadyClock::now() < end) {
  }
  H2Client h2(m_server->address());
  const std::int32_t id = h2.get("/second");
  const nlohmann::json before = wait_for("queue_depth", 1);
  ASSERT_EQ(before["queue_depth"], 1) << "the h2 request must queue behind the first: " << before.dump();
  ASSERT_EQ(before["busy_workers"], 1) << before.dump();
  ASSERT_TRUE(m_client->post_config({{"service", "0"}}));  // the second is served at once when the first ends
  ASSERT_TRUE(h2.wait(id, 10s));
  EXPECT_EQ(h2.responses[id].headers[":status"], "200");
  // Its own answer: it waited in the queue and was served in no time; the stale one waited 0 and took 2 s.
  const std::string& timing = h2.responses[id].headers["server-timing"];
  EXPECT_GT(timing_ms(timing, "queue"), 0.0) << timing;
  EXPECT_EQ(timing_ms(timing, "app"), 0.0) << timing;
  EXPECT_EQ(poller.get()["completed"], 2);
}

}  // namespace
}  // namespace openloop::lab
