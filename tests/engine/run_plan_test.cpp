// engine::size_connections: how an open plan's concurrency cap becomes slots and connections per protocol.
#include <gtest/gtest.h>

#include "engine/run_plan.h"

using namespace openloop;
using namespace openloop::engine;

namespace {

RunPlan open_plan(ProtocolChoice protocol, bool tls, std::uint64_t cap) {
  RunPlan p;
  p.model = Model::open;
  p.protocol = protocol;
  p.url.tls = tls;
  p.threads = 2;
  p.max_connections = cap;
  return p;
}

// The peer's stream limit is unknown until its SETTINGS: dividing the cap by --max-streams left a server
// granting 4 streams with a tenth of the connections it needed. A slot per connection, opened as needed,
// follows it.
TEST(SizeConnections, PriorKnowledgeByDefaultKeepsAConnectionPerSlotOpenedAsNeeded) {
  RunPlan p = open_plan(ProtocolChoice::http2, false, 2766);
  size_connections(p, 0);
  EXPECT_EQ(p.max_connections, 2766U);
  EXPECT_EQ(p.max_in_flight, 0U);  // unset: the cap is the connections'
}

TEST(SizeConnections, FixedConnectionsCarryMaxStreamsSlotsEachWithinTheCap) {
  RunPlan p = open_plan(ProtocolChoice::http2, false, 2766);
  p.max_streams = 10;
  size_connections(p, 4);
  EXPECT_EQ(p.max_connections, 4U);
  EXPECT_EQ(p.max_in_flight, 40U);
  RunPlan capped = open_plan(ProtocolChoice::http2, false, 25);
  capped.max_streams = 10;
  size_connections(capped, 4);
  EXPECT_EQ(capped.max_in_flight, 25U);
}

TEST(SizeConnections, Http11KeepsOneSlotPerConnection) {
  RunPlan p = open_plan(ProtocolChoice::automatic, false, 100);  // http + auto: HTTP/1.1
  size_connections(p, 0);
  EXPECT_EQ(p.max_connections, 100U);
  EXPECT_EQ(p.max_in_flight, 0U);  // unset: one slot per connection
  RunPlan fixed = open_plan(ProtocolChoice::http1, true, 100);
  size_connections(fixed, 8);
  EXPECT_EQ(fixed.max_connections, 8U);
  EXPECT_EQ(fixed.max_in_flight, 0U);
}

TEST(SizeConnections, AutoOverTlsMaySpeakHttp2) {
  RunPlan p = open_plan(ProtocolChoice::automatic, true, 1000);
  EXPECT_TRUE(may_speak_http2(p));
  size_connections(p, 0);
  EXPECT_EQ(p.max_connections, 1000U);  // ALPN may choose HTTP/1.1: one connection per slot
  size_connections(p, 2);
  EXPECT_EQ(p.max_connections, 2U);
  EXPECT_EQ(p.max_in_flight, 200U);
  EXPECT_FALSE(may_speak_http2(open_plan(ProtocolChoice::automatic, false, 1)));
}

}  // namespace
