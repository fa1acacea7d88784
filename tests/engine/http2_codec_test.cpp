// The HTTP/2 codec against an nghttp2 server session in the test, through memory (no sockets): streams as
// slots under the peer's limit, on_sent when the HEADERS frame is written, first byte at the response's
// HEADERS, resets and GOAWAY, an HTTP/1.1 answer to the preface named, and a gRPC call's status and framing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <nghttp2/nghttp2.h>

#include "engine/exchange.h"
#include "engine/http2_codec.h"

using namespace openloop;
using namespace openloop::engine;

namespace {

struct Host final : CodecHost {
  SteadyTime now{std::chrono::seconds(100)};
  bool closed = false;
  SteadyTime receipt_time() override { return now; }
  void close_transport() override { closed = true; }
};

struct Reports final : CodecCallbacks {
  std::vector<std::pair<Exchange*, std::size_t>> sent;
  std::vector<std::pair<Exchange*, ExchangeResult>> completed;
  std::vector<std::pair<Exchange*, ExchangeError>> errors;
  void on_sent(Exchange& x, std::size_t bytes) override { sent.emplace_back(&x, bytes); }
  void on_complete(Exchange& x, const ExchangeResult& r) override { completed.emplace_back(&x, r); }
  void on_error(Exchange& x, const ExchangeError& e) override { errors.emplace_back(&x, e); }
};

// A server session: records requests, answers when told.
class Server {
 public:
  explicit Server(std::uint32_t max_streams = 100, std::uint32_t initial_window = NGHTTP2_INITIAL_WINDOW_SIZE) {
    nghttp2_session_callbacks* cbs = nullptr;
    nghttp2_session_callbacks_new(&cbs);
    nghttp2_session_callbacks_set_on_frame_recv_callback(
        cbs, [](nghttp2_session*, const nghttp2_frame* f, void* self) {
          auto& s = *static_cast<Server*>(self);
          if (f->hd.type == NGHTTP2_HEADERS && (f->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0)
            s.requests.push_back(f->hd.stream_id);
          return 0;
        });
    nghttp2_session_callbacks_set_on_header_callback(
        cbs, [](nghttp2_session*, const nghttp2_frame* f, const std::uint8_t* n, std::size_t nl,
                const std::uint8_t* v, std::size_t vl, std::uint8_t, void* self) {
          auto& s = *static_cast<Server*>(self);
          s.headers[f->hd.stream_id].emplace_back(std::string(reinterpret_cast<const char*>(n), nl),
                                                  std::string(reinterpret_cast<const char*>(v), vl));
          return 0;
        });
    nghttp2_session_callbacks_set_on_stream_close_callback(
        cbs, [](nghttp2_session*, std::int32_t id, std::uint32_t code, void* self) {
          static_cast<Server*>(self)->closed[id] = code;
          return 0;
        });
    nghttp2_session_server_new(&m_session, cbs, this);
    nghttp2_session_callbacks_del(cbs);
    const nghttp2_settings_entry iv[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, max_streams},
                                         {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, initial_window}};
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, iv, 2);
  }
  ~Server() { nghttp2_session_del(m_session); }
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  void recv(std::string_view bytes) {
    const auto rv =
        nghttp2_session_mem_recv(m_session, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    ASSERT_EQ(rv, static_cast<ssize_t>(bytes.size()));
  }
  std::string send() {
    std::string out;
    for (int i = 0; i < 1000; ++i) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(m_session, &data);
      if (n <= 0) break;
      out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
    }
    return out;
  }
  // A response: HEADERS (:status), and a body in one DATA frame when not empty.
  void respond(std::int32_t stream, const char* status, std::string body = "") {
    m_bodies[stream] = std::move(body);
    const nghttp2_nv nv[] = {{(std::uint8_t*)":status", (std::uint8_t*)status, 7, std::strlen(status),
                              NGHTTP2_NV_FLAG_NONE}};
    nghttp2_data_provider prd{};
    prd.source.ptr = &m_bodies[stream];
    prd.read_callback = [](nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t len,
                           std::uint32_t* flags, nghttp2_data_source* src, void*) -> ssize_t {
      auto& b = *static_cast<std::string*>(src->ptr);
      const std::size_t n = std::min(len, b.size());
      std::memcpy(buf, b.data(), n);
      b.erase(0, n);
      if (b.empty()) *flags |= NGHTTP2_DATA_FLAG_EOF;
      return static_cast<ssize_t>(n);
    };
    nghttp2_submit_response(m_session, stream, nv, 1, m_bodies[stream].empty() ? nullptr : &prd);
  }
  // A gRPC response: HEADERS (:status 200), the body in DATA frames, then trailers with grpc-status when
  // given (nullptr: the stream ends with the body, no trailers).
  void respond_grpc(std::int32_t stream, std::string body, const char* grpc_status) {
    m_bodies[stream] = std::move(body);
    m_trailers[stream] = grpc_status;
    const nghttp2_nv nv[] = {
        {(std::uint8_t*)":status", (std::uint8_t*)"200", 7, 3, NGHTTP2_NV_FLAG_NONE},
        {(std::uint8_t*)"content-type", (std::uint8_t*)"application/grpc", 12, 16, NGHTTP2_NV_FLAG_NONE}};
    nghttp2_data_provider prd{};
    prd.source.ptr = this;
    prd.read_callback = [](nghttp2_session* session, std::int32_t id, std::uint8_t* buf, std::size_t len,
                           std::uint32_t* flags, nghttp2_data_source* src, void*) -> ssize_t {
      auto& self = *static_cast<Server*>(src->ptr);
      auto& b = self.m_bodies[id];
      const std::size_t n = std::min(len, b.size());
      std::memcpy(buf, b.data(), n);
      b.erase(0, n);
      if (b.empty()) {
        *flags |= NGHTTP2_DATA_FLAG_EOF;
        if (const char* status = self.m_trailers[id]) {
          *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
          const nghttp2_nv trailer[] = {{(std::uint8_t*)"grpc-status", (std::uint8_t*)status, 11,
                                         std::strlen(status), NGHTTP2_NV_FLAG_NONE}};
          nghttp2_submit_trailer(session, id, trailer, 1);
        }
      }
      return static_cast<ssize_t>(n);
    };
    nghttp2_submit_response(m_session, stream, nv, 2, &prd);
  }
  // A Trailers-Only gRPC response: one HEADERS frame with :status and grpc-status, ending the stream.
  void respond_trailers_only(std::int32_t stream, const char* grpc_status) {
    const nghttp2_nv nv[] = {{(std::uint8_t*)":status", (std::uint8_t*)"200", 7, 3, NGHTTP2_NV_FLAG_NONE},
                             {(std::uint8_t*)"grpc-status", (std::uint8_t*)grpc_status, 11,
                              std::strlen(grpc_status), NGHTTP2_NV_FLAG_NONE}};
    nghttp2_submit_response(m_session, stream, nv, 2, nullptr);
  }
  void open_window(std::int32_t stream, std::int32_t bytes) {
    nghttp2_submit_window_update(m_session, NGHTTP2_FLAG_NONE, stream, bytes);
  }
  void reset(std::int32_t stream, std::uint32_t code) {
    nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, stream, code);
  }
  void goaway(std::int32_t last, std::uint32_t code = NGHTTP2_NO_ERROR) {
    nghttp2_submit_goaway(m_session, NGHTTP2_FLAG_NONE, last, code, nullptr, 0);
  }

  std::vector<std::int32_t> requests;
  std::map<std::int32_t, std::vector<std::pair<std::string, std::string>>> headers;
  std::map<std::int32_t, std::uint32_t> closed;

 private:
  nghttp2_session* m_session = nullptr;
  std::map<std::int32_t, std::string> m_bodies;
  std::map<std::int32_t, const char*> m_trailers;
};

