// Flow steps in a plan file: captures, checks and on_fail read into the plan, captured names as variables the
// later steps' requests render, and every refusal with its file:line:column.
#include "workload/flow_yaml.h"

#include <gtest/gtest.h>

#include <string>

#include "workload/scenario_file.h"

using namespace openloop;
using namespace openloop::workload;

namespace {

constexpr std::string_view k_requests = R"(target: http://h
requests:
  login: {method: POST, path: /login, body: '{"user": "u"}'}
  me: {path: /me, headers: {Authorization: 'Bearer {{token}}'}}
)";

// Requests that read no capture, for plans whose steps capture nothing valid.
constexpr std::string_view k_plain = "target: http://h\nrequests:\n  login: {method: POST, path: /login}\n";

std::string plan_with(std::string_view steps,
                      std::string_view model = "model: sessions\n    session_rate: 1/s",
                      std::string_view requests = k_requests) {
  return std::string(requests) + "scenarios:\n  shop:\n    " + std::string(model) +
         "\n    duration: 1s\n    steps:\n" + std::string(steps);
}

std::string load_error(const std::string& yaml) {
  auto plan = load_plan_text(yaml, "plan.yaml", ".");
  EXPECT_FALSE(plan) << yaml;
  if (plan) return {};
  EXPECT_EQ(plan.error().code, ExitCode::usage);
  return plan.error().message;
}

}  // namespace

TEST(FlowYaml, CapturesChecksAndOnFailAreRead) {
  const std::string yaml = plan_with(R"(      - request: login
        capture:
          - {as: token, json: $.data.token, default: none}
          - {as: id, regex: 'id=(\d+)', match: last}
          - {as: code, status: true}
          - {as: loc, header: Location}
          - {as: sid, cookie: session}
        check:
          - {status: 200-299}
          - {json: $.ok, equals: true}
          - {json: $.err, exists: false}
          - {body_contains: welcome}
          - {header: Content-Type, matches: json}
        on_fail: continue
      - me
)");
  auto plan = load_plan_text(yaml, "plan.yaml", ".");
  ASSERT_TRUE(plan) << plan.error().message;
  const Step& login = plan->scenarios[0].steps[0];
  ASSERT_EQ(login.flow.captures.size(), 5u);
  EXPECT_EQ(login.flow.captures[0].source, CaptureSource::json);
  EXPECT_EQ(login.flow.captures[0].json->text(), "$.data.token");
  EXPECT_EQ(login.flow.captures[0].fallback, "none");
  EXPECT_EQ(login.flow.captures[1].source, CaptureSource::regex);
  EXPECT_EQ(login.flow.captures[1].group, 1u);
  EXPECT_EQ(login.flow.captures[1].match, Capture::k_last);
  EXPECT_EQ(login.flow.captures[3].name, "Location");
  EXPECT_EQ(login.flow.captures[4].source, CaptureSource::cookie);
  ASSERT_EQ(login.flow.checks.size(), 5u);
  EXPECT_EQ(login.flow.checks[0].label, "status 200-299");
  EXPECT_EQ(login.flow.checks[1].label, "json $.ok equals true");
  EXPECT_EQ(login.flow.checks[2].label, "json $.err absent");
  EXPECT_EQ(login.flow.checks[3].label, "body contains \"welcome\"");
  EXPECT_EQ(login.flow.checks[4].label, "header Content-Type matches json");
  EXPECT_EQ(login.flow.on_fail, OnFail::next);
  EXPECT_EQ(login.where, "plan.yaml:11:9: scenarios.shop.steps[1]");
  EXPECT_TRUE(plan->scenarios[0].steps[1].flow.empty());
  EXPECT_EQ(plan->scenarios[0].steps[1].flow.on_fail, OnFail::stop);
  // A captured name is a variable of the plan, which the requests that read it render per request.
  const auto token = plan->variables.find("token");
  ASSERT_TRUE(token);
  EXPECT_EQ(plan->variables.generator(*token).kind(), GeneratorKind::captured);
  EXPECT_EQ(login.flow.captures[0].variable, *token);
  EXPECT_FALSE(plan->requests[1].constant());
}

TEST(FlowYaml, ACapturedValueRendersIntoTheLaterRequest) {
  auto plan =
      load_plan_text(plan_with("      - {request: login, capture: [{as: token, json: $.t}]}\n      - me\n"),
                     "plan.yaml", ".");
  ASSERT_TRUE(plan) << plan.error().message;
  RenderContext ctx(plan->variables, plan->requests.size(), 1, 0, 1);
  ctx.variables().set(*plan->variables.find("token"), "abc");
  http::RequestBuffer out;
  plan->requests[1].render(ctx, out);
  bool seen = false;
  for (const auto& h : out.parts().headers) seen |= h.value == "Bearer abc";
  EXPECT_TRUE(seen);
}

