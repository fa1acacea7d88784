// CSV rendering of the interval series, one set of rows per scope (the run, each request, each scenario).
#include "report/csv.h"

#include <fmt/format.h>

#include "report/text_format.h"

namespace openloop::report {
namespace {

constexpr const char* k_counts[] = {"intended",    "sent",     "completed",      "ok",
                                    "timeouts",    "errors",   "dropped",        "unfinished",
                                    "offered_rps", "sent_rps", "throughput_rps", "goodput_rps"};
constexpr const char* k_stats[] = {"count",   "p50_ms",   "p90_ms", "p99_ms",
                                   "p999_ms", "p9999_ms", "max_ms", "mean_ms"};
constexpr const char* k_unknown_latency = ",,,,,,,,";  // one empty cell per k_stats entry

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

using csv::field;

void latency_cells(std::string& row, const results::LatencySummary& s) {
  if (s.count == 0) {
    row += ",0,,,,,,,";
    return;
  }
  row += fmt::format(",{},{},{},{},{},{},{},{}", s.count, ms(s.p50), ms(s.p90), ms(s.p99), ms(s.p999),
                     ms(s.p9999), ms(s.max), number(s.mean / 1e6));
}

void count_cells(std::string& row, const results::Counters& c, double length_s) {
  const auto rate = [&](std::uint64_t n) {
    return number(length_s > 0 ? static_cast<double>(n) / length_s : 0.0);
  };
  row += fmt::format(",{},{},{},{},{},{},{},{},{},{},{},{}", c.intended, c.sent, c.completed, c.ok,
                     c.timeouts, c.errors_total(), c.dropped, c.unfinished, rate(c.intended), rate(c.sent),
                     rate(c.completed), rate(c.ok));
}

const results::LatencySummary& summary(const results::IntervalResult& i, int slot) {
  return slot == 0 ? i.response_time : (slot == 1 ? i.service_time : i.send_lateness);
}

const hdr::Histogram& total(const results::RunResults& r, int slot) {
  return slot == 0 ? r.response_time : (slot == 1 ? r.service_time : r.send_lateness);
}

std::string hist(const results::IntervalResult& i, int slot) {
  return (slot == 0 ? i.response_time_hist : (slot == 1 ? i.service_time_hist : i.send_lateness_hist)).text();
}

/// Which columns exist: counts for a results file; from an .hlog the latencies it holds.
struct Columns {
  bool counts = true;
  bool latency[3] = {true, true, true};
};

// The first cells of a row: scope, interval ("all" for the whole measured period), its start and length.
std::string row_start(const std::string& scope, const std::string& interval, const results::RunResults& r,
                      double start_s, double length_s) {
  const std::string start =
      r.info.start_unix_s > 0 ? fmt::format("{:.3f}", r.info.start_unix_s + start_s) : "";
  return fmt::format("{},{},{},{},{}", field(scope), interval, start, number(start_s), number(length_s));
}

// A run's (or scenario's) rows: one per interval, then its whole measured period.
void run_rows(std::string& out, const std::string& scope, const results::RunResults& r, const Columns& cols) {
  for (std::size_t k = 0; k < r.intervals.size(); ++k) {
    const auto& i = r.intervals[k];
    out += row_start(scope, std::to_string(k), r, i.start_s, i.length_s);
    if (cols.counts) count_cells(out, i.counters, i.length_s);
    for (int slot = 0; slot < 3; ++slot) {
      if (cols.latency[slot]) latency_cells(out, summary(i, slot));
    }
    out += "\n";
  }
  out += row_start(scope, "all", r, 0, r.measured_s);
  if (cols.counts) count_cells(out, r.totals, r.measured_s);
  for (int slot = 0; slot < 3; ++slot) {
    if (cols.latency[slot]) latency_cells(out, results::LatencySummary::of(total(r, slot)));
  }
  out += "\n";
}

// One request's rows within a run: counts per interval (its latencies are kept for the whole period only),
// then the whole period with its response and service time.
void request_rows(std::string& out, const std::string& scope, const results::RunResults& r, std::size_t q) {
  for (std::size_t k = 0; k < r.intervals.size(); ++k) {
    const auto& i = r.intervals[k];
    out += row_start(scope, std::to_string(k), r, i.start_s, i.length_s);
    count_cells(out, q < i.by_request.size() ? i.by_request[q] : results::Counters{}, i.length_s);
    out += std::string(k_unknown_latency) + k_unknown_latency + k_unknown_latency + "\n";
  }
  const results::RequestTotals& t = r.by_request[q];
  out += row_start(scope, "all", r, 0, r.measured_s);
  count_cells(out, t.counters, r.measured_s);
  latency_cells(out, results::LatencySummary::of(t.response_time));
  latency_cells(out, results::LatencySummary::of(t.service_time));
  out += std::string(k_unknown_latency) + "\n";
}

// A scope and, for every request it sent (when it keeps a per-request breakdown), "<scope>/request:<name>".
void scope_rows(std::string& out, const std::string& scope, const std::string& prefix,
                const results::RunResults& r, const Columns& cols) {
  run_rows(out, scope, r, cols);
  for (std::size_t q = 0; q < r.by_request.size(); ++q) {
    if (r.by_request[q].counters.intended == 0) continue;
    const std::string& name =
        q < r.info.request_names.size() ? r.info.request_names[q] : r.by_request[q].name;
    request_rows(out, prefix + "request:" + name, r, q);
  }
}

}  // namespace

std::string render_csv(const ReportInput& in) {
  const auto& r = in.results;
  Columns cols;
  cols.counts = in.has_counts;
  if (!in.has_counts) {
    for (int slot = 0; slot < 3; ++slot) {
      cols.latency[slot] = false;
      for (const auto& i : r.intervals) cols.latency[slot] = cols.latency[slot] || !hist(i, slot).empty();
    }
  }
  std::string out = "scope,interval,start_unix_s,start_s,length_s";
  if (cols.counts) {
    for (const char* c : k_counts) out += fmt::format(",{}", c);
  }
  for (int slot = 0; slot < 3; ++slot) {
    if (!cols.latency[slot]) continue;
    for (const char* s : k_stats) out += fmt::format(",{}_{}", k_latency_tags[slot], s);
  }
  out += "\n";
  scope_rows(out, "total", "", r, cols);
  for (const auto& part : r.scenarios) {
    const std::string scope = "scenario:" + part.name;
    scope_rows(out, scope, scope + "/", part.results, cols);
  }
  return out;
}

}  // namespace openloop::report
