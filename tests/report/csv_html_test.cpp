// CSV and HTML rendering: named columns, one row per interval; a self-contained page with its data and four
// charts.
#include <map>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report/csv.h"
#include "report/html/html.h"
#include "report/summary.h"
#include "results/files/results_json.h"
#include "results/files/results_reader.h"
#include "results/judging/slo.h"
#include "results/judging/timer_floor.h"
#include "results/judging/verdict.h"
#include "results/results_test_util.h"

namespace openloop::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ReportInput run_input() {
  ReportInput in;
  in.source = "r.json";
  in.results =
      test::make_run({{1'000'000, 2'000'000}, {}, {3'000'000}}, 1700000000.0, "http://x/?a=<b>", {0, 1, 0});
  return in;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (std::size_t nl; (nl = text.find('\n', begin)) != std::string::npos; begin = nl + 1) {
    out.push_back(text.substr(begin, nl - begin));
  }
  return out;
}

TEST(Csv, OneRowPerIntervalWithNamedColumns) {
  const auto rows = lines_of(render_csv(run_input()));
  ASSERT_EQ(rows.size(), 5U);  // header, three intervals, the whole period
  EXPECT_THAT(rows[0],
              ::testing::StartsWith("scope,interval,start_unix_s,start_s,length_s,intended,sent,completed,ok,"
                                    "timeouts,errors,dropped,unfinished,offered_rps,sent_rps,"));
  EXPECT_THAT(rows[0], HasSubstr(",response_time_p99_ms,"));
  EXPECT_THAT(rows[0], HasSubstr(",send_lateness_mean_ms"));
  EXPECT_THAT(rows[1],
              ::testing::StartsWith("total,0,1700000000.000,0,1,2,2,2,2,0,0,0,0,2,2,2,2,2,1.000447,"));
  EXPECT_THAT(rows[2], ::testing::StartsWith("total,1,1700000001.000,1,1,1,0,0,0,0,0,1,0,"));
  EXPECT_THAT(rows[2], HasSubstr(",0,,,,,,,"));  // no samples: empty latency cells
  EXPECT_THAT(rows[4], ::testing::StartsWith("total,all,1700000000.000,0,3,4,3,3,3,0,0,1,0,"));
  EXPECT_THAT(rows[4], HasSubstr(",3,1.000447,"));  // three samples over the run, p50 1 ms
  const auto columns = std::count(rows[0].begin(), rows[0].end(), ',');
  for (const auto& row : rows) EXPECT_EQ(std::count(row.begin(), row.end(), ','), columns) << row;
}

ReportInput scenario_input() {
  ReportInput in;
  in.source = "r.json";
  in.results = test::make_scenario_run(1700000000.0);
  return in;
}

// The cells of a CSV row (no quoted fields in these tests).
std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (std::size_t comma; (comma = row.find(',', begin)) != std::string::npos; begin = comma + 1) {
    out.push_back(row.substr(begin, comma - begin));
  }
  out.push_back(row.substr(begin));
  return out;
}

TEST(Csv, RowsPerScopeForTheRunItsRequestsAndEachScenario) {
  const auto rows = lines_of(render_csv(scenario_input()));
  const auto header = cells_of(rows[0]);
  const auto column = [&](const char* name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  std::vector<std::string> scopes;
  std::map<std::string, std::vector<std::string>> whole;  // scope → its "all" row
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const auto cells = cells_of(rows[k]);
    ASSERT_EQ(cells.size(), header.size()) << rows[k];
    if (scopes.empty() || scopes.back() != cells[0]) scopes.push_back(cells[0]);
    if (cells[1] == "all") whole[cells[0]] = cells;
  }
  EXPECT_EQ(scopes,
            (std::vector<std::string>{
                "total", "request:get_item", "request:search", "request:checkout", "scenario:browse",
                "scenario:browse/request:get_item", "scenario:browse/request:search", "scenario:shoppers",
                "scenario:shoppers/request:get_item", "scenario:shoppers/request:checkout"}));
  ASSERT_EQ(whole.size(), scopes.size());  // one whole-period row per scope
  const std::size_t intended = column("intended");
  EXPECT_EQ(whole["total"][intended], "11");
  EXPECT_EQ(whole["scenario:browse"][intended], "5");
  EXPECT_EQ(whole["scenario:shoppers"][intended], "6");
  EXPECT_EQ(whole["request:get_item"][intended], "6");  // 3 from browse, 3 from shoppers
  EXPECT_EQ(whole["scenario:shoppers/request:checkout"][intended], "3");
  // A request's latencies are kept for the whole period: on its "all" row, not on its interval rows.
  EXPECT_EQ(whole["scenario:shoppers/request:checkout"][column("response_time_count")], "3");
  EXPECT_EQ(whole["scenario:shoppers/request:checkout"][column("response_time_max_ms")], "12.001279");
  EXPECT_THAT(rows, ::testing::Contains(
                        ::testing::StartsWith("scenario:shoppers/request:checkout,0,1700000001.000,0,1,1,")));
  for (const auto& row : rows) {
    const auto cells = cells_of(row);
    if (cells[0].find("request:") != std::string::npos && cells[1] != "all") {
      EXPECT_EQ(cells[column("response_time_count")], "") << row;
    }
  }
  // Scenario rows run on the scenario's own clock: shoppers started 1 s after browse.
  EXPECT_EQ(whole["scenario:shoppers"][column("start_unix_s")], "1700000001.000");
}

