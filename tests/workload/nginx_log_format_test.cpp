// nginx log_format: compiled from nginx's syntax, lines split by it, refusals that name the place.
#include "workload/nginx_log_format.h"

#include <gtest/gtest.h>

namespace openloop::workload {
namespace {

TEST(NginxLogFormat, SplitsTheCombinedFormat) {
  const auto f = NginxLogFormat::parse(k_nginx_combined, "combined");
  ASSERT_TRUE(f) << f.error().message;
  std::vector<std::string_view> v;
  const std::string line =
      R"L(127.0.0.1 - - [04/Dec/2026:12:00:01 +0000] "GET /a?b=1 HTTP/1.1" 200 3 "-" "curl/8.0 (x; y)")L";
  ASSERT_TRUE(f->match(line, v));
  ASSERT_EQ(v.size(), f->variables().size());
  EXPECT_EQ(v[*f->find("remote_addr")], "127.0.0.1");
  EXPECT_EQ(v[*f->find("time_local")], "04/Dec/2026:12:00:01 +0000");
  EXPECT_EQ(v[*f->find("request")], "GET /a?b=1 HTTP/1.1");
  EXPECT_EQ(v[*f->find("http_user_agent")], "curl/8.0 (x; y)");
}

TEST(NginxLogFormat, AcceptsBracedNamesAndRefusesAdjacentVariables) {
  const auto f = NginxLogFormat::parse("${msec}|$request_time", "f");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->variables(), (std::vector<std::string>{"msec", "request_time"}));
  const auto adjacent = NginxLogFormat::parse("$msec$status", "--replay-log-format");
  ASSERT_FALSE(adjacent);
  EXPECT_NE(adjacent.error().message.find("nothing between"), std::string::npos);
  EXPECT_FALSE(NginxLogFormat::parse("no variables", "f"));
  EXPECT_FALSE(NginxLogFormat::parse("${msec", "f"));
}

TEST(NginxLogFormat, NamesTheLiteralALineLacks) {
  const auto f = NginxLogFormat::parse(R"($msec "$request")", "f");
  ASSERT_TRUE(f);
  std::vector<std::string_view> v;
  const auto r = f->match("1.5 GET / HTTP/1.1", v);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("expected \" \"\" after $msec"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace openloop::workload
