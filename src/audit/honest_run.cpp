// The honest run and the verdict.
#include "audit/honest_run.h"

#include <cmath>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::audit {

HonestRun honest_run(const AuditResult& a, const std::string& target) {
  HonestRun h;
  const double mean_rate = to_seconds(a.span) > 0 ? static_cast<double>(a.records) / to_seconds(a.span) : 0;
  if (a.feedback.healthy_rate > 0 && a.model.model != LoadModel::open) {
    h.rate = a.feedback.healthy_rate;
    h.rate_source =
        "the rate its senders achieved in the healthy stretches (median over the bins): what the test "
        "offered when nothing held it back";
  } else {
    h.rate = mean_rate;
    h.rate_source = "the file's mean rate";
  }
  // Rates above 10/s print whole; below, one decimal (a rate of 0.4/s must not print as 0).
  const double rounded = h.rate >= 10 ? std::round(h.rate) : std::round(h.rate * 10) / 10;
  h.duration = std::chrono::seconds(static_cast<long long>(std::ceil(std::max(1.0, to_seconds(a.span)))));
  std::string timeout;
  if (a.omission.corrected.max > Nanos(0)) {
    timeout = fmt::format(" --timeout {}",
                          format_duration(std::chrono::seconds(static_cast<long long>(
                              std::ceil(std::max(1.0, 2 * to_seconds(a.omission.corrected.max)))))));
  }
  h.command = fmt::format("openloop run {} --rate {}/s -d {}{} --json honest.json",
                          target.empty() ? "TARGET" : target, rounded, format_duration(h.duration), timeout);
  return h;
}

std::string verdict(const AuditResult& a) {
  const PercentileSet& u = a.omission.uncorrected;
  if (u.count == 0) return "no requests to judge";
  if (a.model.model == LoadModel::open && a.lateness.applicable &&
      a.lateness.lateness.p99 > std::chrono::milliseconds(1)) {
    // The bound openloop's own verdict starts from: a send-lateness p99 over 1 ms.
    return fmt::format(
        "this run's p99 of {} was measured from each send under an open model, but {} itself sent p99 {} "
        "late ({} sends more than one interval behind its schedule): from when each request was due, the "
        "tail is longer than the file says",
        format_duration(u.p99), a.tool, format_duration(a.lateness.lateness.p99),
        a.lateness.late_over_interval);
  }
  if (a.model.model == LoadModel::open) {
    return fmt::format(
        "this run's p99 of {} was measured under an open model: latency did not hold back the "
        "sends, so it stands as measured from each send",
        format_duration(u.p99));
  }
  std::string who = a.model.model == LoadModel::paced ? "a paced loop" : "a closed loop";
  if (a.little.n > 0) who += fmt::format(" of about {:.0f} senders", a.little.n);
  if (!a.omission.applicable) {
    return fmt::format(
        "this run's p99 of {} is what {} saw; what arrivals at its rate would see cannot be "
        "estimated from this file",
        format_duration(u.p99), who);
  }
  return fmt::format(
      "this run's p99 of {} is what {} saw; users arriving at {} would have seen about {} (p99 "
      "corrected for coordinated omission, an estimate: run the command below to measure it)",
      format_duration(u.p99), who, format_rate(a.honest.rate), format_duration(a.omission.corrected.p99));
}

}  // namespace openloop::audit
