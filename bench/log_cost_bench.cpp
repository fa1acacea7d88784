// Microbenchmarks of what per-phase timings and the per-request log add per request: recording one attempt's
// phases (worker thread), handing a record to the worker's ring (worker thread) and formatting its line (the
// log's writer thread). bench/log_cost.sh puts them beside the CPU per request of whole runs.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/request_log.h"
#include "results/recording/phase_stats.h"

namespace {

using namespace openloop;

results::AttemptPhases attempt(bool fresh, std::int64_t i) {
  results::AttemptPhases p;
  p.new_connection = fresh;
  if (fresh) p[results::Phase::connect] = 40'000 + (i & 1023);
  p[results::Phase::ttfb] = 250'000 + 37 * (i & 4095);
  p[results::Phase::body] = i & 7;
  return p;
}

// What the worker does per response for phases: one record into the interval's histograms (a reused
// connection: ttfb and body).
void BM_PhaseRecordReused(benchmark::State& state) {
  results::PhaseStats stats;
  std::int64_t i = 0;
  for (auto _ : state) {
    stats.record(attempt(false, ++i));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_PhaseRecordReused);

// A new connection's first request: connect, ttfb and body.
void BM_PhaseRecordNew(benchmark::State& state) {
  results::PhaseStats stats;
  std::int64_t i = 0;
  for (auto _ : state) {
    stats.record(attempt(true, ++i));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_PhaseRecordNew);

engine::RequestRecord record(std::int64_t i) {
  engine::RequestRecord r;
  const SteadyTime t0{std::chrono::seconds(100)};
  r.intended = t0 + std::chrono::microseconds(50 * i);
  r.sent = r.intended + std::chrono::microseconds(3);
  r.end = r.sent + std::chrono::microseconds(300);
  r.phases = attempt(false, i);
  r.bytes_in = 160;
  r.bytes_out = 40;
  r.status = 200;
  r.attempts = 1;
  return r;
}

// The worker's share of --log-requests: one record into its ring (popped in batches, as the writer does).
void BM_RingPush(benchmark::State& state) {
  engine::RecordRing ring(engine::RequestLog::k_default_ring);
  std::vector<engine::RequestRecord> batch(1024);
  const engine::RequestRecord r = record(1);
  std::size_t pushed = 0;
  for (auto _ : state) {
    ring.push(r);
    if (++pushed == batch.size()) {
      state.PauseTiming();
      ring.pop(batch.data(), batch.size());
      pushed = 0;
      state.ResumeTiming();
    }
  }
}
BENCHMARK(BM_RingPush);

// The writer thread's share: one line formatted (JSON lines or CSV), off the workers' path.
void BM_FormatRecord(benchmark::State& state) {
  const auto format = state.range(0) == 0 ? engine::LogFormat::json : engine::LogFormat::csv;
  engine::LogContext ctx;
  ctx.request_names = {"GET /"};
  ctx.steady_origin = SteadyTime{std::chrono::seconds(100)};
  ctx.unix_origin_s = 1'764'600'000.0;
  std::string out;
  std::int64_t i = 0;
  for (auto _ : state) {
    out.clear();
    engine::format_record(record(++i), ctx, format, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(state.range(0) == 0 ? "json" : "csv");
}
BENCHMARK(BM_FormatRecord)->Arg(0)->Arg(1);

}  // namespace
