// Merging runs: exact percentiles, alignment by wall-clock time, a fresh verdict, refusals that name the
// difference.
#include "results/merging/merge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/rng.h"
#include "results/results_test_util.h"
#include "results/recording/interval_stats.h"
#include "results/files/results_json.h"
#include "results/files/results_reader.h"
#include "results/judging/slo.h"

namespace openloop::results {
namespace {

using ::testing::HasSubstr;

std::vector<std::vector<std::int64_t>> random_samples(Rng& rng, int intervals, int per_interval,
                                                      std::int64_t scale) {
  std::vector<std::vector<std::int64_t>> out(static_cast<std::size_t>(intervals));
  for (auto& interval : out) {
    for (int i = 0; i < per_interval; ++i) {
      interval.push_back(static_cast<std::int64_t>(rng.uniform01() * static_cast<double>(scale)) + 1000);
    }
  }
  return out;
}

TEST(Merge, PercentilesEqualOneHistogramFedAllSamples) {
  Rng rng(42);
  const auto a = random_samples(rng, 4, 500, 2'000'000);
  const auto b = random_samples(rng, 3, 700, 50'000'000);
  hdr::Histogram all = make_latency_histogram();
  for (const auto* run : {&a, &b}) {
    for (const auto& interval : *run) {
      for (const auto v : interval) all.record(v);
    }
  }
  auto merged = merge_results({{"a.json", test::make_run(a, 1000.0)}, {"b.json", test::make_run(b, 1001.0)}});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(merged->response_time, all);
  for (const double p : {0.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
    EXPECT_EQ(merged->response_time.value_at_percentile(p), all.value_at_percentile(p)) << "p" << p;
  }
  EXPECT_EQ(merged->totals.intended, 4U * 500 + 3U * 700);
  EXPECT_EQ(merged->warmup.intended, 14U);
}

TEST(Merge, IntervalsAlignByWallClockTime) {
  // b starts 2 s after a: b's first interval joins a's third.
  const auto merged = merge_results({{"a.json", test::make_run({{1000}, {2000}, {3000}}, 5000.0)},
                                     {"b.json", test::make_run({{4000, 4000}, {5000}}, 5002.0)}});
  ASSERT_TRUE(merged) << merged.error().message;
  ASSERT_EQ(merged->intervals.size(), 4U);
  EXPECT_EQ(merged->intervals[2].counters.intended, 3U);
  EXPECT_EQ(merged->intervals[2].response_time.max, 4001);  // highest equivalent of 4000 (3 digits)
  EXPECT_EQ(merged->intervals[3].counters.intended, 1U);
  EXPECT_DOUBLE_EQ(merged->intervals[3].start_s, 3.0);
  EXPECT_DOUBLE_EQ(merged->info.start_unix_s, 5000.0);
  EXPECT_DOUBLE_EQ(merged->measured_s, 4.0);  // from a's start to b's end
  EXPECT_DOUBLE_EQ(merged->offered_rps(), 6.0 / 4.0);
}

TEST(Merge, TheVerdictIsJudgedAgainOverTheMergedRun) {
  // a alone drops 2 of 102 (INVALID); merged with a clean run the drop rate is under 1 %, but a's own verdict
  // stays.
  std::vector<std::vector<std::int64_t>> hundred(1, std::vector<std::int64_t>(100, 1000));
  std::vector<std::vector<std::int64_t>> lots(1, std::vector<std::int64_t>(500, 1000));
  auto a = test::make_run(hundred, 10.0, "http://127.0.0.1:8080/", {2});
  ASSERT_FALSE(a.verdict.valid);
  auto merged = merge_results({{"a.json", a}, {"b.json", test::make_run(lots, 10.0)}});
  ASSERT_TRUE(merged);
  EXPECT_FALSE(merged->verdict.valid);
  ASSERT_EQ(merged->verdict.reasons.size(), 1U);
  EXPECT_THAT(merged->verdict.reasons[0], HasSubstr("a.json was INVALID on its own: dropped 2 of 102"));
  auto c = test::make_run(lots, 10.0);
  c.info.environment["host"] = "c";  // the same plan from another host at the same time
  auto clean = merge_results({{"b.json", test::make_run(lots, 10.0)}, {"c.json", c}});
  ASSERT_TRUE(clean);
  EXPECT_TRUE(clean->verdict.valid);
  EXPECT_EQ(clean->generator.threads, 2U);
}

TEST(Merge, RefusesPlansThatDoNotBelongTogether) {
  auto other = test::make_run({{1000}}, 10.0, "http://other:9/");
  auto r = merge_results({{"a.json", test::make_run({{1000}}, 10.0)}, {"b.json", other}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_THAT(r.error().message, HasSubstr("cannot merge a.json with b.json: plan.target differs"));
  EXPECT_THAT(r.error().message, HasSubstr("\"http://other:9/\" in b.json"));

  auto slower = test::make_run({{1000}}, 10.0);
  slower.info.plan["timeout_s"] = 1.0;
  r = merge_results({{"a.json", test::make_run({{1000}}, 10.0)}, {"b.json", slower}});
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("plan.timeout_s differs (5.0 in a.json, 1.0 in b.json)"));
}

TEST(Merge, RefusesRunsThatSpokeDifferentProtocols) {
  // One plan (--protocol auto over TLS) may speak either protocol: the servers' ALPN choices decide.
  auto h1 = test::make_run({{1000}}, 10.0);
  h1.generator.connections_h1 = 4;
  auto h2 = test::make_run({{1000}}, 10.0);
  h2.info.environment["host"] = "other";
  h2.generator.connections_h2 = 1;
  auto r = merge_results({{"a.json", h1}, {"b.json", h2}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_THAT(r.error().message, HasSubstr("cannot merge a.json with b.json: the protocol differs (h1 in a.json, "
                                           "h2 in b.json)"));
  // Runs of one protocol merge, and a file written before protocols were counted (none) merges with either.
  auto also_h2 = h2;
  also_h2.info.environment["host"] = "third";
  EXPECT_TRUE(merge_results({{"b.json", h2}, {"c.json", also_h2}}));
  EXPECT_TRUE(merge_results({{"a.json", test::make_run({{1000}}, 10.0)}, {"b.json", h2}}));
  auto merged = merge_results({{"b.json", h2}, {"c.json", also_h2}});
  ASSERT_TRUE(merged);
  EXPECT_EQ(merged->generator.connections_h2, 2U);
}

TEST(Merge, NeedsTheWallClockStartToAlign) {
  auto r = merge_results(
      {{"a.json", test::make_run({{1000}}, 10.0)}, {"old.json", test::make_run({{1000}}, 0.0)}});
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("old.json: has no wall-clock start"));
}

TEST(Merge, DifferingFreeFieldsAreListedInThePlan) {
  auto b = test::make_run({{1000}}, 10.0);
  b.info.plan["threads"] = 4;
  auto r = merge_results({{"a.json", test::make_run({{1000}}, 10.0)}, {"b.json", b}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->info.plan["differs"]["threads"], nlohmann::json::parse("[1, 4]"));
  EXPECT_EQ(r->info.plan["target"], "http://127.0.0.1:8080/");
  EXPECT_EQ(r->info.environment["merged_from"].size(), 2U);
}

TEST(Merge, KeepsThePerRequestBreakdownByName) {
  const auto a = test::make_breakdown_run({{1'000'000, 2'000'000, 3'000'000}}, 1000.0);
  const auto b = test::make_breakdown_run({{4'000'000, 5'000'000}, {6'000'000}}, 1000.0);
  auto merged = merge_results({{"a.json", a}, {"b.json", b}});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(merged->info.request_names, (std::vector<std::string>{"get_item", "search"}));
  ASSERT_EQ(merged->by_request.size(), 2U);
  EXPECT_EQ(merged->by_request[0].counters.intended, 2U + 2U);  // a: 1 and 3 ms; b: 4 and 6 ms
  EXPECT_EQ(merged->by_request[1].counters.intended, 1U + 1U);
  hdr::Histogram search = a.by_request[1].response_time;
  search.add(b.by_request[1].response_time);
  EXPECT_EQ(merged->by_request[1].response_time, search);
  EXPECT_EQ(merged->intervals[0].by_request[0].intended, 3U);  // a's 2 and b's 1 in the same second
  EXPECT_EQ(merged->intervals[1].by_request[0].intended, 1U);
  // The merged file reads back: per-request intervals add up to the per-request totals.
  auto read = parse_results(to_json(*merged).dump(), "merged.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->by_request[0].response_time, merged->by_request[0].response_time);
}

TEST(Merge, WithoutABreakdownInEveryInputThereIsNone) {
  // b as read from a file written before per-request histograms were kept.
  auto b = test::make_breakdown_run({{3000}}, 1000.0);
  b.by_request.clear();
  for (std::size_t k = 0; k < b.intervals.size(); ++k) b.intervals.resident(k).by_request.clear();
  auto merged = merge_results({{"a.json", test::make_breakdown_run({{1000, 2000}}, 1000.0)}, {"b.json", b}});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_TRUE(merged->by_request.empty());
  EXPECT_TRUE(merged->intervals[0].by_request.empty());
}

TEST(Merge, AddsSessionTimesPerIntervalAndInTotal) {
  const auto a = test::make_breakdown_run({{1'000'000, 2'000'000}}, 1000.0, "sessions");
  const auto b =
      test::make_breakdown_run({{3'000'000, 4'000'000}, {5'000'000, 6'000'000}}, 1000.0, "sessions");
  auto merged = merge_results({{"a.json", a}, {"b.json", b}});
  ASSERT_TRUE(merged) << merged.error().message;
  hdr::Histogram sessions = a.session_time;
  sessions.add(b.session_time);
  EXPECT_EQ(merged->session_time, sessions);
  EXPECT_EQ(merged->intervals[0].session_time.count, 2);
  EXPECT_EQ(merged->flows.sessions_intended, 3U);
}

TEST(Merge, JudgesEveryInputsSlosAgainOnTheMergedRun) {
  auto a = test::make_breakdown_run({{1'000'000, 2'000'000, 3'000'000}}, 1000.0);
  auto b = test::make_breakdown_run({{40'000'000, 50'000'000}}, 1000.0);
  a.slos = evaluate_slos({*parse_slo("p99<=10ms"), *parse_slo("search:max<=1s")}, a);
  b.slos = evaluate_slos({*parse_slo("p99<=10ms")}, b);
  ASSERT_TRUE(a.slos[0].met);
  auto merged = merge_results({{"a.json", a}, {"b.json", b}});
  ASSERT_TRUE(merged) << merged.error().message;
  ASSERT_EQ(merged->slos.size(), 2U);
  EXPECT_EQ(merged->slos[0].slo.text, "p99<=10ms");
  EXPECT_TRUE(merged->slos[0].evaluated);
  EXPECT_FALSE(merged->slos[0].met);  // b's 40 and 50 ms are in the merged p99
  EXPECT_EQ(merged->slos[1].slo.request, "search");
  EXPECT_TRUE(merged->slos[1].met);
}

TEST(Merge, MergesScenariosByName) {
  const auto a = test::make_scenario_run(1000.0);
  auto b = test::make_scenario_run(1000.0);
  b.info.environment["host"] = "b";
  auto merged = merge_results({{"a.json", a}, {"b.json", b}});
  ASSERT_TRUE(merged) << merged.error().message;
  ASSERT_EQ(merged->scenarios.size(), 2U);
  EXPECT_EQ(merged->scenarios[0].name, "browse");
  EXPECT_EQ(merged->scenarios[1].name, "shoppers");
  EXPECT_DOUBLE_EQ(merged->scenarios[1].offset_s, 1.0);
  EXPECT_EQ(merged->scenarios[1].results.totals.intended, 2 * a.scenarios[1].results.totals.intended);
  EXPECT_EQ(merged->scenarios[1].results.by_request[1].counters.intended, 6U);  // checkout, 3 per run
  EXPECT_EQ(merged->totals.intended,
            merged->scenarios[0].results.totals.intended + merged->scenarios[1].results.totals.intended);
  EXPECT_EQ(merged->by_request.size(), 3U);  // the combined runs' breakdown, by name too
  auto read = parse_results(to_json(*merged).dump(), "merged.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->scenarios.size(), 2U);
}

TEST(Merge, RunsWithDifferentScenariosMergeAsWholesWithAWarning) {
  auto b = test::make_scenario_run(1000.0);
  b.scenarios.pop_back();
  b.info.environment["host"] =
      "b";  // another run (with the scenario left out, the counts alone look the same)
  auto merged = merge_results({{"a.json", test::make_scenario_run(1000.0)}, {"b.json", b}});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_TRUE(merged->scenarios.empty());
  ASSERT_EQ(merged->warnings.size(), 1U);
  EXPECT_THAT(merged->warnings[0],
              HasSubstr("scenarios not merged: a.json has [browse, shoppers], b.json has [browse]"));
}

TEST(Merge, RefusesTheSameRunGivenTwice) {
  const auto a = test::make_run({{1000, 2000}, {3000}}, 10.0);
  auto r = merge_results({{"a.json", a}, {"copy-of-a.json", a}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_THAT(r.error().message, HasSubstr("a.json and copy-of-a.json are the same run"));
  EXPECT_THAT(r.error().message, HasSubstr("count every request twice"));
  // The same plan from another host at the same moment is another run.
  auto b = a;
  b.info.environment["host"] = "b";
  EXPECT_TRUE(merge_results({{"a.json", a}, {"b.json", b}}));
}

TEST(Merge, RunsTogetherAtTheSameLoadMergeWithoutWarnings) {
  auto b = test::make_run({{1000}, {2000}}, 11.0);
  b.info.environment["host"] = "b";
  auto r = merge_results({{"a.json", test::make_run({{1000}, {2000}}, 10.0)}, {"b.json", b}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->warnings.empty()) << r->warnings.front();
}

TEST(Merge, WarnsWhenTheInputsDoNotOverlapInTime) {
  // Eleven minutes apart: the merged period (671 s) is mostly time when no run was sending.
  auto r = merge_results({{"a.json", test::make_run({{1000}, {2000}}, 1000.0)},
                          {"b.json", test::make_run({{1000}, {2000}}, 1669.0)}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_DOUBLE_EQ(r->measured_s, 671.0);
  ASSERT_EQ(r->warnings.size(), 1U);
  EXPECT_THAT(r->warnings[0],
              HasSubstr("the inputs do not overlap in time (b.json starts 667s after the runs "
                        "before it ended): the merged run spans 671s"));
}

TEST(Merge, WarnsWhenThePlansApplyDifferentLoads) {
  auto a = test::make_run({{1000}}, 10.0);
  auto b = test::make_run({{1000, 2000}}, 10.0);
  a.info.plan["stages"] = "1/s:1s";
  b.info.plan["stages"] = "2/s:1s";
  b.info.plan["threads"] = 2;  // how the load was applied, not which: no warning of its own
  auto r = merge_results({{"a.json", a}, {"b.json", b}});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->warnings.size(), 1U);
  EXPECT_THAT(r->warnings[0], HasSubstr("the inputs' plans differ (stages [\"1/s:1s\",\"2/s:1s\"])"));
}

}  // namespace
}  // namespace openloop::results
