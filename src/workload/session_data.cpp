// Per-session data rows: kept in the plan's variables, described, and dealt to each worker's sessions.
#include "workload/session_data.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace openloop::workload {
namespace {

// The first value of the anonymous variable that describes a scenario's data: a control character, which no
// plan's inline choice() can begin with by accident. The values after it: scenario, order, file, header...
constexpr std::string_view k_marker =
    "\x1f"
    "openloop.session_data";
constexpr std::size_t k_meta_fields = 4;

}  // namespace

std::string_view to_string(DataOrder order) {
  switch (order) {
    case DataOrder::sequential:
      return "sequential";
    case DataOrder::random:
      return "random";
    case DataOrder::unique:
      return "unique";
  }
  return "sequential";
}

std::string SessionData::describe() const {
  std::vector<std::string> readable;
  for (std::size_t i = 0; i < header.size(); ++i)
    if (variables[i] != std::string::npos) readable.push_back("{{" + header[i] + "}}");
  const std::string_view how = order == DataOrder::unique   ? " (each row to one session at most)"
                               : order == DataOrder::random ? " (a row drawn per session)"
                                                            : " (rows in turn, over and over)";
  return fmt::format("{}: {} row{} of {}; order {}{}", file, rows(), rows() == 1 ? "" : "s",
                     readable.empty() ? std::string("no column a template can name")
                                      : fmt::format("{}", fmt::join(readable, ", ")),
                     to_string(order), how);
}

void store_session_data(VariableSet& variables, std::string_view scenario, const std::string& file,
                        DataOrder order, CsvTable table) {
  std::vector<std::string> meta{std::string(k_marker), std::string(scenario), std::string(to_string(order)),
                                file};
  meta.insert(meta.end(), table.header.begin(), table.header.end());
  // Anonymous variables hold the table: no template names them, so no request ever draws from them.
  variables.add_inline(Generator::csv(std::move(meta), false, fmt::format("data of scenario {}", scenario)));
  variables.add_inline(Generator::csv(std::move(table.cells), false, fmt::format("rows of {}", file)));
}

std::optional<SessionData> find_session_data(const VariableSet& variables, std::string_view scenario) {
  for (std::size_t i = 0; i + 1 < variables.size(); ++i) {
    if (!variables.name(i).empty() || variables.generator(i).kind() != GeneratorKind::csv) continue;
    const std::vector<std::string>& meta = *variables.generator(i).values();
    if (meta.size() < k_meta_fields || meta[0] != k_marker || meta[1] != scenario) continue;
    SessionData data;
    data.order = meta[2] == "unique"   ? DataOrder::unique
                 : meta[2] == "random" ? DataOrder::random
                                       : DataOrder::sequential;
    data.file = meta[3];
    data.header.assign(meta.begin() + k_meta_fields, meta.end());
    for (const std::string& column : data.header) {
      const auto v = variables.find(column);
      const bool settable = v && variables.generator(*v).kind() == GeneratorKind::captured;
      data.variables.push_back(settable ? *v : std::string::npos);
    }
    data.cells = variables.generator(i + 1).values();
    return data;
  }
  return std::nullopt;
}

RowDealer::RowDealer(SessionData data, Rng rng, unsigned worker, unsigned workers)
    : m_data(std::move(data)), m_rng(rng), m_next(worker), m_step(workers) {
  if (m_data.order == DataOrder::sequential) m_next %= m_data.rows();
}

std::optional<std::size_t> RowDealer::next() {
  const std::uint64_t rows = m_data.rows();
  switch (m_data.order) {
    case DataOrder::random:
      return static_cast<std::size_t>(m_rng.below(rows));
    case DataOrder::sequential: {
      const std::uint64_t row = m_next;
      m_next = (m_next + m_step) % rows;
      return static_cast<std::size_t>(row);
    }
    case DataOrder::unique:
      if (m_next >= rows) return std::nullopt;
      m_next += m_step;
      return static_cast<std::size_t>(m_next - m_step);
  }
  return std::nullopt;
}

Rng data_rng(std::uint64_t scenario_seed, std::size_t scenario_index, unsigned worker) {
  return Rng(scenario_seed,
             (std::uint64_t{1} << 30) + (static_cast<std::uint64_t>(scenario_index) << 20) + worker);
}

}  // namespace openloop::workload
