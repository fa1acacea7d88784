// A growable ring buffer usable as a FIFO or LIFO queue: no allocation once it has reached its peak size.
#pragma once

#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

namespace openloop::lab {

/// Double-ended queue over one power-of-two vector; grows by doubling, never shrinks (the queue's
/// high-water mark is kept so a second overload does not allocate). T must be default-constructible.
template <class T>
class RingDeque {
 public:
  explicit RingDeque(std::size_t initial_capacity = 64) {
    std::size_t c = 1;
    while (c < initial_capacity) c <<= 1;
    m_items.resize(c);
  }

  std::size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }

  void push_back(T value) {
    if (m_size == m_items.size()) grow();
    m_items[(m_head + m_size) & mask()] = std::move(value);
    ++m_size;
  }
  /// Oldest element. Precondition: not empty.
  T pop_front() {
    assert(m_size > 0);
    T v = std::move(m_items[m_head]);
    m_head = (m_head + 1) & mask();
    --m_size;
    return v;
  }
  /// Newest element. Precondition: not empty.
  T pop_back() {
    assert(m_size > 0);
    --m_size;
    return std::move(m_items[(m_head + m_size) & mask()]);
  }
  /// i-th oldest element, i < size().
  const T& operator[](std::size_t i) const { return m_items[(m_head + i) & mask()]; }

 private:
  std::size_t mask() const { return m_items.size() - 1; }
  void grow() {
    std::vector<T> next(m_items.size() * 2);
    for (std::size_t i = 0; i < m_size; ++i) next[i] = std::move(m_items[(m_head + i) & mask()]);
    m_items = std::move(next);
    m_head = 0;
  }

  std::vector<T> m_items;
  std::size_t m_head = 0;
  std::size_t m_size = 0;
};

}  // namespace openloop::lab
