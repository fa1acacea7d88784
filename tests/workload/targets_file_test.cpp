// Tests for targets files (Vegeta's format): parsing every form, the plan they become (one named request per
// target, weights, one host), every error with its file:line, and bounded reading of standard input.
#include "workload/targets_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>

#include "http/request.h"
#include "workload_test_util.h"

using namespace openloop;
using namespace openloop::workload;
using namespace std::chrono_literals;

namespace {

std::vector<Target> parsed(std::string_view text, const std::filesystem::path& dir = ".") {
  auto targets = parse_targets(text, "targets.txt", dir);
  EXPECT_TRUE(targets) << (targets ? "" : targets.error().message);
  return targets ? std::move(*targets) : std::vector<Target>{};
}

std::string parse_error(std::string_view text) {
  auto targets = parse_targets(text, "targets.txt", ".");
  EXPECT_FALSE(targets) << text;
  if (targets) return {};
  EXPECT_EQ(targets.error().code, ExitCode::usage);
  return targets.error().message;
}

std::string plan_error(std::string_view text, const TargetsOptions& options = {}) {
  auto plan = plan_from_targets(parsed(text), "targets.txt", options, ".");
  EXPECT_FALSE(plan) << text;
  return plan ? std::string() : plan.error().message;
}

}  // namespace

TEST(TargetsFile, ReadsVegetaTargetsWithHeadersBodiesCommentsAndBlankLines) {
  test_util::ScratchDir dir;
  dir.write("thing.json", "{\"name\": \"dragon\"}");
  const auto targets = parsed(
      "# Vegeta's example\n"
      "GET http://goku:9090/path/to/dragon?item=ball\n"
      "X-Account-ID: 8675309\n"
      "\n"
      "DELETE http://goku:9090/path/to/remove\n"
      "Confirmation-Token: 90215\n"
      "Authorization: Token DEADBEEF\n"
      "\n"
      "POST http://goku:9090/things\n"
      "@thing.json\n"
      "GET http://goku:9090/no-blank-line-before-me\n",
      dir.path());
  ASSERT_EQ(targets.size(), 4U);
  EXPECT_EQ(targets[0].method, "GET");
  EXPECT_EQ(targets[0].url, "http://goku:9090/path/to/dragon?item=ball");
  EXPECT_EQ(targets[0].line, 2U);
  ASSERT_EQ(targets[0].headers.size(), 1U);
  EXPECT_EQ(targets[0].headers[0].name, "X-Account-ID");
  EXPECT_EQ(targets[0].headers[0].value, "8675309");
  EXPECT_EQ(targets[1].headers.size(), 2U);
  EXPECT_EQ(targets[2].body, "{\"name\": \"dragon\"}");
  EXPECT_EQ(targets[3].line, 11U);
  EXPECT_FALSE(weighted(targets));
}

TEST(TargetsFile, WeightsFollowTheUrl) {
  const auto targets = parsed("GET http://h/a weight=3\nGET http://h/b\nGET http://h/c weight=0.5\n");
  EXPECT_EQ(targets[0].weight, 3);
  EXPECT_EQ(targets[1].weight, 0);
  EXPECT_EQ(targets[2].weight, 0.5);
  EXPECT_TRUE(weighted(targets));
}

TEST(TargetsFile, EveryTargetBecomesANamedRequestRenderedAsWritten) {
  test_util::ScratchDir dir;
  dir.write("b.json", "{\"b\": 1}");
  const auto targets = parsed(
      "GET http://127.0.0.1:8080/a?x=1\nX-A: 1\n\nPOST http://127.0.0.1:8080/b\n@b.json\n\nGET "
      "http://127.0.0.1:8080/a?x=1\n",
      dir.path());
  TargetsOptions options;
  options.headers = {{"Authorization", "Bearer t"}, {"X-A", "from -H"}};
  auto plan = plan_from_targets(targets, "targets.txt", options, dir.path());
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->requests.size(), 3U);
  EXPECT_EQ(plan->requests[0].name(), "GET /a?x=1");
  EXPECT_EQ(plan->requests[1].name(), "POST /b");
  EXPECT_EQ(plan->requests[2].name(), "GET /a?x=1 (line 7)");
  EXPECT_EQ(plan->target_text, "http://127.0.0.1:8080");
  net::Url url = plan->target;
  url.target = "/a?x=1";
  // The target's own header wins over -H's of the same name; -H's others follow.
  EXPECT_EQ(*plan->requests[0].constant_bytes(),
            *http::render_request("GET", url, {{"X-A", "1"}, {"Authorization", "Bearer t"}}, ""));
  url.target = "/b";
  EXPECT_EQ(*plan->requests[1].constant_bytes(),
            *http::render_request("POST", url, {{"Authorization", "Bearer t"}, {"X-A", "from -H"}}, "{\"b\": 1}"));
  const RequestMix& mix = plan->scenarios.at(0).mix;
  ASSERT_EQ(mix.entries().size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(mix.share(i), 1.0 / 3);
}

