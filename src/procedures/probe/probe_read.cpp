// Rebuilding a probe's report from openloop.probe/1: settings laid out again, runs and outcomes as written.
#include "procedures/probe/probe_read.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "results/json_reader.h"
#include "results/files/results_reader.h"

namespace openloop::procedures {
namespace {

using nlohmann::json;
using results::JsonKind;
using results::JsonNode;
using results::JsonReader;

// Fields a probe of an earlier version did not write read as their defaults (JsonReader's rule for an
// optional field: absent or null takes the default, present must be of its kind).

Result<RecoveryCriteria> criteria_from(const JsonReader& rd, const JsonNode& probe) {
  RecoveryCriteria c;
  const auto j = OPENLOOP_TRY(rd.optional_field(probe, "criteria", JsonKind::object));
  if (!j) return c;
  c.min_goodput_fraction =
      OPENLOOP_TRY(rd.number_or(*j, "goodput_at_least_fraction_of_baseline", c.min_goodput_fraction));
  c.max_p99_ratio = OPENLOOP_TRY(rd.number_or(*j, "p99_at_most_ratio_of_baseline", c.max_p99_ratio));
  c.p99_slack =
      from_seconds(OPENLOOP_TRY(rd.number_or(*j, "p99_slack_ms", to_seconds(c.p99_slack) * 1e3)) / 1e3);
  c.max_in_flight_ratio =
      OPENLOOP_TRY(rd.number_or(*j, "in_flight_at_most_ratio_of_baseline", c.max_in_flight_ratio));
  c.in_flight_slack = OPENLOOP_TRY(rd.number_or(*j, "in_flight_slack", c.in_flight_slack));
  c.max_amplification_ratio =
      OPENLOOP_TRY(rd.number_or(*j, "amplification_at_most_ratio_of_baseline", c.max_amplification_ratio));
  return c;
}

Result<unsigned> small_count_or(const JsonReader& rd, const JsonNode& obj, const char* key,
                                unsigned fallback) {
  const std::uint64_t n = OPENLOOP_TRY(rd.count_or(obj, key, fallback));
  if (n > 1'000'000) return rd.fail(obj.path + "/" + key, fmt::format("{} is too many", n));
  return static_cast<unsigned>(n);
}

Result<ProbePlan> plan_from(const JsonReader& rd, const JsonNode& doc) {
  const JsonNode j = OPENLOOP_TRY(rd.field(doc, "probe", JsonKind::object));
  ProbeSettings s;
  s.base_rate = OPENLOOP_TRY(rd.number_or(j, "base_rps", 0));
  const std::string trigger = OPENLOOP_TRY(rd.string_or(j, "trigger", ""));
  s.trigger_for = from_seconds(OPENLOOP_TRY(rd.number_or(j, "trigger_for_s", to_seconds(s.trigger_for))));
  s.warmup = from_seconds(OPENLOOP_TRY(rd.number_or(j, "warmup_s", to_seconds(s.warmup))));
  s.baseline = from_seconds(OPENLOOP_TRY(rd.number_or(j, "baseline_for_s", to_seconds(s.baseline))));
  s.observe = from_seconds(OPENLOOP_TRY(rd.number_or(j, "observe_for_s", to_seconds(s.observe))));
  s.window = from_seconds(OPENLOOP_TRY(rd.number_or(j, "window_s", to_seconds(s.window))));
  s.descend = OPENLOOP_TRY(small_count_or(rd, j, "descend", 0));
  s.descend_step = OPENLOOP_TRY(rd.number_or(j, "descend_step", s.descend_step));
  s.descend_for = from_seconds(OPENLOOP_TRY(rd.number_or(j, "descend_for_s", 0)));
  s.repeats = std::max(1U, OPENLOOP_TRY(small_count_or(rd, j, "repeats", 1)));
  s.criteria = OPENLOOP_TRY(criteria_from(rd, j));
  auto parsed = parse_trigger(trigger, "trigger");
  if (!parsed) return rd.fail(j.path + "/trigger", parsed.error().message);
  s.trigger = *parsed;
  auto plan = make_probe_plan(std::move(s));
  if (!plan) return rd.fail(j.path, plan.error().message);
  return plan;
}

Result<std::int64_t> ns_of_ms(const JsonReader& rd, const JsonNode& obj, const char* key) {
  return std::llround(OPENLOOP_TRY(rd.number_or(obj, key, 0)) * 1e6);
}

// An object that may be absent (then every field of it takes its default): the empty object in its place.
Result<JsonNode> object_or_empty(const JsonReader& rd, const JsonNode& obj, const char* key) {
  static const json empty = json::object();
  const auto j = OPENLOOP_TRY(rd.optional_field(obj, key, JsonKind::object));
  return j ? *j : JsonNode{&empty, obj.path + "/" + key};
}

Result<Stats> stats_from(const JsonReader& rd, const JsonNode& parent) {
  const JsonNode j = OPENLOOP_TRY(object_or_empty(rd, parent, "stats"));
  Stats s;
  s.seconds = OPENLOOP_TRY(rd.number_or(j, "seconds", 0));
  s.intended = OPENLOOP_TRY(rd.count_or(j, "intended", 0));
  s.offered = OPENLOOP_TRY(rd.number_or(j, "offered_rps", 0));
  s.throughput = OPENLOOP_TRY(rd.number_or(j, "throughput_rps", 0));
  s.goodput = OPENLOOP_TRY(rd.number_or(j, "goodput_rps", 0));
  s.p50_ns = OPENLOOP_TRY(ns_of_ms(rd, j, "p50_ms"));
  s.p99_ns = OPENLOOP_TRY(ns_of_ms(rd, j, "p99_ms"));
  s.max_ns = OPENLOOP_TRY(ns_of_ms(rd, j, "max_ms"));
  s.mean_ns = OPENLOOP_TRY(rd.number_or(j, "mean_ms", 0)) * 1e6;
  s.in_flight = OPENLOOP_TRY(rd.number_or(j, "in_flight", 0));
  s.timeout_fraction = OPENLOOP_TRY(rd.number_or(j, "timeout_fraction", 0));
  s.not_ok_fraction = OPENLOOP_TRY(rd.number_or(j, "not_ok_fraction", 0));
  s.dropped_fraction = OPENLOOP_TRY(rd.number_or(j, "dropped_fraction", 0));
  s.sent_fraction = OPENLOOP_TRY(rd.number_or(j, "sent_fraction", 1));
  s.amplification = OPENLOOP_TRY(rd.number_or(j, "amplification", 1));
  s.lateness_p99_ns = OPENLOOP_TRY(ns_of_ms(rd, j, "send_lateness_p99_ms"));
  return s;
}

// "baseline", "trigger", "observe" or "descend N" (Phase::name()), with its rate and span.
Result<Phase> phase_from(const JsonReader& rd, const JsonNode& row) {
  Phase phase;
  const std::string name = OPENLOOP_TRY(rd.string(row, "name"));
  unsigned step = 0;
  if (name == "baseline") {
    phase.kind = Phase::Kind::baseline;
  } else if (name == "trigger") {
    phase.kind = Phase::Kind::trigger;
  } else if (name == "observe") {
    phase.kind = Phase::Kind::observe;
  } else if (std::sscanf(name.c_str(), "descend %u", &step) == 1 && name == fmt::format("descend {}", step)) {
    phase.kind = Phase::Kind::descend;
    phase.step = step;
  } else {
    return rd.fail(row.path + "/name",
                   fmt::format("\"{}\" is not a phase (baseline, trigger, observe, descend N)", name));
  }
  phase.rate = OPENLOOP_TRY(rd.number_or(row, "rate_rps", 0));
  phase.start = from_seconds(OPENLOOP_TRY(rd.number_or(row, "start_s", 0)));
  phase.length = from_seconds(OPENLOOP_TRY(rd.number_or(row, "end_s", 0))) - phase.start;
  return phase;
}

Result<std::optional<WindowJudgement>> window_from(const JsonReader& rd, const JsonNode& outcome,
                                                   const char* key) {
  const auto it = OPENLOOP_TRY(rd.optional_field(outcome, key, JsonKind::object));
  if (!it) return std::optional<WindowJudgement>();
  WindowJudgement w;
  w.start_s = OPENLOOP_TRY(rd.number_or(*it, "start_s", 0));
  w.end_s = OPENLOOP_TRY(rd.number_or(*it, "end_s", 0));
  w.rate = OPENLOOP_TRY(rd.number_or(*it, "rate_rps", 0));
  w.met = OPENLOOP_TRY(rd.boolean_or(*it, "met", false));
  w.stats = OPENLOOP_TRY(stats_from(rd, *it));
  if (const auto checks = OPENLOOP_TRY(rd.optional_field(*it, "checks", JsonKind::array))) {
    for (std::size_t i = 0; i < checks->value->size(); ++i) {
      const JsonNode c = OPENLOOP_TRY(rd.element(*checks, i, JsonKind::object));
      w.checks.push_back(
          {OPENLOOP_TRY(rd.string_or(c, "name", "")), OPENLOOP_TRY(rd.number_or(c, "measured", 0)),
           OPENLOOP_TRY(rd.number_or(c, "bound", 0)), OPENLOOP_TRY(rd.boolean_or(c, "met", false)),
           OPENLOOP_TRY(rd.string_or(c, "text", ""))});
    }
  }
  return std::optional<WindowJudgement>(std::move(w));
}

Result<ProbeVerdict> verdict_from(const JsonReader& rd, const JsonNode& run) {
  const std::string text = OPENLOOP_TRY(rd.string(run, "verdict"));
  for (ProbeVerdict v : {ProbeVerdict::recovered, ProbeVerdict::recovered_at_lower_load,
                         ProbeVerdict::metastable, ProbeVerdict::inconclusive}) {
    if (text == to_string(v)) return v;
  }
  return rd.fail(run.path + "/verdict",
                 fmt::format("\"{}\" is not a verdict (RECOVERED, RECOVERED-AT-LOWER-LOAD, "
                             "METASTABLE, INCONCLUSIVE)",
                             text));
}

Result<ProbeOutcome> outcome_from(const JsonReader& rd, const JsonNode& run) {
  ProbeOutcome o;
  o.verdict = OPENLOOP_TRY(verdict_from(rd, run));
  o.sentence = OPENLOOP_TRY(rd.string_or(run, "sentence", ""));
  o.recovery_s = OPENLOOP_TRY(rd.optional_number(run, "recovery_s"));
  o.recovered_rate = OPENLOOP_TRY(rd.optional_number(run, "recovered_at_rps"));
  o.healthy_window = OPENLOOP_TRY(window_from(rd, run, "healthy_window"));
  o.last_base_window = OPENLOOP_TRY(window_from(rd, run, "last_base_window"));
  if (const auto signals = OPENLOOP_TRY(rd.optional_field(run, "signals", JsonKind::array))) {
    for (std::size_t i = 0; i < signals->value->size(); ++i) {
      const JsonNode s = OPENLOOP_TRY(rd.element(*signals, i, JsonKind::object));
      o.signals.push_back(
          {OPENLOOP_TRY(rd.string_or(s, "name", "")), OPENLOOP_TRY(rd.string_or(s, "text", ""))});
    }
  }
  o.notes = OPENLOOP_TRY(rd.strings_or_empty(run, "notes"));
  const JsonNode baseline = OPENLOOP_TRY(object_or_empty(rd, run, "baseline"));
  o.baseline.steady = OPENLOOP_TRY(rd.boolean_or(baseline, "steady", false));
  o.baseline.problems = OPENLOOP_TRY(rd.strings_or_empty(baseline, "problems"));
  o.baseline.stats = OPENLOOP_TRY(stats_from(rd, baseline));
  if (const auto phases = OPENLOOP_TRY(rd.optional_field(run, "phases", JsonKind::array))) {
    for (std::size_t i = 0; i < phases->value->size(); ++i) {
      const JsonNode p = OPENLOOP_TRY(rd.element(*phases, i, JsonKind::object));
      PhaseRow row;
      row.phase = OPENLOOP_TRY(phase_from(rd, p));
      row.stats = OPENLOOP_TRY(stats_from(rd, p));
      row.skipped = OPENLOOP_TRY(rd.boolean_or(p, "skipped", false));
      if (rd.given(p, "lab_queue_max")) row.lab_queue_max = OPENLOOP_TRY(rd.count(p, "lab_queue_max"));
      o.phases.push_back(std::move(row));
    }
  }
  return o;
}

Result<void> lab_from(const JsonReader& rd, const JsonNode& run, ProbeRun& out) {
  if (const auto samples = OPENLOOP_TRY(rd.optional_field(run, "lab_samples", JsonKind::array))) {
    for (std::size_t i = 0; i < samples->value->size(); ++i) {
      const JsonNode s = OPENLOOP_TRY(rd.element(*samples, i, JsonKind::object));
      LabSample l;
      l.t_s = OPENLOOP_TRY(rd.number_or(s, "t_s", 0));
      l.frozen = OPENLOOP_TRY(rd.boolean_or(s, "frozen", false));
      l.queue_depth = OPENLOOP_TRY(rd.count_or(s, "queue_depth", 0));
      l.held = OPENLOOP_TRY(rd.count_or(s, "held", 0));
      l.busy_workers = OPENLOOP_TRY(rd.count_or(s, "busy_workers", 0));
      l.dependency_waiting = OPENLOOP_TRY(rd.count_or(s, "dependency_waiting", 0));
      l.completed = OPENLOOP_TRY(rd.count_or(s, "completed", 0));
      l.ok = OPENLOOP_TRY(rd.count_or(s, "ok", 0));
      l.shed = OPENLOOP_TRY(rd.count_or(s, "shed", 0));
      l.rejected = OPENLOOP_TRY(rd.count_or(s, "rejected", 0));
      l.expired = OPENLOOP_TRY(rd.count_or(s, "expired", 0));
      out.lab.push_back(l);
    }
  }
  out.lab_actions = OPENLOOP_TRY(rd.strings_or_empty(run, "lab_actions"));
  return {};
}

Result<std::vector<results::SloResult>> slos_from(const JsonReader& rd, const JsonNode& run) {
  std::vector<results::SloResult> out;
  const auto slos = OPENLOOP_TRY(rd.optional_field(run, "baseline_slos", JsonKind::array));
  if (!slos) return out;
  for (std::size_t i = 0; i < slos->value->size(); ++i) {
    const JsonNode s = OPENLOOP_TRY(rd.element(*slos, i, JsonKind::object));
    auto slo = results::parse_slo(OPENLOOP_TRY(rd.string(s, "slo")), "slo");
    if (!slo) return rd.fail(s.path + "/slo", slo.error().message);
    results::SloResult r;
    r.slo = std::move(*slo);
    r.evaluated = OPENLOOP_TRY(rd.boolean_or(s, "evaluated", false));
    r.met = OPENLOOP_TRY(rd.boolean_or(s, "met", false));
    r.measured_text = OPENLOOP_TRY(rd.string_or(s, "measured", ""));
    r.threshold_text = OPENLOOP_TRY(rd.string_or(s, "threshold", ""));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

Result<ProbeReport> probe_from_json(const json& doc, std::string_view source) {
  const JsonReader rd(source);
  const JsonNode root = OPENLOOP_TRY(rd.root(doc, "a probe object"));
  OPENLOOP_TRY_VOID(rd.expect_schema(root, k_probe_schema));
  ProbeReport r;
  r.plan = OPENLOOP_TRY(plan_from(rd, root));
  r.target = OPENLOOP_TRY(rd.string_or(root, "target", ""));
  r.lab_control = OPENLOOP_TRY(rd.string_or(root, "lab_control", ""));
  r.interrupted = OPENLOOP_TRY(rd.boolean_or(root, "interrupted", false));
  const JsonNode runs = OPENLOOP_TRY(rd.field(root, "runs", JsonKind::array));
  for (std::size_t i = 0; i < runs.value->size(); ++i) {
    const JsonNode node = OPENLOOP_TRY(rd.element(runs, i, JsonKind::object));
    ProbeRun run;
    const JsonNode results_json = OPENLOOP_TRY(rd.field(node, "results", JsonKind::object));
    run.results = OPENLOOP_TRY(
        results::parse_results(results_json.value->dump(), fmt::format("{} {}", source, results_json.path)));
    OPENLOOP_TRY_VOID(lab_from(rd, node, run));
    run.baseline_slos = OPENLOOP_TRY(slos_from(rd, node));
    run.outcome = OPENLOOP_TRY(outcome_from(rd, node));
    // The phases' intervals, from the run's intervals and checks as written (as a ramp's steps are).
    const auto samples = OPENLOOP_TRY(samples_of(run.results));
    add_phase_intervals(run.outcome.phases, samples, run.results.checks);
    r.runs.push_back(std::move(run));
  }
  if (r.runs.empty()) return rd.fail("/runs", "no run");
  return r;
}

}  // namespace openloop::procedures
