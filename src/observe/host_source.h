// `host` and `cgroup:PATH`: the machine's CPU by mode, load, pressure and TCP counters; a cgroup's CPU,
// throttling, memory and pressure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "observe/proc_context.h"
#include "observe/source.h"

namespace openloop::observe {

/// Signals: cpu_user, cpu_system (with irq and softirq), cpu_iowait, cpu_steal, cpu_busy (shares of all
/// CPUs, from /proc/stat), load1 (/proc/loadavg), psi_cpu, psi_memory, psi_io (share of time some task
/// stalled, /proc/pressure/*: "total" as a rate, exact per interval), ListenOverflows, ListenDrops,
/// TCPTimeouts (/proc/net/netstat TcpExt), RetransSegs, OutRsts, EstabResets, AttemptFails (/proc/net/snmp
/// Tcp), all per second; tcp_time_wait (sockets) and tcp_mem (bytes), from /proc/net/sockstat. The TCP
/// counters are the network namespace's.
class HostSource : public Source {
 public:
  explicit HostSource(ProcContext ctx) : Source("host"), m_ctx(std::move(ctx)) {}
  Result<void> open() override;
  Result<void> sample(std::vector<Reading>& out) override;

 private:
  ProcContext m_ctx;
  double m_cpus = 1;
};

/// Signals: cpu (cores, cpu.stat usage_usec), cpu_of_max (share of cpu.max's quota, when set), throttled
/// (periods throttled per second), throttled_time (seconds throttled per second), memory (bytes,
/// memory.current), memory_of_max (share of memory.max, when set), psi_cpu, psi_memory, psi_io (share of
/// time, cpu/memory/io.pressure). PATH is relative to /sys/fs/cgroup (cgroup v2), e.g.
/// system.slice/nginx.service.
class CgroupSource : public Source {
 public:
  CgroupSource(std::string spec, std::string path, ProcContext ctx);
  /// Errors (runtime) when the directory has no cpu.stat or memory.current.
  Result<void> open() override;
  Result<void> sample(std::vector<Reading>& out) override;

 private:
  ProcContext m_ctx;
  std::string m_dir;
  double m_quota_cores = 0;  ///< cpu.max quota / period; 0 = no limit
};

/// Every (name, value) of a /proc/net/snmp or /proc/net/netstat table whose lines begin with `prefix`; empty
/// when absent. The names view `text`.
std::vector<std::pair<std::string_view, double>> snmp_row(std::string_view text, std::string_view prefix);
/// The value named `name` of a /proc/net/snmp or /proc/net/netstat table whose lines begin with `prefix`
/// ("TcpExt:"): a line of names followed by a line of values; nullopt when absent.
std::optional<double> snmp_value(std::string_view text, std::string_view prefix, std::string_view name);

}  // namespace openloop::observe
