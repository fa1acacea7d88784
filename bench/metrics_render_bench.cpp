// What one scrape of --metrics-listen costs the endpoint's thread, without the socket: building the families from
// a run's state and rendering them, as text (Prometheus 0.0.4, what a scraper without native histograms asks for)
// and as protobuf (what Prometheus asks for with native histograms on). The state is a 20k/s run's first minute:
// 1.2 million lognormal response and service times around 300 µs with a heavy tail, lateness around 5 µs.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>

#include "core/rng.h"
#include "report/metrics/metrics_exposition.h"
#include "report/metrics/metric_families.h"

namespace {

using namespace openloop;

report::MetricsState sample_state() {
  report::MetricsState s;
  Rng rng(42);
  const auto lognormal = [&rng](double median_ns, double sigma) {
    const double z =
        std::sqrt(-2.0 * std::log(rng.uniform_open0())) * std::cos(6.283185307179586 * rng.uniform01());
    return static_cast<std::int64_t>(median_ns * std::exp(sigma * z));
  };
  for (int i = 0; i < 1200000; ++i) {
    s.response_time.record(lognormal(300000, 0.9));
    s.service_time.record(lognormal(250000, 0.9));
    s.send_lateness.record(lognormal(5000, 1.5));
  }
  s.totals.intended = s.totals.sent = s.totals.completed = s.totals.ok = 1200000;
  s.totals.status_class[2] = 1200000;
  s.verdict = report::MetricsState::Verdict::valid;
  s.updates = 60;
  s.latest_from_s = 59;
  s.latest_to_s = 60;
  return s;
}

report::MetricsContext sample_context() {
  report::MetricsContext c;
  c.run_id = "bench";
  c.request_names = {"GET /"};
  c.target_rps = 20000;
  return c;
}

void BM_ScrapeText(benchmark::State& state) {
  const report::MetricsState s = sample_state();
  const report::MetricsContext c = sample_context();
  for (auto _ : state) benchmark::DoNotOptimize(report::render_families_text(run_metric_families(s, c), false));
}
BENCHMARK(BM_ScrapeText);

void BM_ScrapeProtobuf(benchmark::State& state) {
  const report::MetricsState s = sample_state();
  const report::MetricsContext c = sample_context();
  for (auto _ : state) benchmark::DoNotOptimize(report::render_families_protobuf(run_metric_families(s, c)));
}
BENCHMARK(BM_ScrapeProtobuf);

}  // namespace
