// A worker's flows: captures into each user's slots and back into the variables a later step renders, checks,
// defaults, match numbers, values refused for control characters, counts by step and on_fail, data rows.
#include "engine/flow_runner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "workload/scenario_file.h"

using namespace openloop;
using namespace openloop::engine;

namespace {

// A plan whose scenario's first step carries `flow` (YAML lines at the step's indentation), then `me`.
workload::WorkloadPlan plan_with(std::string_view flow) {
  const std::string yaml = std::string(R"(target: http://h
requests:
  login: {method: POST, path: /login}
  me: {path: /me, headers: {Authorization: 'Bearer {{token}}'}}
scenarios:
  s:
    model: sessions
    session_rate: 1/s
    duration: 1s
    steps:
      - request: login
)") + std::string(flow) + "      - me\n";
  auto plan = workload::load_plan_text(yaml, "plan.yaml", ".");
  EXPECT_TRUE(plan) << plan.error().message;
  return std::move(*plan);
}

// A response as the parser would feed it into a sink of `capture`'s shape.
http::ResponseSink response(const ResponseCapture& capture, int status,
                            std::vector<std::pair<std::string, std::string>> headers, std::string_view body) {
  http::ResponseSink sink = capture.make_sink();
  sink.clear();
  sink.set_status(status);
  for (const auto& [name, value] : headers) {
    sink.header_name(name);
    sink.header_name_done();
    sink.header_value(value);
  }
  sink.body(body);
  return sink;
}

struct Flow {
  explicit Flow(std::string_view yaml, std::size_t users = 2)
      : plan(plan_with(yaml)),
        capture(*flow_response_capture(plan.scenarios[0])),
        runner(plan.scenarios[0], plan.variables, capture, users, plan.target),
        render(plan.variables, plan.requests.size(), 1, 0, 1) {}
  std::string token(std::uint32_t user) {
    runner.before_step(user, render.variables());
    return std::string(render.variables().value(*plan.variables.find("token")));
  }
  workload::WorkloadPlan plan;
  ResponseCapture capture;
  FlowRunner runner;
  workload::RenderContext render;
  results::FlowCounters counts;
};

}  // namespace

TEST(FlowRunner, AJsonCaptureGoesToItsUserAndIntoTheNextRequest) {
  Flow f("        capture: [{as: token, json: $.data.token}]\n");
  EXPECT_EQ(f.capture.body_cap, k_flow_body_cap);
  const auto r0 =
      f.runner.after_response(0, 0, response(f.capture, 200, {}, R"({"data": {"token": "t-0"}})"), f.counts);
  const auto r1 =
      f.runner.after_response(1, 0, response(f.capture, 200, {}, R"({"data": {"token": "t-1"}})"), f.counts);
  EXPECT_EQ(r0.captures_failed + r1.captures_failed, 0u);
  EXPECT_FALSE(r0.stop);
  EXPECT_EQ(f.token(0), "t-0");
  EXPECT_EQ(f.token(1), "t-1");
  http::RequestBuffer out;
  f.runner.before_step(1, f.render.variables());
  f.plan.requests[1].render(f.render, out);
  bool sent = false;
  for (const auto& h : out.parts().headers) sent |= h.value == "Bearer t-1";
  EXPECT_TRUE(sent);
  f.runner.begin(1);  // a new session in the slot forgets the last one's values
  EXPECT_EQ(f.token(1), "");
  EXPECT_EQ(f.token(0), "t-0");
}

TEST(FlowRunner, AFailedCaptureIsCountedByStepAndStopsTheSession) {
  Flow f("        capture: [{as: token, json: $.data.token}]\n");
  const auto r = f.runner.after_response(0, 0, response(f.capture, 200, {}, R"({"token": "x"})"), f.counts);
  EXPECT_EQ(r.captures_failed, 1u);
  EXPECT_TRUE(r.stop);
  EXPECT_EQ(f.counts.captures_failed, 1u);
  EXPECT_EQ(f.counts.steps[0].captures_failed, 1u);
  FlowRunner::count_stopped(0, f.counts);
  EXPECT_EQ(f.counts.stopped, 1u);
  EXPECT_EQ(f.counts.steps[0].stopped, 1u);
  EXPECT_EQ(f.counts.steps[1].stopped, 0u);
}

TEST(FlowRunner, ADefaultHoldsAndContinueDoesNotStop) {
  Flow with_default("        capture: [{as: token, json: $.none, default: anon}]\n");
  auto r = with_default.runner.after_response(0, 0, response(with_default.capture, 200, {}, "{}"),
                                              with_default.counts);
  EXPECT_EQ(r.captures_failed, 0u);
  EXPECT_EQ(with_default.token(0), "anon");
  Flow carry_on("        capture: [{as: token, json: $.none}]\n        on_fail: continue\n");
  r = carry_on.runner.after_response(0, 0, response(carry_on.capture, 200, {}, "{}"), carry_on.counts);
  EXPECT_EQ(r.captures_failed, 1u);
  EXPECT_FALSE(r.stop);
}

