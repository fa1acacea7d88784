// Tests for KeyTracker and the single-key warning (the seed's single-SKU story).
#include "workload/key_tracker.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace openloop::workload;

TEST(KeyTracker, CountsRequestsAndDistinctKeysExactlyBelowCapacity) {
  KeyTracker t;
  for (int i = 0; i < 1000; ++i) t.observe(std::to_string(i % 10));
  EXPECT_EQ(t.requests(), 1000U);
  EXPECT_EQ(t.distinct(), 10U);
  EXPECT_FALSE(t.saturated());
  EXPECT_EQ(t.first_key(), "0");
}

TEST(KeyTracker, SaturatesAtCapacityAndKeepsCounting) {
  KeyTracker t;
  for (int i = 0; i < 10000; ++i) t.observe(std::to_string(i));
  EXPECT_EQ(t.distinct(), KeyTracker::k_capacity);
  EXPECT_TRUE(t.saturated());
  EXPECT_EQ(t.requests(), 10000U);
}

TEST(KeyTracker, MergesWorkersWithoutCountingSharedKeysTwice) {
  KeyTracker a, b, empty;
  a.observe("x", 5);
  a.observe("y");
  b.observe("y", 3);
  b.observe("z");
  empty.merge(a);
  EXPECT_EQ(empty.first_key(), "x");
  a.merge(b);
  EXPECT_EQ(a.requests(), 10U);
  EXPECT_EQ(a.distinct(), 3U);
  KeyTracker full;
  for (int i = 0; i < 100; ++i) full.observe(std::to_string(i));
  b.merge(full);
  EXPECT_TRUE(b.saturated());
}

TEST(KeyTracker, TruncatesAVeryLongFirstKey) {
  KeyTracker t;
  t.observe(std::string(500, 'k'));
  EXPECT_EQ(t.first_key(), std::string(64, 'k'));
}

TEST(SingleKeyWarning, WarnsWhenEveryRequestOfTheRunHitOneKey) {
  KeyTracker t;
  t.observe("/item/42", 500);
  const RequestKeys keys[] = {{"get_item", false, &t}};
  const auto warnings = single_key_warnings(keys);
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_EQ(
      warnings[0],
      "every request was 'get_item' with the same key \"/item/42\": you may have measured a cache, not the "
      "service; draw keys from a production-shaped distribution, e.g. openloop run "
      "'http://host/item/{{zipf(10000, 1.1)}}', or path: /item/{{zipf(10000, 1.1)}} in a plan file "
      "(docs/scenarios.md)");
}

TEST(SingleKeyWarning, WarnsForATemplatedRequestThatNeverChangedItsKey) {
  KeyTracker one, many;
  one.observe("7", 200);
  for (int i = 0; i < 200; ++i) many.observe(std::to_string(i));
  const RequestKeys keys[] = {{"get_item", true, &one}, {"search", true, &many}};
  const auto warnings = single_key_warnings(keys);
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_EQ(
      warnings[0],
      "every 'get_item' request used the same key \"7\": you may have measured a cache; draw keys from a "
      "production-shaped distribution, e.g. openloop run 'http://host/item/{{zipf(10000, 1.1)}}', or path: "
      "/item/{{zipf(10000, 1.1)}} in a plan file (docs/scenarios.md)");
}

TEST(SingleKeyWarning, StaysQuietForVariedKeysDifferentRequestsOrTooFewRequests) {
  KeyTracker varied, a, b, few;
  for (int i = 0; i < 500; ++i) varied.observe(std::to_string(i % 50));
  a.observe("/a", 300);
  b.observe("/b", 300);
  few.observe("/x", 99);
  const RequestKeys v[] = {{"get", true, &varied}};
  const RequestKeys two[] = {{"a", false, &a}, {"b", false, &b}};
  const RequestKeys f[] = {{"x", true, &few}};
  EXPECT_TRUE(single_key_warnings(v).empty());
  EXPECT_TRUE(single_key_warnings(two).empty());
  EXPECT_TRUE(single_key_warnings(f).empty());
}
