// Text for people and for the languages openloop writes, shared by report, compare and procedures: latencies
// as durations, and one escaper per output language (HTML, XML, CSV; Prometheus label values are escaped by
// their only writer, metrics/metric_families).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace openloop::report {

/// A latency held as integer nanoseconds (LatencySummary fields, histogram values) in format_duration's units
/// ("850µs", "12.3ms", "1.20s").
std::string format_latency(std::int64_t ns);
/// A duration given in seconds (as results files hold them) in format_duration's units.
std::string format_seconds(double seconds);
/// A rate with one decimal, as the HTML pages show rates: "1234.5/s".
std::string format_per_second(double per_second);

namespace html {
/// Text escaped for HTML element content and attribute values (& < > " ').
std::string escape(std::string_view text);
}  // namespace html

namespace xml {
/// `text` escaped for XML 1.0: & < > " ' as references, and in an attribute value (`attribute`) newline and
/// tab as character references too (attribute-value normalisation would turn them into spaces); carriage
/// return always. Bytes that are not UTF-8 and characters XML 1.0 cannot carry (control characters other than
/// tab, newline, carriage return; U+FFFE, U+FFFF) are written as U+FFFD, so any input gives a well-formed
/// document.
std::string escape(std::string_view text, bool attribute);
}  // namespace xml

namespace csv {
/// One CSV field (RFC 4180): as it is, or quoted with its quotes doubled when it holds a comma, a quote or a
/// line break.
std::string field(std::string_view text);
}  // namespace csv

}  // namespace openloop::report
