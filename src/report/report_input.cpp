// Loading report inputs: results JSON through results_reader, .hlog through hdr's parser, grouped into
// intervals.
#include "report/report_input.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "hdr/codec.h"
#include "report/hlog_export.h"
#include "results/files/results_reader.h"
#include "results/flow_steps.h"

namespace openloop::report {
namespace {

// Index into k_latency_tags for a tag (an untagged line is response_time), or -1 for another tag.
int tag_slot(std::string_view tag) {
  if (tag.empty()) return 0;
  for (int i = 0; i < 3; ++i) {
    if (tag == k_latency_tags[i]) return i;
  }
  return -1;
}

template <class Interval>
auto* hist_text(Interval& r, int slot) {
  return slot == 0 ? &r.response_time_hist : (slot == 1 ? &r.service_time_hist : &r.send_lateness_hist);
}

results::LatencySummary* summary_of(results::IntervalResult& r, int slot) {
  return slot == 0 ? &r.response_time : (slot == 1 ? &r.service_time : &r.send_lateness);
}

hdr::Histogram* total_of(results::RunResults& r, int slot) {
  return slot == 0 ? &r.response_time : (slot == 1 ? &r.service_time : &r.send_lateness);
}

// Java's HistogramLogProcessor accumulation: a reset, auto-resizing copy of the first histogram's layout.
void accumulate(std::optional<hdr::Histogram>& acc, const hdr::Histogram& h) {
  if (!acc) {
    acc = h;
    acc->reset();
    acc->set_auto_resize(true);
  }
  acc->add(h);
}

std::string tags_present(const hdr::IntervalLog& log) {
  std::vector<std::string> tags;
  for (const auto& e : log.intervals) {
    const std::string name = e.tag.empty() ? "(untagged)" : e.tag;
    if (std::find(tags.begin(), tags.end(), name) == tags.end()) tags.push_back(name);
  }
  std::string out;
  for (const auto& t : tags) out += (out.empty() ? "" : ", ") + t;
  return out.empty() ? "none: the log has no interval lines" : out;
}

}  // namespace

Result<ReportInput> from_interval_log(hdr::IntervalLog log, std::string source) {
  ReportInput in;
  in.source = std::move(source);
  in.has_counts = false;
  results::RunResults& r = in.results;
  std::map<std::int64_t, std::size_t> by_start;    // absolute start in ms → interval
  std::vector<results::IntervalResult> intervals;  // the log is in memory whole: so are its intervals
  std::optional<hdr::Histogram> totals[3];
  double first = 0, end = 0;
  for (const hdr::IntervalLogEntry& e : log.intervals) {
    const int slot = tag_slot(e.tag);
    if (slot < 0) continue;
    const double start = log.absolute_start_seconds(e);
    const auto ms = static_cast<std::int64_t>(std::llround(start * 1000.0));
    auto [it, fresh] = by_start.try_emplace(ms, intervals.size());
    if (fresh) {
      if (intervals.empty()) first = start;
      intervals.emplace_back();
      intervals.back().start_s = start - first;
      intervals.back().length_s = e.length.count();
    }
    results::IntervalResult& i = intervals[it->second];
    *hist_text(i, slot) = hdr::to_compressed_base64(e.histogram);
    *summary_of(i, slot) = results::LatencySummary::of(e.histogram);
    accumulate(totals[slot], e.histogram);
    end = std::max(end, start - first + e.length.count());
  }
  std::sort(intervals.begin(), intervals.end(),
            [](const auto& a, const auto& b) { return a.start_s < b.start_s; });
  r.intervals = std::move(intervals);
  for (int slot = 0; slot < 3; ++slot) {
    if (totals[slot]) *total_of(r, slot) = std::move(*totals[slot]);
  }
  const bool absolute = log.start_time_seconds || log.base_time_seconds;
  r.info.start_unix_s = absolute && !r.intervals.empty() ? first : log.start_time_seconds.value_or(0.0);
  r.measured_s = end;
  r.info.duration_s = end;
  r.info.model = results::Model::unknown;
  in.log = std::move(log);
  return in;
}

Result<ReportInput> load_report_input(const std::string& path) {
  const std::string text = OPENLOOP_TRY(read_file(path));
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    ReportInput in;
    in.source = path;
    in.results = OPENLOOP_TRY(results::parse_results(text, path));
    in.document = nlohmann::json::parse(text, nullptr, false);  // parse_results has accepted it
    return in;
  }
  if (first == std::string::npos) {
    return usage_error(fmt::format("{}: the file is empty (expected a results JSON or an .hlog)", path));
  }
  hdr::IntervalLog log = OPENLOOP_TRY(hdr::parse_interval_log(text, path));
  if (log.intervals.empty()) {
    return usage_error(
        fmt::format("{}: neither a results JSON (it does not start with '{{') nor an .hlog with "
                    "interval lines",
                    path));
  }
  return from_interval_log(std::move(log), path);
}

Result<std::vector<hdr::Histogram>> interval_histograms(const ReportInput& in, std::string_view tag) {
  std::vector<hdr::Histogram> out;
  if (in.log) {
    bool tagged = false;
    for (const auto& e : in.log->intervals) tagged = tagged || e.tag == tag;
    // openloop's default tag falls back to a log's untagged lines, which is what other tools write.
    const std::string_view want = !tagged && tag == k_latency_tags[0] ? std::string_view() : tag;
    for (const auto& e : in.log->intervals) {
      if (e.tag == want) out.push_back(e.histogram);
    }
    if (out.empty()) {
      return usage_error(fmt::format("{}: no interval lines tagged \"{}\" (tags present: {})", in.source, tag,
                                     tags_present(*in.log)));
    }
    return out;
  }
  const int slot = tag_slot(tag);
  if (slot < 0 || tag.empty()) {
    // A flow's steps and its own time, as the .hlog tags them (one histogram each, the whole run's).
    const std::vector<results::FlowStep> steps = results::flow_steps(in.results);
    std::string flow_tags;
    for (const results::FlowStep& step : steps) {
      const std::string name = step_tag(step.step, step.request);
      if (tag == name && step.response_time != nullptr)
        return std::vector<hdr::Histogram>{*step.response_time};
      flow_tags += fmt::format(", {}", name);
    }
    if (!steps.empty() && tag == k_flow_tag) return std::vector<hdr::Histogram>{in.results.session_time};
    if (!steps.empty()) flow_tags += fmt::format(", {}", k_flow_tag);
    return usage_error(
        fmt::format("histogram \"{}\" is not in a results file; use response_time, service_time or "
                    "send_lateness{}",
                    tag, flow_tags));
  }
  for (std::size_t k = 0; k < in.results.intervals.size(); ++k) {
    const results::IntervalResult interval = in.results.intervals[k];
    auto h = hdr::from_compressed_base64(hist_text(interval, slot)->text());
    if (!h) return usage_error(fmt::format("{}: /intervals/{}: {}", in.source, k, h.error().message));
    out.push_back(std::move(*h));
  }
  return out;
}

}  // namespace openloop::report
