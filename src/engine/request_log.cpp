// The per-request log: record rings, line formatting and the writer thread.
#include "engine/request_log.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <fmt/format.h>
#include <pthread.h>
#include <unistd.h>

#include "core/grpc_status.h"
#include "core/thread_name.h"

namespace openloop::engine {
namespace {

constexpr std::size_t k_batch = 4096;
constexpr std::size_t k_flush_at = 256 * 1024;
// The writer's nap when every ring was empty: short enough that a ring of k_default_ring records (1.6 s at
// 20 000/s) never fills while it sleeps, long enough to cost nothing.
constexpr auto k_idle_nap = std::chrono::milliseconds(2);

// Non-negative nanoseconds as milliseconds with microsecond digits ("12.345").
void append_ms(std::string& out, std::int64_t ns) {
  const std::int64_t us = std::max<std::int64_t>(0, ns) / 1000;
  fmt::format_to(std::back_inserter(out), "{}.{:03}", us / 1000, us % 1000);
}

void append_unix(std::string& out, const LogContext& ctx, SteadyTime t) {
  const std::int64_t origin_us = static_cast<std::int64_t>(ctx.unix_origin_s * 1e6 + 0.5);
  const std::int64_t us = origin_us + (t - ctx.steady_origin).count() / 1000;
  fmt::format_to(std::back_inserter(out), "{}.{:06}", us / 1'000'000, us % 1'000'000);
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out += c;
    }
  }
  out += '"';
}

void append_csv_string(std::string& out, std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) {
    out += s;
    return;
  }
  out += '"';
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace

std::string_view to_string(RecordOutcome o) {
  switch (o) {
    case RecordOutcome::ok:
      return "ok";
    case RecordOutcome::status:
      return "status";
    case RecordOutcome::check_failed:
      return "check_failed";
    case RecordOutcome::timeout:
      return "timeout";
    case RecordOutcome::error:
      return "error";
    case RecordOutcome::dropped:
      return "dropped";
    case RecordOutcome::unfinished:
      return "unfinished";
  }
  return "unknown";
}

Result<LogFormat> parse_log_format(std::string_view text, std::string_view flag) {
  if (text == "json") return LogFormat::json;
  if (text == "csv") return LogFormat::csv;
  return usage_error(fmt::format("{}: \"{}\" is not a log format (expected json or csv)", flag, text));
}

// ---- the ring
// -------------------------------------------------------------------------------------------------

RecordRing::RecordRing(std::size_t capacity) {
  std::size_t size = 2;
  while (size < capacity) size *= 2;
  m_slots.resize(size);
  m_mask = size - 1;
}

std::size_t RecordRing::pop(RequestRecord* out, std::size_t max) {
  const std::uint64_t tail = m_tail.load(std::memory_order_relaxed);
  const std::uint64_t head = m_head.load(std::memory_order_acquire);
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(head - tail, max));
  for (std::size_t i = 0; i < n; ++i) out[i] = m_slots[(tail + i) & m_mask];
  m_tail.store(tail + n, std::memory_order_release);
  return n;
}

// ---- formatting
// -----------------------------------------------------------------------------------------------

std::string_view csv_header() {
  return "intended_s,sent_s,response_ms,connect_ms,tls_ms,ttfb_ms,body_ms,new_connection,status,bytes_in,"
         "bytes_out,attempts,outcome,error,request,warmup,protocol,connection,stream\n";
}

void format_record(const RequestRecord& r, const LogContext& ctx, LogFormat format, std::string& out) {
  using results::Phase;
  const bool json = format == LogFormat::json;
  const bool sent = r.sent != SteadyTime{};
  const bool ended = r.end != SteadyTime{};
  const bool responded = r.status != 0;
  // Each field: its JSON key (before the value) or the CSV separator; absent values are null / empty.
  bool first = true;
  const auto key = [&](const char* name) {
    if (json) {
      out += first ? "{\"" : ",\"";
      out += name;
      out += "\":";
    } else if (!first) {
      out += ',';
    }
    first = false;
  };
  const auto none = [&] {
    if (json) out += "null";
  };
  key("intended_s");
  append_unix(out, ctx, r.intended);
  key("sent_s");
  sent ? append_unix(out, ctx, r.sent) : none();
  key("response_ms");
  ended ? append_ms(out, (r.end - r.intended).count()) : none();
  const char* phase_keys[] = {"connect_ms", "tls_ms", "ttfb_ms", "body_ms"};
  for (std::size_t i = 0; i < results::k_phases; ++i) {
    key(phase_keys[i]);
    r.phases.ns[i] >= 0 ? append_ms(out, r.phases.ns[i]) : none();
  }
  key("new_connection");
  if (responded || r.phases[results::Phase::connect] >= 0 || r.phases[results::Phase::ttfb] >= 0) {
    out += r.phases.new_connection ? "true" : "false";
  } else {
    none();
  }
  key("status");
  if (responded) {
    fmt::format_to(std::back_inserter(out), "{}", r.status);
  } else {
    none();
  }
  key("bytes_in");
  fmt::format_to(std::back_inserter(out), "{}", r.bytes_in);
  key("bytes_out");
  fmt::format_to(std::back_inserter(out), "{}", r.bytes_out);
  key("attempts");
  fmt::format_to(std::back_inserter(out), "{}", r.attempts);
  key("outcome");
  json ? append_json_string(out, to_string(r.outcome)) : void(out += to_string(r.outcome));
  key("error");
  if (r.outcome == RecordOutcome::error) {
    json ? append_json_string(out, results::to_string(r.error)) : void(out += results::to_string(r.error));
  } else {
    none();
  }
  key("request");
  const std::string_view name =
      r.request < ctx.request_names.size() ? std::string_view(ctx.request_names[r.request]) : "";
  json ? append_json_string(out, name) : append_csv_string(out, name);
  key("warmup");
  out += r.warmup ? "true" : "false";
  key("protocol");
  if (r.protocol == 1 || r.protocol == 2) {
    const std::string_view p = r.protocol == 2 ? "h2" : "h1";
    json ? append_json_string(out, p) : void(out += p);
  } else {
    none();
  }
  key("connection");
  if (r.connection > 0) {
    if (json) out += '"';
    fmt::format_to(std::back_inserter(out), "{}.{}", r.worker, r.connection - 1);
    if (json) out += '"';
  } else {
    none();
  }
  key("stream");
  if (r.stream > 0) {
    fmt::format_to(std::back_inserter(out), "{}", r.stream);
  } else {
    none();
  }
  // A gRPC call's status by name, in JSON only and only on a gRPC call's line: the CSV columns stay those of
  // every run.
  if (json && r.grpc_status >= 0) {
    key("grpc_status");
    append_json_string(out, grpc_status_name(r.grpc_status));
  }
  if (json) out += '}';
  out += '\n';
}

