// A scenario's per-session data rows (`data: {file: users.csv, order: sequential|random|unique}`): the CSV
// table read once when the plan loads and kept in the plan's variables, and RowDealer, which hands each of
// one worker's sessions its row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rng.h"
#include "workload/csv_column.h"
#include "workload/variables.h"

namespace openloop::workload {

/// How sessions take their rows.
enum class DataOrder : std::uint8_t {
  sequential,  ///< in file order, over and over
  random,      ///< each session a row drawn uniformly
  unique,      ///< each row to at most one session; then none is left
};
/// "sequential" | "random" | "unique".
std::string_view to_string(DataOrder order);

/// A scenario's data rows: a view of the table the plan's VariableSet holds (store_session_data()), valid
/// while that set lives. Cheap to copy.
struct SessionData {
  std::string file;  ///< as the plan wrote it (descriptions, messages)
  DataOrder order = DataOrder::sequential;
  std::vector<std::string> header;  ///< every column's name, in file order
  /// Per column: the plan variable ({{column}}) that holds a session's value, or npos for a column whose name
  /// is not a variable name (letters, digits, _), which no template can read.
  std::vector<std::size_t> variables;
  const std::vector<std::string>* cells = nullptr;  ///< rows × header.size(), row-major

  std::size_t rows() const { return header.empty() ? 0 : cells->size() / header.size(); }
  std::string_view cell(std::size_t row, std::size_t column) const {
    return (*cells)[row * header.size() + column];
  }
  /// "users.csv: 5 rows of {{user_id}}, {{password}}; order unique (each row to one session at most)".
  std::string describe() const;
};

/// Keeps scenario `scenario`'s data (read from `file` as `table`) in `variables`, the plan's immutable store
/// every worker already shares: the table and its description go in as two anonymous variables that no
/// template can name. The columns a template reads are the caller's to declare as variables a session sets
/// (GeneratorKind::captured), before or after. Preconditions: table.rows() ≥ 1; one call per scenario.
void store_session_data(VariableSet& variables, std::string_view scenario, const std::string& file,
                        DataOrder order, CsvTable table);
/// The data stored for scenario `scenario`, or nullopt when it has none.
std::optional<SessionData> find_session_data(const VariableSet& variables, std::string_view scenario);

/// One worker's dealer of rows: which row its next session (or iteration) takes. Worker g of G is numbered
/// among the scenario's workers of every host shard, so:
///  - sequential: rows g, g+G, g+2G, ... (mod rows): the workers together read every row in turn, as csv()
///    does;
///  - random: a uniform draw from `rng` each time;
///  - unique: rows g, g+G, g+2G, ... below rows, each once, then none. The workers and shards split the rows
///    among themselves without sharing anything, so no row goes to two sessions; a worker whose rows are
///    spent has none left even while another worker still has some (their sessions differ by at most one
///    when the arrivals are spread evenly, as a constant schedule's are).
/// Allocation-free; not thread-safe (one per worker).
class RowDealer {
 public:
  /// Preconditions: data.rows() ≥ 1, workers ≥ 1, worker < workers.
  RowDealer(SessionData data, Rng rng, unsigned worker, unsigned workers);
  /// The next session's row, or nullopt when the order is unique and this worker's rows are spent.
  std::optional<std::size_t> next();
  const SessionData& data() const { return m_data; }

 private:
  SessionData m_data;
  Rng m_rng;
  std::uint64_t m_next;  ///< sequential, unique: the next row (unique: may pass the last)
  std::uint64_t m_step;  ///< the number of workers
};

/// The random stream of scenario `scenario_index`'s rows on worker `worker` (numbered as for RowDealer):
/// Rng(seed, 2^30 + index·2^20 + worker), apart from the arrivals' (0..workers−1), the scenario's mix picks
/// (2^31 + ...) and the variables' (≥ 2^32).
Rng data_rng(std::uint64_t scenario_seed, std::size_t scenario_index, unsigned worker);

}  // namespace openloop::workload
