// The results reader refuses a plan value of the wrong type (naming its path) and redacts credentials that files
// written by older versions still hold.
#include "results/files/results_reader.h"

#include <gtest/gtest.h>

#include "results/files/results_json.h"

namespace openloop::results {
namespace {

nlohmann::json document() {
  RunResults r;
  r.info.plan = {{"target", "http://127.0.0.1:8080/"},
                 {"headers", {"Authorization: Bearer s3cret", "X-Trace: visible"}},
                 {"stages", {{{"duration_s", 10.0}, {"target_rps", 100.0}}}},
                 {"retry", {{"attempts", 1}}},
                 {"think_mean_s", 0.0}};
  return to_json(r);
}

Result<RunResults> read(const nlohmann::json& j) {
  return parse_results(j.dump(), "r.json");
}

TEST(ResultsReaderPlan, ReadsAWrittenPlanBack) {
  const auto r = read(document());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->info.plan["stages"][0]["target_rps"], 100.0);
  EXPECT_EQ(r->info.target, "http://127.0.0.1:8080/");
}

TEST(ResultsReaderPlan, PlanValuesReportsReadWithATypeMustHaveIt) {
  const std::pair<const char*, nlohmann::json> cases[] = {
      {"/plan/stages/0/duration_s", nlohmann::json("ten")},
      {"/plan/stages/0/target_rps", nlohmann::json::array()},
      {"/plan/retry/attempts", nlohmann::json("three")},
      {"/plan/think_mean_s", nlohmann::json("1s")},
      {"/plan/headers/1", nlohmann::json(7)},
      {"/plan/target", nlohmann::json(1)},
  };
  for (const auto& [path, value] : cases) {
    nlohmann::json j = document();
    j[nlohmann::json::json_pointer(path)] = value;
    const auto r = read(j);
    ASSERT_FALSE(r) << path;
    EXPECT_EQ(r.error().code, ExitCode::usage) << path;
    EXPECT_NE(r.error().message.find(std::string("r.json: ") + path), std::string::npos) << r.error().message;
  }
  nlohmann::json stages_not_a_list = document();
  stages_not_a_list["plan"]["stages"] = "10s:100/s";
  EXPECT_FALSE(read(stages_not_a_list));
}

TEST(ResultsReaderPlan, CredentialsInOlderFilesAreRedactedOnReading) {
  nlohmann::json j = document();
  j["plan"]["target"] = "http://user:pw@127.0.0.1:8080/";  // as an old file might hold it
  const auto r = read(j);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->info.plan["headers"][0], "Authorization: [redacted]");
  EXPECT_EQ(r->info.plan["headers"][1], "X-Trace: visible");
  EXPECT_EQ(r->info.plan["target"], "http://[redacted]@127.0.0.1:8080/");
  EXPECT_EQ(r->info.target, "http://[redacted]@127.0.0.1:8080/");
}

}  // namespace
}  // namespace openloop::results
