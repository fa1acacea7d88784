// Tests for loading plan files: every model and form of the format read into the plan the engine will run.
#include "workload/scenario_file.h"

#include <gtest/gtest.h>

#include <string>

#include "workload_test_util.h"

using namespace openloop;
using namespace openloop::workload;
using namespace std::chrono_literals;
using openloop::workload::test_util::render_http1;

namespace {

WorkloadPlan load(std::string_view yaml, const std::filesystem::path& dir = ".") {
  auto plan = load_plan_text(yaml, "plan.yaml", dir);
  EXPECT_TRUE(plan) << (plan ? "" : plan.error().message);
  return plan ? std::move(*plan) : WorkloadPlan{};
}

constexpr std::string_view k_full = R"y(
target: http://127.0.0.1:8080/api
seed: 7
defaults:
  headers:
    Accept: application/json
    X-Client: openloop
  timeout: 2s
  success: 200-299
variables:
  sku: zipf(10000, 1.1)
  region: choice(eu, us)
requests:
  get_item: GET /item/{{sku}}
  add:
    method: POST
    path: /cart
    headers:
      accept: text/plain
      X-Region: "{{region}}"
    body: '{"sku": {{sku}}}'
    expect: 201
scenarios:
  browse:
    model: open
    rate: 200/s
    arrival: poisson
    duration: 1m
    mix: {get_item: 9, add: 1}
  ramp:
    model: open
    start: 30s
    start_rate: 10/s
    stages:
      - {duration: 30s, target: 100/s}
      - {duration: 1m, target: 100/s}
    request: add
  batch:
    model: closed
    vus: 10
    think: uniform:0.5s..1.5s
    duration: 2m
    steps: [get_item, {request: add, think: 0}]
  pollers:
    model: pacing
    vus: 20
    pacing: 2s
    duration: 1m
    request: get_item
  capped:
    model: pacing
    vus: 5
    max_rate: 30/s
    duration: 1m
    mix: {get_item: 1}
  shoppers:
    model: sessions
    session_rate: 5/s
    seed: 99
    duration: 1m
    max_sessions: 100
    think: exp:1s
    steps:
      - get_item
      - request: add
        think: 250ms
)y";

}  // namespace

TEST(PlanFile, ReadsTheTargetDefaultsVariablesAndRequests) {
  const WorkloadPlan plan = load(k_full);
  EXPECT_EQ(plan.source, "plan.yaml");
  EXPECT_EQ(plan.target.host, "127.0.0.1");
  EXPECT_EQ(plan.target.target, "/api");
  EXPECT_EQ(plan.seed, 7U);
  EXPECT_EQ(plan.defaults.timeout, 2s);
  EXPECT_EQ(plan.defaults.success, (StatusRange{200, 299}));
  ASSERT_EQ(plan.defaults.headers.size(), 2U);
  EXPECT_EQ(plan.variables.find("sku"), 0U);
  ASSERT_EQ(plan.requests.size(), 2U);
  EXPECT_EQ(plan.requests[0].name(), "get_item");
  EXPECT_EQ(plan.requests[0].target_text(), "/api/item/{{sku}}");
  EXPECT_EQ(plan.requests[0].success(), (StatusRange{200, 299}));
  EXPECT_EQ(plan.requests[1].method(), "POST");
  EXPECT_EQ(plan.requests[1].success(), (StatusRange{201, 201}));
  EXPECT_EQ(plan.find_request("add"), 1U);
}

TEST(PlanFile, ARequestsOwnHeaderReplacesTheDefaultOfTheSameName) {
  const WorkloadPlan plan = load(k_full);
  RenderContext ctx(plan.variables, plan.requests.size(), plan.seed, 0, 1);
  std::string out;
  render_http1(plan.requests[1], ctx, out);
  EXPECT_NE(out.find("\r\nX-Client: openloop\r\naccept: text/plain\r\nX-Region: "), std::string::npos) << out;
  EXPECT_EQ(out.find("Accept: application/json"), std::string::npos);
  EXPECT_NE(out.find("\r\n\r\n{\"sku\": "), std::string::npos);
}

