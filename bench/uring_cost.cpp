// What io_uring could save this generator: CPU per request of the generator's wake-up pattern, driven two
// ways against one local HTTP/1.1 server (nginx in bench/uring_cost.sh), alternating in rounds.
// - epoll: epoll_pwait2 with a timeout to the next send time, one send() per request, recv() until EAGAIN on
//   each readable connection (what net::EventLoop and the worker do today).
// - uring: one io_uring_enter per wake-up carrying the wake-up's K sends (IOSQE_CQE_SKIP_SUCCESS: a send that
//   succeeds posts nothing), the absolute timeout to the next send time (IORING_TIMEOUT_ABS) and the wait;
//   responses arrive through one multishot recv per connection with provided buffers (a buffer ring).
// Each wake-up sends K requests on K idle keep-alive connections; wake-ups are K / RATE apart, so the request
// rate is the same at every K (K = 1 is the precise default, about 50 the `--coalesce 1ms` window at 50k/s).
// CPU is getrusage(RUSAGE_SELF) user + sys over a phase, divided by the responses read in it.
// Usage: uring_cost PORT [RATE=20000] [SECONDS_PER_PHASE=2] [ROUNDS=3] [CONNS=100] [KS=1,5,20,50] [STAMPS=0]
// Traffic only to 127.0.0.1:PORT. Pin it (taskset -c 1) and the server (core 0) yourself; the script does.
#include <arpa/inet.h>
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <vector>

namespace {
constexpr char k_request[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
constexpr std::size_t k_request_len = sizeof k_request - 1;
constexpr unsigned k_buf_count = 1024;
constexpr unsigned k_buf_size = 4096;
constexpr int k_buf_group = 0;
// STAMPS=1: every read also takes the kernel's receive stamp (SO_TIMESTAMPNS), as the worker's reads do while
// coalescing: recvmsg with a control buffer, or multishot IORING_OP_RECVMSG. The stamps are summed into a
// sink.
bool g_stamps = false;
long long g_stamp_sink = 0;

// Adds the SCM_TIMESTAMPNS of a control message, if any, to the sink.
void take_stamp(const cmsghdr* c) {
  if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
    timespec ts{};
    std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
    g_stamp_sink += ts.tv_sec * 1'000'000'000LL + ts.tv_nsec;
  }
}

[[noreturn]] void die(const char* what, int err) {
  std::fprintf(stderr, "uring_cost: %s: %s\n", what, std::strerror(err));
  std::exit(1);
}

long long now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

double cpu_us() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto us = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) * 1e6 + static_cast<double>(tv.tv_usec);
  };
  return us(ru.ru_utime) + us(ru.ru_stime);
}

int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) die("socket", errno);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<std::uint16_t>(port));
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof sa) != 0) die("connect", errno);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

// The length of one response to k_request (headers + Content-Length body), read with a blocking socket.
std::size_t response_length(int port) {
  const int fd = connect_to(port);
  if (::send(fd, k_request, k_request_len, 0) != static_cast<ssize_t>(k_request_len)) die("send", errno);
  std::string got;
  char buf[4096];
  for (int i = 0; i < 100; ++i) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) die("recv (first response)", n < 0 ? errno : ECONNRESET);
    got.append(buf, static_cast<std::size_t>(n));
    const auto end = got.find("\r\n\r\n");
    if (end == std::string::npos) continue;
    const auto cl = got.find("Content-Length: ");
    if (cl == std::string::npos || cl > end) die("response without Content-Length", EPROTO);
    const std::size_t body = std::strtoul(got.c_str() + cl + 16, nullptr, 10);
    if (got.size() >= end + 4 + body) {
      ::close(fd);
      return end + 4 + body;
    }
  }
  die("first response never completed", EPROTO);
}

struct Conn {
  int fd = -1;
  std::size_t pending_bytes = 0;  // bytes of responses still expected
  int outstanding = 0;            // requests sent, response not complete
};

struct Phase {
  long requests = 0, responses = 0, skipped = 0, wakeups = 0;
  double cpu = 0, late_us = 0;
};

