// The lab triggers (LabDriver) against a real lab server on 127.0.0.1 (its own thread).
#include "procedures/probe/lab_driver.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "lab/real_lab.h"

namespace openloop::procedures {
namespace {

using namespace std::chrono_literals;
using test::RealLab;

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

}  // namespace
}  // namespace openloop::procedures
