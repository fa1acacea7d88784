// What every standalone HTML page of openloop shares (the run's report, the audit's page, a trace's
// inspection): one offline file whose head forbids any request, records script errors and embeds the styles.
#pragma once

#include <string>
#include <string_view>

namespace openloop::report::html {

/// From `<!DOCTYPE html>` to `</head>` inclusive: the Content-Security-Policy (no request may leave the page:
/// scripts and styles inline, images only as data: URLs), `<title>` (`title` is escaped here), the script that
/// records script errors and console.error on the root element (`data-errors`, for readers and automated
/// checks), uPlot's and the report's stylesheets, then `extra_css` (trusted, written as is) when not empty.
std::string page_head(std::string_view title, std::string_view extra_css = {});

}  // namespace openloop::report::html