class Driver {
 public:
  Driver(int port, int conns, std::size_t resp_len) : m_resp_len(resp_len) {
    m_conns.resize(static_cast<std::size_t>(conns));
    for (auto& c : m_conns) {
      c.fd = connect_to(port);
      const int one = 1;
      if (g_stamps && setsockopt(c.fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) != 0)
        die("SO_TIMESTAMPNS", errno);
    }
  }
  virtual ~Driver() {
    for (auto& c : m_conns) ::close(c.fd);
  }
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  // Runs wake-ups of K sends each, `period_ns` apart, for `secs`, then drains outstanding responses.
  Phase run(int k, long long period_ns, double secs) {
    Phase p;
    const long long end = now_ns() + static_cast<long long>(secs * 1e9);
    m_deadline = now_ns() + period_ns;
    const double cpu0 = cpu_us();
    while (m_deadline < end) {
      wait_until_deadline(p);
      p.late_us += static_cast<double>(now_ns() - m_deadline) / 1e3;
      send_batch(k, p);
      m_deadline += period_ns;
    }
    drain(p);
    p.cpu = cpu_us() - cpu0;
    if (const long lost = outstanding(); lost > 0) {
      std::fprintf(stderr, "uring_cost: %ld responses still missing 5 s after the phase (K=%d)\n", lost, k);
    }
    return p;
  }

 protected:
  // Picks up to K idle connections (round robin); a wake-up finding fewer skips the rest (counted).
  std::vector<int> pick(int k, Phase& p) {
    std::vector<int> out;
    const std::size_t n = m_conns.size();
    for (std::size_t tried = 0; tried < n && static_cast<int>(out.size()) < k; ++tried) {
      m_next = (m_next + 1) % n;
      if (m_conns[m_next].outstanding == 0) out.push_back(static_cast<int>(m_next));
    }
    p.skipped += k - static_cast<long>(out.size());
    return out;
  }
  void sent(int i, Phase& p) {
    auto& c = m_conns[static_cast<std::size_t>(i)];
    c.outstanding++;
    c.pending_bytes += m_resp_len;
    p.requests++;
  }
  void received(int i, std::size_t bytes, Phase& p) {
    auto& c = m_conns[static_cast<std::size_t>(i)];
    if (bytes > c.pending_bytes) die("more bytes than responses expected", EPROTO);
    c.pending_bytes -= bytes;
    const int left = static_cast<int>((c.pending_bytes + m_resp_len - 1) / m_resp_len);
    p.responses += c.outstanding - left;
    c.outstanding = left;
  }
  long outstanding() const {
    long n = 0;
    for (const auto& c : m_conns) n += c.outstanding;
    return n;
  }
  virtual void wait_until_deadline(Phase& p) = 0;
  virtual void send_batch(int k, Phase& p) = 0;
  virtual void drain(Phase& p) = 0;

  std::vector<Conn> m_conns;
  std::size_t m_resp_len;
  std::size_t m_next = 0;
  long long m_deadline = 0;
};

class EpollDriver final : public Driver {
 public:
  EpollDriver(int port, int conns, std::size_t resp_len) : Driver(port, conns, resp_len) {
    m_ep = epoll_create1(EPOLL_CLOEXEC);
    if (m_ep < 0) die("epoll_create1", errno);
    for (std::size_t i = 0; i < m_conns.size(); ++i) {
      if (fcntl(m_conns[i].fd, F_SETFL, fcntl(m_conns[i].fd, F_GETFL) | O_NONBLOCK) != 0) die("fcntl", errno);
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.u64 = i;
      if (epoll_ctl(m_ep, EPOLL_CTL_ADD, m_conns[i].fd, &ev) != 0) die("epoll_ctl", errno);
    }
  }
  ~EpollDriver() override { ::close(m_ep); }
  EpollDriver(const EpollDriver&) = delete;
  EpollDriver& operator=(const EpollDriver&) = delete;

