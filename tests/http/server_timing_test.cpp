// Tests for Server-Timing: the value grammar (sum or one metric, quoted strings, garbage set aside, never a
// crash) and the response parser's capture (case, split reads, several lines, cleared between responses).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "http/response_parser.h"
#include "http/server_timing.h"

using openloop::Nanos;
using openloop::http::parse_server_timing;
using openloop::http::ResponseParser;
using Status = openloop::http::ServerTimingValue::Status;
using State = ResponseParser::State;

namespace {
State feed(ResponseParser& p, const std::string& s) {
  return p.feed(s.data(), s.size());
}
Nanos ms(double v) {
  return Nanos(static_cast<std::int64_t>(v * 1e6 + 0.5));
}
}  // namespace

TEST(ServerTimingValue, OneMetricsDurIsMilliseconds) {
  const auto v = parse_server_timing("app;dur=12.3");
  ASSERT_EQ(v.status, Status::valid);
  EXPECT_EQ(v.duration, ms(12.3));
}

TEST(ServerTimingValue, SeveralMetricsAddUpOrOneIsSelectedByName) {
  const std::string h = R"(queue;dur=0.5, app;desc="GET /x, then db";DUR=2.25 , cache;desc=hit)";
  const auto sum = parse_server_timing(h);
  ASSERT_EQ(sum.status, Status::valid);
  EXPECT_EQ(sum.duration, ms(2.75));
  const auto app = parse_server_timing(h, "APP");
  ASSERT_EQ(app.status, Status::valid);
  EXPECT_EQ(app.duration, ms(2.25));
  EXPECT_EQ(parse_server_timing(h, "cache").status, Status::no_duration);
  EXPECT_EQ(parse_server_timing(h, "db").status, Status::no_duration);
}

TEST(ServerTimingValue, ACacheMetricsDescSaysWhatTheCacheDid) {
  using Cache = openloop::http::ServerTimingValue::Cache;
  EXPECT_EQ(parse_server_timing("queue;dur=0.1, app;dur=2, cache;desc=off").cache, Cache::off);
  EXPECT_EQ(parse_server_timing("queue;dur=0.1, app;dur=2, cache;desc=off").duration, ms(2.1));
  EXPECT_EQ(parse_server_timing("cache;desc=\"HIT\"").cache, Cache::hit);
  EXPECT_EQ(parse_server_timing("cache;desc=\"HIT\"").status, Status::no_duration);
  EXPECT_EQ(parse_server_timing("app;dur=1, CDN-Cache;desc=MISS").cache, Cache::miss);
  EXPECT_EQ(parse_server_timing("cache;desc=stale").cache, Cache::hit);
  EXPECT_EQ(parse_server_timing("cache;desc=bypass").cache, Cache::miss);
  EXPECT_EQ(parse_server_timing("cache;desc=none").cache, Cache::off);
  // The first cache metric that says something counts; unknown words, other metrics and a bare cache say nothing.
  EXPECT_EQ(parse_server_timing("cache;desc=hit, cache;desc=miss").cache, Cache::hit);
  EXPECT_EQ(parse_server_timing("cache;desc=warm").cache, Cache::unsaid);
  EXPECT_EQ(parse_server_timing("cache;dur=3").cache, Cache::unsaid);
  EXPECT_EQ(parse_server_timing("app;desc=hit").cache, Cache::unsaid);
  EXPECT_EQ(parse_server_timing("edge;dur=1").cache, Cache::unsaid);
  EXPECT_EQ(parse_server_timing("cache;desc=off,,").cache, Cache::unsaid) << "malformed: nothing is believed";
}

TEST(ServerTimingValue, FirstDurOfAMetricAndFirstSelectedMetricCount) {
  EXPECT_EQ(parse_server_timing("app;dur=1;dur=5").duration, ms(1));
  EXPECT_EQ(parse_server_timing("app;dur=1, app;dur=5", "app").duration, ms(1));
  EXPECT_EQ(parse_server_timing("app;dur=1, app;dur=5").duration, ms(6));
  EXPECT_EQ(parse_server_timing("total;dur=\"3.5\"").duration, ms(3.5));  // quoted numbers are allowed
}

TEST(ServerTimingValue, MetricsWithoutDurationAreWellFormed) {
  EXPECT_EQ(parse_server_timing("miss").status, Status::no_duration);
  EXPECT_EQ(parse_server_timing("cache;desc=\"hit\", edge").status, Status::no_duration);
}

