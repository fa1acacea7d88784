// Microbenchmarks of the hdr hot path (record) and of encoding a typical 1-second interval for the .hlog.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "hdr/codec.h"
#include "hdr/histogram.h"

namespace {

using openloop::Rng;
using openloop::hdr::Histogram;

constexpr std::int64_t k_hour_ns = 3600000000000;

// Lognormal response times around 300 µs with a heavy tail, in nanoseconds (fixed seed).
std::vector<std::int64_t> latencies(std::size_t n) {
  Rng rng(42);
  std::vector<std::int64_t> values(n);
  for (auto& v : values) {
    const double z =
        std::sqrt(-2.0 * std::log(rng.uniform_open0())) * std::cos(6.283185307179586 * rng.uniform01());
    v = static_cast<std::int64_t>(300000.0 * std::exp(0.9 * z));
  }
  return values;
}

// One recorded response on the hot path: fixed-range nanosecond histogram, 3 digits, as openloop uses it.
void BM_Record(benchmark::State& state) {
  const auto values = latencies(4096);
  Histogram h(1, k_hour_ns, 3);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(h.record(values[i++ & 4095]));
  }
  benchmark::DoNotOptimize(h.total_count());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Record);

// Coordinated-omission correction of a 100 ms stall at a 20 µs expected interval (5000 missing values).
void BM_RecordWithExpectedInterval(benchmark::State& state) {
  Histogram h(1, k_hour_ns, 3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(h.record_with_expected_interval(100000000, 20000));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecordWithExpectedInterval);

// A typical 1-second interval (state.range(0) responses) encoded as the .hlog writes it (zlib level 9),
// and at the direct-encode level 6 for comparison.
void BM_EncodeCompressedInterval(benchmark::State& state) {
  const auto values = latencies(static_cast<std::size_t>(state.range(0)));
  Histogram h(1, k_hour_ns, 3);
  for (auto v : values) h.record(v);
  const int level = static_cast<int>(state.range(1));
  std::size_t bytes = 0;
  for (auto _ : state) {
    const auto encoded = openloop::hdr::encode_v2_compressed(h, level);
    bytes = encoded.size();
    benchmark::DoNotOptimize(encoded.data());
  }
  state.counters["encoded_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_EncodeCompressedInterval)
    ->Args({10000, 9})
    ->Args({100000, 9})
    ->Args({100000, 6})
    ->Args({100000, 1});

// The same interval's plain V2 encoding (the zero-run scan over every count), without zlib.
void BM_EncodePlainInterval(benchmark::State& state) {
  const auto values = latencies(100000);
  Histogram h(1, k_hour_ns, 3);
  for (auto v : values) h.record(v);
  for (auto _ : state) {
    const auto encoded = openloop::hdr::encode_v2(h);
    benchmark::DoNotOptimize(encoded.data());
  }
}
BENCHMARK(BM_EncodePlainInterval);

// Merging a worker's interval into the run total (same layout), as the coordinator does each interval.
void BM_AddInterval(benchmark::State& state) {
  const auto values = latencies(100000);
  Histogram interval(1, k_hour_ns, 3);
  for (auto v : values) interval.record(v);
  Histogram total(1, k_hour_ns, 3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(total.add(interval));
  }
}
BENCHMARK(BM_AddInterval);

// What the coordinator, the reports and a scrape read of an interval's histogram: its mean (a walk over the
// counts), a percentile, and clearing it for reuse after a few values (a spent interval going back to its
// worker).
void BM_MeanOfInterval(benchmark::State& state) {
  const auto values = latencies(100000);
  Histogram interval(1, k_hour_ns, 3);
  for (auto v : values) interval.record(v);
  for (auto _ : state) benchmark::DoNotOptimize(interval.mean());
}
BENCHMARK(BM_MeanOfInterval);

void BM_P99OfInterval(benchmark::State& state) {
  const auto values = latencies(100000);
  Histogram interval(1, k_hour_ns, 3);
  for (auto v : values) interval.record(v);
  for (auto _ : state) benchmark::DoNotOptimize(interval.value_at_percentile(99));
}
BENCHMARK(BM_P99OfInterval);

void BM_RecordAndReset(benchmark::State& state) {
  Histogram h(1, k_hour_ns, 3);
  for (auto _ : state) {
    h.record(2000000);  // 2 ms
    h.reset();
  }
}
BENCHMARK(BM_RecordAndReset);

}  // namespace