 private:
  // At least one wait per wake-up: a late loop still collects the responses that are ready (zero timeout), as
  // the worker does, instead of finding every connection busy.
  void wait_until_deadline(Phase& p) override {
    for (bool first = true;; first = false) {
      const long long left = std::max(m_deadline - now_ns(), 0LL);
      if (left == 0 && !first) return;
      timespec ts{static_cast<time_t>(left / 1'000'000'000LL), static_cast<long>(left % 1'000'000'000LL)};
      poll_once(&ts, p);
      if (left == 0) return;
    }
  }
  // recv, or with stamps recvmsg keeping SCM_TIMESTAMPNS (as net::Transport does).
  static ssize_t receive(int fd, char* buf, std::size_t len) {
    if (!g_stamps) return ::recv(fd, buf, len, 0);
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
    iovec iov{buf, len};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(fd, &msg, 0);
    if (n > 0)
      for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) take_stamp(c);
    return n;
  }
  void poll_once(const timespec* ts, Phase& p) {
    epoll_event evs[128];
    const int n = epoll_pwait2(m_ep, evs, 128, ts, nullptr);
    p.wakeups++;
    if (n < 0 && errno != EINTR) die("epoll_pwait2", errno);
    for (int e = 0; e < n; ++e) {
      const int i = static_cast<int>(evs[e].data.u64);
      char buf[k_buf_size];
      for (;;) {
        const ssize_t got = receive(m_conns[static_cast<std::size_t>(i)].fd, buf, sizeof buf);
        if (got > 0) {
          received(i, static_cast<std::size_t>(got), p);
          continue;
        }
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        die("recv", got < 0 ? errno : ECONNRESET);
      }
    }
  }
  void send_batch(int k, Phase& p) override {
    for (const int i : pick(k, p)) {
      const ssize_t n =
          ::send(m_conns[static_cast<std::size_t>(i)].fd, k_request, k_request_len, MSG_NOSIGNAL);
      if (n != static_cast<ssize_t>(k_request_len)) die("send", n < 0 ? errno : EPROTO);
      sent(i, p);
    }
  }
  void drain(Phase& p) override {
    const long long give_up = now_ns() + 5'000'000'000LL;
    while (outstanding() > 0 && now_ns() < give_up) {
      timespec ts{0, 10'000'000};
      poll_once(&ts, p);
    }
  }
  int m_ep = -1;
};

class UringDriver final : public Driver {
 public:
  UringDriver(int port, int conns, std::size_t resp_len) : Driver(port, conns, resp_len) {
    io_uring_params params{};
    params.flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER;
    if (const int r = io_uring_queue_init_params(256, &m_ring, &params); r < 0)
      die("io_uring_queue_init", -r);
    const std::size_t ring_bytes = sizeof(io_uring_buf) * k_buf_count;
    void* mem = nullptr;
    if (posix_memalign(&mem, 4096, ring_bytes) != 0) die("posix_memalign", ENOMEM);
    m_br = static_cast<io_uring_buf_ring*>(mem);
    io_uring_buf_ring_init(m_br);
    io_uring_buf_reg reg{};
    reg.ring_addr = reinterpret_cast<std::uint64_t>(m_br);
    reg.ring_entries = k_buf_count;
    reg.bgid = k_buf_group;
    if (const int r = io_uring_register_buf_ring(&m_ring, &reg, 0); r < 0)
      die("io_uring_register_buf_ring", -r);
    m_bufs.resize(static_cast<std::size_t>(k_buf_count) * k_buf_size);
    for (unsigned b = 0; b < k_buf_count; ++b) give_back(static_cast<std::uint16_t>(b));
    for (std::size_t i = 0; i < m_conns.size(); ++i) arm_recv(static_cast<int>(i));
    io_uring_submit(&m_ring);
  }
  ~UringDriver() override {
    io_uring_queue_exit(&m_ring);
    std::free(m_br);
  }
  UringDriver(const UringDriver&) = delete;
  UringDriver& operator=(const UringDriver&) = delete;

 private:
  static constexpr std::uint64_t k_timeout_tag = ~0ULL;
  static constexpr std::uint64_t k_send_tag = ~0ULL - 1;

