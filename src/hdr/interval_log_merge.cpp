// .hlog merge: align by (tag, offset in ms from the log's own start), add histograms, refuse what does not add.
#include "hdr/interval_log_merge.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include <fmt/format.h>

namespace openloop::hdr {

namespace {

// Where an interval sits in the merged log: its offset from the start in whole milliseconds (the format's
// resolution), then its tag's rank (tags in the order the inputs first name them, as a writer wrote them).
using Slot = std::tuple<std::int64_t, std::size_t>;

std::int64_t to_millis(double seconds) { return static_cast<std::int64_t>(std::llround(seconds * 1000.0)); }

std::string describe(const IntervalLogEntry& e) {
  return fmt::format("{}interval at {:.3f}s", e.tag.empty() ? "" : fmt::format("{} ", e.tag), e.start.count());
}

struct Placed {
  IntervalLogEntry entry;
  std::size_t first_log = 0;  // the input that brought this slot first (for errors)
};

}  // namespace

Result<MergedIntervalLog> merge_interval_logs(const std::vector<NamedIntervalLog>& logs, double max_skew_seconds) {
  if (logs.size() < 2) return usage_error("merging interval logs takes two or more .hlog files");
  MergedIntervalLog out;
  double latest = 0;
  std::size_t earliest_log = 0, latest_log = 0;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const IntervalLog& log = logs[i].log;
    if (!log.start_time_seconds) {
      return usage_error(fmt::format(
          "{}: has no #[StartTime: ...] line, so its intervals cannot be aligned with the others'; merge takes "
          "logs written by openloop (run --hlog) or Java's HistogramLogWriter",
          logs[i].source));
    }
    const double start = *log.start_time_seconds;
    if (i == 0 || start < out.start_time_seconds) {
      out.start_time_seconds = start;
      earliest_log = i;
    }
    if (i == 0 || start > latest) {
      latest = start;
      latest_log = i;
    }
  }
  out.start_skew_seconds = latest - out.start_time_seconds;
  if (out.start_skew_seconds > max_skew_seconds + 5e-4) {  // StartTime is written to the millisecond
    return usage_error(fmt::format(
        "{} started {:.3f}s after {}: more than --max-skew {:.3g}s apart, so their intervals hold different "
        "times; merge logs of shards started together (--start-at), or raise --max-skew",
        logs[latest_log].source, out.start_skew_seconds, logs[earliest_log].source, max_skew_seconds));
  }

  std::map<Slot, Placed> slots;
  std::map<std::string, std::size_t> tag_rank;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const IntervalLog& log = logs[i].log;
    std::map<Slot, std::size_t> seen;  // this log's slots: the line that took each
    for (const IntervalLogEntry& e : log.intervals) {
      const double offset = log.absolute_start_seconds(e) - *log.start_time_seconds;
      const Slot slot{to_millis(offset), tag_rank.emplace(e.tag, tag_rank.size()).first->second};
      if (auto [at, fresh] = seen.emplace(slot, e.line); !fresh) {
        return usage_error(fmt::format("{}:{}: a second {} (line {} has one): a log of one run has one "
                                       "histogram per tag and interval",
                                       logs[i].source, e.line, describe(e), at->second));
      }
      auto it = slots.find(slot);
      if (it == slots.end()) {
        Placed p{e, i};
        p.entry.start = LogSeconds(static_cast<double>(std::get<0>(slot)) / 1000.0);
        slots.emplace(slot, std::move(p));
        continue;
      }
      IntervalLogEntry& into = it->second.entry;
      const std::string& first = logs[it->second.first_log].source;
      if (to_millis(into.length.count()) != to_millis(e.length.count())) {
        return usage_error(fmt::format("{}:{}: {} is {:.3f}s long where {} has {:.3f}s: shards of one run have "
                                       "intervals of one length (--interval)",
                                       logs[i].source, e.line, describe(e), e.length.count(), first,
                                       into.length.count()));
      }
      const Histogram& h = e.histogram;
      if (h.significant_digits() != into.histogram.significant_digits() ||
          h.lowest_discernible_value() != into.histogram.lowest_discernible_value()) {
        return usage_error(fmt::format(
            "{}:{}: {} has {} significant digits and lowest value {} where {} has {} and {}: histograms of "
            "different settings do not add exactly",
            logs[i].source, e.line, describe(e), h.significant_digits(), h.lowest_discernible_value(), first,
            into.histogram.significant_digits(), into.histogram.lowest_discernible_value()));
      }
      if (!into.histogram.add(h)) {
        return usage_error(fmt::format("{}:{}: {} holds values beyond what {}'s histogram can track",
                                       logs[i].source, e.line, describe(e), first));
      }
    }
  }
  out.intervals.reserve(slots.size());
  for (auto& [slot, placed] : slots) out.intervals.push_back(std::move(placed.entry));
  return out;
}

Result<std::string> render_merged_interval_log(const MergedIntervalLog& merged, const std::string& comment) {
  std::ostringstream text;
  IntervalLogWriter writer(text);
  writer.write_comment(comment);
  writer.write_header(std::chrono::system_clock::time_point(std::chrono::milliseconds(
      to_millis(merged.start_time_seconds))));
  for (const IntervalLogEntry& e : merged.intervals) {
    OPENLOOP_TRY_VOID(writer.write_interval(std::chrono::milliseconds(to_millis(e.start.count())),
                                            std::chrono::milliseconds(to_millis(e.length.count())), e.histogram,
                                            e.tag));
  }
  return text.str();
}

}  // namespace openloop::hdr
