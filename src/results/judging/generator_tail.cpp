// The generator's-tail warning.
#include "results/judging/generator_tail.h"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::results {

std::string generator_tail_warning(const RunResults& r) {
  const bool open = r.info.model == Model::open || r.info.model == Model::sessions;
  if (!open || r.response_time.total_count() < 1000 || r.send_lateness.total_count() == 0) return "";
  // With 0.1 % or more of the arrivals queued for a free stream or connection, the lateness at p99.9 may be
  // theirs: the connections', not the generator's (the slot-wait line and the verdict say so).
  if (r.totals.slot_waits * 1000 >= r.totals.intended) return "";
  const double response_ms = static_cast<double>(r.response_time.value_at_percentile(99.9)) / 1e6;
  const double lateness_ms = static_cast<double>(r.send_lateness.value_at_percentile(99.9)) / 1e6;
  constexpr double k_worth_naming_ms = 0.1;
  if (!(response_ms > 0) || lateness_ms < k_worth_naming_ms) return "";
  if (lateness_ms <= k_generator_tail_share * response_ms) return "";
  // What would send closer to schedule: more threads only while there are cores to put them on (beyond that
  // they take CPU from each other). The warning is made as the run ends, on the host that ran it, before the
  // results carry their environment.
  const auto& env = r.info.environment;
  const long long cores = env.is_object() && env.contains("cores") && env["cores"].is_number_integer()
                              ? env["cores"].get<long long>()
                              : static_cast<long long>(std::thread::hardware_concurrency());
  std::string remedy = "a quieter host or dedicated cores";
  if (cores > static_cast<long long>(r.generator.threads)) remedy += fmt::format(", more --threads (this host has {} cores)", cores);
  remedy += ", or --spin-below 10ms (spinning through every wait, up to a full core per thread)";
  return fmt::format(
      "the tail is the generator's: send lateness p99.9 {} of response p99.9 {} ({:.0f}%); response "
      "time counts from each request's intended time, so that much of the tail was spent in openloop before the "
      "send, not at the target (service time shows the target's part; the generator line names the timer floor "
      "and the CPU it waited for; {} would send closer to schedule)",
      format_duration(from_seconds(lateness_ms / 1e3)), format_duration(from_seconds(response_ms / 1e3)),
      100 * lateness_ms / response_ms, remedy);
}

std::optional<SloLateness> slo_lateness(const SloResult& s, const RunResults& r) {
  const bool open = r.info.model == Model::open || r.info.model == Model::sessions;
  const bool upper = s.slo.op == Slo::Op::lt || s.slo.op == Slo::Op::le;
  if (!open || !s.evaluated || s.met || s.slo.metric != Slo::Metric::percentile || !upper ||
      !s.slo.request.empty() || r.response_time.total_count() == 0 || r.send_lateness.total_count() == 0)
    return std::nullopt;
  SloLateness l;
  l.percentile = s.slo.percentile;
  l.response_ns = r.response_time.value_at_percentile(l.percentile);
  l.lateness_ns = r.send_lateness.value_at_percentile(l.percentile);
  l.service_ns = r.service_time.value_at_percentile(l.percentile);
  constexpr std::int64_t k_worth_naming_ns = 100'000;
  if (l.response_ns <= 0 || l.lateness_ns < k_worth_naming_ns) return std::nullopt;
  l.share = static_cast<double>(l.lateness_ns) / static_cast<double>(l.response_ns);
  if (l.share <= k_generator_tail_share) return std::nullopt;
  return l;
}

std::string slo_lateness_note(const SloResult& s, const RunResults& r) {
  const auto l = slo_lateness(s, r);
  if (!l) return "";
  const std::string p = metric_name(s.slo);
  return fmt::format(
      "{:.0f}% of this {} is openloop's own send lateness ({} {} of response {} {}; service time {} {}): the "
      "target may not be at fault; the SLO failed as measured from the intended times, and a run that sends on "
      "time tells whether the target meets it (the generator line and docs/results.md#slos say how)",
      100 * std::min(l->share, 1.0), p, p, format_duration(Nanos(l->lateness_ns)), p,
      format_duration(Nanos(l->response_ns)), p, format_duration(Nanos(l->service_ns)));
}

}  // namespace openloop::results
