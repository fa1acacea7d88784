// Tests for a plan file's replay arrival (workload/scenario_yaml.cpp): `arrival: {replay: FILE, ...}` read
// into a scenario whose arrivals and requests are a trace's, the trace found relative to the plan, and every
// bad value refused with its place.
#include <gtest/gtest.h>

#include <string>

#include "workload/replay_plan.h"
#include "workload/scenario_file.h"
#include "workload_test_util.h"

using namespace openloop;
using namespace openloop::workload;
using namespace std::chrono_literals;
using openloop::workload::test_util::ScratchDir;

namespace {

// Ten records 100 ms apart: one pass spans 0.9 s.
constexpr std::string_view k_ten =
    "{\"t\": 0.0, \"url\": \"/a\"}\n{\"t\": 0.1, \"url\": \"/b\"}\n{\"t\": 0.2, \"url\": \"/c\"}\n"
    "{\"t\": 0.3, \"url\": \"/d\"}\n{\"t\": 0.4, \"url\": \"/e\"}\n{\"t\": 0.5, \"url\": \"/f\"}\n"
    "{\"t\": 0.6, \"url\": \"/g\"}\n{\"t\": 0.7, \"url\": \"/h\"}\n{\"t\": 0.8, \"url\": \"/i\"}\n"
    "{\"t\": 0.9, \"url\": \"/j\", \"headers\": {\"Authorization\": \"Bearer x\"}}\n";

Result<WorkloadPlan> load(const ScratchDir& dir, std::string_view scenario) {
  const std::string yaml = "target: http://127.0.0.1:8080\nscenarios:\n  r:\n" + std::string(scenario) + "\n";
  return load_plan_text(yaml, "plan.yaml", dir.path());
}

std::string refusal(const ScratchDir& dir, std::string_view scenario) {
  auto plan = load(dir, scenario);
  EXPECT_FALSE(plan) << "accepted: " << scenario;
  if (plan) return {};
  EXPECT_EQ(plan.error().code, ExitCode::usage);
  return plan.error().message;
}

TEST(ReplayScenario, ReadsTheTraceRelativeToThePlanAndLastsItsSpanOverSpeed) {
  ScratchDir dir;
  dir.write("ten.jsonl", k_ten);
  auto plan =
      load(dir, "    model: open\n    arrival: {replay: ten.jsonl, speed: 2, keep_headers: Authorization}");
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->scenarios.size(), 1U);
  const ScenarioPlan& s = plan->scenarios.front();
  ASSERT_NE(s.replay, nullptr);
  EXPECT_EQ(s.replay->request.input.path, (dir.path() / "ten.jsonl").string());
  EXPECT_EQ(s.replay->counts.records, 10U);
  EXPECT_EQ(s.replay->span, 450ms);
  EXPECT_EQ(s.replay->request.options.speed, 2);
  EXPECT_EQ(s.replay->request.keep_headers, std::vector<std::string>{"Authorization"});
  EXPECT_EQ(s.duration, 451ms);  // the last record inside the run
  EXPECT_NEAR(s.profile.total_expected(), 10, 1e-9);
  EXPECT_TRUE(s.mix.empty());
  EXPECT_TRUE(plan->requests.empty()) << "a plan of replays needs no requests";
  EXPECT_NE(plan->describe().find("r: OPEN, replay of " + (dir.path() / "ten.jsonl").string() +
                                  " (auto): 10 records over 450ms, speed 2, ~10 in all"),
            std::string::npos)
      << plan->describe();
}

TEST(ReplayScenario, LoopLastsTheDurationAtTheTracesMeanRate) {
  ScratchDir dir;
  dir.write("ten.jsonl", k_ten);
  auto plan = load(
      dir, "    model: open\n    duration: 5s\n    arrival: {replay: ten.jsonl, loop: true, max_gap: 50ms}");
  ASSERT_TRUE(plan) << plan.error().message;
  const ScenarioPlan& s = plan->scenarios.front();
  EXPECT_EQ(s.duration, 5s);
  // Every 100 ms gap compressed to 50 ms: a pass spans 450 ms, its period 500 ms, 10 records a pass.
  EXPECT_EQ(s.replay->counts.gaps_compressed, 9U);
  EXPECT_EQ(s.replay->loop_period(), 500ms);
  EXPECT_NEAR(s.profile.max_rate(), 20, 1e-9);
}