TEST(PlanFile, ReadsAnOpenScenarioWithARateAndAWeightedMix) {
  const WorkloadPlan plan = load(k_full);
  const ScenarioPlan& s = plan.scenarios[0];
  EXPECT_EQ(s.name, "browse");
  EXPECT_EQ(s.model, ModelKind::open);
  EXPECT_EQ(s.arrival, ArrivalKind::poisson);
  EXPECT_EQ(s.duration, 1min);
  EXPECT_DOUBLE_EQ(s.profile.max_rate(), 200.0);
  EXPECT_DOUBLE_EQ(s.profile.total_expected(), 12000.0);
  EXPECT_EQ(s.seed, 7U);  // the plan's seed + its position 0
  ASSERT_EQ(s.mix.entries().size(), 2U);
  EXPECT_DOUBLE_EQ(s.mix.share(0), 0.9);
  EXPECT_TRUE(s.steps.empty());
}

TEST(PlanFile, ReadsStagesAsAListWithAStartRateAndAStartOffset) {
  const WorkloadPlan plan = load(k_full);
  const ScenarioPlan& s = plan.scenarios[1];
  EXPECT_EQ(s.start, 30s);
  EXPECT_EQ(s.duration, 90s);
  EXPECT_DOUBLE_EQ(s.profile.rate_at(0s), 10.0);
  EXPECT_DOUBLE_EQ(s.profile.rate_at(15s), 55.0);
  EXPECT_DOUBLE_EQ(s.profile.rate_at(60s), 100.0);
  EXPECT_EQ(s.seed, 8U);
  EXPECT_EQ(s.mix.entries().front().request, 1U);
}

TEST(PlanFile, ReadsStagesWrittenAsOneStringLikeTheFlag) {
  const WorkloadPlan plan = load(R"y(
target: http://h
requests: {r: GET /}
scenarios:
  s: {model: sessions, stages: "10s:5/s,10s:0/s", steps: [r]}
)y");
  EXPECT_EQ(plan.scenarios[0].duration, 20s);
  EXPECT_DOUBLE_EQ(plan.scenarios[0].profile.total_expected(), 50.0);
}

TEST(PlanFile, ReadsClosedStepsWithTheScenarioThinkUnlessAStepGivesItsOwn) {
  const WorkloadPlan plan = load(k_full);
  const ScenarioPlan& s = plan.scenarios[2];
  EXPECT_EQ(s.model, ModelKind::closed);
  EXPECT_EQ(s.vus, 10U);
  EXPECT_EQ(s.duration, 2min);
  ASSERT_EQ(s.steps.size(), 2U);
  EXPECT_EQ(s.steps[0].think, DurationDistribution::uniform(500ms, 1500ms));
  EXPECT_TRUE(s.steps[1].think.is_zero());
  EXPECT_EQ(s.requests_per_iteration(), 2U);
  EXPECT_DOUBLE_EQ(s.configured_rate(), 0.0);
}

TEST(PlanFile, ReadsPacingPerUserAndAsAGlobalCap) {
  const WorkloadPlan plan = load(k_full);
  EXPECT_EQ(plan.scenarios[3].pacing, 2s);
  EXPECT_DOUBLE_EQ(plan.scenarios[3].configured_rate(), 10.0);
  EXPECT_DOUBLE_EQ(plan.scenarios[4].max_rate, 30.0);
  EXPECT_DOUBLE_EQ(plan.scenarios[4].configured_rate(), 30.0);
}

