// Tests for VariableSet and VariableState: declaration rules, one value per draw, per-worker determinism.
#include "workload/variables.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace openloop;
using namespace openloop::workload;

namespace {

VariableSet sample_set() {
  VariableSet set;
  EXPECT_TRUE(set.declare("sku", Generator::zipf(1000, 1.1), "variables.sku"));
  EXPECT_TRUE(set.declare("n", Generator::sequence(1), "variables.n"));
  set.add_inline(Generator::uniform(1, 1'000'000));
  return set;
}

std::vector<std::string> run(const VariableSet& set, std::uint64_t seed, unsigned worker, unsigned workers) {
  VariableState state(set, seed, worker, workers);
  std::vector<std::string> out;
  for (int i = 0; i < 200; ++i) {
    state.new_draw();
    for (std::size_t v = 0; v < set.size(); ++v) out.emplace_back(state.value(v));
  }
  return out;
}

}  // namespace

TEST(VariableSet, FindsNamedVariablesAndLabelsInlineOnesByTheirExpression) {
  const VariableSet set = sample_set();
  EXPECT_EQ(set.find("sku"), 0U);
  EXPECT_EQ(set.find("n"), 1U);
  EXPECT_FALSE(set.find("nope"));
  EXPECT_FALSE(set.find(""));
  EXPECT_EQ(set.label(0), "sku");
  EXPECT_EQ(set.label(2), "uniform(1, 1000000)");
}

TEST(VariableSet, RefusesBadAndRepeatedNames) {
  VariableSet set = sample_set();
  auto repeated = set.declare("sku", Generator::sequence(1), "plan.yaml:9:3: variables.sku");
  ASSERT_FALSE(repeated);
  EXPECT_EQ(repeated.error().message, "plan.yaml:9:3: variables.sku: variable \"sku\" is declared twice");
  auto bad = set.declare("1st", Generator::sequence(1), "variables.1st");
  ASSERT_FALSE(bad);
  EXPECT_EQ(
      bad.error().message,
      "variables.1st: \"1st\" is not a variable name; use letters, digits and _ (not starting with a digit), "
      "e.g. sku or user_id");
}

TEST(VariableState, EveryUseWithinOneDrawSeesTheSameValue) {
  const VariableSet set = sample_set();
  VariableState state(set, 1, 0, 1);
  state.new_draw();
  const std::string first(state.value(2));
  EXPECT_EQ(state.value(2), first);
  EXPECT_EQ(state.value(1), "1");
  EXPECT_EQ(state.value(1), "1");
  state.new_draw();
  EXPECT_EQ(state.value(1), "2");
}

TEST(VariableState, SameSeedAndWorkerGiveTheSameValues) {
  const VariableSet set = sample_set();
  EXPECT_EQ(run(set, 7, 1, 4), run(set, 7, 1, 4));
  EXPECT_NE(run(set, 7, 1, 4), run(set, 7, 2, 4));
  EXPECT_NE(run(set, 7, 1, 4), run(set, 8, 1, 4));
}

TEST(VariableState, EachVariableHasItsOwnStreamWhateverElseIsDrawn) {
  // Drawing other variables in between must not change a variable's own sequence.
  VariableSet set;
  ASSERT_TRUE(set.declare("a", Generator::uniform(0, 1'000'000), "a"));
  ASSERT_TRUE(set.declare("b", Generator::uniform(0, 1'000'000), "b"));
  VariableState alone(set, 3, 0, 1), mixed(set, 3, 0, 1);
  for (int i = 0; i < 100; ++i) {
    alone.new_draw();
    mixed.new_draw();
    mixed.value(1);
    EXPECT_EQ(alone.value(0), mixed.value(0));
  }
}

TEST(VariableState, StreamsAreDisjointFromTheArrivalSchedulesStreams) {
  EXPECT_GE(VariableState::stream_of(0, 0), std::uint64_t{1} << 32);
  EXPECT_NE(VariableState::stream_of(0, 1), VariableState::stream_of(1, 0));
}