TEST(FlowRunner, HeaderCookieStatusAndRegexMatchNumbers) {
  Flow f(R"(        capture:
          - {as: token, header: x-token}
          - {as: sid, cookie: sid}
          - {as: code, status: true}
          - {as: first, regex: 'id=(\d+)'}
          - {as: second, regex: 'id=(\d+)', match: 2}
          - {as: last, regex: 'id=(\d+)', match: last}
          - {as: tenth, regex: 'id=(\d+)', match: 10, default: none}
)");
  const auto sink =
      response(f.capture, 201, {{"X-Token", "h-1"}, {"Set-Cookie", "sid=abc; Path=/"}}, "id=1 id=22 id=333");
  const auto r = f.runner.after_response(0, 0, sink, f.counts);
  EXPECT_EQ(r.captures_failed, 0u);
  f.runner.before_step(0, f.render.variables());
  auto value = [&](std::string_view name) {
    return std::string(f.render.variables().value(*f.plan.variables.find(name)));
  };
  EXPECT_EQ(value("token"), "h-1");
  EXPECT_EQ(value("sid"), "abc");
  EXPECT_EQ(value("code"), "201");
  EXPECT_EQ(value("first"), "1");
  EXPECT_EQ(value("second"), "22");
  EXPECT_EQ(value("last"), "333");
  EXPECT_EQ(value("tenth"), "none");
}

TEST(FlowRunner, AValueWithControlCharactersFailsTheCapture) {
  Flow f("        capture: [{as: token, json: $.t}]\n");
  const auto r =
      f.runner.after_response(0, 0, response(f.capture, 200, {}, R"({"t": "a\r\nX-Evil: 1"})"), f.counts);
  EXPECT_EQ(r.captures_failed, 1u);
  EXPECT_EQ(f.token(0), "");
}

TEST(FlowRunner, ChecksPassAndFailOneByOne) {
  Flow f(R"(        capture: [{as: token, status: true}]
        check:
          - {status: 200-299}
          - {json: $.ok, equals: true}
          - {json: $.err, exists: false}
          - {json: $.name, matches: '^a'}
          - {body_contains: welcome}
          - {header: Content-Type, matches: json}
)");
  auto r = f.runner.after_response(0, 0,
                                   response(f.capture, 200, {{"Content-Type", "application/json"}},
                                            R"({"ok": true, "name": "ann", "w": "welcome"})"),
                                   f.counts);
  EXPECT_EQ(r.checks_failed, 0u);
  r = f.runner.after_response(
      0, 0,
      response(f.capture, 500, {{"Content-Type", "text/html"}}, R"({"ok": false, "err": 1, "name": "bob"})"),
      f.counts);
  EXPECT_EQ(r.checks_failed, 6u);
  EXPECT_TRUE(r.stop);
  EXPECT_EQ(f.counts.checks_failed, 6u);
  EXPECT_EQ(f.counts.steps[0].checks_failed, 6u);
}

TEST(FlowRunner, OnlyWhatTheStepsReadIsKept) {
  auto plan = plan_with("        capture: [{as: token, header: Location}]\n        check: [{status: 200}]\n");
  const auto capture = flow_response_capture(plan.scenarios[0]);
  ASSERT_TRUE(capture);
  EXPECT_EQ(capture->headers, (std::vector<std::string>{"location", "set-cookie"}));  // the cookie jar's too
  EXPECT_EQ(capture->body_cap, 0u);  // no JSON, regex or body capture, no body check
  const auto plain = [](std::string_view cookies) {
    auto p = workload::load_plan_text(
        "target: http://h\nrequests: {r: GET /}\nscenarios: {s: {model: sessions, session_rate: 1/s, "
        "duration: 1s, steps: [r, r]" + std::string(cookies) + "}}\n",
        "plan.yaml", ".");
    EXPECT_TRUE(p) << p.error().message;
    return std::move(*p);
  };
  const auto jar = flow_response_capture(plain("").scenarios[0]);
  ASSERT_TRUE(jar) << "plain steps keep Set-Cookie for the cookie jar";
  EXPECT_EQ(jar->headers, std::vector<std::string>{"set-cookie"});
  EXPECT_EQ(jar->body_cap, 0u);
  EXPECT_FALSE(flow_response_capture(plain(", cookies: off").scenarios[0])) << "nothing to keep";
}

TEST(FlowRunner, EachUserHasACookieJarClearedWhenItsSessionBegins) {
  Flow f("        capture: [{as: token, json: $.token}]\n");
  EXPECT_EQ(f.runner.cookie_header(0, "/me"), "");
  f.runner.take_cookies(0, response(f.capture, 200, {{"Set-Cookie", "sid=a0; Path=/"}}, ""), "/login");
  const auto two =
      response(f.capture, 200, {{"Set-Cookie", "sid=b1"}, {"set-cookie", "lang=en; Path=/"}}, "");
  f.runner.take_cookies(1, two, "/auth/login");
  EXPECT_EQ(f.runner.cookie_header(0, "/me"), "sid=a0");
  EXPECT_EQ(f.runner.cookie_header(1, "/me"), "lang=en") << "sid's default path is /auth";
  EXPECT_EQ(f.runner.cookie_header(1, "/auth/me"), "sid=b1; lang=en");
  f.runner.begin(0);
  EXPECT_EQ(f.runner.cookie_header(0, "/me"), "") << "a new session starts with an empty jar";
  EXPECT_EQ(f.runner.cookie_header(1, "/me"), "lang=en");
  // A cookie for another site, or with a control character, is not kept.
  f.runner.take_cookies(0, response(f.capture, 200, {{"Set-Cookie", "x=1; Domain=other.example"}}, ""), "/");
  f.runner.take_cookies(0, response(f.capture, 200, {{"Set-Cookie", std::string("y=a\x01b")}}, ""), "/");
  EXPECT_EQ(f.runner.cookie_header(0, "/"), "");
}

