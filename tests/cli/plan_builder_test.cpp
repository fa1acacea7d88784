// The plan builder (cli/plan_builder.h): a pure function of the flags and the host's facts (no DNS, so a
// simulation needs no network), one session-cap rule for flags and plan files, and its refusals, each naming
// the flag and what is accepted.
#include "cli/plan_builder.h"

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cli/option_checks.h"
#include "workload/scenario_file.h"

namespace openloop::cli {
namespace {

// A host that is not this machine's: the builder must take these facts, not read its own.
HostFacts test_host() {
  HostFacts host;
  host.cores = 3;
  host.fd_limit = 4096;
  return host;
}

RunOptions open_run(const std::string& url = "http://127.0.0.1:8080/") {
  RunOptions o;
  o.url = url;
  o.rate = "100/s";
  o.duration = "2s";
  return o;
}

// The refusal's message, or a failure naming the plan that was accepted instead.
std::string refusal(const RunOptions& o, const HostFacts& host = test_host()) {
  const auto plan = build_plan(o, host);
  if (plan) {
    ADD_FAILURE() << "accepted: " << plan->describe().dump();
    return {};
  }
  EXPECT_EQ(plan.error().code, ExitCode::usage) << plan.error().message;
  return plan.error().message;
}

void expect_names(const std::string& message, const std::vector<std::string>& parts) {
  for (const auto& part : parts) EXPECT_NE(message.find(part), std::string::npos) << message;
}

TEST(PlanBuilder, ResolvesNothingSoAHostThatDoesNotResolveStillBuilds) {
  // .invalid never resolves (RFC 6761): building must not try (simulate runs with no network).
  const auto plan = build_plan(open_run("http://openloop-test.invalid/"), test_host());
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_TRUE(plan->endpoints.empty());
  EXPECT_EQ(plan->url.host, "openloop-test.invalid");
}

TEST(PlanBuilder, ASimulatedPlanHasOneEndpointToNeverDialAndNoDnsPhase) {
  auto plan = build_plan(open_run("http://sim/"), test_host());
  ASSERT_TRUE(plan) << plan.error().message;
  mark_simulated(*plan);
  EXPECT_EQ(plan->endpoints.size(), 1U);
  EXPECT_EQ(plan->dns_time, Nanos(-1));
}

TEST(PlanBuilder, TakesTheHostsCoresAndOpenFileLimit) {
  HostFacts host = test_host();
  host.fd_limit = 200;
  RunOptions o = open_run();
  o.rate = "100000/s";  // Little's law asks far more connections than 200 files allow
  const auto plan = build_plan(o, host);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->threads, 3U);
  EXPECT_EQ(plan->max_connections, 200U - 64U);  // capped by the limit minus the reserve
}

TEST(PlanBuilder, SessionCapFromFlagsCountsStepsTimeoutAndThink) {
  RunOptions o;
  o.url = "http://127.0.0.1:8080/";
  o.session_rate = "100/s";
  o.session_steps = 3;
  o.think = "1s";
  o.timeout = "2s";
  const auto plan = build_plan(o, test_host());
  ASSERT_TRUE(plan) << plan.error().message;
  // 100/s × 3 × (2 s + 1 s) × 1.1 headroom + 16 per thread.
  EXPECT_EQ(plan->max_sessions, 990U + 16U * 3U);
  EXPECT_EQ(plan->max_sessions, engine::default_max_sessions(*plan, plan->threads, 4096));
}

TEST(PlanBuilder, SessionCapFromAPlanFileCountsThinkAsFlagsDo) {
  const auto file = workload::load_plan_text(R"(target: http://127.0.0.1:8080
defaults:
  timeout: 2s
requests:
  home: GET /
scenarios:
  shoppers:
    model: sessions
    session_rate: 100/s
    duration: 10s
    think: 1s
    steps: [home, home, home]
)",
                                             "test.yaml", ".");
  ASSERT_TRUE(file) << file.error().message;
  RunOptions o;
  o.url = "test.yaml";
  const auto settings = run_settings(o, test_host());
  ASSERT_TRUE(settings) << settings.error().message;
  const auto plans = build_file_plans(o, std::make_shared<const workload::WorkloadPlan>(*file), *settings);
  ASSERT_TRUE(plans) << plans.error().message;
  ASSERT_EQ(plans->size(), 1U);
  const engine::RunPlan& p = plans->front();
  EXPECT_EQ(p.max_sessions, engine::default_max_sessions(p, 3, 4096));
  // Without think the cap would be 100/s × 3 × 2 s × 1.1 + 16 × 3 = 708: the think time counts.
  EXPECT_GT(p.max_sessions, 708U);
  EXPECT_TRUE(p.endpoints.empty());  // resolved by the caller, not the builder
}

