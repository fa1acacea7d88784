// Trace files read as a stream: line numbers in errors, --skip-bad, blank lines, a truncated last line, long
// lines, format detection, rewinding.
#include "workload/trace_reader.h"

#include <gtest/gtest.h>

#include <sstream>

#include "workload/jsonl_trace.h"
#include "workload_test_util.h"

namespace openloop::workload {
namespace {

TraceReader jsonl(std::string text, bool skip_bad = false) {
  return TraceReader("t.jsonl", std::make_unique<std::istringstream>(std::move(text)),
                     std::make_unique<JsonlTraceParser>(), skip_bad);
}

TEST(TraceReader, ReadsRecordsWithTheirLinesAndIgnoresBlankOnes) {
  auto r = jsonl("{\"t\":1,\"url\":\"/a\"}\n\n  \n{\"t\":2,\"url\":\"/b\"}\r\n");
  TraceRecord rec;
  ASSERT_TRUE(*r.next(rec));
  EXPECT_EQ(rec.line, 1U);
  ASSERT_TRUE(*r.next(rec));
  EXPECT_EQ(rec.line, 4U);
  EXPECT_EQ(rec.target, "/b");
  EXPECT_FALSE(*r.next(rec));
}

TEST(TraceReader, ABadLineIsAnErrorNamingFileAndLine) {
  auto r = jsonl("{\"t\":1,\"url\":\"/a\"}\n{\"t\":2,\"url\":\"/b\"");  // truncated last line
  TraceRecord rec;
  ASSERT_TRUE(*r.next(rec));
  const auto bad = r.next(rec);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("t.jsonl:2: not a JSON object", 0), 0U) << bad.error().message;
  EXPECT_NE(bad.error().message.find("--skip-bad"), std::string::npos);
}

TEST(TraceReader, SkipBadCountsAndKeepsTheFirstMessage) {
  auto r = jsonl("nope\n{\"t\":1,\"url\":\"/a\"}\n{\"t\":\"x\",\"url\":\"/\"}\n{\"t\":2,\"url\":\"/b\"}\n", true);
  TraceRecord rec;
  int n = 0;
  while (*r.next(rec)) ++n;
  EXPECT_EQ(n, 2);
  EXPECT_EQ(r.skipped(), 2U);
  EXPECT_EQ(r.first_skipped().rfind("t.jsonl:1:", 0), 0U) << r.first_skipped();
}

TEST(TraceReader, ALineLongerThanTheCapIsBadAndTheNextLineStillReads) {
  std::string text = "{\"t\":1,\"url\":\"/" + std::string(k_max_trace_line + 10, 'a') + "\"}\n";
  text += "{\"t\":2,\"url\":\"/b\"}\n";
  auto r = jsonl(text, true);
  TraceRecord rec;
  ASSERT_TRUE(*r.next(rec));
  EXPECT_EQ(rec.line, 2U);
  EXPECT_EQ(r.skipped(), 1U);
  EXPECT_NE(r.first_skipped().find("longer than"), std::string::npos);
}

TEST(TraceReader, RewindReadsFromTheTopAgain) {
  auto r = jsonl("{\"t\":1,\"url\":\"/a\"}\n");
  TraceRecord rec;
  ASSERT_TRUE(*r.next(rec));
  ASSERT_FALSE(*r.next(rec));
  ASSERT_TRUE(r.rewind());
  ASSERT_TRUE(*r.next(rec));
  EXPECT_EQ(rec.line, 1U);
}

TEST(TraceReader, OpenDetectsTheFormat) {
  test_util::ScratchDir dir;
  const auto j = dir.write("a.jsonl", "\n{\"t\":1,\"url\":\"/a\"}\n");
  const auto n = dir.write("a.log", R"(1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /n HTTP/1.1" 200 1 "-" "-")"
                                    "\n");
  TraceRecord rec;
  auto rj = open_trace({j, TraceFormat::automatic, "", false, 1});
  ASSERT_TRUE(rj) << rj.error().message;
  ASSERT_TRUE(*rj->next(rec));
  EXPECT_EQ(rec.target, "/a");
  auto rn = open_trace({n, TraceFormat::automatic, "", false, 1});
  ASSERT_TRUE(rn) << rn.error().message;
  ASSERT_TRUE(*rn->next(rec));
  EXPECT_EQ(rec.target, "/n");
  EXPECT_TRUE(rn->spreads_seconds());
  const auto missing = open_trace({dir.write("e", "") + ".missing", TraceFormat::jsonl, "", false, 1});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("cannot open"), std::string::npos);
  EXPECT_FALSE(open_trace({dir.write("empty", "\n\n"), TraceFormat::automatic, "", false, 1}));
}

