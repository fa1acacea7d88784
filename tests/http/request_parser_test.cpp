// The request parser: pieces, pipelining, the watched header, bodies, keep-alive and limits.
#include "http/request_parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace openloop::http;
using Status = RequestParser::Status;

TEST(RequestParser, ParsesARequestArrivingByteByByte) {
  RequestParser p;
  p.watch_header("x-deadline");
  const std::string req = "GET /a/b?k=1 HTTP/1.1\r\nHost: x\r\nX-Deadline: 250ms\r\n\r\n";
  for (std::size_t i = 0; i + 1 < req.size(); ++i) {
    auto r = p.feed(std::string_view(req).substr(i, 1));
    ASSERT_EQ(r.status, Status::need_more) << i;
    EXPECT_TRUE(p.in_progress());
  }
  auto r = p.feed(std::string_view(req).substr(req.size() - 1));
  ASSERT_EQ(r.status, Status::request);
  EXPECT_EQ(p.method(), "GET");
  EXPECT_EQ(p.target(), "/a/b?k=1");
  EXPECT_EQ(p.path(), "/a/b");
  EXPECT_TRUE(p.has_watched());
  EXPECT_EQ(p.watched_value(), "250ms");
  EXPECT_TRUE(p.keep_alive());
  EXPECT_FALSE(p.in_progress());
}

TEST(RequestParser, ReturnsPipelinedRequestsOneAtATime) {
  RequestParser p;
  const std::string two = "GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n";
  auto r = p.feed(two);
  ASSERT_EQ(r.status, Status::request);
  EXPECT_EQ(p.target(), "/1");
  EXPECT_EQ(r.consumed, two.size() / 2);
  auto r2 = p.feed(std::string_view(two).substr(r.consumed));
  ASSERT_EQ(r2.status, Status::request);
  EXPECT_EQ(p.target(), "/2");
  EXPECT_EQ(r2.consumed, two.size() / 2);
  EXPECT_EQ(p.feed("").status, Status::need_more);
}

TEST(RequestParser, CollectsBodiesAndHonoursConnectionClose) {
  RequestParser p;
  auto r =
      p.feed("POST /_lab/config HTTP/1.1\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{\"workers\":4}");
  ASSERT_EQ(r.status, Status::request);
  EXPECT_EQ(p.method(), "POST");
  EXPECT_EQ(p.body(), "{\"workers\":4}");
  EXPECT_FALSE(p.keep_alive());
  RequestParser chunked;
  auto c =
      chunked.feed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
  ASSERT_EQ(c.status, Status::request);
  EXPECT_EQ(chunked.body(), "abcde");
}

TEST(RequestParser, HttpOneZeroClosesUnlessKeepAlive) {
  RequestParser p;
  ASSERT_EQ(p.feed("GET / HTTP/1.0\r\n\r\n").status, Status::request);
  EXPECT_FALSE(p.keep_alive());
  RequestParser k;
  ASSERT_EQ(k.feed("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").status, Status::request);
  EXPECT_TRUE(k.keep_alive());
}

TEST(RequestParser, WatchedHeaderIsCaseInsensitiveAndAbsentByDefault) {
  RequestParser p;
  p.watch_header("X-Deadline");
  ASSERT_EQ(p.feed("GET / HTTP/1.1\r\nx-deadline: 5\r\n\r\n").status, Status::request);
  EXPECT_EQ(p.watched_value(), "5");
  ASSERT_EQ(p.feed("GET / HTTP/1.1\r\nX-Deadlines: 5\r\n\r\n").status, Status::request);
  EXPECT_FALSE(p.has_watched());
}

TEST(RequestParser, MalformedInputIsAnError) {
  RequestParser p;
  auto r = p.feed("GARBAGE\r\n\r\n");
  EXPECT_EQ(r.status, Status::error);
  EXPECT_EQ(p.error(), RequestError::malformed);
  EXPECT_NE(std::string(p.error_reason()), "");
  EXPECT_EQ(p.feed("GET / HTTP/1.1\r\n\r\n").status, Status::error);  // stays failed until reset
  p.reset();
  EXPECT_EQ(p.feed("GET / HTTP/1.1\r\n\r\n").status, Status::request);
}

TEST(RequestParser, OversizedHeadersAreRefused) {
  RequestParser p(RequestLimits{1024, 1024});
  std::string req = "GET / HTTP/1.1\r\nX-Big: " + std::string(2000, 'a') + "\r\n\r\n";
  EXPECT_EQ(p.feed(req).status, Status::error);
  EXPECT_EQ(p.error(), RequestError::header_too_large);
  RequestParser many(RequestLimits{1024, 1024});
  std::string lots = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 200; ++i) lots += "A: b\r\n";
  EXPECT_EQ(many.feed(lots).status, Status::error);
  EXPECT_EQ(many.error(), RequestError::header_too_large);
}

TEST(RequestParser, OversizedBodiesAreRefused) {
  RequestParser p(RequestLimits{1024, 10});
  EXPECT_EQ(p.feed("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n").status, Status::error);
  EXPECT_EQ(p.error(), RequestError::body_too_large);
}

TEST(RequestParser, CapturesAuthorizationAndCookieBesideTheWatchedHeader) {
  RequestParser p;
  p.watch_header("x-deadline");
  const std::string req =
      "GET / HTTP/1.1\r\nauthorization: Bearer abc\r\nX-Deadline: 5ms\r\nCookie: a=1\r\nCOOKIE: b=2\r\n"
      "X-Authorization-Not: no\r\n\r\n";
  ASSERT_EQ(p.feed(req).status, Status::request);
  EXPECT_EQ(p.authorization(), "Bearer abc");
  EXPECT_EQ(p.cookie(), "a=1; b=2");
  EXPECT_EQ(p.watched_value(), "5ms");
  ASSERT_EQ(p.feed("GET / HTTP/1.1\r\n\r\n").status, Status::request);
  EXPECT_EQ(p.authorization(), "") << "cleared per request";
  EXPECT_EQ(p.cookie(), "");
}
