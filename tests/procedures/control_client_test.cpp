// The lab control client and the lab triggers against a real lab server on 127.0.0.1 (its own thread).
#include <gtest/gtest.h>

#include <cstdio>
#include <thread>

#include "core/clock.h"
#include "lab/server.h"
#include "lab/control_client.h"
#include "procedures/probe/lab_driver.h"

namespace openloop::procedures {
namespace {

using namespace std::chrono_literals;

/// A lab serving on a free loopback port until the fixture ends.
class RealLab : public ::testing::Test {
 protected:
  void SetUp() override {
    lab::LabConfig cfg;
    cfg.listen = "127.0.0.1:0";
    auto server = lab::Server::create(cfg, m_clock);
    ASSERT_TRUE(server) << server.error().message;
    m_server = std::move(*server);
    m_thread = std::thread([this] { m_server->run(); });
    auto client = lab::ControlClient::create("http://" + m_server->address() + "/_lab/config", 2s);
    ASSERT_TRUE(client) << client.error().message;
    m_client.emplace(std::move(*client));
  }
  void TearDown() override {
    if (m_server) m_server->request_stop();
    if (m_thread.joinable()) m_thread.join();
  }
  const lab::ControlClient& client() const { return *m_client; }

  RealClock m_clock;
  std::unique_ptr<lab::Server> m_server;
  std::thread m_thread;
  std::optional<lab::ControlClient> m_client;
};

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

TEST_F(RealLab, DependencyTriggerRaisesThenRestores) {
  ASSERT_TRUE(client().post_config({{"dependency", "20ms"}}));
  {
    LabDriver driver(client(), *parse_trigger("dependency:+500ms"), 5s);
    ASSERT_TRUE(driver.begin());
    EXPECT_EQ((*client().config())["dependency"], "520ms");
    ASSERT_TRUE(driver.end());
    EXPECT_EQ((*client().config())["dependency"], "20ms");
    EXPECT_EQ(driver.actions().size(), 2U);
  }
  // Without a dependency configured, the trigger adds one and its end removes it again.
  ASSERT_TRUE(client().post_config({{"dependency", "none"}}));
  LabDriver driver(client(), *parse_trigger("dependency:+500ms"), 5s);
  ASSERT_TRUE(driver.begin());
  EXPECT_EQ((*client().config())["dependency"], "500ms");
  ASSERT_TRUE(driver.end());
  EXPECT_EQ((*client().config())["dependency"], "");
}

TEST_F(RealLab, StallTriggerFreezesTheLabNowAndItsEndUndoesIt) {
  ASSERT_TRUE(client().post_config({{"stall-at", "1h+1s"}}));
  LabDriver driver(client(), *parse_trigger("stall:30s"), 30s);
  ASSERT_TRUE(driver.begin());
  const auto during = client().stats();
  ASSERT_TRUE(during);
  EXPECT_TRUE((*during)["frozen"].get<bool>());
  EXPECT_EQ((*during)["config"]["stall-at"].size(), 2U);  // the lab's own stall is kept
  ASSERT_TRUE(driver.end());
  const auto after = client().stats();
  EXPECT_FALSE((*after)["frozen"].get<bool>());
  EXPECT_EQ((*after)["config"]["stall-at"].size(), 1U);
}

// A restore that fails in the destructor (the lab went away mid-trigger) is reported, not dropped: the lab would
// keep the trigger's settings for whoever uses it next.
TEST_F(RealLab, ARestoreThatFailsInTheDestructorIsReported) {
  std::FILE* report = std::tmpfile();
  ASSERT_NE(report, nullptr);
  {
    LabDriver driver(client(), *parse_trigger("dependency:+500ms"), 5s, report);
    ASSERT_TRUE(driver.begin());
    m_server->request_stop();
    m_thread.join();
    m_server.reset();  // the listening socket is closed: the restore's connect is refused
  }
  std::rewind(report);
  char line[512] = {};
  ASSERT_NE(std::fgets(line, sizeof line, report), nullptr) << "the failed restore was not reported";
  const std::string text(line);
  EXPECT_NE(text.find("could not restore the lab's settings"), std::string::npos) << text;
  EXPECT_NE(text.find("dependency:+500ms"), std::string::npos) << text;
  EXPECT_NE(text.find("/_lab/config"), std::string::npos) << text;
  std::fclose(report);
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
}  // namespace openloop::procedures