const http::HeaderView k_headers[] = {{"X-Trace", "abc"}, {"Connection", "keep-alive"}};

class Http2CodecTest : public ::testing::Test {
 protected:
  explicit Http2CodecTest(std::uint32_t max_streams = 8) {
    m_settings.max_streams = max_streams;
    m_codec = std::make_unique<Http2Codec>(m_host, m_reports, m_settings);
    m_codec->reset();
    m_parts.method = "GET";
    m_parts.target = "/item/7";
    m_parts.authority = "example.test:8080";
    m_parts.headers = k_headers;
    for (auto& x : m_x) x.parts = &m_parts;
  }
  // Everything the client has to write goes to the server.
  void client_to_server() {
    const std::string out(m_codec->output());
    m_codec->wrote(out.size());
    m_server.recv(out);
  }
  // Everything the server has to write is fed to the client, in one read.
  Codec::Feed server_to_client() {
    const std::string in = m_server.send();
    if (in.empty()) return Codec::Feed::more;
    return m_codec->on_data(in.data(), in.size());
  }
  // The connection's setup: preface and SETTINGS both ways, acks included.
  void handshake() {
    client_to_server();
    ASSERT_EQ(server_to_client(), Codec::Feed::more);
    client_to_server();
  }

  Host m_host;
  Reports m_reports;
  Http2Settings m_settings;
  std::unique_ptr<Http2Codec> m_codec;
  Server m_server;
  http::RequestParts m_parts;
  Exchange m_x[8];
};

