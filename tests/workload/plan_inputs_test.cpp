// Tests for what the command line adds to a plan file: ${VAR} substitution through the loader (positions in
// later YAML errors stay true) and --target (scheme, host and port replaced; base path and paths kept).
#include "workload/scenario_file.h"

#include <gtest/gtest.h>

#include "http/request.h"
#include "workload/target_override.h"

using namespace openloop;
using namespace openloop::workload;

namespace {

constexpr std::string_view k_plan =
    "target: ${TARGET:-http://127.0.0.1:8080}/api\n"
    "requests:\n"
    "  get: GET /item/${ITEM}\n"
    "scenarios:\n"
    "  s: {model: open, rate: \"${RATE:-10/s}\", duration: 1s, request: get}\n";

PlanInputs inputs(std::vector<std::pair<std::string, std::string>> defines, std::string target = "") {
  PlanInputs in;
  in.variables.defines = std::move(defines);
  in.variables.environment = false;
  in.target = std::move(target);
  return in;
}

}  // namespace

TEST(PlanInputs, VariablesFillAnyValueOfThePlan) {
  auto plan = load_plan_text(k_plan, "plan.yaml", ".", inputs({{"ITEM", "42"}, {"RATE", "25/s"}}));
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->target_text, "http://127.0.0.1:8080/api");
  EXPECT_EQ(plan->requests[0].target_text(), "/api/item/42");
  EXPECT_DOUBLE_EQ(plan->scenarios[0].profile.max_rate(), 25);
}

TEST(PlanInputs, AnUnsetVariableIsRefusedWithItsPosition) {
  auto plan = load_plan_text(k_plan, "plan.yaml", ".", inputs({}));
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().message,
            "plan.yaml:3:18: ${ITEM}: the variable ITEM is not set; set it in the environment or with -e "
            "ITEM=VALUE, or give a default: ${ITEM:-VALUE}");
}

TEST(PlanInputs, ErrorsAfterASubstitutionKeepTheirLine) {
  auto plan = load_plan_text(k_plan, "plan.yaml", ".", inputs({{"ITEM", "1"}, {"RATE", "fast"}}));
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().message.substr(0, 41), "plan.yaml:5:26: scenarios.s.rate: \"fast\" ");
}

TEST(PlanInputs, TargetReplacesSchemeHostAndPortAndKeepsThePaths) {
  auto plan = load_plan_text(k_plan, "plan.yaml", ".", inputs({{"ITEM", "1"}}, "https://10.1.2.3:8443"));
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->target_text, "https://10.1.2.3:8443/api");
  EXPECT_TRUE(plan->target.tls);
  net::Url url = *net::parse_url("https://10.1.2.3:8443/api/item/1");
  EXPECT_EQ(*plan->requests[0].constant_bytes(), *http::render_request("GET", url, {}, ""));
}

TEST(PlanInputs, TargetWithAPathIsRefused) {
  auto in = make_plan_inputs({"A=1"}, "http://h:1/other");
  ASSERT_FALSE(in);
  EXPECT_EQ(in.error().message,
            "--target 'http://h:1/other': give only scheme://host[:port], e.g. http://127.0.0.1:8080; the paths "
            "come from the plan (\"/other\" would be dropped)");
  EXPECT_FALSE(make_plan_inputs({"1A=1"}, ""));
  auto ok = make_plan_inputs({"A=1", "B=x=y"}, "http://h:1/");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->variables.lookup("B"), "x=y");
}

TEST(PlanInputs, UrlTextShowsDefaultPortsImplicitly) {
  EXPECT_EQ(url_text(*net::parse_url("http://h:80/a?b")), "http://h/a?b");
  EXPECT_EQ(url_text(*net::parse_url("http://[::1]:81/")), "http://[::1]:81");
}
