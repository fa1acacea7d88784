// The JSONL fast path (workload/jsonl_flat.h) against nlohmann's reading of the same line: every line it
// takes gives exactly the record parse_jsonl_document() gives, it takes the common shapes, and it leaves to
// the full parser every line that is bad or that it cannot read alike.
#include "workload/jsonl_flat.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "workload/jsonl_trace.h"

namespace openloop::workload {
namespace {

void expect_same(const TraceRecord& a, const TraceRecord& b, std::string_view line) {
  EXPECT_EQ(a.t, b.t) << line;
  EXPECT_EQ(a.method, b.method) << line;
  EXPECT_EQ(a.target, b.target) << line;
  ASSERT_EQ(a.headers.size(), b.headers.size()) << line;
  for (std::size_t i = 0; i < a.headers.size(); ++i) {
    EXPECT_EQ(a.headers[i].name, b.headers[i].name) << line;
    EXPECT_EQ(a.headers[i].value, b.headers[i].value) << line;
  }
  EXPECT_EQ(a.body, b.body) << line;
  EXPECT_EQ(a.session, b.session) << line;
  EXPECT_EQ(a.status, b.status) << line;
  EXPECT_EQ(a.response_bytes, b.response_bytes) << line;
}

// True when the fast path took `line`; then its record must be the document's.
bool flat_agrees(std::string_view line) {
  TraceRecord flat, document;
  std::string scratch;
  if (!parse_jsonl_flat(line, flat, scratch)) return false;
  const auto parsed = parse_jsonl_document(line, document);
  EXPECT_TRUE(parsed) << "the fast path took a line the document refuses: " << line;
  if (parsed) expect_same(flat, document, line);
  return true;
}

// Lines of every shape the fast path takes.
const std::vector<std::string>& common_lines() {
  static const std::vector<std::string> lines = {
      R"({"t": 12.345, "url": "/item/1"})",
      R"({"t":0,"url":"/"})",
      R"(  {"t": 1e3, "url": "/a"}  )",
      R"({"t": -2.5E-3, "url": "/a?b=c&d"})",
      R"({"t": 1733050000.123456, "method": "POST", "url": "http://prod.example/x?y", "body": "{\"n\": 1}"})",
      R"({"t": "2026-12-01T10:00:00.123Z", "url": "HTTPS://h:8443"})",
      R"({"t": 1, "url": "?q=1"})",
      R"({"t": 1, "url": "/", "headers": {"X-B": "2", "X-A": "1", "Authorization": "Bearer x"}})",
      R"({"t": 1, "url": "/", "headers": {}})",
      R"({"t": 1, "url": "/", "body_b64": "AAEC/w=="})",
      R"({"t": 1, "url": "/", "session": "abc", "status": 404, "response_bytes": 1234})",
      R"({"t": 1, "url": "/", "session": 37})",
      R"({"t": 1, "url": "/", "session": -0})",
      R"({"t": 1, "url": "/", "status": 200.5, "response_bytes": -3})",
      R"({"t": 1, "url": "/", "status": "200", "response_bytes": null})",
      R"({"t": 1, "url": "/", "extra": {"a": [1, 2.5, {"b": null}], "c": true}, "more": [], "x": false})",
      R"({"t": 1, "url": "/", "note": "tab\tquote\"slash\/back\\"})",
      R"({"t": 1, "url": "/", "body": "line\nbreak"})",
  };
  return lines;
}

TEST(JsonlFlat, TakesTheCommonLinesAndGivesTheDocumentsRecord) {
  for (const auto& line : common_lines())
    EXPECT_TRUE(flat_agrees(line)) << "left to the full parser: " << line;
}