TEST_F(Http2CodecTest, ManyExchangesShareOneConnection) {
  handshake();
  for (int i = 0; i < 3; ++i) m_codec->start(m_x[i]);
  EXPECT_TRUE(m_codec->busy());
  client_to_server();
  ASSERT_EQ(m_server.requests, (std::vector<std::int32_t>{1, 3, 5}));
  m_server.respond(3, "200", "three");
  m_server.respond(1, "404");
  m_server.respond(5, "200", std::string(40000, 'x'));  // several DATA frames
  EXPECT_EQ(server_to_client(), Codec::Feed::more);
  ASSERT_EQ(m_reports.completed.size(), 3U);
  std::map<Exchange*, int> status;
  for (auto& [x, r] : m_reports.completed) status[x] = r.status;
  EXPECT_EQ(status[&m_x[0]], 404);
  EXPECT_EQ(status[&m_x[1]], 200);
  EXPECT_EQ(status[&m_x[2]], 200);
  EXPECT_FALSE(m_codec->busy());
  EXPECT_EQ(m_codec->free_slots(), 8U);
  EXPECT_TRUE(m_reports.errors.empty());
}

TEST_F(Http2CodecTest, RequestHeadersAreLowerCaseWithPseudoHeadersAndNoConnectionHeaders) {
  handshake();
  m_codec->start(m_x[0]);
  client_to_server();
  const auto& h = m_server.headers[1];
  auto value = [&](const std::string& name) {
    for (auto& [n, v] : h)
      if (n == name) return v;
    return std::string("<none>");
  };
  EXPECT_EQ(value(":method"), "GET");
  EXPECT_EQ(value(":scheme"), "http");
  EXPECT_EQ(value(":authority"), "example.test:8080");
  EXPECT_EQ(value(":path"), "/item/7");
  EXPECT_EQ(value("x-trace"), "abc");
  EXPECT_EQ(value("connection"), "<none>");
  EXPECT_NE(value("user-agent"), "<none>");
}

