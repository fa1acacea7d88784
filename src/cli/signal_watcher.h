// Turns SIGINT/SIGTERM into stop requests for a run, on a dedicated thread, so worker threads never see a
// signal.
#pragma once

#include <atomic>
#include <csignal>
#include <cstdio>
#include <thread>

#include <pthread.h>
#include <unistd.h>

namespace openloop::cli {

/// One more stop request on `stop` (0 → 1: stop gracefully, 1 → 2: stop now, 2 stays), as one atomic
/// read-modify-write: a procedure that stops its run itself (compare-and-swap 0 → 1: ramp_runner, slo_abort)
/// at the same moment never swallows the request. Returns the new value.
inline int escalate_stop(std::atomic<int>& stop) {
  int now = stop.load();
  while (now < 2 && !stop.compare_exchange_weak(now, now + 1)) {
  }
  return now < 2 ? now + 1 : 2;
}

/// While alive, SIGINT/SIGTERM are blocked in every thread created after it and taken by its own thread: the
/// first sets `stop` to 1 (stop scheduling, let in-flight requests finish), the second to 2 (stop now). With
/// `announce`, each is also said on stderr; without, the caller shows `stop` itself (the live view does). Keep it
/// alive until the results are written (see finishing()): a signal then changes nothing, where the default
/// action would kill the process half-way through writing them.
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
    // Wakes the thread at once (its wait would otherwise end at its next poll, up to 100 ms after the run): a
    // SIGINT queued to that thread alone with a value of its own, which it tells from a user's by that value
    // and its sender (this process). (pthread_kill's si_code is not SI_TKILL on every kernel: SI_USER here.)
    union sigval wake {};
    wake.sival_int = k_wake;
    pthread_sigqueue(m_thread.native_handle(), SIGINT, wake);
    m_thread.join();
    // A signal that came after the thread's last wait is pending: take it here, or unblocking would deliver it
    // with its default action (killing the process that has just written its results).
    const timespec none{0, 0};
    while (sigtimedwait(&m_set, nullptr, &none) > 0) escalate_stop(m_stop);
    pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
  }
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  /// The run is over and its results are being written: a signal from now on says so instead of stopping.
  void finishing() { m_finishing.store(true); }

  /// True once its thread takes the signals: a signal sent from then on reaches its wait, being blocked until
  /// then.
  bool watching() const { return m_watching.load(); }

 private:
  void watch() {
    const timespec poll{0, 100'000'000};
    m_watching.store(true);
    while (!m_done.load()) {
      siginfo_t info{};
      if (sigtimedwait(&m_set, &info, &poll) > 0) {
        if (info.si_code == SI_QUEUE && info.si_pid == ::getpid() && info.si_value.sival_int == k_wake) break;
        const int now = escalate_stop(m_stop);
        if (m_finishing.load()) {
          std::fputs("\ninterrupted: the run is over; finishing writing its results\n", stderr);
          continue;
        }
        if (!m_announce) continue;
        std::fputs(
            now == 1
                ? "\ninterrupted: stopping; waiting for in-flight requests (interrupt again to stop now)\n"
                : "\nstopping now\n",
            stderr);
      }
    }
  }
  static constexpr int k_wake = 0x6f6c;  ///< the destructor's wake-up signal's value ("ol")
  std::atomic<int>& m_stop;
  bool m_announce;
  std::atomic<bool> m_done{false}, m_finishing{false}, m_watching{false};
  sigset_t m_set{}, m_old{};
  std::thread m_thread;
};

}  // namespace openloop::cli