TEST(PlanBuilderRefuses, ASimulatedClientOfSeveralThreadsOrCoalescing) {
  RunOptions o = open_run();
  o.threads = 4;
  auto refused = use_simulated_client(o, "one worker in virtual time");
  ASSERT_FALSE(refused);
  expect_names(refused.error().message, {"--threads", "one worker in virtual time", "drop --threads 4"});
  o = open_run();
  o.coalesce = "1ms";
  refused = use_simulated_client(o);
  ASSERT_FALSE(refused);
  expect_names(refused.error().message, {"--coalesce", "drop it"});
  o = open_run();
  ASSERT_TRUE(use_simulated_client(o));
  const auto plan = build_plan(o, test_host());
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->threads, 1U);
  EXPECT_EQ(plan->spin_below, std::optional<Nanos>(Nanos(0)));
}

TEST(PlanBuilderRefuses, AnUnknownOnSaturationNamingDropAndQueue) {
  RunOptions o = open_run();
  o.on_saturation = "wait";
  expect_names(refusal(o), {"--on-saturation", "\"wait\"", "drop or queue"});
  const auto settings = run_settings(o, test_host());
  ASSERT_FALSE(settings);
  expect_names(settings.error().message, {"--on-saturation", "drop or queue"});
}

TEST(PlanBuilderRefuses, TooManyThreads) {
  RunOptions o = open_run();
  o.threads = 2000;
  expect_names(refusal(o), {"--threads", "2000", "1..1024"});
}

TEST(PlanBuilderRefuses, MoreConnectionsThanTheOpenFileLimitAllows) {
  HostFacts host = test_host();
  host.fd_limit = 100;
  RunOptions o = open_run();
  o.max_connections = 1000;
  expect_names(refusal(o, host), {"--max-connections", "1000", "limit 100"});
}

TEST(PlanBuilderRefuses, NoModelOrTwoModels) {
  RunOptions o = open_run();
  o.rate.clear();
  expect_names(refusal(o), {"--rate", "--stages", "--vus", "--session-rate"});
  o = open_run();
  o.vus = 10;
  expect_names(refusal(o), {"exactly one of"});
}

TEST(PlanBuilderRefuses, AZeroTimeout) {
  RunOptions o = open_run();
  o.timeout = "0";
  expect_names(refusal(o), {"--timeout", "greater than 0"});
}

TEST(PlanBuilderRefuses, ASuccessThatIsNotAStatusRange) {
  RunOptions o = open_run();
  o.success = "99";
  expect_names(refusal(o), {"--success", "\"99\"", "200-299"});
}

TEST(PlanBuilderRefuses, CoalescingARunThatSendsOnResponses) {
  RunOptions o = open_run();
  o.rate.clear();
  o.vus = 4;
  o.coalesce = "1ms";
  expect_names(refusal(o), {"--coalesce", "open model", "closed"});
}

TEST(PlanBuilderRefuses, ASpinBelowOverTenMilliseconds) {
  RunOptions o = open_run();
  o.spin_below = "20ms";
  expect_names(refusal(o), {"--spin-below", "\"20ms\"", "10ms", "auto"});
}

