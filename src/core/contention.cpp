#include "core/contention.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace openloop {
namespace {

std::optional<std::string> slurp(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The unsigned integers of a line, in order, up to N.
template <std::size_t N>
std::size_t integers(std::string_view line, double (&out)[N]) {
  std::size_t n = 0;
  const char* p = line.data();
  const char* end = p + line.size();
  while (p < end && n < N) {
    while (p < end && (*p < '0' || *p > '9')) ++p;
    unsigned long long v = 0;
    const auto r = std::from_chars(p, end, v);
    if (r.ec != std::errc()) break;
    out[n++] = static_cast<double>(v);
    p = r.ptr;
  }
  return n;
}

}  // namespace

std::optional<CpuTicks> parse_cpu_ticks(std::string_view proc_stat) {
  if (!proc_stat.starts_with("cpu ")) return std::nullopt;
  const std::string_view line = proc_stat.substr(0, proc_stat.find('\n'));
  double v[8] = {};
  if (integers(line.substr(4), v) < 8) return std::nullopt;
  CpuTicks t;
  t.steal = v[7];
  for (const double x : v) t.total += x;
  return t;
}

std::optional<CpuTicks> read_cpu_ticks() {
  const auto text = slurp("/proc/stat");
  return text ? parse_cpu_ticks(*text) : std::nullopt;
}

std::optional<double> steal_share(const CpuTicks& before, const CpuTicks& after) {
  const double total = after.total - before.total;
  if (total <= 0) return std::nullopt;
  return std::clamp((after.steal - before.steal) / total, 0.0, 1.0);
}

std::optional<Nanos> parse_run_delay(std::string_view schedstat) {
  double v[2] = {};
  if (integers(schedstat.substr(0, schedstat.find('\n')), v) < 2) return std::nullopt;
  return Nanos(static_cast<std::int64_t>(v[1]));
}

std::optional<Nanos> thread_run_delay() {
  // A fixed buffer and plain reads, no stream: a worker reads its own every 100 ms while it runs (the spin
  // budget), where nothing may allocate.
  const int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[128];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  return parse_run_delay(std::string_view(buf, static_cast<std::size_t>(n)));
}

}  // namespace openloop
