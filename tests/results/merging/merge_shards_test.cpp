// Merging the shards of one run: alignment by interval index, exact sums, the shared plan, and every refusal
// (different plan or run, gaps, duplicates, other N or weights, missing shards, histogram settings, skew).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hdr/codec.h"
#include "results/results_test_util.h"
#include "results/merging/merge.h"
#include "results/files/results_json.h"
#include "results/files/results_reader.h"
#include "results/run_identity.h"

namespace openloop::results {
namespace {

using ::testing::HasSubstr;

// Shard `index` of `count` of one run: the same plan with its own plan.shard, the same run id, started at
// `start` (seconds since the epoch).
RunResults shard(std::uint64_t index, std::uint64_t count,
                 const std::vector<std::vector<std::int64_t>>& samples, double start = 5000.0,
                 const std::vector<std::uint64_t>& dropped = {}) {
  RunResults r = test::make_run(samples, start, "http://127.0.0.1:8080/", dropped);
  r.info.plan["rate"] = 400.0;
  r.info.plan["shard"] = {{"index", index},
                          {"count", count},
                          {"weights", nlohmann::json::array()},
                          {"share", 1.0 / static_cast<double>(count)}};
  r.info.run_id = "run-1";
  r.info.environment["host"] = "host-" + std::to_string(index);
  return r;
}

std::vector<MergeInput> four_shards() {
  std::vector<MergeInput> in;
  for (std::uint64_t i = 0; i < 4; ++i) {
    in.push_back({"shard-" + std::to_string(i) + ".json",
                  shard(i, 4, {{1000 + static_cast<std::int64_t>(i)}, {2000, 3000}},
                        5000.0 + 0.1 * static_cast<double>(i))});
  }
  return in;
}

TEST(ShardMerge, IntervalsAlignByIndexAndCountsAddExactly) {
  auto in = four_shards();
  const auto merged = merge_results(in);
  ASSERT_TRUE(merged) << merged.error().message;
  ASSERT_EQ(merged->intervals.size(), 2U);  // by index, although the starts differ by up to 0.3 s
  EXPECT_EQ(merged->intervals[0].counters.intended, 4U);
  EXPECT_EQ(merged->intervals[1].counters.intended, 8U);
  EXPECT_EQ(merged->response_time.total_count(), 12);
  std::int64_t sum = 0;
  for (const auto& s : in) sum += s.results.response_time.total_count();
  EXPECT_EQ(merged->response_time.total_count(), sum);
  EXPECT_DOUBLE_EQ(merged->measured_s, 2.0);
  EXPECT_FALSE(merged->info.plan.contains("shard"));
  EXPECT_FALSE(merged->info.plan.contains("differs"));
  EXPECT_EQ(merged->info.plan["shards"], 4);
  EXPECT_EQ(merged->info.run_id, "run-1");
  EXPECT_EQ(merged->info.plan_hash, plan_hash(in[0].results.info.plan));
  EXPECT_TRUE(merged->verdict.valid);
}

TEST(ShardMerge, ReplaySessionCountsAddUpAndSurviveTheFile) {
  auto in = four_shards();
  for (std::uint64_t i = 0; i < in.size(); ++i) {
    ReplaySessionStats& s = in[i].results.replay_sessions;
    s.replayed = true;
    s.delayed = 10 + i;
    s.delay_s = 0.5;
    s.sessions_peak = 3 + i;
    s.held_peak = 7;
    s.dropped = i;
    auto read = parse_results(to_json(in[i].results).dump(), "shard.json");  // each shard's file, read back
    ASSERT_TRUE(read) << read.error().message;
    in[i].results = std::move(*read);
  }
  const auto merged = merge_results(in);
  ASSERT_TRUE(merged) << merged.error().message;
  const ReplaySessionStats& m = merged->replay_sessions;
  EXPECT_TRUE(m.replayed);
  EXPECT_EQ(m.delayed, 10U + 11 + 12 + 13);
  EXPECT_DOUBLE_EQ(m.delay_s, 2.0);
  EXPECT_EQ(m.sessions_peak, 3U + 4 + 5 + 6) << "side by side, the peaks add as a run's workers' do";
  EXPECT_EQ(m.held_peak, 28U);
  EXPECT_EQ(m.dropped, 0U + 1 + 2 + 3);
  EXPECT_EQ(to_json(*merged)["replay_sessions"]["delayed"], 46);
  EXPECT_FALSE(to_json(four_shards()[0].results).contains("replay_sessions"))
      << "only a session replay has them";
}

TEST(ReplaySessions, OneAfterAnotherTheLargestPeakIsKept) {
  ReplaySessionStats total;
  ReplaySessionStats a{true, 2, 0.25, 5, 9, 1};
  ReplaySessionStats b{true, 3, 0.5, 8, 4, 0};
  add_replay_sessions(total, a, PartsRan::one_after_another);
  add_replay_sessions(total, b, PartsRan::one_after_another);
  add_replay_sessions(total, ReplaySessionStats{}, PartsRan::one_after_another);
  EXPECT_TRUE(total.replayed);
  EXPECT_EQ(total.delayed, 5U);
  EXPECT_DOUBLE_EQ(total.delay_s, 0.75);
  EXPECT_EQ(total.sessions_peak, 8U);
  EXPECT_EQ(total.held_peak, 9U);
  EXPECT_EQ(total.dropped, 1U);
}

TEST(ShardMerge, KeepsTheWidestAutoCoalesceWindowOfEachInterval) {
  auto in = four_shards();
  in[1].results.intervals.resident(0).coalesce_us = 12.5;
  in[3].results.intervals.resident(0).coalesce_us = 40;
  const auto merged = merge_results(in);
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_DOUBLE_EQ(merged->intervals[0].coalesce_us, 40);
  EXPECT_DOUBLE_EQ(merged->intervals[1].coalesce_us, -1);  // no shard was auto there
}

TEST(ShardMerge, ThePlanHashLeavesTheShardOut) {
  auto a = shard(0, 2, {{1000}});
  auto b = shard(1, 2, {{1000}});
  EXPECT_EQ(plan_hash(a.info.plan), plan_hash(b.info.plan));
  // A shard on a machine with more cores (threads default to them) runs the same plan.
  a.info.plan["threads"] = 2;
  b.info.plan["threads"] = 8;
  b.info.plan["spin_below_us"] = 31.5;
  EXPECT_EQ(plan_hash(a.info.plan), plan_hash(b.info.plan));
  b.info.plan["rate"] = 500.0;
  EXPECT_NE(plan_hash(a.info.plan), plan_hash(b.info.plan));
}

TEST(ShardMerge, APlanFilesHashLeavesEachScenariosShardAndHostOut) {
  // A plan file's identity: each scenario's plan, the shared shard at the top.
  const auto file = [](int index, int threads, int vus) {
    nlohmann::json plan = {{"shard", {{"index", index}, {"count", 2}}}};
    plan["scenarios"] = {{{"model", "open"}, {"rate", 200.0}, {"shard", {{"index", index}, {"count", 2}}},
                          {"threads", threads}, {"spin_below_us", 12.5 * threads}},
                         {{"model", "closed"}, {"vus", vus}, {"shard", {{"index", index}, {"count", 2}}},
                          {"threads", threads}}};
    return plan;
  };
  EXPECT_EQ(plan_hash(file(0, 1, 4)), plan_hash(file(1, 8, 4)));
  EXPECT_NE(plan_hash(file(0, 1, 4)), plan_hash(file(1, 1, 3)));  // the second scenario differs
}

TEST(ShardMerge, RefusesDifferentPlanHashes) {
  auto in = four_shards();
  in[2].results.info.plan["rate"] = 500.0;
  const auto r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_THAT(r.error().message, HasSubstr("shard-2.json: its plan hash"));
}

TEST(ShardMerge, RefusesDifferentRunIds) {
  auto in = four_shards();
  in[3].results.info.run_id = "run-2";
  const auto r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message,
              HasSubstr("shard-3.json: its run id run-2 differs from shard-0.json's run-1"));
}

TEST(ShardMerge, RefusesAShardGivenTwice) {
  auto in = four_shards();
  in[3].results.info.plan["shard"]["index"] = 1;  // an overlap: shard 1 twice, shard 3 never
  in[3].results.info.run_id = "run-1";
  in[3].results.totals.ok += 0;
  const auto r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message,
              HasSubstr("shard-1.json and shard-3.json are the same run (run id run-1, shard 1/4)"));
}

