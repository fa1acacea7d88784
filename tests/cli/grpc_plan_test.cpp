// A plan file's gRPC calls made ready to send: a constant message framed once into its request, a templated
// one given the per-call encoder, HTTP requests beside them untouched, and the schema's refusals placed in
// the file.
#include "cli/grpc_plan.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "engine/scenario_plans.h"
#include "workload/scenario_file.h"

namespace openloop::cli {
namespace {

using ::testing::HasSubstr;

// A folder of its own per test (ctest runs a fixture's tests in parallel) holding the schema t.proto.
class GrpcPlan : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() /
            fmt::format("grpc_plan_test_{}_{}",
                        ::testing::UnitTest::GetInstance()->current_test_info()->name(), getpid());
    std::filesystem::create_directories(m_dir);
    std::ofstream(m_dir / "t.proto") << "syntax = \"proto3\";\npackage t.v1;\n"
                                        "message Req { string key = 1; int32 n = 2; bool flag = 3; }\n"
                                        "message Rep { string key = 1; }\n"
                                        "service Svc { rpc Get(Req) returns (Rep); "
                                        "rpc Watch(Req) returns (stream Rep); }\n";
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  // The plan (`requests` at column 3, one sessions scenario of `steps`) and its scenarios' plans, calls
  // applied.
  Result<std::vector<engine::RunPlan>> plans(std::string_view requests, std::string_view steps) {
    const std::string text =
        "target: grpc://127.0.0.1:1\ndefaults: {grpc: {proto: t.proto}}\nrequests:\n" +
        std::string(requests) +
        "scenarios:\n  s: {model: sessions, session_rate: 1/s, duration: 1s, steps: " + std::string(steps) +
        "}\n";
    auto loaded = workload::load_plan_text(text, "plan.yaml", m_dir);
    if (!loaded) return tl::unexpected(loaded.error());
    m_file = std::make_shared<const workload::WorkloadPlan>(std::move(*loaded));
    auto built = OPENLOOP_TRY(engine::plans_from_workload(m_file, engine::RunSettings{}));
    OPENLOOP_TRY_VOID(apply_plan_grpc_calls(RunOptions{}, *m_file, built));
    return built;
  }

  std::filesystem::path m_dir;
  std::shared_ptr<const workload::WorkloadPlan> m_file;
};

TEST_F(GrpcPlan, AConstantMessageIsFramedOnceAndATemplatedOneEncodedPerCall) {
  auto p = plans(
      "  page: GET /page\n  get: {call: t.v1.Svc/Get, message: {key: a}}\n"
      "  each: {call: t.v1.Svc/Get, message: {key: \"k{{uniform(1, 9)}}\"}, grpc_success: [OK, 5]}\n",
      "[page, get, each]");
  ASSERT_TRUE(p) << p.error().message;
  const engine::RunPlan& plan = p->front();
  EXPECT_EQ(plan.protocol, engine::ProtocolChoice::http2);
  EXPECT_EQ(plan.retry.send_deadline, "grpc-timeout");
  const engine::RequestSpec& page = plan.requests[0];
  EXPECT_EQ(page.grpc_success, 0U);
  EXPECT_EQ(page.request.parts().body, "");
  const engine::RequestSpec& get = plan.requests[1];
  EXPECT_EQ(get.grpc_success, 1U);
  EXPECT_EQ(get.encoder, nullptr);
  EXPECT_EQ(get.request.parts().body, std::string("\0\0\0\0\3\x0a\x01"
                                                  "a",
                                                  8));  // key "a", framed
  EXPECT_EQ(get.request.parts().target, "/t.v1.Svc/Get");
  const engine::RequestSpec& each = plan.requests[2];
  EXPECT_EQ(each.grpc_success, (1U << 0) | (1U << 5));
  ASSERT_NE(each.encoder, nullptr);
  EXPECT_EQ(plan.body_encoder.get(), each.encoder);
  std::string out;
  ASSERT_TRUE(each.encoder->encode(R"({"key":"k7"})", out));
  EXPECT_EQ(out, std::string("\0\0\0\0\4\x0a\x02k7", 9));
  EXPECT_EQ(plan.describe()["grpc"]["calls"],
            (nlohmann::json{{"get", "t.v1.Svc/Get"}, {"each", "t.v1.Svc/Get"}}));
}

// A drawn bool was refused before the run when every {{...}} was checked as 0 ({"flag": 0} is no bool); the
// compiled template is checked with each value drawn as its field's type. A template the compiled path leaves
// to libprotobuf (here a {{...}} standing for a whole object) is still checked as 0, and refused.
TEST_F(GrpcPlan, ATemplatedBoolIsCheckedAsABool) {
  auto p = plans(
      "  flip: {call: t.v1.Svc/Get, message: '{\"flag\": {{choice(true, false)}}, \"n\": {{uniform(1, "
      "9)}}}'}\n",
      "[flip]");
  ASSERT_TRUE(p) << p.error().message;
  std::string out;
  ASSERT_TRUE(p->front().requests[0].encoder->encode(R"({"flag": true, "n": 7})", out));
  EXPECT_EQ(out, std::string("\0\0\0\0\4\x10\x07\x18\x01", 9));
  auto whole = plans("  flip: {call: t.v1.Svc/Get, message: '{\"key\": {{choice(\"a\")}}}'}\n", "[flip]");
  ASSERT_FALSE(whole);
  EXPECT_THAT(whole.error().message, HasSubstr("message (each {{...}} as 0)"));
}

TEST_F(GrpcPlan, RefusalsNameTheCallItsScenarioAndWhatThereIs) {
  const auto error = [&](std::string_view requests) {
    auto p = plans(requests, "[get]");
    EXPECT_FALSE(p);
    return p ? std::string() : p.error().message;
  };
  EXPECT_EQ(
      error("  get: {call: t.v1.Svc/Nope}\n"),
      "plan.yaml:4:8: requests.get (scenario s): call t.v1.Svc/Nope: service t.v1.Svc has no method Nope; "
      "its methods: Get, Watch");
  EXPECT_THAT(error("  get: {call: t.v1.Svc/Watch}\n"), HasSubstr("unary methods only"));
  EXPECT_THAT(error("  get: {call: t.v1.Svc/Get, message: {nope: 1}}\n"),
              HasSubstr("plan.yaml:4:8: requests.get (scenario s): message"));
  EXPECT_THAT(error("  get: {call: t.v1.Svc/Get, message: {n: \"x{{uniform(1, 9)}}\"}}\n"),
              HasSubstr("message (each {{...}} as 0)"));
}

}  // namespace
}  // namespace openloop::cli
