// Connection pool: LIFO of ready connections, closed ones opened on demand.
#include "engine/connection_pool.h"

#include <algorithm>

namespace openloop::engine {

void ConnectionPool::create(std::size_t n, ConnectionOwner& owner, net::EventLoop& loop,
                            const ConnectionConfig& config) {
  m_all.reserve(n);
  m_where.assign(n, Where::closed);
  m_closed.reserve(n);
  m_ready.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    m_all.push_back(std::make_unique<Connection>(owner, loop, config));
    m_all.back()->id = static_cast<std::uint32_t>(i);
  }
  // Connection 0 is handed out first.
  for (std::size_t i = n; i > 0; --i) m_closed.push_back(m_all[i - 1].get());
}

Connection* ConnectionPool::acquire() {
  while (!m_ready.empty()) {
    Connection* c = m_ready.back();
    const std::uint32_t slots = c->free_slots();
    if (slots <= 1) {  // its last slot, or none (HTTP/2 after GOAWAY): out of the pool until released
      m_ready.pop_back();
      m_where[c->id] = Where::out;
    }
    if (slots > 0) return c;
  }
  Connection* c = take_closed();
  // A connection that takes several exchanges before it is ready (HTTP/2 by prior knowledge) is shared while
  // it connects.
  if (c != nullptr && c->free_slots() > 1) {
    m_ready.push_back(c);
    m_where[c->id] = Where::ready;
  }
  return c;
}

Connection* ConnectionPool::take_closed() {
  if (m_closed.empty()) return nullptr;
  Connection* c = m_closed.back();
  m_closed.pop_back();
  m_where[c->id] = Where::out;
  return c;
}

void ConnectionPool::release(Connection& c) {
  if (m_where[c.id] != Where::out) return;
  if (c.state() == Connection::State::closed) {
    m_closed.push_back(&c);
    m_where[c.id] = Where::closed;
  } else {
    m_ready.push_back(&c);
    m_where[c.id] = Where::ready;
  }
}

void ConnectionPool::withdraw(Connection& c) {
  if (m_where[c.id] != Where::ready) return;
  auto it = std::find(m_ready.begin(), m_ready.end(), &c);
  if (it != m_ready.end()) m_ready.erase(it);
  m_where[c.id] = Where::out;
}

void ConnectionPool::close_all() {
  for (auto& c : m_all) c->close();
}

}  // namespace openloop::engine
