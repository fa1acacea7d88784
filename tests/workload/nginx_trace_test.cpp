// nginx log lines as records: start = end − $request_time, one-second stamps spread by the seed, escapes.
#include "workload/nginx_trace.h"

#include <gtest/gtest.h>

namespace openloop::workload {
namespace {

NginxTraceParser parser(std::string_view format, std::uint64_t seed = 1) {
  auto f = NginxLogFormat::parse(format, "f");
  EXPECT_TRUE(f);
  auto p = NginxTraceParser::create(std::move(*f), seed, "f");
  EXPECT_TRUE(p) << p.error().message;
  return std::move(*p);
}

TEST(NginxTrace, MsecMinusRequestTimeIsTheStart) {
  auto p = parser(R"($msec $request_time "$request" "$http_x_api_key")");
  TraceRecord r;
  r.line = 1;
  ASSERT_TRUE(p.parse(R"(1700000000.250 0.050 "POST /x\x22y HTTP/1.1" "k1")", r));
  EXPECT_EQ(r.t, Nanos(1'700'000'000'200'000'000));
  EXPECT_EQ(r.method, "POST");
  EXPECT_EQ(r.target, "/x\"y");
  ASSERT_EQ(r.headers.size(), 1U);
  EXPECT_EQ(r.headers[0].name, "X-Api-Key");
  EXPECT_FALSE(p.spreads_seconds());
}

TEST(NginxTrace, OneSecondStampsAreSpreadWithinTheirSecondBySeed) {
  auto p = parser(k_nginx_combined, 7);
  auto q = parser(k_nginx_combined, 8);
  EXPECT_TRUE(p.spreads_seconds());
  const std::string line = R"(10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 2326 "-" "-")";
  const Nanos second(971'211'336LL * 1'000'000'000);  // 2000-10-10T20:55:36Z
  TraceRecord a, b, c;
  a.line = b.line = c.line = 3;
  ASSERT_TRUE(p.parse(line, a));
  ASSERT_TRUE(p.parse(line, b));
  ASSERT_TRUE(q.parse(line, c));
  EXPECT_GE(a.t, second);
  EXPECT_LT(a.t, second + std::chrono::seconds(1));
  EXPECT_EQ(a.t, b.t) << "same seed, same line: same spread";
  EXPECT_NE(a.t, c.t) << "another seed spreads differently";
  EXPECT_EQ(a.session, "10.0.0.1");
  EXPECT_TRUE(a.headers.empty()) << "\"-\" is a header not sent";
}

TEST(NginxTrace, RefusesFormatsWithoutTimeOrRequest) {
  auto f = NginxLogFormat::parse("$remote_addr $request", "f");
  const auto p = NginxTraceParser::create(std::move(*f), 1, "--replay-log-format");
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("$msec"), std::string::npos);
  auto g = NginxLogFormat::parse("$msec $status", "f");
  EXPECT_FALSE(NginxTraceParser::create(std::move(*g), 1, "f"));
}

TEST(NginxTrace, RefusesGarbageRequests) {
  auto p = parser(R"($msec "$request")");
  TraceRecord r;
  const auto bad = p.parse(R"(1.0 "\x16\x03\x01")", r);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("METHOD TARGET PROTOCOL"), std::string::npos) << bad.error().message;
}

TEST(NginxTrace, RefusesLocalTimesBeyondANanosecondClock) {
  // Found by the trace fuzzers: a year past 2262 overflowed the nanoseconds (signed overflow).
  EXPECT_FALSE(parse_time_local("10/Oct/6000:13:55:36 -0700"));
  EXPECT_FALSE(parse_time_local("10/Oct/1600:13:55:36 +0000"));
  EXPECT_TRUE(parse_time_local("10/Jan/2261:13:55:36 -0700"));
}

TEST(NginxTrace, AnEmptyRequestIsALineWithoutARequestAndStatusAndSizeAreRead) {
  auto p = parser(k_nginx_combined);
  TraceRecord r;
  r.line = 2;
  const auto none = p.parse(R"(127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "" 400 0 "-" "-")", r);
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_EQ(*none, ParsedUnit::no_request);
  r.clear();
  const auto got = p.parse(R"(127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 404 153 "-" "-")", r);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(*got, ParsedUnit::record);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.response_bytes, 153);
}

