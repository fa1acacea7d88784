// Tests for non-blocking TCP connect and the plain Transport on real loopback sockets (bounded waits, no
// sleeps).
#include "net/transport.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <thread>

#include <fcntl.h>
#include <netinet/tcp.h>

#include "net/socket_test_util.h"

using namespace openloop;
using namespace openloop::net;
using namespace openloop::net::testing;

TEST(TcpConnect, ConnectedSocketIsNonBlockingCloexecAndNoDelay) {
  Listener listener;
  const int fd = connect_within(loopback(listener.port), 5000);
  ASSERT_GE(fd, 0) << std::strerror(-fd);
  EXPECT_NE(::fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
  EXPECT_NE(::fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
  int nodelay = 0;
  socklen_t len = sizeof nodelay;
  ASSERT_EQ(::getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nodelay, &len), 0);
  EXPECT_EQ(nodelay, 1);
  ::close(fd);
}

TEST(TcpConnect, RefusedConnectReportsEconnrefused) {
  std::uint16_t port = 0;
  {
    Listener closed_right_away;  // a port that was just free on loopback: nothing listens there now
    port = closed_right_away.port;
  }
  const int fd = tcp_connect_nonblocking(loopback(port));
  if (fd < 0) {
    EXPECT_EQ(fd, -ECONNREFUSED);  // the kernel may refuse a loopback connect synchronously
    return;
  }
  ASSERT_TRUE(wait_for(fd, POLLOUT, 5000));
  EXPECT_EQ(tcp_connect_result(fd), ECONNREFUSED);
  ::close(fd);
}

class PlainTransport : public ::testing::Test {
 protected:
  void SetUp() override {
    const int fd = connect_within(loopback(m_listener.port), 5000);
    ASSERT_GE(fd, 0) << std::strerror(-fd);
    m_peer = m_listener.accept_within(5000);
    ASSERT_GE(m_peer, 0);
    m_transport.attach_plain(fd);
  }
  void TearDown() override {
    if (m_peer >= 0) ::close(m_peer);
  }
  Listener m_listener;
  Transport m_transport;
  int m_peer = -1;
};

TEST_F(PlainTransport, HandshakeIsImmediateAndBytesFlowBothWays) {
  EXPECT_FALSE(m_transport.is_tls());
  EXPECT_EQ(m_transport.handshake().status, IoStatus::ok);
  const std::string request = "GET / HTTP/1.1\r\n\r\n";
  auto w = drive(m_transport, [&] { return m_transport.write(request.data(), request.size()); });
  ASSERT_EQ(w.status, IoStatus::ok);
  EXPECT_EQ(w.bytes, request.size());
  char got[64] = {};
  ASSERT_EQ(::recv(m_peer, got, sizeof got, 0), static_cast<ssize_t>(request.size()));
  EXPECT_EQ(std::string(got, request.size()), request);

  ASSERT_EQ(::send(m_peer, "pong", 4, 0), 4);
  char buf[16];
  auto r = drive(m_transport, [&] { return m_transport.read(buf, sizeof buf); });
  ASSERT_EQ(r.status, IoStatus::ok);
  EXPECT_EQ(std::string(buf, r.bytes), "pong");
}

TEST_F(PlainTransport, ReadWithNothingPendingWantsRead) {
  char buf[16];
  EXPECT_EQ(m_transport.read(buf, sizeof buf).status, IoStatus::want_read);
}

TEST_F(PlainTransport, PeerCloseIsReportedAsClosed) {
  ::close(m_peer);
  m_peer = -1;
  char buf[16];
  EXPECT_EQ(drive(m_transport, [&] { return m_transport.read(buf, sizeof buf); }).status, IoStatus::closed);
}

TEST_F(PlainTransport, WriteToAResetPeerIsAnErrorWithErrnoNotASignal) {
  linger hard{1, 0};  // close with RST
  ASSERT_EQ(::setsockopt(m_peer, SOL_SOCKET, SO_LINGER, &hard, sizeof hard), 0);
  ::close(m_peer);
  m_peer = -1;
  ASSERT_TRUE(wait_for(m_transport.fd(), POLLIN, 5000));  // the RST has arrived
  const char data[] = "x";
  IoResult r{IoStatus::ok};
  for (int i = 0; i < 100 && r.status == IoStatus::ok; ++i) r = m_transport.write(data, 1);
  ASSERT_EQ(r.status, IoStatus::error);
  EXPECT_TRUE(m_transport.last_errno() == ECONNRESET || m_transport.last_errno() == EPIPE)
      << m_transport.last_errno();
  EXPECT_EQ(m_transport.error_string().rfind("write failed: ", 0), 0u) << m_transport.error_string();
}

TEST_F(PlainTransport, CloseIsSafeTwiceAndForgetsTheFd) {
  m_transport.close();
  EXPECT_EQ(m_transport.fd(), -1);
  m_transport.close();
  EXPECT_EQ(m_transport.fd(), -1);
  char buf[4];
  EXPECT_EQ(m_transport.read(buf, sizeof buf).status, IoStatus::error);
}

TEST_F(PlainTransport, WithoutReceiveStampsDataIsReceivedWhenRead) {
  ASSERT_EQ(::send(m_peer, "pong", 4, 0), 4);
  char buf[16];
  ASSERT_EQ(drive(m_transport, [&] { return m_transport.read(buf, sizeof buf); }).status, IoStatus::ok);
  const SteadyTime now = SteadyClock::now();
  EXPECT_EQ(m_transport.received_at(now), now);
}

TEST(StampedTransport, DataIsReceivedWhenTheKernelGotItNotWhenItWasRead) {
  Listener listener;
  const int fd = connect_within(loopback(listener.port), 5000);
  ASSERT_GE(fd, 0) << std::strerror(-fd);
  const int peer = listener.accept_within(5000);
  ASSERT_GE(peer, 0);
  Transport t;
  t.stamp_receipts(true);
  t.attach_plain(fd);
  char buf[16];
  // The kernel switches stamping on shortly after the first socket asks (a deferred static key): the first
  // exchange may go unstamped.
  for (int round = 0; round < 2; ++round) {
    const SteadyTime before = SteadyClock::now();
    ASSERT_EQ(::send(peer, "pong", 4, 0), 4);
    ASSERT_TRUE(wait_for(fd, POLLIN, 5000));
    const SteadyTime arrived_by = SteadyClock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // read late, as a coalescing worker does
    ASSERT_EQ(t.read(buf, sizeof buf).status, IoStatus::ok);
    const SteadyTime now = SteadyClock::now();
    const SteadyTime got = t.received_at(now);
    const SteadyTime after = SteadyClock::now();
    if (round == 0) continue;
    // received_at() takes the stamp's age on the wall clock, read after `now`: the time between the two clock
    // reads (at most after − now, however long a loaded machine preempted this thread) makes `got` that much
    // earlier, never later. So the bounds are exact up to that gap, plus 1 ms for the two clocks' rates
    // (an NTP slew of 500 ppm moves them 15 µs apart over these 30 ms).
    const Nanos gap = after - now;
    EXPECT_GE(got, before - gap - std::chrono::milliseconds(1));
    EXPECT_LE(got, arrived_by + std::chrono::milliseconds(1));
    EXPECT_GE(now - got, std::chrono::milliseconds(29));  // slept 30 ms between arrival and read
  }
  ::close(peer);
}
