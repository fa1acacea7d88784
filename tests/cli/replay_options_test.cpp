// run --replay's plan (cli/replay_options.h): the trace scanned before the run, the run's length and rate from
// it, --loop and --warmup, and the refusals, each naming the flag and what is accepted.
#include "cli/replay_options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/plan_builder.h"

namespace openloop::cli {
namespace {

class ReplayOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() /
            ("openloop-cli-replay-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(m_dir);
    // Five records over 2 s, one with a cookie.
    std::ofstream(m_dir / "t.jsonl") << R"({"t": 10, "url": "/a", "headers": {"Cookie": "s=1"}})" "\n"
                                     << R"({"t": 10.5, "url": "/b"})" "\n"
                                     << R"({"t": 11, "method": "POST", "url": "/c", "body": "x"})" "\n"
                                     << R"({"t": 11.5, "url": "/d"})" "\n"
                                     << R"({"t": 12, "url": "/e"})" "\n";
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  RunOptions replay() const {
    RunOptions o;
    o.replay = (m_dir / "t.jsonl").string();
    o.retarget = "http://127.0.0.1:8080";
    return o;
  }
  static HostFacts host() {
    HostFacts h;
    h.cores = 2;
    h.fd_limit = 4096;
    return h;
  }
  static std::string refusal(const RunOptions& o) {
    const auto plan = build_plan(o, host());
    if (plan) return "accepted";
    EXPECT_EQ(plan.error().code, ExitCode::usage);
    return plan.error().message;
  }

  std::filesystem::path m_dir;
};

TEST_F(ReplayOptionsTest, TheTraceSetsTheLengthAndTheRate) {
  RunOptions o = replay();
  o.speed = "2";
  const auto plan = build_plan(o, host());
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_NE(plan->replay, nullptr);
  EXPECT_EQ(plan->replay->counts.records, 5U);
  EXPECT_EQ(plan->replay->span, std::chrono::seconds(1));
  EXPECT_EQ(plan->duration, std::chrono::milliseconds(1001));
  EXPECT_NEAR(plan->profile.max_rate(), 5 / 1.001, 1e-9);
  EXPECT_EQ(plan->replay->credentials_dropped, 1U);
  EXPECT_EQ(plan->model, engine::Model::open);
  EXPECT_EQ(plan->url.host_header, "127.0.0.1:8080");
  EXPECT_EQ(plan->describe()["replay"]["records"], 5);
  EXPECT_EQ(plan->describe()["arrival"], "replay");
}

TEST_F(ReplayOptionsTest, LoopRunsForTheDurationWithThePeriodsRate) {
  RunOptions o = replay();
  o.loop = true;
  o.duration = "30s";
  const auto plan = build_plan(o, host());
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->duration, std::chrono::seconds(30));
  EXPECT_EQ(plan->replay->loop_period(), std::chrono::milliseconds(2500));  // span 2 s + mean gap 0.5 s
  EXPECT_NEAR(plan->profile.max_rate(), 2.0, 1e-9);                          // 5 records per 2.5 s
}

TEST_F(ReplayOptionsTest, RefusesWhatATraceAlreadyDecides) {
  RunOptions o = replay();
  o.rate = "10/s";
  EXPECT_NE(refusal(o).find("--rate: not with --replay"), std::string::npos);
  o = replay();
  o.retarget.clear();
  EXPECT_NE(refusal(o).find("needs --target"), std::string::npos);
  o = replay();
  o.duration = "5s";
  EXPECT_NE(refusal(o).find("--duration sets the length with --loop"), std::string::npos);
  o = replay();
  o.speed = "fast";
  EXPECT_NE(refusal(o).find("--speed: \"fast\""), std::string::npos);
  o = replay();
  o.replay_format = "csv";
  EXPECT_NE(refusal(o).find("auto, nginx, apache, har or jsonl"), std::string::npos);
  o = replay();
  o.warmup = "3s";
  EXPECT_NE(refusal(o).find("--warmup"), std::string::npos);
  o = replay();
  o.replay_from = "5s";
  EXPECT_NE(refusal(o).find("no record to replay inside --from/--to"), std::string::npos);
}

}  // namespace
}  // namespace openloop::cli
