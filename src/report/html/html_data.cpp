// The chart data of the HTML report: interval series and the percentile spectrum, computed from the
// histograms.
#include <cmath>

#include "report/html/html.h"
#include "report/html/html_observed.h"
#include "results/judging/verdict.h"

namespace openloop::report {
namespace {

using nlohmann::json;

json ms_or_null(std::int64_t ns, std::int64_t count) {
  return count == 0 ? json() : json(static_cast<double>(ns) / 1e6);
}

}  // namespace

nlohmann::json co_gap(const results::RunResults& r) {
  const hdr::Histogram& rt = r.response_time;
  const hdr::Histogram& st = r.service_time;
  if (r.info.model != results::Model::open || rt.total_count() == 0 || st.total_count() == 0) return json();
  const double own_ms = results::lateness_bound_ms(r);
  json best;
  double best_ratio = k_co_gap_min_ratio;
  for (const double p : {99.0, 99.9}) {
    // A percentile needs samples beyond it to mean anything: p99.9 from fewer than 1,000 is the max.
    if (static_cast<double>(rt.total_count()) * (1 - p / 100) < 1) continue;
    const double r_ms = static_cast<double>(rt.value_at_percentile(p)) / 1e6;
    const double s_ms = static_cast<double>(st.value_at_percentile(p)) / 1e6;
    if (!(s_ms > 0) || r_ms - s_ms <= own_ms) continue;
    if (r_ms / s_ms > best_ratio) {
      best_ratio = r_ms / s_ms;
      best = {{"percentile", p},     {"x", 1 / (1 - p / 100)}, {"ratio", r_ms / s_ms},
              {"response_ms", r_ms}, {"service_ms", s_ms},     {"own_lateness_ms", own_ms}};
    }
  }
  return best;
}

namespace {

// Response and service time at x = 1/(1 − p), ten points per decade up to the total count, then the max.
json spectrum(const results::RunResults& r) {
  const hdr::Histogram& rt = r.response_time;
  const hdr::Histogram& st = r.service_time;
  json x = json::array(), response = json::array(), service = json::array();
  const std::int64_t n = rt.total_count();
  if (n == 0) return json{{"x", x}, {"response", response}, {"service", service}};
  const auto add = [&](double at, double percentile) {
    x.push_back(at);
    response.push_back(static_cast<double>(rt.value_at_percentile(percentile)) / 1e6);
    service.push_back(
        st.total_count() == 0 ? json() : json(static_cast<double>(st.value_at_percentile(percentile)) / 1e6));
  };
  const double last = static_cast<double>(n);
  for (int i = 0;; ++i) {
    const double at = std::pow(10.0, i / 10.0);
    if (at >= last) break;
    add(at, 100.0 * (1.0 - 1.0 / at));
  }
  add(std::max(last, 1.0), 100.0);
  return json{{"x", x}, {"response", response}, {"service", service}, {"gap", co_gap(r)}};
}

json interval_series(const ReportInput& in) {
  json t = json::array(), len = json::array();
  json p50 = json::array(), p90 = json::array(), p99 = json::array(), max = json::array();
  json offered = json::array(), sent = json::array(), recorded = json::array();
  json throughput = json::array(), goodput = json::array();
  json ok = json::array(), bad = json::array(), errors = json::array(), timeouts = json::array(),
       dropped = json::array(), unfinished = json::array();
  for (const auto& i : in.results.intervals) {
    const auto& s = i.response_time;
    const auto per_s = [&](std::uint64_t count) {
      return i.length_s > 0 ? static_cast<double>(count) / i.length_s : 0.0;
    };
    t.push_back(i.start_s);
    len.push_back(i.length_s);
    p50.push_back(ms_or_null(s.p50, s.count));
    p90.push_back(ms_or_null(s.p90, s.count));
    p99.push_back(ms_or_null(s.p99, s.count));
    max.push_back(ms_or_null(s.max, s.count));
    const auto& c = i.counters;
    recorded.push_back(per_s(static_cast<std::uint64_t>(s.count)));
    offered.push_back(per_s(c.intended));
    sent.push_back(per_s(c.sent));
    throughput.push_back(per_s(c.completed));
    goodput.push_back(per_s(c.ok));
    ok.push_back(c.ok);
    bad.push_back(c.completed - c.ok);
    errors.push_back(c.errors_total());
    timeouts.push_back(c.timeouts);
    dropped.push_back(c.dropped);
    unfinished.push_back(c.unfinished);
  }
  json out = {{"t", t}, {"len", len}, {"rt", {{"p50", p50}, {"p90", p90}, {"p99", p99}, {"max", max}}}};
  if (!in.has_counts) {
    out["rate"] = {{"recorded", recorded}};
    return out;
  }
  out["rate"] = {{"offered", offered}, {"sent", sent}};
  out["throughput"] = throughput;
  out["goodput"] = goodput;
  out["outcomes"] = {{"ok", ok},           {"bad_status", bad},
                     {"errors", errors},   {"timeouts", timeouts},
                     {"dropped", dropped}, {"unfinished", unfinished}};
  return out;
}

}  // namespace

nlohmann::json chart_data(const ReportInput& in) {
  json data = interval_series(in);
  data["spectrum"] = spectrum(in.results);
  data["has_counts"] = in.has_counts;
  data["model"] = results::to_string(in.results.info.model);
  data["observed"] = observed_chart_data(in.results);
  return data;
}

}  // namespace openloop::report
