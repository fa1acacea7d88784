// A plan fitted to a trace: it loads as a scenario file, its mix is the trace's top endpoints by count, its
// keys are zipf variables, its rate is the trace's (scaled), a ramp becomes stages, and it refuses a trace
// too short to fit.
#include "workload/trace_fit.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include <fmt/format.h>

#include "workload/jsonl_trace.h"
#include "workload/scenario_file.h"
#include "workload/zipf.h"

namespace openloop::workload {
namespace {

TraceFitData data_of(std::string text, const std::vector<std::string>& params = {}) {
  TraceReader reader("t.jsonl", std::make_unique<std::istringstream>(std::move(text)),
                     std::make_unique<JsonlTraceParser>(), false);
  auto d = collect_fit_data(reader, params);
  EXPECT_TRUE(d) << d.error().message;
  return d ? std::move(*d) : TraceFitData{};
}

// 30 s of Poisson arrivals at `rate` (or ramping from rate/5 to rate): 70 % GET /item/<zipf(300, 1.1)>, 20 %
// GET /search?q=<zipf(50, 0.8)>, 8 % POST /cart with 120-byte bodies, 2 % GET /health.
std::string trace_text(double rate, bool ramp) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(0, 1);
  ZipfDistribution items(300, 1.1), queries(50, 0.8);
  Rng zrng(4);
  std::string out;
  double t = 0;
  while (true) {
    const double r = ramp ? rate * (0.2 + 0.8 * t / 30) : rate;
    t += std::exponential_distribution<double>(r)(rng);
    if (t > 30) break;
    const double x = u(rng);
    if (x < 0.7) {
      out += fmt::format("{{\"t\": {:.6f}, \"url\": \"/item/{}\"}}\n", t, items.sample(zrng));
    } else if (x < 0.9) {
      out += fmt::format("{{\"t\": {:.6f}, \"url\": \"/search?q={}&page=2\"}}\n", t, queries.sample(zrng));
    } else if (x < 0.98) {
      out += fmt::format("{{\"t\": {:.6f}, \"method\": \"POST\", \"url\": \"/cart\", \"body\": \"{}\"}}\n", t,
                         std::string(120, 'b'));
    } else {
      out += fmt::format("{{\"t\": {:.6f}, \"url\": \"/health\"}}\n", t);
    }
  }
  return out;
}

WorkloadPlan load(const FittedPlan& plan) {
  auto loaded = load_plan_text(plan.yaml, "fitted.yaml", ".");
  EXPECT_TRUE(loaded) << (loaded ? "" : loaded.error().message) << "\n" << plan.yaml;
  return loaded ? std::move(*loaded) : WorkloadPlan{};
}

TEST(TraceFit, ConstantTraceGivesAValidPlanWithItsMixAndKeys) {
  const TraceFitData data = data_of(trace_text(400, false), {"q"});
  FitOptions options;
  options.source = "t.jsonl";
  options.top = 3;
  const auto plan = fit_plan(data, options);
  ASSERT_TRUE(plan) << plan.error().message;
  load(*plan);
  const std::string& y = plan->yaml;
  EXPECT_NE(y.find("arrival: poisson"), std::string::npos) << y;
  EXPECT_EQ(y.find("stages:"), std::string::npos) << "a constant rate: " << y;
  const double rate = static_cast<double>(data.profile.records) / data.profile.span_s();
  EXPECT_NE(y.find(fmt::format("rate: {:.3f}/s", rate)), std::string::npos) << y;
  EXPECT_NE(y.find("path: \"/item/{{item_key}}\""), std::string::npos) << y;
  EXPECT_NE(y.find("path: \"/search?q={{q_key}}\""), std::string::npos) << y;
  EXPECT_EQ(y.find("health"), std::string::npos) << "the fourth endpoint is dropped: " << y;
  EXPECT_NE(y.find(fmt::format("body: \"{}\"", std::string(120, 'x'))), std::string::npos) << y;
  // The item keys' exponent, read back from the variable line.
  const std::size_t at = y.find("item_key: zipf(");
  ASSERT_NE(at, std::string::npos) << y;
  const std::size_t comma = y.find(", ", at);
  const double s = std::stod(y.substr(comma + 2));
  EXPECT_NEAR(s, 1.1, 0.1) << "about 8,400 draws over 300 keys";
  const auto mix = plan->summary[2];
  EXPECT_NE(mix.find("the top 3 of 4 endpoints"), std::string::npos) << mix;
}

TEST(TraceFit, RampGivesStagesAndRateScaleMultiplies) {
  const TraceFitData data = data_of(trace_text(300, true));
  FitOptions options;
  options.source = "t.jsonl";
  options.rate_scale = 2;
  const auto plan = fit_plan(data, options);
  ASSERT_TRUE(plan) << plan.error().message;
  const WorkloadPlan loaded = load(*plan);
  EXPECT_NE(plan->yaml.find("stages:"), std::string::npos) << plan->yaml;
  // Twice the trace's records over its span, within 5 % (the stages' linear segments around the means).
  const double want = 2.0 * static_cast<double>(data.profile.records);
  ASSERT_EQ(loaded.scenarios.size(), 1U);
  const double planned = loaded.scenarios[0].profile.total_expected();
  EXPECT_NEAR(planned, want, 0.05 * want);
}

TEST(TraceFit, KeyPopularityPerPlace) {
  std::string text = trace_text(400, false);
  text += "{\"t\": 31, \"url\": \"/user/7/orders\"}\n{\"t\": 32, \"url\": \"/user/7/orders\"}\n";
  const TraceFitData data = data_of(text, {"q"});
  const nlohmann::json keys = keys_json(data);
  ASSERT_EQ(keys.size(), 3U) << keys.dump(1);
  EXPECT_EQ(keys[0]["endpoint"], "GET /item/{n}");
  EXPECT_EQ(keys[0]["place"], "segment 2");
  EXPECT_NEAR(keys[0]["zipf"]["s"].get<double>(), 1.1, 0.1);
  EXPECT_LE(keys[0]["zipf"]["n"].get<std::uint64_t>(), 300U);
  EXPECT_EQ(keys[1]["endpoint"], "GET /search");
  EXPECT_EQ(keys[1]["place"], "parameter q");
  EXPECT_NEAR(keys[1]["zipf"]["s"].get<double>(), 0.8, 0.15);
  EXPECT_EQ(keys[2]["endpoint"], "GET /user/{n}/orders");
  EXPECT_EQ(keys[2]["distinct_keys"], 1U);
  EXPECT_TRUE(keys[2]["zipf"].is_null()) << "one key: nothing to fit";
  const std::string text_out = render_keys_text(data);
  EXPECT_NE(text_out.find("GET /item/{n} segment 2:"), std::string::npos) << text_out;
}

TEST(TraceFit, SparseTraceKeepsItsTinyRate) {
  // Three records over 250,006.2 s: 1.19997e-5/s, written with six significant digits (not rounded to 0, which a
  // plan refuses).
  const TraceFitData data = data_of(
      "{\"t\": -5.5, \"url\": \"/x/1\"}\n{\"t\": 100000, \"url\": \"/x/2\"}\n{\"t\": 250000.7, \"url\": "
      "\"/x/1\"}\n");
  const auto plan = fit_plan(data, FitOptions{});
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_NE(plan->yaml.find("rate: 0.0000119997/s"), std::string::npos) << plan->yaml;
  load(*plan);
}

TEST(TraceFit, RefusesATraceTooShortToFit) {
  const TraceFitData data = data_of("{\"t\": 1, \"url\": \"/\"}\n");
  const auto plan = fit_plan(data, FitOptions{});
  ASSERT_FALSE(plan);
  EXPECT_NE(plan.error().message.find("at least two records"), std::string::npos) << plan.error().message;
}

}  // namespace
}  // namespace openloop::workload