TEST(ReplayScenario, RefusesBadValuesWithThePlansPlace) {
  ScratchDir dir;
  dir.write("ten.jsonl", k_ten);
  dir.write("one.jsonl", "{\"t\": 1, \"url\": \"/a\"}\n");
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {replay: nope.jsonl}")
                .find("plan.yaml:5:23: scenarios.r.arrival.replay: " + (dir.path() / "nope.jsonl").string() +
                      ": cannot open"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {replay: ten.jsonl, format: csv}")
                .find("plan.yaml:5:42: scenarios.r.arrival.format: \"csv\" is not a trace format; use auto"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {replay: ten.jsonl, format: har, log_format: x}")
                .find("scenarios.r.arrival.log_format: applies to nginx and apache logs"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {replay: ten.jsonl, speed: -1}")
                .find("scenarios.r.arrival.speed: \"-1\" is not accepted"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {replay: ten.jsonl, loop: maybe}")
                .find("scenarios.r.arrival.loop: \"maybe\" is not accepted; use true or false"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {replay: ten.jsonl, from: 2s, to: 1s}")
                .find("scenarios.r.arrival.to: to is not after from"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {speed: 2}").find("scenarios.r.arrival: no replay"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {replay: ten.jsonl, sped: 2}").find("sped"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    request: x\n    arrival: {replay: ten.jsonl}")
                .find("scenarios.r.request: not with a replay arrival: the trace gives the requests"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    stages: 1s:10/s\n    arrival: {replay: ten.jsonl}")
                .find("scenarios.r.stages: not with a replay arrival: the trace gives the schedule"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    duration: 1s\n    arrival: {replay: ten.jsonl}")
                .find("scenarios.r.duration: a replay lasts its trace's span"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {replay: ten.jsonl, loop: true}")
                .find("no duration; a looped replay lasts duration"),
            std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    duration: 1s\n    arrival: {replay: one.jsonl, loop: true}")
                .find("the trace has 1 record to replay; a loop needs at least two"),
            std::string::npos);
  EXPECT_NE(
      refusal(
          dir,
          "    model: sessions\n    session_rate: 1/s\n    duration: 1s\n    arrival: {replay: ten.jsonl}")
          .find("a replay is an open scenario's arrival"),
      std::string::npos);
  EXPECT_NE(refusal(dir, "    model: open\n    arrival: {replay: ten.jsonl, from: 5s}")
                .find("no record to replay inside from/to"),
            std::string::npos);
}

TEST(ReplayScenario, ATracesBadLineReadsAsFromReplayWithTheArrivalsKeys) {
  ScratchDir dir;
  dir.write("bad.jsonl", "{\"t\": 1, \"url\": \"/a\"}\n{\"t\": 2, \"url\": \"no-slash\"}\n");
  const std::string trace = (dir.path() / "bad.jsonl").string();
  const std::string message = refusal(dir, "    model: open\n    arrival: {replay: bad.jsonl}");
  // The place of the arrival's replay key, then the trace's own error with the key that skips bad lines.
  EXPECT_EQ(message,
            "plan.yaml:5:23: scenarios.r.arrival.replay: " + trace +
                ":2: url \"no-slash\": expected a path starting with '/' or an http(s):// URL (skip_bad: "
                "true counts and skips such lines)");
}

TEST(ReplayScenario, APlanWithAnOrdinaryScenarioStillNeedsRequests) {
  ScratchDir dir;
  dir.write("ten.jsonl", k_ten);
  EXPECT_NE(
      refusal(dir, "    model: open\n    rate: 1/s\n    duration: 1s\n    request: home").find("no requests"),
      std::string::npos);
  EXPECT_NE(
      refusal(dir,
              "    model: open\n    rate: 1/s\n    duration: 1s\n    arrival: poisson\n    request: home")
          .find("no requests"),
      std::string::npos);
  EXPECT_NE(
      refusal(dir, "    model: closed\n    vus: 1\n    duration: 1s\n    request: home").find("no requests"),
      std::string::npos);
}

}  // namespace
