// What runs add up that is not measured: generator stats, error examples and warnings
// (RunResults::add_metadata), and that every path that adds runs (scenarios, merges, repeats) adds them that
// one way.
#include "results/run_results.h"

#include <gtest/gtest.h>

#include "results/results_test_util.h"
#include "results/merging/combine.h"
#include "results/merging/merge.h"
#include "results/merging/repeats.h"

namespace openloop::results {
namespace {

GeneratorStats generator(unsigned threads, double cpu_s, double wall_s, std::uint64_t peak) {
  GeneratorStats g;
  g.threads = threads;
  g.cpu_seconds = cpu_s;
  g.spin_seconds = cpu_s / 10;
  g.wall_seconds = wall_s;
  g.max_connections = 4 * peak;
  g.peak_connections = peak;
  g.abandoned = threads;
  g.max_rss_kb = 1000 * threads;
  g.coordinator_rounds = 10 * threads;
  g.coordinator_cpu_ms_mean = 0.1 * threads;
  g.coordinator_cpu_ms_max = 0.5 * threads;
  return g;
}

// Two runs that can be merged, combined and repeated, with an error example of the same kind each and a
// warning each.
std::vector<RunResults> two_runs() {
  std::vector<RunResults> runs;
  runs.push_back(test::make_run({{1000, 2000}, {3000}}, 5000.0));
  runs.push_back(test::make_run({{4000}, {5000}}, 5000.5));
  runs[0].generator = generator(2, 1.5, 3.0, 8);
  runs[1].generator = generator(1, 0.5, 2.0, 3);
  runs[0].error_examples = {{"connect", "connection refused"}, {"tls", "certificate verify failed"}};
  runs[1].error_examples = {{"connect", "connection refused"}, {"read", "connection reset by peer"}};
  runs[0].warnings = {"every request used the same key"};
  runs[1].warnings = {"the target answered 404"};
  return runs;
}

void expect_same_generator(const GeneratorStats& a, const GeneratorStats& b, const char* path) {
  SCOPED_TRACE(path);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_DOUBLE_EQ(a.cpu_seconds, b.cpu_seconds);
  EXPECT_DOUBLE_EQ(a.spin_seconds, b.spin_seconds);
  EXPECT_DOUBLE_EQ(a.wall_seconds, b.wall_seconds);
  EXPECT_EQ(a.max_connections, b.max_connections);
  EXPECT_EQ(a.peak_connections, b.peak_connections);
  EXPECT_EQ(a.abandoned, b.abandoned);
  EXPECT_EQ(a.max_rss_kb, b.max_rss_kb);
  EXPECT_EQ(a.coordinator_rounds, b.coordinator_rounds);
  EXPECT_DOUBLE_EQ(a.coordinator_cpu_ms_mean, b.coordinator_cpu_ms_mean);
  EXPECT_DOUBLE_EQ(a.coordinator_cpu_ms_max, b.coordinator_cpu_ms_max);
}

TEST(AddGenerator, SideBySideSumsThreadsAndWeighsWallTimeByThreads) {
  GeneratorStats g;
  add_generator(g, generator(2, 1.5, 3.0, 8), PartsRan::side_by_side);
  add_generator(g, generator(1, 0.5, 2.0, 3), PartsRan::side_by_side);
  EXPECT_EQ(g.threads, 3U);
  EXPECT_DOUBLE_EQ(g.cpu_seconds, 2.0);
  EXPECT_DOUBLE_EQ(g.wall_seconds, (2 * 3.0 + 1 * 2.0) / 3);  // 8 thread-seconds over 3 threads
  EXPECT_EQ(g.peak_connections, 11U);
  EXPECT_EQ(g.max_connections, 44U);
  EXPECT_EQ(g.abandoned, 3U);
  EXPECT_EQ(g.max_rss_kb, 2000);
  EXPECT_EQ(g.coordinator_rounds, 30U);
  EXPECT_DOUBLE_EQ(g.coordinator_cpu_ms_mean, (20 * 0.2 + 10 * 0.1) / 30);
  EXPECT_DOUBLE_EQ(g.coordinator_cpu_ms_max, 1.0);
}

TEST(AddGenerator, OneAfterAnotherSumsWallTimeAndKeepsTheLargestPart) {
  GeneratorStats g;
  add_generator(g, generator(2, 1.5, 3.0, 8), PartsRan::one_after_another);
  add_generator(g, generator(2, 0.5, 2.0, 3), PartsRan::one_after_another);
  EXPECT_EQ(g.threads, 2U);
  EXPECT_DOUBLE_EQ(g.cpu_seconds, 2.0);
  EXPECT_DOUBLE_EQ(g.wall_seconds, 5.0);
  EXPECT_EQ(g.peak_connections, 8U);
  EXPECT_EQ(g.max_connections, 32U);
  EXPECT_EQ(g.abandoned, 4U);
}

TEST(AddMetadata, KeepsOneErrorExamplePerKindAndLabelsWarnings) {
  const auto runs = two_runs();
  RunResults all;
  all.add_metadata(runs[0], "a", PartsRan::side_by_side);
  all.add_metadata(runs[1], "b", PartsRan::side_by_side);
  const std::vector<std::pair<std::string, std::string>> examples{{"connect", "connection refused"},
                                                                  {"tls", "certificate verify failed"},
                                                                  {"read", "connection reset by peer"}};
  EXPECT_EQ(all.error_examples, examples);
  const std::vector<std::string> warnings{"a: every request used the same key", "b: the target answered 404"};
  EXPECT_EQ(all.warnings, warnings);
}

// Scenarios and merged runs both ran side by side: the same generator stats and examples either way;
// repeats one after another. Each keeps the one "connect" example once.
TEST(AddMetadata, ScenariosMergesAndRepeatsAddTheSameWay) {
  const auto runs = two_runs();
  GeneratorStats side, after;
  for (const RunResults& r : runs) {
    add_generator(side, r.generator, PartsRan::side_by_side);
    add_generator(after, r.generator, PartsRan::one_after_another);
  }
  const RunResults combined = combine_scenarios({{"a", 0.0, runs[0]}, {"b", 0.0, runs[1]}});
  auto merged = merge_results({{"a.json", runs[0]}, {"b.json", runs[1]}});
  ASSERT_TRUE(merged) << merged.error().message;
  const RunResults repeated = add_repeats(runs);
  expect_same_generator(combined.generator, side, "combine");
  expect_same_generator(merged->generator, side, "merge");
  expect_same_generator(repeated.generator, after, "repeats");
  for (const RunResults* r : std::vector<const RunResults*>{&combined, &*merged, &repeated}) {
    ASSERT_EQ(r->error_examples.size(), 3U);
    EXPECT_EQ(r->error_examples[0].first, "connect");
  }
  EXPECT_EQ(combined.warnings.front(), "a: every request used the same key");
  EXPECT_EQ(merged->warnings.front(), "a.json: every request used the same key");
  EXPECT_EQ(repeated.warnings.back(), "repeat 2: the target answered 404");
}

// A warning every part gave is said once, with every part's label; one given only by some parts keeps theirs.
TEST(AddMetadata, AWarningSeveralPartsGaveIsSaidOnce) {
  RunResults a, b, c;
  a.warnings = {"every request used the same key", "the target answered 404"};
  b.warnings = {"every request used the same key"};
  c.warnings = {"every request used the same key"};
  RunResults all;
  all.add_metadata(a, "repeat 1", PartsRan::one_after_another);
  all.add_metadata(b, "repeat 2", PartsRan::one_after_another);
  all.add_metadata(c, "repeat 3", PartsRan::one_after_another);
  const std::vector<std::string> want{"repeat 1, repeat 2, repeat 3: every request used the same key",
                                      "repeat 1: the target answered 404"};
  EXPECT_EQ(all.warnings, want);
  RunResults unlabelled;
  unlabelled.add_metadata(b, "", PartsRan::side_by_side);
  unlabelled.add_metadata(c, "", PartsRan::side_by_side);
  EXPECT_EQ(unlabelled.warnings, std::vector<std::string>{"every request used the same key"});
}

}  // namespace
}  // namespace openloop::results
