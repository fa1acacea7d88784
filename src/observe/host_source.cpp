// The host's and a cgroup's USE signals from /proc and /sys/fs/cgroup.
#include "observe/host_source.h"

#include <fmt/format.h>

namespace openloop::observe {
namespace {

using results::SignalRole;

const SignalMeta k_cpu_user{Kind::counter, "share", SignalRole::other, "CPU user", "", 0};
const SignalMeta k_cpu_system{Kind::counter, "share", SignalRole::other, "CPU system", "", 0};
const SignalMeta k_cpu_iowait{Kind::counter, "share", SignalRole::other, "CPU iowait", "", 0};
const SignalMeta k_cpu_steal{Kind::counter, "share", SignalRole::saturation, "CPU steal", "", 0};
const SignalMeta k_cpu_busy{Kind::counter, "share", SignalRole::utilization, "CPU", "", 0};
const SignalMeta k_load{Kind::gauge, "count", SignalRole::other, "load average (1 min)", "", 0};
const SignalMeta k_psi_cpu{Kind::counter, "share", SignalRole::saturation, "CPU pressure", "", 0};
const SignalMeta k_psi_mem{Kind::counter, "share", SignalRole::saturation, "memory pressure", "", 0};
const SignalMeta k_psi_io{Kind::counter, "share", SignalRole::saturation, "IO pressure", "", 0};
const SignalMeta k_listen_overflows{Kind::counter, "/s", SignalRole::errors, "listen queue overflows", "", 0};
const SignalMeta k_listen_drops{Kind::counter, "/s", SignalRole::errors, "listen drops", "", 0};
const SignalMeta k_tcp_timeouts{Kind::counter, "/s", SignalRole::other, "TCP timeouts", "", 0};
const SignalMeta k_retrans{Kind::counter, "/s", SignalRole::errors, "TCP retransmits", "", 0};
const SignalMeta k_out_rsts{Kind::counter, "/s", SignalRole::errors, "TCP resets sent", "", 0};
const SignalMeta k_estab_resets{Kind::counter, "/s", SignalRole::errors, "TCP connections reset", "", 0};
const SignalMeta k_attempt_fails{
    Kind::counter, "/s", SignalRole::errors, "TCP connect attempts failed", "", 0};
const SignalMeta k_time_wait{Kind::gauge, "count", SignalRole::other, "TCP sockets in TIME-WAIT", "", 0};
const SignalMeta k_tcp_mem{Kind::gauge, "bytes", SignalRole::other, "TCP socket memory", "", 0};

const SignalMeta k_cg_cpu{Kind::counter, "cores", SignalRole::other, "cgroup CPU (cores)", "", 0};
const SignalMeta k_cg_cpu_max{
    Kind::counter, "share", SignalRole::utilization, "cgroup CPU of its quota", "", 0};
const SignalMeta k_cg_throttled{
    Kind::counter, "/s", SignalRole::saturation, "cgroup throttled periods", "", 0};
const SignalMeta k_cg_throttled_time{Kind::counter,           "s/s", SignalRole::saturation,
                                     "cgroup throttled time", "",    0};
const SignalMeta k_cg_mem{Kind::gauge, "bytes", SignalRole::other, "cgroup memory", "", 0};
const SignalMeta k_cg_mem_max{Kind::gauge, "share", SignalRole::utilization, "cgroup memory of its max",
                              "",          0};
const SignalMeta k_cg_psi_cpu{Kind::counter, "share", SignalRole::saturation, "cgroup CPU pressure", "", 0};
const SignalMeta k_cg_psi_mem{
    Kind::counter, "share", SignalRole::saturation, "cgroup memory pressure", "", 0};
const SignalMeta k_cg_psi_io{Kind::counter, "share", SignalRole::saturation, "cgroup IO pressure", "", 0};

std::string_view line_of(std::string_view text, std::size_t at) {
  const std::size_t end = text.find('\n', at);
  return text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

// "TCP: inuse 1 orphan 0 tw 3 alloc 1 mem 1": the number after `word` (" tw ").
std::optional<double> value_after_word(std::string_view line, std::string_view word) {
  const std::size_t at = line.find(word);
  if (at == std::string_view::npos) return std::nullopt;
  const auto v = numbers(line.substr(at + word.size()));
  if (v.empty()) return std::nullopt;
  return v.front();
}

void push_psi(const FileRoot& root, const std::string& file, const char* name, const SignalMeta* meta,
              std::vector<Reading>& out) {
  if (const auto text = root.read(file)) {
    if (const auto total = psi_total(*text)) out.push_back({name, *total / 1e6, meta});
  }
}

}  // namespace

std::vector<std::pair<std::string_view, double>> snmp_row(std::string_view text, std::string_view prefix) {
  std::vector<std::pair<std::string_view, double>> row;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::string_view names = line_of(text, at);
    const std::size_t next = at + names.size() + 1;
    if (names.starts_with(prefix) && next < text.size()) {
      const std::string_view values = line_of(text, next);
      if (values.starts_with(prefix)) {
        const auto n = words(names.substr(prefix.size()));
        const auto v = numbers(values.substr(prefix.size()));
        for (std::size_t k = 0; k < n.size() && k < v.size(); ++k) row.emplace_back(n[k], v[k]);
        return row;
      }
    }
    at = next;
  }
  return row;
}

std::optional<double> snmp_value(std::string_view text, std::string_view prefix, std::string_view name) {
  for (const auto& [n, v] : snmp_row(text, prefix)) {
    if (n == name) return v;
  }
  return std::nullopt;
}

Result<void> HostSource::open() {
  const auto stat = m_ctx.root.read("/proc/stat");
  if (!stat) return runtime_error("host: /proc/stat cannot be read; not observed");
  double cpus = 0;
  std::size_t at = 0;
  while (at < stat->size()) {
    const std::string_view line = line_of(*stat, at);
    if (line.size() > 3 && line.starts_with("cpu") && line[3] >= '0' && line[3] <= '9') ++cpus;
    at += line.size() + 1;
  }
  m_cpus = cpus > 0 ? cpus : 1;
  return {};
}

Result<void> HostSource::sample(std::vector<Reading>& out) {
  const auto stat = m_ctx.root.read("/proc/stat");
  if (!stat) return runtime_error("host: /proc/stat cannot be read");
  // cpu  user nice system idle iowait irq softirq steal (ticks of all CPUs)
  const auto v = numbers(line_of(*stat, 0));
  if (v.size() >= 8) {
    const double scale = 1.0 / (m_ctx.ticks_per_s * m_cpus);
    out.push_back({"cpu_user", (v[0] + v[1]) * scale, &k_cpu_user});
    out.push_back({"cpu_system", (v[2] + v[5] + v[6]) * scale, &k_cpu_system});
    out.push_back({"cpu_iowait", v[4] * scale, &k_cpu_iowait});
    out.push_back({"cpu_steal", v[7] * scale, &k_cpu_steal});
    out.push_back({"cpu_busy", (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * scale, &k_cpu_busy});
  }
  if (const auto load = m_ctx.root.read("/proc/loadavg")) {
    const auto l = numbers(*load);
    if (!l.empty()) out.push_back({"load1", l[0], &k_load});
  }
  push_psi(m_ctx.root, "/proc/pressure/cpu", "psi_cpu", &k_psi_cpu, out);
  push_psi(m_ctx.root, "/proc/pressure/memory", "psi_memory", &k_psi_mem, out);
  push_psi(m_ctx.root, "/proc/pressure/io", "psi_io", &k_psi_io, out);
  // Each table parsed once; the signals taken from it by name.
  const auto push_row = [&out](const std::optional<std::string>& text, std::string_view prefix,
                               std::initializer_list<std::pair<const char*, const SignalMeta*>> wanted) {
    if (!text) return;
    for (const auto& [name, value] : snmp_row(*text, prefix)) {
      for (const auto& [w, meta] : wanted) {
        if (name == w) out.push_back({w, value, meta});
      }
    }
  };
  push_row(m_ctx.root.read("/proc/net/netstat"), "TcpExt:",
           {{"ListenOverflows", &k_listen_overflows},
            {"ListenDrops", &k_listen_drops},
            {"TCPTimeouts", &k_tcp_timeouts}});
  push_row(m_ctx.root.read("/proc/net/snmp"), "Tcp:",
           {{"RetransSegs", &k_retrans},
            {"OutRsts", &k_out_rsts},
            {"EstabResets", &k_estab_resets},
            {"AttemptFails", &k_attempt_fails}});
  if (const auto sockstat = m_ctx.root.read("/proc/net/sockstat")) {
    const std::size_t tcp = sockstat->find("TCP:");
    if (tcp != std::string::npos) {
      const std::string_view line = line_of(*sockstat, tcp);
      if (const auto tw = value_after_word(line, " tw ")) out.push_back({"tcp_time_wait", *tw, &k_time_wait});
      if (const auto m = value_after_word(line, " mem "))
        out.push_back({"tcp_mem", *m * m_ctx.page_bytes, &k_tcp_mem});
    }
  }
  return {};
}

CgroupSource::CgroupSource(std::string spec, std::string path, ProcContext ctx)
    : Source(std::move(spec)), m_ctx(std::move(ctx)) {
  while (!path.empty() && path.front() == '/') path.erase(0, 1);
  while (!path.empty() && path.back() == '/') path.pop_back();
  m_dir = path.empty() ? std::string("/sys/fs/cgroup") : "/sys/fs/cgroup/" + path;
}

Result<void> CgroupSource::open() {
  if (!m_ctx.root.read(m_dir + "/cpu.stat") && !m_ctx.root.read(m_dir + "/memory.current")) {
    return runtime_error(
        fmt::format("{}: {} has no cpu.stat or memory.current (not a cgroup v2 directory, or "
                    "not there); not observed",
                    spec(), m_dir));
  }
  if (const auto max = m_ctx.root.read(m_dir + "/cpu.max")) {
    const auto v = numbers(*max);  // "max 100000" (no limit) or "50000 100000"
    if (v.size() >= 2 && v[1] > 0) m_quota_cores = v[0] / v[1];
  }
  return {};
}

Result<void> CgroupSource::sample(std::vector<Reading>& out) {
  const auto cpu = m_ctx.root.read(m_dir + "/cpu.stat");
  const auto mem = m_ctx.root.read(m_dir + "/memory.current");
  if (!cpu && !mem) return runtime_error(fmt::format("{}: {} can no longer be read", spec(), m_dir));
  if (cpu) {
    if (auto u = field_after(*cpu, "usage_usec")) {
      out.push_back({"cpu", *u / 1e6, &k_cg_cpu});
      if (m_quota_cores > 0) out.push_back({"cpu_of_max", *u / 1e6 / m_quota_cores, &k_cg_cpu_max});
    }
    if (auto t = field_after(*cpu, "nr_throttled")) out.push_back({"throttled", *t, &k_cg_throttled});
    if (auto t = field_after(*cpu, "throttled_usec"))
      out.push_back({"throttled_time", *t / 1e6, &k_cg_throttled_time});
  }
  if (mem) {
    const auto m = numbers(*mem);
    if (!m.empty()) {
      out.push_back({"memory", m[0], &k_cg_mem});
      if (const auto max = m_ctx.root.read(m_dir + "/memory.max")) {
        const auto x = numbers(*max);  // "max" (no limit) has no number
        if (!x.empty() && x[0] > 0) out.push_back({"memory_of_max", m[0] / x[0], &k_cg_mem_max});
      }
    }
  }
  push_psi(m_ctx.root, m_dir + "/cpu.pressure", "psi_cpu", &k_cg_psi_cpu, out);
  push_psi(m_ctx.root, m_dir + "/memory.pressure", "psi_memory", &k_cg_psi_mem, out);
  push_psi(m_ctx.root, m_dir + "/io.pressure", "psi_io", &k_cg_psi_io, out);
  return {};
}

}  // namespace openloop::observe
