// The worker's connections: a fixed set, handed out with acquire() and taken back with release().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/connection.h"

namespace openloop::engine {

/// A worker's connections, created once (no allocation after init). acquire() prefers a ready connection with
/// a free slot, the one released last first (LIFO keeps hot connections busy and lets the others idle out),
/// then a closed one for the caller to open. An HTTP/1.1 connection has one slot, so it is handed out
/// exclusively; a connection with several free slots (a multiplexed protocol) stays available while it has
/// slots left, so several exchanges share it. Users and sessions hold a connection between their requests
/// (Connection::holder); the pool never hands a held connection out. Single-threaded (one per worker).
class ConnectionPool {
 public:
  /// Creates `n` closed connections (ids 0..n-1). Call once.
  void create(std::size_t n, ConnectionOwner& owner, net::EventLoop& loop, const ConnectionConfig& config);

  /// A connection an exchange can start on now (ready, or closed and to be opened), or null when every one
  /// is busy. A connection with more than one free slot stays in the pool for the next acquire(), also while
  /// it connects (HTTP/2 by prior knowledge); one with none left (draining after GOAWAY) leaves it.
  Connection* acquire();
  /// True when acquire() would hand out a ready connection (no connect needed).
  bool has_ready() const { return !m_ready.empty(); }
  /// Closed connections in the pool.
  std::size_t closed_count() const { return m_closed.size(); }
  /// A closed connection (for pre-warming), or null. It is out of the pool until released.
  Connection* take_closed();
  /// Gives back a connection the caller no longer uses (an exchange ended, a user left, a connection opened
  /// ahead became ready): ready ones to the LIFO, closed ones to the closed list. Releasing a connection
  /// that is already available does nothing.
  void release(Connection& c);
  /// Takes a connection out of the pool's ready list (it closed while idle), so the caller can release it
  /// again as closed. Nothing when it is not there.
  void withdraw(Connection& c);

  std::size_t size() const { return m_all.size(); }
  Connection& at(std::size_t id) { return *m_all[id]; }
  /// Closes every connection (end of run).
  void close_all();

 private:
  enum class Where : std::uint8_t { out, ready, closed };
  std::vector<std::unique_ptr<Connection>> m_all;
  std::vector<Where> m_where;         // by id
  std::vector<Connection*> m_closed;  // available, not connected
  std::vector<Connection*> m_ready;   // available, connected with a free slot (LIFO)
};

}  // namespace openloop::engine