  io_uring_sqe* sqe() {
    io_uring_sqe* s = io_uring_get_sqe(&m_ring);
    if (s == nullptr) {
      io_uring_submit(&m_ring);
      s = io_uring_get_sqe(&m_ring);
      if (s == nullptr) die("io_uring_get_sqe", EBUSY);
    }
    return s;
  }
  void give_back(std::uint16_t bid) {
    io_uring_buf_ring_add(m_br, m_bufs.data() + static_cast<std::size_t>(bid) * k_buf_size, k_buf_size, bid,
                          io_uring_buf_ring_mask(k_buf_count), 0);
    io_uring_buf_ring_advance(m_br, 1);
  }
  void arm_recv(int i) {
    io_uring_sqe* s = sqe();
    if (g_stamps) {
      m_msg.msg_controllen = CMSG_SPACE(sizeof(timespec));  // the kernel reads only the lengths
      io_uring_prep_recvmsg_multishot(s, m_conns[static_cast<std::size_t>(i)].fd, &m_msg, 0);
    } else {
      io_uring_prep_recv_multishot(s, m_conns[static_cast<std::size_t>(i)].fd, nullptr, 0, 0);
    }
    s->flags |= IOSQE_BUFFER_SELECT;
    s->buf_group = k_buf_group;
    io_uring_sqe_set_data64(s, static_cast<std::uint64_t>(i));
  }
  void arm_timeout() {
    m_ts.tv_sec = m_deadline / 1'000'000'000LL;
    m_ts.tv_nsec = m_deadline % 1'000'000'000LL;
    io_uring_sqe* s = sqe();
    io_uring_prep_timeout(s, &m_ts, 0, IORING_TIMEOUT_ABS);
    io_uring_sqe_set_data64(s, k_timeout_tag);
    m_timer_armed = true;
  }
  // One io_uring_enter: submits what is queued (sends, the timeout) and waits for one completion.
  void enter_and_reap(Phase& p) {
    const int r = io_uring_submit_and_wait(&m_ring, 1);
    p.wakeups++;
    if (r < 0 && r != -EINTR && r != -ETIME) die("io_uring_submit_and_wait", -r);
    reap(p);
  }
  void reap(Phase& p) {
    io_uring_cqe* cqe = nullptr;
    unsigned head = 0, seen = 0;
    io_uring_for_each_cqe(&m_ring, head, cqe) {
      ++seen;
      const std::uint64_t tag = cqe->user_data;
      if (tag == k_timeout_tag) {
        m_timer_armed = false;
      } else if (tag == k_send_tag) {
        die("send", -cqe->res);  // only failures post (IOSQE_CQE_SKIP_SUCCESS)
      } else {
        const int i = static_cast<int>(tag);
        if (cqe->res > 0 && g_stamps) {
          // The buffer holds an io_uring_recvmsg_out, the control messages, then the payload.
          char* buf =
              m_bufs.data() + static_cast<std::size_t>(cqe->flags >> IORING_CQE_BUFFER_SHIFT) * k_buf_size;
          io_uring_recvmsg_out* o = io_uring_recvmsg_validate(buf, cqe->res, &m_msg);
          if (o == nullptr) die("recvmsg (short buffer)", EPROTO);
          for (cmsghdr* c = io_uring_recvmsg_cmsg_firsthdr(o, &m_msg); c != nullptr;
               c = io_uring_recvmsg_cmsg_nexthdr(o, &m_msg, c))
            take_stamp(c);
          const unsigned n = io_uring_recvmsg_payload_length(o, cqe->res, &m_msg);
          if (n == 0) die("recvmsg", ECONNRESET);
          received(i, n, p);
        } else if (cqe->res > 0) {
          received(i, static_cast<std::size_t>(cqe->res), p);
        } else if (cqe->res != -ENOBUFS) {
          die("recv", cqe->res < 0 ? -cqe->res : ECONNRESET);
        }
        if ((cqe->flags & IORING_CQE_F_BUFFER) != 0)
          give_back(static_cast<std::uint16_t>(cqe->flags >> IORING_CQE_BUFFER_SHIFT));
        if ((cqe->flags & IORING_CQE_F_MORE) == 0) arm_recv(i);
      }
    }
    io_uring_cq_advance(&m_ring, seen);
  }
  void wait_until_deadline(Phase& p) override {
    // The timeout for this deadline rides on the enter that submitted the last batch's sends; arm it if not.
    if (now_ns() >= m_deadline) {  // late: submit the sends and collect what is ready, without waiting
      const int r = io_uring_submit(&m_ring);
      p.wakeups++;
      if (r < 0) die("io_uring_submit", -r);
      reap(p);
      return;
    }
    while (now_ns() < m_deadline) {
      if (!m_timer_armed) arm_timeout();
      enter_and_reap(p);
    }
  }
  void send_batch(int k, Phase& p) override {
    for (const int i : pick(k, p)) {
      io_uring_sqe* s = sqe();
      io_uring_prep_send(s, m_conns[static_cast<std::size_t>(i)].fd, k_request, k_request_len, MSG_NOSIGNAL);
      s->flags |= IOSQE_CQE_SKIP_SUCCESS;
      io_uring_sqe_set_data64(s, k_send_tag);
      sent(i, p);
    }
    // The sends are submitted by the next wait's enter, together with the timeout (armed there); a timeout
    // still pending from a wake-up that came early stays armed, and a second one is not queued.
  }
  void drain(Phase& p) override {
    const long long give_up = now_ns() + 5'000'000'000LL;
    while (outstanding() > 0 && now_ns() < give_up) {
      m_deadline = now_ns() + 10'000'000LL;
      if (!m_timer_armed) arm_timeout();
      enter_and_reap(p);
    }
    // Let a timeout still pending fire, so the next phase starts with none armed.
    while (m_timer_armed) enter_and_reap(p);
  }

