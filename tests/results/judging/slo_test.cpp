// SLOs: every accepted form and error, evaluation on histograms and counters, and the --abort-on-slo
// judgement.
#include "results/judging/slo.h"

#include <atomic>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "results/files/results_json.h"
#include "results/files/results_reader.h"
#include "results/run_results.h"
#include "results/judging/slo_abort.h"

using namespace openloop::results;

namespace {

constexpr std::int64_t k_ms = 1'000'000;

Slo slo(std::string_view text) {
  auto s = parse_slo(text);
  EXPECT_TRUE(s.has_value()) << text << ": " << (s ? "" : s.error().message);
  return s ? *s : Slo{};
}

std::string parse_error(std::string_view text) {
  auto s = parse_slo(text);
  EXPECT_FALSE(s.has_value()) << text << " should be refused";
  if (s) return {};
  EXPECT_EQ(s.error().code, openloop::ExitCode::usage);
  return s.error().message;
}

// `fast` samples at 1 ms and `slow` at 500 ms, all completed ok.
RunResults latencies(std::int64_t fast, std::int64_t slow) {
  RunResults r;
  r.measured_s = 10;
  r.response_time.record(1 * k_ms, fast);
  r.response_time.record(500 * k_ms, slow);
  r.totals.intended = r.totals.sent = r.totals.completed = r.totals.ok =
      static_cast<std::uint64_t>(fast + slow);
  return r;
}

// 1000 intended: 990 completed (980 ok, 10 with a 5xx), 5 connect errors, 3 timeouts, 2 dropped.
RunResults outcomes() {
  RunResults r;
  r.measured_s = 10;
  Counters& c = r.totals;
  c.intended = 1000;
  c.sent = 998;
  c.completed = 990;
  c.ok = 980;
  c.status_class[5] = 10;
  c.error(ErrorKind::connect) = 5;
  c.timeouts = 3;
  c.dropped = 2;
  EXPECT_TRUE(c.conserved());
  r.response_time.record(1 * k_ms, 993);
  return r;
}

SloResult evaluate(std::string_view text, const RunResults& r) {
  auto results = evaluate_slos({slo(text)}, r);
  EXPECT_EQ(results.size(), 1u);
  return results.front();
}

// Two requests: "a" fast (500 at 1 ms), "b" slow (100 at 50 ms); the totals hold both.
RunResults two_requests() {
  RunResults r;
  r.measured_s = 10;
  r.info.request_names = {"a", "b"};
  r.by_request.resize(2);
  r.by_request[0].counters.intended = r.by_request[0].counters.sent = r.by_request[0].counters.completed =
      r.by_request[0].counters.ok = 500;
  r.by_request[0].response_time.record(1 * k_ms, 500);
  r.by_request[1].counters.intended = r.by_request[1].counters.sent = r.by_request[1].counters.completed =
      r.by_request[1].counters.ok = 100;
  r.by_request[1].response_time.record(50 * k_ms, 100);
  for (const auto& t : r.by_request) {
    r.totals.add(t.counters);
    r.response_time.add(t.response_time);
  }
  return r;
}

}  // namespace

// --- parsing ---

TEST(ParseSlo, AcceptsEveryDocumentedForm) {
  Slo s = slo("p99<=200ms");
  EXPECT_EQ(s.text, "p99<=200ms");
  EXPECT_EQ(s.request, "");
  EXPECT_EQ(s.metric, Slo::Metric::percentile);
  EXPECT_DOUBLE_EQ(s.percentile, 99);
  EXPECT_EQ(s.op, Slo::Op::le);
  EXPECT_DOUBLE_EQ(s.threshold, 200e6);

  s = slo("p99.9<1s");
  EXPECT_DOUBLE_EQ(s.percentile, 99.9);
  EXPECT_EQ(s.op, Slo::Op::lt);
  EXPECT_DOUBLE_EQ(s.threshold, 1e9);

  s = slo("mean<50ms");
  EXPECT_EQ(s.metric, Slo::Metric::mean);
  EXPECT_DOUBLE_EQ(s.threshold, 50e6);
  s = slo("max<=2s");
  EXPECT_EQ(s.metric, Slo::Metric::max);
  EXPECT_DOUBLE_EQ(s.threshold, 2e9);

  s = slo("errors<=0.1%");
  EXPECT_EQ(s.metric, Slo::Metric::errors);
  EXPECT_DOUBLE_EQ(s.threshold, 0.001);
  s = slo("timeouts<1%");
  EXPECT_EQ(s.metric, Slo::Metric::timeouts);
  EXPECT_DOUBLE_EQ(s.threshold, 0.01);
  s = slo("dropped<1%");
  EXPECT_EQ(s.metric, Slo::Metric::dropped);
  s = slo("goodput>=99%");
  EXPECT_EQ(s.metric, Slo::Metric::goodput);
  EXPECT_EQ(s.op, Slo::Op::ge);
  EXPECT_DOUBLE_EQ(s.threshold, 0.99);

  s = slo("throughput>=500/s");
  EXPECT_EQ(s.metric, Slo::Metric::throughput);
  EXPECT_DOUBLE_EQ(s.threshold, 500);
  EXPECT_DOUBLE_EQ(slo("throughput>30000/m").threshold, 500);
  EXPECT_EQ(slo("throughput>30000/m").op, Slo::Op::gt);
}

