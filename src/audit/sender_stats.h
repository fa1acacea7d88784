// One sender's requests in send order: its gaps, think times and overlaps, the evidence of its load model.
#pragma once

#include <cstdint>

#include "audit/record.h"
#include "hdr/histogram.h"

namespace openloop::audit {

class SenderStats {
 public:
  /// Adds the sender's next request (records in send order). `tolerance`: how close to the previous
  /// response's end a send counts as back to back (the stamps' resolution).
  void add(const Record& r, Nanos tolerance);

  std::int64_t requests() const { return m_requests; }
  std::int64_t pairs() const { return m_requests > 0 ? m_requests - 1 : 0; }
  std::int64_t back_to_back() const { return m_back_to_back; }
  std::int64_t overlaps() const { return m_overlaps; }
  /// Pairs where the next send came after the previous response ended (think times were measured).
  std::int64_t waits() const { return m_waits; }
  Nanos think_sum() const { return m_think_sum; }
  /// Sums over waiting pairs, in seconds, of R, Z, R², R·Z (for the slope of think time on response time).
  double sum_r = 0, sum_z = 0, sum_rr = 0, sum_rz = 0;
  /// Median time between this sender's consecutive sends (0 with fewer than 2 requests): in a run that is
  /// healthy more than half the time, the sender's interval when healthy.
  Nanos median_interval() const;

 private:
  std::int64_t m_requests = 0, m_back_to_back = 0, m_overlaps = 0, m_waits = 0;
  Nanos m_think_sum{0};
  Nanos m_last_start{0}, m_last_end{0};
  hdr::Histogram m_intervals_us = hdr::Histogram::auto_resizing(2);
};

}  // namespace openloop::audit
