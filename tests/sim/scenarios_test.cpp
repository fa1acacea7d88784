// sim::simulate_all: a scenario file's scenarios at once against one simulated service (each scenario's
// worker on a fiber of its own, net::SimulatedClients).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "net/simulated_clients.h"
#include "results/files/results_json.h"
#include "sim/simulator.h"
#include "sim_plans.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;

namespace {

// Scenario `index` of `count` as plans_from_workload() numbers them: its own name and its worker among all.
engine::RunPlan scenario(engine::RunPlan plan, const char* name, unsigned index, unsigned count) {
  plan.scenario = name;
  plan.worker_base = index;
  plan.workers_total = count;
  return plan;
}

struct Mix {
  std::vector<results::RunResults> results;
  std::uint64_t service_requests = 0;  // what the simulated service received, all scenarios together
};

Mix run_all(const std::vector<engine::RunPlan>& plans, const std::string& lab) {
  std::atomic<int> stop{0};
  Mix out;
  auto r = sim::simulate_all(plans, lab_of(lab), stop, {}, [&out](sim::Simulator& world) {
    world.on_poll([&out, &world] { out.service_requests = world.requests(); });
  });
  EXPECT_TRUE(r) << r.error().message;
  if (r) out.results = std::move(r->results);
  return out;
}

// An open scenario (constant arrivals), a closed one starting 1 s later, and a second open one (Poisson) from
// 2 s to the end, against 2 workers of exp:2ms.
std::vector<engine::RunPlan> three_scenarios() {
  engine::RunPlan steady = open_plan(150, 6s, 0s, workload::ArrivalKind::constant);
  engine::RunPlan users = closed_plan(3, *workload::DurationDistribution::parse("exp:20ms", "think"), 4s);
  users.start_offset = 1s;
  engine::RunPlan burst = open_plan(300, 4s);
  burst.start_offset = 2s;
  burst.seed = 3;
  return {scenario(steady, "steady", 0, 3), scenario(users, "users", 1, 3), scenario(burst, "burst", 2, 3)};
}

const char* k_lab = "--workers 2 --service exp:2ms --seed 11";

}  // namespace

TEST(SimulatedScenarios, EachConservedInEveryIntervalAndTheServiceSawThemAll) {
  const auto mix = run_all(three_scenarios(), k_lab);
  ASSERT_EQ(mix.results.size(), 3U);
  std::uint64_t attempts = 0;
  for (const auto& r : mix.results) {
    EXPECT_TRUE(r.verdict.valid) << (r.verdict.reasons.empty() ? "" : r.verdict.reasons.front());
    EXPECT_TRUE(r.totals.conserved());
    for (const auto& i : r.intervals)
      EXPECT_TRUE(i.counters.conserved()) << "interval at " << i.start_s << " s";
    EXPECT_EQ(r.totals.ok, r.totals.intended) << "a service at most ~50 % busy answers every request";
    attempts += r.totals.attempts + r.warmup.attempts;
  }
  EXPECT_EQ(mix.results[0].totals.intended, 900U) << "constant 150/s for 6 s";
  EXPECT_NEAR(static_cast<double>(mix.results[2].totals.intended), 1200, 4 * std::sqrt(1200.0))
      << "Poisson 300/s for 4 s";
  EXPECT_GT(mix.results[1].totals.completed, 300U) << "3 users, ~22 ms per iteration, 4 s";
  EXPECT_EQ(mix.service_requests, attempts) << "one service received every scenario's requests";
}

TEST(SimulatedScenarios, DeterministicForASeed) {
  const auto a = run_all(three_scenarios(), k_lab);
  const auto b = run_all(three_scenarios(), k_lab);
  ASSERT_EQ(a.results.size(), b.results.size());
  for (std::size_t i = 0; i < a.results.size(); ++i) {
    EXPECT_EQ(results::to_json(a.results[i]).dump(), results::to_json(b.results[i]).dump())
        << "scenario " << i;
  }
  const auto other = run_all(three_scenarios(), "--workers 2 --service exp:2ms --seed 12");
  EXPECT_NE(results::to_json(a.results[0]).dump(), results::to_json(other.results[0]).dump())
      << "another service seed, other service times";
}

