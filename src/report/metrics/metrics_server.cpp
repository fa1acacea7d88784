// The metrics endpoint's thread: poll on the listening socket and a wake-up eventfd, one request per
// connection, rendered from the last progress report's copy.
#include "report/metrics/metrics_server.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "core/thread_name.h"
#include "core/thread_priority.h"
#include "report/metrics/metrics_protobuf.h"

namespace openloop::report {

Result<std::unique_ptr<MetricsServer>> MetricsServer::start(std::string_view address,
                                                            report::MetricsContext context) {
  return start(address, std::vector<report::MetricsContext>{std::move(context)});
}

Result<std::unique_ptr<MetricsServer>> MetricsServer::start(std::string_view address,
                                                            std::vector<report::MetricsContext> parts) {
  auto socket = OPENLOOP_TRY(net::ListenSocket::open(address, "--metrics-listen"));
  const int wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake < 0) return runtime_error(fmt::format("--metrics-listen: eventfd: {}", std::strerror(errno)));
  return std::unique_ptr<MetricsServer>(new MetricsServer(std::move(socket), std::move(parts), wake));
}

Result<std::unique_ptr<MetricsServer>> MetricsServer::start(std::string_view address, FamilySource source) {
  auto socket = OPENLOOP_TRY(net::ListenSocket::open(address, "--metrics-listen"));
  const int wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake < 0) return runtime_error(fmt::format("--metrics-listen: eventfd: {}", std::strerror(errno)));
  return std::unique_ptr<MetricsServer>(new MetricsServer(std::move(socket), {}, wake, std::move(source)));
}

MetricsServer::MetricsServer(net::ListenSocket socket, std::vector<report::MetricsContext> parts, int wake_fd,
                             FamilySource source)
    : m_socket(std::move(socket)),
      m_wake_fd(wake_fd),
      m_source(std::move(source)),
      m_board(std::move(parts)) {
  for (const report::MetricsSnapshot::Part& p : m_board.latest()->parts) {
    m_views.emplace_back(report::LivePlan{Nanos(0), Nanos(0), p.context->target_rps > 0, ""});
  }
  // Created before the run's signal watcher: SIGINT and SIGTERM must never be delivered to this thread (their
  // default action would end the process before the results are written), so it starts with them blocked.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  m_thread = std::thread([this] { loop(); });
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

MetricsServer::~MetricsServer() {
  m_stop.store(true);
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(m_wake_fd, &one, sizeof one);
  if (m_thread.joinable()) m_thread.join();
  close(m_wake_fd);
}

void MetricsServer::update(const results::RunResults& so_far, bool final, std::size_t part) {
  using Verdict = report::MetricsState::Verdict;
  Verdict verdict = Verdict::waiting;
  if (final) {
    verdict = so_far.verdict.valid ? Verdict::valid : Verdict::invalid;
  } else if (!so_far.intervals.empty()) {
    m_views.at(part).update(so_far);
    verdict = m_views[part].invalid_so_far() ? Verdict::invalid : Verdict::valid;
  }
  update(so_far, verdict, part);
}

void MetricsServer::update(const results::RunResults& so_far, report::MetricsState::Verdict verdict,
                           std::size_t part) {
  report::MetricsState next = report::MetricsState::of(so_far);  // the copy, on the caller's thread
  next.verdict = verdict;
  m_board.update(part, std::move(next));
}

std::size_t MetricsServer::add_part(report::MetricsContext context) {
  m_views.emplace_back(report::LivePlan{Nanos(0), Nanos(0), context.target_rps > 0, ""});
  return m_board.add_part(std::move(context));
}

void MetricsServer::set_extra(std::vector<report::MetricFamily> families) {
  m_board.set_extra(std::move(families));
}

void MetricsServer::linger(Nanos d) {
  if (d.count() <= 0) return;
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, &old);
  const timespec wait{static_cast<time_t>(d.count() / 1'000'000'000),
                      static_cast<long>(d.count() % 1'000'000'000)};
  sigtimedwait(&set, nullptr, &wait);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void MetricsServer::loop() {
  name_this_thread("openloop-metrics");
  // A scrape (rendering every series) never delays a worker sharing this thread's core.
  lower_this_thread_priority();
  while (!m_stop.load()) {
    pollfd fds[2] = {{m_socket.fd(), POLLIN, 0}, {m_wake_fd, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    const int fd = accept4(m_socket.fd(), nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;  // the client went away, or EAGAIN: poll again
    serve(fd);
    close(fd);
  }
}

namespace {

bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::string response(std::string_view status, std::string_view type, std::string_view body) {
  return fmt::format("HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
                     status, type, body.size(), body);
}

}  // namespace

void MetricsServer::serve(int fd) {
  // The listening socket is non-blocking, and an accepted socket inherits nothing on Linux: make sure it
  // blocks, with a bound on how long a silent client can hold the endpoint.
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  const timeval limit{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  std::string request;
  char buf[4096];
  while (request.find("\r\n\r\n") == std::string::npos && request.size() < 16384) {
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      return;
    }
    request.append(buf, static_cast<std::size_t>(n));
  }
  const std::size_t line_end = request.find("\r\n");
  const std::string_view line = std::string_view(request).substr(0, line_end);
  if (line.rfind("GET /metrics ", 0) != 0 && line.rfind("GET /metrics?", 0) != 0) {
    send_all(fd, response("404 Not Found", "text/plain; charset=utf-8",
                          "openloop serves GET /metrics (Prometheus text, OpenMetrics)\n"));
    return;
  }
  std::string accept;
  for (std::size_t at = line_end; at != std::string::npos && at < request.size();) {
    const std::size_t next = request.find("\r\n", at + 2);
    std::string header =
        request.substr(at + 2, next == std::string::npos ? std::string::npos : next - at - 2);
    for (char& c : header) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (header.rfind("accept:", 0) == 0) accept = header;
    at = next;
  }
  // Prometheus asks for protobuf first when native histograms are enabled, and only protobuf carries them.
  const bool protobuf = accept.find("application/vnd.google.protobuf") != std::string::npos;
  const bool openmetrics = !protobuf && accept.find("application/openmetrics-text") != std::string::npos;
  // The latest snapshot, held for the whole render (the families point into its histograms): no copy, and no
  // lock the coordinator's next update() would wait on.
  const std::shared_ptr<const report::MetricsSnapshot> snapshot = m_source ? nullptr : m_board.latest();
  const std::vector<report::MetricFamily> families = m_source ? m_source() : snapshot->families();
  if (protobuf) {
    send_all(fd, response("200 OK", report::k_protobuf_type, report::render_families_protobuf(families)));
    return;
  }
  const std::string body = report::render_families_text(families, openmetrics);
  send_all(fd, response("200 OK", openmetrics ? report::k_openmetrics_type : report::k_prometheus_text_type,
                        body));
}

}  // namespace openloop::report
