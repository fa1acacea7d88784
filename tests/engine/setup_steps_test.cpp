// A plan's setup and teardown steps against a loopback server: what they capture, the cookies one step's
// response hands the next, and each way they fail (named by step, with the exit code the run takes).
#include "engine/setup_steps.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "http_test_server.h"
#include "workload/scenario_file.h"

using namespace openloop;
using namespace std::chrono_literals;

namespace {

constexpr std::string_view k_plan = R"(target: http://127.0.0.1:PORT
requests:
  login: {method: POST, path: /login, body: '{"user": "ann"}'}
  me: {path: /me, headers: {Authorization: 'Bearer {{token}}'}}
setup:
  - {request: login, capture: [{as: token, json: $.data.token}], check: [{status: 200}]}
  - me
teardown:
  - me
scenarios:
  shop: {model: sessions, session_rate: 1/s, duration: 1s, steps: [me]}
)";

const std::string k_answer =
    "HTTP/1.1 200 OK\r\nContent-Length: 26\r\nSet-Cookie: sid=s1; Path=/\r\n\r\n{\"data\": {\"token\": "
    "\"t42\"}}";

// A plan file's first scenario aimed at `port`, its target resolved; `edit` replaces text in the plan first.
engine::RunPlan plan_at(std::uint16_t port, std::string_view from = {}, std::string_view to = {}) {
  std::string yaml(k_plan);
  yaml.replace(yaml.find("PORT"), 4, std::to_string(port));
  if (!from.empty()) yaml.replace(yaml.find(from), from.size(), to);
  auto file = workload::load_plan_text(yaml, "plan.yaml", ".");
  EXPECT_TRUE(file) << file.error().message;
  engine::RunPlan plan;
  plan.workload = std::make_shared<const workload::WorkloadPlan>(std::move(*file));
  plan.url = plan.workload->target;
  plan.url_text = plan.workload->target_text;
  plan.endpoints = {net::testing::loopback(port)};
  plan.timeout = 5s;
  return plan;
}

}  // namespace

TEST(SetupSteps, CaptureAValueForEveryRequestAndCarryTheirCookies) {
  // The server records a head after it has answered: the test waits for both (bounded) before reading them.
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::string> heads;
  engine::testing::HttpTestServer server(k_answer, [&](std::string_view head, std::uint64_t) {
    const std::lock_guard lock(m);
    heads.emplace_back(head);
    cv.notify_all();
  });
  const engine::RunPlan plan = plan_at(server.port());
  const auto values = engine::run_once_steps(plan, plan.workload->setup, "setup", {});
  ASSERT_TRUE(values) << values.error().message;
  const std::size_t token = *plan.workload->variables.find("token");
  ASSERT_EQ(values->size(), 1U);
  EXPECT_EQ(values->front(), std::make_pair(token, std::string("t42")));
  std::unique_lock lock(m);
  ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return heads.size() == 2; })) << heads.size() << " request(s) seen";
  EXPECT_EQ(heads[0].rfind("POST /login HTTP/1.1\r\n", 0), 0U) << heads[0];
  // The second step reads the first's capture and sends the cookie its response set.
  EXPECT_NE(heads[1].find("Authorization: Bearer t42\r\n"), std::string::npos) << heads[1];
  EXPECT_NE(heads[1].find("Cookie: sid=s1\r\n"), std::string::npos) << heads[1];
}

TEST(SetupSteps, TheTeardownReadsTheSetupsValues) {
  std::mutex m;
  std::condition_variable cv;
  std::string last;
  engine::testing::HttpTestServer server(k_answer, [&](std::string_view head, std::uint64_t) {
    const std::lock_guard lock(m);
    last = head;
    cv.notify_all();
  });
  const engine::RunPlan plan = plan_at(server.port());
  const std::size_t token = *plan.workload->variables.find("token");
  const auto values = engine::run_once_steps(plan, plan.workload->teardown, "teardown", {{token, "given"}});
  ASSERT_TRUE(values) << values.error().message;
  EXPECT_TRUE(values->empty());
  std::unique_lock lock(m);
  ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return !last.empty(); }));
  EXPECT_NE(last.find("Authorization: Bearer given\r\n"), std::string::npos) << last;
}

TEST(SetupSteps, AFailedCaptureNamesTheStepTheValueAndTheResponse) {
  engine::testing::HttpTestServer server(k_answer);
  const engine::RunPlan plan = plan_at(server.port(), "$.data.token", "$.data.nope");
  const auto values = engine::run_once_steps(plan, plan.workload->setup, "setup", {});
  ASSERT_FALSE(values);
  EXPECT_EQ(values.error().code, ExitCode::usage);
  EXPECT_EQ(
      values.error().message,
      "plan.yaml:6:5: setup[1]: setup step 1 (request \"login\"): capture token: nothing at $.data.nope "
      "in login's response, status 200, 26 bytes");
}

TEST(SetupSteps, AStatusOutsideTheSuccessRangeOrAFailedCheckStopsIt) {
  engine::testing::HttpTestServer missing("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
  const engine::RunPlan plan = plan_at(missing.port());
  const auto values = engine::run_once_steps(plan, plan.workload->setup, "setup", {});
  ASSERT_FALSE(values);
  EXPECT_EQ(values.error().code, ExitCode::usage);
  EXPECT_NE(
      values.error().message.find("setup step 1 (request \"login\"): status 404 is outside the request's "
                                  "success range 100-399"),
      std::string::npos)
      << values.error().message;

  engine::testing::HttpTestServer created(
      "HTTP/1.1 201 Created\r\nContent-Length: 26\r\n\r\n{\"data\": {\"token\": \"t42\"}}");
  const engine::RunPlan checked = plan_at(created.port());
  const auto failed = engine::run_once_steps(checked, checked.workload->setup, "setup", {});
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("check status 200 failed in login's response, status 201"),
            std::string::npos)
      << failed.error().message;
}

TEST(SetupSteps, AnUnreachableTargetIsARuntimeError) {
  std::uint16_t port = 0;
  {
    net::testing::Listener closed;  // a port nothing listens on once it is gone
    port = closed.port;
  }
  const engine::RunPlan plan = plan_at(port);
  const auto values = engine::run_once_steps(plan, plan.workload->setup, "setup", {});
  ASSERT_FALSE(values);
  EXPECT_EQ(values.error().code, ExitCode::runtime);
  EXPECT_NE(values.error().message.find("setup step 1 (request \"login\"): http://127.0.0.1:"),
            std::string::npos)
      << values.error().message;
  EXPECT_NE(values.error().message.find("cannot connect"), std::string::npos) << values.error().message;
}

TEST(SetupSteps, AnUnresolvedTargetIsRefusedNotDereferenced) {
  engine::RunPlan plan = plan_at(1);
  plan.endpoints.clear();
  const auto values = engine::run_once_steps(plan, plan.workload->setup, "setup", {});
  ASSERT_FALSE(values);
  EXPECT_EQ(values.error().code, ExitCode::usage);
  EXPECT_NE(values.error().message.find("was not resolved"), std::string::npos) << values.error().message;
}