TEST(TargetsFile, TargetReplacesEveryHostAndKeepsThePaths) {
  const auto targets = parsed("GET http://prod.example:80/a\nGET https://prod.example/b\n");
  TargetsOptions options;
  options.target = *net::parse_url("http://127.0.0.1:9000");
  auto plan = plan_from_targets(targets, "targets.txt", options, ".");
  ASSERT_TRUE(plan) << plan.error().message;
  net::Url url = *options.target;
  url.target = "/b";
  EXPECT_EQ(*plan->requests[1].constant_bytes(), *http::render_request("GET", url, {}, ""));
}

TEST(TargetsFile, TargetsOfDifferentHostsAreRefusedWithoutTarget) {
  EXPECT_EQ(plan_error("GET http://a:1/x\n\nGET http://b:1/y\n"),
            "targets.txt:3: http://b:1/y goes to http://b:1, but the first target to http://a:1; a run sends to "
            "one host: give every target the same scheme://host:port, or --target URL to send them all to one");
}

TEST(TargetsFile, TemplatesWorkInUrlsAndTheirErrorsNameTheLine) {
  auto plan = plan_from_targets(parsed("GET http://h/item/{{uniform(1, 9)}}\n"), "targets.txt", {}, ".");
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_TRUE(plan->requests[0].has_variables());
  EXPECT_EQ(plan_error("GET http://h/\n\nGET http://h/item/{{sku}}\n").substr(0, 60),
            "targets.txt:3: URL: unknown variable \"sku\" in {{sku}}; decla");
  EXPECT_EQ(plan_error("GET http://h{{uniform(1, 2)}}/\n").substr(0, 40), "targets.txt:1: URL 'http://h{{uniform(1,");
}

TEST(TargetsFile, BadLinesNameFileLineAndWhatIsAccepted) {
  EXPECT_EQ(parse_error("X-Early: 1\nGET http://h/\n"),
            "targets.txt:1: \"X-Early: 1\" does not begin a target; a target begins with METHOD URL, e.g. GET "
            "http://127.0.0.1:8080/item/1; a targets file has METHOD URL [weight=N] lines, each followed by "
            "Name: value header lines and an optional @body-file line, targets separated by blank lines "
            "(docs/scenarios.md)");
  EXPECT_EQ(parse_error("GET http://h/\nnot a header\n").substr(0, 102),
            "targets.txt:2: \"not a header\" is not a header line (Name: value), a body line (@file) or a target "
            "line");
  EXPECT_EQ(parse_error("GET http://h/ weight=0\n"),
            "targets.txt:1: \"weight=0\" after the URL; a target line is METHOD URL or METHOD URL weight=N (N a "
            "number above 0)");
  EXPECT_EQ(parse_error("GET http://h/ weight=2 extra\n"),
            "targets.txt:1: \"extra\" after the URL; a target line is METHOD URL [weight=N]");
  EXPECT_EQ(parse_error("GET http://h/\n@missing-body.json\n").substr(0, 34), "targets.txt:2: @missing-body.json:");
  EXPECT_EQ(parse_error("# only a comment\n\n"),
            "targets.txt: no targets; a targets file has METHOD URL [weight=N] lines, each followed by Name: "
            "value header lines and an optional @body-file line, targets separated by blank lines "
            "(docs/scenarios.md)");
  EXPECT_EQ(parse_error("get http://h/\n").substr(0, 45), "targets.txt:1: \"get http://h/\" does not begin");
}

TEST(TargetsFile, AtMostAHundredTargets) {
  std::string text;
  for (std::size_t i = 0; i <= k_max_targets; ++i) text += "GET http://h/" + std::to_string(i) + "\n";
  EXPECT_EQ(parse_error(text).substr(0, 41), "targets.txt:101: more than 100 targets; e");
}

TEST(TargetsInput, ReadsAPipeToItsEnd) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_EQ(write(fds[1], "GET http://h/\n", 14), 14);
  close(fds[1]);
  auto text = read_bounded(fds[0], "stdin", 1 << 20, 5s);
  close(fds[0]);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, "GET http://h/\n");
}

TEST(TargetsInput, ASilentOpenPipeEndsWithAnErrorInsteadOfAHang) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  auto text = read_bounded(fds[0], "--targets - (standard input)", 1 << 20, 20ms);
  close(fds[0]);
  close(fds[1]);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message,
            "--targets - (standard input): nothing arrived for 20ms and the input is still open; pipe the targets "
            "in and close it, e.g. openloop run --targets - --rate 100/s < targets.txt");
}

TEST(TargetsInput, MoreThanTheBoundIsRefused) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_EQ(write(fds[1], "0123456789", 10), 10);
  close(fds[1]);
  auto text = read_bounded(fds[0], "stdin", 4, 5s);
  close(fds[0]);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message, "stdin: more than 4 bytes; a targets input is at most that");
}
