// Traces sorted by time offline: in memory, and spilled in chunks and merged (the same order either way),
// equal stamps in file order, bad lines and lines without a request left out, the chunk limit refused.
#include "workload/trace_sort.h"

#include <gtest/gtest.h>

#include <sstream>

#include <fmt/format.h>

#include "workload/jsonl_trace.h"

namespace openloop::workload {
namespace {

TraceReader jsonl(std::string text, bool skip_bad = false) {
  return TraceReader("t.jsonl", std::make_unique<std::istringstream>(std::move(text)),
                     std::make_unique<JsonlTraceParser>(), skip_bad);
}

// 500 records whose stamps go back and forth (i * 7 mod 500), every tenth with the stamp of the one before.
std::string shuffled() {
  std::string text;
  for (int i = 0; i < 500; ++i) {
    const int t = (i % 10 == 9) ? ((i - 1) * 7) % 500 : (i * 7) % 500;
    text += fmt::format("{{\"t\": {}, \"url\": \"/r/{}\"}}\n", t, i);
  }
  return text;
}

std::vector<std::string> sorted_lines(std::string text, const TraceSortLimits& limits,
                                      TraceSortCounts& counts) {
  auto reader = jsonl(std::move(text));
  std::vector<std::string> out;
  auto got = sort_trace(reader, limits, [&](std::string_view line) -> Result<void> {
    out.emplace_back(line);
    return {};
  });
  EXPECT_TRUE(got) << got.error().message;
  if (got) counts = *got;
  return out;
}

TEST(TraceSort, SortsByStampWithFileOrderAmongEqualsInMemoryAndInChunks) {
  TraceSortCounts memory, spilled;
  const auto a = sorted_lines(shuffled(), TraceSortLimits{}, memory);
  const auto b = sorted_lines(shuffled(), TraceSortLimits{4096, 1000}, spilled);
  ASSERT_EQ(a.size(), 500U);
  EXPECT_EQ(a, b) << "chunks merged give the in-memory order";
  EXPECT_EQ(memory.chunks, 0U);
  EXPECT_GT(spilled.chunks, 3U);
  EXPECT_EQ(memory.records, 500U);
  EXPECT_GT(memory.out_of_order, 100U);
  // In order, and records with equal stamps in file order (/r/8 before /r/9, both at t = 56).
  double previous = -1;
  for (const auto& line : a) {
    const double t = std::stod(line.substr(line.find(':') + 1));
    EXPECT_GE(t, previous) << line;
    previous = t;
  }
  const auto at = [&](std::string_view url) {
    return std::find_if(a.begin(), a.end(),
                        [&](const std::string& l) { return l.find(url) != std::string::npos; }) -
           a.begin();
  };
  EXPECT_EQ(at("\"/r/8\"") + 1, at("\"/r/9\""));
}

TEST(TraceSort, BadLinesAreErrorsOrLeftOutWithSkipBad) {
  const std::string text = "{\"t\": 2, \"url\": \"/b\"}\nnope\n{\"t\": 1, \"url\": \"/a\"}\n";
  auto strict = jsonl(text);
  const auto bad = sort_trace(strict, {}, [](std::string_view) -> Result<void> { return {}; });
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("t.jsonl:2:", 0), 0U) << bad.error().message;
  auto lenient = jsonl(text, true);
  std::vector<std::string> out;
  const auto got = sort_trace(lenient, {}, [&](std::string_view l) -> Result<void> {
    out.emplace_back(l);
    return {};
  });
  ASSERT_TRUE(got);
  EXPECT_EQ(out, (std::vector<std::string>{"{\"t\": 1, \"url\": \"/a\"}", "{\"t\": 2, \"url\": \"/b\"}"}));
  EXPECT_EQ(lenient.skipped(), 1U);
}

TEST(TraceSort, MoreChunksThanTheLimitIsRefusedNamingIt) {
  auto reader = jsonl(shuffled());
  const auto got =
      sort_trace(reader, TraceSortLimits{4096, 2}, [](std::string_view) -> Result<void> { return {}; });
  ASSERT_FALSE(got);
  EXPECT_NE(got.error().message.find("more than 2 chunks"), std::string::npos) << got.error().message;
}

}  // namespace
}  // namespace openloop::workload