TEST(ParseSlo, TakesARequestNameBeforeTheLastColon) {
  Slo s = slo("checkout:p99<=300ms");
  EXPECT_EQ(s.request, "checkout");
  EXPECT_EQ(s.metric, Slo::Metric::percentile);
  EXPECT_DOUBLE_EQ(s.threshold, 300e6);
  EXPECT_EQ(slo("GET /a:b:p50<=1ms").request, "GET /a:b");
}

TEST(ParseSlo, IgnoresSpacesAndAcceptsBareZeroShares) {
  Slo s = slo(" p99 <= 200ms ");
  EXPECT_EQ(s.text, "p99 <= 200ms");
  EXPECT_DOUBLE_EQ(s.threshold, 200e6);
  EXPECT_DOUBLE_EQ(slo("errors<=0").threshold, 0);
  EXPECT_DOUBLE_EQ(slo("p100<=1s").percentile, 100);
  EXPECT_DOUBLE_EQ(slo("p50<500us").threshold, 500e3);
}

TEST(ParseSlo, ErrorsQuoteTheTextAndListTheAcceptedForms) {
  const std::string accepted = "accepted: p99<=200ms, p99.9<1s";
  std::string e = parse_error("p99=200ms");
  EXPECT_NE(e.find("--slo \"p99=200ms\": no comparison"), std::string::npos) << e;
  EXPECT_NE(e.find(accepted), std::string::npos) << e;

  e = parse_error("latency<=1s");
  EXPECT_NE(e.find("--slo \"latency<=1s\": \"latency\" is not a metric"), std::string::npos) << e;
  EXPECT_NE(e.find(accepted), std::string::npos) << e;

  for (const char* bad : {"p0<=1s", "p101<=1s", "p99x<=1s", "pfast<=1s"}) {
    e = parse_error(bad);
    EXPECT_NE(e.find("is not a percentile"), std::string::npos) << e;
    EXPECT_NE(e.find(accepted), std::string::npos) << e;
  }

  e = parse_error("<=1s");
  EXPECT_NE(e.find("the metric is missing"), std::string::npos) << e;
  e = parse_error(":p99<=1s");
  EXPECT_NE(e.find("the request name before ':' is empty"), std::string::npos) << e;
  e = parse_error("p99<=");
  EXPECT_NE(e.find("the threshold is missing"), std::string::npos) << e;
}

TEST(ParseSlo, ThresholdErrorsSayWhatTheMetricTakes) {
  // A bare number is not a duration (ms? s?): the duration parser's message, naming the flag and the SLO.
  std::string e = parse_error("p99<=200");
  EXPECT_NE(e.find("--slo \"p99<=200\""), std::string::npos) << e;
  e = parse_error("errors<=0.1");
  EXPECT_NE(e.find("\"0.1\" is not a percentage"), std::string::npos) << e;
  EXPECT_NE(e.find("0% to 100%"), std::string::npos) << e;
  parse_error("goodput>=101%");
  parse_error("goodput>=-1%");
  parse_error("dropped<abc%");
  e = parse_error("throughput>=fast");
  EXPECT_NE(e.find("--slo \"throughput>=fast\""), std::string::npos) << e;
}

TEST(ParseSlo, WhatNamesTheFlag) {
  auto s = parse_slo("p99", "--ramp-slo");
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message.rfind("--ramp-slo \"p99\"", 0), 0u) << s.error().message;
}

