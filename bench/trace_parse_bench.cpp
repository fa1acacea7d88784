// Trace parsing speed: lines a second per core for nginx (combined and $msec), Apache (combined) and JSONL,
// read from a file as a replay reads it (open_trace, TraceReader::next), with heap allocations per line.
// Usage: trace_parse_bench [LINES] [REPEATS] [FORMAT]   (default 500000 lines, best of 3, every format;
// FORMAT: a word of one's name, e.g. msec, to measure only it, as under perf record). Per core = lines / the
// thread's CPU time, so a loaded host slows the wall figure more than this one; the load average is printed.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>

#include "core/thread_cpu.h"
#include "core/time.h"
#include "workload/trace_reader.h"

namespace {

std::atomic<std::uint64_t> g_allocations{0};

}  // namespace

// Counts every heap allocation of the process (the bench is single-threaded while it measures).
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {

using namespace openloop;

struct Format {
  std::string name;
  workload::TraceFormat format;
  std::string log_format;  // empty: the format's default
  std::string (*line)(std::uint64_t i);
};

const char* const k_paths[] = {"/api/items/", "/static/app.js?v=", "/users/", "/search?q=term&page="};
const char* const k_agents[] = {
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
    "curl/8.5.0", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15"};

std::string path(std::uint64_t i) {
  return fmt::format("{}{}", k_paths[i % 4], (i * 2654435761U) % 100000);
}

std::string nginx_combined(std::uint64_t i) {
  return fmt::format(R"(10.0.{}.{} - - [10/Oct/2026:13:{:02}:{:02} +0000] "GET {} HTTP/1.1" 200 {} "-" "{}")",
                     (i / 256) % 256, i % 256, (i / 60000) % 60, (i / 1000) % 60, path(i), 100 + i % 5000,
                     k_agents[i % 3]);
}

std::string nginx_msec(std::uint64_t i) {
  return fmt::format(R"(10.0.{}.{} - - [{}.{:03}] "GET {} HTTP/1.1" 200 {} "-" "{}" 0.{:03})",
                     (i / 256) % 256, i % 256, 1'790'000'000 + i / 1000, i % 1000, path(i), 100 + i % 5000,
                     k_agents[i % 3], i % 1000);
}

std::string apache_combined(std::uint64_t i) {
  return fmt::format(R"(10.0.{}.{} - - [10/Oct/2026:13:{:02}:{:02} +0000] "GET {} HTTP/1.1" 200 {} "-" "{}")",
                     (i / 256) % 256, i % 256, (i / 60000) % 60, (i / 1000) % 60, path(i), 100 + i % 5000,
                     k_agents[i % 3]);
}

std::string jsonl(std::uint64_t i) {
  return fmt::format(R"({{"t": {}.{:03}, "method": "GET", "url": "{}", "headers": {{"User-Agent": "{}"}}, )"
                     R"("session": "s{}"}})",
                     i / 1000, i % 1000, path(i), k_agents[i % 3], i % 5000);
}

double load_average() {
  double one = 0;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &one) != 1) one = 0;
    std::fclose(f);
  }
  return one;
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t lines = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 500'000;
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  const std::string only = argc > 3 ? argv[3] : "";
  const std::vector<Format> formats = {
      {"nginx combined", workload::TraceFormat::nginx, "", nginx_combined},
      {"nginx $msec", workload::TraceFormat::nginx,
       R"($remote_addr - $remote_user [$msec] "$request" $status $body_bytes_sent "$http_referer" )"
       R"("$http_user_agent" $request_time)",
       nginx_msec},
      {"apache combined", workload::TraceFormat::apache, "", apache_combined},
      {"jsonl", workload::TraceFormat::jsonl, "", jsonl},
  };
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("trace_parse_bench.{}", getpid());
  std::filesystem::create_directories(dir);
  fmt::print("{} lines per format, best of {}; load average {:.2f} at the start\n", lines, repeats,
             load_average());
  fmt::print("{:<16} {:>14} {:>14} {:>12}\n", "format", "lines/s (CPU)", "lines/s (wall)", "allocs/line");
  int status = 0;
  for (const Format& f : formats) {
    if (f.name.find(only) == std::string::npos) continue;
    const std::filesystem::path file = dir / "trace";
    {
      std::ofstream out(file, std::ios::binary);
      for (std::uint64_t i = 0; i < lines; ++i) out << f.line(i) << '\n';
    }
    double best_cpu = 0, best_wall = 0, allocs = 0;
    for (int r = 0; r < repeats; ++r) {
      workload::TraceInput input{file.string(), f.format, f.log_format, false, 1};
      auto reader = workload::open_trace(input);
      if (!reader) {
        fmt::print(stderr, "{}: {}\n", f.name, reader.error().message);
        return 1;
      }
      workload::TraceRecord record;
      std::uint64_t read = 0;
      const std::uint64_t allocs_before = g_allocations.load();
      const Nanos cpu0 = thread_cpu_time();
      const auto wall0 = std::chrono::steady_clock::now();
      while (true) {
        auto more = reader->next(record);
        if (!more) {
          fmt::print(stderr, "{}: {}\n", f.name, more.error().message);
          return 1;
        }
        if (!*more) break;
        ++read;
      }
      const double cpu_s = to_seconds(thread_cpu_time() - cpu0);
      const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
      if (read != lines) {
        fmt::print(stderr, "{}: read {} records of {} lines\n", f.name, read, lines);
        status = 1;
      }
      best_cpu = std::max(best_cpu, static_cast<double>(read) / cpu_s);
      best_wall = std::max(best_wall, static_cast<double>(read) / wall_s);
      allocs = static_cast<double>(g_allocations.load() - allocs_before) / static_cast<double>(read);
    }
    fmt::print("{:<16} {:>14.0f} {:>14.0f} {:>12.2f}\n", f.name, best_cpu, best_wall, allocs);
  }
  std::filesystem::remove_all(dir);
  fmt::print("load average {:.2f} at the end\n", load_average());
  return status;
}