TEST(Html, ScenarioSectionBesideTheCombinedTotals) {
  const std::string page = render_html(scenario_input());
  EXPECT_THAT(page, HasSubstr("<h2>By scenario</h2>"));
  EXPECT_THAT(page, HasSubstr("<tr data-scope=\"scenario:browse\" data-intended=\"5\" data-sent=\"5\""));
  EXPECT_THAT(page, HasSubstr("<tr data-scope=\"scenario:shoppers\" data-intended=\"6\""));
  EXPECT_THAT(page, HasSubstr("<tr class=\"sum\" data-scope=\"total\" data-intended=\"11\""));
  EXPECT_THAT(page, HasSubstr("<div class=\"sub\">sessions</div>"));  // each scenario's model
  EXPECT_THAT(page, HasSubstr("<h3>Scenario browse: by request</h3>"));
  EXPECT_THAT(page, HasSubstr("data-scope=\"scenario:shoppers/request:checkout\" data-intended=\"3\""));
  EXPECT_THAT(page, HasSubstr("<h2>By request</h2>"));
  EXPECT_THAT(page, HasSubstr("data-scope=\"request:get_item\" data-intended=\"6\""));
  EXPECT_THAT(page, HasSubstr("<h2>Sessions</h2>"));
  EXPECT_THAT(page, HasSubstr("data-sessions-of=\"scenario:shoppers\" data-sessions-intended=\"3\""));
  EXPECT_THAT(page, HasSubstr("MIXED models"));
  EXPECT_THAT(page, HasSubstr("Plan of the first scenario, browse"));
}

TEST(Html, SlotWaitsHaveARowBesideTheOutcomesAndOneBesideTheLatencies) {
  ReportInput in = run_input();
  EXPECT_THAT(render_html(in), Not(HasSubstr("slot wait")));
  in.results.totals.slot_waits = 2;
  in.results.slot_wait.record(40'000'000);
  in.results.slot_wait.record(40'000'000);
  const std::string page = render_html(in);
  EXPECT_THAT(page, HasSubstr("<tr><th>waited for a slot</th><td class=\"num\">2</td>"));
  EXPECT_THAT(page, HasSubstr("<tr><th>slot wait</th><td>40ms</td>"));
  EXPECT_THAT(page, HasSubstr("<b>Slot wait</b>"));
}

TEST(Html, ARunFromFlagsHasNoScenarioOrRequestSection) {
  const std::string page = render_html(run_input());
  EXPECT_THAT(page, Not(HasSubstr("By scenario")));
  EXPECT_THAT(page, Not(HasSubstr("By request")));
  EXPECT_THAT(page, Not(HasSubstr("id=\"sessions\"")));
}