TEST(FlowRunner, CookiesOffKeepsNoJar) {
  auto plan = workload::load_plan_text(R"(target: http://h
requests:
  login: {method: POST, path: /login}
scenarios:
  s:
    {model: sessions, session_rate: 1/s, duration: 1s, cookies: off, steps: [{request: login, check: [{status: 200}]}]}
)",
                                       "plan.yaml", ".");
  ASSERT_TRUE(plan) << plan.error().message;
  const auto capture = flow_response_capture(plan->scenarios[0]);
  ASSERT_TRUE(capture);
  EXPECT_TRUE(capture->headers.empty());
  FlowRunner runner(plan->scenarios[0], plan->variables, *capture, 1, plan->target);
  runner.take_cookies(0, response(*capture, 200, {{"Set-Cookie", "sid=1"}}, ""), "/login");
  EXPECT_EQ(runner.cookie_header(0, "/login"), "");
}

TEST(FlowRunner, FailuresAreDescribedByWhatWasMissingAndTheResponse) {
  Flow f(R"(        capture:
          - {as: token, json: $.data.token}
          - {as: loc, header: Location}
          - {as: sid, cookie: session}
          - {as: id, regex: 'id=(\d+)', match: 2}
        check:
          - {status: 200}
          - {json: $.ok, equals: true}
)");
  const auto sink = response(f.capture, 201, {{"Set-Cookie", "other=1"}}, R"({"ok": false, "x": "id=1"})");
  EXPECT_EQ(
      f.runner.describe_failures(0, 0, sink, "login"),
      "capture token: nothing at $.data.token in login's response, status 201, 26 bytes; "
      "capture loc: no header Location in login's response, status 201, 26 bytes; "
      "capture sid: no Set-Cookie sets session in login's response, status 201, 26 bytes; "
      "capture id: no match 2 of 'id=(\\d+)' (or a control character in it) in login's response, status "
      "201, 26 bytes; "
      "check status 200 failed in login's response, status 201, 26 bytes; "
      "check json $.ok equals true failed in login's response, status 201, 26 bytes");
  // A value found but refused (a control character) says so; a response that passes says nothing.
  const auto passing = response(f.capture, 200, {{"Location", "/a\x01"}, {"Set-Cookie", "session=s"}},
                                R"({"ok": true, "data": {"token": "t"}, "x": "id=1 id=2"})");
  EXPECT_EQ(f.runner.describe_failures(0, 0, passing, "login"),
            "capture loc: the value has a control character in login's response, status 200, 54 bytes");
}

TEST(FlowRunner, EachSessionTakesADataRowItsStepsReadUntilTheRowsAreSpent) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("openloop-flow-runner-data-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "users.csv") << "user_id\nu0\nu1\nu2\n";
  auto plan = workload::load_plan_text(R"(target: http://h
requests:
  me: {path: '/users/{{user_id}}'}
scenarios:
  s: {model: sessions, session_rate: 1/s, duration: 1s, cookies: off, steps: [me, me],
      data: {file: users.csv, order: unique}}
)",
                                       "plan.yaml", dir);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(plan) << plan.error().message;
  const workload::ScenarioPlan& s = plan->scenarios[0];
  auto data = workload::find_session_data(plan->variables, s.name);
  ASSERT_TRUE(data);
  EXPECT_FALSE(flow_response_capture(s)) << "nothing to keep of the responses";
  const auto capture = flow_response_capture(s, true);
  ASSERT_TRUE(capture) << "but a flow runner to deal the rows";
  // One worker of two: rows 0 and 2 are its own, row 1 the other's.
  FlowRunner runner(s, plan->variables, *capture, 2, plan->target,
                    workload::RowDealer(*data, workload::data_rng(s.seed, 0, 0), 0, 2));
  workload::RenderContext render(plan->variables, plan->requests.size(), 1, 0, 1);
  const auto user_id = [&](std::uint32_t user) {
    runner.before_step(user, render.variables());
    return std::string(render.variables().value(*plan->variables.find("user_id")));
  };
  ASSERT_TRUE(runner.begin(0));
  ASSERT_TRUE(runner.begin(1));
  EXPECT_EQ(user_id(0), "u0");
  EXPECT_EQ(user_id(1), "u2");
  EXPECT_EQ(user_id(0), "u0") << "the same row for the whole session";
  EXPECT_FALSE(runner.begin(0)) << "this worker's rows are spent";
  EXPECT_EQ(user_id(1), "u2");
}
