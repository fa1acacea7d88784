// A replay checked before the run and opened per worker (workload/replay_plan.h).
#include "workload/replay_plan.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace openloop::workload {

ReplayOptions ReplayPlan::lane_options(Nanos end) const {
  ReplayOptions o = request.options;
  o.loop_period = loop_period();
  o.end = end;
  return o;
}

Nanos ReplayPlan::loop_period() const {
  if (!request.loop || counts.records < 2) return Nanos{0};
  const auto n = static_cast<std::int64_t>(counts.records);
  return span + span / (n - 1);
}

RateProfile ReplayPlan::mean_profile(Nanos total) const {
  const Nanos per_pass = request.loop ? loop_period() : total;
  return RateProfile::constant(static_cast<double>(counts.records) / to_seconds(per_pass), total);
}

Result<double> parse_replay_speed(std::string_view text, std::string_view what) {
  std::string_view t = text;
  if (!t.empty() && (t.back() == 'x' || t.back() == 'X')) t.remove_suffix(1);
  double v = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || p != t.data() + t.size() || !(v > 0) || v > 1e6)
    return usage_error(fmt::format("{}: \"{}\" is not accepted; give a factor above 0, e.g. 2 (twice as "
                                   "fast) or 0.5 (half speed)",
                                   what, text));
  return v;
}

std::vector<std::string> ReplayPlan::notes() const {
  std::vector<std::string> out;
  if (spreads_seconds) {
    out.push_back(fmt::format(
        "replay: the log's stamps are whole seconds; each record was spread uniformly within its second by "
        "the seed ({}): log $msec (and $request_time) for the recorded times",
        request.input.seed));
  }
  if (counts.late > 0) {
    out.push_back(fmt::format(
        "replay: {} records were out of order by more than the reorder window ({} s): sent in file order at the "
        "time of the record before them; sort the trace or widen --reorder-window",
        counts.late, std::chrono::duration<double>(request.options.window).count()));
  }
  if (counts.gaps_compressed > 0) {
    out.push_back(fmt::format("replay: {} idle gaps longer than --max-gap compressed, {:.3f} s of trace time removed",
                              counts.gaps_compressed, std::chrono::duration<double>(counts.compressed).count()));
  }
  if (skipped > 0) out.push_back(fmt::format("replay: {} bad lines skipped (--skip-bad); the first: {}", skipped, first_skipped));
  if (no_requests > 0) {
    out.push_back(fmt::format(
        "replay: {} empty request lines skipped (a connection closed before sending a request, logged as "
        "\"\" 400; the first at {})",
        no_requests, first_no_request));
  }
  if (request.options.session_key.any() && counts.keyed < counts.records) {
    out.push_back(fmt::format(
        "replay: {} of {} records have no session under --session-key {}: each of them is replayed on its own",
        counts.records - counts.keyed, counts.records, request.options.session_key.text()));
  }
  if (counts.outside > 0)
    out.push_back(fmt::format("replay: {} records outside --from/--to not replayed", counts.outside));
  if (credentials_dropped > 0) {
    out.push_back(fmt::format(
        "replay: Authorization/Cookie headers dropped from {} records (--keep-header NAME keeps one)",
        credentials_dropped));
  }
  return out;
}

Result<ReplayPlan> scan_replay(ReplayRequest request) {
  ReplayPlan plan;
  TraceReader reader = OPENLOOP_TRY(open_trace(request.input));
  ReplayOptions once = request.options;
  once.loop_period = Nanos{0};
  once.end = Nanos::max();
  ReplaySchedule s(std::move(reader), once, TracePrivacy(request.keep_headers, request.redact_params));
  // Every lane's record passes through the privacy rules here, so their counts are the trace's.
  while (OPENLOOP_TRY(s.next())) {
  }
  plan.counts = s.counts();
  plan.skipped = s.reader().skipped();
  plan.first_skipped = s.reader().first_skipped();
  plan.no_requests = s.reader().no_requests();
  plan.first_no_request = s.reader().first_no_request();
  plan.spreads_seconds = s.reader().spreads_seconds();
  plan.span = s.last_offset();
  plan.credentials_dropped = s.privacy().credentials_dropped();
  plan.params_redacted = s.privacy().params_redacted();
  if (plan.counts.records == 0) {
    return usage_error(fmt::format("{}: no record to replay{}", request.input.path,
                                   plan.counts.outside > 0 ? " inside --from/--to" : ""));
  }
  plan.request = std::move(request);
  return plan;
}

Result<ReplaySchedule> open_lane(const ReplayPlan& plan, ReplayLane lane, Nanos end) {
  TraceReader reader = OPENLOOP_TRY(open_trace(plan.request.input));
  return ReplaySchedule(std::move(reader), plan.lane_options(end),
                        TracePrivacy(plan.request.keep_headers, plan.request.redact_params), std::move(lane));
}

}  // namespace openloop::workload
