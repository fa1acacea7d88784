// CSV rendering of the interval series.
#include "report/csv.h"

#include <fmt/format.h>

namespace openloop::report {
namespace {

constexpr const char* k_counts[] = {"intended",    "sent",     "completed",      "ok",
                                    "timeouts",    "errors",   "dropped",        "unfinished",
                                    "offered_rps", "sent_rps", "throughput_rps", "goodput_rps"};
constexpr const char* k_stats[] = {"count",   "p50_ms",   "p90_ms", "p99_ms",
                                   "p999_ms", "p9999_ms", "max_ms", "mean_ms"};

// Fixed notation, at most 6 decimals (nanoseconds when in ms), trailing zeros dropped: "1.25", "0.000851",
// "200".
std::string number(double v) {
  std::string text = fmt::format("{:.6f}", v);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string ms(std::int64_t ns) {
  return number(static_cast<double>(ns) / 1e6);
}

void latency_cells(std::string& row, const results::LatencySummary& s) {
  if (s.count == 0) {
    row += ",0,,,,,,,";
    return;
  }
  row += fmt::format(",{},{},{},{},{},{},{},{}", s.count, ms(s.p50), ms(s.p90), ms(s.p99), ms(s.p999),
                     ms(s.p9999), ms(s.max), number(s.mean / 1e6));
}

void count_cells(std::string& row, const results::IntervalResult& i) {
  const auto& c = i.counters;
  const auto rate = [&](std::uint64_t n) {
    return number(i.length_s > 0 ? static_cast<double>(n) / i.length_s : 0.0);
  };
  row += fmt::format(",{},{},{},{},{},{},{},{},{},{},{},{}", c.intended, c.sent, c.completed, c.ok,
                     c.timeouts, c.errors_total(), c.dropped, c.unfinished, rate(c.intended), rate(c.sent),
                     rate(c.completed), rate(c.ok));
}

const results::LatencySummary& summary(const results::IntervalResult& i, int slot) {
  return slot == 0 ? i.response_time : (slot == 1 ? i.service_time : i.send_lateness);
}

const std::string& hist(const results::IntervalResult& i, int slot) {
  return slot == 0 ? i.response_time_hist : (slot == 1 ? i.service_time_hist : i.send_lateness_hist);
}

}  // namespace

std::string render_csv(const ReportInput& in) {
  const auto& r = in.results;
  bool present[3] = {true, true, true};
  if (!in.has_counts) {
    for (int slot = 0; slot < 3; ++slot) {
      present[slot] = false;
      for (const auto& i : r.intervals) present[slot] = present[slot] || !hist(i, slot).empty();
    }
  }
  std::string out = "interval,start_unix_s,start_s,length_s";
  if (in.has_counts) {
    for (const char* c : k_counts) out += fmt::format(",{}", c);
  }
  for (int slot = 0; slot < 3; ++slot) {
    if (!present[slot]) continue;
    for (const char* s : k_stats) out += fmt::format(",{}_{}", k_latency_tags[slot], s);
  }
  out += "\n";
  for (std::size_t k = 0; k < r.intervals.size(); ++k) {
    const auto& i = r.intervals[k];
    const std::string start =
        r.info.start_unix_s > 0 ? fmt::format("{:.3f}", r.info.start_unix_s + i.start_s) : "";
    out += fmt::format("{},{},{},{}", k, start, number(i.start_s), number(i.length_s));
    if (in.has_counts) count_cells(out, i);
    for (int slot = 0; slot < 3; ++slot) {
      if (present[slot]) latency_cells(out, summary(i, slot));
    }
    out += "\n";
  }
  return out;
}

}  // namespace openloop::report
