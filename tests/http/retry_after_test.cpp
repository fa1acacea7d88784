// Tests for ResponseParser's Retry-After capture: off by default, case-insensitive, split across reads, first
// occurrence only, never carried from one response (or a 1xx) to the next.
#include <gtest/gtest.h>

#include <string>

#include "http/response_parser.h"

using openloop::http::ResponseParser;
using State = ResponseParser::State;

namespace {
State feed(ResponseParser& p, const std::string& s) {
  return p.feed(s.data(), s.size());
}
}  // namespace

TEST(RetryAfterCapture, OffByDefault) {
  ResponseParser p;
  ASSERT_EQ(feed(p, "HTTP/1.1 503 X\r\nRetry-After: 5\r\nContent-Length: 0\r\n\r\n"), State::complete);
  EXPECT_EQ(p.retry_after(), "");
}

TEST(RetryAfterCapture, KeepsTheValueWhateverTheCase) {
  ResponseParser p;
  p.capture_retry_after(true);
  ASSERT_EQ(feed(p, "HTTP/1.1 429 X\r\nContent-Length: 0\r\nrEtRy-AfTeR: 12\r\nRetry-After-Ms: 3\r\n\r\n"),
            State::complete);
  EXPECT_EQ(p.status(), 429);
  EXPECT_EQ(p.retry_after(), "12");
}

TEST(RetryAfterCapture, NameAndValueSplitAcrossReadsByteByByte) {
  ResponseParser p;
  p.capture_retry_after(true);
  const std::string r = "HTTP/1.1 503 X\r\nRetry-After: 120\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n";
  State st = State::incomplete;
  for (char c : r) st = p.feed(&c, 1);
  ASSERT_EQ(st, State::complete);
  EXPECT_EQ(p.retry_after(), "120");  // the first occurrence counts
}

TEST(RetryAfterCapture, ClearedBetweenResponsesAndAfterInterim) {
  ResponseParser p;
  p.capture_retry_after(true);
  ASSERT_EQ(feed(p, "HTTP/1.1 503 X\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n"), State::complete);
  p.reset(false, false);
  ASSERT_EQ(
      feed(p, "HTTP/1.1 100 Continue\r\nRetry-After: 9\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
      State::complete);
  EXPECT_EQ(p.status(), 200);
  EXPECT_EQ(p.retry_after(), "");
}

TEST(RetryAfterCapture, LongValuesAreCutNotOverflowed) {
  ResponseParser p;
  p.capture_retry_after(true);
  const std::string date = "Wed, 21 Oct 2015 07:28:00 GMT and then some more text";
  ASSERT_EQ(feed(p, "HTTP/1.1 503 X\r\nRetry-After: " + date + "\r\nContent-Length: 0\r\n\r\n"),
            State::complete);
  EXPECT_EQ(p.retry_after(), date.substr(0, 31));
}
