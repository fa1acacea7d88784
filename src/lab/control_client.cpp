// Blocking request/response over one short TCP connection per call, bounded by one overall deadline.
#include "lab/control_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "http/request.h"
#include "net/fd_wait.h"
#include "net/transport.h"

namespace openloop::lab {
namespace {

/// Closes the fd when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() {
    if (m_fd >= 0) ::close(m_fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return m_fd; }

 private:
  int m_fd;
};

Result<int> connect_any(const std::vector<net::Endpoint>& endpoints, SteadyTime deadline,
                        const std::string& url) {
  std::string why = "no address";
  for (const auto& ep : endpoints) {
    const int fd = net::tcp_connect_nonblocking(ep);
    if (fd < 0) {
      why = std::strerror(-fd);
      continue;
    }
    if (net::wait_fd(fd, POLLOUT, deadline)) {
      const int err = net::tcp_connect_result(fd);
      if (err == 0) return fd;
      why = std::strerror(err);
    } else {
      why = "timed out";
    }
    ::close(fd);
  }
  return runtime_error(fmt::format("{}: cannot connect: {}", url, why));
}

Result<void> send_all(int fd, std::string_view bytes, SteadyTime deadline, const std::string& url) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!net::wait_fd(fd, POLLOUT, deadline))
        return runtime_error(fmt::format("{}: timed out writing", url));
    } else {
      return runtime_error(fmt::format("{}: write failed: {}", url, std::strerror(errno)));
    }
  }
  return {};
}

// The parsed head of a response once "\r\n\r\n" has arrived: status, where the body starts, its length if
// given.
struct Head {
  int status = 0;
  std::size_t body_at = 0;
  std::optional<std::size_t> content_length;
  bool chunked = false;  ///< Transfer-Encoding: chunked (a metrics endpoint's answer of unknown length)
};

// The body of a chunked answer read to its end (the connection closed): the chunks' data joined; what does
// not parse as chunks is kept as it came.
std::string dechunk(std::string_view in) {
  std::string out;
  std::size_t at = 0;
  while (at < in.size()) {
    const std::size_t eol = in.find("\r\n", at);
    if (eol == std::string_view::npos) return std::string(in);
    std::size_t size = 0;
    const auto r = std::from_chars(in.data() + at, in.data() + eol, size, 16);
    if (r.ptr == in.data() + at) return std::string(in);
    if (size == 0) return out;
    if (eol + 2 + size > in.size()) return std::string(in);
    out.append(in.substr(eol + 2, size));
    at = eol + 2 + size + 2;
  }
  return out;
}

std::optional<Head> parse_head(const std::string& in) {
  const std::size_t end = in.find("\r\n\r\n");
  if (end == std::string::npos || in.compare(0, 5, "HTTP/") != 0) return std::nullopt;
  Head h;
  h.body_at = end + 4;
  const std::size_t sp = in.find(' ');
  if (sp == std::string::npos || sp + 4 > end) return Head{};
  std::from_chars(in.data() + sp + 1, in.data() + sp + 4, h.status);
  std::size_t line = in.find("\r\n");
  while (line < end) {
    const std::size_t next = in.find("\r\n", line + 2);
    const std::string_view field(in.data() + line + 2, next - line - 2);
    constexpr std::string_view k_name = "content-length:";
    if (field.size() > k_name.size() && strncasecmp(field.data(), k_name.data(), k_name.size()) == 0) {
      std::string_view v = field.substr(k_name.size());
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      std::size_t n = 0;
      if (std::from_chars(v.data(), v.data() + v.size(), n).ec == std::errc()) h.content_length = n;
    }
    constexpr std::string_view k_te = "transfer-encoding:";
    if (field.size() > k_te.size() && strncasecmp(field.data(), k_te.data(), k_te.size()) == 0 &&
        field.find("chunked") != std::string_view::npos) {
      h.chunked = true;
    }
    line = next;
  }
  return h;
}