TEST(JsonlFlat, EveryOneByteChangeOfACommonLineReadsAsTheDocumentReadsIt) {
  // Each byte of each common line deleted, or replaced by a character that matters to JSON: whatever the fast
  // path takes of these (some thousands of lines, most of them broken), the document reads the same.
  constexpr std::string_view k_bytes = "\"\\,:{}[]0-.eE tx\x01\x80";
  std::size_t taken = 0, tried = 0;
  for (const auto& line : common_lines()) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      std::string deleted = line;
      deleted.erase(i, 1);
      taken += flat_agrees(deleted) ? 1 : 0;
      ++tried;
      for (const char c : k_bytes) {
        std::string changed = line;
        changed[i] = c;
        taken += flat_agrees(changed) ? 1 : 0;
        ++tried;
      }
    }
  }
  EXPECT_GT(taken, 0U);
  EXPECT_LT(taken, tried);
}

TEST(JsonlFlat, LeavesBadAndUnusualLinesToTheFullParser) {
  const std::vector<std::string> lines = {
      // Bad: the document refuses them too, with the message.
      "",
      "[]",
      "{}",
      "{",
      R"({"t": 1})",
      R"({"url": "/"})",
      R"({"t": 1, "url": "x"})",
      R"({"t": 1, "url": "/"} x)",
      R"({"t": 1, "url": "/",})",
      R"({"t": 01, "url": "/"})",
      R"({"t": 1., "url": "/"})",
      R"({"t": 1e400, "url": "/"})",
      R"({"t": 1e10, "url": "/"})",
      R"({"t": true, "url": "/"})",
      R"({"t": "yesterday", "url": "/"})",
      R"({"t": 1, "url": "/a b"})",
      R"({"t": 1, "url": "/", "method": "G T"})",
      R"({"t": 1, "url": "/", "method": 1})",
      R"({"t": 1, "url": "/", "headers": {"X": 1}})",
      R"({"t": 1, "url": "/", "headers": {"X Y": "v"}})",
      R"({"t": 1, "url": "/", "headers": {"X": "a\r\nb"}})",
      R"({"t": 1, "url": "/", "headers": []})",
      R"({"t": 1, "url": "/", "body": "a", "body_b64": "AA=="})",
      R"({"t": 1, "url": "/", "body_b64": "!"})",
      R"({"t": 1, "url": "/", "body": 3})",
      R"({"t": 1, "url": "/", "session": [1]})",
      R"({"t": 1, "url": "/", "status": 42})",
      R"({"t": 1, "url": "/", "x": tru})",
      "{\"t\": 1, \"url\": \"/\", \"body\": \"a\x01\"}",
      // Good, but read alike only by the document: duplicates, \u escapes, text past ASCII, big numbers,
      // fractions in a session, nesting past 32.
      R"({"t": 1, "t": 2, "url": "/"})",
      R"({"t": 1, "url": "/", "headers": {"X": "a", "X": "b"}})",
      R"({"t": 1, "url": "/\u0061"})",
      "{\"t\": 1, \"url\": \"/\", \"body\": \"caf\xc3\xa9\"}",
      R"({"t": 1, "url": "/", "status": 1234567890123456789012})",
      R"({"t": 1, "url": "/", "session": 1.50})",
      R"({"t": 1, "url": "/", "x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]})",
  };
  for (const auto& line : lines) EXPECT_FALSE(flat_agrees(line)) << "taken by the fast path: " << line;
}

TEST(JsonlFlat, TheParserGivesTheDocumentsRecordOrErrorEitherWay) {
  // Through JsonlTraceParser, a line left to the full parser after the fast path filled part of the record
  // comes out as if read by the document alone.
  JsonlTraceParser parser;
  TraceRecord r;
  r.line = 9;
  ASSERT_TRUE(parser.parse(R"({"url": "/kept", "headers": {"X": "v"}, "t": 1, "t": 2})", r));
  TraceRecord document;
  ASSERT_TRUE(parse_jsonl_document(R"({"url": "/kept", "headers": {"X": "v"}, "t": 1, "t": 2})", document));
  expect_same(r, document, "duplicate t");
  EXPECT_EQ(r.line, 9U);
  r.clear();
  const auto bad = parser.parse(R"({"t": 1, "url": "no-slash"})", r);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("url \"no-slash\": expected a path"), std::string::npos);
}

}  // namespace
}  // namespace openloop::workload
