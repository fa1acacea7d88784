// Apache access logs: the LogFormat translated into nginx's syntax, %t as the request's start (spread within
// its second), %{msec}t exact, %{end:msec}t minus %D, %U%q, escaped quotes, requests that never came,
// refusals.
#include "workload/apache_log_format.h"

#include <gtest/gtest.h>

namespace openloop::workload {
namespace {

std::unique_ptr<TraceLineParser> parser(std::string_view format, std::uint64_t seed = 1) {
  auto p = apache_trace_parser(format, seed, "--replay-log-format");
  EXPECT_TRUE(p) << p.error().message;
  return p ? std::move(*p) : nullptr;
}

TEST(ApacheLogFormat, CombinedTranslatesToNginxVariables) {
  const auto t = apache_to_nginx_format(k_apache_combined, "f");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(*t, R"(${remote_addr} ${apache_other_3} ${remote_user} [${apache_time}] "${request}" ${status} )"
                R"(${body_bytes_sent} "${http_referer}" "${http_user_agent}")");
}

TEST(ApacheLogFormat, DefaultReadsCombinedAndCommonLinesWithTheStampAsTheStart) {
  auto p = parser("", 7);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->spreads_seconds());
  const Nanos second(971'211'336LL * 1'000'000'000);  // 2000-10-10T20:55:36Z
  TraceRecord r;
  r.line = 1;
  ASSERT_EQ(*p->parse(R"(127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326)", r),
            ParsedUnit::record);
  EXPECT_EQ(r.target, "/a.gif");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.response_bytes, 2326);
  EXPECT_GE(r.t, second);
  EXPECT_LT(r.t, second + std::chrono::seconds(1));
  r.clear();
  r.line = 2;
  ASSERT_EQ(
      *p->parse(R"(::1 - - [10/Oct/2000:13:55:36 -0700] "GET /b HTTP/1.1" 304 - "http://r/" "curl/8")", r),
      ParsedUnit::record);
  EXPECT_EQ(r.target, "/b");
  ASSERT_EQ(r.headers.size(), 2U);
  EXPECT_EQ(r.headers[1].name, "User-Agent");
  EXPECT_EQ(r.headers[1].value, "curl/8");
  EXPECT_EQ(r.response_bytes, -1) << "%b's \"-\": no body";
  r.clear();
  const auto bad = p->parse("not a log line", r);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("expected"), std::string::npos) << bad.error().message;
}

TEST(ApacheLogFormat, MsecIsTheStartAndEndMsecMinusDurationToo) {
  auto begin = parser(R"(%h %{msec}t %D "%r")");
  TraceRecord r;
  r.line = 1;
  ASSERT_TRUE(begin->parse(R"(10.0.0.1 1700000000250 50000 "GET /x HTTP/1.1")", r));
  EXPECT_EQ(r.t, Nanos(1'700'000'000'250'000'000)) << "%{msec}t is when the request was received";
  EXPECT_FALSE(begin->spreads_seconds());
  auto end = parser(R"(%h %{end:msec}t %D "%r")");
  r.clear();
  ASSERT_TRUE(end->parse(R"(10.0.0.1 1700000000250 50000 "GET /x HTTP/1.1")", r));
  EXPECT_EQ(r.t, Nanos(1'700'000'000'200'000'000)) << "end minus %D's 50 ms";
  auto micro = parser(R"(%{begin:usec}t %{ms}T "%r")");
  r.clear();
  ASSERT_TRUE(micro->parse(R"(1700000000250001 3 "GET /x HTTP/1.1")", r));
  EXPECT_EQ(r.t, Nanos(1'700'000'000'250'001'000));
}

TEST(ApacheLogFormat, PathAndQueryEscapedQuotesAndRequestsThatNeverCame) {
  auto p = parser(R"(%a %t "%m %U%q %H" %>s "%{X-Trace-Id}i")");
  TraceRecord r;
  r.line = 1;
  ASSERT_TRUE(p->parse(R"(10.0.0.1 [10/Oct/2000:13:55:36 -0700] "GET /s?q=1 HTTP/1.1" 200 "a\"b")", r));
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.target, "/s?q=1");
  ASSERT_EQ(r.headers.size(), 1U);
  EXPECT_EQ(r.headers[0].name, "X-Trace-Id");
  EXPECT_EQ(r.headers[0].value, "a\"b") << "Apache's \\\" inside a quoted value";
  auto c = parser(k_apache_combined);
  r.clear();
  ASSERT_TRUE(
      c->parse(R"(1.1.1.1 - - [10/Oct/2000:13:55:36 -0700] "GET /say\"hi\" HTTP/1.1" 200 1 "-" "-")", r));
  EXPECT_EQ(r.target, "/say\"hi\"");
  r.clear();
  const auto none = c->parse(R"(1.1.1.1 - - [10/Oct/2000:13:55:36 -0700] "-" 408 - "-" "-")", r);
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_EQ(*none, ParsedUnit::no_request) << "a connection that sent no request";
}

TEST(ApacheLogFormat, RefusesWhatCannotBeRead) {
  const auto message = [](std::string_view format) {
    const auto p = apache_trace_parser(format, 1, "--replay-log-format");
    return p ? std::string("accepted") : p.error().message;
  };
  EXPECT_NE(message(R"(%h %{%d/%b/%Y}t "%r")").find("cannot be read as a time"), std::string::npos);
  EXPECT_NE(message(R"(%h %t "%r" %J)").find("%J (column 12) is not an Apache log directive"),
            std::string::npos);
  EXPECT_NE(message(R"(%h%l %t "%r")").find("%l follows %h with nothing between them"), std::string::npos);
  EXPECT_NE(message(R"($%h %t "%r")").find("a literal '$'"), std::string::npos);
  EXPECT_NE(message(R"(%h "%r")").find("no time; log %{msec}t"), std::string::npos);
  EXPECT_NE(message(R"(%h %t)").find("no request; log %r"), std::string::npos);
  EXPECT_NE(message(R"(%h %t "%r" %{Referer)").find("not closed"), std::string::npos);
  EXPECT_NE(message(R"(%h %t "%r" %)").find("not followed by a directive"), std::string::npos);
}

}  // namespace
}  // namespace openloop::workload
