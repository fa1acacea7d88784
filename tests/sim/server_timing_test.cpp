// Server-Timing on virtual time: the simulator answers as the lab does (`Server-Timing: queue;dur=X,
// app;dur=Y` from the same ServiceModel), so the split of the response time into queueing and service can be
// checked against queueing theory without a socket or a noisy machine. One worker with exponential service of
// mean 1 ms (M/M/1), Poisson arrivals at ρ 0.2 and ρ 0.9. A run is deterministic in its seeds, so the same
// seeds read once with `--server-timing-metric app` and once with `queue` are the same run seen twice.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim_plans.h"
#include "stats/quantile_ci.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;

namespace {

constexpr double k_service_ns = 1e6;  // exp:1ms

results::RunResults run_at(double rho, const std::string& metric) {
  engine::RunPlan plan = open_plan(rho / (k_service_ns / 1e9), 20s, 1s);
  plan.seed = 7;
  plan.server_timing_metric = metric;
  return run(plan, "--workers 1 --service exp:1ms --seed 11");
}

// True quantile of an exponential service time of mean 1 ms (what the lab draws for each request).
double service_quantile_ns(double p) {
  return -std::log(1 - p / 100) * k_service_ns;
}

}  // namespace

TEST(ServerTiming, QueueNeverNegativeOnlyTheQueuePartGrowsWithLoad) {
  const auto light_app = run_at(0.2, "app"), heavy_app = run_at(0.9, "app");
  const auto light_queue = run_at(0.2, "queue"), heavy_queue = run_at(0.9, "queue");
  const auto heavy_sum = run_at(0.9, "");
  for (const auto* r : {&light_app, &heavy_app, &light_queue, &heavy_queue, &heavy_sum}) {
    ASSERT_GT(r->totals.completed, 3000U);
    const auto& st = r->server_timing;
    // Every response carried a readable header with the metric sought.
    EXPECT_EQ(static_cast<std::uint64_t>(st.count()), r->totals.completed);
    EXPECT_EQ(st.malformed, 0U);
    EXPECT_EQ(st.no_duration, 0U);
    // The server never claims more than the whole response took (the sum of both parts included).
    EXPECT_EQ(st.negative, 0U);
  }
  // The same run seen twice: same completions.
  EXPECT_EQ(light_app.totals.completed, light_queue.totals.completed);
  EXPECT_EQ(heavy_app.totals.completed, heavy_queue.totals.completed);

  // Service: at the configured distribution at both loads. Service times are drawn independently of each other
  // and of the queue, so the order-statistic interval on n is honest; it must cover the true quantile
  // (widened by the histogram's 2 significant digits and the header's 1 µs resolution).
  for (const auto* r : {&light_app, &heavy_app}) {
    for (double p : {50.0, 90.0, 99.0}) {
      const auto q = stats::estimate_quantile(r->server_timing.server_time, p);
      ASSERT_TRUE(q.low && q.high) << "p" << p;
      const double truth = service_quantile_ns(p);
      EXPECT_LE(static_cast<double>(*q.low), truth * 1.01 + 1e3) << "p" << p;
      EXPECT_GE(static_cast<double>(*q.high), truth * 0.99 - 1e3) << "p" << p;
    }
  }
  // Queueing: M/M/1 waits are 0 with probability 1 − ρ and otherwise exponential at rate μ − λ, so the p90
  // wait is ln(ρ / 0.1)/(μ − λ): 0.87 ms at ρ 0.2, 22 ms at ρ 0.9 (Kleinrock, Queueing Systems I, §3.2). The
  // bounds are a factor of two either side: the heavy run's samples are strongly correlated.
  const double light_q90 = static_cast<double>(light_queue.server_timing.server_time.value_at_percentile(90));
  const double heavy_q90 = static_cast<double>(heavy_queue.server_timing.server_time.value_at_percentile(90));
  EXPECT_GT(light_q90, 0.87e6 / 2);
  EXPECT_LT(light_q90, 0.87e6 * 2);
  EXPECT_GT(heavy_q90, 22e6 / 2);
  EXPECT_LT(heavy_q90, 22e6 * 2);
  // The queue's p50 is 0 at light load (80 % of requests find the worker free).
  EXPECT_LT(light_queue.server_timing.server_time.value_at_percentile(50), 10'000);
  // With the service as the server's time, what lies outside it is the queue (the simulated network adds
  // nothing): it grows with the load by as much as the queue does.
  const double light_out90 = static_cast<double>(light_app.server_timing.outside_server.value_at_percentile(90));
  const double heavy_out90 = static_cast<double>(heavy_app.server_timing.outside_server.value_at_percentile(90));
  EXPECT_GT(heavy_out90, 10 * light_out90);
  // With every metric summed, the server accounts for the whole response time: nothing of note outside it.
  EXPECT_LT(heavy_sum.server_timing.outside_server.value_at_percentile(99.9), 10'000);
  std::printf("queue p90: %.3f ms at rho 0.2, %.3f ms at 0.9; outside the service p90: %.3f -> %.3f ms\n",
              light_q90 / 1e6, heavy_q90 / 1e6, light_out90 / 1e6, heavy_out90 / 1e6);
}
