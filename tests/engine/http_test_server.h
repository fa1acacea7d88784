// Worker-level tests on loopback: a keep-alive HTTP/1.1 server (a thread that answers every request head it
// reads with one fixed response and counts them; poll() with a 10 ms timeout, until destroyed), and an
// open-model plan aimed at it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../net/socket_test_util.h"
#include "core/time.h"
#include "engine/run_plan.h"
#include "http/request.h"
#include "net/url.h"

namespace openloop::engine::testing {

class HttpTestServer {
 public:
  /// `response`: the bytes sent for each request head. `on_served`: called on the server's thread after each
  /// answer with the request's head (through the CRLF of its last header line) and the count of requests
  /// answered so far (may be empty).
  explicit HttpTestServer(std::string response,
                          std::function<void(std::string_view, std::uint64_t)> on_served = {})
      : m_response(std::move(response)), m_on_served(std::move(on_served)) {
    ::fcntl(m_listener.fd, F_SETFL, ::fcntl(m_listener.fd, F_GETFL) | O_NONBLOCK);
    m_thread = std::thread([this] { serve(); });
  }
  ~HttpTestServer() {
    m_stop = true;
    m_thread.join();
    for (int fd : m_clients) ::close(fd);
  }
  HttpTestServer(const HttpTestServer&) = delete;
  HttpTestServer& operator=(const HttpTestServer&) = delete;
  std::uint16_t port() const { return m_listener.port; }
  std::uint64_t served() const { return m_served.load(); }

 private:
  void serve() {
    std::vector<std::string> pending;
    char buf[16384];
    while (!m_stop) {
      std::vector<pollfd> fds{{m_listener.fd, POLLIN, 0}};
      for (int fd : m_clients) fds.push_back({fd, POLLIN, 0});
      if (::poll(fds.data(), fds.size(), 10) <= 0) continue;
      if ((fds[0].revents & POLLIN) != 0) {
        const int c = ::accept4(m_listener.fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (c >= 0) {
          m_clients.push_back(c);
          pending.emplace_back();
        }
      }
      for (std::size_t i = 1; i < fds.size(); ++i) {
        if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
        const ssize_t n = ::recv(fds[i].fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n <= 0) continue;
        std::string& in = pending[i - 1];
        in.append(buf, static_cast<std::size_t>(n));
        for (std::size_t end; (end = in.find("\r\n\r\n")) != std::string::npos;) {
          ::send(fds[i].fd, m_response.data(), m_response.size(), MSG_NOSIGNAL);
          const std::uint64_t served = ++m_served;
          if (m_on_served) m_on_served(std::string_view(in.data(), end + 2), served);
          in.erase(0, end + 4);
        }
      }
    }
  }

  const std::string m_response;
  const std::function<void(std::string_view, std::uint64_t)> m_on_served;
  net::testing::Listener m_listener;
  std::vector<int> m_clients;
  std::atomic<bool> m_stop{false};
  std::atomic<std::uint64_t> m_served{0};
  std::thread m_thread;
};

/// An open-model plan of constant arrivals at `rate` per second for `duration`, one thread, GET / on
/// 127.0.0.1:`port`, no spinning, a 5 s timeout, at most `max_connections` connections.
inline RunPlan loopback_plan(std::uint16_t port, double rate, Nanos duration, std::uint64_t max_connections) {
  RunPlan plan;
  plan.url_text = "http://127.0.0.1:" + std::to_string(port) + "/";
  plan.url = *net::parse_url(plan.url_text);
  plan.endpoints = {net::testing::loopback(port)};
  RequestSpec spec;
  spec.request = *http::build_request("GET", plan.url, {}, "");
  plan.requests = {spec};
  plan.model = Model::open;
  plan.arrival = workload::ArrivalKind::constant;
  plan.threads = 1;
  plan.spin_below = Nanos(0);
  plan.timeout = std::chrono::seconds(5);
  plan.duration = duration;
  plan.profile = workload::RateProfile::constant(rate, duration);
  plan.max_connections = max_connections;
  return plan;
}

}  // namespace openloop::engine::testing
