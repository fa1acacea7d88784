// Turns SIGINT/SIGTERM into stop requests for a run, on a dedicated thread, so worker threads never see a
// signal.
#pragma once

#include <atomic>
#include <csignal>
#include <cstdio>
#include <thread>

#include <pthread.h>

namespace openloop::cli {

/// While alive, SIGINT/SIGTERM are blocked in every thread created after it and taken by its own thread: the
/// first sets `stop` to 1 (stop scheduling, let in-flight requests finish), the second to 2 (stop now). With
/// `announce`, each is also said on stderr; without, the caller shows `stop` itself (the live view does).
class SignalWatcher {
 public:
  explicit SignalWatcher(std::atomic<int>& stop, bool announce = true) : m_stop(stop), m_announce(announce) {
    sigemptyset(&m_set);
    sigaddset(&m_set, SIGINT);
    sigaddset(&m_set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &m_set, &m_old);
    m_thread = std::thread([this] { watch(); });
  }
  ~SignalWatcher() {
    m_done.store(true);
    m_thread.join();
    pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
  }
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

 private:
  void watch() {
    const timespec poll{0, 100'000'000};
    while (!m_done.load()) {
      if (sigtimedwait(&m_set, nullptr, &poll) > 0) {
        const int now = m_stop.load() + 1;
        m_stop.store(now > 2 ? 2 : now);
        if (!m_announce) continue;
        std::fputs(
            now == 1
                ? "\ninterrupted: stopping; waiting for in-flight requests (interrupt again to stop now)\n"
                : "\nstopping now\n",
            stderr);
      }
    }
  }
  std::atomic<int>& m_stop;
  bool m_announce;
  std::atomic<bool> m_done{false};
  sigset_t m_set{}, m_old{};
  std::thread m_thread;
};

}  // namespace openloop::cli