// --- evaluation ---

TEST(EvaluateSlos, PercentilesComeFromTheHistogram) {
  const RunResults r = latencies(990, 10);
  SloResult p99 = evaluate("p99<=2ms", r);
  EXPECT_TRUE(p99.evaluated);
  EXPECT_TRUE(p99.met);
  EXPECT_DOUBLE_EQ(p99.measured, static_cast<double>(r.response_time.value_at_percentile(99)));
  SloResult p999 = evaluate("p99.9<=2ms", r);
  EXPECT_FALSE(p999.met);
  EXPECT_DOUBLE_EQ(p999.measured, static_cast<double>(r.response_time.value_at_percentile(99.9)));
  EXPECT_EQ(p999.threshold_text, "2ms");
  EXPECT_EQ(p999.measured_text, "500ms");

  EXPECT_TRUE(evaluate("mean<10ms", r).met);  // (990 × 1 + 10 × 500) / 1000 ≈ 6 ms
  EXPECT_FALSE(evaluate("mean<5ms", r).met);
  EXPECT_FALSE(evaluate("max<=100ms", r).met);
  EXPECT_TRUE(evaluate("max<=1s", r).met);
  EXPECT_TRUE(evaluate("p50>=1ms", r).met);
  EXPECT_FALSE(evaluate("p50>1s", r).met);
}

TEST(EvaluateSlos, MeasuredTextShowsEnoughDigitsToDifferFromTheThreshold) {
  RunResults r;
  r.response_time.record(200'100'000, 100);  // 200.1 ms: "200ms" to 3 digits, like the threshold
  r.totals.intended = r.totals.sent = r.totals.completed = r.totals.ok = 100;
  const SloResult s = evaluate("p99<=200ms", r);
  EXPECT_FALSE(s.met);
  EXPECT_NE(s.measured_text, s.threshold_text);
  EXPECT_EQ(s.measured_text.rfind("200.1", 0), 0u) << s.measured_text;
}

TEST(EvaluateSlos, SharesAreOfIntendedRequests) {
  const RunResults r = outcomes();
  const SloResult errors = evaluate("errors<=1%", r);  // 5 connect errors + 10 error statuses of 1000
  EXPECT_TRUE(errors.evaluated);
  EXPECT_FALSE(errors.met);
  EXPECT_DOUBLE_EQ(errors.measured, 0.015);
  EXPECT_EQ(errors.measured_text, "1.5%");
  EXPECT_EQ(errors.threshold_text, "1%");
  EXPECT_DOUBLE_EQ(evaluate("timeouts<1%", r).measured, 0.003);
  EXPECT_TRUE(evaluate("timeouts<1%", r).met);
  EXPECT_DOUBLE_EQ(evaluate("dropped<1%", r).measured, 0.002);
  EXPECT_DOUBLE_EQ(evaluate("goodput>=99%", r).measured, 0.98);
  EXPECT_FALSE(evaluate("goodput>=99%", r).met);
  EXPECT_TRUE(evaluate("goodput>=98%", r).met);
  EXPECT_DOUBLE_EQ(evaluate("throughput>=100/s", r).measured, 99);  // completed, any status, per second
  EXPECT_FALSE(evaluate("throughput>=100/s", r).met);
}

TEST(EvaluateSlos, ABoundEqualToTheMeasuredShareIsMetByLessOrEqualOnly) {
  RunResults r;
  r.totals.intended = r.totals.sent = r.totals.completed = 1000;
  r.totals.ok = 999;  // one error status: 0.1 %
  EXPECT_TRUE(evaluate("errors<=0.1%", r).met);
  EXPECT_FALSE(evaluate("errors<0.1%", r).met);
  EXPECT_TRUE(evaluate("goodput>=99.9%", r).met);
  EXPECT_FALSE(evaluate("goodput>99.9%", r).met);
}

