// The routing of one parsed request, shared by the HTTP/1.1 and HTTP/2 connections.
#include "lab/request_router.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fake_host.h"

using namespace openloop;
using namespace openloop::lab;
using namespace std::chrono_literals;

namespace {
ParsedRequest get(std::string_view target) {
  ParsedRequest r;
  r.method = "GET";
  r.target = target;
  return r;
}
}  // namespace

TEST(RequestRouter, ModelRequestsCarryTheTagTheTimeAndACacheKeyOfTheTarget) {
  test::FakeHost host;
  RequestRouter router(host);
  const Routing a = router.route(get("/item?id=1"), 42);
  ASSERT_EQ(a.kind, Routing::Kind::model);
  EXPECT_EQ(a.arrival.tag, 42u);
  EXPECT_EQ(a.now, host.m_now);
  EXPECT_EQ(a.arrival.deadline, SteadyTime::max());
  EXPECT_EQ(router.route(get("/item?id=1"), 43).arrival.key, a.arrival.key);
  EXPECT_NE(router.route(get("/item?id=2"), 44).arrival.key, a.arrival.key);
  EXPECT_TRUE(host.arrivals.empty()) << "route() decides, submit() submits";
  router.submit(a);
  ASSERT_EQ(host.arrivals.size(), 1u);
  EXPECT_EQ(host.arrivals[0].tag, 42u);
  EXPECT_EQ(host.m_counters.requests, 3u);
  EXPECT_EQ(host.m_counters.control_requests, 0u);
}

TEST(RequestRouter, ControlPathsAreAnsweredAtOnceAndCounted) {
  test::FakeHost host;
  RequestRouter router(host);
  ParsedRequest post = get("/_lab/config");
  post.method = "POST";
  post.body = "{\"workers\": 2}";
  const Routing r = router.route(post, 1);
  ASSERT_EQ(r.kind, Routing::Kind::control);
  EXPECT_EQ(r.control.status, 200);
  ASSERT_EQ(host.controls.size(), 1u);
  EXPECT_EQ(host.controls[0], "POST /_lab/config {\"workers\": 2}");
  EXPECT_EQ(host.m_counters.control_requests, 1u);
  EXPECT_EQ(host.m_counters.requests, 1u);
}

TEST(RequestRouter, TheDeadlineHeaderSetsTheArrivalsDeadlineOrAnswers400) {
  test::FakeHost host;
  host.m_config.deadline_header = "X-Deadline";
  RequestRouter router(host);
  ParsedRequest r = get("/");
  r.has_deadline = true;
  r.deadline = "250ms";
  const Routing ok = router.route(r, 1);
  ASSERT_EQ(ok.kind, Routing::Kind::model);
  EXPECT_EQ(ok.arrival.deadline, host.m_now + 250ms);
  r.deadline = "soon";
  const Routing bad = router.route(r, 2);
  ASSERT_EQ(bad.kind, Routing::Kind::reply);
  EXPECT_EQ(bad.reply, Reply::bad_request);
  EXPECT_EQ(host.m_counters.bad_deadline, 1u);
}

TEST(RequestRouter, ADeadlineValueIsIgnoredWhenNoHeaderIsConfigured) {
  test::FakeHost host;
  RequestRouter router(host);
  ParsedRequest r = get("/");
  r.has_deadline = true;
  r.deadline = "soon";
  const Routing routing = router.route(r, 1);
  EXPECT_EQ(routing.kind, Routing::Kind::model);
  EXPECT_EQ(routing.arrival.deadline, SteadyTime::max());
  EXPECT_EQ(host.m_counters.bad_deadline, 0u);
}

namespace {
ParsedRequest post(std::string_view target) {
  ParsedRequest r = get(target);
  r.method = "POST";
  return r;
}
std::string token_of(const Routing& r) {
  return nlohmann::json::parse(r.control.body).at("token").get<std::string>();
}
}  // namespace