TEST(ShardMerge, RefusesDifferentShardCountsAndWeights) {
  auto in = four_shards();
  in[1].results.info.plan["shard"]["count"] = 3;
  auto r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("shard-1.json: shard 1/3 but shard-0.json is shard 0/4"));
  in = four_shards();
  in[2].results.info.plan["shard"]["weights"] = {2, 1, 1, 1};
  r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("shard-2.json: --shard-weights [2,1,1,1]"));
}

TEST(ShardMerge, RefusesAnIndexBeyondTheCount) {
  auto in = four_shards();
  in[3].results.info.plan["shard"]["index"] = 4;
  const auto r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("shard-3.json: shard index 4 is not below the shard count 4"));
}

TEST(ShardMerge, RefusesMissingShardsUnlessPartialIsAllowed) {
  auto in = four_shards();
  in.erase(in.begin() + 2);
  auto r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("shard 2/4 (share 0.25) missing"));
  EXPECT_THAT(r.error().message, HasSubstr("--allow-partial"));
  r = merge_results(in, MergeOptions{true, 1.0});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->info.plan["partial"]["missing"][0], "shard 2/4 (share 0.25)");
  EXPECT_DOUBLE_EQ(r->info.plan["partial"]["missing_share"].get<double>(), 0.25);
  ASSERT_FALSE(r->warnings.empty());
  EXPECT_THAT(r->warnings.back(), HasSubstr("PARTIAL"));
}