TEST(Summary, TheTextOfAScenarioFileIsWhatRunPrinted) {
  const results::RunResults run = test::make_scenario_run(1700000000.0);
  ReportInput in;
  in.results = *results::parse_results(results::to_json(run).dump(), "r.json");
  const std::string text = render_summary(in);
  EXPECT_EQ(text, render_run_summary(run));
  EXPECT_THAT(text, HasSubstr("=== scenario shoppers ===\n"));
  EXPECT_THAT(text,
              HasSubstr("=== all scenarios together ===\nverdict: VALID (the generator applied the planned "
                        "load; the target's outcome is below)\nthe target: all 11 requests ok"));
  EXPECT_THAT(text, HasSubstr("requests ok; goodput 3.67/s of 3.67/s offered\nmodel: MIXED"));
  EXPECT_THAT(text, HasSubstr("  checkout "));  // the combined run's by-request table
}

TEST(Html, SelfContainedWithCspAndNoExternalReferences) {
  const std::string page = render_html(run_input());
  EXPECT_THAT(page, HasSubstr("Content-Security-Policy\" content=\"default-src 'none';"));
  EXPECT_THAT(page, Not(HasSubstr("<script src")));
  EXPECT_THAT(page, Not(HasSubstr("<link")));
  EXPECT_THAT(page, HasSubstr("var uPlot="));             // the embedded IIFE build
  EXPECT_THAT(page, HasSubstr("http://x/?a=&lt;b&gt;"));  // escaped in HTML
  for (const char* id : {"chart-latency", "chart-throughput", "chart-outcomes", "chart-spectrum"}) {
    EXPECT_THAT(page, HasSubstr(std::string("id=\"") + id + "\""));
  }
  EXPECT_THAT(page, HasSubstr("coordinated omission"));
  EXPECT_THAT(page, HasSubstr("INVALID"));  // 1 dropped of 4
}

TEST(Html, EmbeddedDataParsesAndCannotCloseItsScript) {
  ReportInput in = run_input();
  in.results.verdict.reasons.push_back("</script><script>alert(1)</script>");
  const std::string page = render_html(in);
  const std::string open = "<script type=\"application/json\" id=\"openloop-data\">";
  const auto begin = page.find(open) + open.size();
  const auto end = page.find("</script>", begin);
  const auto data = nlohmann::json::parse(page.substr(begin, end - begin));
  EXPECT_EQ(data, chart_data(in));
  EXPECT_THAT(page, Not(HasSubstr("<script>alert(1)")));
}

