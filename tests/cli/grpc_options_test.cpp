// --grpc-success as a set of gRPC status names or codes, and apply_grpc_call marking the plan's requests with
// it.
#include "cli/grpc_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/run_plan.h"

namespace openloop::cli {
namespace {

using ::testing::HasSubstr;

std::uint32_t mask_of(std::string_view names) {
  auto parsed = parse_grpc_success(names);
  EXPECT_TRUE(parsed) << parsed.error().message;
  return parsed ? parsed->mask : 0;
}

TEST(GrpcSuccess, AnySetOfNamesOrCodes) {
  EXPECT_EQ(mask_of("OK"), 1U);
  EXPECT_EQ(mask_of("OK,NOT_FOUND,UNAVAILABLE"), (1U << 0) | (1U << 5) | (1U << 14));  // gaps are fine
  EXPECT_EQ(mask_of("0,5, 14"), (1U << 0) | (1U << 5) | (1U << 14));
  EXPECT_EQ(mask_of("16,UNAUTHENTICATED"), 1U << 16);
}

TEST(GrpcSuccess, AnUnknownNameIsAUsageErrorListingTheSeventeen) {
  for (const char* bad : {"OK,NOTFOUND", "17", "05", "", "OK,", "-1", "ok"}) {
    auto parsed = parse_grpc_success(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().code, ExitCode::usage);
    EXPECT_THAT(parsed.error().message, HasSubstr("--grpc-success"));
    EXPECT_THAT(
        parsed.error().message,
        HasSubstr("OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, "
                  "PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, "
                  "UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED (or their codes 0..16)"));
  }
}

TEST(GrpcSuccess, ThePlanJudgesBySetAndSendsGrpcTimeout) {
  GrpcCall call;
  call.target = "grpc://127.0.0.1:1";
  call.call = "pkg.Svc/Method";
  call.success = *parse_grpc_success("OK,NOT_FOUND");
  call.send_timeout = true;
  engine::RunPlan plan;
  plan.requests.emplace_back();
  ASSERT_TRUE(apply_grpc_call(call, plan));
  EXPECT_EQ(plan.requests[0].grpc_success, (1U << 0) | (1U << 5));
  EXPECT_EQ(plan.requests[0].name, "pkg.Svc/Method");
  EXPECT_EQ(plan.retry.send_deadline, "grpc-timeout");
  EXPECT_EQ(plan.describe()["success_statuses"], "OK,NOT_FOUND");
}

TEST(GrpcCall, AnArrayOfMessagesBecomesOneRequestEachInTurn) {
  GrpcCall call;
  call.target = "grpc://127.0.0.1:1";
  call.call = "pkg.Svc/Method";
  call.messages = {std::string("\0\0\0\0\0", 5), std::string("\0\0\0\0\2\x08\x01", 7)};
  engine::RunPlan plan;
  plan.url = *net::parse_url("http://127.0.0.1:1/pkg.Svc/Method", "URL");
  plan.method = "POST";
  plan.requests.emplace_back();
  plan.requests[0].method = "POST";
  ASSERT_TRUE(apply_grpc_call(call, plan));
  ASSERT_EQ(plan.requests.size(), 2U);
  EXPECT_TRUE(plan.round_robin);
  EXPECT_EQ(plan.requests[1].name, "pkg.Svc/Method [2]");
  EXPECT_EQ(plan.requests[1].request.parts().body, call.messages[1]);
  EXPECT_EQ(plan.requests[0].request.parts().target, "/pkg.Svc/Method");
  EXPECT_EQ(plan.describe()["grpc"]["call"], "pkg.Svc/Method");
}

// Refused before any schema is read or anything is sent; --repeat is not among the refusals (each repeat's
// plan makes the call: cli/run_repeats.h), so a run with it gets as far as its schema.
TEST(GrpcCall, TargetsAreRefusedSayingWhatToDoInsteadAndRepeatIsNot) {
  RunOptions o;
  o.url = "grpc://127.0.0.1:1";
  GrpcOptions g;
  g.call = "pkg.Svc/Method";
  g.protoset = "/nonexistent/set.pb";
  o.targets = "targets.txt";
  auto refused = prepare_grpc_call(o, g);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ExitCode::usage);
  EXPECT_THAT(refused.error().message, HasSubstr("--targets: not with a grpc:// target"));
  EXPECT_THAT(refused.error().message, HasSubstr("openloop merge"));
  o.targets.clear();
  o.repeat = "2";
  auto repeated = prepare_grpc_call(o, g);
  ASSERT_FALSE(repeated);
  EXPECT_THAT(repeated.error().message, HasSubstr("/nonexistent/set.pb"));
  EXPECT_THAT(repeated.error().message, ::testing::Not(HasSubstr("--repeat")));
}

}  // namespace
}  // namespace openloop::cli
