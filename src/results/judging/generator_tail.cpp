// The generator's-tail warning.
#include "results/judging/generator_tail.h"

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

}  // namespace openloop::results
