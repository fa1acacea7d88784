// `openloop lab --metrics-listen`: the lab's own view (what GET /_lab/stats shows) for Prometheus.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/metrics/metric_families.h"

namespace openloop::report {

/// The families of one /_lab/stats document: the model's counters (arrivals, ok, errors, shed, rejected,
/// expired, cancelled, cache hits and misses) and the server's (connections accepted, bad requests, requests,
/// control requests) as counters; queue depth, busy workers, workers, held, dependency in use and waiting,
/// cache size, frozen, connections open and uptime as gauges; openloop_lab_up 1. Every series is labelled
/// lab="ADDR" (`address`). `stats` absent (the lab did not answer): openloop_lab_up 0 alone.
std::vector<MetricFamily> lab_metric_families(const nlohmann::json* stats,
                                                      const std::string& address);

}  // namespace openloop::report
