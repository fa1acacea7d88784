#include "results/merging/combine.h"

#include <gtest/gtest.h>

#include "hdr/codec.h"
#include "results/results_test_util.h"

using namespace openloop::results;

namespace {
RunResults scenario(const char* model, std::size_t intervals, std::uint64_t per_interval,
                    std::int64_t latency_ns) {
  RunResults r;
  r.info.model = *parse_model(model);
  r.measured_s = static_cast<double>(intervals);
  for (std::size_t i = 0; i < intervals; ++i) {
    IntervalResult ir;
    ir.start_s = static_cast<double>(i);
    ir.counters.intended = ir.counters.sent = ir.counters.completed = ir.counters.ok = per_interval;
    auto h = make_latency_histogram();
    h.record(latency_ns, static_cast<std::int64_t>(per_interval));
    ir.response_time_hist = openloop::hdr::to_compressed_base64(h);
    r.intervals.push_back(ir);
    r.totals.add(ir.counters);
    r.response_time.add(h);
  }
  return r;
}
}  // namespace

TEST(CombineScenarios, AlignsIntervalsByOffsetAndAddsCountsExactly) {
  std::vector<ScenarioResults> parts{{"a", 0.0, scenario("open", 4, 10, 1'000'000)},
                                     {"b", 2.0, scenario("closed", 3, 5, 3'000'000)}};
  RunResults all = combine_scenarios(parts);
  EXPECT_EQ(all.info.model, Model::mixed);
  ASSERT_EQ(all.intervals.size(), 5u);  // a covers 0..3, b covers 2..4
  EXPECT_EQ(all.intervals[0].counters.intended, 10u);
  EXPECT_EQ(all.intervals[2].counters.intended, 15u);
  EXPECT_EQ(all.intervals[4].counters.intended, 5u);
  EXPECT_EQ(all.totals.intended, 55u);
  EXPECT_DOUBLE_EQ(all.measured_s, 5.0);
  // Histograms are added, not averaged: the combined p50 of 40 samples at 1 ms and 15 at 3 ms is 1 ms, p90 3
  // ms.
  EXPECT_EQ(all.response_time.total_count(), 55);
  EXPECT_LT(all.response_time.value_at_percentile(50), 1'001'000);
  EXPECT_GT(all.response_time.value_at_percentile(90), 2'990'000);
  auto third = openloop::hdr::from_compressed_base64(all.intervals[2].response_time_hist.text());
  ASSERT_TRUE(third);
  EXPECT_EQ(third->total_count(), 15);
}

TEST(CombineScenarios, KeepsTheWidestAutoCoalesceWindowOfEachInterval) {
  std::vector<ScenarioResults> parts{{"a", 0.0, scenario("open", 2, 10, 1'000'000)},
                                     {"b", 1.0, scenario("open", 2, 5, 3'000'000)}};
  parts[0].results.intervals.resident(1).coalesce_us = 8;
  parts[1].results.intervals.resident(0).coalesce_us = 30;  // lands in the combined interval 1 too
  const RunResults all = combine_scenarios(parts);
  ASSERT_EQ(all.intervals.size(), 3u);
  EXPECT_DOUBLE_EQ(all.intervals[0].coalesce_us, -1);
  EXPECT_DOUBLE_EQ(all.intervals[1].coalesce_us, 30);
  EXPECT_DOUBLE_EQ(all.intervals[2].coalesce_us, -1);
}

TEST(CombineScenarios, KeepsEveryScenariosOwnVerdictReasons) {
  std::vector<ScenarioResults> parts{{"a", 0.0, scenario("open", 2, 10, 1000)},
                                     {"b", 0.0, scenario("open", 2, 10, 1000)}};
  parts[1].results.verdict.valid = false;
  parts[1].results.verdict.reasons.push_back("dropped too much");
  RunResults all = combine_scenarios(parts);
  EXPECT_FALSE(all.verdict.valid);
  ASSERT_FALSE(all.verdict.reasons.empty());
  EXPECT_EQ(all.verdict.reasons.back(), "b: dropped too much");
}

TEST(CombineScenarios, CombinesThePerRequestBreakdownByName) {
  // browse sends get_item and search; shoppers, from 1 s on, get_item and checkout.
  const RunResults all = openloop::test::make_scenario_run(1000.0);
  EXPECT_EQ(all.info.request_names, (std::vector<std::string>{"get_item", "search", "checkout"}));
  ASSERT_EQ(all.by_request.size(), 3U);
  EXPECT_EQ(all.by_request[0].counters.intended, 6U);
  EXPECT_EQ(all.by_request[2].counters.intended, 3U);
  auto get_item = all.scenarios[0].results.by_request[0].response_time;
  get_item.add(all.scenarios[1].results.by_request[0].response_time);
  EXPECT_EQ(all.by_request[0].response_time, get_item);
  ASSERT_EQ(all.intervals.size(), 3U);
  // Second 1 holds browse's second interval (get_item 1, search 1) and shoppers' first (get_item 1, checkout
  // 1).
  EXPECT_EQ(all.intervals[1].by_request[0].intended, 2U);
  EXPECT_EQ(all.intervals[1].by_request[1].intended, 1U);
  EXPECT_EQ(all.intervals[1].by_request[2].intended, 1U);
  EXPECT_EQ(all.intervals[0].by_request[2].intended, 0U);
  // Session times are kept per interval too.
  EXPECT_EQ(all.intervals[2].session_time.count, 2);
  EXPECT_EQ(all.session_time.total_count(), 3);
}

TEST(CombineScenarios, OneRequestOverallKeepsNoBreakdown) {
  std::vector<ScenarioResults> parts{{"a", 0.0, scenario("open", 2, 10, 1000)},
                                     {"b", 0.0, scenario("open", 2, 10, 1000)}};
  for (auto& p : parts) p.results.info.request_names = {"GET /"};
  const RunResults all = combine_scenarios(parts);
  EXPECT_TRUE(all.by_request.empty());
  EXPECT_EQ(all.info.request_names, (std::vector<std::string>{"GET /"}));
}

TEST(CombineScenarios, KeepsTheWorstStealAndAddsTheRunDelaysOfThoseKnown) {
  std::vector<ScenarioResults> parts{{"a", 0.0, scenario("open", 2, 10, 1'000'000)},
                                     {"b", 0.0, scenario("open", 2, 5, 3'000'000)},
                                     {"c", 0.0, scenario("open", 2, 5, 3'000'000)}};
  RunResults none = combine_scenarios(parts);
  EXPECT_FALSE(none.generator.steal_share);  // nobody knew: still unknown, not 0
  EXPECT_FALSE(none.generator.run_delay_seconds);
  parts[0].results.generator.steal_share = 0.03;
  parts[0].results.generator.run_delay_seconds = 0.25;
  parts[1].results.generator.steal_share = 0.07;
  parts[1].results.generator.run_delay_seconds = 0.5;
  const RunResults all = combine_scenarios(parts);  // c knows neither
  ASSERT_TRUE(all.generator.steal_share);
  EXPECT_DOUBLE_EQ(*all.generator.steal_share, 0.07);
  ASSERT_TRUE(all.generator.run_delay_seconds);
  EXPECT_DOUBLE_EQ(*all.generator.run_delay_seconds, 0.75);
}