// Two open scenarios of 400/s each against one exp:1ms worker share its queue: each sees the M/M/1 mean of
// the load they make together, S/(1 − 0.8) = 5 ms, not the 1.67 ms of its own 400/s alone.
TEST(SimulatedScenarios, ShareOneServiceQueueAsMM1AtTheirCombinedLoad) {
  engine::RunPlan a = open_plan(400, 60s, 20s);
  engine::RunPlan b = open_plan(400, 60s, 20s);
  b.seed =
      2;  // a scenario file derives each scenario's seed; the same one would send their arrivals in pairs
  a.interval = b.interval = 10s;  // batches ≫ the relaxation time S/(1 − √ρ)² (0.2 s at ρ = 0.8)
  const auto mix =
      run_all({scenario(a, "a", 0, 2), scenario(b, "b", 1, 2)}, "--workers 1 --service exp:1ms --seed 3");
  ASSERT_EQ(mix.results.size(), 2U);
  const double rho = 0.8, predicted_ms = 1 / (1 - rho);
  // M/M/1's asymptotic variance of the mean sojourn time (theory_test.cpp, Blomqvist 1967) for the requests
  // of one scenario: half the service's, so its standard error is taken at that count.
  const double w = rho * (2 + 5 * rho - 4 * rho * rho + rho * rho * rho) / std::pow(1 - rho, 4);
  const double per_request_variance = w + 1 + 2 * std::sqrt(w);
  for (const auto& r : mix.results) {
    const double n = static_cast<double>(r.totals.completed);
    ASSERT_GT(n, 0.95 * 400 * 60);
    const double tolerance = 4 * std::sqrt(per_request_variance / n);
    EXPECT_NEAR(ms(r.response_time.mean()), predicted_ms, tolerance) << r.info.target << " n " << n;
  }
}

TEST(SimulatedScenarios, RefusedTogetherBeyondTheCap) {
  // Each alone is below 10^9 requests (6e8); together they are not.
  engine::RunPlan a = open_plan(1e5, std::chrono::seconds(6000));
  engine::RunPlan b = a;
  const auto lab = lab_of("--service 0");
  EXPECT_TRUE(sim::check_simulable(std::vector{a}, lab));
  const auto refused = sim::check_simulable(std::vector{scenario(a, "a", 0, 2), scenario(b, "b", 1, 2)}, lab);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ExitCode::usage);
  EXPECT_NE(refused.error().message.find("the scenarios together would send about 1.2e+09"),
            std::string::npos)
      << refused.error().message;
}

// The fibers under a mix: each client's waits end at its own deadlines, in virtual-time order across clients,
// and an exception leaving one body is rethrown once the others have finished.
TEST(SimulatedClients, WaitsEndInVirtualTimeOrderAcrossClients) {
  sim::Simulator world(lab_of(""), sim::k_epoch);
  net::SimulatedClients clients(world, 2);
  std::vector<std::pair<int, std::int64_t>> woke;  // (client, ms of virtual time)
  const auto body = [&](int id, std::vector<int> deadlines_ms) {
    return [&, id, deadlines_ms] {
      net::SimulatedNetwork& net = clients.client(static_cast<std::size_t>(id));
      for (const int d : deadlines_ms) {
        EXPECT_EQ(net.poll(sim::k_epoch + std::chrono::milliseconds(d)), 0) << "nothing of its own was ready";
        woke.emplace_back(
            id, std::chrono::duration_cast<std::chrono::milliseconds>(net.now() - sim::k_epoch).count());
      }
    };
  };
  clients.run({body(0, {10, 20, 30}), body(1, {15, 25})});
  const std::vector<std::pair<int, std::int64_t>> want{{0, 10}, {1, 15}, {0, 20}, {1, 25}, {0, 30}};
  EXPECT_EQ(woke, want);

  sim::Simulator other(lab_of(""), sim::k_epoch);
  net::SimulatedClients failing(other, 2);
  bool finished = false;
  const auto throws = [&] {
    failing.client(0).poll(sim::k_epoch + 5ms);
    throw std::runtime_error("body 0 failed");
  };
  const auto waits = [&] {
    failing.client(1).poll(sim::k_epoch + 50ms);
    finished = true;
  };
  EXPECT_THROW(failing.run({throws, waits}), std::runtime_error);
  EXPECT_TRUE(finished) << "the other body ran to its end first";
}