Result<HttpReply> read_reply(int fd, SteadyTime deadline, const std::string& url) {
  std::string in;
  char buf[16384];
  for (;;) {
    if (auto head = parse_head(in);
        head && head->content_length && in.size() >= head->body_at + *head->content_length) {
      return HttpReply{head->status, in.substr(head->body_at, *head->content_length)};
    }
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n > 0) {
      in.append(buf, static_cast<std::size_t>(n));
      if (in.size() > (64U << 20)) return runtime_error(fmt::format("{}: answer larger than 64 MiB", url));
    } else if (n == 0) {
      auto head = parse_head(in);
      if (!head || head->status == 0)
        return runtime_error(fmt::format("{}: connection closed without an answer", url));
      if (head->chunked) return HttpReply{head->status, dechunk(std::string_view(in).substr(head->body_at))};
      return HttpReply{head->status, in.substr(head->body_at)};
    } else if (errno == EAGAIN || errno == EINTR) {
      if (!net::wait_fd(fd, POLLIN, deadline))
        return runtime_error(fmt::format("{}: no answer within the timeout", url));
    } else {
      return runtime_error(fmt::format("{}: read failed: {}", url, std::strerror(errno)));
    }
  }
}

}  // namespace

std::string default_control_url(const net::Url& target) {
  return fmt::format("http://{}/_lab/config", target.host_header);
}

Result<ControlClient> ControlClient::create(std::string_view config_url, Nanos timeout,
                                            std::string_view what) {
  ControlClient c;
  c.m_config_url.assign(config_url);
  c.m_url = OPENLOOP_TRY(net::parse_url(config_url, what));
  if (c.m_url.tls) {
    return usage_error(
        fmt::format("{}: \"{}\": the lab's control endpoint is plain http://", what, config_url));
  }
  const std::string& path = c.m_url.target;
  constexpr std::string_view k_config = "/config";
  c.m_stats_target = path.size() >= k_config.size() && path.ends_with(k_config)
                         ? path.substr(0, path.size() - k_config.size()) + "/stats"
                         : std::string("/_lab/stats");
  c.m_endpoints = OPENLOOP_TRY(net::resolve(c.m_url.host, c.m_url.port));
  c.m_timeout = timeout;
  return c;
}

Result<HttpReply> ControlClient::request(std::string_view method, std::string_view target,
                                         std::string_view body) const {
  const SteadyTime deadline = SteadyClock::now() + m_timeout;
  const std::string url = fmt::format("http://{}{}", m_url.host_header, target);
  net::Url u = m_url;
  u.target.assign(target);
  std::vector<http::Header> headers{{"Connection", "close"}};
  if (!body.empty()) headers.push_back({"Content-Type", "application/json"});
  const std::string bytes = OPENLOOP_TRY(http::render_request(method, u, headers, body));
  const Fd fd(OPENLOOP_TRY(connect_any(m_endpoints, deadline, url)));
  OPENLOOP_TRY_VOID(send_all(fd.get(), bytes, deadline, url));
  return read_reply(fd.get(), deadline, url);
}

Result<nlohmann::json> ControlClient::json_of(std::string_view method, std::string_view target,
                                              std::string_view body) const {
  const HttpReply reply = OPENLOOP_TRY(request(method, target, body));
  const auto parsed = nlohmann::json::parse(reply.body, nullptr, /*allow_exceptions=*/false);
  const std::string url = fmt::format("{} http://{}{}", method, m_url.host_header, target);
  if (reply.status != 200) {
    const std::string why = parsed.is_object() && parsed.contains("error") && parsed["error"].is_string()
                                ? parsed["error"].get<std::string>()
                                : reply.body.substr(0, 200);
    return runtime_error(fmt::format("{}: answered {}: {}", url, reply.status, why));
  }
  if (!parsed.is_object()) {
    return runtime_error(fmt::format("{}: the answer is not a JSON object (is this an openloop lab?)", url));
  }
  return parsed;
}

Result<nlohmann::json> ControlClient::config() const {
  return json_of("GET", m_url.target, "");
}

Result<nlohmann::json> ControlClient::stats() const {
  return json_of("GET", m_stats_target, "");
}

Result<nlohmann::json> ControlClient::post_config(const nlohmann::json& change) const {
  return json_of("POST", m_url.target, change.dump());
}

}  // namespace openloop::lab
