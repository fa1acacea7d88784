// Coordinated omission: each sender's expected interval, and every response time recorded again with the
// samples its blocking kept from being sent, backfilled the HdrHistogram way (record_with_expected_interval).
#pragma once

#include <map>
#include <string>
#include <unordered_map>

#include "audit/findings.h"
#include "audit/record.h"
#include "audit/sender_stats.h"
#include "hdr/histogram.h"

namespace openloop::audit {

/// Response times in a histogram of nanoseconds, 1 ns to 1 h, 3 digits (longer ones clamped to 1 h).
hdr::Histogram response_histogram();
PercentileSet percentiles_of(const hdr::Histogram& h);

class OmissionCorrector {
 public:
  /// `senders`: the first pass's per-sender statistics. A sender's expected interval is its median time
  /// between sends (healthy stretches dominate a median); a sender with fewer than 3 intervals takes the
  /// median over senders. Records without a sender (pooled: ab) use `pooled`, with `pooled_why` saying where
  /// it came from. No correction for an open model (its sends do not wait).
  OmissionCorrector(const std::map<std::string, SenderStats>& senders, LoadModel model, Nanos pooled,
                    std::string pooled_why);

  /// The second pass: each record, in the same order and with the same senders as the first.
  void add(const Record& r);
  /// The finding, with `uncorrected` (the first pass's histogram) beside the corrected one.
  OmissionFinding finish(const hdr::Histogram& uncorrected) const;

 private:
  Nanos interval_of(const std::string& sender) const;
  bool m_applicable = false;
  std::string m_why;
  std::unordered_map<std::string, Nanos> m_intervals;
  Nanos m_default{0};
  hdr::Histogram m_corrected = response_histogram();
  std::int64_t m_blocked = 0, m_missing = 0;
};

}  // namespace openloop::audit