TEST(EvaluateSlos, PerRequestSlosUseTheBreakdown) {
  const RunResults r = two_requests();
  EXPECT_TRUE(evaluate("a:p99<=10ms", r).met);
  const SloResult b = evaluate("b:p99<=10ms", r);
  EXPECT_TRUE(b.evaluated);
  EXPECT_FALSE(b.met);
  EXPECT_DOUBLE_EQ(b.measured, static_cast<double>(r.by_request[1].response_time.value_at_percentile(99)));
  // The whole run: 100 of 600 at 50 ms, so p99 is slow, p50 fast.
  EXPECT_FALSE(evaluate("p99<=10ms", r).met);
  EXPECT_TRUE(evaluate("p50<=10ms", r).met);
  EXPECT_DOUBLE_EQ(evaluate("b:throughput>=10/s", r).measured, 10);
}

TEST(EvaluateSlos, UnknownRequestsAndEmptyRunsAreNotEvaluatedAndNotMet) {
  const RunResults r = two_requests();
  const SloResult c = evaluate("c:p99<=10ms", r);
  EXPECT_FALSE(c.evaluated);
  EXPECT_EQ(c.measured_text, "no request named \"c\"");
  const RunResults empty;
  const SloResult none = evaluate("p99<=10ms", empty);
  EXPECT_FALSE(none.evaluated);
  EXPECT_EQ(none.measured_text, "no samples");
  EXPECT_FALSE(evaluate("errors<=1%", empty).evaluated);
  EXPECT_FALSE(all_met(evaluate_slos({slo("p99<=10ms")}, empty)));
  EXPECT_TRUE(all_met({}));
  EXPECT_FALSE(all_met(evaluate_slos({slo("a:p99<=10ms"), slo("b:p99<=10ms")}, r)));
  EXPECT_TRUE(all_met(evaluate_slos({slo("a:p99<=10ms"), slo("p50<=10ms")}, r)));
}

TEST(EvaluateSlos, ASingleRequestWithoutBreakdownIsTheWholeRun) {
  RunResults r = latencies(100, 0);
  r.info.request_names = {"GET /"};
  const SloResult s = evaluate("GET /:p99<=2ms", r);
  EXPECT_TRUE(s.evaluated);
  EXPECT_TRUE(s.met);
}

TEST(EvaluateSlos, TheFlowIsJudgedOnItsSessionsTime) {
  RunResults r = two_requests();
  r.session_time.record(300 * k_ms, 99);
  r.session_time.record(900 * k_ms, 1);
  const SloResult flow = evaluate("flow:p99<=500ms", r);
  EXPECT_TRUE(flow.evaluated);
  EXPECT_TRUE(flow.met);
  EXPECT_DOUBLE_EQ(flow.measured, static_cast<double>(r.session_time.value_at_percentile(99)));
  EXPECT_FALSE(evaluate("flow:max<=500ms", r).met);
  const SloResult errors = evaluate("flow:errors<=1%", r);
  EXPECT_FALSE(errors.evaluated) << "a flow's SLO judges its time only";
  EXPECT_EQ(errors.measured_text, "a flow's SLO judges its time only (pNN, mean, max)");
  // A request named "flow" keeps the name.
  r.info.request_names = {"flow", "b"};
  EXPECT_DOUBLE_EQ(evaluate("flow:p99<=500ms", r).measured,
                   static_cast<double>(r.by_request[0].response_time.value_at_percentile(99)));
}

// --- certain to fail ---

