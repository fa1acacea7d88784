// Adding interval logs (.hlog) of one run's shards into one log: intervals aligned by their offset from each
// log's own start, histograms added exactly.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "hdr/interval_log.h"

namespace openloop::hdr {

/// One input log and the name it is known by in errors (its path).
struct NamedIntervalLog {
  std::string source;
  IntervalLog log;
};

/// The merged log: its start (the earliest input's), every interval's histogram the sum of the inputs' with
/// the same tag and offset, in order of offset, and what the inputs' starts spread over.
struct MergedIntervalLog {
  double start_time_seconds = 0;  ///< seconds since the epoch
  double start_skew_seconds = 0;  ///< latest input start - earliest
  std::vector<IntervalLogEntry> intervals;  ///< start: offset from start_time_seconds
};

/// Merges two or more logs as shards of one run: interval k of each log (the same tag and the same offset from
/// that log's StartTime, to the millisecond the format writes) holds the same intended times, so their
/// histograms add. Errors (usage) name the input and what would be accepted: fewer than two logs, a log without
/// a StartTime, starts further apart than `max_skew_seconds`, two intervals of one log with the same tag and
/// offset, intervals at one offset of different lengths, histograms of different precision or lowest value.
Result<MergedIntervalLog> merge_interval_logs(const std::vector<NamedIntervalLog>& logs, double max_skew_seconds);

/// The merged log as .hlog text (format 1.3, StartTime = BaseTime = its start), with `comment` first.
Result<std::string> render_merged_interval_log(const MergedIntervalLog& merged, const std::string& comment);

}  // namespace openloop::hdr
