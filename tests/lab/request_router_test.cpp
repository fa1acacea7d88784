// The routing of one parsed request, shared by the HTTP/1.1 and HTTP/2 connections.
#include "lab/request_router.h"

#include <gtest/gtest.h>

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
