// Tests for gRPC's status names: every code has its canonical name and reads back to itself.
#include "core/grpc_status.h"

#include <gtest/gtest.h>

namespace openloop {
namespace {

TEST(GrpcStatus, NamesFollowTheCodes) {
  EXPECT_EQ(grpc_status_name(0), "OK");
  EXPECT_EQ(grpc_status_name(4), "DEADLINE_EXCEEDED");
  EXPECT_EQ(grpc_status_name(5), "NOT_FOUND");
  EXPECT_EQ(grpc_status_name(14), "UNAVAILABLE");
  EXPECT_EQ(grpc_status_name(16), "UNAUTHENTICATED");
  EXPECT_EQ(grpc_status_name(17), "");
  EXPECT_EQ(grpc_status_name(-1), "");
}

TEST(GrpcStatus, EveryNameReadsBackToItsCode) {
  for (int code = 0; code < static_cast<int>(k_grpc_status_codes); ++code)
    EXPECT_EQ(grpc_status_code(grpc_status_name(code)), code);
  EXPECT_EQ(grpc_status_code("not_found"), std::nullopt);  // canonical names only
  EXPECT_EQ(grpc_status_code(""), std::nullopt);
}

}  // namespace
}  // namespace openloop
