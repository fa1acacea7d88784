// The simulator against queueing theory: every tolerance is derived in the test from the run's own length.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim_plans.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;

namespace {

// Standard error of the mean response time by batch means: each interval of the run is one batch (intervals
// are made much longer than the queue's relaxation time, so batches are nearly independent), weighted by
// its count. In ms.
double batch_standard_error_ms(const results::RunResults& r) {
  double n = 0, sum = 0, sum_sq = 0;
  std::vector<double> means;
  for (const auto& i : r.intervals) {
    if (i.response_time.count == 0) continue;
    means.push_back(ms(i.response_time.mean));
  }
  for (double m : means) {
    n += 1;
    sum += m;
    sum_sq += m * m;
  }
  if (n < 2) return INFINITY;
  const double mean = sum / n;
  const double var = (sum_sq - n * mean * mean) / (n - 1);
  return std::sqrt(std::max(0.0, var) / n);
}

// M/M/1 with mean service 1: the asymptotic variance of the sample mean of waiting times is
// ρ(2 + 5ρ − 4ρ² + ρ³)/(1 − ρ)⁴ per customer (Blomqvist 1967; docs/experiments.md §2). A sojourn time adds
// its service (variance 1), and the covariance is bounded by Cauchy–Schwarz: σ²_T ≤ σ²_W + 1 + 2σ_W.
double mm1_sojourn_variance(double rho) {
  const double w = rho * (2 + 5 * rho - 4 * rho * rho + rho * rho * rho) / std::pow(1 - rho, 4);
  return w + 1 + 2 * std::sqrt(w);
}

void expect_mm1(double rho, double customers) {
  const double service_ms = 1;
  const double rate = rho / (service_ms / 1e3);
  const Nanos duration = std::chrono::duration_cast<Nanos>(std::chrono::duration<double>(customers / rate));
  engine::RunPlan plan = open_plan(rate, duration, 20s);
  plan.interval = 10s;  // batches ≫ the relaxation time S/(1 − √ρ)² (1.6 s at ρ = 0.95)
  const auto r = run(plan, "--workers 1 --service exp:1ms --seed 7");
  const double n = static_cast<double>(r.totals.completed);
  ASSERT_GT(n, customers * 0.95);
  const double predicted = service_ms / (1 - rho);
  const double theory_se = service_ms * std::sqrt(mm1_sojourn_variance(rho) / n);
  const double tolerance = 4 * std::max(theory_se, batch_standard_error_ms(r));
  EXPECT_NEAR(ms(r.response_time.mean()), predicted, tolerance)
      << "rho " << rho << ", " << n << " requests, 4 standard errors = " << tolerance << " ms";
  EXPECT_EQ(r.totals.ok, r.totals.completed);
}

}  // namespace

TEST(QueueingTheory, MM1MeanResponseAtHalfLoad) {
  expect_mm1(0.5, 1e5);
}
TEST(QueueingTheory, MM1MeanResponseAt80PercentLoad) {
  expect_mm1(0.8, 2e5);
}
TEST(QueueingTheory, MM1MeanResponseAt95PercentLoad) {
  expect_mm1(0.95, 1e6);
}

TEST(QueueingTheory, MMcMeanResponseMatchesErlangC) {
  // c = 4 servers, mean service 4 ms (μ = 250/s each), λ = 800/s: offered load a = 3.2, ρ = 0.8.
  const int c = 4;
  const double mu = 250, lambda = 800, a = lambda / mu;
  double sum = 0, term = 1;
  for (int k = 0; k < c; ++k) {
    if (k > 0) term *= a / k;
    sum += term;
  }
  const double top = term * a / c * (c / (c - a));  // a^c / c! · c / (c − a)
  const double erlang_c = top / (sum + top);
  const double predicted_ms = 1e3 * (erlang_c / (c * mu - lambda) + 1 / mu);
  engine::RunPlan plan = open_plan(lambda, 200s, 10s);
  plan.interval = 5s;
  const auto r = run(plan, "--workers 4 --service exp:4ms --seed 3");
  const double tolerance = 4 * batch_standard_error_ms(r);
  EXPECT_NEAR(ms(r.response_time.mean()), predicted_ms, tolerance)
      << "Erlang C " << erlang_c << ", 4 standard errors = " << tolerance << " ms";
  EXPECT_LT(tolerance, 0.1 * predicted_ms) << "the run is too short to test anything";
}

