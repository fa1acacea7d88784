// Text summary. Everything is derived from the results (histograms and counters), nothing re-measured.
#include "report/summary.h"

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::report {
namespace {

std::string ms(std::int64_t ns) { return format_duration(Nanos(ns)); }

void latency_row(std::string& out, const char* name, const results::LatencySummary& s) {
  if (s.count == 0) {
    fmt::format_to(std::back_inserter(out), "  {:<15} (no samples)\n", name);
    return;
  }
  fmt::format_to(std::back_inserter(out), "  {:<15} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", name, ms(s.p50),
                 ms(s.p90), ms(s.p99), ms(s.p999), ms(s.p9999), ms(s.max), ms(static_cast<std::int64_t>(s.mean)));
}

void verdict_block(std::string& out, const results::RunResults& r) {
  const bool closed = r.info.model == "closed";
  fmt::format_to(std::back_inserter(out), "verdict: {}{}\n", r.verdict.valid ? "VALID" : "INVALID",
                 r.interrupted ? " (interrupted: results cover the part that ran)" : "");
  for (const auto& reason : r.verdict.reasons) fmt::format_to(std::back_inserter(out), "  - {}\n", reason);
  if (closed) {
    fmt::format_to(std::back_inserter(out),
                   "model: CLOSED ({} users, each waits for its response before sending again). Latency here is "
                   "service time: a closed loop slows down with the server and never sends the requests that would "
                   "have waited, so stalls and queueing are hidden (coordinated omission).\n",
                   r.info.users);
  } else {
    fmt::format_to(std::back_inserter(out),
                   "model: OPEN ({} arrivals at {} planned); latency is measured from each request's intended "
                   "time.\n",
                   r.info.arrival, format_rate(r.info.offered_rps));
  }
}

}  // namespace

std::string render_summary(const results::RunResults& r) {
  std::string out;
  const auto& c = r.totals;
  verdict_block(out, r);
  fmt::format_to(std::back_inserter(out), "target: {}   measured: {:.3g}s   warm-up: {:.3g}s ({} requests, excluded)\n\n",
                 r.info.target, r.measured_s, r.info.warmup_s, r.warmup.intended);
  fmt::format_to(std::back_inserter(out), "rates (per second)   offered {:.1f}   sent {:.1f}   throughput {:.1f}   goodput {:.1f}\n\n",
                 r.offered_rps(), r.sent_rps(), r.throughput_rps(), r.goodput_rps());
  fmt::format_to(std::back_inserter(out), "  {:<15} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "latency", "p50", "p90",
                 "p99", "p99.9", "p99.99", "max", "mean");
  const auto rt = results::LatencySummary::of(r.response_time);
  const auto st = results::LatencySummary::of(r.service_time);
  const auto sl = results::LatencySummary::of(r.send_lateness);
  latency_row(out, r.info.model == "closed" ? "response (=svc)" : "response time", rt);
  latency_row(out, "service time", st);
  latency_row(out, "send lateness", sl);
  if (r.info.model == "open" && rt.count > 0 && st.count > 0 && rt.p99 > 2 * st.p99 && rt.p99 - st.p99 > 1'000'000) {
    fmt::format_to(std::back_inserter(out),
                   "\n  Response time p99 ({}) is far above service time p99 ({}): requests spent that time queued "
                   "or stalled before the server answered. A closed-loop tool would have reported only the service "
                   "time.\n",
                   ms(rt.p99), ms(st.p99));
  }
  fmt::format_to(std::back_inserter(out),
                 "\noutcomes   intended {}   sent {}   completed {}   ok {}   timeouts {}   errors {}   dropped {}   "
                 "unfinished {}\n",
                 c.intended, c.sent, c.completed, c.ok, c.timeouts, c.errors_total(), c.dropped, c.unfinished);
  std::string statuses;
  const char* names[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};
  for (std::size_t i = 0; i < c.status_class.size(); ++i) {
    if (c.status_class[i] != 0) statuses += fmt::format("   {} {}", names[i], c.status_class[i]);
  }
  if (!statuses.empty()) fmt::format_to(std::back_inserter(out), "statuses{}\n", statuses);
  if (c.errors_total() != 0) {
    std::string kinds;
    for (std::size_t i = 0; i < results::k_error_kinds; ++i) {
      if (c.errors[i] != 0) kinds += fmt::format("   {} {}", results::to_string(static_cast<results::ErrorKind>(i)), c.errors[i]);
    }
    fmt::format_to(std::back_inserter(out), "errors{}\n", kinds);
  }
  const auto& g = r.generator;
  fmt::format_to(std::back_inserter(out),
                 "generator  threads {}   connections opened {} (peak {} open, cap {})   CPU {:.2f}s   max RSS {} MiB\n",
                 g.threads, c.connections_opened + r.warmup.connections_opened, g.peak_connections, g.max_connections,
                 g.cpu_seconds, g.max_rss_kb / 1024);
  return out;
}

}  // namespace openloop::report
