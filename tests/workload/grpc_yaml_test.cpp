// A plan file's gRPC calls read as plain data: the call's HTTP/2 request, its message as JSON, its metadata
// and success set, the schema's source, and every refusal naming file:line:column.
#include "workload/grpc_yaml.h"

#include <gtest/gtest.h>

#include <string>

#include "http/request_buffer.h"
#include "workload/grpc_call.h"
#include "workload/scenario_file.h"

using namespace openloop;
using namespace openloop::workload;

namespace {

Result<WorkloadPlan> load(std::string_view yaml) {
  return load_plan_text(yaml, "plan.yaml", "/plans");
}

std::string load_error(std::string_view yaml) {
  auto plan = load(yaml);
  EXPECT_FALSE(plan) << yaml;
  if (plan) return {};
  EXPECT_EQ(plan.error().code, ExitCode::usage);
  return plan.error().message;
}

// A plan with `requests` (lines 3 on, at column 3) used by one sessions scenario, its steps `steps`.
std::string plan_with(std::string_view requests, std::string_view steps = "[login, lookup]",
                      std::string_view top = "target: grpc://127.0.0.1:50051\n") {
  return std::string(top) + "requests:\n" + std::string(requests) +
         "scenarios:\n  mixed: {model: sessions, session_rate: 10/s, duration: 1s, steps: " +
         std::string(steps) + "}\n";
}

constexpr std::string_view k_mixed =
    "  login: POST /login\n"
    "  lookup: {call: openloop.lab.v1.Lab/Call, message: {key: \"k{{uniform(1, 100)}}\", n: 5, on: true},\n"
    "           metadata: {x-user: ada, trace-bin: AAEC}, grpc_success: [OK, NOT_FOUND]}\n";

TEST(GrpcYaml, ACallIsAPostOfItsMethodWithItsMessageAsJsonBesideAnHttpRequest) {
  auto plan = load(plan_with(k_mixed));
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_TRUE(plan->grpc);
  ASSERT_EQ(plan->grpc->calls.size(), 1U);
  const GrpcCallText& call = plan->grpc->calls[0];
  EXPECT_EQ(call.request, 1U);
  EXPECT_EQ(call.call, "openloop.lab.v1.Lab/Call");
  EXPECT_EQ(call.message, R"({"key":"k{{uniform(1, 100)}}","n":5,"on":true})");
  EXPECT_EQ(call.success, (1U << 0) | (1U << 5));
  EXPECT_EQ(call.where, "plan.yaml:4:11: requests.lookup");
  EXPECT_EQ(plan->grpc->find(0), nullptr);
  EXPECT_EQ(plan->grpc->find(1), &call);
  // The grpc:// target is the requests' http:// base; the call renders as its HTTP/2 request.
  EXPECT_EQ(plan->target.scheme, "http");
  EXPECT_EQ(plan->target_text, "grpc://127.0.0.1:50051");
  const RequestTemplate& t = plan->requests[1];
  EXPECT_EQ(t.method(), "POST");
  EXPECT_EQ(t.target_text(), "/openloop.lab.v1.Lab/Call");
  EXPECT_TRUE(t.has_variables());
  RenderContext ctx(plan->variables, plan->requests.size(), 1, 0, 1);
  http::RequestBuffer out;
  t.render(ctx, out);
  std::string headers;
  for (const auto& h : out.parts().headers)
    headers += std::string(h.name) + ": " + std::string(h.value) + "\n";
  EXPECT_EQ(headers, "x-user: ada\ntrace-bin: AAEC\ncontent-type: application/grpc\nte: trailers\n");
  EXPECT_EQ(out.parts().body.substr(0, 9), R"({"key":"k)");
  EXPECT_EQ(plan->grpc->schema.where, "");  // no defaults.grpc: the server's reflection
}

TEST(GrpcYaml, TheSchemaAndTheDefaultSuccessComeFromDefaults) {
  auto plan = load(plan_with("  lookup: {call: pkg.Svc.Get, message: '{\"id\": 7}'}\n", "[lookup]",
                             "target: grpcs://h:443\n"
                             "defaults:\n"
                             "  grpc: {proto: [a.proto, /abs/b.proto], import_paths: protos}\n"
                             "  grpc_success: OK, 5\n"));
  ASSERT_TRUE(plan) << plan.error().message;
  const GrpcPlanText& g = *plan->grpc;
  EXPECT_EQ(g.schema.proto, (std::vector<std::string>{"/plans/a.proto", "/abs/b.proto"}));
  EXPECT_EQ(g.schema.import_paths, (std::vector<std::string>{"/plans/protos"}));
  EXPECT_EQ(g.calls[0].success, (1U << 0) | (1U << 5));
  EXPECT_EQ(g.calls[0].message, "{\"id\": 7}");                // a JSON string as written
  EXPECT_EQ(plan->requests[0].target_text(), "/pkg.Svc/Get");  // ghz's dotted form
  EXPECT_FALSE(plan->requests[0].has_variables());
  EXPECT_TRUE(plan->target.tls);
}

TEST(GrpcYaml, APlanWithoutCallsHasNoGrpcPart) {
  auto plan =
      load(plan_with("  login: POST /login\n  lookup: GET /x\n", "[login, lookup]", "target: http://h\n"));
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_FALSE(plan->grpc);
}

TEST(GrpcYaml, RefusalsNameThePlaceAndWhatIsAccepted) {
  EXPECT_EQ(
      load_error(plan_with("  lookup: {call: Call}\n", "[lookup]")),
      "plan.yaml:3:18: requests.lookup.call: \"Call\" is not a method; write package.Service/Method (or "
      "package.Service.Method)");
  EXPECT_EQ(load_error(plan_with("  lookup: {call: a.B/C, metadata: {grpc-timeout: 1S}}\n", "[lookup]")),
            "plan.yaml:3:50: requests.lookup.metadata.grpc-timeout: grpc-timeout is reserved by gRPC "
            "(content-type, te and grpc-* are set by openloop; grpc-timeout comes from the timeout)");
  EXPECT_EQ(
      load_error(plan_with("  lookup: {call: a.B/C, metadata: {k-bin: \"not base64!\"}}\n", "[lookup]")),
      "plan.yaml:3:43: requests.lookup.metadata.k-bin: k-bin is binary metadata (a key ending in -bin), "
      "whose value is base64 (A-Z a-z 0-9 + /, padded with = or not); \"not base64!\" is not");
  EXPECT_EQ(
      load_error(plan_with("  lookup: {call: a.B/C, grpc_success: [OK, NOPE]}\n", "[lookup]")),
      "plan.yaml:3:39: requests.lookup.grpc_success OK,NOPE: \"NOPE\" is not a gRPC status; expected names "
      "among OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, "
      "PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, "
      "INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED (or their codes 0..16)");
  EXPECT_EQ(
      load_error(plan_with("  lookup: {call: a.B/C, message: [{}, {}]}\n", "[lookup]")),
      "plan.yaml:3:34: requests.lookup.message: one message per request; for several, name a request for "
      "each and mix them");
  EXPECT_EQ(load_error(plan_with("  lookup: {call: a.B/C, path: /x}\n", "[lookup]")).substr(0, 60),
            "plan.yaml:3:25: requests.lookup: unknown key \"path\"; a gRPC ");
  EXPECT_EQ(
      load_error(plan_with("  lookup: {call: a.B/C}\n", "[lookup]", "target: http://h/api\n")),
      "plan.yaml:3:11: requests.lookup: a gRPC call's path is its method, and the target http://h/api has "
      "the path /api; give the target as scheme://host:port");
  EXPECT_EQ(
      load_error(plan_with("  lookup: {call: a.B/C}\n", "[lookup]",
                           "target: grpc://h:1\ndefaults:\n  grpc: {proto: a.proto, protoset: a.pb}\n")),
      "plan.yaml:3:36: defaults.grpc.protoset: give one schema, proto or protoset, not both");
  EXPECT_EQ(
      load_error(plan_with("  lookup: {call: a.B/C}\n", "[lookup]",
                           "target: grpc://h:1\ndefaults:\n  headers: {grpc-encoding: gzip}\n")),
      "plan.yaml:3:28: defaults.headers.grpc-encoding: grpc-encoding is reserved by gRPC (defaults.headers "
      "go with every request, and plan.yaml:5:11: requests.lookup is a gRPC call) (content-type, te and "
      "grpc-* are set by openloop; grpc-timeout comes from the timeout)");
}

TEST(GrpcYaml, SetupStepsSendNoCalls) {
  const std::string yaml =
      "target: grpc://h:1\nrequests:\n  lookup: {call: a.B/C}\nsetup: [lookup]\n"
      "scenarios:\n  s: {model: open, rate: 1/s, duration: 1s, request: lookup}\n";
  EXPECT_EQ(load_error(yaml).substr(0, 80),
            "plan.yaml:4:9: setup[1]: request lookup is a gRPC call; setup and teardown steps");
}

}  // namespace
