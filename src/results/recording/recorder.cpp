// Interval bookkeeping for one worker.
#include "results/recording/recorder.h"

namespace openloop::results {

Recorder::Recorder(Nanos interval_length, std::size_t request_kinds)
    : m_length(interval_length), m_request_kinds(request_kinds) {
  m_warmup.stats.index = -1;
  if (m_request_kinds > 1) m_warmup.stats.by_request.resize(m_request_kinds);
  m_counts_length = m_warmup.stats.response_time.counts_length();
}

std::int64_t Recorder::index_of(Nanos offset) const {
  if (offset < Nanos(0)) return -1;
  return offset.count() / m_length.count();
}

Recorder::Slot& Recorder::slot(std::int64_t index) {
  if (index < 0) return m_warmup;
  // Intervals are opened in order; an index below m_base would mean an outcome for a handed-over interval,
  // which the pending count rules out.
  while (m_base + static_cast<std::int64_t>(m_open.size()) <= index) {
    if (m_spares.empty()) {
      m_open.emplace_back();
    } else {
      m_open.push_back(Slot{std::move(m_spares.back()), 0});
      m_spares.pop_back();
    }
    m_open.back().stats.index = m_base + static_cast<std::int64_t>(m_open.size()) - 1;
    if (m_request_kinds > 1) m_open.back().stats.by_request.resize(m_request_kinds);
  }
  return m_open[static_cast<std::size_t>(index - m_base)];
}

void Recorder::add_spares(std::vector<IntervalStats>& spares, std::size_t keep) {
  const std::size_t requests = m_request_kinds > 1 ? m_request_kinds : 0;
  std::erase_if(spares, [&](const IntervalStats& s) { return !s.has_layout(m_counts_length, requests); });
  while (m_spares.size() < keep && !spares.empty()) {
    m_spares.push_back(std::move(spares.back()));
    spares.pop_back();
  }
}

void Recorder::make_spares(std::size_t n) {
  while (m_spares.size() < n) {
    m_spares.emplace_back();
    if (m_request_kinds > 1) m_spares.back().by_request.resize(m_request_kinds);
  }
}

IntervalStats& Recorder::interval_for(Nanos offset) {
  return slot(index_of(offset)).stats;
}

IntervalStats& Recorder::interval(std::int64_t index) {
  return slot(index).stats;
}

void Recorder::take_finished(Nanos issued_before, std::vector<IntervalStats>& out) {
  if (!m_warmup_taken && issued_before >= Nanos(0) && m_warmup.pending == 0) {
    out.push_back(std::move(m_warmup.stats));
    m_warmup_taken = true;
  }
  if (!m_warmup_taken) return;                                // keep hand-over in index order
  const std::int64_t issued_index = index_of(issued_before);  // intervals below this one are fully issued
  // Open empty intervals up to a finite issue horizon so that every index is handed over. An infinite horizon
  // (the schedule has ended) opens nothing: the coordinator finalizes the tail at the end of the run.
  if (issued_before != Nanos::max() && issued_index > m_base) slot(issued_index - 1);
  while (!m_open.empty() && m_base < issued_index && m_open.front().pending == 0) {
    out.push_back(std::move(m_open.front().stats));
    m_open.pop_front();
    ++m_base;
  }
}

void Recorder::take_all(std::vector<IntervalStats>& out) {
  if (!m_warmup_taken) {
    out.push_back(std::move(m_warmup.stats));
    m_warmup_taken = true;
  }
  for (auto& s : m_open) out.push_back(std::move(s.stats));
  m_base += static_cast<std::int64_t>(m_open.size());
  m_open.clear();
}

}  // namespace openloop::results
