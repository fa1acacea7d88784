// Lab settings by name (flags and /_lab/config), responses, and the stats JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "lab/config_fields.h"
#include "lab/control_endpoint.h"
#include "net/listen_socket.h"
#include "lab/responses.h"

using namespace openloop;
using namespace openloop::lab;
using namespace std::chrono_literals;

TEST(ConfigFields, AppliesEverySettingFromText) {
  LabConfig c;
  ASSERT_TRUE(apply_setting(c, "workers", "4", "--workers"));
  ASSERT_TRUE(apply_setting(c, "service", "exp:2ms", "--service"));
  ASSERT_TRUE(apply_setting(c, "queue", "lifo", "--queue"));
  ASSERT_TRUE(apply_setting(c, "queue-limit", "100", "--queue-limit"));
  ASSERT_TRUE(apply_setting(c, "shed-at", "50", "--shed-at"));
  ASSERT_TRUE(apply_setting(c, "stall", "500ms/2s", "--stall"));
  ASSERT_TRUE(apply_setting(c, "stall-at", "10s+3s", "--stall-at"));
  ASSERT_TRUE(apply_setting(c, "stall-at", "20s+1s", "--stall-at"));
  ASSERT_TRUE(apply_setting(c, "dependency", "2ms", "--dependency"));
  ASSERT_TRUE(apply_setting(c, "error-rate", "0.01", "--error-rate"));
  ASSERT_TRUE(apply_setting(c, "cancel", "true", "--cancel"));
  ASSERT_TRUE(apply_setting(c, "deadline-header", "X-Deadline", "--deadline-header"));
  ASSERT_TRUE(apply_setting(c, "auth", "true", "--auth"));
  EXPECT_TRUE(c.auth);
  EXPECT_EQ(c.model.workers, 4u);
  EXPECT_EQ(c.model.service.mean(), 2ms);
  EXPECT_EQ(c.model.queue, QueueDiscipline::lifo);
  EXPECT_EQ(c.model.stalls.once_texts().size(), 2u);
  EXPECT_TRUE(c.model.cancel);
  EXPECT_EQ(c.deadline_header, "X-Deadline");
}

TEST(ConfigFields, ErrorsNameTheSettingTheValueAndWhatIsAccepted) {
  LabConfig c;
  auto r = apply_setting(c, "error-rate", "2", "--error-rate");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("--error-rate"), std::string::npos);
  EXPECT_NE(r.error().message.find("\"2\""), std::string::npos);
  EXPECT_NE(r.error().message.find("0 to 1"), std::string::npos);
  EXPECT_FALSE(apply_setting(c, "workers", "0", "--workers"));
  EXPECT_FALSE(apply_setting(c, "workers", "four", "--workers"));
  EXPECT_FALSE(apply_setting(c, "queue", "random", "--queue"));
  EXPECT_FALSE(apply_setting(c, "deadline-header", "X Deadline", "--deadline-header"));
  EXPECT_FALSE(apply_setting(c, "nonsense", "1", "--nonsense"));
}

TEST(ConfigJson, AppliesFieldsAllOrNothing) {
  LabConfig current;
  auto change =
      apply_config_json(current, R"({"service":"exp:2ms","workers":4,"stall-at":["1s+1s"],"cancel":true})");
  ASSERT_TRUE(change) << change.error().message;
  EXPECT_EQ(change->config.model.workers, 4u);
  EXPECT_EQ(change->config.model.service.kind(), ServiceTime::Kind::exponential);
  EXPECT_TRUE(change->config.model.cancel);
  EXPECT_EQ(change->config.model.stalls.once_texts(), std::vector<std::string>{"1s+1s"});
  auto bad = apply_config_json(current, R"({"workers":8,"service":"bogus"})");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("config field \"service\""), std::string::npos);
}

