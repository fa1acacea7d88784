// Prometheus text 0.0.4 / OpenMetrics 1.0 rendering of a run's live state.
#include "report/metrics/metrics_exposition.h"

#include <fmt/format.h>

#include "core/grpc_status.h"

namespace openloop::report {

MetricsState MetricsState::of(const results::RunResults& so_far) {
  MetricsState s;
  s.totals = so_far.totals;
  s.response_time = so_far.response_time;
  s.service_time = so_far.service_time;
  s.send_lateness = so_far.send_lateness;
  s.slot_wait = so_far.slot_wait;
  s.by_request = so_far.by_request;
  s.in_flight = so_far.in_flight_now;
  s.connections_open = so_far.connections_open_now;
  if (!so_far.intervals.empty()) {
    s.latest_from_s = so_far.intervals.back().start_s;
    s.latest_to_s = s.latest_from_s + so_far.intervals.back().length_s;
  }
  return s;
}

double target_rate_now(const MetricsState& s, const MetricsContext& c) {
  if (!c.offered) return c.target_rps;
  return c.offered(s.latest_from_s, s.latest_to_s);
}

std::vector<MetricFamily> run_metric_families(const MetricsState& s, const MetricsContext& c) {
  MetricLabels base{{"run_id", c.run_id}, {"scenario", c.scenario}};
  base.insert(base.end(), c.extra_labels.begin(), c.extra_labels.end());
  MetricTable m(base);
  // Every series of a run carries request="" (every request) unless it is one request's.
  const MetricLabels all{{"request", ""}};
  const auto counter = [&](const char* name, const char* help, std::uint64_t v) {
    m.family(name, MetricType::counter, help);
    m.value(static_cast<double>(v), all);
  };
  const auto gauge = [&](const char* name, const char* help, double v) {
    m.family(name, MetricType::gauge, help);
    m.value(v, all);
  };
  const results::Counters& t = s.totals;
  counter("openloop_requests_intended_total",
          "Arrivals the schedule issued (finalized intervals of the measured period).", t.intended);
  counter("openloop_requests_sent_total", "Requests whose bytes were handed to the transport.", t.sent);
  counter("openloop_requests_completed_total", "Full responses by the deadline, any status.", t.completed);
  counter("openloop_requests_ok_total", "Completed with a status in --success (goodput).", t.ok);
  counter("openloop_requests_timeouts_total", "Deadline passed first (censored at the deadline).",
          t.timeouts);
  counter("openloop_requests_dropped_total", "No connection free with the pool at its cap; never sent.",
          t.dropped);
  counter("openloop_requests_unfinished_total", "In flight when the run ended.", t.unfinished);
  counter("openloop_retries_total", "Attempts after the first.", t.retries);
  counter("openloop_retry_budget_denied_total", "Retries the budget refused.", t.retry_budget_denied);
  counter("openloop_resent_total", "Attempts sent again because the server never processed them (HTTP/2).",
          t.resent);
  counter("openloop_slot_waits_total",
          "Arrivals queued for a free connection or HTTP/2 stream (--on-saturation queue) before being sent.",
          t.slot_waits);
  m.family("openloop_responses_total", MetricType::counter, "Completed requests by status class.");
  static constexpr const char* k_classes[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};
  for (std::size_t i = 0; i < t.status_class.size(); ++i) {
    m.value(static_cast<double>(t.status_class[i]), {{"request", ""}, {"class", k_classes[i]}});
  }
  if (t.grpc_calls() > 0) {  // gRPC calls (docs/grpc.md): every status once any call completed
    m.family("openloop_grpc_responses_total", MetricType::counter,
             "Completed gRPC calls by gRPC status (their HTTP status is in openloop_responses_total).");
    for (std::size_t i = 0; i < t.grpc_status.size(); ++i) {
      m.value(static_cast<double>(t.grpc_status[i]),
              {{"request", ""}, {"status", std::string(grpc_status_name(static_cast<int>(i)))}});
    }
    counter("openloop_grpc_response_messages_total", "Response messages of the completed gRPC calls.",
            t.grpc_messages_in);
    counter("openloop_grpc_response_message_bytes_total",
            "Bytes of those messages, without their 5-byte length prefixes.", t.grpc_message_bytes_in);
  }
  m.family("openloop_errors_total", MetricType::counter,
           "Requests that failed without a usable response, by kind.");
  for (std::size_t k = 0; k < results::k_error_kinds; ++k) {
    m.value(static_cast<double>(t.errors[k]),
            {{"request", ""}, {"kind", std::string(results::to_string(static_cast<results::ErrorKind>(k)))}});
  }
  gauge("openloop_in_flight", "Requests in flight or queued at the last progress report.",
        static_cast<double>(s.in_flight));
  gauge("openloop_connections_open",
        "Connections open (connecting or connected) at the last progress report, every worker's.",
        static_cast<double>(s.connections_open));
  m.family(
      "openloop_verdict", MetricType::gauge,
      "The verdict so far: 1 for the current state (waiting: nothing measured yet; valid; invalid: a bound "
      "broken), 0 for the others.");
  static constexpr std::pair<const char*, MetricsState::Verdict> k_states[] = {
      {"waiting", MetricsState::Verdict::waiting},
      {"valid", MetricsState::Verdict::valid},
      {"invalid", MetricsState::Verdict::invalid}};
  for (const auto& [name, state] : k_states) {
    m.value(s.verdict == state ? 1 : 0, {{"request", ""}, {"state", name}});
  }
  gauge("openloop_target_rate",
        "The offered rate the plan asks for now (its mean over the latest finalized interval), requests per "
        "second (0: closed model).",
        target_rate_now(s, c));
  gauge("openloop_target_rate_peak", "The plan's peak offered rate, requests per second (0: closed model).",
        c.target_rps);
  gauge("openloop_progress_reports", "Progress reports received from the run (0: nothing final yet).",
        static_cast<double>(s.updates));
  const auto latency = [&](const char* name, const char* help, const hdr::Histogram& total,
                           hdr::Histogram results::RequestTotals::*per_request) {
    m.family(name, MetricType::histogram, help);
    m.histogram(total, all);
    if (per_request == nullptr) return;
    // The live results leave a request's name unset (RunInfo carries the names once the run ends): the plan's
    // names, in index order, label them; two series with the same labels would be rejected by Prometheus.
    for (std::size_t i = 0; i < s.by_request.size(); ++i) {
      const results::RequestTotals& r = s.by_request[i];
      const std::string& label = !r.name.empty() || i >= c.request_names.size() ? r.name : c.request_names[i];
      m.histogram(r.*per_request, {{"request", label.empty() ? fmt::format("#{}", i) : label}});
    }
  };
  latency("openloop_response_time_seconds", "Completion (or censoring) minus the intended time.",
          s.response_time, &results::RequestTotals::response_time);
  latency("openloop_service_time_seconds", "Completion minus the actual send.", s.service_time,
          &results::RequestTotals::service_time);
  latency("openloop_send_lateness_seconds", "Actual send minus the intended time.", s.send_lateness, nullptr);
  latency("openloop_slot_wait_seconds", "Queued arrivals' wait for a free connection or HTTP/2 stream.",
          s.slot_wait, nullptr);
  return m.take();
}

std::string render_metrics(const MetricsState& s, const MetricsContext& c, bool openmetrics) {
  return render_families_text(run_metric_families(s, c), openmetrics);
}

}  // namespace openloop::report
