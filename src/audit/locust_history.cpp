// Locust's stats history audited from its aggregates.
#include "audit/locust_history.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "audit/fields.h"
#include "audit/honest_run.h"
#include "audit/line_source.h"
#include "core/units.h"

namespace openloop::audit {

namespace {

// Seconds read or derived from the file as a duration, clamped to ±100 years: a fuzzed or broken file's numbers
// must not overflow the conversion (from_seconds of 1e19 is undefined behaviour).
Nanos clamped_seconds(double s) {
  constexpr double k_limit = 100.0 * 365 * 86400;
  return from_seconds(std::isfinite(s) ? std::clamp(s, -k_limit, k_limit) : 0.0);
}

// The requests completed between two changes of Locust's total count.
struct Window {
  double span_s = 0;  ///< since the previous change
  double users = 0;   ///< the user count at its end
  double x = 0;       ///< completions per second
  double r_s = 0;     ///< their mean response time, from the cumulative mean and count
};

double median_of(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// A Locust user waits for its response, then its wait_time. A think time (constant, between) is the same after
// a slow response; constant_throughput's is the pace T less the response time, and none past T. By Little's law
// each window's mean wait is Z = N/X − R: for a think time it stays level as R rises, for a pace it falls by all
// of R's rise while responses stay under T, and by about Z/(S − T/2) for a freeze of S > T (each user's one
// stuck request waits none), so a long freeze hides a pace (seed 001: pacing degrades into a closed loop).
// The fall is the median of the slopes −ΔZ/ΔR over every pair of windows whose response times differ by a tenth
// of the cycle or more (Theil–Sen): a window that straddles a change (requests in flight at its end, so few
// completions and a wait that looks long) is an outlier it ignores, where a sum over the slow stretches did not
// (a pace once read −2.1). A fall of at least 0.35 reads as a pace; at most 0.25, a think time (below zero the
// wait rose: no pace held the users back); between, neither is claimed. Real Locust runs at load 14 (the e2e):
// a pace under which responses stayed read 0.96–1.00 in 8 of 8; between(0.3, 0.7) −0.10 to 0.24 in 5 of 5 (its
// users' own overhead grows with the host's load and moves their wait; docs/audit.md). The shortfall is what the healthy cycle
// asked for in the slow stretches (windows whose cycle N/X or response time stood out, merged while they touch)
// and the users did not send.
ModelFinding pace_or_think(const std::vector<Window>& windows) {
  ModelFinding f;
  f.model = LoadModel::closed;
  const std::string aggregates = "the stats history holds aggregates, so this is read from its windows";
  std::vector<double> cycles, responses;
  for (const Window& w : windows) {
    if (w.x <= 0 || w.users <= 0) continue;
    cycles.push_back(w.users / w.x);
    responses.push_back(w.r_s);
  }
  if (cycles.size() < 3) {
    f.evidence = fmt::format(
        "Locust users each wait for their response, then their wait_time (a closed model); {} and it has too "
        "few ({}) to tell a pace from a think time",
        aggregates, cycles.size());
    return f;
  }
  const double cycle = median_of(cycles), healthy_r = median_of(responses), healthy_z = cycle - healthy_r;
  f.pairs = static_cast<std::int64_t>(cycles.size());
  // The wait's fall against the response time's rise, pair by pair (cycles[i] − responses[i] is window i's wait).
  // Beyond 1,000 windows (over half an hour of Locust's one-second rows) every k-th window is paired, so the
  // pairs stay under half a million whatever the file's length.
  const std::size_t stride = (cycles.size() + 999) / 1000;
  std::vector<double> falls;
  for (std::size_t i = 0; i < cycles.size(); i += stride) {
    for (std::size_t j = i + stride; j < cycles.size(); j += stride) {
      const double rise = responses[j] - responses[i];
      if (std::abs(rise) < 0.1 * cycle) continue;
      falls.push_back(((cycles[i] - responses[i]) - (cycles[j] - responses[j])) / rise);
    }
  }
  // The slow stretches, merged: users·time and completions, for the shortfall.
  double asked = 0, sent = 0;
  int stretches = 0;
  double user_s = 0, done = 0;
  auto close_stretch = [&] {
    if (done <= 0) return;
    ++stretches;
    asked += user_s / cycle;
    sent += done;
    user_s = done = 0;
  };
  for (const Window& w : windows) {
    const bool slow =
        w.x <= 0 || w.users / w.x > 1.1 * cycle || w.r_s >= healthy_r + 0.1 * cycle;
    if (!slow) {
      close_stretch();
      continue;
    }
    user_s += w.users * w.span_s;
    done += w.x * w.span_s;
  }
  close_stretch();
  if (stretches == 0 || falls.empty()) {
    f.evidence = fmt::format(
        "Locust users each wait for their response, then their wait_time: a cycle of {} per user (N/X), "
        "steady; no stretch was slow, so a pace (constant_throughput) cannot be told from a think time; {}",
        format_duration(clamped_seconds(cycle)), aggregates);
    return f;
  }
  const double slope = median_of(falls);  // 0: a think time; 1: a pace the responses stayed under
  const std::string measured = fmt::format(
      "over {} slow stretch(es) the users' mean wait (N/X − R, by Little's law) {} by {:.2f} of the "
      "response time's rise (the median over {} pairs of windows; a fall of 0 for a think time, up to 1 for a "
      "pace; healthy cycle {}, wait {})",
      stretches, slope < 0 ? "rose" : "fell", std::abs(slope), falls.size(), format_duration(clamped_seconds(cycle)), format_duration(clamped_seconds(healthy_z)));
  const std::string shortfall =
      asked > sent ? fmt::format("; in them the users sent {:.0f} requests of the {:.0f} their healthy cycle "
                                 "asks for ({:.0f} % short)",
                                 sent, asked, 100 * (1 - sent / asked))
                   : "";
  if (slope >= 0.35) {
    f.model = LoadModel::paced;
    f.evidence = fmt::format("paced (constant_throughput, pace {}): {}{}; {}", format_duration(clamped_seconds(cycle)),
                             measured, shortfall, aggregates);
  } else if (slope <= 0.25) {
    f.evidence = fmt::format("closed with a think time of {}: {}{}; {}", format_duration(clamped_seconds(healthy_z)),
                             measured, shortfall, aggregates);
  } else {
    f.evidence = fmt::format(
        "closed (a pace and a think time cannot be told apart here: a freeze longer than the cycle leaves a "
        "paced user one stuck request without a wait, as a closed loop): {}{}; {}",
        measured, shortfall, aggregates);
  }
  return f;
}

}  // namespace

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
  std::vector<Window> windows;
  double window_from_s = 0, window_count = 0, window_sum_ms = 0;
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
    if (rows++ == 0) {
      first_s = window_from_s = *t;
    } else if (*count > window_count && *t > window_from_s) {
      // The rows between two changes of the total count are one window (Locust updates its totals about every
      // two seconds, so most rows repeat the last).
      const double done = *count - window_count;
      windows.push_back({*t - window_from_s, *users, done / (*t - window_from_s),
                         (*avg * *count - window_sum_ms) / done / 1e3});
      window_from_s = *t;
      // The windows are the feedback's bins: Locust's own Requests/s is a rolling average that lags them.
      FeedbackBin b;
      b.offset = clamped_seconds(*t - first_s);
      b.sent_per_s = windows.back().x;
      b.sent = static_cast<std::int64_t>(done);
      b.p99 = p99 ? clamped_seconds(*p99 / 1e3) : Nanos(0);
      bins.push_back(b);
    }
    if (*count != window_count) {
      window_count = *count;
      window_sum_ms = *avg * *count;
    }
    last_s = *t;
    users_sum += *users;
    requests = static_cast<long long>(*count);
    r_ms = *avg;
  }
  a.bad = lines.bad_lines();
  if (bins.empty()) {
    return usage_error(fmt::format("{}: no 'Aggregated' rows whose total request count grew could be read{}", path,
                                   a.bad.count > 0 ? fmt::format(" (first bad line: {})", a.bad.first) : ""));
  }
  a.records = requests;
  a.span = clamped_seconds(last_s - first_s);
  a.model = pace_or_think(windows);
  LittleFinding& l = a.little;
  l.x_per_s = last_s > first_s ? static_cast<double>(requests) / (last_s - first_s) : 0;
  l.r_mean = clamped_seconds(r_ms / 1e3);
  const double n = users_sum / static_cast<double>(rows);
  l.n = n;
  l.z_mean = l.x_per_s > 0 ? std::max(Nanos(0), clamped_seconds(n / l.x_per_s) - l.r_mean) : Nanos(0);
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
        "({} of {} windows between changes of Locust's totals; p99 the worst window's)",
        100 * drop, format_rate(f.healthy_rate), format_rate(f.worst_rate), format_duration(f.healthy_p99),
        format_duration(f.worst_p99), slow, f.bins.size());
  }
  a.omission.why =
      "Locust's stats history holds per-second aggregates, no request: what coordinated omission hid "
      "cannot be computed (only the feedback and Little's law can be shown)";
  a.limits.push_back("aggregates only: no sender, no request; only the feedback and Little's law are shown");
  a.honest = honest_run(a, target);
  a.verdict = fmt::format(
      "a {} loop of about {:.0f} users offered {} when healthy and {} when slow; what users "
      "arriving at {} would have seen cannot be estimated from aggregates: run the command below",
      a.model.model == LoadModel::paced ? "paced" : "closed", l.n, format_rate(f.healthy_rate), slow > 0 ? format_rate(f.worst_rate) : "the same",
      format_rate(a.honest.rate));
  return a;
}

}  // namespace openloop::audit
