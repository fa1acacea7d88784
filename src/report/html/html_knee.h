// The knee chart of a ramp for the HTML report: offered vs completed vs goodput, p99 with its CI on a second
// axis.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace openloop::report {

/// One step of a ramp as the chart draws it. Rates in requests/s, latencies in ms.
struct KneePoint {
  std::size_t step = 0;  ///< the step's number (the order it ran)
  double offered = 0, completed = 0, goodput = 0;
  std::optional<double> p99_ms, p99_low_ms, p99_high_ms;  ///< a missing CI side: too few samples to bound it
  bool censored = false;  ///< p99 reached the client's timeout: the truth is at least this
  std::string state;      ///< "STEADY", "UNSTEADY", "INVALID"
};

/// A vertical line at an offered rate with a label ("knee p99", "capacity", "collapse").
struct KneeMarker {
  std::string label;
  double offered = 0;
};

/// Everything the chart shows; points in any order (the chart sorts them by offered rate).
struct KneeChart {
  std::vector<KneePoint> points;
  std::vector<KneeMarker> markers;
};

/// The data the chart's script reads (exposed for tests): "offered", "completed", "goodput", "p99",
/// "p99_low", "p99_high" (arrays by increasing offered rate; null where unknown), "censored", "state",
/// "step", "markers".
nlohmann::json knee_data(const KneeChart& c);

/// The chart's panel (title, element #knee-chart, caption) with its data embedded as JSON (#knee-data). The
/// element has class "knee-plot", not "plot", so the run report's own chart count is unaffected.
std::string knee_panel(const KneeChart& c);

/// The script that draws the panel with uPlot (which must be loaded first). Once drawn, the root element
/// carries data-knee-drawn="1"; script errors land in data-errors like the report's own.
std::string_view knee_script();

}  // namespace openloop::report
