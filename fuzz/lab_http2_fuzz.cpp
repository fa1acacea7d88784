// Fuzz target: the lab's HTTP/2 connection (src/lab/http2_connection, nghttp2's server session beneath it)
// fed client bytes in pieces, the model answering at once or later.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <sys/socket.h>
#include <unistd.h>

#include "lab/http2_connection.h"

namespace {

using namespace openloop;
using namespace openloop::lab;

// The server as the connection sees it: arrivals kept for the target to answer, a fixed control answer.
class Host final : public ConnectionHost {
 public:
  explicit Host(net::EventLoop loop) : m_loop(std::move(loop)) {
    m_config.deadline_header = "X-Deadline";
    m_config.http2.max_streams = 16;
    m_config.http2.refuse_streams_above = 8;
    m_config.http2.goaway_after = 40;
  }
  net::EventLoop& loop() override { return m_loop; }
  net::TimerQueue& timers() override { return m_timers; }
  SteadyTime now() const override { return SteadyTime{}; }
  const LabConfig& config() const override { return m_config; }
  const ResponseCatalog& responses() const override { return m_responses; }
  ServerCounters& counters() override { return m_counters; }
  AuthStore& auth() override { return m_auth; }
  void submit(SteadyTime /*now*/, const Arrival& arrival) override {
    // As the model does for a shed or zero-time request: the answer comes back inside submit().
    if (answer_at_once && connection != nullptr)
      return connection->on_outcome(tag_seq(arrival.tag), Outcome::ok);
    pending.push_back(arrival.tag);
  }
  ControlResponse control(std::string_view, std::string_view, std::string_view) override {
    return {200, "application/json", "{}\n"};
  }
  void on_closed(std::uint32_t) override {}

  Http2Connection* connection = nullptr;
  bool answer_at_once = false;
  std::vector<std::uint64_t> pending;

 private:
  net::EventLoop m_loop;
  net::TimerQueue m_timers;
  LabConfig m_config;
  ResponseCatalog m_responses{100};
  ServerCounters m_counters;
  AuthStore m_auth{1};
};

void drain(int fd) {
  char buffer[65536];
  for (int i = 0; i < 64 && ::recv(fd, buffer, sizeof buffer, 0) > 0; ++i) {
  }
}

}  // namespace

// Input: byte 0 sets the piece size; byte 1's bits: 1 = prepend the client preface (so most inputs reach the
// frame layer), 2 = the model answers inside submit, 4 = answer pending requests after each piece (with an
// outcome chosen by the piece's first byte). The rest is what a client sent on one connection.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t piece = data[0] == 0 ? size : data[0];
  const std::uint8_t mode = data[1];
  std::string input;
  if ((mode & 1) != 0) input.assign("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
  input.append(reinterpret_cast<const char*>(data + 2), size - 2);

  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds) != 0) return 0;
  auto loop = net::EventLoop::create();
  if (!loop) {
    ::close(fds[0]);
    ::close(fds[1]);
    return 0;
  }
  Host host(std::move(*loop));
  Http2Connection connection(host, 0);
  host.connection = &connection;
  host.answer_at_once = (mode & 2) != 0;
  connection.open(fds[1]);
  for (std::size_t at = 0; at < input.size() && connection.is_open(); at += piece) {
    const std::string_view chunk = std::string_view(input).substr(at, piece);
    connection.receive(chunk);
    drain(fds[0]);
    if ((mode & 4) != 0) {
      const auto outcome = static_cast<Outcome>(static_cast<unsigned char>(chunk[0]) % 6);
      std::vector<std::uint64_t> tags;
      tags.swap(host.pending);
      for (const std::uint64_t tag : tags) connection.on_outcome(tag_seq(tag), outcome);
      drain(fds[0]);
    }
  }
  connection.close();
  ::close(fds[0]);
  return 0;
}