TEST(NginxTrace, EscapeJsonQuotesStayInsideTheirValue) {
  auto p = parser(R"($msec "$request" "$http_user_agent")");
  TraceRecord r;
  ASSERT_TRUE(p.parse(R"(1.0 "GET /a HTTP/1.1" "say \"hi\"")", r));
  ASSERT_EQ(r.headers.size(), 1U);
  EXPECT_EQ(r.headers[0].value, "say \"hi\"");
}

// One parser reads every line of a file, keeping buffers between them: each line's record is the one a fresh
// parser gives, escaped or not, whichever variables hold the request.
TEST(NginxTrace, AParserReusedLineAfterLineGivesEachLineItsOwnRecord) {
  const std::string_view request_format = R"($msec "$request" "$http_user_agent" $request_body)";
  const std::string_view uri_format = R"($msec $request_method "$uri" "$args" "$http_user_agent")";
  const std::vector<std::pair<std::string_view, std::string_view>> lines = {
      {request_format,
       R"(1.0 "GET /a/very/long/path\x3Fwith?escapes=1 HTTP/1.1" "agent \"x\" long enough" b\x22y)"},
      {request_format, R"(2.0 "POST /b HTTP/1.1" "-" -)"},
      {request_format, R"(3.0 "GET /c?q=1 HTTP/1.1" "short" body)"},
      {uri_format, R"(1.0 GET "/x\x41y/long/enough/to/allocate" "a=1&b=\x22" "ua")"},
      {uri_format, R"(2.0 PUT "/z" "-" "-")"},
  };
  auto by_request = parser(request_format);
  auto by_uri = parser(uri_format);
  for (const auto& [format, line] : lines) {
    TraceRecord reused, fresh;
    auto& p = format == request_format ? by_request : by_uri;
    ASSERT_TRUE(p.parse(line, reused)) << line;
    ASSERT_TRUE(parser(format).parse(line, fresh)) << line;
    EXPECT_EQ(reused.method, fresh.method) << line;
    EXPECT_EQ(reused.target, fresh.target) << line;
    EXPECT_EQ(reused.body, fresh.body) << line;
    ASSERT_EQ(reused.headers.size(), fresh.headers.size()) << line;
    for (std::size_t i = 0; i < fresh.headers.size(); ++i)
      EXPECT_EQ(reused.headers[i].value, fresh.headers[i].value);
  }
  TraceRecord r;
  ASSERT_TRUE(by_request.parse(lines[0].second, r));
  EXPECT_EQ(r.target, "/a/very/long/path?with?escapes=1");
  EXPECT_EQ(r.headers.at(0).value, "agent \"x\" long enough");
  EXPECT_EQ(r.body, "b\"y");
  r = TraceRecord{};
  ASSERT_TRUE(by_uri.parse(lines[3].second, r));
  EXPECT_EQ(r.target, "/xAy/long/enough/to/allocate?a=1&b=\"");
}

TEST(NginxTrace, ParsesDecimalSecondsExactly) {
  EXPECT_EQ(parse_decimal_seconds("1700000000.123"), Nanos(1'700'000'000'123'000'000));
  EXPECT_EQ(parse_decimal_seconds("0.004"), Nanos(4'000'000));
  EXPECT_EQ(parse_decimal_seconds("3"), Nanos(3'000'000'000));
  EXPECT_FALSE(parse_decimal_seconds("1."));
  EXPECT_FALSE(parse_decimal_seconds("-1"));
  EXPECT_FALSE(parse_decimal_seconds("abc"));
}

}  // namespace
}  // namespace openloop::workload