TEST(CertainToFail, APercentileFailsOnceMoreThanOneMinusPOfThePlannedSamplesAreOver) {
  const Slo p99 = slo("p99<=10ms");
  EXPECT_FALSE(certain_to_fail(p99, latencies(100, 10), 1000));  // 10 over: 990 fast could still come
  EXPECT_TRUE(certain_to_fail(p99, latencies(100, 11), 1000));
  EXPECT_FALSE(certain_to_fail(p99, latencies(100, 11), std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(certain_to_fail(p99, latencies(100, 11), 0));  // unknown
  EXPECT_TRUE(certain_to_fail(slo("p99<500ms"), latencies(100, 11), 1000));
  EXPECT_FALSE(certain_to_fail(slo("p99<=501ms"), latencies(100, 11), 1000));
  // Samples count as the histogram reports them (the highest value of their bucket, 3 digits), as the
  // evaluation does.
  EXPECT_TRUE(certain_to_fail(slo("p99<=500ms"), latencies(100, 11), 1000));
  EXPECT_FALSE(evaluate("p99<=500ms", latencies(0, 100)).met);
}

// A flow's time: a sample per session, and each session sends at least one of the planned requests, so they
// bound its samples (loosely).
TEST(CertainToFail, AFlowsTimeIsJudgedOnItsSessionsBoundedByThePlannedRequests) {
  RunResults r = two_requests();
  r.session_time.record(300 * k_ms, 90);
  r.session_time.record(900 * k_ms, 10);
  EXPECT_TRUE(certain_to_fail(slo("flow:max<=500ms"), r, 1000)) << "one session over is enough";
  EXPECT_TRUE(certain_to_fail(slo("flow:max<=500ms"), r, std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(certain_to_fail(slo("flow:max<=1s"), r, 1000));
  // 10 sessions over 500 ms: p99 fails for certain only when fewer than 1000 sessions can come in all.
  EXPECT_TRUE(certain_to_fail(slo("flow:p99<=500ms"), r, 900));
  EXPECT_FALSE(certain_to_fail(slo("flow:p99<=500ms"), r, 1000)) << "990 fast sessions could still come";
  EXPECT_FALSE(certain_to_fail(slo("flow:p99<=500ms"), r, std::numeric_limits<double>::infinity()));
  // The sum so far (27 + 9 s) over at most 100 sessions: a mean of at least 360 ms.
  EXPECT_TRUE(certain_to_fail(slo("flow:mean<=300ms"), r, 100));
  EXPECT_FALSE(certain_to_fail(slo("flow:mean<=300ms"), r, 1000));
  EXPECT_FALSE(certain_to_fail(slo("flow:p99<=500ms"), two_requests(), 1)) << "no session yet";
}

TEST(CertainToFail, AgreesWithTheFinalEvaluationAtTheEdge) {
  // The best possible rest of the run: every remaining planned request fast.
  for (const std::int64_t slow : {10, 11}) {
    const RunResults so_far = latencies(100, slow);
    const RunResults final_run = latencies(1000 - slow, slow);
    const bool certain = certain_to_fail(slo("p99<=10ms"), so_far, 1000);
    const bool met = evaluate("p99<=10ms", final_run).met;
    EXPECT_NE(certain, met) << slow << " slow samples";
  }
}

TEST(CertainToFail, LowerBoundsOnPercentilesFailOnceEnoughSamplesAreBelow) {
  // p50>=100ms fails once more than half the planned samples are already faster.
  EXPECT_FALSE(certain_to_fail(slo("p50>=100ms"), latencies(500, 0), 1000));
  EXPECT_TRUE(certain_to_fail(slo("p50>=100ms"), latencies(502, 0), 1000));
}

TEST(CertainToFail, SharesFailOnceTheBadOnesExceedTheThresholdOfThePlannedTotal) {
  RunResults r;
  r.totals.intended = r.totals.sent = r.totals.completed = 100;
  r.totals.ok = 90;  // 10 error statuses
  EXPECT_FALSE(certain_to_fail(slo("errors<=1%"), r, 1000));
  EXPECT_TRUE(certain_to_fail(slo("errors<1%"), r, 1000));
  EXPECT_TRUE(certain_to_fail(slo("errors<=0.5%"), r, 1000));
  r.totals.ok = 89;
  EXPECT_TRUE(certain_to_fail(slo("errors<=1%"), r, 1000));
  EXPECT_TRUE(certain_to_fail(slo("goodput>=99%"), r, 1000));  // 11 not ok: at best 989 of 1000
  EXPECT_FALSE(certain_to_fail(slo("goodput>=98%"), r, 1000));
  EXPECT_FALSE(certain_to_fail(slo("errors<=1%"), r, std::numeric_limits<double>::infinity()));
  r.totals.timeouts = 11;
  r.totals.completed = r.totals.ok = 89;
  EXPECT_TRUE(certain_to_fail(slo("timeouts<=1%"), r, 1000));
  EXPECT_FALSE(certain_to_fail(slo("dropped<=1%"), r, 1000));
}

TEST(CertainToFail, MaxFailsOnTheFirstSampleOverEvenWithoutAPlannedTotal) {
  const double unknown = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(certain_to_fail(slo("max<=100ms"), latencies(10, 1), unknown));
  EXPECT_FALSE(certain_to_fail(slo("max<=1s"), latencies(10, 1), unknown));
  EXPECT_FALSE(certain_to_fail(slo("max>=1s"), latencies(10, 1), 1000));  // a slower one may still come
}

TEST(CertainToFail, MeanFailsOnceTheSumSoFarExceedsThresholdTimesPlanned) {
  // 10 × 500 ms = 5 s of latency: over 1000 planned, the mean is at least 5 ms.
  EXPECT_TRUE(certain_to_fail(slo("mean<=4ms"), latencies(0, 10), 1000));
  EXPECT_FALSE(certain_to_fail(slo("mean<=6ms"), latencies(0, 10), 1000));
}

TEST(CertainToFail, ThroughputAndUnknownRequestsAreNeverCertain) {
  RunResults r = outcomes();
  EXPECT_FALSE(certain_to_fail(slo("throughput>=1000000/s"), r, 1000));
  EXPECT_FALSE(certain_to_fail(slo("nope:errors<=0%"), r, 1000));
}

TEST(CertainToFail, PerRequestBoundsItsTotalByWhatTheOthersTook) {
  RunResults r = two_requests();  // a: 500 intended, b: 100; b's total is at most 1000 − 500 = 500
  r.by_request[1].counters.ok = 94;
  EXPECT_TRUE(certain_to_fail(slo("b:errors<=1%"), r, 1000));  // 6 of at most 500
  r.by_request[1].counters.ok = 95;
  EXPECT_FALSE(certain_to_fail(slo("b:errors<=1%"), r, 1000));
  // Names can come apart from the results (the coordinator's results so far have no RunInfo yet).
  RunResults unnamed = two_requests();
  unnamed.info.request_names.clear();
  unnamed.by_request[1].counters.ok = 94;
  EXPECT_FALSE(certain_to_fail(slo("b:errors<=1%"), unnamed, 1000));
  EXPECT_TRUE(certain_to_fail(slo("b:errors<=1%"), unnamed, 1000, {"a", "b"}));
}

// --- several runs at once and the abort watcher ---

TEST(AddForSlos, MatchesRequestsByNameAcrossRuns) {
  RunResults all;
  const RunResults one = two_requests();
  RunResults other = latencies(50, 0);  // one request, no breakdown
  add_for_slos(all, one, {"a", "b"});
  add_for_slos(all, other, {"b"});
  ASSERT_EQ(all.info.request_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(all.by_request[1].counters.intended, 150u);
  EXPECT_EQ(all.by_request[1].response_time.total_count(), 150);
  EXPECT_EQ(all.totals.intended, 650u);
  EXPECT_EQ(all.response_time.total_count(), 650);
  EXPECT_DOUBLE_EQ(all.measured_s, 10);
}

TEST(SloAbort, StopsGracefullyOnceAndMarksTheResults) {
  SloAbort watch({slo("p50<=10ms"), slo("p99<=10ms")}, {SloAbortPart{{"GET /"}, 1000}});
  std::atomic<int> stop{0};
  const RunResults fine = latencies(100, 5);
  EXPECT_FALSE(watch.stop_if_certain({&fine}, stop));
  EXPECT_EQ(stop.load(), 0);
  const RunResults bad = latencies(100, 20);
  EXPECT_TRUE(watch.stop_if_certain({&bad}, stop));
  EXPECT_EQ(stop.load(), 1);
  ASSERT_NE(watch.failed(), nullptr);
  EXPECT_EQ(watch.failed()->text, "p99<=10ms");
  EXPECT_FALSE(watch.stop_if_certain({&bad}, stop));  // once
  RunResults ended;
  ended.interrupted = true;  // the coordinator marks every stop
  watch.mark(ended, 1);
  EXPECT_EQ(ended.aborted_by_slo, "p99<=10ms");
  EXPECT_FALSE(ended.interrupted);
  RunResults signalled;
  signalled.interrupted = true;
  watch.mark(signalled, 2);  // Ctrl-C during the graceful stop: still an interruption
  EXPECT_TRUE(signalled.interrupted);
}

TEST(SloAbort, LeavesAStopASignalAskedForAlone) {
  SloAbort watch({slo("p99<=10ms")}, {SloAbortPart{{"GET /"}, 1000}});
  std::atomic<int> stop{1};
  const RunResults bad = latencies(100, 20);
  EXPECT_FALSE(watch.stop_if_certain({&bad}, stop));
  RunResults ended;
  ended.interrupted = true;
  watch.mark(ended, 1);
  EXPECT_TRUE(ended.aborted_by_slo.empty());
  EXPECT_TRUE(ended.interrupted);
}

TEST(SloAbort, JudgesSeveralRunsTogether) {
  // Two scenarios of 500 planned each, judged as one run of 1000: p99 fails for certain past 10.5 slow
  // samples.
  const RunResults eight = latencies(50, 8), four = latencies(50, 4), none = latencies(50, 0);
  EXPECT_TRUE(certain_to_fail(slo("p99<=10ms"), eight, 500));  // alone it would be certain
  SloAbort together({slo("p99<=10ms")}, {SloAbortPart{{"x"}, 500}, SloAbortPart{{"x"}, 500}});
  std::atomic<int> stop{0};
  EXPECT_FALSE(together.stop_if_certain({&eight, &none}, stop));
  EXPECT_TRUE(together.stop_if_certain({&eight, &four}, stop));
  SloAbort unknown({slo("p99<=10ms")}, {SloAbortPart{{"x"}, 500}, SloAbortPart{{"x"}, 0}});
  std::atomic<int> stop2{0};
  EXPECT_FALSE(unknown.stop_if_certain({&eight, &four}, stop2));  // a closed scenario has no planned total
}

// --- the results file ---

TEST(SloJson, WrittenAndReadBack) {
  RunResults r = outcomes();
  r.info.request_names = {"GET /"};
  r.slos =
      evaluate_slos({slo("p99<=2ms"), slo("errors<=1%"), slo("GET /:throughput>=50/s"), slo("x:p50<1s")}, r);
  r.aborted_by_slo = "errors<=1%";
  const nlohmann::json j = to_json(r);
  ASSERT_EQ(j["slos"].size(), 4u);
  EXPECT_EQ(j["slos"][0]["slo"], "p99<=2ms");
  EXPECT_EQ(j["slos"][0]["metric"], "p99");
  EXPECT_EQ(j["slos"][0]["op"], "<=");
  EXPECT_EQ(j["slos"][0]["unit"], "ms");
  EXPECT_DOUBLE_EQ(j["slos"][0]["threshold"].get<double>(), 2.0);
  EXPECT_EQ(j["slos"][0]["met"], true);
  EXPECT_EQ(j["slos"][1]["unit"], "fraction");
  EXPECT_DOUBLE_EQ(j["slos"][1]["measured"].get<double>(), 0.015);
  EXPECT_EQ(j["slos"][1]["met"], false);
  EXPECT_EQ(j["slos"][2]["request"], "GET /");
  EXPECT_EQ(j["slos"][2]["unit"], "/s");
  EXPECT_EQ(j["slos"][3]["evaluated"], false);
  EXPECT_FALSE(j["slos"][3].contains("measured"));
  EXPECT_EQ(j["verdict"]["aborted_by_slo"], "errors<=1%");

  // Reading needs a consistent file: no intervals, so no counts either.
  RunResults plain;
  plain.slos = r.slos;
  plain.aborted_by_slo = r.aborted_by_slo;
  auto back = parse_results(to_json(plain).dump(), "r.json");
  ASSERT_TRUE(back.has_value()) << back.error().message;
  ASSERT_EQ(back->slos.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(back->slos[i].slo.text, r.slos[i].slo.text);
    EXPECT_EQ(back->slos[i].evaluated, r.slos[i].evaluated);
    EXPECT_EQ(back->slos[i].met, r.slos[i].met);
    EXPECT_NEAR(back->slos[i].measured, r.slos[i].measured, 1e-6 * std::fabs(r.slos[i].measured));
    EXPECT_EQ(back->slos[i].measured_text, r.slos[i].measured_text);
    EXPECT_EQ(back->slos[i].threshold_text, r.slos[i].threshold_text);
  }
  EXPECT_EQ(back->aborted_by_slo, "errors<=1%");
}

TEST(SloJson, AnUnparseableSloIsRefusedWithItsPath) {
  RunResults plain;
  nlohmann::json j = to_json(plain);
  j["slos"] = nlohmann::json::array({{{"slo", "p99=1s"},
                                      {"evaluated", false},
                                      {"met", false},
                                      {"unit", "ms"},
                                      {"threshold_text", "1s"},
                                      {"measured_text", ""}}});
  auto back = parse_results(j.dump(), "r.json");
  ASSERT_FALSE(back.has_value());
  EXPECT_NE(back.error().message.find("r.json: /slos/0/slo: "), std::string::npos) << back.error().message;
}
