// RunResults → JSON.
#include "results/results_json.h"

#include "results/counters.h"

namespace openloop::results {
namespace {

nlohmann::json counters_json(const Counters& c) {
  nlohmann::json errors = nlohmann::json::object();
  for (std::size_t i = 0; i < k_error_kinds; ++i) errors[std::string(to_string(static_cast<ErrorKind>(i)))] = c.errors[i];
  nlohmann::json status = nlohmann::json::object();
  const char* names[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};
  for (std::size_t i = 0; i < c.status_class.size(); ++i) status[names[i]] = c.status_class[i];
  return {{"intended", c.intended},
          {"sent", c.sent},
          {"completed", c.completed},
          {"ok", c.ok},
          {"timeouts", c.timeouts},
          {"errors", c.errors_total()},
          {"dropped", c.dropped},
          {"unfinished", c.unfinished},
          {"errors_by_kind", errors},
          {"status_classes", status},
          {"bytes_in", c.bytes_in},
          {"bytes_out", c.bytes_out},
          {"connections_opened", c.connections_opened}};
}

double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

nlohmann::json latency_json(const LatencySummary& s) {
  return {{"p50", ms(s.p50)},   {"p90", ms(s.p90)}, {"p99", ms(s.p99)},       {"p999", ms(s.p999)},
          {"p9999", ms(s.p9999)}, {"max", ms(s.max)}, {"mean", s.mean / 1e6}, {"count", s.count}};
}

}  // namespace

nlohmann::json to_json(const RunResults& r) {
  nlohmann::json j;
  j["schema"] = k_results_schema;
  j["verdict"] = {{"valid", r.verdict.valid}, {"reasons", r.verdict.reasons}, {"interrupted", r.interrupted}};
  j["model"] = r.info.model;
  j["summary"] = {{"counts", counters_json(r.totals)},
                  {"duration_s", r.measured_s},
                  {"offered_rps", r.offered_rps()},
                  {"planned_rps", r.info.offered_rps},
                  {"sent_rps", r.sent_rps()},
                  {"throughput_rps", r.throughput_rps()},
                  {"goodput_rps", r.goodput_rps()},
                  {"response_time_ms", latency_json(LatencySummary::of(r.response_time))},
                  {"service_time_ms", latency_json(LatencySummary::of(r.service_time))},
                  {"send_lateness_ms", latency_json(LatencySummary::of(r.send_lateness))}};
  j["warmup"] = {{"duration_s", r.info.warmup_s}, {"counts", counters_json(r.warmup)}};
  const auto& g = r.generator;
  j["generator"] = {{"threads", g.threads},
                    {"cpu_s", g.cpu_seconds},
                    {"wall_s", g.wall_seconds},
                    {"max_connections", g.max_connections},
                    {"peak_connections", g.peak_connections},
                    {"max_rss_kb", g.max_rss_kb}};
  j["plan"] = r.info.plan;
  j["environment"] = r.info.environment;
  nlohmann::json intervals = nlohmann::json::array();
  for (const auto& i : r.intervals) {
    intervals.push_back({{"start_s", i.start_s},
                         {"length_s", i.length_s},
                         {"counts", counters_json(i.counters)},
                         {"response_time_ms", latency_json(i.response_time)},
                         {"service_time_ms", latency_json(i.service_time)},
                         {"send_lateness_ms", latency_json(i.send_lateness)},
                         {"histograms",
                          {{"unit", "ns"},
                           {"response_time", i.response_time_hist},
                           {"service_time", i.service_time_hist},
                           {"send_lateness", i.send_lateness_hist}}}});
  }
  j["intervals"] = std::move(intervals);
  return j;
}

}  // namespace openloop::results
