// Set-Cookie parsing, cookie dates, and the jar's domain, path, expiry and Secure rules (RFC 6265).
#include "http/cookie_jar.h"

#include <gtest/gtest.h>

#include <string>

#include "http/set_cookie.h"

using namespace openloop::http;

namespace {

constexpr std::int64_t k_now = 1'780'000'000;  // 2026-05-28

SetCookie parsed(std::string_view header) {
  const auto c = parse_set_cookie(header);
  EXPECT_TRUE(c.has_value()) << header;
  return c.value_or(SetCookie{});
}

TEST(SetCookie, ReadsNameValueAndTheAttributesALoadTestMeets) {
  const SetCookie c =
      parsed(" sid = abc=def ; Path=/app; Domain=.Example.COM; Max-Age=60; Secure; HttpOnly; SameSite=Lax");
  EXPECT_EQ(c.name, "sid");
  EXPECT_EQ(c.value, "abc=def");
  EXPECT_EQ(c.path, "/app");
  EXPECT_EQ(c.domain, "Example.COM");
  ASSERT_TRUE(c.max_age.has_value());
  EXPECT_EQ(*c.max_age, 60);
  EXPECT_FALSE(c.expires.has_value());
  EXPECT_TRUE(c.secure);
}

TEST(SetCookie, IgnoresAHeaderWithoutANameOrAnEqualsSign) {
  EXPECT_FALSE(parse_set_cookie("novalue; Path=/").has_value());
  EXPECT_FALSE(parse_set_cookie("=x").has_value());
  EXPECT_FALSE(parse_set_cookie("").has_value());
  EXPECT_EQ(parsed("a=").value, "");
}

TEST(SetCookie, IgnoresAttributesThatDoNotParse) {
  const SetCookie c = parsed("a=1; Max-Age=soon; Expires=tomorrow; Domain=; Path=relative; Secure=whatever");
  EXPECT_FALSE(c.max_age.has_value());
  EXPECT_FALSE(c.expires.has_value());
  EXPECT_EQ(c.domain, "");
  EXPECT_EQ(c.path, "");
  EXPECT_TRUE(c.secure);  // Secure's value does not matter
  EXPECT_EQ(*parsed("a=1; max-age=-5").max_age, -5);
  EXPECT_EQ(*parsed("a=1; Max-Age=99999999999999999999999").max_age, 100LL * 366 * 24 * 3600);
}

TEST(CookieDate, ReadsTheThreeFormsServersSend) {
  EXPECT_EQ(parse_cookie_date("Sun, 06 Nov 1994 08:49:37 GMT"), 784111777);
  EXPECT_EQ(parse_cookie_date("Sunday, 06-Nov-94 08:49:37 GMT"), 784111777);
  EXPECT_EQ(parse_cookie_date("Sun Nov  6 08:49:37 1994"), 784111777);
  EXPECT_EQ(parse_cookie_date("Thu, 01 Jan 1970 00:00:00 GMT"), 0);
  EXPECT_EQ(parse_cookie_date("Tue, 29 Feb 2028 23:59:59 GMT"), 1835481599);
}

TEST(CookieDate, RefusesMissingOrOutOfRangeParts) {
  EXPECT_FALSE(parse_cookie_date("Sun, 06 Nov 1994").has_value());           // no time
  EXPECT_FALSE(parse_cookie_date("06 1994 08:49:37").has_value());           // no month
  EXPECT_FALSE(parse_cookie_date("Sun, 31 Feb 2027 08:49:37").has_value());  // February has no 31st
  EXPECT_FALSE(parse_cookie_date("Sun, 06 Nov 1994 24:00:00").has_value());
  EXPECT_FALSE(parse_cookie_date("Sun, 06 Nov 1500 08:49:37").has_value());
  EXPECT_FALSE(parse_cookie_date("").has_value());
}

TEST(CookieMatching, DomainAndPathFollowRfc6265) {
  EXPECT_TRUE(domain_matches("example.com", "example.com"));
  EXPECT_TRUE(domain_matches("api.example.com", "example.com"));
  EXPECT_FALSE(domain_matches("badexample.com", "example.com"));
  EXPECT_FALSE(domain_matches("example.com", "api.example.com"));
  EXPECT_FALSE(domain_matches("10.0.0.1", "0.0.1"));
  EXPECT_TRUE(domain_matches("127.0.0.1", "127.0.0.1"));
  EXPECT_TRUE(path_matches("/app", "/app"));
  EXPECT_TRUE(path_matches("/app/x", "/app"));
  EXPECT_TRUE(path_matches("/app/x", "/app/"));
  EXPECT_FALSE(path_matches("/application", "/app"));
  EXPECT_FALSE(path_matches("/", "/app"));
  EXPECT_EQ(default_path("/a/b?x=/y"), "/a");
  EXPECT_EQ(default_path("/login"), "/");
  EXPECT_EQ(default_path(""), "/");
}

TEST(CookieJar, SendsAHostOnlyCookieToItsHostAndPathOnly) {
  CookieJar jar;
  std::string out;
  EXPECT_EQ(jar.store(parsed("sid=1"), "127.0.0.1", "/auth/login?x=1", k_now), CookieJar::Stored::added);
  EXPECT_EQ(jar.header("127.0.0.1", "/auth/me", false, k_now, out), 1u);
  EXPECT_EQ(out, "sid=1");
  EXPECT_EQ(jar.header("127.0.0.1", "/orders", false, k_now, out), 0u) << "default path /auth";
  EXPECT_EQ(out, "");
  EXPECT_EQ(jar.header("127.0.0.2", "/auth/me", false, k_now, out), 0u) << "another host";
}

TEST(CookieJar, KeepsDomainCookiesForSubdomainsAndRejectsOtherSites) {
  CookieJar jar;
  std::string out;
  EXPECT_EQ(jar.store(parsed("a=1; Domain=Example.com; Path=/"), "api.example.com", "/", k_now),
            CookieJar::Stored::added);
  EXPECT_EQ(jar.store(parsed("b=2; Domain=other.com"), "api.example.com", "/", k_now),
            CookieJar::Stored::rejected);
  EXPECT_EQ(jar.header("www.example.com", "/x", false, k_now, out), 1u);
  EXPECT_EQ(out, "a=1");
}

TEST(CookieJar, ReplacesSameNameDomainAndPathAndKeepsOrder) {
  CookieJar jar;
  std::string out;
  jar.store(parsed("a=1; Path=/"), "h", "/", k_now);
  jar.store(parsed("b=2; Path=/"), "h", "/", k_now);
  jar.store(parsed("a=3; Path=/x"), "h", "/", k_now);  // another path: a second cookie a
  EXPECT_EQ(jar.store(parsed("a=4; Path=/"), "h", "/", k_now), CookieJar::Stored::replaced);
  EXPECT_EQ(jar.header("h", "/x/y", false, k_now, out), 3u);
  EXPECT_EQ(out, "a=3; a=4; b=2") << "the longer path first, then in the order first set";
}

TEST(CookieJar, SendsLongerPathsFirstThenInTheOrderFirstSet) {
  CookieJar jar;
  std::string out;
  jar.store(parsed("root=1; Path=/"), "h", "/", k_now);
  jar.store(parsed("api=2; Path=/api"), "h", "/", k_now);
  jar.store(parsed("deep=3; Path=/api/v1/orders"), "h", "/", k_now);
  jar.store(parsed("v1=4; Path=/api/v1"), "h", "/", k_now);
  jar.store(parsed("also_root=5; Path=/"), "h", "/", k_now);
  jar.store(parsed("app=6; Path=/app"), "h", "/", k_now);  // same length as /api, not on this path
  EXPECT_EQ(jar.header("h", "/api/v1/orders/7", false, k_now, out), 5u);
  EXPECT_EQ(out, "deep=3; v1=4; api=2; root=1; also_root=5");
  EXPECT_EQ(jar.header("h", "/app/x", false, k_now, out), 3u);
  EXPECT_EQ(out, "app=6; root=1; also_root=5");
}

TEST(CookieJar, RefusesADomainThatIsAPublicSuffix) {
  EXPECT_TRUE(public_suffix("com"));
  EXPECT_TRUE(public_suffix("localhost"));
  EXPECT_TRUE(public_suffix("co.uk"));
  EXPECT_TRUE(public_suffix("com.au"));
  EXPECT_FALSE(public_suffix("example.com"));
  EXPECT_FALSE(public_suffix("shop.co.uk"));
  CookieJar jar;
  std::string out;
  EXPECT_EQ(jar.store(parsed("a=1; Domain=com"), "shop.example.com", "/", k_now),
            CookieJar::Stored::rejected);
  EXPECT_EQ(jar.store(parsed("b=2; Domain=.CO.UK"), "shop.co.uk", "/", k_now), CookieJar::Stored::rejected);
  EXPECT_EQ(jar.store(parsed("c=3; Domain=shop.co.uk"), "www.shop.co.uk", "/", k_now),
            CookieJar::Stored::added);
  EXPECT_EQ(jar.size(), 1u);
  EXPECT_EQ(jar.header("api.shop.co.uk", "/", false, k_now, out), 1u);
  EXPECT_EQ(out, "c=3");
  // A public suffix that is the host itself: a host-only cookie (RFC 6265 5.3 step 5), not one for its
  // subdomains.
  EXPECT_EQ(jar.store(parsed("d=4; Domain=localhost"), "localhost", "/", k_now), CookieJar::Stored::added);
  EXPECT_EQ(jar.header("localhost", "/", false, k_now, out), 1u);
  EXPECT_EQ(out, "d=4");
  EXPECT_EQ(jar.header("a.localhost", "/", false, k_now, out), 0u);
}

TEST(CookieJar, AHostOnlyCookieGoesToItsHostAloneADomainCookieToSubdomainsToo) {
  CookieJar jar;
  std::string out;
  jar.store(parsed("host=1; Path=/"), "example.com", "/", k_now);
  jar.store(parsed("dom=2; Domain=example.com; Path=/"), "example.com", "/", k_now);
  EXPECT_EQ(jar.header("example.com", "/", false, k_now, out), 2u);
  EXPECT_EQ(out, "host=1; dom=2");
  EXPECT_EQ(jar.header("api.example.com", "/", false, k_now, out), 1u);
  EXPECT_EQ(out, "dom=2");
  // The same name, domain and path: one cookie whichever way it was set (RFC 6265 5.3 step 11); the newer
  // one's host-only flag holds.
  EXPECT_EQ(jar.store(parsed("host=3; Domain=example.com; Path=/"), "example.com", "/", k_now),
            CookieJar::Stored::replaced);
  EXPECT_EQ(jar.size(), 2u);
  EXPECT_EQ(jar.header("api.example.com", "/", false, k_now, out), 2u);
  EXPECT_EQ(out, "host=3; dom=2");
  EXPECT_EQ(jar.store(parsed("dom=4; Path=/"), "example.com", "/", k_now), CookieJar::Stored::replaced);
  EXPECT_EQ(jar.header("api.example.com", "/", false, k_now, out), 1u);
  EXPECT_EQ(out, "host=3");
}

TEST(CookieJar, ExpiryByMaxAgeOrExpiresAndRemovalByAPastDate) {
  CookieJar jar;
  std::string out;
  jar.store(parsed("short=1; Max-Age=10; Expires=Thu, 01 Jan 2099 00:00:00 GMT"), "h", "/", k_now);
  jar.store(parsed("dated=2; Expires=Sun, 06 Nov 1994 08:49:37 GMT"), "h", "/", k_now);
  EXPECT_EQ(jar.size(), 1u) << "a cookie already expired is not stored";
  jar.store(parsed("keep=3"), "h", "/", k_now);
  EXPECT_EQ(jar.header("h", "/", false, k_now + 9, out), 2u);
  EXPECT_EQ(out, "short=1; keep=3");
  EXPECT_EQ(jar.header("h", "/", false, k_now + 10, out), 1u) << "Max-Age wins over Expires";
  EXPECT_EQ(out, "keep=3");
  EXPECT_EQ(jar.store(parsed("keep=; Max-Age=0"), "h", "/", k_now), CookieJar::Stored::removed);
  EXPECT_EQ(jar.size(), 1u);
  EXPECT_EQ(jar.header("h", "/", false, k_now, out), 1u);
  EXPECT_EQ(out, "short=1");
}

TEST(CookieJar, SecureCookiesGoOverTlsOnly) {
  CookieJar jar;
  std::string out;
  jar.store(parsed("s=1; Secure"), "h", "/", k_now);
  EXPECT_EQ(jar.header("h", "/", false, k_now, out), 0u);
  EXPECT_EQ(jar.header("h", "/", true, k_now, out), 1u);
}

TEST(CookieJar, AFullJarEvictsTheCookieSetLongestAgo) {
  CookieJar jar(2);
  std::string out;
  jar.store(parsed("a=1"), "h", "/", k_now);
  jar.store(parsed("b=2"), "h", "/", k_now);
  jar.store(parsed("c=3"), "h", "/", k_now);
  EXPECT_EQ(jar.header("h", "/", false, k_now, out), 2u);
  EXPECT_EQ(out, "b=2; c=3");
  jar.clear();
  EXPECT_EQ(jar.header("h", "/", false, k_now, out), 0u);
  jar.store(parsed("d=4"), "h", "/", k_now);
  EXPECT_EQ(jar.header("h", "/", false, k_now, out), 1u);
  EXPECT_EQ(out, "d=4");
}

}  // namespace
