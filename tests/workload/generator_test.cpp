// Tests for Generator: semantics of every generator (incl. sharding), expression parsing and its errors, CSV.
#include "workload/generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "workload/csv_column.h"
#include "workload_test_util.h"

using namespace openloop;
using namespace openloop::workload;

namespace {

Generator parse(std::string_view text, const std::filesystem::path& dir = ".") {
  auto g = Generator::parse(text, "variables.x", dir);
  EXPECT_TRUE(g) << (g ? "" : g.error().message);
  return g ? *g : Generator::sequence(0);
}

std::string parse_error(std::string_view text, const std::filesystem::path& dir = ".") {
  auto g = Generator::parse(text, "variables.x", dir);
  EXPECT_FALSE(g) << text;
  if (g) return {};
  EXPECT_EQ(g.error().code, ExitCode::usage);
  return g.error().message;
}

std::vector<std::string> draws(const Generator& g, int n, unsigned worker = 0, unsigned workers = 1) {
  GeneratorState state = g.start(1, 100 + worker, worker, workers);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.emplace_back(g.next(state));
  return out;
}

constexpr std::string_view k_accepted =
    "; accepted: zipf(N, S), uniform(A, B), sequence(START), choice(V1, V2, ...), csv(FILE, COLUMN[, "
    "random])";

}  // namespace

TEST(UniformGenerator, DrawsEveryIntegerOfItsClosedRangeEvenly) {
  std::map<std::string, int> counts;
  for (const auto& v : draws(parse("uniform(-1, 2)"), 40000)) ++counts[v];
  ASSERT_EQ(counts.size(), 4U);
  for (const char* v : {"-1", "0", "1", "2"}) EXPECT_NEAR(counts[v], 10000, 400) << v;
}

TEST(UniformGenerator, HandlesTheFull64BitRange) {
  const Generator g = parse("uniform(-9223372036854775808, 9223372036854775807)");
  EXPECT_EQ(g.cardinality(), UINT64_MAX);
  const auto values = draws(g, 100);
  EXPECT_GT(std::set<std::string>(values.begin(), values.end()).size(), 95U);
}

TEST(SequenceGenerator, CountsUpFromItsStartOnOneWorker) {
  EXPECT_EQ(draws(parse("sequence(5)"), 4), (std::vector<std::string>{"5", "6", "7", "8"}));
}

TEST(SequenceGenerator, ShardedWorkersTogetherYieldTheGlobalSequenceOnce) {
  const Generator g = parse("sequence(100)");
  const unsigned workers = 3;
  std::vector<long> all;
  for (unsigned w = 0; w < workers; ++w) {
    const auto mine = draws(g, 50, w, workers);
    for (std::size_t i = 0; i < mine.size(); ++i) {
      EXPECT_EQ(std::stol(mine[i]), 100 + static_cast<long>(w) + static_cast<long>(i * workers));
      all.push_back(std::stol(mine[i]));
    }
  }
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], 100 + static_cast<long>(i));
}

TEST(ChoiceGenerator, PicksEachValueWithEqualChance) {
  const Generator g = parse(R"(choice(eu, "us, east", ap))");
  ASSERT_NE(g.values(), nullptr);
  EXPECT_EQ(*g.values(), (std::vector<std::string>{"eu", "us, east", "ap"}));
  std::map<std::string, int> counts;
  for (const auto& v : draws(g, 30000)) ++counts[v];
  for (const char* v : {"eu", "us, east", "ap"}) EXPECT_NEAR(counts[v], 10000, 400) << v;
}

TEST(ChoiceGenerator, QuotedValuesKeepSpacesQuotesAndBackslashes) {
  const Generator g = parse(R"(choice(" a ", "say \"hi\"", "c:\\d", plain))");
  EXPECT_EQ(*g.values(), (std::vector<std::string>{" a ", "say \"hi\"", "c:\\d", "plain"}));
  EXPECT_EQ(*parse(g.text()).values(), *g.values()) << g.text();
}

TEST(ZipfGenerator, DrawsRanksWithinOneToN) {
  const Generator g = parse("zipf(10, 1.1)");
  EXPECT_EQ(g.text(), "zipf(10, 1.1)");
  EXPECT_EQ(g.cardinality(), 10U);
  for (const auto& v : draws(g, 1000)) {
    EXPECT_GE(std::stoi(v), 1);
    EXPECT_LE(std::stoi(v), 10);
  }
}

TEST(CsvGenerator, ReadsRowsRoundRobinAndShardsRowsAcrossWorkers) {
  test_util::ScratchDir dir;
  dir.write("u.csv", "id,name\n1,a\n2,b\n3,c\n4,d\n5,e\n");
  const Generator g = parse("csv(u.csv, name)", dir.path());
  EXPECT_EQ(draws(g, 7), (std::vector<std::string>{"a", "b", "c", "d", "e", "a", "b"}));
  EXPECT_EQ(draws(g, 5, 0, 2), (std::vector<std::string>{"a", "c", "e", "b", "d"}));
  EXPECT_EQ(draws(g, 5, 1, 2), (std::vector<std::string>{"b", "d", "a", "c", "e"}));
  EXPECT_EQ(g.text(), "csv(u.csv, name)");
}

