#include "core/suggest.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace openloop {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("rate", "rate"), 0u);
  EXPECT_EQ(edit_distance("rat", "rate"), 1u);    // insertion
  EXPECT_EQ(edit_distance("ratee", "rate"), 1u);  // deletion
  EXPECT_EQ(edit_distance("rote", "rate"), 1u);   // substitution
  EXPECT_EQ(edit_distance("rtae", "rate"), 1u);   // neighbours swapped
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(ClosestName, SuggestsTheNearestRegisteredName) {
  const std::vector<std::string> names{"--rate", "--duration", "--threads", "--timeout", "--think"};
  EXPECT_EQ(closest_name("--rat", names), "--rate");
  EXPECT_EQ(closest_name("--rtae", names), "--rate");
  EXPECT_EQ(closest_name("--thread", names), "--threads");
  EXPECT_EQ(closest_name("--timeuot", names), "--timeout");
}

TEST(ClosestName, APrefixOfThreeLettersOrMoreCountsAsOneEdit) {
  const std::vector<std::string> names{"--rate", "--duration"};
  EXPECT_EQ(closest_name("--dur", names), "--duration");
  EXPECT_EQ(closest_name("--du", names), std::nullopt);  // two letters say too little
}

TEST(ClosestName, SuggestsNothingWhenNothingIsNear) {
  const std::vector<std::string> names{"--rate", "--duration", "--threads"};
  EXPECT_EQ(closest_name("--zzzzzz", names), std::nullopt);
  EXPECT_EQ(closest_name("--verbose", names), std::nullopt);
  // Short names: two edits would turn anything into anything.
  EXPECT_EQ(closest_name("-x", std::vector<std::string>{"-d", "-t"}), std::nullopt);
  EXPECT_EQ(closest_name("--rate", std::vector<std::string>{}), std::nullopt);
}

TEST(ClosestName, TiesGoToTheFirstCandidate) {
  EXPECT_EQ(closest_name("--tame", std::vector<std::string>{"--time", "--take"}), "--time");
}

}  // namespace
}  // namespace openloop