TEST(ConfigJson, RefusesUnknownStartOnlyAndNonObjectBodies) {
  LabConfig current;
  auto unknown = apply_config_json(current, R"({"wrokers":8})");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("wrokers"), std::string::npos);
  EXPECT_NE(unknown.error().message.find("workers"), std::string::npos);  // lists what is accepted
  auto start_only = apply_config_json(current, R"({"listen":"127.0.0.1:1"})");
  ASSERT_FALSE(start_only);
  EXPECT_NE(start_only.error().message.find("only be set at start"), std::string::npos);
  EXPECT_FALSE(apply_config_json(current, "[1,2]"));
  EXPECT_FALSE(apply_config_json(current, "{not json"));
}

TEST(ConfigJson, ConfigRoundTripsThroughItsJson) {
  LabConfig c;
  ASSERT_TRUE(apply_setting(c, "service", "uniform:1ms..3ms", "x"));
  ASSERT_TRUE(apply_setting(c, "stall", "500ms/2s", "x"));
  nlohmann::json j = config_to_json(c);
  for (const SettingInfo& s : settings()) {
    if (!s.runtime) j.erase(std::string(s.name));  // start-only: listen, seed, the HTTP/2 settings
  }
  auto again = apply_config_json(LabConfig{}, j.dump());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(config_to_json(again->config), config_to_json(c));
}

TEST(Responses, RenderStatusLengthAndCloseVariants) {
  ResponseCatalog r(5);
  const std::string ok(r.get(Reply::ok, false, false));
  EXPECT_EQ(ok.substr(0, 15), "HTTP/1.1 200 OK");
  EXPECT_NE(ok.find("Content-Length: 5\r\n"), std::string::npos);
  EXPECT_EQ(ok.size() - ok.find("\r\n\r\n") - 4, 5u);
  EXPECT_NE(std::string(r.get(Reply::shed, true, false)).find("Connection: close"), std::string::npos);
  EXPECT_EQ(std::string(r.get(Reply::expired, false, false)).substr(0, 12), "HTTP/1.1 504");
  const std::string head(r.get(Reply::ok, false, true));
  EXPECT_EQ(head.substr(head.size() - 4), "\r\n\r\n");
  const std::string login = render_response(200, "application/json", "{}", false, "lab_session=t; Path=/");
  EXPECT_NE(login.find("\r\nSet-Cookie: lab_session=t; Path=/\r\n\r\n{}"), std::string::npos) << login;
  EXPECT_EQ(render_response(200, "text/plain", "", false).find("Set-Cookie"), std::string::npos);
}

TEST(StatsJson, HasTheCountersAndCacheRatio) {
  ModelSnapshot s;
  s.totals.cache_hits = 3;
  s.totals.cache_misses = 1;
  s.totals.ok = 4;
  s.history.push_back(SecondStats{});
  ServerCounters server;
  server.malformed = 2;
  const auto j = nlohmann::json::parse(stats_json(s, server, LabConfig{}));
  EXPECT_DOUBLE_EQ(j["cache"]["ratio"].get<double>(), 0.75);
  EXPECT_EQ(j["completed"], 4);
  EXPECT_EQ(j["bad_requests"], 2);
  EXPECT_EQ(j["history"].size(), 1u);
  for (const char* key : {"queue_depth", "busy_workers", "shed", "expired", "errors", "config"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  AuthCounters auth;
  auth.logins = 3;
  auth.orders_missing = 1;
  const auto k = nlohmann::json::parse(stats_json(s, server, LabConfig{}, auth));
  EXPECT_EQ(k.at("auth").at("logins"), 3);
  EXPECT_EQ(k.at("auth").at("orders_missing"), 1);
  EXPECT_EQ(k.at("auth").at("unauthorized"), 0);
}

// The control endpoint (/_lab/config can freeze or slow the lab) is served on the lab's one listener, so the
// default listener must be loopback: reachable from other hosts only when --listen says so.
TEST(ConfigFields, TheDefaultListenerAndSoTheControlEndpointIsLoopback) {
  const LabConfig c;
  const auto colon = c.listen.rfind(':');
  ASSERT_NE(colon, std::string::npos) << c.listen;
  const std::string host = c.listen.substr(0, colon);
  auto socket = net::ListenSocket::open(host + ":0", "--listen");
  ASSERT_TRUE(socket) << socket.error().message;
  EXPECT_EQ(socket->name().rfind("127.", 0), 0U) << "the default listener binds " << socket->name();
}