  io_uring m_ring{};
  io_uring_buf_ring* m_br = nullptr;
  std::vector<char> m_bufs;
  __kernel_timespec m_ts{};
  msghdr m_msg{};  // multishot recvmsg's template: no name, one SCM_TIMESTAMPNS of control
  bool m_timer_armed = false;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: uring_cost PORT [RATE=20000] [SECONDS_PER_PHASE=2] [ROUNDS=3] [CONNS=100] [KS=1,5,20,50] "
        "[STAMPS=0]\n");
    return 2;
  }
  const int port = std::atoi(argv[1]);
  const double rate = argc > 2 ? std::atof(argv[2]) : 20000;
  const double secs = argc > 3 ? std::atof(argv[3]) : 2;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 3;
  const int conns = argc > 5 ? std::atoi(argv[5]) : 100;
  std::vector<int> ks;
  {
    std::string list = argc > 6 ? argv[6] : "1,5,20,50";
    for (char* tok = std::strtok(list.data(), ","); tok != nullptr; tok = std::strtok(nullptr, ","))
      ks.push_back(std::atoi(tok));
  }
  g_stamps = argc > 7 && std::atoi(argv[7]) != 0;
  if (port <= 0 || port > 65535 || rate <= 0 || secs <= 0 || rounds <= 0 || conns <= 0 || ks.empty()) {
    std::fprintf(stderr, "uring_cost: bad arguments (PORT 1-65535, RATE/SECONDS/ROUNDS/CONNS > 0)\n");
    return 2;
  }
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);  // as net::EventLoop does
  const std::size_t resp_len = response_length(port);
  EpollDriver epoll(port, conns, resp_len);
  UringDriver uring(port, conns, resp_len);

  // Per K: per-request CPU of each round, and the ratio uring / epoll within the round.
  std::map<int, std::vector<double>> cpu_e, cpu_u, ratio, wake_e, wake_u, late_e, late_u;
  std::map<int, long> skipped;
  std::printf(
      "| round | K | epoll µs/req | uring µs/req | uring/epoll | waits per wake-up e / u | lateness µs e / u "
      "|\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (int r = 1; r <= rounds; ++r) {
    for (const int k : ks) {
      const auto period = static_cast<long long>(1e9 * k / rate);
      // Alternate which goes first, so neither always follows the other.
      Phase pe, pu;
      if (r % 2 == 1) {
        pe = epoll.run(k, period, secs);
        pu = uring.run(k, period, secs);
      } else {
        pu = uring.run(k, period, secs);
        pe = epoll.run(k, period, secs);
      }
      if (pe.responses == 0 || pu.responses == 0) die("a phase got no responses", EPROTO);
      const double e = pe.cpu / static_cast<double>(pe.responses),
                   u = pu.cpu / static_cast<double>(pu.responses);
      const double we = static_cast<double>(pe.wakeups) * k / static_cast<double>(pe.requests);
      const double wu = static_cast<double>(pu.wakeups) * k / static_cast<double>(pu.requests);
      const double le = pe.late_us * k / static_cast<double>(pe.requests),
                   lu = pu.late_us * k / static_cast<double>(pu.requests);
      cpu_e[k].push_back(e), cpu_u[k].push_back(u), ratio[k].push_back(u / e);
      wake_e[k].push_back(we), wake_u[k].push_back(wu), late_e[k].push_back(le), late_u[k].push_back(lu);
      skipped[k] += pe.skipped + pu.skipped;
      std::printf("| %d | %d | %.2f | %.2f | %.2f | %.2f / %.2f | %.1f / %.1f |\n", r, k, e, u, u / e, we, wu,
                  le, lu);
      std::fflush(stdout);
    }
  }
  std::printf("\nMedians over %d rounds (%.0f requests/s, %.1f s per phase, %d connections, %s):\n\n", rounds,
              rate, secs, conns,
              g_stamps ? "receive stamps: recvmsg / multishot recvmsg" : "recv / multishot recv");
  std::printf(
      "| K (sends per wake-up) | epoll µs/req | uring µs/req | uring/epoll (median of rounds' ratios) | "
      "waits per wake-up e / u | lateness µs e / u | skipped (no idle conn) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const int k : ks) {
    std::printf("| %d | %.2f | %.2f | %.2f | %.2f / %.2f | %.1f / %.1f | %ld |\n", k, median(cpu_e[k]),
                median(cpu_u[k]), median(ratio[k]), median(wake_e[k]), median(wake_u[k]), median(late_e[k]),
                median(late_u[k]), skipped[k]);
  }
  if (g_stamps && g_stamp_sink == 0)
    std::fprintf(stderr, "uring_cost: STAMPS=1 but no receive stamp was read\n");
  return 0;
}
