// sim::parse_lab_options, the length checks and the stuck-world guard of sim::simulate.
#include "sim/simulate.h"

#include <gtest/gtest.h>

#include "sim/lab_options.h"
#include "sim/simulator.h"
#include "sim_plans.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;

TEST(LabOptions, EveryFormOfTheLabsFlags) {
  const auto cfg = sim::parse_lab_options(
      " --workers 4 --service=exp:10ms --queue lifo --cancel --stall 500ms/2s --stall-at 10s+1s --stall-at "
      "20s+1s ",
      "--lab");
  ASSERT_TRUE(cfg) << cfg.error().message;
  EXPECT_EQ(cfg->model.workers, 4U);
  EXPECT_EQ(cfg->model.service.to_string(), "exp:10ms");
  EXPECT_EQ(cfg->model.queue, lab::QueueDiscipline::lifo);
  EXPECT_TRUE(cfg->model.cancel);
  EXPECT_TRUE(sim::parse_lab_options("", "--lab")) << "no options: the lab's defaults";
}

TEST(LabOptions, RefusesWhatTheLabRefusesAndWhatASimulationCannotDo) {
  const auto expect_usage = [](const char* text, const char* want) {
    const auto cfg = sim::parse_lab_options(text, "--lab");
    ASSERT_FALSE(cfg) << text;
    EXPECT_EQ(cfg.error().code, ExitCode::usage);
    EXPECT_NE(cfg.error().message.find(want), std::string::npos) << cfg.error().message;
  };
  expect_usage("--wokers 4", "unknown lab option \"--wokers\"; accepted: listen, workers");
  expect_usage("--workers 0", "--lab --workers: \"0\" is not accepted");
  expect_usage("--workers", "--workers needs a value");
  expect_usage("workers 4", "\"workers\" is not a lab option");
  expect_usage("--burn", "--burn spends real CPU");
}

TEST(SimulatedLength, RefusedBeyondTheCapBeforeAnythingRuns) {
  const auto lab = lab_of("--service 0");
  engine::RunPlan open = open_plan(1e6, std::chrono::hours(2));
  const auto refused = sim::check_simulable(open, lab);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("more than a simulation runs"), std::string::npos);
  EXPECT_TRUE(sim::check_simulable(open_plan(1e5, std::chrono::hours(2)), lab)) << "7.2e8 requests";
  const auto endless = sim::check_simulable(closed_plan(10, {}, 10s), lab);
  ASSERT_FALSE(endless);
  EXPECT_NE(endless.error().message.find("without end in virtual time"), std::string::npos);
  engine::RunPlan two = open_plan(100, 1s);
  two.threads = 2;
  EXPECT_FALSE(sim::check_simulable(two, lab));
}

TEST(SimulatedLength, ClosedUsersShedAtOnceStopAtOneVirtualInstant) {
  // Ten users without think time against a queue that sheds at depth 1: nine of them are answered 429 at the
  // instant they send, and send again at that instant. The world stops there and says so.
  std::atomic<int> stop{0};
  const auto r =
      sim::simulate(closed_plan(10, {}, 5s), lab_of("--workers 1 --service 1ms --shed-at 1"), stop);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->results.interrupted);
  ASSERT_FALSE(r->results.verdict.valid);
  EXPECT_NE(r->results.verdict.reasons.back().find("at one virtual instant"), std::string::npos)
      << r->results.verdict.reasons.back();
  EXPECT_LT(r->results.totals.intended + r->results.warmup.intended, 1'100'000U);
}

TEST(SimulatedRun, LabelledWithItsServiceModel) {
  std::atomic<int> stop{0};
  const auto r = sim::simulate(open_plan(100, 1s), lab_of("--workers 3 --service exp:2ms --seed 5"), stop);
  ASSERT_TRUE(r) << r.error().message;
  const auto j = sim::to_json(*r);
  EXPECT_EQ(j.at("simulated"), true);
  EXPECT_EQ(j.at("service_model").at("workers"), 3);
  EXPECT_EQ(j.at("service_model").at("service"), "exp:2ms");
  EXPECT_FALSE(j.at("service_model").contains("listen"));
  EXPECT_EQ(j.at("generator").at("cpu_s"), 0.0);
}

