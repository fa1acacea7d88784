// Binary heap of timers.
#include "net/timer_queue.h"

#include <algorithm>

namespace openloop::net {

void TimerQueue::schedule(SteadyTime deadline, TimerHandler* handler, std::uint64_t cookie) {
  m_heap.push_back(Entry{deadline, m_seq++, handler, cookie});
  std::push_heap(m_heap.begin(), m_heap.end(), later);
}

int TimerQueue::fire_due(SteadyTime now) {
  int fired = 0;
  while (!m_heap.empty() && m_heap.front().deadline <= now) {
    std::pop_heap(m_heap.begin(), m_heap.end(), later);
    const Entry e = m_heap.back();
    m_heap.pop_back();
    ++fired;
    e.handler->on_timer(e.cookie);
  }
  return fired;
}

}  // namespace openloop::net
