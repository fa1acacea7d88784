// A reader's records put in send order (within a window) and given senders where the file names none but its
// stamps are fine enough to chain each send to the response before it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <queue>
#include <vector>

#include "audit/record_reader.h"

namespace openloop::audit {

class RecordStream {
 public:
  /// Records later than `window` behind the latest send seen are passed on as they come and counted out of
  /// order.
  explicit RecordStream(std::unique_ptr<RecordReader> reader, Nanos window = std::chrono::seconds(30));

  /// The next record in send order; false at the end.
  Result<bool> next(Record& out);

  const RecordReader& reader() const { return *m_reader; }
  /// Records that arrived after the window had passed their send time (passed on out of order).
  std::int64_t out_of_order() const { return m_out_of_order; }
  /// Whether senders were reconstructed ("chain-K": each send chained to a response that ended just before
  /// it).
  bool chained() const { return m_chain; }

 private:
  struct Later {
    bool operator()(const Record& a, const Record& b) const { return a.start > b.start; }
  };
  void assign_chain(Record& r);

  std::unique_ptr<RecordReader> m_reader;
  Nanos m_window;
  bool m_sort = false, m_chain = false;
  std::priority_queue<Record, std::vector<Record>, Later> m_pending;
  Nanos m_latest_start{INT64_MIN}, m_released{INT64_MIN};
  bool m_reader_done = false;
  std::int64_t m_out_of_order = 0;
  // Open chains by the end of their last response (a multimap: several may end at once).
  std::multimap<Nanos, std::size_t> m_chain_ends;
  std::size_t m_chains = 0;
  Nanos m_tolerance{0};
};

}  // namespace openloop::audit
