// The worker's exchanges: preallocated, reused, addressed by id for timer cookies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/exchange.h"
#include "engine/response_capture.h"

namespace openloop::engine {

/// A free list of exchanges with stable addresses. Grows only while the run warms up (more exchanges in
/// flight or in backoff than ever before); in steady state acquire() and release() allocate nothing, and a
/// reused exchange keeps its render buffer's capacity and its response sink. Single-threaded (one per
/// worker).
class ExchangePool {
 public:
  /// Gives every exchange, those made so far and every later one, a response sink of `c`'s shape (made once
  /// per exchange, when the pool grows). Call once, before the run; without it exchanges have none.
  void capture(const ResponseCapture& c) {
    m_capture = &c;
    for (const auto& x : m_all) attach_sink(*x);
  }
  /// Preallocates `n` exchanges.
  void reserve(std::size_t n) {
    while (m_all.size() < n) grow();
  }
  /// A free exchange, reset to a fresh first attempt. The last released is handed out first (its buffer is
  /// warm). Allocates only when every exchange is in use.
  Exchange& acquire() {
    if (m_free.empty()) grow();
    Exchange& x = *m_free.back();
    m_free.pop_back();
    x.reset_request();
    return x;
  }
  /// Returns an exchange to the pool. Precondition: it is on no list and no connection carries it.
  void release(Exchange& x) {
    x.connection = nullptr;
    m_free.push_back(&x);
  }
  Exchange& at(std::uint32_t id) { return *m_all[id]; }
  std::size_t size() const { return m_all.size(); }
  std::size_t in_use() const { return m_all.size() - m_free.size(); }

 private:
  void grow() {
    m_all.push_back(std::make_unique<Exchange>());
    m_all.back()->id = static_cast<std::uint32_t>(m_all.size() - 1);
    if (m_capture != nullptr) attach_sink(*m_all.back());
    m_free.reserve(m_all.size());  // release() never allocates
    m_free.push_back(m_all.back().get());
  }
  void attach_sink(Exchange& x) {
    m_sinks.push_back(std::make_unique<http::ResponseSink>(m_capture->make_sink()));
    x.sink = m_sinks.back().get();
  }

  std::vector<std::unique_ptr<Exchange>> m_all;
  std::vector<Exchange*> m_free;
  const ResponseCapture* m_capture = nullptr;                // the plan's (outlives the pool); null: no sinks
  std::vector<std::unique_ptr<http::ResponseSink>> m_sinks;  // one per exchange when capturing
};

}  // namespace openloop::engine
