// The observed signals' charts of the HTML report (drawn by assets/report.js: observedCharts()).
#include "report/html/html_observed.h"

#include <cmath>

#include <fmt/format.h>

#include "report/text_format.h"

namespace openloop::report {
namespace {

bool charted(const results::ObservedSignal& s) {
  if (results::is_self_source(s.source))
    return s.name == "cpu" || s.name == "cpu_busiest_thread" || s.name == "runq_wait" ||
           s.name == "ports_in_use";
  return s.role != results::SignalRole::other;
}

}  // namespace

nlohmann::json observed_chart_data(const results::RunResults& r) {
  if (r.observed.empty()) return nullptr;
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& source : r.observed.sources) {
    nlohmann::json signals = nlohmann::json::array();
    for (std::size_t c = 0; c < r.observed.signals.size(); ++c) {
      const auto& s = r.observed.signals[c];
      if (s.source != source || !charted(s)) continue;
      nlohmann::json values = nlohmann::json::array();
      bool any = false;
      for (const auto& i : r.intervals) {
        const double v = c < i.observed.size() ? i.observed[c] : NAN;
        values.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json());
        any = any || std::isfinite(v);
      }
      if (!any) continue;
      signals.push_back({{"name", s.name},
                         {"label", s.label},
                         {"unit", s.unit},
                         {"role", results::to_string(s.role)},
                         {"values", std::move(values)}});
    }
    groups.push_back({{"source", source}, {"signals", std::move(signals)}});
  }
  return groups;
}

std::string observed_panels(const results::RunResults& r) {
  if (r.observed.empty()) return "";
  std::string out;
  for (std::size_t k = 0; k < r.observed.sources.size(); ++k) {
    const std::string& source = r.observed.sources[k];
    out += fmt::format(
        "<section class=\"panel chart\"><h2>Observed: {}</h2>\n<div class=\"plot\" "
        "id=\"chart-observed-{}\"></div>\n"
        "<p class=\"caption\">{}</p>\n</section>\n",
        html::escape(source == "self" ? "the generator (self)" : source), k,
        results::is_self_source(source)
            ? "openloop's own USE line, sampled every 100 ms and averaged per second on the same axis as the "
              "latency: CPU of all its threads and of its busiest one (cores), run-queue wait (seconds spent "
              "waiting for a CPU per second) and ephemeral ports in use. If these saturate with the latency, "
              "the knee may be the generator's."
            : "Utilization (a share of the resource: 1 = all of it), saturation (work waiting: run-queue "
              "wait, "
              "pressure, a queue) and errors (refusals per second) of this source, sampled every 100 ms "
              "(endpoints every second) and summarised per second exactly as the latency above: the same "
              "intervals, the same time axis. See docs/observe.md.");
  }
  return out;
}

}  // namespace openloop::report
