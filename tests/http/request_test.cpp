// Tests for render_request (exact bytes) and the -H header argument parser (values and error messages).
#include "http/request.h"

#include <gtest/gtest.h>

using namespace openloop;
using namespace openloop::http;

namespace {
net::Url url(std::string host_header, std::string target = "/") {
  net::Url u;
  u.scheme = "http";
  u.host = "example.com";
  u.port = 8080;
  u.target = std::move(target);
  u.host_header = std::move(host_header);
  return u;
}
const std::string k_ua = "User-Agent: " + std::string(default_user_agent()) + "\r\n";
}  // namespace

TEST(RenderRequest, GetHasHostAndUserAgentAndNoContentLength) {
  auto r = render_request("GET", url("example.com:8080", "/a?b=1"), {}, "");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "GET /a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\n" + k_ua + "\r\n");
  EXPECT_EQ(std::string(default_user_agent()).rfind("openloop/", 0), 0u);
}

TEST(RenderRequest, UserHeadersFollowInOrderAndReplaceHostAndUserAgent) {
  auto r =
      render_request("GET", url("example.com"),
                     {{"X-B", "2"}, {"host", "virtual.test"}, {"X-A", ""}, {"User-Agent", "probe/1"}}, "");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, "GET / HTTP/1.1\r\nX-B: 2\r\nhost: virtual.test\r\nX-A: \r\nUser-Agent: probe/1\r\n\r\n");
}

TEST(RenderRequest, BodyGetsContentLengthAndFollowsTheBlankLine) {
  auto r = render_request("POST", url("h"), {{"Content-Type", "application/json"}}, "{\"k\":1}");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, "POST / HTTP/1.1\r\nHost: h\r\n" + k_ua +
                    "Content-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"k\":1}");
}

TEST(RenderRequest, PostPutPatchWithoutBodySendContentLengthZero) {
  for (const char* m : {"POST", "PUT", "PATCH"}) {
    auto r = render_request(m, url("h"), {}, "");
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, std::string(m) + " / HTTP/1.1\r\nHost: h\r\n" + k_ua + "Content-Length: 0\r\n\r\n");
  }
  auto del = render_request("DELETE", url("h"), {}, "");
  ASSERT_TRUE(del);
  EXPECT_EQ(del->find("Content-Length"), std::string::npos);
}

TEST(RenderRequest, MatchingUserContentLengthIsNotDuplicated) {
  auto r = render_request("PUT", url("h"), {{"Content-Length", "3"}}, "abc");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, "PUT / HTTP/1.1\r\nHost: h\r\n" + k_ua + "Content-Length: 3\r\n\r\nabc");
}

TEST(RenderRequest, MismatchedContentLengthOrTransferEncodingIsRefused) {
  auto len = render_request("POST", url("h"), {{"Content-Length", "9"}}, "abc");
  ASSERT_FALSE(len);
  EXPECT_EQ(len.error().code, ExitCode::usage);
  EXPECT_NE(len.error().message.find("'Content-Length: 9' does not match the body's 3 bytes"),
            std::string::npos)
      << len.error().message;
  auto te = render_request("POST", url("h"), {{"Transfer-Encoding", "chunked"}}, "abc");
  ASSERT_FALSE(te);
  EXPECT_NE(te.error().message.find("Transfer-Encoding: chunked"), std::string::npos) << te.error().message;
}

TEST(RenderRequest, MethodMustBeAToken) {
  auto r = render_request("GE T", url("h"), {}, "");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_EQ(r.error().message.rfind("method 'GE T' is not a token; use e.g. GET", 0), 0u)
      << r.error().message;
  EXPECT_FALSE(render_request("", url("h"), {}, ""));
}

TEST(RenderRequest, HeaderNamesMustBeTokensAndValuesSingleLines) {
  auto name = render_request("GET", url("h"), {{"Bad Name", "v"}}, "");
  ASSERT_FALSE(name);
  EXPECT_EQ(name.error().message.rfind("header 'Bad Name: v': name 'Bad Name' is not a token", 0), 0u)
      << name.error().message;
  auto value = render_request("GET", url("h"), {{"X-Evil", "a\r\nInjected: 1"}}, "");
  ASSERT_FALSE(value);
  EXPECT_EQ(value.error().message,
            "header 'X-Evil': the value contains CR, LF or NUL; a header value is a single line");
  EXPECT_FALSE(render_request("GET", url("h"), {{"", "v"}}, ""));
}

