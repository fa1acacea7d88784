// Tests for ResponseParser: message framing (Content-Length, chunked, close-delimited), interim responses,
// keep-alive decisions, HEAD and bodiless statuses, errors, and bytes past the end of a response.
#include "http/response_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

using openloop::http::ResponseParser;
using State = ResponseParser::State;

namespace {
State feed(ResponseParser& p, const std::string& s) {
  return p.feed(s.data(), s.size());
}

/// Feeds one byte at a time; returns the state after the last byte and checks none completed early.
State feed_bytewise(ResponseParser& p, const std::string& s) {
  State st = State::incomplete;
  for (std::size_t i = 0; i < s.size(); ++i) {
    st = p.feed(s.data() + i, 1);
    if (i + 1 < s.size()) {
      EXPECT_EQ(st, State::incomplete) << "completed early at byte " << i;
    }
  }
  return st;
}
}  // namespace

TEST(ResponseParser, ContentLengthBodyCompletesOnItsLastByte) {
  ResponseParser p;
  const std::string r = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer: x\r\n\r\nhello";
  EXPECT_EQ(p.feed(r.data(), r.size() - 1), State::incomplete);
  EXPECT_EQ(p.feed(r.data() + r.size() - 1, 1), State::complete);
  EXPECT_EQ(p.status(), 200);
  EXPECT_EQ(p.body_bytes(), 5u);
  EXPECT_TRUE(p.keep_alive());
  EXPECT_EQ(p.trailing_bytes(), 0u);
}

