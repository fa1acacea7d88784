// Per-session data rows: the three orders a worker deals rows in (sequential, random, unique), across workers
// and shards, on fixed seeds; the CSV table they come from.
#include "workload/session_data.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "workload_test_util.h"

using namespace openloop;
using namespace openloop::workload;

namespace {

// `n` rows of one column, kept in `vars` as a plan keeps them.
SessionData rows_of(VariableSet& vars, std::size_t n, DataOrder order) {
  CsvTable table;
  table.header = {"user_id"};
  for (std::size_t i = 0; i < n; ++i) table.cells.push_back("u" + std::to_string(i));
  (void)vars.declare("user_id", Generator::captured(), "test");
  store_session_data(vars, "shop", "users.csv", order, std::move(table));
  return *find_session_data(vars, "shop");
}

// The first `count` rows worker `worker` of `workers` deals (nullopt as -1).
std::vector<long> deal(const SessionData& data, unsigned worker, unsigned workers, std::size_t count,
                       std::uint64_t seed = 7) {
  RowDealer dealer(data, data_rng(seed, 0, worker), worker, workers);
  std::vector<long> out;
  for (std::size_t i = 0; i < count; ++i) {
    const auto row = dealer.next();
    out.push_back(row ? static_cast<long>(*row) : -1);
  }
  return out;
}

}  // namespace

TEST(RowDealer, SequentialWorkersReadEveryRowInTurnOverAndOver) {
  VariableSet vars;
  const SessionData data = rows_of(vars, 5, DataOrder::sequential);
  EXPECT_EQ(deal(data, 0, 1, 7), (std::vector<long>{0, 1, 2, 3, 4, 0, 1}));
  EXPECT_EQ(deal(data, 0, 2, 6), (std::vector<long>{0, 2, 4, 1, 3, 0}));
  EXPECT_EQ(deal(data, 1, 2, 6), (std::vector<long>{1, 3, 0, 2, 4, 1}));
  // More workers than rows: each starts at its own row, modulo the rows.
  EXPECT_EQ(deal(data, 6, 8, 3), (std::vector<long>{1, 4, 2}));
}

TEST(RowDealer, UniqueGivesEachRowToOneSessionAcrossWorkersThenNone) {
  VariableSet vars;
  const SessionData data = rows_of(vars, 5, DataOrder::unique);
  EXPECT_EQ(deal(data, 0, 2, 5), (std::vector<long>{0, 2, 4, -1, -1}));
  EXPECT_EQ(deal(data, 1, 2, 5), (std::vector<long>{1, 3, -1, -1, -1}));
  // Two host shards of three threads each (workers numbered shard-major): every row once, none twice.
  std::multiset<long> dealt;
  std::size_t none = 0;
  for (unsigned w = 0; w < 6; ++w) {
    VariableSet twenty;
    for (long row : deal(rows_of(twenty, 20, DataOrder::unique), w, 6, 5)) {
      if (row < 0) {
        ++none;
      } else {
        dealt.insert(row);
      }
    }
  }
  EXPECT_EQ(dealt.size(), 20u);
  EXPECT_EQ(std::set<long>(dealt.begin(), dealt.end()).size(), 20u);
  EXPECT_EQ(none, 30u - 20u);
}

TEST(RowDealer, RandomDrawsEveryRowUniformlyAndDependsOnlyOnTheSeed) {
  VariableSet vars;
  const SessionData data = rows_of(vars, 4, DataOrder::random);
  EXPECT_EQ(deal(data, 0, 2, 50, 11), deal(data, 0, 2, 50, 11));
  EXPECT_NE(deal(data, 0, 2, 50, 11), deal(data, 1, 2, 50, 11));
  EXPECT_NE(deal(data, 0, 2, 50, 11), deal(data, 0, 2, 50, 12));
  std::vector<int> counts(4, 0);
  for (long row : deal(data, 0, 1, 40000, 3)) {
    ASSERT_GE(row, 0);
    ASSERT_LT(row, 4);
    ++counts[static_cast<std::size_t>(row)];
  }
  for (int c : counts) EXPECT_NEAR(c, 10000, 400);
}

TEST(SessionData, IsKeptInThePlansVariablesUnderItsScenario) {
  VariableSet vars;
  (void)vars.declare("sku", Generator::uniform(1, 9), "test");
  const SessionData data = rows_of(vars, 5, DataOrder::unique);
  EXPECT_EQ(data.file, "users.csv");
  EXPECT_EQ(data.order, DataOrder::unique);
  EXPECT_EQ(data.rows(), 5u);
  EXPECT_EQ(data.cell(3, 0), "u3");
  EXPECT_EQ(data.variables, (std::vector<std::size_t>{*vars.find("user_id")}));
  EXPECT_FALSE(find_session_data(vars, "other"));
  EXPECT_EQ(data.describe(),
            "users.csv: 5 rows of {{user_id}}; order unique (each row to one session at most)");
  // The table is anonymous: no name a template could read.
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if (i != *vars.find("sku") && i != *vars.find("user_id")) {
      EXPECT_EQ(vars.name(i), "");
    }
  }
}

TEST(CsvTable, ReadsEveryRowWithTheHeadersFields) {
  test_util::ScratchDir dir;
  const auto file = dir.write("u.csv", "id,name\r\nu1,\"Ann, A.\"\n\nu2,Bob\n");
  auto table = load_csv_table(file, "data");
  ASSERT_TRUE(table) << table.error().message;
  EXPECT_EQ(table->header, (std::vector<std::string>{"id", "name"}));
  ASSERT_EQ(table->rows(), 2u);
  EXPECT_EQ(table->cell(0, 1), "Ann, A.");
  EXPECT_EQ(table->cell(1, 0), "u2");
}

TEST(CsvTable, RefusesARaggedRowADuplicateNameAndAnEmptyFileNamingTheLine) {
  test_util::ScratchDir dir;
  const auto ragged = load_csv_table(dir.write("r.csv", "id,name\nu1,a\nu2\n"), "plan.yaml:3:4: data.file");
  ASSERT_FALSE(ragged);
  EXPECT_NE(ragged.error().message.find("plan.yaml:3:4: data.file: "), std::string::npos)
      << ragged.error().message;
  EXPECT_NE(
      ragged.error().message.find("r.csv:3: the row has 1 field(s); every row has the header's 2 (id, name)"),
      std::string::npos)
      << ragged.error().message;
  const auto twice = load_csv_table(dir.write("d.csv", "id,id\n1,2\n"), "data");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("d.csv:1: the header names \"id\" twice"), std::string::npos)
      << twice.error().message;
  const auto empty = load_csv_table(dir.write("e.csv", "\n"), "data");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("the file is empty"), std::string::npos) << empty.error().message;
  const auto header_only = load_csv_table(dir.write("h.csv", "id\n"), "data");
  ASSERT_FALSE(header_only);
  EXPECT_NE(header_only.error().message.find("no data rows"), std::string::npos);
  const auto missing = load_csv_table((dir.path() / "none.csv").string(), "data");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ExitCode::usage);
}