TEST(CsvGenerator, RandomDrawsRowsUniformly) {
  test_util::ScratchDir dir;
  dir.write("u.csv", "id\nx\ny\n");
  std::map<std::string, int> counts;
  for (const auto& v : draws(parse("csv(u.csv, 0, random)", dir.path()), 20000)) ++counts[v];
  EXPECT_NEAR(counts["x"], 10000, 400);
  EXPECT_NEAR(counts["y"], 10000, 400);
}

TEST(CsvColumn, ReadsQuotedFieldsCrlfAndSkipsBlankLines) {
  test_util::ScratchDir dir;
  const auto file = dir.write("q.csv", "a,b\r\n\"x, 1\",\"say \"\"hi\"\"\"\r\n\r\n\"multi\nline\",z\r\n");
  auto b = load_csv_column(file, "b", "csv");
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(*b, (std::vector<std::string>{"say \"hi\"", "z"}));
  auto a = load_csv_column(file, "a", "csv");
  EXPECT_EQ(*a, (std::vector<std::string>{"x, 1", "multi\nline"}));
}

TEST(CsvColumn, ErrorsNameTheFileTheLineAndWhatIsAccepted) {
  test_util::ScratchDir dir;
  const std::string p = dir.path().string();
  auto err = [&](std::string_view name, std::string_view content, std::string_view column) {
    const auto file = dir.write(name, content);
    auto r = load_csv_column(file, column, "csv");
    EXPECT_FALSE(r);
    return r ? std::string() : r.error().message;
  };
  EXPECT_EQ(
      err("a.csv", "id,name\n1,x\n", "email"),
      "csv: " + p + "/a.csv: no column \"email\"; the header names id, name (or give a 0-based position)");
  EXPECT_EQ(err("b.csv", "id,name\n1,x\n2\n", "name"),
            "csv: " + p +
                "/b.csv:3: the row has 1 field(s), too few for column \"name\"; every row needs the "
                "header's 2 fields");
  EXPECT_EQ(err("c.csv", "id\n\"open\n", "id"),
            "csv: " + p + "/c.csv:2: a quoted field is not closed; close it with \"");
  EXPECT_EQ(err("d.csv", "", "id"),
            "csv: " + p + "/d.csv: the file is empty; a CSV file starts with a header row");
  EXPECT_EQ(err("e.csv", "id\n", "id"),
            "csv: " + p + "/e.csv: no data rows after the header; add at least one row");
  auto missing = load_csv_column(p + "/none.csv", "id", "csv");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message.rfind("csv: ", 0), 0U);
  EXPECT_NE(missing.error().message.find("none.csv"), std::string::npos);
}

TEST(GeneratorParsing, ErrorsQuoteTheExpressionSayWhyAndListTheForms) {
  auto expect = [](std::string_view text, std::string_view why) {
    EXPECT_EQ(parse_error(text),
              "variables.x: \"" + std::string(text) + "\": " + std::string(why) + std::string(k_accepted));
  };
  expect("zipf", "not a call such as zipf(1000, 1.1)");
  expect("zipf(10)", "zipf takes N (the number of keys) and S (the exponent)");
  expect("zipf(0, 1.1)", "N must be a whole number from 1 to 2^53");
  expect("zipf(10, 0)", "S must be a number above 0 and at most 100 (1.0 is the classic Zipf law)");
  expect("zipf(10, x)", "S must be a number above 0 and at most 100 (1.0 is the classic Zipf law)");
  expect("uniform(5, 1)", "A must not exceed B");
  expect("uniform(1.5, 2)", "A and B must be whole numbers (64-bit)");
  expect("uniform(1)", "uniform takes two whole numbers A and B");
  expect("sequence()", "sequence takes its first value START");
  expect("sequence(a)", "START must be a whole number (64-bit)");
  expect("choice()", "choice needs at least one value");
  expect("choice(a, , b)", "an empty value");
  expect("choice(\"a)", "a quoted value is not closed");
  expect("choice(\"a\" b)", "text after a quoted value; separate values with commas");
  expect("csv(f.csv)", "csv takes FILE, COLUMN and optionally random");
  expect("csv(f.csv, id, sometimes)", "the third value \"sometimes\" is not random or round_robin");
  expect("gauss(1, 2)", "unknown generator \"gauss\"");
}

TEST(GeneratorParsing, CsvFileErrorsNameTheExpressionAndTheFile) {
  test_util::ScratchDir dir;
  dir.write("u.csv", "id\n1\n");
  EXPECT_EQ(parse_error("csv(u.csv, name)", dir.path()),
            "variables.x: \"csv(u.csv, name)\": " + (dir.path() / "u.csv").string() +
                ": no column \"name\"; the header names id (or give a 0-based position)");
}
