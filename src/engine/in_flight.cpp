// In-flight lists: deadline-ordered first attempts, unordered retry attempts.
#include "engine/in_flight.h"

namespace openloop::engine {

void InFlightLists::link_by_deadline(Exchange& x) {
  // Deadlines are intended time + one constant (or, with --per-try-timeout, the earlier of that and the
  // attempt's start + another constant: both grow with the arrival order) and first attempts are mostly
  // started in intended order, so the new one almost always goes at the tail; walk back only past the few
  // issued earlier but due later.
  Exchange* after = m_tail;
  while (after != nullptr && after->deadline > x.deadline) after = after->prev;
  x.prev = after;
  x.next = after != nullptr ? after->next : m_head;
  (x.next != nullptr ? x.next->prev : m_tail) = &x;
  (after != nullptr ? after->next : m_head) = &x;
  x.list = Exchange::List::by_deadline;
  ++m_linked;
}

void InFlightLists::link_timed(Exchange& x) {
  // Not inserted in order (a walk of O(rate × elapsed)); the timer queue orders the deadline in O(log n).
  x.prev = nullptr;
  x.next = m_timed;
  if (m_timed != nullptr) m_timed->prev = &x;
  m_timed = &x;
  x.list = Exchange::List::by_timer;
  ++m_linked;
  ++x.generation;
}

void InFlightLists::unlink(Exchange& x) {
  switch (x.list) {
    case Exchange::List::none:
      return;
    case Exchange::List::by_deadline:
      (x.prev != nullptr ? x.prev->next : m_head) = x.next;
      (x.next != nullptr ? x.next->prev : m_tail) = x.prev;
      break;
    case Exchange::List::by_timer:
      (x.prev != nullptr ? x.prev->next : m_timed) = x.next;
      if (x.next != nullptr) x.next->prev = x.prev;
      break;
  }
  x.prev = x.next = nullptr;
  x.list = Exchange::List::none;
  --m_linked;
}

}  // namespace openloop::engine