TEST(Html, ChartDataDescribesEveryInterval) {
  const auto data = chart_data(run_input());
  EXPECT_EQ(data["t"], nlohmann::json::parse("[0.0, 1.0, 2.0]"));
  EXPECT_TRUE(data["rt"]["p99"][1].is_null());
  EXPECT_DOUBLE_EQ(data["rt"]["max"][2].get<double>(), 3.000319);
  EXPECT_EQ(data["outcomes"]["dropped"], nlohmann::json::parse("[0, 1, 0]"));
  EXPECT_EQ(data["rate"]["offered"], nlohmann::json::parse("[2.0, 1.0, 1.0]"));
  const auto& s = data["spectrum"];
  ASSERT_EQ(s["x"].size(), s["response"].size());
  EXPECT_DOUBLE_EQ(s["x"][0].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(s["response"].back().get<double>(), 3.000319);  // the max closes the spectrum
  EXPECT_DOUBLE_EQ(s["service"].back().get<double>(), 1.500159);
}

TEST(Html, HlogInputSaysCountsAreAbsentAndDrawsTwoCharts) {
  ReportInput in = run_input();
  in.has_counts = false;
  const std::string page = render_html(in);
  EXPECT_THAT(page, HasSubstr("NO VERDICT"));
  EXPECT_THAT(page, Not(HasSubstr("id=\"chart-outcomes\"")));
  EXPECT_THAT(page, HasSubstr("id=\"chart-spectrum\""));
  EXPECT_FALSE(chart_data(in).contains("outcomes"));
}

// 1500/s for 3 s against a 1000/s lab with --timeout 300ms: 3,463 of 4,500 timed out. The generator kept its
// schedule (VALID), the target did not keep up.
results::RunResults overloaded() {
  results::RunResults r;
  r.info.model = results::Model::open;
  r.info.arrival = "constant";
  r.info.offered_rps = 1500;
  r.measured_s = 3;
  auto& c = r.totals;
  c.intended = c.sent = c.attempts = 4500;
  c.completed = c.ok = c.status_class[2] = 1037;
  c.timeouts = 3463;
  r.response_time.record(2'000'000, 1037);
  r.response_time.record(300'000'000, 3463);
  r.service_time.record(2'000'000, 1037);
  r.send_lateness.record(20'000, 4500);
  r.verdict = results::judge(r);
  r.slos = results::evaluate_slos({results::default_slo()}, r);
  return r;
}

TEST(Summary, TheTargetsOutcomeIsTheSecondHeadline) {
  const auto r = overloaded();
  ASSERT_TRUE(r.verdict.valid);
  const auto lines = lines_of(render_summary(r));
  ASSERT_GE(lines.size(), 4U);
  EXPECT_THAT(lines[0], HasSubstr("verdict: VALID (the generator applied the planned load"));
  EXPECT_EQ(lines[1],
            "the target: 77% of 4500 requests timed out or failed (timeouts 3463); goodput 346/s of 1500/s "
            "offered");
  EXPECT_THAT(lines[2], HasSubstr("SLOs: default SLO not met (no --slo given; --slo none measures without"));
  EXPECT_THAT(lines[4], HasSubstr("default SLO goodput>=99%"));
  EXPECT_THAT(lines[4], HasSubstr("23%"));
  EXPECT_THAT(lines[4], HasSubstr("FAILED"));
}

TEST(Summary, CompletedSplitsIntoOkAndBadStatus) {
  auto r = overloaded();
  r.totals.completed = 1040;
  r.totals.status_class[5] = 3;
  r.totals.timeouts = 3460;
  const std::string text = render_summary(r);
  EXPECT_THAT(text, HasSubstr("completed 1040 (ok 1037 + bad status 3)"));
  EXPECT_THAT(text, HasSubstr("(timeouts 3460, bad status 3)"));
  EXPECT_TRUE(results::judge(r).valid);
}

TEST(Summary, AHealthyRunSaysEveryRequestWasOk) {
  auto r = overloaded();
  r.totals.completed = r.totals.ok = r.totals.status_class[2] = 4500;
  r.totals.timeouts = 0;
  EXPECT_THAT(render_summary(r),
              HasSubstr("\nthe target: all 4500 requests ok; goodput 1500/s of 1500/s offered\n"));
}

TEST(Summary, TheGapBetweenResponseAndServiceTimeIsExplainedByWhatMadeIt) {
  // Timeouts: in response time at their timeout, with no service time.
  EXPECT_THAT(render_summary(overloaded()),
              HasSubstr("Response time p99 (300ms) is far above service time p99 (2ms): 3463 requests that "
                        "timed out or failed count in response time"));
  // A late generator: the gap is its send lateness, not the target's queue.
  results::RunResults r = overloaded();
  r.totals.completed = r.totals.ok = r.totals.status_class[2] = 4500;
  r.totals.timeouts = 0;
  r.response_time.reset();
  r.response_time.record(2'000'000, 4400);
  r.response_time.record(60'000'000, 100);
  r.service_time.reset();
  r.service_time.record(2'000'000, 4500);
  r.send_lateness.reset();
  r.send_lateness.record(20'000, 4400);
  r.send_lateness.record(58'000'000, 100);
  r.verdict = results::judge(r);
  ASSERT_FALSE(r.verdict.valid);
  const std::string text = render_summary(r);
  EXPECT_THAT(text, HasSubstr("requests waited in openloop before they were sent (send lateness p99 58ms): the "
                              "generator's delay, not the target's"));
  EXPECT_THAT(text, Not(HasSubstr("queued or stalled before the server answered")));
}

TEST(Summary, PollingIsCappedAtTheCpuAndNamesTheWaitsItSpunThrough) {
  auto r = overloaded();
  r.generator.cpu_seconds = 7.61;
  r.generator.spin_seconds = 8.01;  // timed by the clock while the host preempted the spinning thread
  r.generator.spin_below_us = 18.4;
  EXPECT_THAT(render_summary(r), HasSubstr("CPU 7.61s (of which 7.61s polling through waits under 18.4µs)"));
  results::TimerFloor floor;
  floor.samples = 100;
  floor.spin_lead_us = 4860;  // --spin-below auto spun through the last 4.86 ms of every wait
  results::set_timer_floor(r.info, floor);
  EXPECT_THAT(render_summary(r), HasSubstr("(of which 7.61s polling through waits under 4.86ms)"));
}

TEST(Html, TheTargetsOutcomeAndTheDefaultSloAreInTheVerdictBanner) {
  ReportInput in;
  in.source = "r.json";
  in.results = overloaded();
  const std::string page = render_html(in);
  EXPECT_THAT(page, HasSubstr("the target: 77% of 4500 requests timed out or failed (timeouts 3463); goodput "
                              "346/s of 1500/s offered"));
  EXPECT_THAT(page, HasSubstr("Service-level objectives: default SLO not met"));
  EXPECT_THAT(page, HasSubstr("default SLO goodput&gt;=99%"));
}

// A healthy open run whose service times are tiny: at the low percentiles response time is a large multiple
// of service time (17 µs vs 10 µs), a difference the generator's own send lateness explains.
results::RunResults co_run(std::int64_t tail_response_ns, std::int64_t tail_service_ns) {
  results::RunResults r;
  r.info.model = results::Model::open;
  r.measured_s = 10;
  r.totals.intended = 10'000;
  r.response_time.record(17'000, 9'800);
  r.service_time.record(10'000, 9'800);
  r.response_time.record(tail_response_ns, 200);
  r.service_time.record(tail_service_ns, 200);
  return r;
}

TEST(Html, NoCoordinatedOmissionGapWithinTheGeneratorsOwnLateness) {
  EXPECT_TRUE(co_gap(co_run(1'050'000, 1'000'000)).is_null());  // p99: 1.05 vs 1.0 ms
  EXPECT_TRUE(co_gap(co_run(900'000, 300'000)).is_null());      // ×3, but 0.6 ms apart: under the 1 ms bound
}

TEST(Html, CoordinatedOmissionGapAtTheTailPercentiles) {
  const auto gap = co_gap(co_run(500'000'000, 2'000'000));  // a stall: 500 ms vs 2 ms at p99
  ASSERT_FALSE(gap.is_null());
  EXPECT_DOUBLE_EQ(gap["percentile"].get<double>(), 99.0);
  EXPECT_NEAR(gap["ratio"].get<double>(), 250, 1);
  EXPECT_DOUBLE_EQ(gap["own_lateness_ms"].get<double>(), 1.0);
  auto closed = co_run(500'000'000, 2'000'000);
  closed.info.model = results::Model::closed;
  EXPECT_TRUE(co_gap(closed).is_null());
}

TEST(Html, TheGapBeforeSendingIsNamedForWhatItIsNotTheServersQueue) {
  const std::string page = render_html(run_input());
  EXPECT_THAT(page, HasSubstr("time requests spent inside openloop before their send"));
  EXPECT_THAT(page, HasSubstr("It is not the server's queue"));
  EXPECT_THAT(page, Not(HasSubstr("queued behind a stall or a busy server")));
  EXPECT_THAT(page, Not(HasSubstr("coordinated-omission gap")));  // the chart's label (report.js)
  EXPECT_THAT(page, HasSubstr("gap before sending"));
}

TEST(Html, AClosedRunSaysWhatItsLoopDidNotSend) {
  ReportInput in;
  in.source = "r.json";
  // 4, 1 and 1 completions in three seconds: held back by a slow server after the first.
  in.results = test::make_run({{1'000'000, 1'000'000, 1'000'000, 1'000'000}, {9'000'000}, {9'000'000}}, 1.7e9);
  in.results.info.model = results::Model::closed;
  in.results.info.users = 4;
  const std::string page = render_html(in);
  EXPECT_THAT(page, HasSubstr("A closed loop completed 6 requests during this run; users arriving independently at "
                              "the rate of its best second (4/s) would have sent 12 over the same 3 s. The 6 it "
                              "never sent"));
  // A steady closed loop hid nothing, and says so.
  in.results = test::make_run({{1'000'000, 1'000'000}, {1'000'000, 1'000'000}}, 1.7e9);
  in.results.info.model = results::Model::closed;
  EXPECT_THAT(render_html(in), HasSubstr("so it hid nothing this time"));
  // An open run's page has neither.
  in.results.info.model = results::Model::open;
  EXPECT_THAT(render_html(in), Not(HasSubstr("closed loop completed")));
}

}  // namespace
}  // namespace openloop::report
