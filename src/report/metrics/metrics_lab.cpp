// The lab's stats document as metric families. The lab's counters live on its single loop thread, so the
// metrics endpoint reads them the way any client would: GET /_lab/stats on the lab's own address.
#include "report/metrics/metrics_lab.h"

namespace openloop::report {
namespace {

double number_at(const nlohmann::json& j, const char* key) {
  const auto found = j.find(key);
  return found != j.end() && found->is_number() ? found->get<double>() : 0.0;
}

}  // namespace

std::vector<MetricFamily> lab_metric_families(const nlohmann::json* stats,
                                                      const std::string& address) {
  using report::MetricType;
  report::MetricTable t({{"lab", address}});
  t.single("openloop_lab_up", MetricType::gauge, "1 when the lab answered GET /_lab/stats for this scrape",
           stats != nullptr ? 1.0 : 0.0);
  if (stats == nullptr) return t.take();
  const nlohmann::json& s = *stats;
  struct Field {
    const char* key;
    const char* name;
    const char* help;
  };
  static constexpr Field k_model_counters[] = {
      {"arrivals", "openloop_lab_arrivals_total", "Requests submitted to the model"},
      {"ok", "openloop_lab_ok_total", "Served by a worker, 200"},
      {"errors", "openloop_lab_errors_total", "Served by a worker, injected 500 (--error-rate)"},
      {"shed", "openloop_lab_shed_total", "Refused at once: the queue reached --shed-at (429)"},
      {"rejected", "openloop_lab_rejected_total", "Refused: the queue was at --queue-limit (503)"},
      {"expired", "openloop_lab_expired_total", "Deadline passed while queued: dropped at dequeue (504)"},
      {"cancelled", "openloop_lab_cancelled_total",
       "Client gone while queued: dropped at dequeue (--cancel)"},
      {"cache_hits", "openloop_lab_cache_hits_total", "Requests served from the cache"},
      {"cache_misses", "openloop_lab_cache_misses_total", "Requests that missed the cache"},
      {"bad_requests", "openloop_lab_bad_requests_total", "Requests refused as bad (400, 408, 413, 431)"},
  };
  for (const Field& f : k_model_counters) t.single(f.name, MetricType::counter, f.help, number_at(s, f.key));
  static constexpr Field k_model_gauges[] = {
      {"queue_depth", "openloop_lab_queue_depth", "Requests waiting in the model's queue"},
      {"busy_workers", "openloop_lab_busy_workers", "Workers serving a request"},
      {"workers", "openloop_lab_workers", "Workers configured (--workers)"},
      {"held", "openloop_lab_held", "Requests held by a stall"},
      {"dependency_in_use", "openloop_lab_dependency_in_use", "Dependency pool slots in use"},
      {"dependency_waiting", "openloop_lab_dependency_waiting", "Requests waiting for a dependency slot"},
      {"uptime_s", "openloop_lab_uptime_seconds", "Seconds since the model started"},
  };
  for (const Field& f : k_model_gauges) t.single(f.name, MetricType::gauge, f.help, number_at(s, f.key));
  t.single("openloop_lab_frozen", MetricType::gauge, "1 while a stall freezes the model",
           s.value("frozen", false) ? 1.0 : 0.0);
  if (const auto cache = s.find("cache"); cache != s.end() && cache->is_object()) {
    t.single("openloop_lab_cache_size", MetricType::gauge, "Entries in the cache", number_at(*cache, "size"));
  }
  if (const auto server = s.find("server"); server != s.end() && server->is_object()) {
    t.single("openloop_lab_connections_open", MetricType::gauge, "Client connections open",
             number_at(*server, "connections_open"));
    t.single("openloop_lab_connections_accepted_total", MetricType::counter, "Client connections accepted",
             number_at(*server, "connections_accepted"));
    t.single("openloop_lab_requests_total", MetricType::counter,
             "Well-formed requests, model and control (each scrape adds one control request)",
             number_at(*server, "requests"));
    t.single("openloop_lab_control_requests_total", MetricType::counter,
             "/_lab/* requests (each scrape adds one: the endpoint reads GET /_lab/stats)",
             number_at(*server, "control_requests"));
  }
  return t.take();
}

}  // namespace openloop::report
