// A comparison of two runs: the plan refusal, gates on counts an .hlog lacks, the finding line, the JSON.
#include "compare/comparison.h"

#include <gtest/gtest.h>

#include "compare/compare_report.h"

namespace openloop::compare {
namespace {

report::ReportInput run(const std::string& source, double scale, std::uint64_t ok, std::uint64_t errors,
                        const std::string& plan_rate = "1000/s") {
  report::ReportInput in;
  in.source = source;
  results::RunResults& r = in.results;
  r.info.plan = {{"rate", plan_rate}, {"duration", "10s"}};
  r.measured_s = 10;
  r.totals.intended = r.totals.sent = 10000;
  r.totals.completed = r.totals.ok = ok;
  r.totals.error(results::ErrorKind::connect) = errors;
  r.totals.timeouts = 10000 - ok - errors;
  for (int i = 1; i <= 10000; ++i)
    r.response_time.record(static_cast<std::int64_t>((1'000'000 + i * 100) * scale));
  return in;
}

TEST(CompareRuns, SameRunsShowNoSignificantDifference) {
  auto c = compare_runs(run("a.json", 1, 10000, 0), run("b.json", 1, 10000, 0), {});
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->significant);
  EXPECT_EQ(c->finding.rfind("no significant difference at 95 % confidence", 0), 0u) << c->finding;
  EXPECT_TRUE(c->plan_checked);
  EXPECT_EQ(c->percentiles.size(), 4u);
  EXPECT_EQ(c->rates.size(), 3u);
  EXPECT_EQ(c->fractions.size(), 3u);
  EXPECT_FALSE(c->failed());
}

TEST(CompareRuns, TheFindingNamesTheChangeItsIntervalAndWhatDidNotMove) {
  CompareSettings s;
  s.percentiles = {50};
  s.gates = {*parse_fail_on("p50>+10%"), *parse_fail_on("goodput<-1%"), *parse_fail_on("errors>+0.5%")};
  auto c = compare_runs(run("a.json", 1, 10000, 0), run("b.json", 1.2, 9000, 1000), s);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->significant);
  EXPECT_EQ(c->finding.rfind("p50 +20.0 % [+", 0), 0u) << c->finding;
  EXPECT_NE(c->finding.find("], significant"), std::string::npos) << c->finding;
  EXPECT_NE(c->finding.find("goodput -10.0 %"), std::string::npos) << c->finding;
  EXPECT_NE(c->finding.find("errors +10.00 pt"), std::string::npos) << c->finding;
  ASSERT_EQ(c->gates.size(), 3u);
  for (const auto& g : c->gates) EXPECT_TRUE(g.failed) << g.message;
  EXPECT_TRUE(c->failed());
  const nlohmann::json j = to_json(*c);
  EXPECT_EQ(j["schema"], "openloop.compare/1");
  EXPECT_EQ(j["response_time"][0]["judgement"], "increased");
  EXPECT_TRUE(j["failed"].get<bool>());
  EXPECT_EQ(j["fail_on"].size(), 3u);
  const report::JunitReport junit = junit_for_compare(*c);
  ASSERT_EQ(junit.cases.size(), 3u);
  EXPECT_EQ(junit.cases[0].name, "fail-on p50>+10%");
  EXPECT_EQ(junit.cases[0].status, report::JunitCase::Status::failed);
  const std::string html = render_html(*c);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(CompareRuns, RefusesDifferentPlansNamingBothUnlessAllowed) {
  auto refused = compare_runs(run("a.json", 1, 10000, 0), run("b.json", 1, 10000, 0, "2000/s"), {});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ExitCode::usage);
  EXPECT_NE(refused.error().message.find("a.json (plan "), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("b.json (plan "), std::string::npos);
  EXPECT_NE(refused.error().message.find("--allow-different-plans"), std::string::npos);
  CompareSettings allow;
  allow.allow_different_plans = true;
  auto allowed = compare_runs(run("a.json", 1, 10000, 0), run("b.json", 1, 10000, 0, "2000/s"), allow);
  ASSERT_TRUE(allowed);
  EXPECT_FALSE(allowed->same_plan);
  ASSERT_FALSE(allowed->notes.empty());
}

// One plan over TLS with --protocol auto may speak HTTP/1.1 to one server and HTTP/2 to another: compare says so.
TEST(CompareRuns, SaysWhenTheRunsSpokeDifferentProtocols) {
  report::ReportInput a = run("a.json", 1, 10000, 0), b = run("b.json", 1, 10000, 0);
  a.results.generator.connections_h1 = 8;
  b.results.generator.connections_h2 = 1;
  auto c = compare_runs(a, b, {});
  ASSERT_TRUE(c) << c.error().message;
  const auto said = [](const Comparison& x) {
    for (const std::string& n : x.notes)
      if (n.find("the runs spoke different protocols (h1 in the baseline, h2 in the candidate)") == 0) return true;
    return false;
  };
  EXPECT_TRUE(said(*c));
  b.results.generator = a.results.generator;  // both h1: nothing to say
  c = compare_runs(a, b, {});
  ASSERT_TRUE(c);
  EXPECT_FALSE(said(*c));
}

// A closed loop's response times leave out the wait of requests it did not send: against an open run's they
// measure something else. No numbers, the reason, and every gate inconclusive.
TEST(CompareRuns, AClosedRunAgainstAnOpenRunIsNotComparable) {
  report::ReportInput closed = run("closed.json", 1, 10000, 0, "closed");
  closed.results.info.model = results::Model::closed;
  closed.results.info.users = 8;
  report::ReportInput open_run = run("open.json", 50, 10000, 0);
  open_run.results.info.offered_rps = 1000;
  CompareSettings s;
  s.gates = {*parse_fail_on("p99>+10%")};
  auto c = compare_runs(closed, open_run, s);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->comparable);
  EXPECT_TRUE(c->percentiles.empty());
  EXPECT_TRUE(c->rates.empty());
  EXPECT_EQ(c->finding.rfind("not comparable: closed.json is a closed-model run (8 users", 0), 0u) << c->finding;
  EXPECT_NE(c->finding.find("open.json an open-model run"), std::string::npos) << c->finding;
  ASSERT_EQ(c->gates.size(), 1u);
  EXPECT_EQ(c->gates[0].outcome, Outcome::inconclusive);
  EXPECT_TRUE(c->failed());
  s.inconclusive = InconclusivePolicy::pass;
  EXPECT_FALSE(compare_runs(closed, open_run, s)->failed());
  const std::string text = render_text(*c);
  EXPECT_EQ(text.find("p99 "), std::string::npos) << text;
  EXPECT_EQ(to_json(*c)["comparable"], false);
}

TEST(CompareRuns, AGateOnCountsRefusesAnHlog) {
  report::ReportInput hlog = run("b.hlog", 1, 10000, 0);
  hlog.has_counts = false;
  hlog.results.info.plan = nullptr;
  CompareSettings s;
  s.gates = {*parse_fail_on("goodput<-1%")};
  auto c = compare_runs(run("a.json", 1, 10000, 0), hlog, s);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("b.hlog"), std::string::npos) << c.error().message;
  s.gates = {*parse_fail_on("p99>+10%")};
  auto latencies = compare_runs(run("a.json", 1, 10000, 0), hlog, s);
  ASSERT_TRUE(latencies) << latencies.error().message;
  EXPECT_FALSE(latencies->plan_checked);
  EXPECT_TRUE(latencies->rates.empty());
  EXPECT_FALSE(latencies->failed());
}

}  // namespace
}  // namespace openloop::compare
