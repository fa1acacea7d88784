// A scenario's `data:` in a plan file: its columns become variables every step reads, and every refusal names
// its file:line:column (the file missing, a column no step can have, names given twice over).
#include "workload/session_data_yaml.h"

#include <gtest/gtest.h>

#include <string>

#include "workload/scenario_file.h"
#include "workload_test_util.h"

using namespace openloop;
using namespace openloop::workload;

namespace {

constexpr std::string_view k_users = "user_id,password,first name\nu1,p1,Ann\nu2,p2,Bob\nu3,p3,Cy\n";

// A plan in `dir` whose scenario `shop` takes `data` (a flow mapping) and logs in with the row's columns.
std::string write_plan(const test_util::ScratchDir& dir, std::string_view data,
                       std::string_view extra_step = "", std::string_view top = "") {
  return dir.write("plan.yaml", std::string(R"(target: http://h
)") + std::string(top) + R"(requests:
  login: {method: POST, path: /login, body: '{"user": "{{user_id}}", "password": "{{password}}"}'}
  me: {path: '/users/{{user_id}}'}
  ping: GET /ping
scenarios:
  shop:
    model: sessions
    session_rate: 1/s
    duration: 1s
    data: )" + std::string(data) + R"(
    steps:
      - login
      - me
)" + std::string(extra_step));
}

std::string load_error(const std::string& path) {
  auto plan = load_plan_file(path);
  EXPECT_FALSE(plan);
  if (plan) return {};
  EXPECT_EQ(plan.error().code, ExitCode::usage);
  return plan.error().message;
}

}  // namespace

TEST(SessionDataYaml, ColumnsBecomeVariablesEveryStepReads) {
  test_util::ScratchDir dir;
  dir.write("users.csv", k_users);
  auto plan = load_plan_file(write_plan(dir, "{file: users.csv, order: unique}"));
  ASSERT_TRUE(plan) << plan.error().message;
  const auto data = find_session_data(plan->variables, "shop");
  ASSERT_TRUE(data);
  EXPECT_EQ(data->order, DataOrder::unique);
  EXPECT_EQ(data->rows(), 3u);
  EXPECT_EQ(data->cell(2, 2), "Cy");
  ASSERT_EQ(data->variables.size(), 3u);
  EXPECT_EQ(data->variables[0], *plan->variables.find("user_id"));
  EXPECT_EQ(data->variables[1], *plan->variables.find("password"));
  EXPECT_EQ(data->variables[2], std::string::npos);  // "first name" is no variable name
  const std::string d = plan->describe();
  EXPECT_NE(d.find("    data: users.csv: 3 rows of {{user_id}}, {{password}}; order unique"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("  variable user_id = a column of users.csv (each session's row)\n"), std::string::npos)
      << d;
}

TEST(SessionDataYaml, OrderIsSequentialUnlessGiven) {
  test_util::ScratchDir dir;
  dir.write("users.csv", k_users);
  auto plan = load_plan_file(write_plan(dir, "{file: users.csv}"));
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(find_session_data(plan->variables, "shop")->order, DataOrder::sequential);
}

TEST(SessionDataYaml, AMissingFileOrBadOrderIsRefusedAtItsPlace) {
  test_util::ScratchDir dir;
  dir.write("users.csv", k_users);
  std::string e = load_error(write_plan(dir, "{file: nobody.csv}"));
  EXPECT_NE(e.find("plan.yaml:11:18: scenarios.shop.data.file: "), std::string::npos) << e;
  EXPECT_NE(e.find("nobody.csv"), std::string::npos) << e;
  e = load_error(write_plan(dir, "{file: users.csv, order: shuffled}"));
  EXPECT_NE(
      e.find("plan.yaml:11:36: scenarios.shop.data.order: \"shuffled\" is not an order; use sequential"),
      std::string::npos)
      << e;
  e = load_error(write_plan(dir, "users.csv"));
  EXPECT_NE(e.find("plan.yaml:11:11: scenarios.shop.data"), std::string::npos) << e;
  e = load_error(write_plan(dir, "{order: unique}"));
  EXPECT_NE(e.find("no file; data is {file: users.csv, order: sequential|random|unique}"), std::string::npos)
      << e;
}

TEST(SessionDataYaml, AStepReadingAColumnTheFileLacksIsRefusedAtTheStep) {
  test_util::ScratchDir dir;
  dir.write("ids.csv", "user_id\nu1\n");
  // password is nobody's: the request does not compile, naming the variables there are.
  std::string e = load_error(write_plan(dir, "{file: ids.csv}"));
  EXPECT_NE(
      e.find("plan.yaml:3:45: requests.login.body: unknown variable \"password\" in {{password}}; declared "
             "variables: user_id"),
      std::string::npos)
      << e;
  // password is another scenario's column: this scenario's step is refused at its place.
  dir.write("users.csv", k_users);
  e = load_error(write_plan(dir, "{file: ids.csv}", R"(  other:
    model: sessions
    session_rate: 1/s
    duration: 1s
    data: {file: users.csv}
    steps: [me]
)"));
  EXPECT_NE(
      e.find("plan.yaml:13:9: scenarios.shop.steps[1]: request \"login\" reads {{password}}, which "
             "neither setup:, the data: file ids.csv nor an earlier step of scenario \"shop\" captures"),
      std::string::npos)
      << e;
}

TEST(SessionDataYaml, AColumnNamedAsAVariableACaptureOrASetupValueIsRefused) {
  test_util::ScratchDir dir;
  dir.write("users.csv", k_users);
  std::string e =
      load_error(write_plan(dir, "{file: users.csv}", "", "variables: {password: \"uniform(1, 9)\"}\n"));
  EXPECT_NE(e.find("scenarios.shop.data: column \"password\" of users.csv is also declared under variables:"),
            std::string::npos)
      << e;
  e = load_error(write_plan(dir, "{file: users.csv}",
                            "      - {request: me, capture: [{as: user_id, status: true}]}\n"));
  EXPECT_NE(e.find("\"user_id\" is a column of this scenario's data: file users.csv"), std::string::npos)
      << e;
  e = load_error(write_plan(dir, "{file: users.csv}", "",
                            "setup: [{request: ping, capture: [{as: password, status: true}]}]\n"));
  EXPECT_NE(e.find("column \"password\" of users.csv is a value setup: captures"), std::string::npos) << e;
}

TEST(SessionDataYaml, DataNeedsSteps) {
  test_util::ScratchDir dir;
  dir.write("users.csv", k_users);
  const auto path = dir.write("plan.yaml", R"(target: http://h
requests: {me: 'GET /users/{{user_id}}'}
scenarios:
  s: {model: closed, vus: 1, duration: 1s, request: me, data: {file: users.csv}}
)");
  const std::string e = load_error(path);
  EXPECT_NE(e.find("data rows belong to a session's steps"), std::string::npos) << e;
}
