// Records in send order, with senders reconstructed where the file names none.
#include "audit/record_stream.h"

#include <fmt/format.h>

namespace openloop::audit {

RecordStream::RecordStream(std::unique_ptr<RecordReader> reader, Nanos window)
    : m_reader(std::move(reader)), m_window(window) {
  const ReaderTraits& t = m_reader->traits();
  m_sort = !t.in_start_order;
  // A closed-loop sender sends its next request as soon as a response ends; with stamps at least 1 ms fine
  // that shows as a send within a few resolutions of an end. ab's 1-s stamps cannot show it.
  m_chain = !t.has_threads && t.tool_model == ToolModel::closed && t.start_resolution <= Nanos(1'000'000);
  m_tolerance = 3 * t.start_resolution;
}

Result<bool> RecordStream::next(Record& out) {
  if (!m_sort) {
    if (!OPENLOOP_TRY(m_reader->next(out))) return false;
  } else {
    // Keep reading until the earliest pending send is a window behind the latest one read.
    while (!m_reader_done && (m_pending.empty() || m_pending.top().start > m_latest_start - m_window)) {
      Record r;
      if (!OPENLOOP_TRY(m_reader->next(r))) {
        m_reader_done = true;
        break;
      }
      if (r.start > m_latest_start) m_latest_start = r.start;
      m_pending.push(std::move(r));
    }
    if (m_pending.empty()) return false;
    out = m_pending.top();
    m_pending.pop();
  }
  if (out.start < m_released) ++m_out_of_order;
  if (out.start > m_released) m_released = out.start;
  if (m_chain) assign_chain(out);
  return true;
}

void RecordStream::assign_chain(Record& r) {
  // The chain whose response ended last at or just before this send (within the stamps' tolerance).
  std::size_t chain = m_chains;
  auto it = m_chain_ends.upper_bound(r.start + m_tolerance);
  if (it != m_chain_ends.begin()) {
    --it;
    if (r.start - it->first <= m_tolerance) {
      chain = it->second;
      m_chain_ends.erase(it);
    }
  }
  if (chain == m_chains) ++m_chains;
  // Ends long past can no longer be chained to: drop them so memory stays flat.
  while (!m_chain_ends.empty() && m_chain_ends.begin()->first < r.start - m_window) {
    m_chain_ends.erase(m_chain_ends.begin());
  }
  m_chain_ends.emplace(r.start + r.duration, chain);
  r.thread = fmt::format("chain-{}", chain);
}

}  // namespace openloop::audit
