// `trace inspect --html`: a trace's inspection as one standalone HTML page (report/html/page.h's head).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace openloop::cli {

/// The page of an inspection as `trace inspect --json` writes it (openloop.trace-inspect/1, with `keys`,
/// `skipped_lines` and `empty_request_lines`): its numbers, the endpoint mix, sizes, statuses and key popularity
/// as tables whose cells hold the JSON's values, and the rate per second as a uPlot chart drawn from the same
/// series (embedded, so the page works offline). Every text from the trace is escaped.
std::string render_trace_html(const nlohmann::json& inspection);

}  // namespace openloop::cli
