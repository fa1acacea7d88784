// The lab's HTTP/2 connection against nghttp2's client session over a socket pair: the model's answers, the
// SETTINGS, refused streams, GOAWAY, a bad preface and a stream reset while its request is in the model.
#include "lab/http2_connection.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <nghttp2/nghttp2.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fake_host.h"

using namespace openloop;
using namespace openloop::lab;
using namespace std::chrono_literals;

namespace {

struct Response {
  std::map<std::string, std::string> headers;
  std::string body;
  bool closed = false;
  std::uint32_t error = 0;  // RST_STREAM code, or 0 when closed normally
};

// An HTTP/2 client (nghttp2's client session) on one end of a socket pair; the connection under test on the
// other.
class Client {
 public:
  explicit Client(Http2Connection& server) : m_server(server) {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
    m_fd = fds[0];
    m_server.open(fds[1]);
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(
        cb,
        [](nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name, std::size_t name_length,
           const std::uint8_t* value, std::size_t value_length, std::uint8_t, void* user) {
          static_cast<Client*>(user)
              ->m_responses[frame->hd.stream_id]
              .headers[std::string(reinterpret_cast<const char*>(name), name_length)] =
              std::string(reinterpret_cast<const char*>(value), value_length);
          return 0;
        });
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(
        cb, [](nghttp2_session*, std::uint8_t, std::int32_t id, const std::uint8_t* data, std::size_t length,
               void* user) {
          static_cast<Client*>(user)->m_responses[id].body.append(reinterpret_cast<const char*>(data),
                                                                  length);
          return 0;
        });
    nghttp2_session_callbacks_set_on_stream_close_callback(
        cb, [](nghttp2_session*, std::int32_t id, std::uint32_t error, void* user) {
          Response& r = static_cast<Client*>(user)->m_responses[id];
          r.closed = true;
          r.error = error;
          return 0;
        });
    nghttp2_session_callbacks_set_on_frame_recv_callback(
        cb, [](nghttp2_session*, const nghttp2_frame* frame, void* user) {
          if (frame->hd.type == NGHTTP2_GOAWAY) {
            auto* self = static_cast<Client*>(user);
            self->goaway_last = frame->goaway.last_stream_id;
            self->goaway_error = frame->goaway.error_code;
          }
          return 0;
        });
    nghttp2_session_client_new(&m_session, cb, this);
    nghttp2_session_callbacks_del(cb);
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, nullptr, 0);
  }
  ~Client() {
    nghttp2_session_del(m_session);
    if (m_fd >= 0) ::close(m_fd);
  }