TEST(RequestRouter, LoginAnswersAFreshTokenAsJsonAndAsTheSessionCookie) {
  test::FakeHost host;
  RequestRouter router(host);
  const Routing a = router.route(post("/_lab/login"), 1);
  ASSERT_EQ(a.kind, Routing::Kind::control);
  EXPECT_EQ(a.control.status, 200);
  EXPECT_EQ(a.control.content_type, "application/json");
  const auto body = nlohmann::json::parse(a.control.body);
  EXPECT_EQ(body.at("ok"), true);
  const std::string token = token_of(a);
  EXPECT_TRUE(host.m_auth.valid_token(token));
  EXPECT_EQ(a.control.set_cookie, "lab_session=" + token + "; Path=/");
  EXPECT_NE(token_of(router.route(post("/_lab/login"), 2)), token);
  EXPECT_EQ(router.route(get("/_lab/login"), 3).control.status, 405);
  EXPECT_EQ(host.m_auth.counters().logins, 2u);
  EXPECT_TRUE(host.controls.empty()) << "the auth paths are the router's, not the control endpoint's";
  EXPECT_EQ(host.m_counters.control_requests, 3u);
}

TEST(RequestRouter, UnderAuthModelPathsNeedAnIssuedTokenByBearerOrCookie) {
  test::FakeHost host;
  RequestRouter router(host);
  EXPECT_EQ(router.route(get("/item"), 1).kind, Routing::Kind::model) << "no --auth: open";
  host.m_config.auth = true;
  const Routing refused = router.route(get("/item"), 2);
  ASSERT_EQ(refused.kind, Routing::Kind::control);
  EXPECT_EQ(refused.control.status, 401);
  EXPECT_NE(refused.control.body.find("\"error\""), std::string::npos);
  const std::string token = token_of(router.route(post("/_lab/login"), 3));
  const std::string bearer_text = "Bearer " + token;  // ParsedRequest holds views: the text must outlive it
  ParsedRequest bearer = get("/item");
  bearer.authorization = bearer_text;
  EXPECT_EQ(router.route(bearer, 4).kind, Routing::Kind::model);
  const std::string cookie_text = "x=1; lab_session=" + token;
  ParsedRequest cookie = get("/item");
  cookie.cookie = cookie_text;
  EXPECT_EQ(router.route(cookie, 5).kind, Routing::Kind::model);
  ParsedRequest wrong = get("/item");
  wrong.authorization = "Bearer lab1.0000000000000000";
  EXPECT_EQ(router.route(wrong, 6).control.status, 401);
  EXPECT_EQ(host.m_auth.counters().authorized, 2u);
  EXPECT_EQ(host.m_auth.counters().unauthorized, 2u);
  EXPECT_EQ(router.route(get("/_lab/stats"), 7).control.status, 200) << "the control plane stays open";
}

TEST(RequestRouter, OrdersAnswerNewIdsAndFindOnlyThoseIssued) {
  test::FakeHost host;
  RequestRouter router(host);
  const Routing created = router.route(post("/_lab/orders"), 1);
  ASSERT_EQ(created.control.status, 200);
  EXPECT_EQ(nlohmann::json::parse(created.control.body).at("id"), 1);
  EXPECT_EQ(nlohmann::json::parse(router.route(post("/_lab/orders"), 2).control.body).at("id"), 2);
  const Routing found = router.route(get("/_lab/orders/2"), 3);
  EXPECT_EQ(found.control.status, 200);
  EXPECT_EQ(nlohmann::json::parse(found.control.body).at("id"), 2);
  EXPECT_EQ(router.route(get("/_lab/orders/3"), 4).control.status, 404);
  EXPECT_EQ(router.route(get("/_lab/orders/0"), 5).control.status, 404);
  EXPECT_EQ(router.route(get("/_lab/orders/x1"), 6).control.status, 404);
  EXPECT_EQ(router.route(get("/_lab/orders/"), 7).control.status, 404);
  EXPECT_EQ(router.route(get("/_lab/orders/99999999999999999999999"), 8).control.status, 404);
  EXPECT_EQ(router.route(get("/_lab/orders"), 9).control.status, 405);
  EXPECT_EQ(host.m_auth.counters().orders_created, 2u);
  EXPECT_EQ(host.m_auth.counters().orders_found, 1u);
  EXPECT_EQ(host.m_auth.counters().orders_missing, 5u);
  host.m_config.auth = true;
  EXPECT_EQ(router.route(post("/_lab/orders"), 10).control.status, 401);
  EXPECT_EQ(router.route(get("/_lab/orders/1"), 11).control.status, 401);
  ParsedRequest with_token = get("/_lab/orders/1");
  const std::string authorization = "Bearer " + token_of(router.route(post("/_lab/login"), 12));
  with_token.authorization = authorization;
  EXPECT_EQ(router.route(with_token, 13).control.status, 200);
  EXPECT_EQ(host.m_auth.counters().orders_created, 2u) << "a refused order is not created";
}
