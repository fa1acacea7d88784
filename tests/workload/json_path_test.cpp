// JSON paths: the accepted forms, their errors with a column, and the scanner finding values without a DOM.
#include "workload/json_path.h"

#include <gtest/gtest.h>

#include <string>

using namespace openloop;
using namespace openloop::workload;

namespace {

JsonPath path(std::string_view text) {
  auto p = JsonPath::parse(text, "here");
  EXPECT_TRUE(p) << (p ? "" : p.error().message);
  return p ? *p : JsonPath{};
}

std::string found(std::string_view json, std::string_view p) {
  auto v = json_find(json, path(p));
  if (!v) return "<none>";
  std::string out;
  EXPECT_TRUE(json_text(*v, out));
  return out;
}

}  // namespace

TEST(JsonPath, DollarFormsStepThroughMembersElementsAndQuotedNames) {
  const std::string doc =
      R"({"a": {"b": 7}, "items": [{"id": "x1"}, {"id": "x2"}], "odd key": [true, null]})";
  EXPECT_EQ(found(doc, "$.a.b"), "7");
  EXPECT_EQ(found(doc, "$.items[1].id"), "x2");
  EXPECT_EQ(found(doc, "$['odd key'][0]"), "true");
  EXPECT_EQ(found(doc, "$[\"odd key\"][1]"), "null");
  EXPECT_EQ(found(doc, "$.a"), R"({"b": 7})");
  EXPECT_EQ(found(doc, "$"), doc);
}

TEST(JsonPath, PointerFormFollowsRfc6901) {
  const std::string doc = R"({"data": {"token": "t-1", "a/b": 1, "m~n": 2, "list": [5, 6]}})";
  EXPECT_EQ(found(doc, "/data/token"), "t-1");
  EXPECT_EQ(found(doc, "/data/a~1b"), "1");
  EXPECT_EQ(found(doc, "/data/m~0n"), "2");
  EXPECT_EQ(found(doc, "/data/list/1"), "6");
  EXPECT_EQ(found(R"({"0": "zero"})", "/0"), "zero");  // an all-digit token names a member of an object
}

TEST(JsonPath, AbsentWrongKindAndMalformedAreNotFound) {
  EXPECT_EQ(found(R"({"a": 1})", "$.b"), "<none>");
  EXPECT_EQ(found(R"({"a": [1]})", "$.a[3]"), "<none>");
  EXPECT_EQ(found(R"({"a": [1]})", "$.a.b"), "<none>");
  EXPECT_EQ(found(R"({"a": 1})", "$[0]"), "<none>");
  EXPECT_EQ(found(R"({"a": {"b": )", "$.a.b"), "<none>");
  EXPECT_EQ(found("", "$.a"), "<none>");
  EXPECT_EQ(found("not json", "$.a"), "<none>");
}

TEST(JsonPath, SkipsStringsWithBracketsAndEscapedQuotesBeforeTheMember) {
  const std::string doc = R"({"s": "a \"}]{[\" b", "n": {"x": ["]", {"y": "}"}]}, "want": "yes"})";
  EXPECT_EQ(found(doc, "$.want"), "yes");
}

TEST(JsonPath, DecodesEscapesInStrings) {
  EXPECT_EQ(found(R"({"t": "a\"b\\c\/d\n\u00e9\ud83d\ude00"})", "$.t"),
            "a\"b\\c/d\n\xC3\xA9\xF0\x9F\x98\x80");
  auto v = json_find(R"({"t": "bad\q"})", path("$.t"));
  ASSERT_TRUE(v);
  std::string out;
  EXPECT_FALSE(json_text(*v, out));
}

TEST(JsonPath, NestingDeeperThanTheBoundIsNotSearched) {
  std::string deep = R"({"skip": )";
  for (std::size_t i = 0; i < k_json_max_depth + 1; ++i) deep += '[';
  for (std::size_t i = 0; i < k_json_max_depth + 1; ++i) deep += ']';
  deep += R"(, "want": 1})";
  EXPECT_EQ(found(deep, "$.want"), "<none>");
  std::string shallow = R"({"skip": [[[]]], "want": 1})";
  EXPECT_EQ(found(shallow, "$.want"), "1");
}

TEST(JsonPath, ErrorsNameThePathTheColumnAndTheForms) {
  auto e = JsonPath::parse("$.a..b", "plan.yaml:3:5: capture.json");
  ASSERT_FALSE(e);
  EXPECT_EQ(
      e.error().message,
      "plan.yaml:3:5: capture.json: JSON path \"$.a..b\", column 5: a member name is expected after '.'; "
      "use $.a.b, $.items[0].id, $['odd key'] or an RFC 6901 pointer such as /data/token");
  EXPECT_FALSE(JsonPath::parse("a.b", "w"));
  EXPECT_FALSE(JsonPath::parse("$.a[x]", "w"));
  EXPECT_FALSE(JsonPath::parse("$['open", "w"));
  EXPECT_FALSE(JsonPath::parse("/a~2", "w"));
  EXPECT_NE(JsonPath::parse("$.a[x]", "w").error().message.find("column 5"), std::string::npos);
}