TEST_F(Http2CodecTest, GrpcTimeoutIsAtMostEightDigitsInTheFinestUnitThatFits) {
  handshake();
  // Milliseconds up to 99,999,999 (27.7 h); past them seconds, then minutes, rounded up (never a shorter
  // deadline than the one meant); any other deadline header carries the number alone.
  const std::pair<std::int64_t, const char*> cases[] = {{250, "250m"},
                                                        {99'999'999, "99999999m"},
                                                        {100'000'000, "100000S"},
                                                        {100'000'001, "100001S"},
                                                        {99'999'999'000, "99999999S"},
                                                        {99'999'999'001, "1666667M"}};
  std::int32_t stream = 1;
  for (const auto& [ms, text] : cases) {
    m_x[0].extra_header = "grpc-timeout";
    m_x[0].extra_header_value = ms;
    m_codec->start(m_x[0]);
    client_to_server();
    std::string got = "<none>";
    for (auto& [n, v] : m_server.headers[stream])
      if (n == "grpc-timeout") got = v;
    EXPECT_EQ(got, text) << ms << " ms";
    m_server.respond(stream, "200");
    server_to_client();
    stream += 2;
  }
  m_x[0].extra_header = "X-Deadline";
  m_x[0].extra_header_value = 100'000'000;
  m_codec->start(m_x[0]);
  client_to_server();
  std::string got = "<none>";
  for (auto& [n, v] : m_server.headers[stream])
    if (n == "x-deadline") got = v;
  EXPECT_EQ(got, "100000000");
}

TEST_F(Http2CodecTest, SentIsReportedOnceTheHeadersFrameIsWritten) {
  handshake();
  m_codec->start(m_x[0]);
  const std::string out(m_codec->output());
  ASSERT_GT(out.size(), 9U);
  m_codec->wrote(out.size() - 1);  // all but the HEADERS frame's last byte
  EXPECT_TRUE(m_reports.sent.empty());
  m_codec->wrote(1);
  ASSERT_EQ(m_reports.sent.size(), 1U);
  EXPECT_EQ(m_reports.sent[0].first, &m_x[0]);
  EXPECT_GT(m_reports.sent[0].second, 9U);
}

TEST_F(Http2CodecTest, FirstByteIsTheResponseHeadersCompletionTheEndOfStream) {
  handshake();
  m_codec->start(m_x[0]);
  client_to_server();
  m_server.respond(1, "200", std::string(100, 'b'));
  const std::string in = m_server.send();
  // Feed the HEADERS frame (first 9 + length bytes) at t=101 s, the rest at t=102 s.
  const std::size_t headers_len =
      9 + ((static_cast<std::size_t>(static_cast<unsigned char>(in[0])) << 16) |
           (static_cast<std::size_t>(static_cast<unsigned char>(in[1])) << 8) | static_cast<unsigned char>(in[2]));
  ASSERT_EQ(in[3], 0x01);  // HEADERS
  m_host.now = SteadyTime(std::chrono::seconds(101));
  EXPECT_EQ(m_codec->on_data(in.data(), headers_len), Codec::Feed::more);
  EXPECT_TRUE(m_x[0].first_byte_seen);
  EXPECT_TRUE(m_reports.completed.empty());
  m_host.now = SteadyTime(std::chrono::seconds(102));
  EXPECT_EQ(m_codec->on_data(in.data() + headers_len, in.size() - headers_len), Codec::Feed::more);
  ASSERT_EQ(m_reports.completed.size(), 1U);
  EXPECT_EQ(m_x[0].first_byte, SteadyTime(std::chrono::seconds(101)));
  EXPECT_EQ(m_reports.completed[0].second.at, SteadyTime(std::chrono::seconds(102)));
  EXPECT_EQ(m_reports.completed[0].second.bytes_in, headers_len + 9 + 100);
}

TEST_F(Http2CodecTest, SlotsAreTheSmallerOfMaxStreamsAndThePeersLimit) {
  EXPECT_EQ(m_codec->free_slots(), 8U);  // min(--max-streams 8, the initial 100) before SETTINGS
  Server limited(3);
  client_to_server();  // preface to m_server (ignored: the limited one answers)
  const std::string settings = limited.send();
  ASSERT_EQ(m_codec->on_data(settings.data(), settings.size()), Codec::Feed::more);
  EXPECT_TRUE(m_codec->settings_received());
  EXPECT_EQ(m_codec->peer_max_streams(), 3U);
  EXPECT_EQ(m_codec->free_slots(), 3U);
  for (int i = 0; i < 3; ++i) m_codec->start(m_x[i]);
  EXPECT_EQ(m_codec->free_slots(), 0U);
}

// A worker's connections reach one server: the lowest limit a peer stated is what a new connection assumes
// before its own SETTINGS, so it never takes more streams while it connects than the server grants.
TEST_F(Http2CodecTest, ANewConnectionAssumesTheLowestLimitAPeerStated) {
  std::uint32_t lowest = k_h2_initial_peer_streams;
  Http2Settings shared = m_settings;
  shared.lowest_peer_streams = &lowest;
  Http2Codec first(m_host, m_reports, shared);
  first.reset();
  EXPECT_EQ(first.free_slots(), 8U);  // nothing stated yet: min(--max-streams 8, 100)
  Server limited(3);
  const std::string settings = limited.send();
  ASSERT_EQ(first.on_data(settings.data(), settings.size()), Codec::Feed::more);
  EXPECT_EQ(lowest, 3U);
  Http2Codec second(m_host, m_reports, shared);
  second.reset();
  EXPECT_FALSE(second.settings_received());
  EXPECT_EQ(second.peer_max_streams(), 3U);
  EXPECT_EQ(second.free_slots(), 3U);
  Server wider(50);  // a higher limit on one connection does not raise the others'
  const std::string more = wider.send();
  ASSERT_EQ(second.on_data(more.data(), more.size()), Codec::Feed::more);
  EXPECT_EQ(second.free_slots(), 8U);
  EXPECT_EQ(lowest, 3U);
  lowest = 0;  // a peer that stated 0: a new connection still holds the exchange waiting for it
  Http2Codec third(m_host, m_reports, shared);
  third.reset();
  EXPECT_EQ(third.free_slots(), 1U);
}

TEST_F(Http2CodecTest, RefusedStreamFailsUnprocessedOtherResetsDoNot) {
  handshake();
  m_codec->start(m_x[0]);
  m_codec->start(m_x[1]);
  client_to_server();
  m_server.reset(1, NGHTTP2_REFUSED_STREAM);
  m_server.reset(3, NGHTTP2_INTERNAL_ERROR);
  EXPECT_EQ(server_to_client(), Codec::Feed::more);
  ASSERT_EQ(m_reports.errors.size(), 2U);
  EXPECT_EQ(m_reports.errors[0].first, &m_x[0]);
  EXPECT_EQ(m_reports.errors[0].second.kind, results::ErrorKind::reset);
  EXPECT_TRUE(m_reports.errors[0].second.retryable);
  EXPECT_TRUE(m_reports.errors[0].second.unprocessed);  // the worker resends it, outside the retry budget
  EXPECT_EQ(m_reports.errors[1].first, &m_x[1]);
  EXPECT_FALSE(m_reports.errors[1].second.retryable);
  EXPECT_FALSE(m_reports.errors[1].second.unprocessed);
  EXPECT_EQ(m_codec->free_slots(), 8U);  // the connection stays
}

TEST_F(Http2CodecTest, GoawayFailsStreamsAboveItsLastIdAndDrainsTheOthers) {
  handshake();
  for (int i = 0; i < 3; ++i) m_codec->start(m_x[i]);
  client_to_server();
  m_server.goaway(3);
  EXPECT_EQ(server_to_client(), Codec::Feed::more);
  ASSERT_EQ(m_reports.errors.size(), 1U);
  EXPECT_EQ(m_reports.errors[0].first, &m_x[2]);  // stream 5
  EXPECT_TRUE(m_reports.errors[0].second.retryable);
  EXPECT_TRUE(m_reports.errors[0].second.unprocessed);  // never processed: resent elsewhere
  EXPECT_TRUE(m_codec->going_away());
  EXPECT_EQ(m_codec->free_slots(), 0U);  // no new stream here
  m_server.respond(1, "200");
  EXPECT_EQ(server_to_client(), Codec::Feed::more);
  m_server.respond(3, "200");
  // The last stream ends: the connection is spent and says so (the connection closes it).
  EXPECT_EQ(server_to_client(), Codec::Feed::failed);
  EXPECT_EQ(m_reports.completed.size(), 2U);
  EXPECT_EQ(m_codec->failure_kind(), results::ErrorKind::reset);
}

TEST_F(Http2CodecTest, CancelResetsTheStreamAndKeepsTheConnection) {
  handshake();
  m_codec->start(m_x[0]);
  client_to_server();
  m_codec->cancel(m_x[0]);
  client_to_server();
  EXPECT_EQ(m_server.closed.at(1), static_cast<std::uint32_t>(NGHTTP2_CANCEL));
  EXPECT_EQ(m_codec->free_slots(), 8U);
  EXPECT_FALSE(m_codec->busy());
  m_server.respond(1, "200");  // too late: nothing is reported for a cancelled exchange
  server_to_client();
  EXPECT_TRUE(m_reports.completed.empty());
  EXPECT_TRUE(m_reports.errors.empty());
}

TEST_F(Http2CodecTest, AnHttp1AnswerToThePrefaceIsNamed) {
  m_codec->start(m_x[0]);
  client_to_server();
  const std::string answer = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
  EXPECT_EQ(m_codec->on_data(answer.data(), answer.size()), Codec::Feed::failed);
  EXPECT_STREQ(m_codec->failure_reason(), k_h2_no_preface);
  EXPECT_NE(std::string(k_h2_no_preface).find("--protocol h1"), std::string::npos);
}

TEST_F(Http2CodecTest, AConnectionClosedBeforeSettingsIsNamedToo) {
  client_to_server();
  EXPECT_EQ(m_codec->on_eof(), Codec::Feed::failed);
  EXPECT_STREQ(m_codec->failure_reason(), k_h2_no_preface);
}

// Every exchange the codec carried when its connection failed: those it reported itself and those detach_all()
// hands to the connection, which fails them with the connection's error. Each exactly once.
std::vector<Exchange*> ended_with_connection(Http2Codec& codec, const Reports& reports) {
  std::vector<Exchange*> got;
  for (auto& [x, e] : reports.errors) got.push_back(x);
  for (Exchange* x = codec.detach_all(); x != nullptr; x = x->carrier_next) got.push_back(x);
  std::sort(got.begin(), got.end());
  return got;
}

// A server whose first frame is not SETTINGS (here a PING, then garbage), with streams already submitted and
// written: the connection fails in the same read, its streams with it, and the reason names the preface.
TEST_F(Http2CodecTest, ABadPrefaceFailsTheConnectionAndItsStreamsAtOnce) {
  m_codec->start(m_x[0]);
  m_codec->start(m_x[1]);
  client_to_server();
  const std::string bad("\x00\x00\x08\x06\x00\x00\x00\x00\x00 not an HTTP/2 SETTINGS frame at all\r\n", 47);
  EXPECT_EQ(m_codec->on_data(bad.data(), bad.size()), Codec::Feed::failed);
  EXPECT_EQ(m_codec->failure_kind(), results::ErrorKind::parse);
  EXPECT_STREQ(m_codec->failure_reason(), k_h2_no_preface);
  EXPECT_EQ(m_codec->free_slots(), 0U);
  EXPECT_EQ(ended_with_connection(*m_codec, m_reports), (std::vector<Exchange*>{&m_x[0], &m_x[1]}));
  for (auto& [x, e] : m_reports.errors) EXPECT_FALSE(e.unprocessed) << "not resent to the same server";
}

// A frame that breaks the protocol after a proper SETTINGS (DATA on stream 0: a connection error, RFC 9113
// §6.1): the connection fails with the streams it carries, the reason naming a protocol error.
TEST_F(Http2CodecTest, ABadFrameFailsTheConnectionAndItsStreamsAtOnce) {
  handshake();
  for (int i = 0; i < 3; ++i) m_codec->start(m_x[i]);
  client_to_server();
  const std::string bad("\x00\x00\x01\x00\x00\x00\x00\x00\x00x", 10);
  EXPECT_EQ(m_codec->on_data(bad.data(), bad.size()), Codec::Feed::failed);
  EXPECT_EQ(m_codec->failure_kind(), results::ErrorKind::parse);
  EXPECT_NE(std::string(m_codec->failure_reason()).find("PROTOCOL_ERROR"), std::string::npos)
      << m_codec->failure_reason();
  EXPECT_EQ(ended_with_connection(*m_codec, m_reports), (std::vector<Exchange*>{&m_x[0], &m_x[1], &m_x[2]}));
}

// The server ends the connection with an error (GOAWAY PROTOCOL_ERROR) and holds the socket open: the streams
// at or below its last stream id fail with the connection at once, named; those above were never processed.
TEST_F(Http2CodecTest, AGoawayWithAnErrorFailsTheConnectionAndItsStreamsAtOnce) {
  handshake();
  for (int i = 0; i < 3; ++i) m_codec->start(m_x[i]);
  client_to_server();
  m_server.goaway(3, NGHTTP2_PROTOCOL_ERROR);
  EXPECT_EQ(server_to_client(), Codec::Feed::failed);
  EXPECT_EQ(m_codec->failure_kind(), results::ErrorKind::reset);
  EXPECT_NE(std::string(m_codec->failure_reason()).find("GOAWAY PROTOCOL_ERROR"), std::string::npos)
      << m_codec->failure_reason();
  EXPECT_EQ(ended_with_connection(*m_codec, m_reports), (std::vector<Exchange*>{&m_x[0], &m_x[1], &m_x[2]}));
  for (auto& [x, e] : m_reports.errors) EXPECT_EQ(x, &m_x[2]) << "only stream 5 was above the last stream id";
}

// A server whose SETTINGS give streams a window of 0 and never sends WINDOW_UPDATE: a request body cannot go out,
// and the codec says so when the exchange's deadline asks why it is stuck. A request without a body is not held
// back by the window, and once the window opens the body goes and nothing is said.
TEST_F(Http2CodecTest, ARequestBodyHeldByAWindowNeverOpenedIsNamed) {
  Server closed(100, 0);
  const std::string body = "hello";
  http::RequestParts post = m_parts;
  post.method = "POST";
  post.body = body;
  m_x[0].parts = &post;
  const auto to_closed = [&] {
    const std::string out(m_codec->output());
    m_codec->wrote(out.size());
    closed.recv(out);
  };
  to_closed();  // the preface
  const std::string settings = closed.send();
  ASSERT_EQ(m_codec->on_data(settings.data(), settings.size()), Codec::Feed::more);
  m_codec->start(m_x[0]);  // POST with a body
  m_codec->start(m_x[1]);  // GET
  to_closed();
  EXPECT_EQ(m_reports.sent.size(), 2U);  // both HEADERS frames went out
  EXPECT_STREQ(m_codec->stall_reason(m_x[0]), k_h2_stream_window_closed);
  EXPECT_STREQ(m_codec->stall_reason(m_x[1]), "");
  EXPECT_STREQ(m_codec->stall_reason(m_x[2]), "");  // not started
  closed.open_window(1, 100);
  const std::string update = closed.send();
  ASSERT_EQ(m_codec->on_data(update.data(), update.size()), Codec::Feed::more);
  to_closed();
  EXPECT_EQ(closed.requests, (std::vector<std::int32_t>{3}));  // the GET ended its stream with HEADERS
  EXPECT_STREQ(m_codec->stall_reason(m_x[0]), "");            // the body went out
}

// Two bodies of 40 000 bytes under HTTP/2's default windows (65 535 per stream and for the connection) and a
// server that never sends WINDOW_UPDATE: the first body goes whole, the second stops when the connection's window
// is spent while its stream's is not, and that is what the codec names.
TEST_F(Http2CodecTest, ABodyHeldByTheConnectionsWindowNamesTheConnection) {
  handshake();
  const std::string body(40000, 'b');
  http::RequestParts post = m_parts;
  post.method = "POST";
  post.body = body;
  m_x[0].parts = &post;
  m_x[1].parts = &post;
  m_codec->start(m_x[0]);
  m_codec->start(m_x[1]);
  client_to_server();
  EXPECT_STREQ(m_codec->stall_reason(m_x[0]), "");
  EXPECT_STREQ(m_codec->stall_reason(m_x[1]), k_h2_connection_window_closed);
}

TEST_F(Http2CodecTest, DetachAllReturnsEveryStartedExchangeOnce) {
  handshake();
  for (int i = 0; i < 3; ++i) m_codec->start(m_x[i]);
  std::vector<Exchange*> got;
  for (Exchange* x = m_codec->detach_all(); x != nullptr; x = x->carrier_next) got.push_back(x);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<Exchange*>{&m_x[0], &m_x[1], &m_x[2]}));
  EXPECT_FALSE(m_codec->busy());
}

}  // namespace