// ---- the log
// --------------------------------------------------------------------------------------------------

RequestLog::RequestLog(int fd, bool owns_fd, std::string path, LogFormat format, LogContext context)
    : m_fd(fd),
      m_owns_fd(owns_fd),
      m_path(std::move(path)),
      m_format(format),
      m_context(std::move(context)) {}

Result<std::unique_ptr<RequestLog>> RequestLog::open(const std::string& path, LogFormat format,
                                                     unsigned workers, LogContext context,
                                                     std::size_t ring_capacity) {
  int fd = STDOUT_FILENO;
  const bool to_stdout = path == "-";
  if (!to_stdout) {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      return usage_error(
          fmt::format("--log-requests: cannot open \"{}\" for writing: {} (give a writable file, "
                      "or - for standard output)",
                      path, std::strerror(errno)));
    }
  }
  std::unique_ptr<RequestLog> log(new RequestLog(fd, !to_stdout, path, format, std::move(context)));
  for (unsigned i = 0; i < std::max(1u, workers); ++i)
    log->m_rings.push_back(std::make_unique<RecordRing>(ring_capacity));
  log->m_batch.resize(k_batch);
  log->m_buffer.reserve(k_flush_at + 64 * 1024);
  if (format == LogFormat::csv) log->m_buffer += csv_header();
  return log;
}

RequestLog::~RequestLog() {
  if (m_thread.joinable()) {
    m_stop.store(true, std::memory_order_release);
    m_thread.join();
  }
  if (m_owns_fd && m_fd >= 0) ::close(m_fd);
}

void RequestLog::start() {
  m_thread = std::thread([this] {
    name_this_thread("openloop-log");
    // A reader that went away (`| head`) must not kill the run with SIGPIPE: the write fails with EPIPE
    // instead, and the records from then on are counted as dropped. SIGINT/SIGTERM belong to the run's signal
    // watcher (this thread may start before it).
    sigset_t blocked;
    sigemptyset(&blocked);
    for (const int sig : {SIGPIPE, SIGINT, SIGTERM}) sigaddset(&blocked, sig);
    pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
    writer();
  });
}

void RequestLog::writer() {
  while (!m_stop.load(std::memory_order_acquire)) {
    if (!drain_once()) std::this_thread::sleep_for(k_idle_nap);
  }
}

bool RequestLog::drain_once() {
  bool found = false;
  for (auto& ring : m_rings) {
    for (;;) {
      const std::size_t n = ring->pop(m_batch.data(), m_batch.size());
      if (n == 0) break;
      found = true;
      for (std::size_t i = 0; i < n; ++i) format_record(m_batch[i], m_context, m_format, m_buffer);
      if (m_error.empty()) {
        m_written.fetch_add(n, std::memory_order_relaxed);
      } else {
        m_lost += n;
      }
      if (m_buffer.size() >= k_flush_at) flush();
      if (n < m_batch.size()) break;
    }
  }
  return found;
}

void RequestLog::flush() {
  std::size_t at = 0;
  while (m_error.empty() && at < m_buffer.size()) {
    const ssize_t n = ::write(m_fd, m_buffer.data() + at, m_buffer.size() - at);
    if (n < 0) {
      if (errno == EINTR) continue;
      m_error = fmt::format("--log-requests: writing to {} failed: {}",
                            m_path == "-" ? "standard output" : m_path, std::strerror(errno));
      // The lines still in the buffer were counted as written: count them as lost instead.
      const auto unwritten = static_cast<std::uint64_t>(
          std::count(m_buffer.begin() + static_cast<std::ptrdiff_t>(at), m_buffer.end(), '\n'));
      m_written.fetch_sub(std::min(unwritten, m_written.load()), std::memory_order_relaxed);
      m_lost += unwritten;
      break;
    }
    at += static_cast<std::size_t>(n);
  }
  m_buffer.clear();
}

Result<void> RequestLog::finish() {
  if (m_thread.joinable()) {
    m_stop.store(true, std::memory_order_release);
    m_thread.join();
  }
  while (drain_once()) {
  }
  flush();
  if (m_owns_fd && m_fd >= 0) {
    if (::close(m_fd) != 0 && m_error.empty())
      m_error = fmt::format("--log-requests: closing {} failed: {}", m_path, std::strerror(errno));
    m_fd = -1;
  }
  if (!m_error.empty()) return runtime_error(m_error);
  return {};
}

std::uint64_t RequestLog::dropped() const {
  std::uint64_t n = m_lost;
  for (const auto& ring : m_rings) n += ring->dropped();
  return n;
}

}  // namespace openloop::engine
