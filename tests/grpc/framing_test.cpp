// Tests for gRPC's framing: the 5-byte length prefix and grpc-timeout's value.
#include "grpc/framing.h"

#include <gtest/gtest.h>

namespace openloop::grpc {
namespace {

using namespace std::chrono_literals;

TEST(Framing, APrefixIsAZeroFlagAndTheLengthBigEndian) {
  std::string out;
  append_framed("abc", out);
  EXPECT_EQ(out, std::string("\0\0\0\0\3abc", 8));
  out.clear();
  append_framed(std::string(300, 'x'), out);
  EXPECT_EQ(out.substr(0, 5), std::string("\0\0\0\1\x2c", 5));
  EXPECT_EQ(out.size(), 305U);
  out.clear();
  append_framed("", out);
  EXPECT_EQ(out, std::string(5, '\0'));
}

TEST(Framing, GrpcTimeoutSaysTheDeadlineExactlyOrRoundsItUp) {
  EXPECT_EQ(grpc_timeout(50ms), "50m");
  EXPECT_EQ(grpc_timeout(1500us), "1500u");
  EXPECT_EQ(grpc_timeout(5s), "5S");
  EXPECT_EQ(grpc_timeout(std::chrono::hours(30)), "30H");
  EXPECT_EQ(grpc_timeout(Nanos(1)), "1n");
  // 100000001 µs needs 9 digits: the finest unit that fits, rounded up (never a shorter deadline).
  EXPECT_EQ(grpc_timeout(Nanos(100'000'001'000)), "100001m");
}

}  // namespace
}  // namespace openloop::grpc
