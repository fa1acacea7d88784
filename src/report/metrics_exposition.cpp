// Prometheus text 0.0.4 / OpenMetrics 1.0 rendering of a run's live state.
#include "report/metrics_exposition.h"

#include <fmt/format.h>

namespace openloop::report {

MetricsState MetricsState::of(const results::RunResults& so_far) {
  MetricsState s;
  s.totals = so_far.totals;
  s.response_time = so_far.response_time;
  s.service_time = so_far.service_time;
  s.send_lateness = so_far.send_lateness;
  s.by_request = so_far.by_request;
  s.in_flight = so_far.in_flight_now;
  return s;
}

const std::vector<double>& classic_bucket_bounds() {
  static const std::vector<double> bounds{0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02,
                                          0.05,   0.1,    0.2,    0.5,   1,     2,     5,    10};
  return bounds;
}

namespace {

std::string escape_label(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

class Writer {
 public:
  Writer(const MetricsContext& c, bool openmetrics) : m_context(c), m_om(openmetrics) {}

  // `# HELP` and `# TYPE` of a family; counters' family names drop `_total` in OpenMetrics.
  void family(const std::string& name, const char* type, const std::string& help) {
    const bool counter = std::string_view(type) == "counter";
    const std::string fam = counter && m_om ? name.substr(0, name.size() - 6) : name;
    m_out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", fam, help, fam, type);
  }
  void sample(const std::string& name, const std::string& request, double value,
              const std::string& extra = {}) {
    m_out += fmt::format("{}{{run_id=\"{}\",scenario=\"{}\",request=\"{}\"{}}} {}\n", name,
                         escape_label(m_context.run_id), escape_label(m_context.scenario),
                         escape_label(request), extra, value);
  }
  void counter(const std::string& name, const std::string& help, std::uint64_t value) {
    family(name, "counter", help);
    sample(name, "", static_cast<double>(value));
  }
  void histogram(const std::string& name, const std::string& help,
                 const std::vector<std::pair<std::string, const hdr::Histogram*>>& parts) {
    family(name, "histogram", help);
    for (const auto& [request, h] : parts) {
      for (double le : classic_bucket_bounds()) {
        const auto bound_ns = static_cast<std::int64_t>(le * 1e9);
        std::int64_t below = 0;
        // Buckets whose highest equivalent value is within the bound count whole (3-digit resolution).
        for (std::int32_t i = 0;
             i < h->counts_length() && h->highest_equivalent(h->value_from_index(i)) <= bound_ns; ++i) {
          below += h->count_at_index(i);
        }
        sample(name + "_bucket", request, static_cast<double>(below), fmt::format(",le=\"{}\"", le));
      }
      sample(name + "_bucket", request, static_cast<double>(h->total_count()), ",le=\"+Inf\"");
      sample(name + "_sum", request, h->mean() * static_cast<double>(h->total_count()) / 1e9);
      sample(name + "_count", request, static_cast<double>(h->total_count()));
    }
  }
  std::string done() {
    if (m_om) m_out += "# EOF\n";
    return std::move(m_out);
  }

 private:
  const MetricsContext& m_context;
  bool m_om;
  std::string m_out;
};

}  // namespace

std::string render_metrics(const MetricsState& s, const MetricsContext& c, bool openmetrics) {
  Writer w(c, openmetrics);
  const results::Counters& t = s.totals;
  w.counter("openloop_requests_intended_total",
            "Arrivals the schedule issued (finalized intervals of the measured period).", t.intended);
  w.counter("openloop_requests_sent_total", "Requests whose bytes were handed to the transport.", t.sent);
  w.counter("openloop_requests_completed_total", "Full responses by the deadline, any status.", t.completed);
  w.counter("openloop_requests_ok_total", "Completed with a status in --success (goodput).", t.ok);
  w.counter("openloop_requests_timeouts_total", "Deadline passed first (censored at the deadline).",
            t.timeouts);
  w.counter("openloop_requests_dropped_total", "No connection free with the pool at its cap; never sent.",
            t.dropped);
  w.counter("openloop_requests_unfinished_total", "In flight when the run ended.", t.unfinished);
  w.counter("openloop_retries_total", "Attempts after the first.", t.retries);
  w.counter("openloop_retry_budget_denied_total", "Retries the budget refused.", t.retry_budget_denied);
  w.family("openloop_responses_total", "counter", "Completed requests by status class.");
  static constexpr const char* k_classes[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};
  for (std::size_t i = 0; i < t.status_class.size(); ++i) {
    w.sample("openloop_responses_total", "", static_cast<double>(t.status_class[i]),
             fmt::format(",class=\"{}\"", k_classes[i]));
  }
  w.family("openloop_errors_total", "counter", "Requests that failed without a usable response, by kind.");
  for (std::size_t k = 0; k < results::k_error_kinds; ++k) {
    w.sample("openloop_errors_total", "", static_cast<double>(t.errors[k]),
             fmt::format(",kind=\"{}\"", results::to_string(static_cast<results::ErrorKind>(k))));
  }
  w.family("openloop_in_flight", "gauge", "Requests in flight or queued at the last progress report.");
  w.sample("openloop_in_flight", "", static_cast<double>(s.in_flight));
  w.family("openloop_target_rate", "gauge",
           "The plan's peak offered rate, requests per second (0: closed model).");
  w.sample("openloop_target_rate", "", c.target_rps);
  w.family("openloop_progress_reports", "gauge",
           "Progress reports received from the run (0: nothing final yet).");
  w.sample("openloop_progress_reports", "", static_cast<double>(s.updates));
  const auto parts = [&](const hdr::Histogram& total, bool service) {
    std::vector<std::pair<std::string, const hdr::Histogram*>> p{{"", &total}};
    for (std::size_t i = 0; i < s.by_request.size(); ++i) {
      p.emplace_back(s.by_request[i].name,
                     service ? &s.by_request[i].service_time : &s.by_request[i].response_time);
    }
    return p;
  };
  w.histogram("openloop_response_time_seconds", "Completion (or censoring) minus the intended time.",
              parts(s.response_time, false));
  w.histogram("openloop_service_time_seconds", "Completion minus the actual send.",
              parts(s.service_time, true));
  w.histogram("openloop_send_lateness_seconds", "Actual send minus the intended time.",
              {{"", &s.send_lateness}});
  return w.done();
}

}  // namespace openloop::report
