// Readings to one value per interval: counters to rates (interpolated at the boundaries), gauges to means,
// histogram buckets to quantiles, per-thread counters to the busiest thread; and the sampler's bookkeeping.
#include <gtest/gtest.h>

#include <cmath>

#include "observe/endpoint_sources.h"
#include "observe/observer.h"
#include "observe/prometheus_text.h"
#include "observe/sampler.h"
#include "observe/series.h"
#include "results/files/observed_json.h"
#include "results/files/results_json.h"
#include "results/files/results_reader.h"

namespace openloop::observe {
namespace {

const SignalMeta k_counter{Kind::counter, "/s", results::SignalRole::errors, "events", "", 0};
const SignalMeta k_gauge{Kind::gauge, "count", results::SignalRole::saturation, "queue", "", 0};

Series series(const SignalMeta& meta, std::vector<std::pair<double, double>> points, const char* name = "x") {
  Series s;
  s.source = "test";
  s.name = name;
  s.meta = meta;
  s.period_s = 0.1;
  s.points = std::move(points);
  return s;
}

TEST(Series, ACounterRateIsInterpolatedAtTheIntervalBoundaries) {
  // 10 events per second, read every 0.1 s from t = 99.95 (readings straddle the boundaries).
  std::vector<std::pair<double, double>> p;
  for (int k = 0; k <= 30; ++k) p.emplace_back(99.95 + 0.1 * k, 10 * 0.1 * k);
  const Series s = series(k_counter, p);
  EXPECT_NEAR(counter_rate(s, 100, 101), 10, 1e-9);
  EXPECT_NEAR(counter_rate(s, 101, 102), 10, 1e-9);
  EXPECT_TRUE(std::isnan(counter_rate(s, 104, 105)));  // beyond the readings: no value, not zero
}

TEST(Series, ACounterThatDecreasesAddsNothing) {
  const Series s = series(k_counter, {{0, 100}, {0.5, 150}, {1.0, 10}, {1.5, 60}, {2.0, 110}});
  EXPECT_NEAR(counter_rate(s, 0, 2), (50 + 0 + 50 + 50) / 2.0, 1e-9);
}

TEST(Series, AGaugeIsTheMeanOfItsReadingsInTheInterval) {
  const Series s = series(k_gauge, {{0.0, 1}, {0.5, 3}, {1.0, 10}, {1.5, 20}});
  EXPECT_DOUBLE_EQ(gauge_mean(s, 0, 1), 2);
  EXPECT_DOUBLE_EQ(gauge_mean(s, 1, 2), 15);
  EXPECT_TRUE(std::isnan(gauge_mean(s, 5, 6)));
}

TEST(Series, BucketQuantilesFollowHistogramQuantile) {
  // 100 observations: 50 ≤ 0.1, 40 in (0.1, 0.5], 10 in (0.5, 1].
  const std::vector<std::pair<double, double>> b{
      {0.1, 50}, {0.5, 90}, {1.0, 100}, {std::numeric_limits<double>::infinity(), 100}};
  EXPECT_NEAR(bucket_quantile(b, 0.5), 0.1, 1e-12);
  EXPECT_NEAR(bucket_quantile(b, 0.7), 0.1 + 0.4 * 20 / 40, 1e-12);
  EXPECT_NEAR(bucket_quantile(b, 0.99), 0.5 + 0.5 * 9 / 10, 1e-12);
  const std::vector<std::pair<double, double>> none{{0.1, 0}, {std::numeric_limits<double>::infinity(), 0}};
  EXPECT_TRUE(std::isnan(bucket_quantile(none, 0.5)));
}

TEST(Series, AlignGivesOneValuePerSignalPerWindow) {
  SignalMeta bucket{Kind::bucket, "s", results::SignalRole::other, "", "lat", 0.1};
  SignalMeta bucket_inf = bucket;
  bucket_inf.le = std::numeric_limits<double>::infinity();
  SignalMeta thread{Kind::per_thread, "cores", results::SignalRole::utilization, "busiest", "cpu_busiest", 0};
  std::vector<Series> all{
      series(k_counter, {{0, 0}, {1, 5}, {2, 15}}, "events"),
      series(k_gauge, {{0.2, 4}, {0.7, 6}, {1.5, 1}}, "queue"),
      series(bucket, {{0, 0}, {1, 10}, {2, 10}}, "lat|0.1"),
      series(bucket_inf, {{0, 0}, {1, 10}, {2, 30}}, "lat|inf"),
      series(thread, {{0, 0}, {1, 0.2}, {2, 0.4}}, "thread 1"),
      series(thread, {{0, 0}, {1, 0.9}, {2, 1.0}}, "thread 2"),
  };
  for (auto& s : all) s.period_s = 1;
  const Aligned a = align(all, {{0, 1}, {1, 2}});
  ASSERT_EQ(a.signals.size(), 5U);
  EXPECT_EQ(a.signals[0].name, "events");
  EXPECT_EQ(a.signals[1].name, "queue");
  EXPECT_EQ(a.signals[2].name, "lat p50");
  EXPECT_EQ(a.signals[3].name, "lat p99");
  EXPECT_EQ(a.signals[4].name, "cpu_busiest");
  EXPECT_EQ(a.signals[4].role, results::SignalRole::utilization);
  ASSERT_EQ(a.values.size(), 2U);
  EXPECT_DOUBLE_EQ(a.values[0][0], 5);
  EXPECT_DOUBLE_EQ(a.values[1][0], 10);
  EXPECT_DOUBLE_EQ(a.values[0][1], 5);
  EXPECT_DOUBLE_EQ(a.values[1][1], 1);
  EXPECT_NEAR(a.values[0][2], 0.05, 1e-12);  // all 10 ≤ 0.1: the median interpolates to 0.05
  EXPECT_NEAR(a.values[1][2], 0.1, 1e-12);   // all 20 above 0.1 (+Inf bucket): the largest finite bound
  EXPECT_NEAR(a.values[0][4], 0.9, 1e-12);
  EXPECT_NEAR(a.values[1][4], 0.2, 1e-12);
}

TEST(Prometheus, ParsesTextAndOpenMetrics) {
  const char* text =
      "# HELP http_requests_total Requests.\n"
      "# TYPE http_requests_total counter\n"
      "http_requests_total{method=\"get\",code=\"200\"} 1027 1395066363000\n"
      "http_requests_total{method=\"post\",code=\"a\\\"b\"} 3\n"
      "# TYPE pool_wait gauge\n"
      "pool_wait 4.5\n"
      "# TYPE lat_seconds histogram\n"
      "lat_seconds_bucket{le=\"0.1\"} 5\n"
      "lat_seconds_bucket{le=\"+Inf\"} 8\n"
      "lat_seconds_sum 1.2\n"
      "lat_seconds_count 8\n"
      "lat_seconds_created 1.6e9\n"
      "# EOF\n";
  const auto m = parse_metrics(text);
  ASSERT_TRUE(m) << m.error().message;
  ASSERT_EQ(m->size(), 7U);
  EXPECT_EQ((*m)[0].family, "http_requests_total");
  EXPECT_EQ((*m)[0].labels, "{method=\"get\",code=\"200\"}");
  EXPECT_EQ((*m)[0].type, MetricType::counter);
  EXPECT_DOUBLE_EQ((*m)[0].value, 1027);
  EXPECT_EQ((*m)[2].type, MetricType::gauge);
  EXPECT_TRUE((*m)[3].has_le);
  EXPECT_EQ((*m)[3].family, "lat_seconds");
  EXPECT_TRUE(std::isinf((*m)[4].le));
  EXPECT_EQ((*m)[6].name, "lat_seconds_count");

  const auto bad = parse_metrics("ok 1\n{oops} 2\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("line 2"), std::string::npos);
}

TEST(Prometheus, ReadingsKeepTheNamedFamiliesCountersAsRatesBucketsAsQuantiles) {
  auto src = PrometheusSource::create("prometheus:http://127.0.0.1:9/metrics", "http://127.0.0.1:9/metrics",
                                      {"lat_seconds", "pool_wait"});
  ASSERT_TRUE(src) << src.error().message;
  const auto m = parse_metrics(
      "# TYPE other counter\nother_total 5\n# TYPE pool_wait gauge\npool_wait 2\n# TYPE lat_seconds "
      "histogram\n"
      "lat_seconds_bucket{le=\"0.1\"} 5\nlat_seconds_bucket{le=\"+Inf\"} 8\nlat_seconds_sum "
      "1\nlat_seconds_count 8\n");
  ASSERT_TRUE(m);
  std::vector<Reading> out;
  (*src)->readings(*m, out);
  ASSERT_EQ(out.size(), 4U);
  EXPECT_EQ(out[0].name, "pool_wait");
  EXPECT_EQ(out[0].meta->kind, Kind::gauge);
  EXPECT_EQ(out[1].meta->kind, Kind::bucket);
  EXPECT_EQ(out[1].meta->group, "lat_seconds");
  EXPECT_EQ(out[3].name, "lat_seconds_count");
  EXPECT_EQ(out[3].meta->kind, Kind::counter);
}

/// A source whose readings the test sets.
class ScriptedSource : public Source {
 public:
  ScriptedSource() : Source("scripted") {}
  Result<void> sample(std::vector<Reading>& out) override {
    if (fail) return runtime_error("scripted: refused");
    out.push_back({"events", value, &k_counter});
    return {};
  }
  double value = 0;
  bool fail = false;
};

TEST(Sampler, RecordsReadingsAndCountsFailuresAsWarnings) {
  auto owned = std::make_unique<ScriptedSource>();
  ScriptedSource* src = owned.get();
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::move(owned));
  Sampler sampler(std::move(sources));
  sampler.open_all();
  for (int k = 0; k < 5; ++k) {
    src->value = 3.0 * k;
    src->fail = k == 2;
    sampler.sample_once(1000 + 0.1 * k);
  }
  ASSERT_EQ(sampler.series().size(), 1U);
  EXPECT_EQ(sampler.series()[0].points.size(), 4U);
  const auto w = sampler.warnings();
  ASSERT_EQ(w.size(), 1U);
  EXPECT_NE(w[0].find("1 of 5 samples failed"), std::string::npos) << w[0];
}

const SignalMeta k_cpu_allowed{Kind::counter,      "share", results::SignalRole::utilization,
                               "CPU of its cores", "",      0};
const SignalMeta k_threads{Kind::gauge, "count", results::SignalRole::other, "threads", "", 0};

/// A process-like source: CPU seconds rising by `per_s` per second of sampling, and a thread count.
class CpuSource : public Source {
 public:
  explicit CpuSource(std::string spec) : Source(std::move(spec)) {}
  Result<void> sample(std::vector<Reading>& out) override {
    out.push_back({"cpu_of_allowed", cpu, &k_cpu_allowed});
    out.push_back({"threads", 4, &k_threads});
    return {};
  }
  double cpu = 0;
};

TEST(Sampler, LatestGivesTheMainSignalsRateOverTheLastSecondOnceItHasOne) {
  auto owned = std::make_unique<CpuSource>("pid:42");
  CpuSource* src = owned.get();
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::move(owned));
  Sampler sampler(std::move(sources));
  sampler.open_all();
  for (int k = 0; k <= 5; ++k) {
    src->cpu = 0.09 * k;  // 0.9 of its cores while k ≤ 5 (readings every 0.1 s)
    sampler.sample_once(1000 + 0.1 * k);
  }
  EXPECT_TRUE(sampler.latest().empty()) << "half a second of readings: no rate over the last second yet";
  for (int k = 6; k <= 15; ++k) {
    src->cpu = 0.45 + 0.05 * (k - 5);  // then 0.5
    sampler.sample_once(1000 + 0.1 * k);
  }
  const auto latest = sampler.latest();
  ASSERT_EQ(latest.size(), 1U) << "threads is not a main signal";
  EXPECT_EQ(latest[0].source, "pid:42");
  EXPECT_EQ(latest[0].name, "cpu_of_allowed");
  EXPECT_EQ(latest[0].label, "CPU of its cores");
  EXPECT_NEAR(latest[0].value, 0.5, 1e-9);
  // Over 1.5 s: from the first reading (0 at 1000.0) to the last (0.95 at 1001.5).
  EXPECT_NEAR(sampler.latest(std::chrono::milliseconds(1500))[0].value, 0.95 / 1.5, 1e-9);
}

TEST(Observed, AttachedSignalsRoundTripThroughTheResultsFile) {
  results::RunResults r;
  r.info.start_unix_s = 1000;
  r.measured_s = 2;
  for (int k = 0; k < 2; ++k) {
    results::IntervalResult i;
    i.start_s = k;
    r.intervals.push_back(i);
  }
  std::vector<Series> all{
      series(k_counter, {{999.9, 0}, {1000.5, 5}, {1001.0, 10}, {1001.5, 12}, {1002.1, 14}}),
      series(k_gauge, {{1000.2, 2}, {1000.8, 4}}, "queue")};
  attach_series(r, {"test"}, all, results::SamplerStats{0.1, 20, 0.004, 2}, {"--observe test: a warning"});
  ASSERT_EQ(r.observed.signals.size(), 2U);
  ASSERT_EQ(r.intervals[0].observed.size(), 2U);
  EXPECT_NEAR(r.intervals[0].observed[0], 10 - 5.0 / 6, 1e-9);  // 0 → 5 over 0.6 s: 5/6 by t = 1000
  EXPECT_DOUBLE_EQ(r.intervals[0].observed[1], 3);
  EXPECT_TRUE(std::isnan(r.intervals[1].observed[1]));  // the gauge's readings ended
  EXPECT_EQ(r.warnings.back(), "--observe test: a warning");

  const nlohmann::json j = results::to_json(r);
  ASSERT_TRUE(j["summary"].contains("observed"));
  EXPECT_TRUE(j["intervals"][1]["observed"]["test"]["queue"].is_null());
  EXPECT_DOUBLE_EQ(j["summary"]["observed"]["sampler"]["cpu_share"].get<double>(), 0.002);
  results::RunResults back;
  back.intervals.resize(2);
  ASSERT_TRUE(results::read_observed(j, back));
  EXPECT_EQ(back.observed.signals.size(), 2U);
  EXPECT_EQ(back.observed.signals[1].role, results::SignalRole::saturation);
  EXPECT_DOUBLE_EQ(back.intervals[0].observed[1], 3);
  EXPECT_TRUE(std::isnan(back.intervals[1].observed[1]));
}

TEST(Observed, AFileWithABadObservedValueIsRefusedNamingIt) {
  results::RunResults r;
  r.intervals.resize(1);
  nlohmann::json j = {
      {"summary",
       {{"observed", {{"sources", {"host"}}, {"signals", {{{"source", "host"}, {"name", "load1"}}}}}}}},
      {"intervals", {{{"observed", {{"host", {{"load1", "high"}}}}}}}}};
  const auto read = results::read_observed(j, r);
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().message.find("host.load1"), std::string::npos) << read.error().message;
}

}  // namespace
}  // namespace openloop::observe
