#include "engine/coordinator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

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
  spec.bytes = *http::render_request("GET", plan.url, {}, "");
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
  ASSERT_LT(before, 19) << "the test needs to start below the coordinator's nice 19";
  std::atomic<int> stop{0};
  const auto r = engine::run(short_plan(target), stop);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(nice_of_thread(gettid()), before);
}

TEST(Coordinator, ThreadsStartedAfterARunRunAtTheOriginalPriority) {
  // run_all starts a run's workers from the calling thread, and threads inherit their creator's nice value: a
  // thread started after a run is exactly what the next run's workers (ramp --fresh, probe --repeats) get.
  net::testing::Listener target;
  const int before = nice_of_thread(gettid());
  ASSERT_LT(before, 19);
  std::atomic<int> stop{0};
  ASSERT_TRUE(engine::run(short_plan(target), stop));
  int worker_like = -100;
  std::thread([&worker_like] { worker_like = nice_of_thread(gettid()); }).join();
  EXPECT_EQ(worker_like, before);
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
