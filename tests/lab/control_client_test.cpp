// The lab control client against a real lab server on 127.0.0.1 (its own thread), and without one.
#include "lab/control_client.h"

#include <gtest/gtest.h>

#include "core/clock.h"
#include "lab/real_lab.h"

namespace openloop::lab {
namespace {

using namespace std::chrono_literals;
using test::RealLab;

TEST_F(RealLab, ReadsStatsAndConfigAndPostsChanges) {
  const auto stats = client().stats();
  ASSERT_TRUE(stats) << stats.error().message;
  EXPECT_TRUE((*stats)["uptime_s"].is_number());
  EXPECT_EQ((*stats)["queue_depth"], 0);
  const auto changed = client().post_config({{"dependency", "20ms"}, {"workers", 3}});
  ASSERT_TRUE(changed) << changed.error().message;
  EXPECT_EQ((*changed)["dependency"], "20ms");
  const auto config = client().config();
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ((*config)["workers"], 3);
}

TEST_F(RealLab, ARefusedChangeIsAnErrorWithTheLabsReason) {
  const auto refused = client().post_config({{"service", "bogus"}});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("400"), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("service"), std::string::npos) << refused.error().message;
}

TEST(ControlClient, NoLabIsAnErrorWithinTheTimeout) {
  // Port 1 on loopback: nothing listens there in a test environment; the connect is refused at once.
  auto client = lab::ControlClient::create("http://127.0.0.1:1/_lab/config", 1s);
  ASSERT_TRUE(client);
  const auto start = SteadyClock::now();
  const auto stats = client->stats();
  ASSERT_FALSE(stats);
  EXPECT_LT(SteadyClock::now() - start, 2s);
  EXPECT_NE(stats.error().message.find("127.0.0.1:1"), std::string::npos) << stats.error().message;
}

TEST(ControlClient, RefusesHttpsAndBadUrlsAndDerivesTheStatsPath) {
  EXPECT_FALSE(lab::ControlClient::create("https://127.0.0.1:9/_lab/config", 1s));
  EXPECT_FALSE(lab::ControlClient::create("not a url", 1s));
  net::Url target = *net::parse_url("http://127.0.0.1:8080/checkout?x=1");
  EXPECT_EQ(lab::default_control_url(target), "http://127.0.0.1:8080/_lab/config");
}

}  // namespace
}  // namespace openloop::lab