TEST(PlanFile, ReadsSessionsWithTheirOwnSeedCapAndSteps) {
  const WorkloadPlan plan = load(k_full);
  const ScenarioPlan& s = plan.scenarios[5];
  EXPECT_EQ(s.model, ModelKind::sessions);
  EXPECT_EQ(s.seed, 99U);
  EXPECT_EQ(s.max_sessions, 100U);
  EXPECT_DOUBLE_EQ(s.configured_rate(), 5.0);
  ASSERT_EQ(s.steps.size(), 2U);
  EXPECT_EQ(s.steps[0].think, DurationDistribution::exponential(1s));
  EXPECT_EQ(s.steps[1].think, DurationDistribution::constant(250ms));
  EXPECT_EQ(s.arrival, ArrivalKind::constant);
}

TEST(PlanFile, LengthIsTheEndOfTheLastScenario) {
  EXPECT_EQ(load(k_full).length(), 2min);
}

TEST(PlanFile, DescribesEveryScenarioWithItsModelLoadAndRequests) {
  const std::string d = load(k_full).describe();
  EXPECT_NE(d.find("plan.yaml: target http://127.0.0.1:8080/api, 2 request(s), 6 scenario(s), 2m0s in all"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("  browse: OPEN, 200/s requests, poisson arrivals, ~12000 in all, for 1m0s from 0\n"
                   "    mix: get_item 90% add 10%\n"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("  batch: CLOSED, 10 users, think uniform:500ms..1.5s, for 2m0s from 0\n"
                   "    steps: get_item (think uniform:500ms..1.5s) → add\n"
                   "    CLOSED: each user waits"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("  ramp: OPEN, requests by stages 30s:100/s, 1m0s:100/s (from 10/s; peak 100/s), constant "
                   "arrivals, ~7650 in all, for 1m30s from 30s\n"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("  pollers: PACING, 20 users, an iteration at most every 2s each (10/s configured)"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("  capped: PACING, 5 users, iterations at most 30/s in all"), std::string::npos) << d;
  EXPECT_NE(
      d.find(
          "  shoppers: SESSIONS (partly open), 5/s session starts, constant arrivals, ~300 in all, at most "
          "100 at once"),
      std::string::npos)
      << d;
  EXPECT_NE(d.find("    steps: get_item (think exp:1s) → add\n"), std::string::npos) << d;
  EXPECT_NE(d.find("    request: get_item\n"), std::string::npos) << d;
  EXPECT_NE(d.find("  variable sku = zipf(10000, 1.1)\n"), std::string::npos) << d;
}

TEST(PlanFile, LoadsCsvFilesRelativeToThePlansFolder) {
  test_util::ScratchDir dir;
  dir.write("users.csv", "id\nu1\nu2\n");
  const auto path = dir.write("plan.yaml", R"y(
target: http://h
variables: {user: "csv(users.csv, id)"}
requests: {me: "GET /user/{{user}}"}
scenarios: {s: {model: closed, vus: 1, duration: 1s, request: me}}
)y");
  auto plan = load_plan_file(path);
  ASSERT_TRUE(plan) << plan.error().message;
  RenderContext ctx(plan->variables, 1, 1, 0, 1);
  std::string out;
  EXPECT_EQ(render_http1(plan->requests[0], ctx, out), "u1");
  EXPECT_EQ(render_http1(plan->requests[0], ctx, out), "u2");
}

TEST(PlanFile, AnchorsAndAliasesWork) {
  const WorkloadPlan plan = load(R"y(
target: http://h
requests: {r: GET /}
scenarios:
  a: &common {model: closed, vus: 2, duration: 5s, request: r}
  b: *common
)y");
  ASSERT_EQ(plan.scenarios.size(), 2U);
  EXPECT_EQ(plan.scenarios[1].vus, 2U);
}

TEST(RequestMix, PicksEachRequestInProportionToItsWeight) {
  const RequestMix mix({{4, 1.0}, {7, 3.0}});
  Rng rng(1);
  int sevens = 0;
  for (int i = 0; i < 40000; ++i) sevens += mix.pick(rng) == 7 ? 1 : 0;
  EXPECT_NEAR(sevens, 30000, 400);
}
