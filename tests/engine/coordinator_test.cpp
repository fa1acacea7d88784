#include "engine/coordinator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include "http/request.h"
#include "net/socket_test_util.h"

using namespace openloop;
using namespace std::chrono_literals;

namespace {

int nice_of_thread(pid_t tid) {
  errno = 0;
  return getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
}

// A short open-model run against a listener that accepts into its backlog and never answers: every request
// times out, which is all these tests need (threads, not outcomes).
engine::RunPlan short_plan(const net::testing::Listener& target) {
  engine::RunPlan plan;
  plan.url_text = "http://127.0.0.1:" + std::to_string(target.port) + "/";
  plan.url = *net::parse_url(plan.url_text);
  plan.endpoints = {net::testing::loopback(target.port)};
  engine::RequestSpec spec;
  spec.request = *http::build_request("GET", plan.url, {}, "");
  plan.requests = {spec};
  plan.model = engine::Model::open;
  plan.threads = 1;
  plan.max_connections = 4;
  plan.timeout = 50ms;
  plan.duration = 200ms;
  plan.spin_below = 0ns;
  plan.profile = workload::RateProfile::constant(50, plan.duration);
  return plan;
}

}  // namespace

TEST(Coordinator, LeavesTheCallersPriorityAsItWas) {
  net::testing::Listener target;
  const int before = nice_of_thread(gettid());
  const int policy_before = sched_getscheduler(0);
  ASSERT_LT(before, 19) << "the test needs to start below the coordinator's nice 19";
  ASSERT_NE(policy_before, SCHED_IDLE) << "the test needs to start above the coordinator's SCHED_IDLE";
  std::atomic<int> stop{0};
  const auto r = engine::run(short_plan(target), stop);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(nice_of_thread(gettid()), before);
  EXPECT_EQ(sched_getscheduler(0), policy_before);
}

TEST(Coordinator, CoordinatesAtTheLowestPriority) {
  // The progress callback runs on the coordinator's thread: SCHED_IDLE there (nice 19 where that is refused).
  net::testing::Listener target;
  engine::RunPlan plan = short_plan(target);
  plan.interval = 50ms;
  int policy = -1, nice = -100, calls = 0;
  std::atomic<int> stop{0};
  const auto r = engine::run(plan, stop, [&](const results::RunResults&) {
    ++calls;
    policy = sched_getscheduler(0);
    nice = nice_of_thread(gettid());
  });
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_GT(calls, 0);
  EXPECT_TRUE(policy == SCHED_IDLE || nice == 19) << "policy " << policy << ", nice " << nice;
  // Its CPU per round is measured and reported.
  EXPECT_GT(r->generator.coordinator_rounds, 0U);
  EXPECT_GE(r->generator.coordinator_cpu_ms_max, r->generator.coordinator_cpu_ms_mean);
  EXPECT_GT(r->generator.coordinator_cpu_ms_max, 0.0);
}

TEST(Coordinator, ThreadsStartedAfterARunRunAtTheOriginalPriority) {
  // run_all starts a run's workers from the calling thread, and threads inherit their creator's nice value: a
  // thread started after a run is exactly what the next run's workers (ramp --fresh, probe --repeats) get.
  net::testing::Listener target;
  const int before = nice_of_thread(gettid());
  ASSERT_LT(before, 19);
  std::atomic<int> stop{0};
  ASSERT_TRUE(engine::run(short_plan(target), stop));
  int worker_like = -100, worker_policy = -1;
  std::thread([&] {
    worker_like = nice_of_thread(gettid());
    worker_policy = sched_getscheduler(0);
  }).join();
  EXPECT_EQ(worker_like, before);
  EXPECT_EQ(worker_policy, sched_getscheduler(0));
  EXPECT_NE(worker_policy, SCHED_IDLE);
}

TEST(Coordinator, RefusesAnInfeasibleRateBeforeSendingAnything) {
  net::testing::Listener target;
  engine::RunPlan plan = short_plan(target);
  plan.profile = workload::RateProfile::constant(99999999999, plan.duration);
  std::atomic<int> stop{0};
  const auto r = engine::run(plan, stop);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_EQ(target.accept_within(0), -1) << "a connection was made";
}

TEST(Coordinator, APlanWhoseTargetWasNeverResolvedIsRefused) {
  // The CLI resolves every target; a plan built in code may not have, and must not reach the workers.
  net::testing::Listener target;
  engine::RunPlan plan = short_plan(target);
  plan.endpoints.clear();
  std::atomic<int> stop{0};
  const auto r = engine::run(plan, stop);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_EQ(r.error().message, "the target " + plan.url_text +
                                   " of the plan was not resolved (RunPlan::endpoints is empty); resolve it "
                                   "first (net::resolve)");
}
