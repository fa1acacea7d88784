// The statistical self-checks' cost at the end of a run: the rank autocorrelation of the response times and of
// the four percentile indicators (engine/self_checks.cpp), on as many samples as an 8-s run at 50k/s keeps.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "stats/autocorrelation.h"

namespace {

struct Samples {
  std::vector<double> latency, below;
  explicit Samples(std::size_t n) : latency(n), below(n) {
    std::mt19937_64 rng(7);
    std::exponential_distribution<double> e(1.0);
    double previous = 0;
    for (std::size_t i = 0; i < n; ++i) {
      previous = 0.5 * previous + e(rng);  // correlated, as queueing makes them
      latency[i] = previous;
      below[i] = previous < 2.0 ? 1.0 : 0.0;
    }
  }
};

// One run's checks: the response times once, the indicator at each of p50, p90, p99 and p99.9 (batch means).
void BM_RunChecks(benchmark::State& state) {
  const Samples s(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    double sum = openloop::stats::rank_autocorrelation(s.latency, s.latency.size() / 4, false).effective_n;
    for (int p = 0; p < 4; ++p)
      sum += openloop::stats::rank_autocorrelation(s.below, s.below.size() / 4, true).effective_n;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_RunChecks)->Arg(100'000)->Arg(400'000)->Unit(benchmark::kMillisecond);

void BM_Autocorrelation(benchmark::State& state) {
  const Samples s(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(openloop::stats::autocorrelation(s.latency, s.latency.size() / 4));
}
BENCHMARK(BM_Autocorrelation)->Arg(100'000)->Arg(400'000)->Unit(benchmark::kMillisecond);

}  // namespace
