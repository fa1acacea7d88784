// Locust's stats history audited from its aggregates.
#include "audit/locust_history.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "audit/fields.h"
#include "audit/honest_run.h"
#include "audit/line_source.h"
#include "core/units.h"

namespace openloop::audit {

Result<AuditResult> audit_locust_history(const std::string& path, const std::string& target) {
  LineSource lines = OPENLOOP_TRY(LineSource::open(path));
  std::string line;
  if (!lines.next(line))
    return usage_error(fmt::format("{}: is empty; expected a Locust stats history", path));
  std::vector<std::string> fields;
  split_fields(line, ',', fields);
  const Columns columns(fields);
  const auto at =
      OPENLOOP_TRY(columns.require({"Timestamp", "User Count", "Name", "Requests/s", "99%",
                                    "Total Request Count", "Total Average Response Time"},
                                   path, "a Locust --csv stats history (PREFIX_stats_history.csv)"));
  AuditResult a;
  a.path = path;
  a.tool = "Locust";
  double users_sum = 0, first_s = 0, last_s = 0, r_ms = 0;
  long long requests = 0;
  std::int64_t rows = 0;
  std::vector<FeedbackBin> bins;
  while (lines.next(line)) {
    if (line.empty()) continue;
    if (!split_fields(line, ',', fields) || fields.size() != columns.size()) {
      lines.bad(fmt::format("{} fields; expected {} as the header names", fields.size(), columns.size()));
      continue;
    }
    if (fields[at[2]] != "Aggregated") continue;
    const auto t = parse_number(fields[at[0]]), users = parse_number(fields[at[1]]);
    const auto rps = parse_number(fields[at[3]]), count = parse_number(fields[at[5]]);
    const auto avg = parse_number(fields[at[6]]);
    const auto p99 = parse_number(fields[at[4]]);  // "N/A" before the first response: no p99
    if (!t || !users || !rps || !count || !avg) {
      lines.bad(
          "Timestamp, User Count, Requests/s, Total Request Count and Total Average Response Time must be "
          "numbers");
      continue;
    }
    if (rows++ == 0) first_s = *t;
    last_s = *t;
    users_sum += *users;
    requests = static_cast<long long>(*count);
    r_ms = *avg;
    FeedbackBin b;
    b.offset = from_seconds(*t - first_s);
    b.sent_per_s = *rps;
    b.sent = static_cast<std::int64_t>(*rps);
    b.p99 = p99 ? from_seconds(*p99 / 1e3) : Nanos(0);
    bins.push_back(b);
  }
  a.bad = lines.bad_lines();
  if (rows == 0) {
    return usage_error(fmt::format("{}: no 'Aggregated' row could be read{}", path,
                                   a.bad.count > 0 ? fmt::format(" (first bad line: {})", a.bad.first) : ""));
  }
  a.records = requests;
  a.span = from_seconds(last_s - first_s);
  a.model.model = LoadModel::closed;
  a.model.evidence =
      "Locust users each wait for their response, then their wait_time (a closed model, paced by "
      "constant_throughput when used); the stats history holds aggregates, so this is the tool's "
      "model, not measured";
  LittleFinding& l = a.little;
  l.x_per_s = last_s > first_s ? static_cast<double>(requests) / (last_s - first_s) : 0;
  l.r_mean = from_seconds(r_ms / 1e3);
  const double n = users_sum / static_cast<double>(rows);
  l.n = n;
  l.z_mean = l.x_per_s > 0 ? std::max(Nanos(0), from_seconds(n / l.x_per_s) - l.r_mean) : Nanos(0);
  l.z_source =
      "Z = N/X − R: N the mean user count, the users' wait_time and Locust's own time between requests";
  l.in_flight = l.x_per_s * to_seconds(l.r_mean);
  // The rows as bins: healthy is their median, slow the rows with twice its p99 or half its rate.
  FeedbackFinding& f = a.feedback;
  f.bin_width = bins.size() > 1
                    ? (bins.back().offset - bins.front().offset) / static_cast<long>(bins.size() - 1)
                    : Nanos(0);
  std::vector<double> rates;
  std::vector<Nanos> p99s;
  for (const auto& b : bins) {
    rates.push_back(b.sent_per_s);
    if (b.p99 > Nanos(0)) p99s.push_back(b.p99);
  }
  std::sort(rates.begin(), rates.end());
  std::sort(p99s.begin(), p99s.end());
  f.healthy_rate = rates[rates.size() / 2];
  f.healthy_p99 = p99s.empty() ? Nanos(0) : p99s[p99s.size() / 2];
  double slow_rate = 0;
  Nanos slow_p99{0};
  int slow = 0;
  for (const auto& b : bins) {
    if ((b.p99 > Nanos(0) && b.p99 >= 2 * f.healthy_p99) || b.sent_per_s < 0.5 * f.healthy_rate) {
      ++slow;
      slow_rate += b.sent_per_s;
      slow_p99 = std::max(slow_p99, b.p99);
    }
  }
  f.bins = std::move(bins);
  if (slow == 0) {
    f.sentence = fmt::format("no slow stretch: the rate held near {} and p99 near {} (Locust's rows)",
                             format_rate(f.healthy_rate), format_duration(f.healthy_p99));
  } else {
    f.worst_rate = slow_rate / slow;
    f.worst_p99 = slow_p99;
    const double drop = f.healthy_rate > 0 ? 1 - f.worst_rate / f.healthy_rate : 0;
    f.seen = drop >= 0.2 && f.worst_p99 >= 2 * f.healthy_p99;
    f.sentence = fmt::format(
        "arrivals fell {:.0f} % ({} → {}) while p99 rose from {} to {} in the slow stretches "
        "({} of {} rows; p99 the worst row's)",
        100 * drop, format_rate(f.healthy_rate), format_rate(f.worst_rate), format_duration(f.healthy_p99),
        format_duration(f.worst_p99), slow, f.bins.size());
  }
  a.omission.why =
      "Locust's stats history holds per-second aggregates, no request: what coordinated omission hid "
      "cannot be computed (only the feedback and Little's law can be shown)";
  a.limits.push_back("aggregates only: no sender, no request; only the feedback and Little's law are shown");
  a.honest = honest_run(a, target);
  a.verdict = fmt::format(
      "a closed loop of about {:.0f} users offered {} when healthy and {} when slow; what users "
      "arriving at {} would have seen cannot be estimated from aggregates: run the command below",
      l.n, format_rate(f.healthy_rate), slow > 0 ? format_rate(f.worst_rate) : "the same",
      format_rate(a.honest.rate));
  return a;
}

}  // namespace openloop::audit