TEST(TraceReader, LinesWithoutARequestAreCountedApartAndSkippedWithoutSkipBad) {
  test_util::ScratchDir dir;
  const auto path = dir.write("a.log", R"(1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /n HTTP/1.1" 200 1 "-" "-")"
                                       "\n"
                                       R"(1.2.3.4 - - [10/Oct/2000:13:55:37 -0700] "" 400 0 "-" "-")"
                                       "\n"
                                       R"(1.2.3.4 - - [10/Oct/2000:13:55:38 -0700] "GET /m HTTP/1.1" 200 1 "-" "-")"
                                       "\n");
  auto r = open_trace({path, TraceFormat::nginx, "", false, 1});
  ASSERT_TRUE(r) << r.error().message;
  TraceRecord rec;
  ASSERT_TRUE(*r->next(rec));
  ASSERT_TRUE(*r->next(rec));
  EXPECT_EQ(rec.target, "/m");
  EXPECT_EQ(rec.line, 3U);
  EXPECT_FALSE(*r->next(rec));
  EXPECT_EQ(r->no_requests(), 1U);
  EXPECT_EQ(r->skipped(), 0U) << "not a bad line";
  EXPECT_EQ(r->first_no_request(), path + ":2");
}

TEST(TraceReader, ANonUtf8JsonLineIsRefusedWithItsLineOrSkippedAndCounted) {
  const std::string text = "{\"t\":1,\"url\":\"/a\"}\n{\"t\":2,\"url\":\"/\xff\xfe\"}\n{\"t\":3,\"url\":\"/c\"}\n";
  auto strict = jsonl(text);
  TraceRecord rec;
  ASSERT_TRUE(*strict.next(rec));
  const auto bad = strict.next(rec);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("t.jsonl:2:", 0), 0U) << bad.error().message;
  auto lenient = jsonl(text, true);
  int n = 0;
  while (*lenient.next(rec)) ++n;
  EXPECT_EQ(n, 2);
  EXPECT_EQ(lenient.skipped(), 1U);
}

TEST(TraceReader, OpenDetectsHarByItsNameAndApacheIsNamed) {
  test_util::ScratchDir dir;
  const auto h = dir.write("x.har", "{\"log\":{\"entries\":[{\"startedDateTime\":\"2026-12-01T10:00:00Z\","
                                    "\"request\":{\"method\":\"GET\",\"url\":\"/h\"}}]}}");
  TraceRecord rec;
  auto rh = open_trace({h, TraceFormat::automatic, "", false, 1});
  ASSERT_TRUE(rh) << rh.error().message;
  ASSERT_TRUE(*rh->next(rec));
  EXPECT_EQ(rec.target, "/h");
  const auto a = dir.write("access_log", R"(::1 - - [10/Oct/2000:13:55:36 -0700] "GET /ap HTTP/1.1" 200 -)"
                                         "\n");
  auto ra = open_trace({a, TraceFormat::apache, "", false, 1});
  ASSERT_TRUE(ra) << ra.error().message;
  ASSERT_TRUE(*ra->next(rec));
  EXPECT_EQ(rec.target, "/ap");
  EXPECT_TRUE(ra->spreads_seconds());
}

TEST(TraceReader, FormatNamesAreParsedWithTheAcceptedOnesInTheError) {
  EXPECT_EQ(*parse_trace_format("nginx", "--replay-format"), TraceFormat::nginx);
  EXPECT_EQ(*parse_trace_format("har", "--replay-format"), TraceFormat::har);
  EXPECT_EQ(*parse_trace_format("apache", "--replay-format"), TraceFormat::apache);
  const auto bad = parse_trace_format("csv", "--replay-format");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("auto, nginx, apache, har or jsonl"), std::string::npos);
}

}  // namespace
}  // namespace openloop::workload