namespace {
// nghttp2's allocations, counted through the session's allocator (Http2Settings::mem).
struct CountingMem {
  std::uint64_t allocations = 0;
  nghttp2_mem mem{this,
                  [](std::size_t n, void* self) {
                    ++static_cast<CountingMem*>(self)->allocations;
                    return std::malloc(n);
                  },
                  [](void* p, void*) { std::free(p); },
                  [](std::size_t n, std::size_t size, void* self) {
                    ++static_cast<CountingMem*>(self)->allocations;
                    return std::calloc(n, size);
                  },
                  [](void* p, std::size_t n, void* self) {
                    ++static_cast<CountingMem*>(self)->allocations;
                    return std::realloc(p, n);
                  }};
};
}  // namespace

// What nghttp2 itself allocates per stream once the connection is warm (the codec allocates nothing per stream;
// docs/http2.md gives the figure): a stream's state, its outbound HEADERS item and the header copies, freed when
// the stream closes. Measured over 100 rounds of 8 streams, each answered with a small body.
TEST_F(Http2CodecTest, NghttpTwoAllocationsPerStreamAreCountedThroughTheSessionAllocator) {
  CountingMem counting;
  m_settings.mem = &counting.mem;
  m_codec = std::make_unique<Http2Codec>(m_host, m_reports, m_settings);
  m_codec->reset();
  handshake();
  const auto round = [&] {
    for (auto& x : m_x) m_codec->start(x);
    client_to_server();
    const std::vector<std::int32_t> ids = m_server.requests;
    m_server.requests.clear();
    for (const std::int32_t id : ids) m_server.respond(id, "200", "ok");
    ASSERT_EQ(server_to_client(), Codec::Feed::more);
    client_to_server();  // WINDOW_UPDATE, acks
  };
  for (int i = 0; i < 8; ++i) round();
  ASSERT_GT(counting.allocations, 0U) << "the session does not use the allocator given";
  const std::uint64_t before = counting.allocations;
  constexpr int k_rounds = 100;
  for (int i = 0; i < k_rounds; ++i) round();
  ASSERT_EQ(m_reports.completed.size(), (8U + k_rounds) * 8U);
  const double per_stream = static_cast<double>(counting.allocations - before) / (k_rounds * 8.0);
  std::printf("nghttp2 allocations per stream (warm): %.2f\n", per_stream);
  EXPECT_GE(per_stream, 1.0);
  EXPECT_LE(per_stream, 8.0);
}

