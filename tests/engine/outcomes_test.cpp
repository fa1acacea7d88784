// A flow step's response outcome on the worker, on virtual time against the simulated lab (sim::Simulator:
// its service model and response bytes), so every step runs whatever the host's load: a response whose check
// failed is settled once, as not ok, so the ok count, goodput and the step's breakdown agree; each step's
// counts are conserved.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>

#include "../sim/sim_plans.h"
#include "engine/scenario_plans.h"
#include "engine/simulated_run.h"
#include "results/flow_steps.h"
#include "sim/simulator.h"
#include "workload/scenario_file.h"

using namespace openloop;
using namespace std::chrono_literals;

namespace {

const SteadyTime k_epoch = SteadyTime(std::chrono::hours(1));

// Sessions of two steps against the lab, whose every answer is 200 with a body of dots: the first step checks
// for a text the body lacks (on_fail: continue), so every one of its responses fails its check; the second
// checks the status. 100 sessions a second for 2 s of virtual time, each step served in 1 ms.
results::RunResults run_flow() {
  const std::string yaml = R"(
target: http://127.0.0.1:8080
requests:
  login: {method: POST, path: /login}
  me: {path: /me}
scenarios:
  s:
    model: sessions
    session_rate: 100/s
    duration: 2s
    steps:
      - {request: login, check: [{body_contains: welcome}], on_fail: continue}
      - {request: me, think: 10ms, check: [{status: 200}]}
)";
  auto loaded = workload::load_plan_text(yaml, "plan.yaml", ".");
  EXPECT_TRUE(loaded) << loaded.error().message;
  if (!loaded) return {};
  auto w = std::make_shared<const workload::WorkloadPlan>(std::move(*loaded));
  auto plans = engine::plans_from_workload(w, engine::RunSettings{});
  EXPECT_TRUE(plans) << plans.error().message;
  if (!plans) return {};
  engine::RunPlan plan = std::move(plans->front());
  plan.endpoints = {net::Endpoint{}};
  plan.spin_below = 0ns;
  plan.threads = 1;
  sim::Simulator world(sim::testing::lab_of("--service 1ms --workers 8"), k_epoch);
  std::atomic<int> stop{0};
  auto r = engine::run_simulated(plan, world, k_epoch, stop);
  EXPECT_TRUE(r) << r.error().message;
  return r ? std::move(*r) : results::RunResults{};
}

}  // namespace

TEST(FlowOutcomes, AResponseWhoseCheckFailedIsNotOkAndGoodputAgrees) {
  const results::RunResults r = run_flow();
  ASSERT_EQ(r.info.request_names, (std::vector<std::string>{"login", "me"}));
  ASSERT_EQ(r.by_request.size(), 2U);
  const results::Counters& login = r.by_request[0].counters;
  const results::Counters& me = r.by_request[1].counters;
  ASSERT_GE(login.completed, 190U) << "the lab answered the logins (about 200)";
  ASSERT_GE(me.completed, 190U) << "and every session's second step";
  EXPECT_EQ(login.status_class[2], login.completed) << "every login answered 200";
  EXPECT_EQ(login.ok, 0U) << "a 200 whose check failed is not ok";
  EXPECT_EQ(me.ok, me.completed) << "the second step's check passes";
  EXPECT_EQ(r.totals.ok, me.ok);
  EXPECT_EQ(r.totals.completed - r.totals.ok, login.completed);
  std::uint64_t ok_in_intervals = 0;
  for (const auto& i : r.intervals) ok_in_intervals += i.counters.ok;
  EXPECT_EQ(ok_in_intervals, r.totals.ok) << "the intervals' ok counts add up to the total";
  EXPECT_DOUBLE_EQ(r.goodput_rps() * r.measured_s, static_cast<double>(r.totals.ok));
  EXPECT_EQ(r.flows.checks_failed, login.completed);
  EXPECT_EQ(r.flows.steps[0].checks_failed, login.completed);
  EXPECT_EQ(r.flows.steps[1].checks_failed, 0U);
  EXPECT_EQ(r.flows.stopped, 0U) << "on_fail: continue";
}

TEST(FlowOutcomes, EachStepsCountsAreConserved) {
  const results::RunResults r = run_flow();
  const std::vector<results::FlowStep> steps = results::flow_steps(r);
  ASSERT_EQ(steps.size(), 2U);
  for (const results::FlowStep& s : steps) {
    ASSERT_NE(s.counters, nullptr) << "step " << s.step;
    ASSERT_NE(s.response_time, nullptr) << "step " << s.step;
    const results::Counters& c = *s.counters;
    EXPECT_GT(c.intended, 0U) << "step " << s.step;
    EXPECT_TRUE(c.conserved()) << "step " << s.step << ": intended " << c.intended << " completed "
                               << c.completed << " timeouts " << c.timeouts << " errors " << c.errors_total()
                               << " dropped " << c.dropped << " unfinished " << c.unfinished;
    EXPECT_EQ(static_cast<std::uint64_t>(s.response_time->total_count()),
              c.completed + c.timeouts + c.unfinished)
        << "step " << s.step << ": one response time per response, timeout and unfinished request";
  }
  EXPECT_EQ(steps[0].request, "login");
  EXPECT_EQ(steps[0].failures.checks_failed, steps[0].counters->completed);
  EXPECT_EQ(steps[1].request, "me");
  // Every session that arrived ran its first step.
  const results::FlowCounters& f = r.flows;
  EXPECT_EQ(f.sessions_intended,
            f.sessions_completed + f.sessions_failed + f.sessions_dropped + f.sessions_unfinished);
  EXPECT_EQ(steps[0].counters->intended, f.sessions_intended - f.sessions_dropped);
  // Each first step that completed led to the second, but in sessions the end of the run cut before it was
  // due.
  EXPECT_LE(steps[1].counters->intended, steps[0].counters->completed);
  EXPECT_GE(steps[1].counters->intended + f.sessions_unfinished, steps[0].counters->completed);
  EXPECT_EQ(f.sessions_completed, steps[1].counters->ok) << "a session completes with its second step";
}

TEST(FlowOutcomes, AFailedChecksExampleNamesTheStepAndTheResponse) {
  const results::RunResults r = run_flow();
  const auto example = std::find_if(r.error_examples.begin(), r.error_examples.end(),
                                    [](const auto& e) { return e.first == "step 1 login"; });
  ASSERT_NE(example, r.error_examples.end()) << "an example of step 1's failure";
  EXPECT_NE(example->second.find("check body contains \"welcome\" failed"), std::string::npos)
      << example->second;
  EXPECT_NE(example->second.find("in login's response, status 200, "), std::string::npos) << example->second;
  const auto of_step = std::count_if(r.error_examples.begin(), r.error_examples.end(),
                                     [](const auto& e) { return e.first.rfind("step 1 login", 0) == 0; });
  EXPECT_EQ(of_step, 1) << "one set of failures, one example, however many workers and responses";
}
