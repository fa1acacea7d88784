// Microbenchmark of ArrivalSchedule::next(), the per-request hot-path cost of the arrival processes.
#include <benchmark/benchmark.h>

#include <chrono>
#include <string_view>

#include "workload/arrival_schedule.h"

namespace {

using namespace std::chrono_literals;
using openloop::workload::ArrivalKind;
using openloop::workload::ArrivalSchedule;
using openloop::workload::PoissonSplit;
using openloop::workload::RateProfile;
using openloop::workload::ShardSpec;

// Profiles long enough that no benchmark run reaches their end (~10^11 arrivals and more).
RateProfile flat() {
  return RateProfile::constant(1e6, 1'000'000s);
}
RateProfile staged() {
  return *RateProfile::parse_stages(
      "100000s:1000000/s,100000s:200000/s,0s:50000/s,100000s:50000/s,100000s:0/s", "bench");
}

void run(benchmark::State& state, const RateProfile& profile, ArrivalKind kind) {
  ArrivalSchedule schedule(profile, kind, 42, 1, 4);
  for (auto _ : state) benchmark::DoNotOptimize(schedule.next());
  state.SetItemsProcessed(state.iterations());
}

void BM_ConstantNextFlat(benchmark::State& state) {
  run(state, flat(), ArrivalKind::constant);
}
void BM_ConstantNextStaged(benchmark::State& state) {
  run(state, staged(), ArrivalKind::constant);
}
void BM_PoissonNextFlat(benchmark::State& state) {
  run(state, flat(), ArrivalKind::poisson);
}
void BM_PoissonNextStaged(benchmark::State& state) {
  run(state, staged(), ArrivalKind::poisson);
}

// Worker 1 of 4 of host shard `shard` of `shards` (equal weights): a striped Poisson lane draws the whole
// global stream, shards × 4 exponentials per arrival it issues; a thinned lane draws one.
void run_lane(benchmark::State& state, ArrivalKind kind, PoissonSplit split, unsigned shard, unsigned shards) {
  const ShardSpec host = *ShardSpec::make(shard, shards, {}, split);
  ArrivalSchedule schedule(flat(), kind, 42, host, 1, 4);
  for (auto _ : state) benchmark::DoNotOptimize(schedule.next());
  state.SetItemsProcessed(state.iterations());
}
void BM_ConstantNextShard1of4(benchmark::State& state) {
  run_lane(state, ArrivalKind::constant, PoissonSplit::stripe, 1, 4);
}
void BM_PoissonStripeNextUnsharded(benchmark::State& state) {
  run_lane(state, ArrivalKind::poisson, PoissonSplit::stripe, 0, 1);
}
void BM_PoissonStripeNextShard1of4(benchmark::State& state) {
  run_lane(state, ArrivalKind::poisson, PoissonSplit::stripe, 1, 4);
}
void BM_PoissonThinNextShard1of4(benchmark::State& state) {
  run_lane(state, ArrivalKind::poisson, PoissonSplit::thin, 1, 4);
}

}  // namespace

BENCHMARK(BM_ConstantNextShard1of4);
BENCHMARK(BM_PoissonStripeNextUnsharded);
BENCHMARK(BM_PoissonStripeNextShard1of4);
BENCHMARK(BM_PoissonThinNextShard1of4);
BENCHMARK(BM_ConstantNextFlat);
BENCHMARK(BM_ConstantNextStaged);
BENCHMARK(BM_PoissonNextFlat);
BENCHMARK(BM_PoissonNextStaged);
