// Tests for parse_url: defaults, explicit ports, IPv6 literals, targets and the error messages users see.
#include "net/url.h"

#include <gtest/gtest.h>

using openloop::ExitCode;
using openloop::net::parse_url;

namespace {
std::string error_of(std::string_view text) {
  auto r = parse_url(text, "URL");
  EXPECT_FALSE(r) << text;
  if (r) return "";
  EXPECT_EQ(r.error().code, ExitCode::usage);
  return r.error().message;
}
}  // namespace

TEST(ParseUrl, HttpWithoutPortOrPathGetsDefaults) {
  auto u = parse_url("http://example.com");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->scheme, "http");
  EXPECT_EQ(u->host, "example.com");
  EXPECT_EQ(u->port, 80);
  EXPECT_EQ(u->target, "/");
  EXPECT_FALSE(u->tls);
  EXPECT_EQ(u->host_header, "example.com");
}

TEST(ParseUrl, HttpsDefaultsToPort443AndTls) {
  auto u = parse_url("https://example.com/a/b?x=1&y=2");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->scheme, "https");
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->port, 443);
  EXPECT_EQ(u->target, "/a/b?x=1&y=2");
  EXPECT_EQ(u->host_header, "example.com");
}

TEST(ParseUrl, ExplicitNonDefaultPortAppearsInHostHeader) {
  auto u = parse_url("http://127.0.0.1:8080/health");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "127.0.0.1");
  EXPECT_EQ(u->port, 8080);
  EXPECT_EQ(u->target, "/health");
  EXPECT_EQ(u->host_header, "127.0.0.1:8080");
}

TEST(ParseUrl, ExplicitDefaultPortIsLeftOutOfHostHeader) {
  auto u = parse_url("https://example.com:443/");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->port, 443);
  EXPECT_EQ(u->host_header, "example.com");
  auto h = parse_url("https://example.com:80/");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->host_header, "example.com:80");
}

TEST(ParseUrl, SchemeIsCaseInsensitive) {
  auto u = parse_url("HTTPS://Example.com");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->scheme, "https");
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->host, "Example.com");
}

TEST(ParseUrl, Ipv6LiteralIsUnbracketedInHostAndBracketedInHostHeader) {
  auto u = parse_url("http://[::1]:8080/x");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 8080);
  EXPECT_EQ(u->host_header, "[::1]:8080");
  auto d = parse_url("https://[2001:db8::7]");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->host, "2001:db8::7");
  EXPECT_EQ(d->port, 443);
  EXPECT_EQ(d->host_header, "[2001:db8::7]");
}

TEST(ParseUrl, QueryWithoutPathGetsSlashAndFragmentIsDropped) {
  auto u = parse_url("http://h?q=1#frag");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "h");
  EXPECT_EQ(u->target, "/?q=1");
  auto f = parse_url("http://h:81/p#frag");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->target, "/p");
}

TEST(ParseUrl, MissingSchemeSaysWhatIsAccepted) {
  const auto msg = error_of("localhost:8080/");
  EXPECT_NE(msg.find("URL 'localhost:8080/'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("missing scheme"), std::string::npos) << msg;
  EXPECT_NE(msg.find("http://host[:port]"), std::string::npos) << msg;
}

TEST(ParseUrl, UnsupportedSchemeIsNamed) {
  const auto msg = error_of("ftp://example.com/");
  EXPECT_NE(msg.find("unsupported scheme 'ftp'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("https://"), std::string::npos) << msg;
}

TEST(ParseUrl, PortOutOfRangeOrNotANumberIsRefused) {
  EXPECT_NE(error_of("http://h:0/").find("port '0' is not a number in 1..65535"), std::string::npos);
  EXPECT_NE(error_of("http://h:65536/").find("port '65536'"), std::string::npos);
  EXPECT_NE(error_of("http://h:99999999999999999999/").find("1..65535"), std::string::npos);
  EXPECT_NE(error_of("http://h:8o/").find("port '8o'"), std::string::npos);
  EXPECT_NE(error_of("http://h:/").find("port after ':' is empty"), std::string::npos);
  auto max = parse_url("http://h:65535");
  ASSERT_TRUE(max);
  EXPECT_EQ(max->port, 65535);
}

TEST(ParseUrl, EmptyHostIsRefused) {
  EXPECT_NE(error_of("http:///path").find("host is empty"), std::string::npos);
  EXPECT_NE(error_of("http://:80/").find("host is empty"), std::string::npos);
  EXPECT_NE(error_of("").find("URL is empty"), std::string::npos);
}

TEST(ParseUrl, BadIpv6LiteralsAreRefusedWithAHint) {
  EXPECT_NE(error_of("http://::1:8080/").find("must be in brackets"), std::string::npos);
  EXPECT_NE(error_of("http://[::1/").find("no closing ']'"), std::string::npos);
  EXPECT_NE(error_of("http://[nope]/").find("'nope' is not a valid IPv6 address"), std::string::npos);
  EXPECT_NE(error_of("http://[::1]x/").find("unexpected 'x'"), std::string::npos);
}

TEST(ParseUrl, UserInfoSpacesAndBadHostCharactersAreRefused) {
  EXPECT_NE(error_of("http://user:pw@h/").find("Authorization"), std::string::npos);
  EXPECT_NE(error_of("http://h/a b").find("position 11"), std::string::npos);
  EXPECT_NE(error_of("http://h$st/").find("invalid character '$' in host 'h$st'"), std::string::npos);
}

TEST(ParseUrl, ErrorsNeverEchoTheCredentialsOfAUrl) {
  const std::string refused = error_of("http://user:s3cret@127.0.0.1/");
  EXPECT_EQ(refused.find("s3cret"), std::string::npos) << refused;
  EXPECT_NE(refused.find("[redacted]@127.0.0.1"), std::string::npos) << refused;
  const std::string spaced = error_of("http://user:s3cret@h/a b");
  EXPECT_EQ(spaced.find("s3cret"), std::string::npos) << spaced;
}

TEST(ParseUrl, ErrorNamesTheInputGivenByTheCaller) {
  auto r = parse_url("nope", "--target");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.rfind("--target 'nope'", 0), 0u) << r.error().message;
}