namespace {
// 100/s (constant arrivals, mean gap 10 ms: the lateness bound is its floor, 1 ms) with every wake-up late by
// `delay`, against a service that keeps up.
results::RunResults late_by(Nanos delay) {
  std::atomic<int> stop{0};
  auto r = sim::simulate(open_plan(100, 2s, 0s, workload::ArrivalKind::constant),
                         lab_of("--workers 4 --service 1ms"), stop, {},
                         [delay](sim::Simulator& world) { world.delay_wakeups(delay); });
  EXPECT_TRUE(r) << r.error().message;
  return r ? std::move(r->results) : results::RunResults{};
}
}  // namespace

TEST(SimulatedLateness, TheVerdictsBoundAtItsBoundary) {
  const auto on_time = late_by(0ms);
  EXPECT_TRUE(on_time.verdict.valid);
  EXPECT_EQ(on_time.send_lateness.max(), 0) << "a simulated client wakes exactly when due";

  const auto under = late_by(900us);
  EXPECT_TRUE(under.verdict.valid) << (under.verdict.reasons.empty() ? "" : under.verdict.reasons.front());
  EXPECT_NEAR(ms(under.send_lateness.value_at_percentile(99)), 0.9, 0.01);

  const auto over = late_by(1100us);
  EXPECT_FALSE(over.verdict.valid);
  ASSERT_EQ(over.verdict.reasons.size(), 1U);
  EXPECT_EQ(over.verdict.reasons.front().rfind("send lateness p99 1.1", 0), 0U)
      << over.verdict.reasons.front();
  EXPECT_NE(over.verdict.reasons.front().find("> 1ms"), std::string::npos)
      << over.verdict.reasons.front();
}

// The service's own counters (as GET /_lab/stats counts them) come with a simulated run: past capacity with
// the deadline header, the service expires (504) work whose client deadline has passed, more than the client
// sees answered 504 (it timed out first on the rest); every request the client sent arrived, and each arrival
// is accounted for by an outcome or is still in the service.
TEST(SimulatedRun, CarriesTheServicesOwnCounters) {
  engine::RunPlan plan = open_plan(80, 3s, 0s, workload::ArrivalKind::constant);
  plan.timeout = 300ms;
  plan.retry.send_deadline = "X-Deadline";
  std::atomic<int> stop{0};
  const auto r = sim::simulate(plan, lab_of("--workers 1 --service 20ms --deadline-header X-Deadline"), stop);
  ASSERT_TRUE(r) << r.error().message;
  const auto& s = r->service_stats;
  const auto n = [&s](const char* key) { return s.at(key).get<std::uint64_t>(); };
  EXPECT_EQ(n("arrivals"), r->results.totals.attempts + r->results.warmup.attempts);
  EXPECT_EQ(n("arrivals"), n("ok") + n("errors") + n("shed") + n("rejected") + n("expired") + n("cancelled") +
                               n("queue_depth") + n("held") + n("busy_workers"));
  const std::uint64_t client_504 = r->results.totals.status_class[5];
  EXPECT_GE(client_504, 20U);
  EXPECT_GT(n("expired"), client_504) << "expired at dequeue after the client gave up: no one to see the 504";
  EXPECT_LE(n("ok"), 3 * 50 + 20) << "one 20-ms worker for ~3.3 s";
  const auto j = sim::to_json(*r);
  EXPECT_EQ(j.at("service_stats").at("expired"), n("expired"));
  EXPECT_FALSE(j.at("service_stats").contains("history")) << "the per-second history is left out";
}