const http::HeaderView k_grpc_headers[] = {{"Content-Type", "application/grpc"}, {"TE", "trailers"}};

// A gRPC call: a request whose content-type is application/grpc, started and sent.
class Http2CodecGrpcTest : public Http2CodecTest {
 protected:
  Http2CodecGrpcTest() {
    m_parts.method = "POST";
    m_parts.target = "/shop.v1.Store/Get";
    m_parts.headers = k_grpc_headers;
    handshake();
    m_codec->start(m_x[0]);
    client_to_server();
  }
  // A framed message: a zero flag, the length big-endian, the bytes.
  static std::string framed(std::string_view message) {
    std::string out(5, '\0');
    out[4] = static_cast<char>(message.size());
    return out.append(message);
  }
  std::string error_reason() const { return m_codec->failure_reason(); }
};

TEST_F(Http2CodecGrpcTest, TheStatusComesFromTheTrailers) {
  bool te = false;
  for (const auto& [name, value] : m_server.headers[1]) te = te || (name == "te" && value == "trailers");
  EXPECT_TRUE(te) << "te: trailers is the one hop-by-hop header HTTP/2 allows";
  m_server.respond_grpc(1, framed("hello") + framed(""), "0");
  EXPECT_EQ(server_to_client(), Codec::Feed::more);
  ASSERT_EQ(m_reports.completed.size(), 1U) << error_reason();
  EXPECT_EQ(m_reports.completed[0].second.status, 200);
  EXPECT_EQ(m_reports.completed[0].second.protocol_status, 0);
}

