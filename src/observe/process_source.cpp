// A process's USE signals from /proc/PID (stat, status, task/*/schedstat, fd, limits).
#include "observe/process_source.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace openloop::observe {
namespace {

using results::SignalRole;

const SignalMeta k_cpu{Kind::counter, "cores", SignalRole::other, "CPU (cores)", "", 0};
const SignalMeta k_cpu_allowed{
    Kind::counter, "share", SignalRole::utilization, "CPU of its allowed cores", "", 0};
const SignalMeta k_runq{Kind::counter, "s/s", SignalRole::saturation, "run-queue wait", "", 0};
const SignalMeta k_rss{Kind::gauge, "bytes", SignalRole::other, "RSS", "", 0};
const SignalMeta k_threads{Kind::gauge, "count", SignalRole::other, "threads", "", 0};
const SignalMeta k_fds{Kind::gauge, "count", SignalRole::other, "open descriptors", "", 0};
const SignalMeta k_fds_limit{Kind::gauge, "share", SignalRole::utilization, "descriptors of the limit",
                             "",          0};
const SignalMeta k_ctx_vol{Kind::counter, "/s", SignalRole::other, "voluntary context switches", "", 0};
const SignalMeta k_ctx_invol{Kind::counter, "/s", SignalRole::other, "involuntary context switches", "", 0};
const SignalMeta k_majflt{Kind::counter, "/s", SignalRole::other, "major faults", "", 0};
const SignalMeta k_thread_cpu{
    Kind::per_thread, "cores", SignalRole::utilization, "CPU of its busiest thread", "cpu_busiest_thread", 0};
const SignalMeta k_ports{Kind::gauge, "count", SignalRole::other, "ephemeral ports in use", "", 0};
const SignalMeta k_ports_avail{Kind::gauge, "count", SignalRole::other, "ephemeral ports available", "", 0};

// The fields of /proc/PID/stat after the command name (which may hold spaces and parentheses): field 3
// (state) is element 0.
std::vector<std::string_view> stat_fields(std::string_view stat) {
  std::vector<std::string_view> out;
  const std::size_t close = stat.rfind(')');
  if (close == std::string_view::npos) return out;
  std::size_t i = close + 1;
  while (i < stat.size()) {
    while (i < stat.size() && (stat[i] == ' ' || stat[i] == '\n')) ++i;
    std::size_t j = i;
    while (j < stat.size() && stat[j] != ' ' && stat[j] != '\n') ++j;
    if (j > i) out.push_back(stat.substr(i, j - i));
    i = j;
  }
  return out;
}

double field_number(const std::vector<std::string_view>& f, std::size_t proc_field) {
  const std::size_t k = proc_field - 3;
  if (k >= f.size()) return 0;
  double v = 0;
  std::from_chars(f[k].data(), f[k].data() + f[k].size(), v);
  return v;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

ProcContext ProcContext::system() {
  ProcContext c;
  const long ticks = ::sysconf(_SC_CLK_TCK);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (ticks > 0) c.ticks_per_s = static_cast<double>(ticks);
  if (page > 0) c.page_bytes = static_cast<double>(page);
  return c;
}

std::unique_ptr<ProcessSource> ProcessSource::by_pid(std::string spec, int pid, ProcContext ctx) {
  std::unique_ptr<ProcessSource> s(new ProcessSource(std::move(spec), std::move(ctx)));
  s->m_dir = fmt::format("/proc/{}", pid);
  return s;
}

std::unique_ptr<ProcessSource> ProcessSource::by_name(std::string spec, std::string name, ProcContext ctx) {
  std::unique_ptr<ProcessSource> s(new ProcessSource(std::move(spec), std::move(ctx)));
  s->m_name = std::move(name);
  return s;
}

std::unique_ptr<ProcessSource> ProcessSource::self(ProcContext ctx) {
  std::unique_ptr<ProcessSource> s(new ProcessSource("self", std::move(ctx)));
  s->m_dir = "/proc/self";
  s->m_self = true;
  return s;
}

Result<void> ProcessSource::open() {
  if (!m_name.empty()) {
    int best = -1;
    for (const auto& entry : m_ctx.root.list("/proc")) {
      int pid = 0;
      const auto r = std::from_chars(entry.data(), entry.data() + entry.size(), pid);
      if (r.ec != std::errc() || r.ptr != entry.data() + entry.size()) continue;
      const auto comm = m_ctx.root.read(fmt::format("/proc/{}/comm", pid));
      if (comm && trimmed(*comm) == m_name && (best < 0 || pid < best)) best = pid;
    }
    if (best < 0) {
      return runtime_error(
          fmt::format("{}: no process named \"{}\" (as /proc/PID/comm names it, at most 15 "
                      "characters); not observed",
                      spec(), m_name));
    }
    m_dir = fmt::format("/proc/{}", best);
  }
  const auto status = m_ctx.root.read(m_dir + "/status");
  if (!status) {
    m_gone = true;
    return runtime_error(fmt::format("{}: no such process ({} cannot be read); not observed", spec(), m_dir));
  }
  m_allowed = 1;
  const std::size_t at = status->find("Cpus_allowed_list:");
  if (at != std::string::npos) {
    std::string_view list(*status);
    list = list.substr(at + 18);
    list = list.substr(0, list.find('\n'));
    while (!list.empty() && (list.front() == ' ' || list.front() == '\t')) list.remove_prefix(1);
    m_allowed = std::max(1U, cpu_list_size(list));
  }
  if (m_self) {  // read once: the range does not change during a run
    if (auto range = m_ctx.root.read("/proc/sys/net/ipv4/ip_local_port_range")) {
      const auto v = numbers(*range);
      if (v.size() >= 2 && v[1] >= v[0]) m_ports_available = v[1] - v[0] + 1;
    }
  }
  if (const auto limits = m_ctx.root.read(m_dir + "/limits"))
    m_fd_limit = field_after(*limits, "Max open files").value_or(0);
  return {};
}

Result<void> ProcessSource::sample(std::vector<Reading>& out) {
  const auto stat = m_ctx.root.read(m_dir + "/stat");
  const auto status = m_ctx.root.read(m_dir + "/status");
  if (!stat || !status) {
    m_gone = true;
    return runtime_error(
        fmt::format("{}: the process exited ({} is gone); recorded as gone from here on", spec(), m_dir));
  }
  const auto f = stat_fields(*stat);
  const double cpu_s = (field_number(f, 14) + field_number(f, 15)) / m_ctx.ticks_per_s;
  out.push_back({"cpu", cpu_s, &k_cpu});
  out.push_back({"cpu_of_allowed", cpu_s / m_allowed, &k_cpu_allowed});
  out.push_back({"major_faults", field_number(f, 12), &k_majflt});
  out.push_back({"threads", field_number(f, 20), &k_threads});
  out.push_back({"rss", field_number(f, 24) * m_ctx.page_bytes, &k_rss});
  if (auto v = field_after(*status, "voluntary_ctxt_switches:"))
    out.push_back({"ctx_voluntary", *v, &k_ctx_vol});
  if (auto v = field_after(*status, "nonvoluntary_ctxt_switches:"))
    out.push_back({"ctx_involuntary", *v, &k_ctx_invol});
  sample_threads(out);
  if (const auto fds = m_ctx.root.count(m_dir + "/fd")) {
    const double n = static_cast<double>(*fds);
    out.push_back({"fds", n, &k_fds});
    if (m_fd_limit > 0) out.push_back({"fds_of_limit", n / m_fd_limit, &k_fds_limit});
    if (!m_fds_at_start) m_fds_at_start = n;
  }
  if (m_self) sample_self_extras(out);
  return {};
}

// Run-queue wait summed over every thread (the process's own schedstat is its main thread's alone), and for
// `self` each thread's CPU.
void ProcessSource::sample_threads(std::vector<Reading>& out) {
  double wait_ns = 0;
  bool any = false;
  for (const auto& tid : m_ctx.root.list(m_dir + "/task")) {
    if (auto s = m_ctx.root.read(fmt::format("{}/task/{}/schedstat", m_dir, tid))) {
      const auto v = numbers(*s);
      if (v.size() >= 2) {
        wait_ns += v[1];
        any = true;
        // schedstat's first field is the thread's time on a CPU (ns): one read per thread serves both.
        if (m_self) out.push_back({"thread " + tid, v[0] / 1e9, &k_thread_cpu});
      }
    }
  }
  if (!any) {
    if (auto s = m_ctx.root.read(m_dir + "/schedstat")) {
      const auto v = numbers(*s);
      if (v.size() >= 2) {
        wait_ns = v[1];
        any = true;
      }
    }
  }
  if (any) out.push_back({"runq_wait", wait_ns / 1e9, &k_runq});
}

void ProcessSource::sample_self_extras(std::vector<Reading>& out) {
  const auto fds = std::find_if(out.begin(), out.end(), [](const Reading& r) { return r.name == "fds"; });
  if (fds != out.end() && m_fds_at_start) {
    const double in_use = std::max(0.0, fds->value - *m_fds_at_start);
    out.push_back({"ports_in_use", in_use, &k_ports});
  }
  if (m_ports_available > 0) out.push_back({"ports_available", m_ports_available, &k_ports_avail});
}

}  // namespace openloop::observe