TEST(RenderRequest, TargetWithSpacesIsRefused) {
  auto r = render_request("GET", url("h", "/a b"), {}, "");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("'/a b'"), std::string::npos);
}

TEST(ParseHeaderArg, SplitsAtTheFirstColonAndTrimsTheValue) {
  auto h = parse_header_arg("Authorization:  Bearer a:b \t");
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_EQ(h->name, "Authorization");
  EXPECT_EQ(h->value, "Bearer a:b");
  auto empty = parse_header_arg("X-Empty:");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->name, "X-Empty");
  EXPECT_EQ(empty->value, "");
}

TEST(ParseHeaderArg, ErrorsQuoteTheFlagValueAndShowTheForm) {
  auto none = parse_header_arg("Accept text/html");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ExitCode::usage);
  EXPECT_EQ(none.error().message, "-H 'Accept text/html': no ':' found; use 'Name: value'");
  auto spaced = parse_header_arg("X Y: 1");
  ASSERT_FALSE(spaced);
  EXPECT_NE(spaced.error().message.find("-H 'X Y: 1': 'X Y' is not a valid header name"), std::string::npos);
  EXPECT_NE(spaced.error().message.find("use 'Name: value'"), std::string::npos);
  auto blank = parse_header_arg(": v");
  ASSERT_FALSE(blank);
  EXPECT_NE(blank.error().message.find("use 'Name: value'"), std::string::npos);
  auto crlf = parse_header_arg(std::string_view("X: a\nb"));
  ASSERT_FALSE(crlf);
  EXPECT_NE(crlf.error().message.find("CR, LF or NUL"), std::string::npos);
}

// The exact bytes of a set of constant requests, as render_request wrote them when it wrote wire text
// directly: its serializer must keep every one.
TEST(RenderRequest, KeepsTheBytesOfEveryKindOfRequest) {
  struct Case {
    std::string method, target;
    std::vector<Header> headers;
    std::string body, expected;
  };
  const std::vector<Case> cases = {
      {"GET", "/", {}, "", "GET / HTTP/1.1\r\nHost: h:1\r\n" + k_ua + "\r\n"},
      {"HEAD",
       "/x?y=1",
       {{"Accept", "*/*"}},
       "",
       "HEAD /x?y=1 HTTP/1.1\r\nHost: h:1\r\n" + k_ua + "Accept: */*\r\n\r\n"},
      {"DELETE",
       "/d",
       {},
       "gone",
       "DELETE /d HTTP/1.1\r\nHost: h:1\r\n" + k_ua + "Content-Length: 4\r\n\r\ngone"},
      {"OPTIONS", "*", {{"X-E", ""}}, "", "OPTIONS * HTTP/1.1\r\nHost: h:1\r\n" + k_ua + "X-E: \r\n\r\n"},
      {"PATCH",
       "/p",
       {{"user-agent", "u/2"}, {"HOST", "v"}},
       "",
       "PATCH /p HTTP/1.1\r\nuser-agent: u/2\r\nHOST: v\r\nContent-Length: 0\r\n\r\n"},
      {"POST",
       "/b",
       {{"content-length", "2"}, {"X-Z", "z"}},
       "{}",
       "POST /b HTTP/1.1\r\nHost: h:1\r\n" + k_ua + "content-length: 2\r\nX-Z: z\r\n\r\n{}"},
      {"GET",
       "/g",
       {},
       "\r\n\r\n",
       "GET /g HTTP/1.1\r\nHost: h:1\r\n" + k_ua + "Content-Length: 4\r\n\r\n\r\n\r\n"},
  };
  for (const Case& c : cases) {
    auto r = render_request(c.method, url("h:1", c.target), c.headers, c.body);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(*r, c.expected) << c.method << " " << c.target;
  }
}