TEST(FlowYaml, ANameReadBeforeAnyStepCapturesItIsRefusedAtTheStep) {
  EXPECT_EQ(
      load_error(plan_with("      - me\n      - {request: login, capture: [{as: token, json: $.t}]}\n")),
      "plan.yaml:11:9: scenarios.shop.steps[1]: request \"me\" reads {{token}}, which neither setup: nor an "
      "earlier step of scenario \"shop\" captures; capture it first, e.g. capture: [{as: token, json: "
      "$.token}] on an earlier step");
  // Captured by another scenario only: still refused for this one.
  EXPECT_NE(
      load_error(std::string(k_requests) +
                 "scenarios:\n  a: {model: sessions, session_rate: 1/s, duration: 1s, steps: [{request: "
                 "login, capture: [{as: token, json: $.t}]}]}\n  b: {model: sessions, session_rate: 1/s, "
                 "duration: 1s, steps: [me]}\n")
          .find("nor an earlier step of scenario \"b\""),
      std::string::npos);
}

TEST(FlowYaml, AMixCannotReadACapturedName) {
  const std::string yaml =
      std::string(k_requests) +
      "scenarios:\n  a: {model: sessions, session_rate: 1/s, duration: 1s, steps: [{request: login, capture: "
      "[{as: token, json: $.t}]}]}\n  b: {model: open, rate: 1/s, duration: 1s, request: me}\n";
  EXPECT_NE(
      load_error(yaml).find("plan.yaml:7:6: scenarios.b: request \"me\" reads {{token}}, a value a flow "
                            "step captures; a mix has no earlier step"),
      std::string::npos)
      << load_error(yaml);
}

TEST(FlowYaml, BadCapturesAreRefusedWithTheirPlaceAndWhatIsAccepted) {
  auto err = [](std::string_view capture) {
    return load_error(plan_with(
        "      - request: login\n        capture:\n          - " + std::string(capture) + "\n      - login\n",
        "model: sessions\n    session_rate: 1/s", k_plain));
  };
  EXPECT_EQ(
      err("{as: id, jsn: $.id}"),
      "plan.yaml:12:22: scenarios.shop.steps[1].capture[1]: unknown key \"jsn\"; a capture accepts as, json, "
      "header, cookie, regex, group, status, body, default, match");
  EXPECT_NE(err("{as: id, json: $.a..b}")
                .find("plan.yaml:12:28: scenarios.shop.steps[1].capture[1].json: JSON "
                      "path \"$.a..b\", column 5"),
            std::string::npos)
      << err("{as: id, json: $.a..b}");
  EXPECT_NE(err("{as: id, regex: 'id=(\\d+'}").find("capture[1].regex: regex \"id=(\\d+\", column 8"),
            std::string::npos);
  EXPECT_NE(err("{as: id, regex: 'id=(\\d+)', group: 2}").find("group 2 but the regex"), std::string::npos);
  EXPECT_NE(err("{as: id, json: $.id, regex: x}").find("both json and regex"), std::string::npos);
  EXPECT_NE(err("{as: id}").find("a capture needs one of json, header, cookie, regex, status, body"),
            std::string::npos);
  EXPECT_NE(err("{json: $.id}").find("the capture names no variable"), std::string::npos);
  EXPECT_NE(err("{as: id, json: $.id, match: last}").find("match applies to regex captures only"),
            std::string::npos);
  EXPECT_NE(err("{as: id, status: yes}").find("status: takes only true"), std::string::npos);
  EXPECT_NE(err("{as: 9id, status: true}").find("\"9id\" is not a capture name"), std::string::npos);
}

TEST(FlowYaml, BadChecksAndOnFailAreRefused) {
  auto err = [](std::string_view rest) {
    return load_error(plan_with("      - request: login\n" + std::string(rest) + "      - login\n",
                                "model: sessions\n    session_rate: 1/s", k_plain));
  };
  EXPECT_NE(err("        check: [{status: 200-299, equals: 1}]\n").find("a status check takes no equals"),
            std::string::npos);
  EXPECT_NE(err("        check: [{header: X, equals: 1}]\n").find("equals applies to json checks"),
            std::string::npos);
  EXPECT_NE(err("        check: [{json: $.a, exists: maybe}]\n").find("use true or false"),
            std::string::npos);
  EXPECT_NE(err("        check: [{status: 700}]\n").find("plan.yaml:11:26"), std::string::npos);
  EXPECT_NE(err("        check: []\n").find("found an empty list; give a list"), std::string::npos);
  EXPECT_EQ(err("        check: [{status: 200}]\n        on_fail: later\n"),
            "plan.yaml:12:18: scenarios.shop.steps[1].on_fail: \"later\"; use stop (end the session, the "
            "default) or continue");
  EXPECT_NE(err("        on_fail: stop\n").find("on_fail without capture or check"), std::string::npos);
}

