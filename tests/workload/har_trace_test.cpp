// HAR 1.2 documents as traces: read as a stream of entries (other members read over), each entry a request;
// pseudo-headers dropped, RFC 3339 stamps with fractions and offsets, truncated files, documents that are not
// HAR.
#include "workload/har_trace.h"

#include <gtest/gtest.h>

#include <sstream>

#include "workload_test_util.h"

namespace openloop::workload {
namespace {

TraceReader har(std::string text, bool skip_bad = false) {
  return TraceReader(
      "t.har", std::make_unique<HarSplitter>("t.har", std::make_unique<std::istringstream>(std::move(text))),
      std::make_unique<HarEntryParser>(), skip_bad);
}

// Two entries as a browser writes them: pretty-printed, pages and creator before the entries, a response with
// content, an HTTP/2 pseudo-header, a brace and a bracket inside strings.
constexpr std::string_view k_two = R"({
  "log": {
    "version": "1.2",
    "creator": {"name": "WebInspector", "version": "537.36", "comment": "} ] { ["},
    "pages": [{"id": "page_1", "title": "x \"y\" }"}],
    "entries": [
      {
        "pageref": "page_1",
        "startedDateTime": "2026-12-01T10:00:00.250+01:00",
        "request": {
          "method": "GET",
          "url": "https://shop.example.com/items/7?q=a%20b",
          "headers": [{"name": ":authority", "value": "shop.example.com"}, {"name": "Accept", "value": "*/*"}],
          "cookies": [{"name": "sid", "value": "secret"}]
        },
        "response": {"status": 200, "content": {"size": 512, "text": "{\"a\": [1, 2]}"}}
      },
      {
        "startedDateTime": "2026-12-01T09:00:01.5Z",
        "request": {"method": "POST", "url": "http://h/login", "headers": [],
                    "postData": {"mimeType": "application/json", "text": "{\"u\": 1}"}},
        "response": {"status": 0, "bodySize": -1}
      }
    ]
  }
})";

TEST(HarTrace, ReadsEachEntryAsARequest) {
  auto r = har(std::string(k_two));
  TraceRecord rec;
  ASSERT_TRUE(*r.next(rec));
  EXPECT_EQ(rec.t, Nanos(1'796'115'600'250'000'000)) << "10:00:00.25+01:00 is 09:00:00.25Z";
  EXPECT_EQ(rec.method, "GET");
  EXPECT_EQ(rec.target, "/items/7?q=a%20b");
  ASSERT_EQ(rec.headers.size(), 1U) << "the :authority pseudo-header is not a header";
  EXPECT_EQ(rec.headers[0].name, "Accept");
  EXPECT_EQ(rec.session, "page_1");
  EXPECT_EQ(rec.status, 200);
  EXPECT_EQ(rec.response_bytes, 512);
  EXPECT_EQ(rec.line, 1U) << "a HAR record's number is its entry's";
  ASSERT_TRUE(*r.next(rec));
  EXPECT_EQ(rec.t, Nanos(1'796'115'601'500'000'000));
  EXPECT_EQ(rec.method, "POST");
  EXPECT_EQ(rec.target, "/login");
  EXPECT_EQ(rec.body, "{\"u\": 1}");
  EXPECT_EQ(rec.status, 0) << "status 0: no response";
  EXPECT_EQ(rec.response_bytes, -1);
  EXPECT_EQ(rec.line, 2U);
  EXPECT_FALSE(*r.next(rec));
  EXPECT_FALSE(*r.next(rec)) << "the end stays the end";
}

