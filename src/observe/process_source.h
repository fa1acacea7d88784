// `pid:N`, `process:NAME` and `self` (openloop itself): a process's CPU, run-queue wait, memory, threads,
// descriptors, context switches and major faults, from /proc/PID.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "observe/proc_context.h"
#include "observe/source.h"

namespace openloop::observe {

/// Signals (per interval): cpu (cores: user + system of all threads), cpu_of_allowed (share of the cores
/// its affinity allows), runq_wait (seconds spent runnable but waiting for a CPU per second, summed over
/// threads: /proc/PID/task/*/schedstat), rss (bytes), threads, fds (open descriptors), fds_of_limit (share
/// of its soft RLIMIT_NOFILE), ctx_voluntary, ctx_involuntary, major_faults (per second). For `self` also
/// cpu_busiest_thread (cores: the largest per-thread CPU rate), ports_in_use (descriptors opened since
/// sampling began: the run's connections, each holding an ephemeral port) and ports_available (the size of
/// net.ipv4.ip_local_port_range).
class ProcessSource : public Source {
 public:
  /// `pid:N`: that process.
  static std::unique_ptr<ProcessSource> by_pid(std::string spec, int pid, ProcContext ctx);
  /// `process:NAME`: the process whose /proc/PID/comm is NAME (the lowest PID of several), found by open().
  static std::unique_ptr<ProcessSource> by_name(std::string spec, std::string name, ProcContext ctx);
  /// `self`: this process (/proc/self), with per-thread CPU and ephemeral ports.
  static std::unique_ptr<ProcessSource> self(ProcContext ctx);

  Result<void> open() override;
  Result<void> sample(std::vector<Reading>& out) override;
  bool gone() const override { return m_gone; }

 private:
  ProcessSource(std::string spec, ProcContext ctx) : Source(std::move(spec)), m_ctx(std::move(ctx)) {}
  void sample_threads(std::vector<Reading>& out);
  void sample_self_extras(std::vector<Reading>& out);

  ProcContext m_ctx;
  std::string m_dir;   ///< "/proc/123" or "/proc/self"
  std::string m_name;  ///< process:NAME
  bool m_self = false;
  bool m_gone = false;
  unsigned m_allowed = 1;
  double m_fd_limit = 0;
  double m_ports_available = 0;
  std::optional<double> m_fds_at_start;
};

}  // namespace openloop::observe
