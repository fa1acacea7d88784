// Several single-threaded clients on one simulated network (a scenario file's scenarios, each with its own
// worker, against one simulated service): each client's blocking loop runs on a fiber of its own, and the
// fibers take turns on the calling thread as the kernel's epoll would wake their threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "net/simulated_network.h"

namespace openloop::net {

/// Multiplexes one SimulatedNetwork among `clients` loops. client(i) is the network as client i sees it:
/// every call goes through to the shared one, except a poll() that would wait (deadline in the future): that
/// parks client i's fiber until one of its own descriptors is dispatched or its deadline comes, while the
/// world runs for the others. Which client a handler belongs to is the client that registered its
/// descriptor. Deterministic: fibers run one at a time on the calling thread, in client order among those
/// woken at one virtual instant; nothing reads a real clock. Single-threaded.
class SimulatedClients {
 public:
  SimulatedClients(SimulatedNetwork& net, std::size_t clients);
  ~SimulatedClients();
  SimulatedClients(const SimulatedClients&) = delete;
  SimulatedClients& operator=(const SimulatedClients&) = delete;

  /// Client i's view of the network (i < clients); valid as long as this object.
  SimulatedNetwork& client(std::size_t i);
  /// Runs bodies[i] (a loop polling client(i)) on fiber i until every body has returned; bodies.size() must
  /// equal the number of clients. An exception leaving a body is rethrown here once every other body has
  /// returned (the first one, if several).
  void run(const std::vector<std::function<void()>>& bodies);

  struct Fiber;
  class View;

 private:
  friend class View;
  static void entry();  // a fiber's start (makecontext), running its body through run_current()
  void run_current();
  void resume(std::size_t i);
  int park(std::size_t i, SteadyTime deadline);
  void woke(std::size_t i);

  SimulatedNetwork& m_net;
  std::vector<std::unique_ptr<Fiber>> m_fibers;
  std::vector<std::unique_ptr<View>> m_views;
  std::vector<std::uint32_t> m_owner;                // by descriptor: the client that registered it
  std::vector<std::unique_ptr<IoHandler>> m_relays;  // by descriptor: marks its owner woken, then its handler
  struct Scheduler;
  std::unique_ptr<Scheduler> m_scheduler;
};

}  // namespace openloop::net
