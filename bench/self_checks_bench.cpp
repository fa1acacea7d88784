// The statistical self-checks' cost at the end of a run: the rank autocorrelation of the response times and
// of the four percentile indicators (engine/self_checks.cpp), on as many samples as an 8-s run at 50k/s
// keeps.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "stats/autocorrelation.h"

namespace {

// Response times in send order (AR(1) with exponential steps: phi 0.5 is correlated, as queueing makes them;
// 0 is a lightly loaded target) and their indicators below p50, p90, p99 and p99.9.
struct Samples {
  std::vector<double> latency;
  std::vector<std::vector<double>> below;
  Samples(std::size_t n, double phi) : latency(n) {
    std::mt19937_64 rng(7);
    std::exponential_distribution<double> e(1.0);
    double previous = 0;
    for (std::size_t i = 0; i < n; ++i) latency[i] = previous = phi * previous + e(rng);
    std::vector<double> sorted = latency;
    std::sort(sorted.begin(), sorted.end());
    for (double p : {0.5, 0.9, 0.99, 0.999}) {
      const double v = sorted[static_cast<std::size_t>(p * static_cast<double>(n - 1))];
      std::vector<double> b(n);
      for (std::size_t i = 0; i < n; ++i) b[i] = latency[i] <= v ? 1.0 : 0.0;
      below.push_back(std::move(b));
    }
  }
};

// One run's checks as engine/self_checks.cpp makes them: the response times' rank autocorrelation once, each
// indicator's (batch means; its values correlate as its ranks do).
void run_checks(benchmark::State& state, double phi) {
  const Samples s(static_cast<std::size_t>(state.range(0)), phi);
  for (auto _ : state) {
    double sum = openloop::stats::rank_autocorrelation(s.latency, s.latency.size() / 4, false).effective_n;
    for (const auto& b : s.below)
      sum += openloop::stats::serial_autocorrelation(b, b.size() / 4, true).effective_n;
    benchmark::DoNotOptimize(sum);
  }
}
void BM_RunChecks(benchmark::State& state) {
  run_checks(state, 0.5);
}
void BM_RunChecksIndependent(benchmark::State& state) {
  run_checks(state, 0.0);
}
BENCHMARK(BM_RunChecks)->Arg(100'000)->Arg(400'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RunChecksIndependent)->Arg(100'000)->Arg(400'000)->Unit(benchmark::kMillisecond);

// Every lag by FFT (the path a strongly correlated run takes).
void BM_Autocorrelation(benchmark::State& state) {
  const Samples s(static_cast<std::size_t>(state.range(0)), 0.5);
  for (auto _ : state)
    benchmark::DoNotOptimize(openloop::stats::autocorrelation(s.latency, s.latency.size() / 4));
}
BENCHMARK(BM_Autocorrelation)->Arg(100'000)->Arg(400'000)->Unit(benchmark::kMillisecond);

}  // namespace
