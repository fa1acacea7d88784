// A flow's steps matched to the run's per-request breakdown by the plan's step list.
#include "results/flow_steps.h"

#include <gtest/gtest.h>

#include "results/run_results.h"

using namespace openloop;

namespace {

results::RunResults run_of(const std::vector<std::string>& requests, const std::vector<std::string>& steps) {
  results::RunResults r;
  r.info.request_names = requests;
  if (requests.size() > 1) {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      results::RequestTotals t;
      t.name = requests[i];
      t.counters.intended = 10 * (i + 1);
      t.counters.completed = 10 * (i + 1);
      t.response_time.record(static_cast<std::int64_t>(1'000'000 * (i + 1)));
      r.by_request.push_back(std::move(t));
    }
  }
  r.info.plan = nlohmann::json::object();
  if (!steps.empty()) {
    r.info.plan["steps"] = nlohmann::json::array();
    for (const auto& s : steps) r.info.plan["steps"].push_back({{"request", s}, {"think_after", "0s"}});
  }
  return r;
}

}  // namespace

TEST(FlowSteps, EachStepIsItsRequestsBreakdownWithItsOwnFailures) {
  results::RunResults r = run_of({"login", "me", "order"}, {"login", "order"});
  r.flows.steps[1].checks_failed = 3;
  const auto steps = results::flow_steps(r);
  ASSERT_EQ(steps.size(), 2U);
  EXPECT_EQ(steps[0].step, 1U);
  EXPECT_EQ(steps[0].request, "login");
  EXPECT_EQ(steps[0].counters, &r.by_request[0].counters);
  EXPECT_EQ(steps[0].response_time, &r.by_request[0].response_time);
  EXPECT_EQ(steps[0].failures.checks_failed, 0U);
  EXPECT_EQ(steps[1].request, "order");
  EXPECT_EQ(steps[1].counters, &r.by_request[2].counters) << "the step's request, not the step's index";
  EXPECT_EQ(steps[1].failures.checks_failed, 3U) << "the step's index, not its request's";
  EXPECT_FALSE(steps[0].shared);
}

TEST(FlowSteps, ARequestTwoStepsSendIsMarkedShared) {
  const results::RunResults r = run_of({"poll", "done"}, {"poll", "poll", "done"});
  const auto steps = results::flow_steps(r);
  ASSERT_EQ(steps.size(), 3U);
  EXPECT_TRUE(steps[0].shared);
  EXPECT_TRUE(steps[1].shared);
  EXPECT_FALSE(steps[2].shared);
  EXPECT_EQ(steps[0].counters, steps[1].counters);
}

TEST(FlowSteps, OneRequestIsTheRunsTotals) {
  const results::RunResults r = run_of({"only"}, {"only"});
  const auto steps = results::flow_steps(r);
  ASSERT_EQ(steps.size(), 1U);
  EXPECT_EQ(steps[0].counters, &r.totals);
  EXPECT_EQ(steps[0].response_time, &r.response_time);
}

TEST(FlowSteps, ARunWithoutStepsHasNone) {
  EXPECT_TRUE(results::flow_steps(run_of({"a", "b"}, {})).empty());
  results::RunResults r;
  EXPECT_TRUE(results::flow_steps(r).empty()) << "no plan at all (a file without one)";
}

TEST(FlowSteps, ScenariosCombinedHaveNoneOfTheirOwn) {
  results::RunResults r = run_of({"login", "me"}, {"login", "me"});
  r.scenarios.push_back({"a", 0, run_of({"login", "me"}, {"login", "me"})});
  r.scenarios.push_back({"b", 0, run_of({"login", "me"}, {})});
  EXPECT_TRUE(results::flow_steps(r).empty()) << "the combined run carries the first scenario's plan";
  EXPECT_EQ(results::flow_steps(r.scenarios[0].results).size(), 2U);
}