  std::int32_t get(const std::string& path, std::vector<std::pair<std::string, std::string>> extra = {}) {
    return request("GET", path, std::move(extra));
  }
  std::int32_t request(const std::string& method, const std::string& path,
                       std::vector<std::pair<std::string, std::string>> extra = {}) {
    std::vector<std::pair<std::string, std::string>> h = {
        {":method", method}, {":scheme", "http"}, {":authority", "lab"}, {":path", path}};
    h.insert(h.end(), extra.begin(), extra.end());
    std::vector<nghttp2_nv> nv;
    for (auto& [n, v] : h) {
      nv.push_back({reinterpret_cast<std::uint8_t*>(n.data()), reinterpret_cast<std::uint8_t*>(v.data()),
                    n.size(), v.size(), NGHTTP2_NV_FLAG_NONE});
    }
    return nghttp2_submit_request(m_session, nullptr, nv.data(), nv.size(), nullptr, nullptr);
  }
  void reset(std::int32_t id) { nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL); }

  /// Sends what the client has, lets the server read it, and reads the server's answer (bounded rounds).
  void pump() {
    for (int round = 0; round < 8; ++round) {
      const std::uint8_t* data = nullptr;
      ssize_t n = 0;
      while ((n = nghttp2_session_mem_send(m_session, &data)) > 0)
        send_raw({reinterpret_cast<const char*>(data), static_cast<std::size_t>(n)});
      m_server.on_io(EPOLLIN);
      read_server();
    }
  }
  void send_raw(std::string_view bytes) {
    ASSERT_EQ(::send(m_fd, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  }
  /// Reads what the server wrote; feeds it to the client session. Returns the raw bytes.
  std::string read_server() {
    std::string all;
    char buffer[65536];
    ssize_t n = 0;
    while ((n = ::recv(m_fd, buffer, sizeof buffer, 0)) > 0) all.append(buffer, static_cast<std::size_t>(n));
    if (n == 0) eof = true;
    if (!all.empty()) {
      nghttp2_session_mem_recv(m_session, reinterpret_cast<const std::uint8_t*>(all.data()), all.size());
    }
    return all;
  }
  std::uint32_t remote_max_streams() const {
    return nghttp2_session_get_remote_settings(m_session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
  }

  Response& response(std::int32_t id) { return m_responses[id]; }
  std::int32_t goaway_last = -1;
  std::uint32_t goaway_error = 0xffffffff;
  bool eof = false;

 private:
  Http2Connection& m_server;
  int m_fd = -1;
  nghttp2_session* m_session = nullptr;
  std::map<std::int32_t, Response> m_responses;
};

}  // namespace

TEST(Http2Connection, AnswersAModelRequestWithTheHttp1HeadersAndServerTiming) {
  test::FakeHost host;
  Http2Connection conn(host, 3);
  Client client(conn);
  const std::int32_t id = client.get("/item?id=7");
  client.pump();
  ASSERT_EQ(host.arrivals.size(), 1u);
  const std::uint64_t tag = host.arrivals[0].tag;
  EXPECT_EQ(tag_slot(tag), 3u);
  EXPECT_TRUE(conn.still_waiting(tag_seq(tag)));
  EXPECT_FALSE(client.response(id).closed) << "no answer before the model's";
  conn.on_timing(tag_seq(tag), 1500us, 2ms, CacheLookup::no_cache);
  conn.on_outcome(tag_seq(tag), Outcome::ok);
  client.pump();
  const Response& r = client.response(id);
  ASSERT_TRUE(r.closed);
  EXPECT_EQ(r.error, 0u);
  EXPECT_EQ(r.headers.at(":status"), "200");
  EXPECT_EQ(r.headers.at("content-type"), "text/plain");
  EXPECT_EQ(r.headers.at("content-length"), "5");
  EXPECT_EQ(r.headers.at("server-timing"), "queue;dur=1.500, app;dur=2.000, cache;desc=off");
  EXPECT_EQ(r.body, host.m_responses.body(Reply::ok));
  EXPECT_EQ(host.m_counters.http2.streams, 1u);
  EXPECT_EQ(host.m_counters.requests, 1u);
}

TEST(Http2Connection, MapsOutcomesToTheHttp1StatusesAndAnswersControlAtOnce) {
  test::FakeHost host;
  Http2Connection conn(host, 0);
  Client client(conn);
  const std::int32_t shed = client.get("/");
  const std::int32_t control = client.get("/_lab/stats");
  client.pump();
  ASSERT_EQ(host.arrivals.size(), 1u);
  EXPECT_EQ(client.response(control).headers.at(":status"), "200");
  EXPECT_EQ(client.response(control).headers.at("content-type"), "application/json");
  EXPECT_EQ(client.response(control).body, "{\"control\":true}\n");
  conn.on_outcome(tag_seq(host.arrivals[0].tag), Outcome::shed);
  client.pump();
  EXPECT_EQ(client.response(shed).headers.at(":status"), "429");
  EXPECT_EQ(client.response(shed).body, "shed: queue at --shed-at\n");
  EXPECT_EQ(client.response(shed).headers.count("server-timing"), 0u) << "no timing reported, none sent";
}

TEST(Http2Connection, AdvertisesMaxStreamsAndRefusesStreamsAboveTheBound) {
  test::FakeHost host;
  host.m_config.http2.max_streams = 9;
  host.m_config.http2.refuse_streams_above = 2;
  Http2Connection conn(host, 0);
  Client client(conn);
  const std::int32_t a = client.get("/a");
  const std::int32_t b = client.get("/b");
  const std::int32_t c = client.get("/c");
  client.pump();
  EXPECT_EQ(client.remote_max_streams(), 9u);
  EXPECT_EQ(host.arrivals.size(), 2u);
  EXPECT_TRUE(client.response(c).closed);
  EXPECT_EQ(client.response(c).error, static_cast<std::uint32_t>(NGHTTP2_REFUSED_STREAM));
  EXPECT_FALSE(client.response(a).closed);
  EXPECT_FALSE(client.response(b).closed);
  EXPECT_EQ(host.m_counters.http2.refused, 1u);
  EXPECT_EQ(host.m_counters.http2.streams, 3u);
  // Once one is answered (and its answer written: the flush timer), a new stream is accepted again.
  conn.on_outcome(tag_seq(host.arrivals[0].tag), Outcome::ok);
  host.m_timers.fire_due(host.m_now);
  const std::int32_t d = client.get("/d");
  client.pump();
  EXPECT_EQ(host.arrivals.size(), 3u);
  EXPECT_FALSE(client.response(d).closed);
}

TEST(Http2Connection, GoawayAfterNStreamsServesThoseAndClosesWhenDone) {
  test::FakeHost host;
  host.m_config.http2.goaway_after = 2;
  Http2Connection conn(host, 0);
  Client client(conn);
  client.get("/a");
  const std::int32_t b = client.get("/b");
  const std::int32_t c = client.get("/c");
  client.pump();
  EXPECT_EQ(client.goaway_last, b);
  EXPECT_EQ(client.goaway_error, static_cast<std::uint32_t>(NGHTTP2_NO_ERROR));
  EXPECT_EQ(host.m_counters.http2.goaways, 1u);
  ASSERT_EQ(host.arrivals.size(), 2u) << "the stream past the GOAWAY never reaches the model";
  EXPECT_NE(client.response(c).headers.count(":status"), 1u);
  EXPECT_FALSE(client.eof);
  for (const Arrival& a : host.arrivals) conn.on_outcome(tag_seq(a.tag), Outcome::ok);
  client.pump();
  EXPECT_EQ(client.response(b).headers.at(":status"), "200");
  EXPECT_TRUE(client.eof) << "the lab half-closes once the GOAWAY's streams are answered";
}

TEST(Http2Connection, BytesThatAreNotThePrefaceGetGoawayProtocolErrorAndTheConnectionEnds) {
  test::FakeHost host;
  Http2Connection conn(host, 0);
  Client client(conn);
  // The server hands an HTTP/1.1 request line to its HTTP/1.1 connection instead (protocol_sniffer_test.cpp);
  // what reaches this one is the preface or bytes like these, a TLS ClientHello's start.
  client.send_raw("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03");
  conn.on_io(EPOLLIN);
  const std::string bytes = client.read_server();
  EXPECT_EQ(client.goaway_error, static_cast<std::uint32_t>(NGHTTP2_PROTOCOL_ERROR));
  EXPECT_NE(bytes.find("expected the HTTP/2 connection preface"), std::string::npos);
  EXPECT_TRUE(client.eof);
  EXPECT_EQ(host.m_counters.http2.bad_preface, 1u);
  EXPECT_TRUE(host.arrivals.empty());
}

TEST(Http2Connection, AStreamResetInTheModelKeepsItsSlotUntilTheModelAnswers) {
  test::FakeHost host;
  Http2Connection conn(host, 0);
  Client client(conn);
  const std::int32_t first = client.get("/first");
  client.pump();
  ASSERT_EQ(host.arrivals.size(), 1u);
  const std::uint16_t old_seq = tag_seq(host.arrivals[0].tag);
  client.reset(first);
  client.pump();
  EXPECT_EQ(host.m_counters.http2.resets, 1u);
  EXPECT_FALSE(conn.still_waiting(old_seq)) << "--cancel drops it: nobody waits";
  const std::int32_t second = client.get("/second");
  client.pump();
  ASSERT_EQ(host.arrivals.size(), 2u);
  const std::uint16_t new_seq = tag_seq(host.arrivals[1].tag);
  EXPECT_NE(new_seq, old_seq) << "a slot the model still holds is not reused";
  conn.on_outcome(old_seq, Outcome::error);  // the reset stream's late answer goes nowhere
  client.pump();
  EXPECT_FALSE(client.response(second).closed);
  conn.on_outcome(new_seq, Outcome::ok);
  client.pump();
  EXPECT_EQ(client.response(second).headers.at(":status"), "200");
}

TEST(Http2Connection, AnswersFromTheModelsTimersGoOutTogetherWhenTheFlushTimerFires) {
  test::FakeHost host;
  Http2Connection conn(host, 0);
  Client client(conn);
  const std::int32_t a = client.get("/a");
  const std::int32_t b = client.get("/b");
  client.pump();
  ASSERT_EQ(host.arrivals.size(), 2u);
  conn.on_outcome(tag_seq(host.arrivals[0].tag), Outcome::ok);
  conn.on_outcome(tag_seq(host.arrivals[1].tag), Outcome::error);
  client.read_server();
  EXPECT_FALSE(client.response(a).closed) << "not written one by one";
  EXPECT_EQ(host.m_timers.fire_due(host.m_now), 1) << "one flush for both answers";
  client.read_server();
  EXPECT_EQ(client.response(a).headers.at(":status"), "200");
  EXPECT_EQ(client.response(b).headers.at(":status"), "500");
}

TEST(Http2Connection, LoginSetsTheSessionCookieAndAuthAcceptsItSplitIntoCookieFields) {
  test::FakeHost host;
  host.m_config.auth = true;
  Http2Connection conn(host, 0);
  Client client(conn);
  const std::int32_t login = client.request("POST", "/_lab/login");
  const std::int32_t refused = client.get("/item");
  client.pump();
  const Response& l = client.response(login);
  ASSERT_EQ(l.headers.at(":status"), "200");
  const std::string cookie = l.headers.at("set-cookie");
  ASSERT_TRUE(cookie.starts_with("lab_session=")) << cookie;
  const std::string pair = cookie.substr(0, cookie.find(';'));
  EXPECT_EQ(client.response(refused).headers.at(":status"), "401");
  EXPECT_TRUE(host.arrivals.empty());
  // RFC 9113 8.2.3: a client may send each cookie pair as its own field.
  client.get("/item", {{"cookie", "a=1"}, {"cookie", pair}});
  client.pump();
  EXPECT_EQ(host.arrivals.size(), 1u);
  EXPECT_EQ(host.m_auth.counters().authorized, 1u);
  EXPECT_EQ(host.m_auth.counters().unauthorized, 1u);
}
