// Test helper: results of a synthetic run built through the real Aggregator, from chosen latency samples.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "results/recording/aggregator.h"
#include "results/merging/combine.h"
#include "results/run_results.h"
#include "results/judging/verdict.h"

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
  r.info.model = results::Model::open;
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
  r.generator.spin_seconds = 0.02;  // round-trips with the rest (files before it existed read as 0)
  r.generator.spin_below_us = 12.5;
  r.generator.wall_seconds = static_cast<double>(samples.size());
  r.verdict = results::judge(r);
  return r;
}

/// A run with a per-request breakdown, built through the real Aggregator: interval i holds samples[i]
/// (response times in ns), sample j going to request names[j % names.size()] as a completed, ok request
/// (service time half the response time, send lateness a tenth). With model "sessions", each interval also
/// starts one session per two samples, all completed, whose session time is the sum of their two samples.
inline results::RunResults make_breakdown_run(const std::vector<std::vector<std::int64_t>>& samples,
                                              double start_unix_s, const std::string& model = "open",
                                              const std::vector<std::string>& names = {"get_item",
                                                                                       "search"}) {
  results::Aggregator agg(1, std::chrono::seconds(1));
  std::vector<results::IntervalStats> batch(1);
  batch[0].index = -1;
  batch[0].by_request.resize(names.size());
  agg.add(0, batch);
  for (std::size_t k = 0; k < samples.size(); ++k) {
    results::IntervalStats s;
    s.index = static_cast<std::int64_t>(k);
    s.by_request.resize(names.size());
    for (std::size_t j = 0; j < samples[k].size(); ++j) {
      const std::int64_t v = samples[k][j];
      for (results::Counters* c : {&s.counters, &s.by_request[j % names.size()].counters}) {
        ++c->intended, ++c->sent, ++c->completed, ++c->ok, ++c->attempts, ++c->status_class[2];
      }
      for (auto* h : {&s.response_time, &s.by_request[j % names.size()].response_time})
        results::record_ns(*h, v);
      for (auto* h : {&s.service_time, &s.by_request[j % names.size()].service_time})
        results::record_ns(*h, v / 2);
      results::record_ns(s.send_lateness, v / 10);
      results::record_ns(s.attempt_time, v / 2);
      if (model == "sessions" && j % 2 == 1) {
        ++s.flows.sessions_intended, ++s.flows.sessions_completed;
        results::record_ns(s.session_time, samples[k][j - 1] + v);
      }
    }
    batch.clear();
    batch.push_back(std::move(s));
    agg.add(0, batch);
  }
  results::RunResults r = agg.finish(static_cast<double>(samples.size()));
  nlohmann::json requests = nlohmann::json::array();
  for (const auto& name : names) requests.push_back({{"name", name}, {"method", "GET"}, {"weight", 1}});
  r.info.model = *results::parse_model(model);
  r.info.arrival = "constant";
  r.info.target = "http://127.0.0.1:8080";
  r.info.offered_rps = 10;
  r.info.duration_s = static_cast<double>(samples.size());
  r.info.timeout_s = 5;
  r.info.start_unix_s = start_unix_s;
  r.info.request_names = names;
  r.info.plan = {{"target", r.info.target},
                 {"method", "GET"},
                 {"model", model},
                 {"arrival", "constant"},
                 {"timeout_s", 5.0},
                 {"interval_s", 1.0},
                 {"threads", 1},
                 {"on_saturation", "drop"},
                 {"success_statuses", "100-399"},
                 {"requests", requests}};
  r.info.environment = {{"host", "test"}, {"openloop_version", "0.1.0"}};
  r.generator.threads = 1;
  r.generator.cpu_seconds = 0.1;
  r.generator.wall_seconds = static_cast<double>(samples.size());
  r.verdict = results::judge(r);
  return r;
}

/// A scenario file's run as `run plan.yaml` builds it: "browse" (open: get_item and search) from the start
/// and "shoppers" (sessions: get_item and checkout) from offset 1 s, combined, each kept in `scenarios`.
inline results::RunResults make_scenario_run(double start_unix_s) {
  std::vector<results::ScenarioResults> parts;
  parts.push_back({"browse", 0.0,
                   make_breakdown_run({{1'000'000, 2'000'000, 3'000'000}, {4'000'000, 5'000'000}},
                                      start_unix_s, "open", {"get_item", "search"})});
  parts.push_back(
      {"shoppers", 1.0,
       make_breakdown_run({{7'000'000, 8'000'000}, {9'000'000, 10'000'000, 11'000'000, 12'000'000}},
                          start_unix_s + 1, "sessions", {"get_item", "checkout"})});
  results::RunResults all = results::combine_scenarios(parts);
  all.info.source = "plan.yaml";
  all.scenarios = std::move(parts);
  return all;
}

}  // namespace openloop::test
