// Test helper: results of a synthetic run built through the real Aggregator, from chosen latency samples.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "results/aggregator.h"
#include "results/run_results.h"
#include "results/verdict.h"

namespace openloop::test {

/// One interval per element of `samples` (response times in ns); every sample is a completed, ok request
/// whose service time is half its response time and whose send lateness is a tenth. `dropped[i]` adds drops
/// to interval i.
inline results::RunResults make_run(const std::vector<std::vector<std::int64_t>>& samples,
                                    double start_unix_s, const std::string& target = "http://127.0.0.1:8080/",
                                    const std::vector<std::uint64_t>& dropped = {}) {
  results::Aggregator agg(1, std::chrono::seconds(1));
  std::vector<results::IntervalStats> batch(1);
  batch[0].index = -1;
  batch[0].counters.intended = batch[0].counters.sent = batch[0].counters.completed = batch[0].counters.ok =
      7;
  agg.add(0, batch);
  for (std::size_t k = 0; k < samples.size(); ++k) {
    results::IntervalStats s;
    s.index = static_cast<std::int64_t>(k);
    for (const std::int64_t v : samples[k]) {
      results::record_ns(s.response_time, v);
      results::record_ns(s.service_time, v / 2);
      results::record_ns(s.send_lateness, v / 10);
    }
    const auto n = static_cast<std::uint64_t>(samples[k].size());
    const std::uint64_t drops = k < dropped.size() ? dropped[k] : 0;
    s.counters.intended = n + drops;
    s.counters.sent = s.counters.completed = s.counters.ok = n;
    s.counters.dropped = drops;
    s.counters.status_class[2] = n;
    s.counters.bytes_in = 100 * n;
    s.counters.connections_opened = 1;
    batch.clear();
    batch.push_back(std::move(s));
    agg.add(0, batch);
  }
  results::RunResults r = agg.finish(static_cast<double>(samples.size()));
  r.info.model = "open";
  r.info.arrival = "constant";
  r.info.target = target;
  r.info.offered_rps = 100;
  r.info.duration_s = static_cast<double>(samples.size());
  r.info.timeout_s = 5;
  r.info.start_unix_s = start_unix_s;
  r.info.plan = {{"target", target},
                 {"method", "GET"},
                 {"model", "open"},
                 {"arrival", "constant"},
                 {"timeout_s", 5.0},
                 {"interval_s", 1.0},
                 {"threads", 1},
                 {"duration_s", r.info.duration_s},
                 {"on_saturation", "drop"},
                 {"success_statuses", "100-399"}};
  r.info.environment = {{"host", "test"}, {"openloop_version", "0.1.0"}};
  r.generator.threads = 1;
  r.generator.cpu_seconds = 0.1;
  r.generator.wall_seconds = static_cast<double>(samples.size());
  r.verdict = results::judge(r);
  return r;
}

}  // namespace openloop::test