TEST_F(Http2CodecGrpcTest, ATrailersOnlyResponseCarriesItsStatusInItsHeaders) {
  m_server.respond_trailers_only(1, "5");
  EXPECT_EQ(server_to_client(), Codec::Feed::more);
  ASSERT_EQ(m_reports.completed.size(), 1U) << error_reason();
  EXPECT_EQ(m_reports.completed[0].second.protocol_status, 5);  // NOT_FOUND
}

TEST_F(Http2CodecGrpcTest, AnHttpStatusOtherThan200IsAProtocolErrorNamingIt) {
  m_server.respond(1, "503", "busy");
  server_to_client();
  ASSERT_EQ(m_reports.errors.size(), 1U);
  EXPECT_EQ(m_reports.errors[0].second.kind, results::ErrorKind::parse);
  EXPECT_FALSE(m_reports.errors[0].second.retryable);
  EXPECT_NE(error_reason().find("HTTP status 503, not 200"), std::string::npos) << error_reason();
}

TEST_F(Http2CodecGrpcTest, AResponseWithoutGrpcStatusIsAProtocolError) {
  m_server.respond_grpc(1, framed("hello"), nullptr);
  server_to_client();
  ASSERT_EQ(m_reports.errors.size(), 1U);
  EXPECT_NE(error_reason().find("no grpc-status"), std::string::npos) << error_reason();
}

