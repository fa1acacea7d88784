// A plan file's `defaults: {max_streams, h2_window, connections}` reach every scenario's RunPlan, and the
// flags given on the command line win over them.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/scenario_plans.h"
#include "workload/scenario_file.h"

using namespace openloop;
using namespace openloop::engine;

namespace {

std::shared_ptr<const workload::WorkloadPlan> plan_with(const std::string& defaults) {
  const std::string yaml = "target: http://127.0.0.1:8080\n" + defaults +
                           "requests: {r: GET /r}\n"
                           "scenarios:\n"
                           "  a: {model: open, rate: 100/s, duration: 2s, request: r}\n"
                           "  b: {model: open, rate: 10/s, duration: 2s, request: r}\n";
  auto loaded = workload::load_plan_text(yaml, "plan.yaml", ".");
  EXPECT_TRUE(loaded) << loaded.error().message;
  if (!loaded) return nullptr;
  return std::make_shared<const workload::WorkloadPlan>(std::move(*loaded));
}

std::vector<RunPlan> plans_of(const std::shared_ptr<const workload::WorkloadPlan>& w, const RunSettings& s) {
  if (w == nullptr) return {};
  auto plans = plans_from_workload(w, s);
  EXPECT_TRUE(plans) << plans.error().message;
  return plans ? std::move(*plans) : std::vector<RunPlan>{};
}

TEST(PlanFileHttp2Defaults, ReachEveryScenariosRunPlan) {
  const auto w = plan_with("defaults: {protocol: h2, max_streams: 7, h2_window: 65535, connections: 3}\n");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->defaults.max_streams, 7U);
  EXPECT_EQ(w->defaults.h2_window, 65535U);
  EXPECT_EQ(w->defaults.connections, 3U);
  const auto plans = plans_of(w, RunSettings{});
  ASSERT_EQ(plans.size(), 2U);
  for (const RunPlan& p : plans) {
    EXPECT_EQ(p.protocol, ProtocolChoice::http2) << p.scenario;
    EXPECT_EQ(p.max_streams, 7U) << p.scenario;
    EXPECT_EQ(p.h2_window, 65535U) << p.scenario;
    // --connections' rule: that many connections, each with max_streams slots, the cap never above it.
    EXPECT_EQ(p.max_connections, 3U) << p.scenario;
    EXPECT_EQ(p.max_in_flight, 21U) << p.scenario;
  }
}

TEST(PlanFileHttp2Defaults, WithoutThemTheFlagsDefaultsHold) {
  const auto plans = plans_of(plan_with("defaults: {protocol: h2}\n"), RunSettings{});
  ASSERT_EQ(plans.size(), 2U);
  EXPECT_EQ(plans[0].max_streams, 100U);
  EXPECT_EQ(plans[0].h2_window, (1U << 30) - 1);
  EXPECT_EQ(plans[0].max_in_flight, 0U);  // connections opened as needed, a slot each
}

TEST(PlanFileHttp2Defaults, FlagsGivenOnTheCommandLineWin) {
  RunSettings s;
  s.max_streams = 100;  // given, though equal to the default: it still wins
  s.h2_window = 1000;
  s.connections = 2;
  const auto plans =
      plans_of(plan_with("defaults: {protocol: h2, max_streams: 7, h2_window: 65535, connections: 3}\n"), s);
  ASSERT_EQ(plans.size(), 2U);
  EXPECT_EQ(plans[0].max_streams, 100U);
  EXPECT_EQ(plans[0].h2_window, 1000U);
  EXPECT_EQ(plans[0].max_connections, 2U);
  EXPECT_EQ(plans[0].max_in_flight, 200U);
}

}  // namespace
