// Roles of exporters' series by their names: the words exporters use for queues, utilisation and failures.
#include "observe/series_role.h"

#include <array>
#include <cctype>
#include <string>

namespace openloop::observe {
namespace {

bool has(std::string_view haystack, std::string_view word) {
  return haystack.find(word) != std::string_view::npos;
}

template <std::size_t N>
bool has_any(std::string_view haystack, const std::array<std::string_view, N>& words) {
  for (std::string_view w : words)
    if (has(haystack, w)) return true;
  return false;
}

// A label code="5xx" (HAProxy), status="503", code="500" (most HTTP exporters).
bool server_error_label(std::string_view labels) {
  for (std::string_view key : {"code=\"5", "status=\"5", "status_code=\"5", "response_code=\"5"})
    if (has(labels, key)) return true;
  return false;
}

}  // namespace

const char* to_string(SeriesRole r) {
  switch (r) {
    case SeriesRole::utilisation:
      return "utilisation";
    case SeriesRole::queue:
      return "queue";
    case SeriesRole::in_flight:
      return "in flight";
    case SeriesRole::errors:
      return "errors";
    case SeriesRole::other:
      return "other";
  }
  return "other";
}

SeriesRole series_role(std::string_view name, std::string_view labels, MetricType type) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string_view n = lower;
  const bool counter = type == MetricType::counter || (type == MetricType::untyped && n.ends_with("_total"));
  static constexpr std::array<std::string_view, 13> k_errors{
      "error", "fail", "denied", "refused", "reject", "timeout", "timedout", "drop",
      "shed",  "abort", "overflow", "retries", "redispatch"};
  if (counter) {
    if (has_any(n, k_errors) || server_error_label(labels)) return SeriesRole::errors;
    return SeriesRole::other;
  }
  if (type == MetricType::histogram || type == MetricType::summary) return SeriesRole::other;
  // Limits and configuration are levels that do not move with load.
  static constexpr std::array<std::string_view, 5> k_settings{"_limit", "_max", "max_", "_capacity", "_config"};
  if (has_any(n, k_settings)) return SeriesRole::other;
  static constexpr std::array<std::string_view, 7> k_queue{"queue",    "waiting", "pending",   "backlog",
                                                           "pressure", "queued",  "saturation"};
  if (has_any(n, k_queue)) return SeriesRole::queue;
  static constexpr std::array<std::string_view, 3> k_utilisation{"utilization", "utilisation", "busy_ratio"};
  if (has_any(n, k_utilisation) && !has(n, "percent")) return SeriesRole::utilisation;
  static constexpr std::array<std::string_view, 5> k_in_flight{"in_flight", "inflight", "active",
                                                               "current_sessions", "current_conn"};
  if (has_any(n, k_in_flight)) return SeriesRole::in_flight;
  return SeriesRole::other;
}

results::SignalRole signal_role(SeriesRole r) {
  switch (r) {
    case SeriesRole::utilisation:
      return results::SignalRole::utilization;
    case SeriesRole::queue:
      return results::SignalRole::saturation;
    case SeriesRole::errors:
      return results::SignalRole::errors;
    case SeriesRole::in_flight:
    case SeriesRole::other:
      return results::SignalRole::other;
  }
  return results::SignalRole::other;
}

}  // namespace openloop::observe
