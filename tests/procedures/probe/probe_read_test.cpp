// Reading a probe's document back (openloop report p.json): the text and HTML rendered from the file are the
// probe's own; a broken file is refused naming the JSON path.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/units.h"
#include "procedures/probe/probe_read.h"
#include "procedures/probe/probe_report.h"
#include "procedures/probe/probe_verdict.h"
#include "procedures/ramp/ramp_test_util.h"
#include "results/files/results_json.h"
#include "results/files/results_reader.h"

namespace openloop::procedures {
namespace {

using namespace std::chrono_literals;

// A probe of 100/s with a 3× spike: 10 s baseline, 5 s trigger (overloaded), 20 s observe (healthy again),
// classified as the probe does, with a lab sample, a lab call and a baseline SLO.
ProbeReport recovered_probe() {
  ProbeSettings s;
  s.base_rate = 100;
  s.trigger = *parse_trigger("load:300/s");
  s.warmup = 0s;
  s.baseline = 10s;
  s.trigger_for = 5s;
  s.observe = 20s;
  s.window = 5s;
  ProbeReport r;
  r.plan = *make_probe_plan(s);
  r.target = "http://127.0.0.1:1/";
  r.lab_control = "http://127.0.0.1:1/_lab/config";
  std::vector<ramp_test::IntervalSpec> specs;
  for (int i = 0; i < 35; ++i) {
    ramp_test::IntervalSpec spec;
    spec.start_s = i;
    const bool spike = i >= 10 && i < 15;
    spec.ok = spike ? 120 : 100;
    spec.timeouts = spike ? 180 : 0;
    spec.rt_ns = spike ? 800'000'000 : 2'000'000;
    specs.push_back(spec);
  }
  ProbeRun run;
  run.results = ramp_test::run_of(specs);
  // As a worker writes them: each attempt's time (one attempt per request here) beside the other histograms.
  for (std::size_t k = 0; k < run.results.intervals.size(); ++k) {
    auto& in = run.results.intervals.resident(k);
    in.attempt_time_hist = in.service_time_hist;
    run.results.totals.add(in.counters);  // the summary's counts are the intervals' sum
  }
  run.lab.push_back(LabSample{12.0, false, 40, 1, 4, 0, 900, 880, 3, 2, 1});
  run.lab_actions.push_back("POST http://127.0.0.1:1/_lab/config {\"dependency\":\"5ms\"}");
  results::SloResult slo;
  slo.slo = *results::parse_slo("p99<=50ms");
  slo.evaluated = true;
  slo.met = true;
  slo.measured_text = "2ms";
  slo.threshold_text = "50ms";
  run.baseline_slos.push_back(slo);
  RunFacts facts;
  facts.timeout_s = 1;
  facts.lab = run.lab;
  run.outcome = classify(r.plan, *samples_of(run.results), facts);
  add_phase_intervals(run.outcome.phases, *samples_of(run.results), run.results.checks);  // as judge_probe_run
  // As a results file holds them: the synthetic run through the results reader (what a real run's results
  // already are), so only the probe's own reading is under test.
  run.results = *results::parse_results(results::to_json(run.results).dump(), "synthetic");
  r.runs.push_back(std::move(run));
  return r;
}

TEST(ProbeRead, TextAndHtmlFromTheFileAreTheProbes) {
  const ProbeReport probe = recovered_probe();
  ASSERT_EQ(probe.runs.front().outcome.verdict, ProbeVerdict::recovered)
      << probe.runs.front().outcome.sentence;
  // Through text, as the file is written and read.
  const nlohmann::json doc = nlohmann::json::parse(probe_json(probe).dump(1));
  auto read = probe_from_json(doc, "p.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(render_probe_text(*read), render_probe_text(probe));
  EXPECT_EQ(render_probe_html(*read), render_probe_html(probe));
  EXPECT_EQ(probe_json(*read).dump(), probe_json(probe).dump());
  EXPECT_EQ(probe_exit_code(*read), probe_exit_code(probe));
}

TEST(ProbeHtml, EachPhasesP99CarriesItsInterval) {
  const ProbeReport probe = recovered_probe();
  const std::string html = render_probe_html(probe);
  std::size_t with_interval = 0;
  for (const PhaseRow& row : probe.runs.front().outcome.phases) {
    const stats::QuantileEstimate& q = row.latency[2];
    if (row.skipped || q.count == 0 || !q.low || !q.high) continue;
    ++with_interval;
    const std::string cell = fmt::format("{} <span class=\"ci\">({}–{})</span>", format_duration(Nanos(q.value)),
                                         format_duration(Nanos(*q.low)), format_duration(Nanos(*q.high)));
    EXPECT_NE(html.find(cell), std::string::npos) << row.phase.name() << ": " << cell;
  }
  EXPECT_GE(with_interval, 2U);  // baseline and observe at least
}

TEST(ProbeRead, RepeatsKeepEveryRunAndTheOverallSentence) {
  ProbeReport probe = recovered_probe();
  probe.runs.push_back(probe.runs.front());
  probe.runs.back().outcome.verdict = ProbeVerdict::metastable;
  probe.runs.back().outcome.sentence = "METASTABLE: still overloaded";
  auto read = probe_from_json(probe_json(probe), "p.json");
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->runs.size(), 2U);
  EXPECT_EQ(overall_sentence(*read), overall_sentence(probe));
  EXPECT_EQ(render_probe_text(*read), render_probe_text(probe));
}

std::string refusal(const nlohmann::json& doc) {
  auto read = probe_from_json(doc, "p.json");
  if (read) return "accepted";
  EXPECT_EQ(read.error().code, ExitCode::usage);
  return read.error().message;
}

TEST(ProbeRead, BrokenFilesAreRefusedNamingThePath) {
  const nlohmann::json good = probe_json(recovered_probe());
  nlohmann::json doc = good;
  doc["runs"][0]["verdict"] = "FINE";
  EXPECT_EQ(
      refusal(doc),
      "p.json: /runs/0/verdict: \"FINE\" is not a verdict (RECOVERED, RECOVERED-AT-LOWER-LOAD, METASTABLE, "
      "INCONCLUSIVE)");
  doc = good;
  doc["runs"][0]["phases"][1]["stats"]["p99_ms"] = "slow";
  EXPECT_EQ(refusal(doc), "p.json: /runs/0/phases/1/stats/p99_ms: expected a number, found string");
  doc = good;
  doc["runs"][0]["phases"][0]["name"] = "spike";
  EXPECT_EQ(
      refusal(doc),
      "p.json: /runs/0/phases/0/name: \"spike\" is not a phase (baseline, trigger, observe, descend N)");
  doc = good;
  doc["probe"]["trigger"] = "earthquake";
  EXPECT_NE(refusal(doc).find("p.json: /probe/trigger: "), std::string::npos) << refusal(doc);
  doc = good;
  doc["runs"] = nlohmann::json::array();
  EXPECT_EQ(refusal(doc), "p.json: /runs: no run");
  doc = good;
  doc["runs"][0].erase("results");
  EXPECT_EQ(refusal(doc), "p.json: /runs/0/results: missing (expected an object)");
  doc = good;
  doc["schema"] = "openloop.ramp/1";
  EXPECT_EQ(refusal(doc), "p.json: /schema: \"openloop.ramp/1\" is not \"openloop.probe/1\"");
  // Counts are non-negative integers (results::JsonReader): a fraction or a negative number is refused.
  doc = good;
  doc["runs"][0]["lab_samples"][0]["queue_depth"] = 2.5;
  EXPECT_EQ(refusal(doc),
            "p.json: /runs/0/lab_samples/0/queue_depth: expected a non-negative integer, found 2.5");
  doc = good;
  doc["probe"]["repeats"] = -1;
  EXPECT_EQ(refusal(doc), "p.json: /probe/repeats: expected a non-negative integer, found -1");
  doc = good;
  doc["runs"][0]["lab_samples"][0]["queue_depth"] = 40.0;  // the same count as 40
  EXPECT_EQ(refusal(doc), "accepted");
}

}  // namespace
}  // namespace openloop::procedures
