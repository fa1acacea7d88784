// Interval finalization: encode, summarise, accumulate.
#include "results/recording/aggregator.h"

#include <algorithm>

#include "hdr/codec.h"

namespace openloop::results {

Aggregator::Aggregator(unsigned workers, Nanos interval_length, std::size_t resident)
    : m_workers(workers), m_length(interval_length), m_resident(resident) {}

void Aggregator::add(unsigned /*worker*/, std::vector<IntervalStats>& intervals,
                     std::vector<IntervalStats>* spent) {
  for (auto& s : intervals) {
    // The first delivery of an interval becomes its merge (constructed from it: a default-constructed one
    // would allocate and zero its histograms, 1.3 MB, only to be overwritten).
    auto it = m_pending.find(s.index);
    if (it == m_pending.end()) {
      it = m_pending.emplace(s.index, Pending{std::move(s), 0}).first;
    } else {
      it->second.merged.add(s);
      if (spent != nullptr) spent->push_back(std::move(s));
    }
    ++it->second.delivered;
  }
  intervals.clear();
  // Finalize in index order while the lowest pending interval is complete.
  while (!m_pending.empty() && m_pending.begin()->second.delivered == m_workers) {
    finalize(m_pending.begin()->second);
    if (spent != nullptr) spent->push_back(std::move(m_pending.begin()->second.merged));
    m_pending.erase(m_pending.begin());
  }
}

void Aggregator::finalize(Pending& p) {
  IntervalStats& s = p.merged;
  if (s.index < 0) {
    m_results.warmup.add(s.counters);
    return;
  }
  if (m_results.by_request.size() < s.by_request.size()) m_results.by_request.resize(s.by_request.size());
  IntervalResult r;
  r.start_s = static_cast<double>(s.index) * to_seconds(m_length);
  r.length_s = to_seconds(m_length);
  r.counters = s.counters;
  set_latencies(r, s.response_time, s.service_time, s.send_lateness, s.attempt_time);
  r.flows = s.flows;
  if (s.coalesce_ns >= 0) r.coalesce_us = static_cast<double>(s.coalesce_ns) / 1e3;
  set_session_time(r, s.session_time);
  set_slot_wait(r, s.slot_wait);
  set_server_timing(r, s.server_timing);
  for (std::size_t i = 0; i < s.by_request.size(); ++i) {
    r.by_request.push_back(s.by_request[i].counters);
    RequestTotals& t = m_results.by_request[i];
    t.counters.add(s.by_request[i].counters);
    t.response_time.add(s.by_request[i].response_time);
    t.service_time.add(s.by_request[i].service_time);
  }
  m_results.flows.add(s.flows);
  m_results.session_time.add(s.session_time);
  m_results.slot_wait.add(s.slot_wait);
  m_results.totals.add(s.counters);
  m_results.response_time.add(s.response_time);
  m_results.service_time.add(s.service_time);
  m_results.send_lateness.add(s.send_lateness);
  m_results.attempt_time.add(s.attempt_time);
  m_results.phases.add(s.phases);
  m_results.server_timing.add(s.server_timing);
  m_results.intervals.push_back(std::move(r));
  park_old_intervals();
}

void Aggregator::park_old_intervals() {
  if (m_spill_failed || m_results.intervals.size() - m_results.intervals.parked() <= m_resident) return;
  if (!m_spill) {
    auto file = SpillFile::open();
    if (!file) {
      m_spill_failed = true;
      m_results.warnings.push_back(file.error().message + "; every interval stays in memory");
      return;
    }
    m_spill = std::move(*file);
  }
  if (auto parked = m_results.intervals.park(m_spill, m_resident); !parked) {
    m_spill_failed = true;
    m_results.warnings.push_back(parked.error().message + "; later intervals stay in memory");
  }
}

RunResults Aggregator::finish(double measured_s) {
  for (auto& [index, p] : m_pending) finalize(p);
  m_pending.clear();
  m_results.measured_s = measured_s;
  // The last interval may be cut short by the end of the measured period (and any later one is empty): only
  // the intervals at the end can change, so the walk stops at the first that does not.
  auto& series = m_results.intervals;
  for (std::size_t k = series.size(); k-- > 0;) {
    IntervalResult r = series[k];
    const double length = std::max(0.0, std::min(r.length_s, measured_s - r.start_s));
    if (length == r.length_s) break;
    r.length_s = length;
    if (auto replaced = series.set(k, std::move(r)); !replaced)
      m_results.warnings.push_back(replaced.error().message +
                                   "; the last interval's length is not cut short");
  }
  return std::move(m_results);
}

}  // namespace openloop::results