TEST(FlowYaml, ACapturedNameThatIsAlsoADeclaredVariableIsRefused) {
  std::string yaml = plan_with("      - {request: login, capture: [{as: token, json: $.t}]}\n      - me\n");
  yaml.insert(yaml.find("requests:"), "variables: {token: \"uniform(1, 2)\"}\n");
  EXPECT_NE(load_error(yaml).find("\"token\" is captured but is also declared under variables:"),
            std::string::npos)
      << load_error(yaml);
}

TEST(FlowYaml, ClosedAndPacingScenariosTakeFlowsToo) {
  for (std::string_view model : {"model: closed\n    vus: 2", "model: pacing\n    vus: 2\n    pacing: 1s"}) {
    auto plan = load_plan_text(plan_with("      - {request: login, capture: [{as: token, json: $.t}], check: "
                                         "[{status: 200}]}\n      - me\n",
                                         model),
                               "plan.yaml", ".");
    ASSERT_TRUE(plan) << plan.error().message;
    EXPECT_EQ(plan->scenarios[0].steps[0].flow.captures.size(), 1u);
  }
}

TEST(FlowYaml, SetupCapturesAreReadOnlyConstantsEveryRequestMayRead) {
  const std::string yaml = std::string(k_requests) + R"(setup:
  - {request: login, capture: [{as: token, json: $.token}], check: [{status: 200}]}
teardown:
  - me
scenarios:
  shop: {model: sessions, session_rate: 1/s, duration: 1s, steps: [me]}
  browse: {model: open, rate: 1/s, duration: 1s, request: me}
)";
  auto plan = load_plan_text(yaml, "plan.yaml", ".");
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->setup.size(), 1U);
  ASSERT_EQ(plan->teardown.size(), 1U);
  EXPECT_EQ(plan->setup[0].flow.captures.at(0).as, "token");
  EXPECT_EQ(plan->setup[0].where, "plan.yaml:6:5: setup[1]");
  EXPECT_NE(plan->describe().find("setup, once before the load (a failure stops the run; its values are "
                                  "read-only to every request): login (captures token)"),
            std::string::npos)
      << plan->describe();
  EXPECT_NE(plan->describe().find("teardown, once after the load (also after an interrupted one): me"),
            std::string::npos);
}

TEST(FlowYaml, SetupAndTeardownStepsAreRefusedWhenTheyCannotRun) {
  const std::string once =
      std::string(k_requests) + "setup:\n  - {request: login, capture: [{as: token, json: $.t}]}\n";
  const std::string scenario =
      "scenarios:\n  shop: {model: sessions, session_rate: 1/s, duration: 1s, steps: [me]}\n";
  // A setup step that reads what no earlier setup step captured.
  EXPECT_EQ(load_error(std::string(k_requests) +
                       "setup: [me, {request: login, capture: [{as: token, json: $.t}]}]\n" + scenario),
            "plan.yaml:5:9: setup[1]: request \"me\" reads {{token}}, which no earlier setup step captures; "
            "capture "
            "it first, e.g. capture: [{as: token, json: $.token}] on an earlier step");
  // A session may not capture what the setup captured (it is every request's).
  EXPECT_NE(load_error(once + "scenarios:\n  shop: {model: sessions, session_rate: 1/s, duration: 1s, steps: "
                              "[{request: login, capture: [{as: token, json: $.t}]}]}\n")
                .find("\"token\" is captured by setup:, whose values every request reads and none changes"),
            std::string::npos);
  // Nor may the teardown; and a teardown reads no session's capture.
  EXPECT_NE(load_error(once + "teardown: [{request: login, capture: [{as: token, json: $.t}]}]\n" + scenario)
                .find("is captured by setup:"),
            std::string::npos);
  EXPECT_NE(
      load_error(std::string(k_requests) +
                 "teardown: [me]\nscenarios:\n  shop: {model: sessions, "
                 "session_rate: 1/s, duration: 1s, steps: [{request: login, capture: [{as: token, json: "
                 "$.t}]}, me]}\n")
          .find("teardown[1]: request \"me\" reads {{token}}, which neither setup: nor an earlier teardown "
                "step captures"),
      std::string::npos);
  // No think between them, and a list of steps.
  EXPECT_NE(load_error(once + "teardown: [{request: login, think: 1s}]\n" + scenario)
                .find("think does not apply to teardown steps"),
            std::string::npos);
  EXPECT_NE(
      load_error(std::string(k_plain) + "setup: login\nscenarios:\n  shop: {model: sessions, session_rate: "
                                        "1/s, duration: 1s, steps: [login]}\n")
          .find("plan.yaml:4:8: setup: found a value; steps are a list"),
      std::string::npos);
}
