// The live metrics' text: counters and classic buckets match the state exactly, labels escaped, both formats.
#include "report/metrics/metrics_exposition.h"

#include <gtest/gtest.h>

namespace openloop::report {
namespace {

MetricsState sample_state() {
  MetricsState s;
  s.totals.intended = 100;
  s.totals.sent = 98;
  s.totals.completed = s.totals.ok = 90;
  s.totals.timeouts = 5;
  s.totals.dropped = 2;
  s.totals.error(results::ErrorKind::reset) = 3;
  s.totals.status_class[2] = 90;
  for (int i = 0; i < 90; ++i) s.response_time.record(i < 60 ? 800'000 : 30'000'000);  // 0.8 ms, 30 ms
  s.in_flight = 7;
  s.connections_open = 4;
  s.updates = 3;
  return s;
}

bool has(const std::string& text, const std::string& line) {
  return text.find(line + "\n") != std::string::npos;
}

TEST(RenderMetrics, CountersAndClassicBucketsAreExact) {
  const std::string t = render_metrics(sample_state(), {"r1", "", {"GET /"}, 500, {}, {}}, false);
  const std::string l = "run_id=\"r1\",scenario=\"\",request=\"\"";
  EXPECT_TRUE(has(t, "# TYPE openloop_requests_intended_total counter")) << t;
  EXPECT_TRUE(has(t, "openloop_requests_intended_total{" + l + "} 100")) << t;
  EXPECT_TRUE(has(t, "openloop_requests_ok_total{" + l + "} 90"));
  EXPECT_TRUE(has(t, "openloop_errors_total{" + l + ",kind=\"reset\"} 3"));
  EXPECT_TRUE(has(t, "openloop_responses_total{" + l + ",class=\"2xx\"} 90"));
  EXPECT_TRUE(has(t, "openloop_in_flight{" + l + "} 7"));
  EXPECT_TRUE(has(t, "openloop_connections_open{" + l + "} 4"));
  EXPECT_TRUE(has(t, "openloop_target_rate{" + l + "} 500"));
  EXPECT_TRUE(has(t, "openloop_verdict{" + l + ",state=\"waiting\"} 1"));
  EXPECT_TRUE(has(t, "openloop_verdict{" + l + ",state=\"valid\"} 0"));
  EXPECT_TRUE(has(t, "openloop_verdict{" + l + ",state=\"invalid\"} 0"));
  EXPECT_TRUE(has(t, "openloop_response_time_seconds_bucket{" + l + ",le=\"0.0005\"} 0"));
  EXPECT_TRUE(has(t, "openloop_response_time_seconds_bucket{" + l + ",le=\"0.001\"} 60"));
  EXPECT_TRUE(has(t, "openloop_response_time_seconds_bucket{" + l + ",le=\"0.02\"} 60"));
  EXPECT_TRUE(has(t, "openloop_response_time_seconds_bucket{" + l + ",le=\"0.05\"} 90"));
  EXPECT_TRUE(has(t, "openloop_response_time_seconds_bucket{" + l + ",le=\"+Inf\"} 90"));
  EXPECT_TRUE(has(t, "openloop_response_time_seconds_count{" + l + "} 90"));
  EXPECT_EQ(t.find("# EOF"), std::string::npos);
}

// openloop_target_rate is the rate the plan asks for at the latest finalized interval (the offered function's
// mean over it); the peak is a gauge of its own.
TEST(RenderMetrics, SlotWaitsHaveACounterAndAHistogram) {
  MetricsState s = sample_state();
  s.totals.slot_waits = 12;
  for (int i = 0; i < 12; ++i) s.slot_wait.record(i < 2 ? 800'000 : 30'000'000);  // 0.8 ms, 30 ms
  MetricsState from_results = MetricsState::of([&] {
    results::RunResults r;
    r.totals = s.totals;
    r.slot_wait = s.slot_wait;
    return r;
  }());
  const std::string t = render_metrics(from_results, {"r1", "", {"GET /"}, 500, {}, {}}, false);
  const std::string l = "run_id=\"r1\",scenario=\"\",request=\"\"";
  EXPECT_TRUE(has(t, "# TYPE openloop_slot_waits_total counter")) << t;
  EXPECT_TRUE(has(t, "openloop_slot_waits_total{" + l + "} 12")) << t;
  EXPECT_TRUE(has(t, "# TYPE openloop_slot_wait_seconds histogram")) << t;
  EXPECT_TRUE(has(t, "openloop_slot_wait_seconds_bucket{" + l + ",le=\"0.001\"} 2")) << t;
  EXPECT_TRUE(has(t, "openloop_slot_wait_seconds_count{" + l + "} 12")) << t;
}

// gRPC calls: every status's series once a call completed, and the response messages; none for HTTP requests.
TEST(RenderMetrics, GrpcStatusesByNameOnceACallCompleted) {
  MetricsState s = sample_state();
  const std::string l = "run_id=\"r1\",scenario=\"\",request=\"\"";
  EXPECT_EQ(render_metrics(s, {"r1", "", {"GET /"}, 500, {}, {}}, false).find("openloop_grpc_"),
            std::string::npos);
  s.totals.grpc_status[0] = 80;
  s.totals.grpc_status[5] = 10;
  s.totals.grpc_messages_in = 80;
  s.totals.grpc_message_bytes_in = 1440;
  const std::string t = render_metrics(s, {"r1", "", {"GET /"}, 500, {}, {}}, false);
  EXPECT_TRUE(has(t, "# TYPE openloop_grpc_responses_total counter")) << t;
  EXPECT_TRUE(has(t, "openloop_grpc_responses_total{" + l + ",status=\"OK\"} 80")) << t;
  EXPECT_TRUE(has(t, "openloop_grpc_responses_total{" + l + ",status=\"NOT_FOUND\"} 10")) << t;
  EXPECT_TRUE(has(t, "openloop_grpc_responses_total{" + l + ",status=\"UNAUTHENTICATED\"} 0")) << t;
  EXPECT_TRUE(has(t, "openloop_grpc_response_messages_total{" + l + "} 80")) << t;
  EXPECT_TRUE(has(t, "openloop_grpc_response_message_bytes_total{" + l + "} 1440")) << t;
}

TEST(RenderMetrics, TargetRateIsTheOfferedRateOverTheLatestInterval) {
  MetricsContext c{"r1", "", {}, 300, {}, {}};
  std::vector<std::pair<double, double>> asked;
  c.offered = [&asked](double from_s, double to_s) {
    asked.emplace_back(from_s, to_s);
    return from_s < 2 ? 100.0 : 300.0;  // a step at 2 s
  };
  MetricsState s = sample_state();
  const std::string l = "run_id=\"r1\",scenario=\"\",request=\"\"";
  EXPECT_DOUBLE_EQ(target_rate_now(s, c), 100.0);  // nothing final yet: the rate as measurement starts
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], std::make_pair(0.0, 0.0));
  results::RunResults so_far;
  so_far.intervals.resize(2);
  so_far.intervals.resident(1).start_s = 1;
  so_far.intervals.resident(1).length_s = 1;
  s = MetricsState::of(so_far);
  EXPECT_TRUE(has(render_metrics(s, c, false), "openloop_target_rate{" + l + "} 100"));
  EXPECT_EQ(asked.back(), std::make_pair(1.0, 2.0));
  so_far.intervals.resize(3);
  so_far.intervals.resident(2).start_s = 2;
  so_far.intervals.resident(2).length_s = 1;
  s = MetricsState::of(so_far);
  const std::string t = render_metrics(s, c, false);
  EXPECT_EQ(asked.back(), std::make_pair(2.0, 3.0));
  EXPECT_TRUE(has(t, "openloop_target_rate{" + l + "} 300")) << t;
  EXPECT_TRUE(has(t, "openloop_target_rate_peak{" + l + "} 300")) << t;
  c.offered = {};  // a ramp's step, a probe's phase: the context's rate throughout
  c.target_rps = 250;
  EXPECT_DOUBLE_EQ(target_rate_now(s, c), 250.0);
}

TEST(RenderMetrics, VerdictSoFarIsOneStateAtOne) {
  MetricsState s = sample_state();
  s.verdict = MetricsState::Verdict::invalid;
  const std::string t = render_metrics(s, {"r1", "", {}, 500, {}, {}}, false);
  const std::string l = "run_id=\"r1\",scenario=\"\",request=\"\"";
  EXPECT_TRUE(has(t, "# TYPE openloop_verdict gauge")) << t;
  EXPECT_TRUE(has(t, "openloop_verdict{" + l + ",state=\"waiting\"} 0")) << t;
  EXPECT_TRUE(has(t, "openloop_verdict{" + l + ",state=\"valid\"} 0"));
  EXPECT_TRUE(has(t, "openloop_verdict{" + l + ",state=\"invalid\"} 1"));
}

TEST(RenderMetrics, MergedPartsShareOneFamilyWithASeriesEach) {
  const MetricsState a = sample_state(), b = sample_state();
  const std::string t =
      render_families_text(merge_families({run_metric_families(a, {"r1", "browse", {}, 100, {}, {}}),
                                           run_metric_families(b, {"r1", "buyers", {}, 50, {}, {}})}),
                           false);
  std::size_t types = 0;
  for (std::size_t at = t.find("# TYPE openloop_target_rate gauge\n"); at != std::string::npos;
       at = t.find("# TYPE openloop_target_rate gauge\n", at + 1)) {
    ++types;
  }
  EXPECT_EQ(types, 1u) << t;
  EXPECT_TRUE(has(t, "openloop_target_rate{run_id=\"r1\",scenario=\"browse\",request=\"\"} 100")) << t;
  EXPECT_TRUE(has(t, "openloop_target_rate{run_id=\"r1\",scenario=\"buyers\",request=\"\"} 50")) << t;
}

TEST(RenderMetrics, OpenMetricsNamesCounterFamiliesWithoutTotalAndEnds) {
  const std::string t = render_metrics(sample_state(), {"r\"1\\", "checkout", {}, 0, {}, {}}, true);
  EXPECT_TRUE(has(t, "# TYPE openloop_requests_intended counter")) << t;
  EXPECT_NE(t.find("openloop_requests_intended_total{run_id=\"r\\\"1\\\\\",scenario=\"checkout\""),
            std::string::npos)
      << t;
  EXPECT_EQ(t.substr(t.size() - 6), "# EOF\n");
}

}  // namespace
}  // namespace openloop::report