TEST(HarTrace, ABadEntryIsNamedByItsLineAndIndex) {
  const std::string doc =
      R"({"log":{"entries":[{"startedDateTime":"2026-12-01T10:00:00Z","request":{"method":"GET","url":"/a"}},)"
      R"({"startedDateTime":"yesterday","request":{"method":"GET","url":"/b"}}]}})";
  auto r = har(doc);
  TraceRecord rec;
  ASSERT_TRUE(*r.next(rec));
  const auto bad = r.next(rec);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("t.har:1: entry 2: startedDateTime: 'yesterday'", 0), 0U)
      << bad.error().message;
  EXPECT_NE(bad.error().message.find("--skip-bad counts and skips such entries"), std::string::npos);
}

TEST(HarTrace, ATruncatedFileEndsWithABadEntry) {
  const std::string doc =
      "{\"log\":{\"entries\":[\n{\"startedDateTime\":\"2026-12-01T10:00:00Z\",\"request\":{\"method\":"
      "\"GET\","
      "\"url\":\"/a\"}},\n{\"startedDateTime\":\"2026-12-01T10:00:01Z\",\"request\":{\"meth";
  auto strict = har(doc);
  TraceRecord rec;
  ASSERT_TRUE(*strict.next(rec));
  const auto bad = strict.next(rec);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("t.har:3: entry 2: not a JSON object (a truncated file?)", 0), 0U)
      << bad.error().message;
  auto lenient = har(doc, true);
  int n = 0;
  while (*lenient.next(rec)) ++n;
  EXPECT_EQ(n, 1);
  EXPECT_EQ(lenient.skipped(), 1U);
}

TEST(HarTrace, ADocumentThatIsNotHarIsRefusedWhateverSkipBadSays) {
  for (const std::string doc :
       {R"({"log": {"version": "1.2"}})", R"({"entries": []})", "[1, 2]", R"({"log": {"entries": {}}})",
        R"({"log": {"entries": [{"a": 1})", "{\"log\": {\"entries\": [\n "}) {
    auto r = har(doc, true);
    TraceRecord rec;
    Result<bool> got = r.next(rec);
    for (int i = 0; i < 4 && got && *got; ++i) got = r.next(rec);
    ASSERT_FALSE(got) << doc;
    EXPECT_NE(got.error().message.find("HAR"), std::string::npos) << got.error().message;
  }
  auto empty = har(R"({"log": {"entries": []}})");
  TraceRecord rec;
  EXPECT_FALSE(*empty.next(rec)) << "no entries: no records, no error";
}

TEST(HarTrace, Base64PostDataIsDecodedAndRewindReadsAgain) {
  auto r = har(R"({"log":{"entries":[{"startedDateTime":"2026-12-01T10:00:00Z","request":{"method":"PUT",)"
               R"("url":"/b","postData":{"text":"aGk=","encoding":"base64"}}}]}})");
  TraceRecord rec;
  ASSERT_TRUE(*r.next(rec));
  EXPECT_EQ(rec.body, "hi");
  EXPECT_FALSE(*r.next(rec));
  ASSERT_TRUE(r.rewind());
  ASSERT_TRUE(*r.next(rec));
  EXPECT_EQ(rec.target, "/b");
}

TEST(HarTrace, LooksLikeHarByItsFirstKey) {
  EXPECT_TRUE(looks_like_har("\xEF\xBB\xBF{\n  \"log\": {"));
  EXPECT_TRUE(looks_like_har("{\"log\":{\"entries\":[]}}"));
  EXPECT_FALSE(looks_like_har("{\"t\": 1, \"url\": \"/\"}"));
  EXPECT_FALSE(looks_like_har("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700]"));
}

TEST(HarTrace, OpenTraceDetectsHarAndAppliesTheCredentialRulesDownstream) {
  test_util::ScratchDir dir;
  const auto path = dir.write("rec.json", std::string(k_two));
  auto r = open_trace({path, TraceFormat::automatic, "", false, 1});
  ASSERT_TRUE(r) << r.error().message;
  TraceRecord rec;
  ASSERT_TRUE(*r->next(rec));
  EXPECT_EQ(rec.target, "/items/7?q=a%20b");
}

}  // namespace
}  // namespace openloop::workload
