// The HTML report's front-end files, embedded into the binary at build time (src/report/html/embed_assets.cmake).
#pragma once

#include <string_view>

namespace openloop::report::assets {

/// uPlot's IIFE build (node_modules/uplot/dist/uPlot.iife.min.js): defines the global `uPlot`.
std::string_view uplot_js();
/// uPlot's stylesheet (node_modules/uplot/dist/uPlot.min.css).
std::string_view uplot_css();
/// The report's own script (src/report/html/assets/report.js): draws the charts from the embedded data.
std::string_view report_js();
/// The report's own stylesheet (src/report/html/assets/report.css).
std::string_view report_css();

}  // namespace openloop::report::assets
