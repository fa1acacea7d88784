// Tests for resolve() and Endpoint::to_string() (loopback names only; no network needed).
#include "net/resolver.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>

using namespace openloop;
using namespace openloop::net;

TEST(Resolve, NumericIpv4GivesExactlyThatEndpoint) {
  auto eps = resolve("127.0.0.1", 8080);
  ASSERT_TRUE(eps) << eps.error().message;
  ASSERT_EQ(eps->size(), 1u);
  EXPECT_EQ((*eps)[0].addr.ss_family, AF_INET);
  EXPECT_EQ((*eps)[0].addr_len, sizeof(sockaddr_in));
  EXPECT_EQ((*eps)[0].to_string(), "127.0.0.1:8080");
}

TEST(Resolve, LocalhostResolvesToLoopbackAddresses) {
  auto eps = resolve("localhost", 80);
  ASSERT_TRUE(eps) << eps.error().message;
  ASSERT_FALSE(eps->empty());
  for (const auto& ep : *eps) {
    const auto s = ep.to_string();
    EXPECT_TRUE(s == "127.0.0.1:80" || s == "[::1]:80") << s;
  }
}

TEST(Resolve, Ipv6EndpointPrintsInBrackets) {
  auto eps = resolve("::1", 443);
  ASSERT_TRUE(eps) << eps.error().message;
  ASSERT_EQ(eps->size(), 1u);
  EXPECT_EQ((*eps)[0].to_string(), "[::1]:443");
}

TEST(Resolve, UnknownNameIsARuntimeErrorNamingTheHost) {
  // .invalid is reserved (RFC 6761): it never resolves.
  auto eps = resolve("no-such-host.invalid", 80);
  ASSERT_FALSE(eps);
  EXPECT_EQ(eps.error().code, ExitCode::runtime);
  EXPECT_EQ(eps.error().message.rfind("DNS: ", 0), 0u) << eps.error().message;
  EXPECT_NE(eps.error().message.find("no-such-host.invalid"), std::string::npos) << eps.error().message;
}