TEST(ResponseParser, ChunkedBodyIsCountedAfterDechunking) {
  ResponseParser p;
  EXPECT_EQ(feed(p,
                 "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "5\r\nhello\r\n1a;ext=1\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: t\r\n\r\n"),
            State::complete);
  EXPECT_EQ(p.status(), 404);
  EXPECT_EQ(p.body_bytes(), 31u);
  EXPECT_TRUE(p.keep_alive());
}

TEST(ResponseParser, ChunkedBodySplitByteByByteCompletesOnlyAtTheEnd) {
  ResponseParser p;
  const std::string r =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nA\r\n0123456789\r\n0\r\n\r\n";
  EXPECT_EQ(feed_bytewise(p, r), State::complete);
  EXPECT_EQ(p.body_bytes(), 13u);
  EXPECT_EQ(p.trailing_bytes(), 0u);
}

TEST(ResponseParser, ConnectionCloseEndsKeepAlive) {
  ResponseParser p;
  EXPECT_EQ(feed(p, "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 2\r\n\r\nno"),
            State::complete);
  EXPECT_EQ(p.status(), 503);
  EXPECT_FALSE(p.keep_alive());
}

TEST(ResponseParser, Http10IsKeptAliveOnlyWhenTheServerSaysSo) {
  ResponseParser p;
  EXPECT_EQ(feed(p, "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx"), State::complete);
  EXPECT_FALSE(p.keep_alive());
  p.reset(false, false);
  EXPECT_EQ(feed(p, "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx"),
            State::complete);
  EXPECT_TRUE(p.keep_alive());
}

TEST(ResponseParser, InterimResponsesAreSkippedUntilTheFinalOne) {
  const std::string r =
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
      "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok";
  ResponseParser whole;
  EXPECT_EQ(feed(whole, r), State::complete);
  EXPECT_EQ(whole.status(), 201);
  EXPECT_EQ(whole.body_bytes(), 2u);
  ResponseParser split;
  EXPECT_EQ(feed(split, "HTTP/1.1 100 Continue\r\n\r\n"), State::incomplete);
  EXPECT_EQ(feed_bytewise(split, r.substr(25)), State::complete);
  EXPECT_EQ(split.status(), 201);
}

TEST(ResponseParser, SwitchingProtocolsIsFinalAndLeavesTheRestUnparsed) {
  ResponseParser p;
  const std::string r =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
  EXPECT_EQ(feed(p, r + "\x81\x05hello"), State::complete);
  EXPECT_EQ(p.status(), 101);
  EXPECT_FALSE(p.keep_alive());
  EXPECT_EQ(p.trailing_bytes(), 7u);
}

TEST(ResponseParser, HeadResponseHasNoBodyDespiteContentLength) {
  ResponseParser p;
  p.reset(true, false);
  EXPECT_EQ(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"), State::complete);
  EXPECT_EQ(p.body_bytes(), 0u);
  EXPECT_TRUE(p.keep_alive());
  p.reset(true, false);
  EXPECT_EQ(feed(p, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"), State::complete);
}

TEST(ResponseParser, NoContentAndNotModifiedHaveNoBody) {
  ResponseParser p;
  EXPECT_EQ(feed(p, "HTTP/1.1 204 No Content\r\n\r\n"), State::complete);
  EXPECT_EQ(p.status(), 204);
  EXPECT_TRUE(p.keep_alive());
  p.reset(false, false);
  EXPECT_EQ(feed(p, "HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\n\r\n"), State::complete);
  EXPECT_EQ(p.status(), 304);
  EXPECT_EQ(p.body_bytes(), 0u);
}

TEST(ResponseParser, CloseDelimitedBodyCompletesOnFinish) {
  ResponseParser p;
  EXPECT_EQ(feed(p, "HTTP/1.1 200 OK\r\n\r\nabc"), State::incomplete);
  EXPECT_EQ(feed(p, "defg"), State::incomplete);
  EXPECT_EQ(p.finish(), State::complete);
  EXPECT_EQ(p.status(), 200);
  EXPECT_EQ(p.body_bytes(), 7u);
  EXPECT_FALSE(p.keep_alive());
}

TEST(ResponseParser, TruncatedBodyIsAnErrorOnFinish) {
  ResponseParser p;
  EXPECT_EQ(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"), State::incomplete);
  EXPECT_EQ(p.finish(), State::error);
  EXPECT_STREQ(p.error_reason(), "connection closed before the response was complete");
  EXPECT_EQ(p.finish(), State::error);
}

TEST(ResponseParser, EofBeforeAnyByteOrAfterOnlyAnInterimResponseIsAnError) {
  ResponseParser p;
  EXPECT_EQ(p.finish(), State::error);
  EXPECT_STREQ(p.error_reason(), "connection closed before a response was received");
  p.reset(false, true);
  EXPECT_EQ(feed(p, "HTTP/1.1 100 Continue\r\n\r\n"), State::incomplete);
  EXPECT_EQ(p.finish(), State::error);
  EXPECT_STREQ(p.error_reason(), "connection closed before the response was complete");
}

TEST(ResponseParser, GarbageIsAnErrorThatStaysUntilReset) {
  ResponseParser p;
  EXPECT_EQ(feed(p, "SSH-2.0-OpenSSH_9.2\r\n"), State::error);
  EXPECT_GT(std::string(p.error_reason()).size(), 0u);
  EXPECT_EQ(feed(p, "HTTP/1.1 200 OK\r\n\r\n"), State::error);
  p.reset(false, true);
  EXPECT_STREQ(p.error_reason(), "");
  EXPECT_EQ(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"), State::complete);
}

TEST(ResponseParser, MalformedFramingIsAnError) {
  ResponseParser bad_length;
  EXPECT_EQ(feed(bad_length, "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n"), State::error);
  ResponseParser bad_chunk;
  EXPECT_EQ(feed(bad_chunk, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"), State::error);
  ResponseParser bad_status;
  EXPECT_EQ(feed(bad_status, "HTTP/1.1 2x0 OK\r\n\r\n"), State::error);
}

TEST(ResponseParser, BytesAfterTheResponseAreCountedAndParseAfterReset) {
  ResponseParser p;
  const std::string first = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nab";
  const std::string second = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n";
  const std::string both = first + second;
  EXPECT_EQ(feed(p, both), State::complete);
  EXPECT_EQ(p.status(), 200);
  EXPECT_EQ(p.trailing_bytes(), second.size());
  EXPECT_EQ(feed(p, "zz"), State::complete);
  EXPECT_EQ(p.trailing_bytes(), 2u);
  p.reset(false, false);
  EXPECT_EQ(p.feed(both.data() + first.size(), second.size()), State::complete);
  EXPECT_EQ(p.status(), 500);
  EXPECT_EQ(p.body_bytes(), 0u);
  EXPECT_EQ(p.trailing_bytes(), 0u);
}

TEST(ResponseParser, KeepsWorkingAfterBeingMoved) {
  ResponseParser a;
  EXPECT_EQ(feed(a, "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nab"), State::incomplete);
  ResponseParser b(std::move(a));
  EXPECT_EQ(feed(b, "cd"), State::complete);
  EXPECT_EQ(b.body_bytes(), 4u);
}
