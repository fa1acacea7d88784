// The response sink fed by the real parser: status, named headers and the body, each bounded.
#include "http/response_sink.h"

#include <gtest/gtest.h>

#include <string>

#include "http/response_parser.h"

using namespace openloop::http;

namespace {

ResponseSink make_sink(std::size_t body_cap = 8) {
  return ResponseSink({"X-Token", "Location"}, 6, body_cap);
}

TEST(ResponseSink, KeepsTheStatusNamedHeadersAndTheBodyUpToItsCaps) {
  ResponseSink sink = make_sink();
  ResponseParser parser;
  parser.set_sink(&sink);
  parser.reset(false, true);
  const std::string response =
      "HTTP/1.1 201 Created\r\nx-token: abc\r\nX-Other: no\r\nX-TOKEN: second\r\nTransfer-Encoding: "
      "chunked\r\n"
      "\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
  // Byte by byte: every name, value and chunk arrives in pieces.
  for (const char c : response) parser.feed(&c, 1);
  ASSERT_EQ(parser.state(), ResponseParser::State::complete);
  EXPECT_EQ(sink.status(), 201);
  ASSERT_TRUE(sink.header(0));
  EXPECT_EQ(*sink.header(0), "abc");  // the first occurrence counts
  EXPECT_FALSE(sink.header(1));       // no Location
  EXPECT_FALSE(sink.header(2));       // not a name it was given
  EXPECT_EQ(sink.body(), "hello wo");
  EXPECT_TRUE(sink.truncated());
}

TEST(ResponseSink, KeepsEverySetCookieOnePerLine) {
  ResponseSink sink({"x-token", "set-cookie"}, 64, 0);
  ResponseParser parser;
  parser.set_sink(&sink);
  parser.reset(false, true);
  const std::string response =
      "HTTP/1.1 200 OK\r\nSet-Cookie: a=1; Path=/\r\nX-Token: t1\r\nset-cookie: b=2\r\nX-Token: t2\r\n"
      "SET-COOKIE: c=3\r\nContent-Length: 0\r\n\r\n";
  for (const char c : response) parser.feed(&c, 1);
  ASSERT_EQ(parser.state(), ResponseParser::State::complete);
  ASSERT_TRUE(sink.header(0));
  EXPECT_EQ(*sink.header(0), "t1");  // other headers: the first occurrence
  ASSERT_TRUE(sink.header(1));
  EXPECT_EQ(*sink.header(1), "a=1; Path=/\nb=2\nc=3");
  sink.clear();
  EXPECT_FALSE(sink.header(1));
}

TEST(ResponseSink, AnInterimResponseLeavesNothingBehind) {
  ResponseSink sink = make_sink(64);
  ResponseParser parser;
  parser.set_sink(&sink);
  parser.reset(false, true);
  const std::string response =
      "HTTP/1.1 103 Early Hints\r\nLocation: /a\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
  ASSERT_EQ(parser.feed(response.data(), response.size()), ResponseParser::State::complete);
  EXPECT_EQ(sink.status(), 200);
  EXPECT_FALSE(sink.header(1));
  EXPECT_EQ(sink.body(), "ok");
  EXPECT_FALSE(sink.truncated());
}

TEST(ResponseSink, AValueLongerThanItsCapIsCutAndSaysSo) {
  ResponseSink sink = make_sink();
  ResponseParser parser;
  parser.set_sink(&sink);
  parser.reset(false, true);
  const std::string response = "HTTP/1.1 302 Found\r\nLocation: /very/long\r\nContent-Length: 0\r\n\r\n";
  ASSERT_EQ(parser.feed(response.data(), response.size()), ResponseParser::State::complete);
  EXPECT_EQ(*sink.header(1), "/very/");
  EXPECT_TRUE(sink.truncated());
}

TEST(ResponseSink, WithoutASinkTheParserStillFramesAndCounts) {
  ResponseSink sink = make_sink();
  ResponseParser parser;
  parser.set_sink(&sink);
  parser.set_sink(nullptr);
  parser.reset(false, true);
  const std::string response = "HTTP/1.1 200 OK\r\nX-Token: t\r\nContent-Length: 3\r\n\r\nabc";
  ASSERT_EQ(parser.feed(response.data(), response.size()), ResponseParser::State::complete);
  EXPECT_EQ(parser.body_bytes(), 3U);
  EXPECT_EQ(sink.status(), 0);  // not fed
}

// A worker makes one sink per exchange slot at start-up (thousands at a high rate), so a sink takes memory
// only when a response needs it, grows it up to the caps, and keeps it for the next response.
TEST(ResponseSink, TakesMemoryOnlyWhenAResponseNeedsItAndKeepsIt) {
  constexpr std::size_t body_cap = 64 * 1024;
  ResponseSink sink({"x-token"}, 4096, body_cap);
  EXPECT_LE(sink.reserved(), 2 * 15U) << "a new sink holds no buffer of its caps' size";
  ResponseParser parser;
  parser.set_sink(&sink);
  const auto feed = [&](const std::string& response) {
    sink.clear();
    parser.reset(false, true);
    ASSERT_EQ(parser.feed(response.data(), response.size()), ResponseParser::State::complete);
  };
  const std::string small =
      "HTTP/1.1 200 OK\r\nX-Token: t\r\nContent-Length: 40\r\n\r\n" + std::string(40, 'a');
  feed(small);
  EXPECT_EQ(sink.body(), std::string(40, 'a'));
  EXPECT_LE(sink.reserved(), 15U + 1024U) << "a 40-byte body takes about its size, not the cap";
  const std::string big = "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + std::string(100000, 'b');
  feed(big);
  EXPECT_EQ(sink.body().size(), body_cap);
  EXPECT_TRUE(sink.truncated());
  EXPECT_FALSE(sink.header(0));
  const std::size_t grown = sink.reserved();
  EXPECT_LE(grown, body_cap + 15U) << "never beyond the cap";
  // Once grown, the same and smaller responses reuse the buffers.
  feed(big);
  feed(small);
  EXPECT_EQ(sink.reserved(), grown);
  EXPECT_EQ(*sink.header(0), "t");
  EXPECT_EQ(sink.body(), std::string(40, 'a')) << "nothing of the longer body before it is left";
  EXPECT_FALSE(sink.truncated());
}

}  // namespace
