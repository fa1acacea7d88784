// The compare table's columns: as wide as their widest cell, so huge changes never break the alignment.
#include "compare/text_table.h"

#include <gtest/gtest.h>

#include <sstream>

#include "compare/compare_report.h"

namespace openloop::compare {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(TextTable, ColumnsWidenToTheirWidestCellAndStayAligned) {
  using Align = TextTable::Align;
  TextTable t({{Align::left, 0, 4}, {Align::right, 1, 6}, {Align::left, 2, 0}});
  t.add({"", "change", "judgement"});
  t.add({"p50", "+1.0 %", "unchanged"});
  t.add({"p99", "+12,345 %", "increased"});
  const auto lines = lines_of(t.render());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "        change  judgement");
  EXPECT_EQ(lines[1], "p50     +1.0 %  unchanged");
  EXPECT_EQ(lines[2], "p99  +12,345 %  increased");
}

TEST(TextTable, WidthCountsCharactersNotBytes) {
  using Align = TextTable::Align;
  EXPECT_EQ(display_width("950µs"), 5u);
  EXPECT_EQ(display_width("×1.5"), 4u);
  TextTable t({{Align::right, 0, 0}, {Align::left, 1, 0}});
  t.add({"950µs", "a"});
  t.add({"1.25ms", "b"});
  const auto lines = lines_of(t.render());
  EXPECT_EQ(lines[0], " 950µs a");
  EXPECT_EQ(lines[1], "1.25ms b");
}

report::ReportInput run(const std::string& source, double scale) {
  report::ReportInput in;
  in.source = source;
  results::RunResults& r = in.results;
  r.info.plan = {{"rate", "1000/s"}, {"duration", "10s"}};
  r.measured_s = 10;
  r.totals.intended = r.totals.sent = r.totals.completed = r.totals.ok = 10000;
  for (int i = 1; i <= 10000; ++i)
    r.response_time.record(static_cast<std::int64_t>((1'000'000 + i * 100) * scale));
  return in;
}

// A candidate 2000 times slower: changes of about +199900 % (11 characters, the change column holds 10) and
// intervals of 26 (the column holds 22); every column of the table still starts where its header does.
TEST(CompareText, AHugeChangeKeepsTheTableAligned) {
  auto c = compare_runs(run("a.json", 1), run("b.json", 2000), {});
  ASSERT_TRUE(c) << c.error().message;
  const std::string text = render_text(*c);
  std::vector<std::string> rows;
  bool in_table = false;
  for (const std::string& line : lines_of(text)) {
    if (line.find("baseline") != std::string::npos && line.find("candidate") != std::string::npos &&
        line.find("judgement") != std::string::npos)
      in_table = true;
    if (in_table && line.empty()) break;
    if (in_table) rows.push_back(line);
  }
  ASSERT_GE(rows.size(), 5u) << text;
  const std::string& head = rows[0];
  const std::size_t judgement = display_width(head.substr(0, head.find("judgement")));
  bool huge = false;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::string& row = rows[i];
    huge = huge || row.find("+1999") != std::string::npos;
    // The judgement column: the same display column in every row, after a space.
    std::size_t bytes = 0, cols = 0;
    while (cols < judgement && bytes < row.size()) {
      if ((static_cast<unsigned char>(row[bytes]) & 0xC0) != 0x80) ++cols;
      ++bytes;
      while (bytes < row.size() && (static_cast<unsigned char>(row[bytes]) & 0xC0) == 0x80) ++bytes;
    }
    ASSERT_EQ(cols, judgement) << text;
    EXPECT_EQ(row[bytes - 1], ' ') << "row " << i << ":\n" << text;
    EXPECT_NE(row[bytes], ' ') << "row " << i << ":\n" << text;
  }
  EXPECT_TRUE(huge) << "the changes should be in the thousands of percent:\n" << text;
}

}  // namespace
}  // namespace openloop::compare
