// A scenario's `data:`: the file read, its columns declared as variables, and the load-time refusals.
#include "workload/session_data_yaml.h"

#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace openloop::workload::yaml {
namespace {

constexpr std::string_view k_form =
    "data is {file: users.csv, order: sequential|random|unique} (the path relative to this plan)";

Result<DataOrder> read_order(const Doc& doc, const Field& f) {
  constexpr std::string_view k_orders =
      "use sequential (rows in turn), random (a row drawn per session) or unique (each row to one session)";
  const std::string text = OPENLOOP_TRY(scalar(doc, f, k_orders));
  for (DataOrder o : {DataOrder::sequential, DataOrder::random, DataOrder::unique}) {
    if (text == to_string(o)) return o;
  }
  return usage_error(fmt::format("{}: \"{}\" is not an order; {}", where(doc, f), text, k_orders));
}

// The data at `field`: its file as written, its order and its table, read whole.
struct DataText {
  std::string file;
  DataOrder order = DataOrder::sequential;
  CsvTable table;
};

Result<DataText> load_data(const Doc& doc, const Field& field, const std::filesystem::path& base_dir) {
  const Fields d = OPENLOOP_TRY(Fields::read(doc, field, {"file", "order"}, "a scenario's data"));
  const Field* file = d.find("file");
  if (file == nullptr) return usage_error(fmt::format("{}: no file; {}", where(doc, field), k_form));
  DataText data;
  data.file = OPENLOOP_TRY(scalar(doc, *file, "use the path of a CSV file with a header row"));
  const std::filesystem::path p(data.file);
  const std::string path = p.is_relative() ? (base_dir / p).string() : data.file;
  if (const Field* o = d.find("order")) data.order = OPENLOOP_TRY(read_order(doc, *o));
  data.table = OPENLOOP_TRY(load_csv_table(path, where(doc, *file)));
  return data;
}

// `node[key]` and its key's position, without yaml-cpp's exceptions; a null node when absent.
std::pair<YAML::Node, YAML::Mark> child(const YAML::Node& node, std::string_view key) {
  if (node.IsMap()) {
    for (const auto& kv : node) {
      if (kv.first.IsScalar() && kv.first.Scalar() == key) return {kv.second, kv.first.Mark()};
    }
  }
  return {YAML::Node(), YAML::Mark()};
}

}  // namespace

Result<void> declare_data_columns(const Doc& doc, const Fields& top, const std::filesystem::path& base_dir,
                                  VariableSet& variables) {
  const Field* scenarios = top.find("scenarios");
  if (scenarios == nullptr || !scenarios->node.IsMap()) return {};
  for (const auto& scenario : scenarios->node) {
    const auto [node, key_mark] = child(scenario.second, "data");
    if (!node.IsDefined() || node.IsNull()) continue;
    const Field field{fmt::format("scenarios.{}.data", scenario.first.Scalar()), node, node.Mark(), key_mark};
    DataText data = OPENLOOP_TRY(load_data(doc, field, base_dir));
    for (const std::string& column : data.table.header) {
      if (!is_identifier(column)) continue;  // no template can name it
      if (const auto index = variables.find(column)) {
        if (variables.generator(*index).kind() == GeneratorKind::captured)
          continue;  // another scenario's too
        return usage_error(
            fmt::format("{}: column \"{}\" of {} is also declared under variables:; a name is "
                        "either drawn or a session's, rename one",
                        where(doc, field), column, data.file));
      }
      (void)OPENLOOP_TRY(variables.declare(column, Generator::captured(), where(doc, field)));
    }
    store_session_data(variables, scenario.first.Scalar(), data.file, data.order, std::move(data.table));
  }
  return {};
}

Result<void> check_data(const Doc& doc, const Field& field, const ScenarioPlan& s, const WorkloadPlan& plan) {
  if (s.steps.empty()) {
    return usage_error(
        fmt::format("{}: data rows belong to a session's steps (a row per session or "
                    "iteration); this scenario has a {} (give steps: [NAME, ...], or remove data)",
                    where(doc, field), s.mix.entries().size() > 1 ? "mix" : "single request"));
  }
  const std::optional<SessionData> data = find_session_data(plan.variables, s.name);
  if (!data) return {};
  for (std::size_t i = 0; i < data->header.size(); ++i) {
    if (data->variables[i] == std::string::npos) continue;
    for (const Step& step : plan.setup) {
      for (const Capture& c : step.flow.captures) {
        if (c.variable != data->variables[i]) continue;
        return usage_error(
            fmt::format("{}: column \"{}\" of {} is a value setup: captures ({}), which every "
                        "request reads and none changes; rename one",
                        where(doc, field), data->header[i], data->file, c.where));
      }
    }
  }
  return {};
}

}  // namespace openloop::workload::yaml