TEST(ShardMerge, MissingSharesFollowTheWeights) {
  std::vector<MergeInput> in;
  for (std::uint64_t i : {0U, 2U}) {
    auto s = shard(i, 3, {{1000}});
    s.info.plan["shard"]["weights"] = {2, 1, 1};
    in.push_back({"w" + std::to_string(i) + ".json", s});
  }
  const auto r = merge_results(in, MergeOptions{true, 1.0});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_DOUBLE_EQ(r->info.plan["partial"]["missing_share"].get<double>(), 0.25);
}

TEST(ShardMerge, RefusesDifferentHistogramSettings) {
  auto in = four_shards();
  hdr::Histogram coarse(1, 3'600'000'000'000, 2);
  coarse.record(1000);
  in[1].results.intervals.resident(0).response_time_hist = hdr::to_compressed_base64(coarse);
  const auto r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("shard-1.json: its histograms have"));
  EXPECT_THAT(r.error().message, HasSubstr("2 significant digits"));
}

TEST(ShardMerge, RefusesStartSkewAboveMaxSkew) {
  auto in = four_shards();
  in[2].results.info.start_unix_s += 1.5;
  auto r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message,
              HasSubstr("shard-2.json: started 1.700s after shard-0.json (--max-skew 1s)"));
  r = merge_results(in, MergeOptions{false, 2.0});
  EXPECT_TRUE(r) << r.error().message;
}

TEST(ShardMerge, RefusesAWholeRunAmongShards) {
  auto in = four_shards();
  in[0].results.info.plan.erase("shard");
  const auto r = merge_results(in);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("shard-0.json: is not a shard"));
}

TEST(ShardMerge, TheVerdictNamesTheShardAtFault) {
  auto in = four_shards();
  std::vector<std::vector<std::int64_t>> hundred(2, std::vector<std::int64_t>(100, 1000));
  for (auto& s : in)
    s.results = shard(s.results.info.plan["shard"]["index"].get<std::uint64_t>(), 4, hundred);
  in[2].results = shard(2, 4, hundred, 5000.0, {0, 20});  // 20 of 220 dropped: 9.1 %
  const auto r = merge_results(in);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->verdict.valid);
  std::string all;
  for (const auto& reason : r->verdict.reasons) all += reason + "\n";
  EXPECT_THAT(all, HasSubstr("shard 2/4 (shard-2.json): dropped 9.1% (20 of 220)"));
  EXPECT_THAT(all, HasSubstr("shard 2/4 (shard-2.json) was INVALID on its own"));
  EXPECT_THAT(all, ::testing::Not(HasSubstr("shard 1/4")));
}

TEST(ShardMerge, RunIdPlanHashAndStartRoundTripThroughTheResultsFile) {
  auto s = shard(1, 4, {{1000}});
  s.info.plan_hash = plan_hash(s.info.plan);
  s.info.start.at_unix_s = 1796119200.0;
  s.info.start.lag_s = 0.0004;
  s.info.start.clock_known = true;
  s.info.start.clock_maxerror_s = 0.016;
  const auto back = parse_results(to_json(s).dump(), "s.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->info.run_id, "run-1");
  EXPECT_EQ(back->info.plan_hash, s.info.plan_hash);
  EXPECT_DOUBLE_EQ(back->info.start.at_unix_s, 1796119200.0);
  EXPECT_DOUBLE_EQ(back->info.start.lag_s, 0.0004);
  EXPECT_DOUBLE_EQ(back->info.start.clock_maxerror_s, 0.016);
}

TEST(ShardMerge, OldFilesWithoutRunIdsStillMergeAndStillRefuseTheSameRunTwice) {
  const auto a = test::make_run({{1000}}, 10.0);
  auto r = merge_results({{"a.json", a}, {"copy.json", a}});
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("a.json and copy.json are the same run (same host"));
  auto b = test::make_run({{1000}}, 10.0);
  b.info.environment["host"] = "other";
  EXPECT_TRUE(merge_results({{"a.json", a}, {"b.json", b}}));
}

}  // namespace
}  // namespace openloop::results