TEST(QueueingTheory, LittlesLawForClosedUsersWithThinkTime) {
  // N = X (R + Z): 20 users, think exp:50ms, 2 workers at exp:5ms (capacity 400/s, offered ≈ 20/55ms).
  const std::uint64_t users = 20;
  const auto think = *workload::DurationDistribution::parse("exp:50ms", "think");
  const auto r = run(closed_plan(users, think, 120s, 5s), "--workers 2 --service exp:5ms --seed 5");
  const double x = r.throughput_rps();
  const double response_s = r.response_time.mean() / 1e9;
  // The think time actually drawn is not in the results; its mean is the plan's, and over n iterations its
  // sample mean errs by Z/√n (exponential: standard deviation = mean). Edge effects: at most one iteration
  // per user is cut at each end of the measured period.
  const double n = static_cast<double>(r.totals.completed);
  const double predicted = x * (response_s + 0.050);
  const double tolerance = static_cast<double>(users) * (4 * 0.050 / std::sqrt(n) / (response_s + 0.050)) +
                           2 * static_cast<double>(users) / n * static_cast<double>(users);
  EXPECT_NEAR(predicted, static_cast<double>(users), tolerance)
      << "X " << x << "/s, R " << response_s << " s";
}

TEST(StallTable, ClosedLoopHidesTheStallsOpenLoopShowsThem) {
  // Seed 002: 1 ms of work, frozen 500 ms every 2 s, 10 s of load.
  const std::string lab = "--workers 1 --service 1ms --stall 500ms/2s";
  const auto closed = run(closed_plan(1, {}, 10s), lab);
  const auto open = run(open_plan(500, 10s, 0s, workload::ArrivalKind::constant), lab);
  // Closed: one request per stall waits it out; every other one takes exactly the service time: 8 s of
  // 1 ms requests outside the 4 stalls. Four stalled requests among 8,000 are below the 99.9th percentile.
  const double closed_n = static_cast<double>(closed.totals.completed);
  EXPECT_NEAR(closed_n, 8000, 4);
  EXPECT_LT(4 / closed_n, 0.001);
  EXPECT_NEAR(ms(closed.response_time.value_at_percentile(99)), 1.0, 0.01);
  EXPECT_NEAR(ms(closed.response_time.value_at_percentile(99.9)), 1.0, 0.01);
  EXPECT_GT(ms(closed.response_time.max()), 490);
  // Open, one arrival every 2 ms. The stalls begin at 2, 4, 6 and 8 s (the one at 10 s is after the run): the
  // k-th arrival of a stall (k = 0..249) completes (k + 1) ms after it ends, so its response time is 501 − k
  // ms, and each stall gives one request each of 501, 500, 499, ... ms. Of 5,000, the 50 largest (1 %) are
  // the 4 × 12 from 501 down to 490 and two of 489: p99 = 489 ms. The 5 largest (0.1 %): p99.9 = 500 ms. The
  // histogram keeps 3 significant digits (±0.5 ms here).
  EXPECT_EQ(open.totals.completed, 5000U);
  EXPECT_NEAR(ms(open.response_time.value_at_percentile(99)), 489, 1);
  EXPECT_NEAR(ms(open.response_time.value_at_percentile(99.9)), 500, 1);
  EXPECT_NEAR(ms(open.response_time.max()), 501, 1);
  // A stall delays the arrivals of 1 s (its 500 ms and the 500 ms its queue takes to drain at the spare
  // capacity): 4 × 500 = 2,000 of 5,000, by 501 − k ms for the k-th. So the median is untouched (the service
  // time, 1 ms) and the 500 largest (10 %) are the 4 × 125 above 376 ms: p90 = 376 ms.
  EXPECT_NEAR(ms(open.response_time.value_at_percentile(50)), 1.0, 0.01);
  EXPECT_NEAR(ms(open.response_time.value_at_percentile(90)), 376, 1);
}

TEST(Overload, FifoCollapsesWhereLifoWithSheddingHoldsGoodput) {
  // 150 % load: 1,500/s offered to 1 worker of 1 ms (capacity 1,000/s), the client waiting 1 s at most.
  engine::RunPlan plan = open_plan(1500, 20s, 0s, workload::ArrivalKind::constant);
  plan.timeout = 1s;
  const auto fifo = run(plan, "--workers 1 --service 1ms --seed 2");
  const auto lifo = run(plan, "--workers 1 --service 1ms --queue lifo --shed-at 100 --seed 2");
  const double offered = static_cast<double>(fifo.totals.intended);
  // FIFO: the queue grows by 500/s, so an arrival at t waits t/2: only the 3,000 arrivals of the first 2 s
  // (one every 2/3 ms) are answered within the timeout, then none of the 27,000 after (the cut ones are
  // served all the same). The last few before 2 s miss the deadline by their 1 ms of service.
  EXPECT_NEAR(static_cast<double>(fifo.totals.ok), 3000, 5);
  // LIFO + shedding: the worker stays busy (capacity 1,000/s = 2/3 of the offered) and serves the newest
  // requests in time; the rest are shed at once.
  EXPECT_GT(static_cast<double>(lifo.totals.ok), 0.6 * offered);
  EXPECT_GT(lifo.totals.status_class[4], 0U);
}
