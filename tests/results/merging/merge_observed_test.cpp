// Merged runs keep every input's --observe signals under its label (shard or file), never summed.
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "results/results_test_util.h"
#include "results/merging/merge.h"
#include "results/files/results_json.h"
#include "results/files/results_reader.h"

namespace openloop::results {
namespace {

using ::testing::HasSubstr;

// A run observed by `host` and `self`: host CPU busy `cpu` + interval index, self CPU 0.1.
RunResults observed_run(double start, double cpu) {
  RunResults r = test::make_run({{1000}, {2000}, {3000}}, start);
  r.observed.sources = {"host", "self"};
  r.observed.signals = {{"host", "cpu_busy", "share", SignalRole::utilization, "CPU busy"},
                        {"self", "cpu", "cores", SignalRole::utilization, "CPU"}};
  r.observed.sampler = {0.1, 30, 0.01, 3.0};
  for (std::size_t k = 0; k < r.intervals.size(); ++k)
    r.intervals.resident(k).observed = {cpu + static_cast<double>(k), 0.1};
  return r;
}

RunResults as_shard(RunResults r, int index) {
  r.info.plan["shard"] = {
      {"index", index}, {"count", 2}, {"weights", nlohmann::json::array()}, {"share", 0.5}};
  r.info.run_id = "run-1";
  r.info.environment["host"] = "host-" + std::to_string(index);
  return r;
}

TEST(MergeObserved, ShardsKeepTheirSignalsUnderTheirLabel) {
  const auto merged = merge_results(
      {{"a.json", as_shard(observed_run(5000.0, 10), 0)}, {"b.json", as_shard(observed_run(5000.2, 20), 1)}});
  ASSERT_TRUE(merged) << merged.error().message;
  const Observed& o = merged->observed;
  EXPECT_EQ(o.sources, (std::vector<std::string>{"host [shard 0/2]", "self [shard 0/2]", "host [shard 1/2]",
                                                 "self [shard 1/2]"}));
  ASSERT_EQ(o.signals.size(), 4U);
  const auto a = o.find("host [shard 0/2]", "cpu_busy");
  const auto b = o.find("host [shard 1/2]", "cpu_busy");
  ASSERT_TRUE(a && b);
  ASSERT_EQ(merged->intervals.size(), 3U);
  for (std::size_t k = 0; k < 3; ++k) {
    // Each host's own value in the interval it landed in: not added, not averaged.
    EXPECT_DOUBLE_EQ(merged->intervals[k].observed[*a], 10.0 + static_cast<double>(k));
    EXPECT_DOUBLE_EQ(merged->intervals[k].observed[*b], 20.0 + static_cast<double>(k));
  }
  EXPECT_TRUE(is_self_source(o.signals[*o.find("self [shard 1/2]", "cpu")].source));
  EXPECT_EQ(o.sampler.samples, 60U);
  EXPECT_DOUBLE_EQ(o.sampler.cpu_s, 0.02);
  EXPECT_THAT(o.merged, HasSubstr("not summed"));
  EXPECT_THAT(o.merged, HasSubstr("shard 0/2, shard 1/2"));
}

TEST(MergeObserved, RunsAlignedByTimeAreLabelledByFileAndOneWithoutObservationsIsNamed) {
  RunResults plain = test::make_run({{1000}, {2000}}, 5001.0);
  plain.info.environment["host"] = "other";
  const auto merged = merge_results({{"a.json", observed_run(5000.0, 10)}, {"b.json", plain}});
  ASSERT_TRUE(merged) << merged.error().message;
  const Observed& o = merged->observed;
  EXPECT_EQ(o.sources, (std::vector<std::string>{"host [a.json]", "self [a.json]"}));
  ASSERT_EQ(merged->intervals.size(), 3U);
  const auto a = o.find("host [a.json]", "cpu_busy");
  ASSERT_TRUE(a);
  EXPECT_DOUBLE_EQ(merged->intervals[2].observed[*a], 12.0);
  EXPECT_THAT(o.merged, HasSubstr("observed nothing: b.json"));
}

TEST(MergeObserved, NoInputObservedNothingIsAdded) {
  RunResults x = test::make_run({{1000}}, 5000.0), y = test::make_run({{1000}}, 5000.5);
  y.info.environment["host"] = "other";
  const auto merged = merge_results({{"a.json", x}, {"b.json", y}});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_TRUE(merged->observed.empty());
  EXPECT_TRUE(merged->intervals[0].observed.empty());
}

TEST(MergeObserved, TheMergedNoteSurvivesTheResultsFile) {
  const auto merged = merge_results(
      {{"a.json", as_shard(observed_run(5000.0, 10), 0)}, {"b.json", as_shard(observed_run(5000.2, 20), 1)}});
  ASSERT_TRUE(merged) << merged.error().message;
  const nlohmann::json j = to_json(*merged);
  EXPECT_THAT(j["summary"]["observed"]["merged"].get<std::string>(), HasSubstr("not summed"));
  EXPECT_EQ(j["intervals"][1]["observed"]["host [shard 1/2]"]["cpu_busy"], 21.0);
  const auto back = parse_results(j.dump(), "merged.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->observed.merged, merged->observed.merged);
  EXPECT_EQ(back->observed.sources.size(), 4U);
}

}  // namespace
}  // namespace openloop::results