TEST_F(Http2CodecGrpcTest, AStatusThatIsNotACodeIsAProtocolError) {
  m_server.respond_grpc(1, framed("hello"), "17");
  server_to_client();
  ASSERT_EQ(m_reports.errors.size(), 1U);
  EXPECT_NE(error_reason().find("not a status code 0..16"), std::string::npos) << error_reason();
}

TEST_F(Http2CodecGrpcTest, AMessageCutShortOfItsLengthPrefixIsAProtocolError) {
  m_server.respond_grpc(1, framed("hello").substr(0, 8), "0");  // the prefix says 5 bytes, 3 come
  server_to_client();
  ASSERT_EQ(m_reports.errors.size(), 1U);
  EXPECT_NE(error_reason().find("ended inside a message"), std::string::npos) << error_reason();
}

TEST_F(Http2CodecGrpcTest, ACompressedFlagOtherThanZeroOrOneIsAProtocolError) {
  std::string body = framed("hello");
  body[0] = 7;
  m_server.respond_grpc(1, body, "0");
  server_to_client();
  ASSERT_EQ(m_reports.errors.size(), 1U);
  EXPECT_NE(error_reason().find("compressed flag"), std::string::npos) << error_reason();
}

TEST_F(Http2CodecTest, AnHttpRequestHasNoProtocolStatusEvenWithGrpcStatusHeaders) {
  handshake();
  m_codec->start(m_x[0]);
  client_to_server();
  m_server.respond_trailers_only(1, "5");  // grpc-status on a request that is not a gRPC call: ignored
  server_to_client();
  ASSERT_EQ(m_reports.completed.size(), 1U);
  EXPECT_EQ(m_reports.completed[0].second.status, 200);
  EXPECT_EQ(m_reports.completed[0].second.protocol_status, -1);
}
