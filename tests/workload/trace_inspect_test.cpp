// A trace's shape: ids normalised in paths, records per second and their dispersion (paced, Poisson-like,
// bursty), the endpoint mix, sizes within a factor of two, the status mix, and the JSON's fields.
#include "workload/trace_inspect.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include <fmt/format.h>

#include "workload/jsonl_trace.h"

namespace openloop::workload {
namespace {

TraceProfile profile_of(std::string text) {
  TraceReader reader("t.jsonl", std::make_unique<std::istringstream>(std::move(text)),
                     std::make_unique<JsonlTraceParser>(), false);
  auto p = inspect_trace(reader);
  EXPECT_TRUE(p) << p.error().message;
  return p ? std::move(*p) : TraceProfile{};
}

TEST(TraceInspect, NormalisesIdsInPaths) {
  EXPECT_EQ(normalise_path("/item/42?x=1"), "/item/{n}");
  EXPECT_EQ(normalise_path("/u/123e4567-e89b-12d3-a456-426614174000/cart"), "/u/{uuid}/cart");
  EXPECT_EQ(normalise_path("/blob/0123456789abcdef0123"), "/blob/{hex}");
  EXPECT_EQ(normalise_path("/s/AbC9xYz123QwErTy77uI"), "/s/{id}");
  EXPECT_EQ(normalise_path("/static/app.js"), "/static/app.js");
  EXPECT_EQ(normalise_path("/v2/deadbeef"), "/v2/deadbeef") << "short words stay words";
  EXPECT_EQ(normalise_path("?q"), "/");
}

TEST(TraceInspect, CountsRecordsPerSecondAndTheirDispersion) {
  // Paced: 10 records in each of 20 seconds, one every 100 ms.
  std::string paced;
  for (int i = 0; i < 200; ++i)
    paced += fmt::format("{{\"t\": {:.3f}, \"url\": \"/item/{}\", \"status\": {}}}\n", i * 0.1 + 0.05, i,
                         i % 10 == 0 ? 500 : 200);
  const auto p = profile_of(paced);
  EXPECT_EQ(p.records, 200U);
  EXPECT_NEAR(p.span_s(), 19.9, 1e-9);
  ASSERT_EQ(p.rate_series().size(), 20U);
  EXPECT_EQ(p.rate_series()[7], 10U);
  EXPECT_NEAR(p.dispersion(), 0.0, 1e-12) << "evenly paced: no variance";
  ASSERT_EQ(p.endpoints.size(), 1U);
  EXPECT_EQ(p.endpoints.begin()->first, "GET /item/{n}");
  EXPECT_EQ(p.statuses.at(500), 20U);
  EXPECT_EQ(p.statuses.at(200), 180U);
  // Poisson at 20/s: dispersion near 1. Bursts (all of a second's records in one of every five seconds): far
  // above.
  std::mt19937_64 rng(5);
  std::exponential_distribution<double> gap(20);
  std::string poisson, bursty;
  double t = 0;
  for (int i = 0; i < 4000; ++i) poisson += fmt::format("{{\"t\": {:.6f}, \"url\": \"/\"}}\n", t += gap(rng));
  for (int i = 0; i < 1000; ++i)
    bursty += fmt::format("{{\"t\": {:.6f}, \"url\": \"/\"}}\n", (i / 100) * 5 + (i % 100) * 0.001);
  EXPECT_NEAR(profile_of(poisson).dispersion(), 1.0, 0.25);
  EXPECT_GT(profile_of(bursty).dispersion(), 50.0);
}

TEST(TraceInspect, SizesAndTheJsonShape) {
  const auto p = profile_of(
      "{\"t\": 1, \"method\": \"POST\", \"url\": \"/a\", \"body\": \"12345\", \"response_bytes\": 1000}\n"
      "{\"t\": 2, \"url\": \"/b\", \"response_bytes\": 10}\n"
      "{\"t\": 2.5, \"url\": \"/b\"}\n");
  EXPECT_EQ(p.request_bodies.count, 3U);
  EXPECT_EQ(p.request_bodies.max, 5U);
  EXPECT_EQ(p.request_bodies.quantile_bound(0.5), 0U) << "two of three bodies are empty";
  EXPECT_EQ(p.request_bodies.quantile_bound(0.99), 5U) << "capped at the largest";
  EXPECT_EQ(p.response_bodies.count, 2U) << "only records that logged a size";
  EXPECT_EQ(p.response_bodies.quantile_bound(0.5), 15U) << "10 is in [8, 16)";
  const auto j = profile_json(p, "t.jsonl");
  EXPECT_EQ(j.at("schema"), "openloop.trace-inspect/1");
  EXPECT_EQ(j.at("records"), 3);
  EXPECT_EQ(j.at("rate_per_second"), nlohmann::json::array({1, 2}));
  EXPECT_EQ(j.at("endpoints").at(0).at("endpoint"), "GET /b");
  EXPECT_EQ(j.at("endpoints").at(0).at("records"), 2);
  EXPECT_TRUE(j.at("statuses").empty());
  const std::string text = render_profile_text(p, "t.jsonl");
  EXPECT_NE(text.find("records     3"), std::string::npos) << text;
  EXPECT_NE(text.find("statuses    not logged"), std::string::npos) << text;
}

}  // namespace
}  // namespace openloop::workload
