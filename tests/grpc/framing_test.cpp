// Tests for gRPC's framing: the 5-byte length prefix.
#include "grpc/framing.h"

#include <gtest/gtest.h>

namespace openloop::grpc {
namespace {

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

}  // namespace
}  // namespace openloop::grpc
