// The one rule every reader of openloop's files follows: what a count is, and how a missing or mistyped field
// is refused (the file, the JSON path and what was expected).
#include "results/json_reader.h"

#include <gtest/gtest.h>

namespace openloop::results {
namespace {

const nlohmann::json k_doc = nlohmann::json::parse(R"({
  "counts": {"ok": 3, "float": 3.0, "exp": 3e2, "negative": -1, "fraction": 2.5, "text": "3", "none": null,
             "huge": 18446744073709551615, "too_precise": 1e17},
  "list": ["a", 2]
})");

std::string refusal_of(const Result<std::uint64_t>& r) {
  return r ? "accepted" : r.error().message;
}

TEST(JsonReader, ACountIsANonNegativeIntegerWrittenWithOrWithoutAFraction) {
  const JsonReader rd("f.json");
  const JsonNode root = *rd.root(k_doc, "an object");
  const JsonNode counts = *rd.field(root, "counts", JsonKind::object);
  EXPECT_EQ(*rd.count(counts, "ok"), 3U);
  EXPECT_EQ(*rd.count(counts, "float"), 3U);
  EXPECT_EQ(*rd.count(counts, "exp"), 300U);
  EXPECT_EQ(*rd.count(counts, "huge"), UINT64_MAX);
  EXPECT_EQ(refusal_of(rd.count(counts, "negative")),
            "f.json: /counts/negative: expected a non-negative integer, found -1");
  EXPECT_EQ(refusal_of(rd.count(counts, "fraction")),
            "f.json: /counts/fraction: expected a non-negative integer, found 2.5");
  EXPECT_EQ(refusal_of(rd.count(counts, "text")),
            "f.json: /counts/text: expected a non-negative integer, found string");
  // Beyond 2^53 a double does not hold every integer: written as one, the count cannot be trusted.
  EXPECT_EQ(refusal_of(rd.count(counts, "too_precise")),
            "f.json: /counts/too_precise: expected a non-negative integer, found 1e+17");
}

TEST(JsonReader, AMissingRequiredFieldNamesTheFileThePathAndTheKind) {
  const JsonReader rd("f.json");
  const JsonNode counts = *rd.field(*rd.root(k_doc, "an object"), "counts", JsonKind::object);
  EXPECT_EQ(refusal_of(rd.count(counts, "absent")),
            "f.json: /counts/absent: missing (expected a non-negative integer)");
  EXPECT_EQ(refusal_of(rd.count(counts, "none")),
            "f.json: /counts/none: expected a non-negative integer, found null");
  const auto number = rd.number(counts, "text");
  ASSERT_FALSE(number);
  EXPECT_EQ(number.error().message, "f.json: /counts/text: expected a number, found string");
  EXPECT_EQ(number.error().code, ExitCode::usage);
}

TEST(JsonReader, AnOptionalFieldAbsentOrNullTakesItsDefaultButPresentMustBeOfItsKind) {
  const JsonReader rd("f.json");
  const JsonNode counts = *rd.field(*rd.root(k_doc, "an object"), "counts", JsonKind::object);
  EXPECT_EQ(*rd.count_or(counts, "absent", 7), 7U);
  EXPECT_EQ(*rd.count_or(counts, "none", 7), 7U);
  EXPECT_EQ(*rd.count_or(counts, "ok", 7), 3U);
  EXPECT_EQ(refusal_of(rd.count_or(counts, "fraction", 7)),
            "f.json: /counts/fraction: expected a non-negative integer, found 2.5");
  EXPECT_FALSE(*rd.optional_number(counts, "none"));
  EXPECT_FALSE(rd.number_or(counts, "text", 1.0));
}

TEST(JsonReader, ElementsAndTheRootNameTheirPath) {
  const JsonReader rd("f.json");
  const JsonNode root = *rd.root(k_doc, "an object");
  const auto strings = rd.strings(root, "list");
  ASSERT_FALSE(strings);
  EXPECT_EQ(strings.error().message, "f.json: /list/1: expected a string, found 2");
  const auto not_object = rd.root(nlohmann::json::array(), "a results object");
  ASSERT_FALSE(not_object);
  EXPECT_EQ(not_object.error().message, "f.json: /: expected a results object, found array");
}

}  // namespace
}  // namespace openloop::results
