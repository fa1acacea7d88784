// The results file's observed signals: summary.observed and intervals[].observed.
#include "results/files/observed_json.h"

#include <fmt/format.h>

namespace openloop::results {

void write_observed(nlohmann::json& j, const RunResults& r) {
  if (r.observed.empty()) return;
  std::vector<std::vector<double>> values;
  values.reserve(r.intervals.size());
  for (const auto& i : r.intervals) values.push_back(i.observed);
  j["summary"]["observed"] = observed_summary_json(r.observed, values);
}

Result<void> read_observed(const nlohmann::json& root, RunResults& r) {
  if (!root.contains("summary") || !root["summary"].is_object() || !root["summary"].contains("observed"))
    return {};
  r.observed = OPENLOOP_TRY(observed_from_json(root["summary"]["observed"]));
  const auto& intervals = root.at("intervals");
  for (std::size_t k = 0; k < r.intervals.size() && k < intervals.size(); ++k) {
    const auto& in = intervals[k];
    auto values =
        observed_values_from_json(r.observed, in.contains("observed") ? in["observed"] : nlohmann::json());
    if (!values) {
      return usage_error(fmt::format("/intervals/{}: {}", k, values.error().message));
    }
    // Read from a file, the intervals are all in memory: updating cannot fail.
    (void)r.intervals.update(k, [&](IntervalResult& i) { i.observed = std::move(*values); });
  }
  return {};
}

}  // namespace openloop::results
