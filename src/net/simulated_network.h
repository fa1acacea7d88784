// The seam between the engine and the world: what a simulated network provides in place of the kernel's
// clock, epoll and sockets (src/sim implements it; production never does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/time.h"
#include "net/resolver.h"

namespace openloop::net {

class IoHandler;
struct IoResult;

/// A discrete-event world for one single-threaded client: a virtual clock, readiness events and byte
/// streams. EventLoop::simulated() and Transport::attach_simulated() route every call here, so the engine's
/// Worker and Connection run unchanged on virtual time. Descriptors are the simulator's own numbers (never
/// kernel fds). Called on one thread only; the implementation never blocks and never reads a real clock.
///
/// Contract, mirroring the kernel's: poll() dispatches level-triggered readiness (EPOLLIN while bytes or an
/// end of stream wait to be read, EPOLLOUT while a socket is connected and writable) and, with nothing ready,
/// advances the virtual clock to the next event of the world or to `deadline`, whichever comes first.
class SimulatedNetwork {
 public:
  virtual ~SimulatedNetwork() = default;

  /// The virtual time; never goes backwards.
  virtual SteadyTime now() const = 0;
  /// Dispatches what is ready now; with nothing ready, runs the world's events up to `deadline` (a deadline
  /// in the past: only what is due now) and dispatches what became ready. Returns the handlers called.
  virtual int poll(SteadyTime deadline) = 0;

  /// Calls `f` from poll() each time the virtual clock passes another `period`: the driver's periodic work
  /// (the coordinator collects finished intervals there, as it does every 50 ms of real time).
  virtual void every(Nanos period, std::function<void()> f) = 0;

  // Readiness registration, as epoll_ctl.
  virtual bool add(int fd, std::uint32_t events, IoHandler* handler) = 0;
  virtual bool modify(int fd, std::uint32_t events, IoHandler* handler) = 0;
  virtual void remove(int fd) = 0;

  // Sockets, as tcp_connect_nonblocking / tcp_connect_result / recv / send / close.
  /// Starts a connection; a descriptor ≥ 0, or −errno.
  virtual int connect(const Endpoint& ep) = 0;
  /// 0 when connected, else the errno of the failure.
  virtual int connect_result(int fd) = 0;
  /// As Transport::read; an error result carries its errno in `bytes`.
  virtual IoResult read(int fd, char* buf, std::size_t cap) = 0;
  /// As Transport::write; an error result carries its errno in `bytes`.
  virtual IoResult write(int fd, const char* buf, std::size_t len) = 0;
  virtual void close(int fd) = 0;
};

}  // namespace openloop::net