TEST(ServerTimingValue, GarbageIsMalformed) {
  for (const char* bad : {"", "   ", ";dur=1", "app;dur=", "app;dur=-1", "app;dur=1e3", "app;dur=abc",
                          "app;dur=1 2", "app dur=1", "app;desc=\"unterminated", "app;dur=1,,", "app;dur=1,",
                          "a;dur=.", "@pp;dur=1", "app;=1", "app;dur=\"1\\\"\""}) {
    EXPECT_EQ(parse_server_timing(bad).status, Status::malformed) << bad;
  }
}

TEST(ServerTimingValue, RandomBytesNeverCrashOrGoNegative) {
  std::mt19937_64 rng(7);
  const std::string alphabet = "appdurqe;=,\" .0123456789-\\\tx";
  for (int n = 0; n < 20000; ++n) {
    std::string s(rng() % 40, ' ');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    const auto v = parse_server_timing(s);
    EXPECT_GE(v.duration.count(), 0) << s;
    if (v.status != Status::valid) {
      EXPECT_EQ(v.duration.count(), 0) << s;
    }
  }
}

TEST(ServerTimingValue, HugeDurationsAreClampedToADay) {
  const auto v = parse_server_timing("app;dur=99999999999999999999");
  ASSERT_EQ(v.status, Status::valid);
  EXPECT_EQ(v.duration, std::chrono::hours(24));
}

TEST(ServerTimingCapture, OffByDefault) {
  ResponseParser p;
  ASSERT_EQ(feed(p, "HTTP/1.1 200 OK\r\nServer-Timing: app;dur=3\r\nContent-Length: 0\r\n\r\n"),
            State::complete);
  EXPECT_FALSE(p.has_server_timing());
  EXPECT_EQ(p.server_timing().status, Status::no_duration);
}

TEST(ServerTimingCapture, SeveralLinesAddUpWhateverTheCaseAndSplit) {
  ResponseParser p;
  p.capture_server_timing(true);
  const std::string r =
      "HTTP/1.1 200 OK\r\nsErVeR-tImInG: queue;dur=1.5\r\nServer-Timing-X: app;dur=100\r\nServer-Timing: "
      "app;dur=2\r\nContent-Length: 2\r\n\r\nok";
  State st = State::incomplete;
  for (char c : r) st = p.feed(&c, 1);
  ASSERT_EQ(st, State::complete);
  EXPECT_TRUE(p.has_server_timing());
  ASSERT_EQ(p.server_timing().status, Status::valid);
  EXPECT_EQ(p.server_timing().duration, ms(3.5));
  EXPECT_EQ(p.body_bytes(), 2U);
}

TEST(ServerTimingCapture, NamedMetricAndRetryAfterTogether) {
  ResponseParser p;
  p.capture_retry_after(true);
  p.capture_server_timing(true, "app");
  ASSERT_EQ(feed(p,
                 "HTTP/1.1 503 X\r\nRetry-After: 4\r\nServer-Timing: queue;dur=7, app;dur=0.25\r\n"
                 "Content-Length: 0\r\n\r\n"),
            State::complete);
  EXPECT_EQ(p.retry_after(), "4");
  EXPECT_EQ(p.server_timing().duration, ms(0.25));
}

TEST(ServerTimingCapture, AnUnreadableLineSpoilsTheResponseAndIsClearedByTheNext) {
  ResponseParser p;
  p.capture_server_timing(true);
  ASSERT_EQ(feed(p, "HTTP/1.1 200 OK\r\nServer-Timing: app;dur=1\r\nServer-Timing: ;;\r\nContent-Length: "
                    "0\r\n\r\n"),
            State::complete);
  EXPECT_EQ(p.server_timing().status, Status::malformed);
  p.reset(false, false);
  ASSERT_EQ(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"), State::complete);
  EXPECT_FALSE(p.has_server_timing());
  EXPECT_EQ(p.server_timing().status, Status::no_duration);
}

TEST(ServerTimingCapture, OverlongValueIsMalformedNotOverflowed) {
  ResponseParser p;
  p.capture_server_timing(true);
  const std::string value = "app;dur=1;desc=\"" + std::string(400, 'x') + "\"";
  ASSERT_EQ(feed(p, "HTTP/1.1 200 OK\r\nServer-Timing: " + value + "\r\nContent-Length: 0\r\n\r\n"),
            State::complete);
  EXPECT_EQ(p.server_timing().status, Status::malformed);
}

TEST(ServerTimingCapture, InterimResponsesHeadersDoNotCount) {
  ResponseParser p;
  p.capture_server_timing(true);
  ASSERT_EQ(feed(p, "HTTP/1.1 103 Early\r\nServer-Timing: app;dur=9\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: "
                    "0\r\n\r\n"),
            State::complete);
  EXPECT_FALSE(p.has_server_timing());
}