TEST(PlanBuilder, ASpinBudgetIsAShareOfACoreAsANumberOrAPercentage) {
  RunOptions o = open_run();
  auto plan = build_plan(o, test_host());
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_DOUBLE_EQ(plan->spin_budget, engine::k_default_spin_budget);
  for (const auto& [text, share] : std::vector<std::pair<std::string, double>>{{"0.25", 0.25}, {"25%", 0.25},
                                                                               {"100%", 1.0}, {"1", 1.0}}) {
    o.spin_budget = text;
    plan = build_plan(o, test_host());
    ASSERT_TRUE(plan) << text << ": " << plan.error().message;
    EXPECT_DOUBLE_EQ(plan->spin_budget, share) << text;
  }
}

TEST(PlanBuilderRefuses, ASpinBudgetOutsideACoreOrWithNothingToCap) {
  for (const char* bad : {"0", "0%", "101%", "1.5", "half", "%", "0.5x"}) {
    RunOptions o = open_run();
    o.spin_budget = bad;
    expect_names(refusal(o), {"--spin-budget", fmt::format("\"{}\"", bad), "at most 1", "25%"});
  }
  RunOptions spun = open_run();
  spun.spin_budget = "0.5";
  spun.spin_below = "10ms";
  expect_names(refusal(spun), {"--spin-budget", "--spin-below 10ms", "drop one"});
  RunOptions coalesced = open_run();
  coalesced.spin_budget = "0.5";
  coalesced.coalesce = "100us";
  expect_names(refusal(coalesced), {"--spin-budget", "--coalesce", "drop one"});
}

TEST(PlanBuilderRefuses, ADeadlineLongerThanTheTimeout) {
  RunOptions o = open_run();
  o.timeout = "1s";
  o.deadline = "2s";
  expect_names(refusal(o), {"--deadline 2s", "--timeout 1s", "raise --timeout"});
}

TEST(PlanBuilderRefuses, SessionStepsOutOfRange) {
  RunOptions o;
  o.url = "http://127.0.0.1:8080/";
  o.session_rate = "10/s";
  o.session_steps = 0;
  expect_names(refusal(o), {"--session-steps", "1..10000"});
}

TEST(PlanBuilderRefuses, UntilWithoutMaxDuration) {
  RunOptions o = open_run();
  o.until = {"p99:±5%"};
  expect_names(refusal(o), {"--until", "--max-duration"});
}

TEST(PlanBuilderRefuses, AWarmupThatLeavesStagesNothingToMeasure) {
  RunOptions o = open_run();
  o.rate.clear();
  o.stages = "2s:100/s";
  o.warmup = "2s";
  expect_names(refusal(o), {"--warmup", "--stages"});
}

TEST(PlanBuilderRefuses, NoTarget) {
  RunOptions o = open_run("");
  expect_names(refusal(o), {"no target", "URL", "--targets"});
}

TEST(PlanBuilderRefuses, AWarmupAsLongAsAPlanFilesScenario) {
  const auto file = workload::load_plan_text(R"(target: http://127.0.0.1:8080
requests:
  home: GET /
scenarios:
  steady:
    model: open
    rate: 10/s
    duration: 2s
    request: home
)",
                                             "test.yaml", ".");
  ASSERT_TRUE(file) << file.error().message;
  RunOptions o;
  o.url = "test.yaml";
  o.warmup = "2s";
  const auto settings = run_settings(o, test_host());
  ASSERT_TRUE(settings) << settings.error().message;
  const auto plans = build_file_plans(o, std::make_shared<const workload::WorkloadPlan>(*file), *settings);
  ASSERT_FALSE(plans);
  expect_names(plans.error().message, {"--warmup", "steady"});
}

}  // namespace
}  // namespace openloop::cli
