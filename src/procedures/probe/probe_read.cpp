// Rebuilding a probe's report from openloop.probe/1: settings laid out again, runs and outcomes as written.
#include "procedures/probe/probe_read.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "results/results_reader.h"

namespace openloop::procedures {
namespace {

using nlohmann::json;

// Reads values out of the document, keeping the first error (naming the source and the JSON path) so that
// every field is one line; the caller checks `error` once at the end.
struct Reader {
  std::string_view source;
  std::optional<Error> error;

  void fail(const std::string& path, std::string_view what) {
    if (!error) error = Error{ExitCode::usage, fmt::format("{}: {}: {}", source, path, what)};
  }
  // The number at obj[key]; null or absent: `fallback`.
  double num(const json& obj, const char* key, const std::string& path, double fallback = 0) {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return fallback;
    if (!it->is_number()) {
      fail(path + "/" + key, "not a number");
      return fallback;
    }
    return it->get<double>();
  }
  std::uint64_t count(const json& obj, const char* key, const std::string& path) {
    const double v = num(obj, key, path);
    if (v < 0 || !std::isfinite(v)) {
      fail(path + "/" + key, "not a count");
      return 0;
    }
    return static_cast<std::uint64_t>(v);
  }
  std::int64_t ns_of_ms(const json& obj, const char* key, const std::string& path) {
    return std::llround(num(obj, key, path) * 1e6);
  }
  std::optional<double> maybe(const json& obj, const char* key, const std::string& path) {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return std::nullopt;
    return num(obj, key, path);
  }
  bool flag(const json& obj, const char* key, const std::string& path) {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return false;
    if (!it->is_boolean()) fail(path + "/" + key, "not true or false");
    return it->is_boolean() && it->get<bool>();
  }
  std::string text(const json& obj, const char* key, const std::string& path) {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return {};
    if (!it->is_string()) {
      fail(path + "/" + key, "not a string");
      return {};
    }
    return it->get<std::string>();
  }
  std::vector<std::string> texts(const json& obj, const char* key, const std::string& path) {
    std::vector<std::string> out;
    const json& list = array(obj, key, path);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_string()) {
        fail(fmt::format("{}/{}/{}", path, key, i), "not a string");
        continue;
      }
      out.push_back(list[i].get<std::string>());
    }
    return out;
  }
  const json& array(const json& obj, const char* key, const std::string& path) {
    static const json empty = json::array();
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return empty;
    if (!it->is_array()) {
      fail(path + "/" + key, "not an array");
      return empty;
    }
    return *it;
  }
  const json& object(const json& obj, const char* key, const std::string& path) {
    static const json empty = json::object();
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_object()) {
      fail(path + "/" + key, "missing or not an object");
      return empty;
    }
    return *it;
  }
};

RecoveryCriteria criteria_from(Reader& rd, const json& j, const std::string& p) {
  RecoveryCriteria c;
  c.min_goodput_fraction = rd.num(j, "goodput_at_least_fraction_of_baseline", p, c.min_goodput_fraction);
  c.max_p99_ratio = rd.num(j, "p99_at_most_ratio_of_baseline", p, c.max_p99_ratio);
  c.p99_slack = from_seconds(rd.num(j, "p99_slack_ms", p, to_seconds(c.p99_slack) * 1e3) / 1e3);
  c.max_in_flight_ratio = rd.num(j, "in_flight_at_most_ratio_of_baseline", p, c.max_in_flight_ratio);
  c.in_flight_slack = rd.num(j, "in_flight_slack", p, c.in_flight_slack);
  c.max_amplification_ratio =
      rd.num(j, "amplification_at_most_ratio_of_baseline", p, c.max_amplification_ratio);
  return c;
}

Result<ProbePlan> plan_from(Reader& rd, const json& doc) {
  const std::string p = "/probe";
  const json& j = rd.object(doc, "probe", "");
  ProbeSettings s;
  s.base_rate = rd.num(j, "base_rps", p);
  const std::string trigger = rd.text(j, "trigger", p);
  s.trigger_for = from_seconds(rd.num(j, "trigger_for_s", p, to_seconds(s.trigger_for)));
  s.warmup = from_seconds(rd.num(j, "warmup_s", p, to_seconds(s.warmup)));
  s.baseline = from_seconds(rd.num(j, "baseline_for_s", p, to_seconds(s.baseline)));
  s.observe = from_seconds(rd.num(j, "observe_for_s", p, to_seconds(s.observe)));
  s.window = from_seconds(rd.num(j, "window_s", p, to_seconds(s.window)));
  s.descend = static_cast<unsigned>(rd.count(j, "descend", p));
  s.descend_step = rd.num(j, "descend_step", p, s.descend_step);
  s.descend_for = from_seconds(rd.num(j, "descend_for_s", p));
  s.repeats = static_cast<unsigned>(std::max<std::uint64_t>(1, rd.count(j, "repeats", p)));
  s.criteria = criteria_from(rd, j.value("criteria", json::object()), p + "/criteria");
  if (rd.error) return tl::unexpected(*rd.error);
  auto parsed = parse_trigger(trigger, "trigger");
  if (!parsed)
    return tl::unexpected(
        Error{ExitCode::usage, fmt::format("{}: {}/trigger: {}", rd.source, p, parsed.error().message)});
  s.trigger = *parsed;
  auto plan = make_probe_plan(std::move(s));
  if (!plan) {
    return tl::unexpected(
        Error{ExitCode::usage, fmt::format("{}: {}: {}", rd.source, p, plan.error().message)});
  }
  return plan;
}

Stats stats_from(Reader& rd, const json& j, const std::string& p) {
  Stats s;
  s.seconds = rd.num(j, "seconds", p);
  s.intended = rd.count(j, "intended", p);
  s.offered = rd.num(j, "offered_rps", p);
  s.throughput = rd.num(j, "throughput_rps", p);
  s.goodput = rd.num(j, "goodput_rps", p);
  s.p50_ns = rd.ns_of_ms(j, "p50_ms", p);
  s.p99_ns = rd.ns_of_ms(j, "p99_ms", p);
  s.max_ns = rd.ns_of_ms(j, "max_ms", p);
  s.mean_ns = rd.num(j, "mean_ms", p) * 1e6;
  s.in_flight = rd.num(j, "in_flight", p);
  s.timeout_fraction = rd.num(j, "timeout_fraction", p);
  s.not_ok_fraction = rd.num(j, "not_ok_fraction", p);
  s.dropped_fraction = rd.num(j, "dropped_fraction", p);
  s.sent_fraction = rd.num(j, "sent_fraction", p, 1);
  s.amplification = rd.num(j, "amplification", p, 1);
  s.lateness_p99_ns = rd.ns_of_ms(j, "send_lateness_p99_ms", p);
  return s;
}

// "baseline", "trigger", "observe" or "descend N" (Phase::name()), with its rate and span.
Phase phase_from(Reader& rd, const json& row, const std::string& p) {
  Phase phase;
  const std::string name = rd.text(row, "name", p);
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
    rd.fail(p + "/name", fmt::format("\"{}\" is not a phase (baseline, trigger, observe, descend N)", name));
  }
  phase.rate = rd.num(row, "rate_rps", p);
  phase.start = from_seconds(rd.num(row, "start_s", p));
  phase.length = from_seconds(rd.num(row, "end_s", p)) - phase.start;
  return phase;
}

std::optional<WindowJudgement> window_from(Reader& rd, const json& outcome, const char* key,
                                           const std::string& p) {
  const auto it = outcome.find(key);
  if (it == outcome.end() || it->is_null()) return std::nullopt;
  const std::string wp = p + "/" + key;
  WindowJudgement w;
  w.start_s = rd.num(*it, "start_s", wp);
  w.end_s = rd.num(*it, "end_s", wp);
  w.rate = rd.num(*it, "rate_rps", wp);
  w.met = rd.flag(*it, "met", wp);
  w.stats = stats_from(rd, it->value("stats", json::object()), wp + "/stats");
  const json& checks = rd.array(*it, "checks", wp);
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const std::string cp = fmt::format("{}/checks/{}", wp, i);
    w.checks.push_back({rd.text(checks[i], "name", cp), rd.num(checks[i], "measured", cp),
                        rd.num(checks[i], "bound", cp), rd.flag(checks[i], "met", cp),
                        rd.text(checks[i], "text", cp)});
  }
  return w;
}

ProbeVerdict verdict_from(Reader& rd, const std::string& text, const std::string& p) {
  for (ProbeVerdict v : {ProbeVerdict::recovered, ProbeVerdict::recovered_at_lower_load,
                         ProbeVerdict::metastable, ProbeVerdict::inconclusive}) {
    if (text == to_string(v)) return v;
  }
  rd.fail(p, fmt::format("\"{}\" is not a verdict (RECOVERED, RECOVERED-AT-LOWER-LOAD, METASTABLE, "
                         "INCONCLUSIVE)",
                         text));
  return ProbeVerdict::inconclusive;
}

ProbeOutcome outcome_from(Reader& rd, const json& run, const std::string& p) {
  ProbeOutcome o;
  o.verdict = verdict_from(rd, rd.text(run, "verdict", p), p + "/verdict");
  o.sentence = rd.text(run, "sentence", p);
  o.recovery_s = rd.maybe(run, "recovery_s", p);
  o.recovered_rate = rd.maybe(run, "recovered_at_rps", p);
  o.healthy_window = window_from(rd, run, "healthy_window", p);
  o.last_base_window = window_from(rd, run, "last_base_window", p);
  const json& signals = rd.array(run, "signals", p);
  for (std::size_t i = 0; i < signals.size(); ++i) {
    const std::string sp = fmt::format("{}/signals/{}", p, i);
    o.signals.push_back({rd.text(signals[i], "name", sp), rd.text(signals[i], "text", sp)});
  }
  o.notes = rd.texts(run, "notes", p);
  const json& baseline = run.value("baseline", json::object());
  o.baseline.steady = rd.flag(baseline, "steady", p + "/baseline");
  o.baseline.problems = rd.texts(baseline, "problems", p + "/baseline");
  o.baseline.stats = stats_from(rd, baseline.value("stats", json::object()), p + "/baseline/stats");
  const json& phases = rd.array(run, "phases", p);
  for (std::size_t i = 0; i < phases.size(); ++i) {
    const std::string pp = fmt::format("{}/phases/{}", p, i);
    PhaseRow row;
    row.phase = phase_from(rd, phases[i], pp);
    row.stats = stats_from(rd, phases[i].value("stats", json::object()), pp + "/stats");
    row.skipped = rd.flag(phases[i], "skipped", pp);
    if (const auto q = rd.maybe(phases[i], "lab_queue_max", pp))
      row.lab_queue_max = static_cast<std::uint64_t>(*q);
    o.phases.push_back(std::move(row));
  }
  return o;
}

void lab_from(Reader& rd, const json& run, const std::string& p, ProbeRun& out) {
  const json& samples = rd.array(run, "lab_samples", p);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const std::string sp = fmt::format("{}/lab_samples/{}", p, i);
    const json& s = samples[i];
    LabSample l;
    l.t_s = rd.num(s, "t_s", sp);
    l.frozen = rd.flag(s, "frozen", sp);
    l.queue_depth = rd.count(s, "queue_depth", sp);
    l.held = rd.count(s, "held", sp);
    l.busy_workers = rd.count(s, "busy_workers", sp);
    l.dependency_waiting = rd.count(s, "dependency_waiting", sp);
    l.completed = rd.count(s, "completed", sp);
    l.ok = rd.count(s, "ok", sp);
    l.shed = rd.count(s, "shed", sp);
    l.rejected = rd.count(s, "rejected", sp);
    l.expired = rd.count(s, "expired", sp);
    out.lab.push_back(l);
  }
  out.lab_actions = rd.texts(run, "lab_actions", p);
}

Result<std::vector<results::SloResult>> slos_from(Reader& rd, const json& run, const std::string& p) {
  std::vector<results::SloResult> out;
  const json& slos = rd.array(run, "baseline_slos", p);
  for (std::size_t i = 0; i < slos.size(); ++i) {
    const std::string sp = fmt::format("{}/baseline_slos/{}", p, i);
    auto slo = results::parse_slo(rd.text(slos[i], "slo", sp), "slo");
    if (!slo)
      return tl::unexpected(
          Error{ExitCode::usage, fmt::format("{}: {}/slo: {}", rd.source, sp, slo.error().message)});
    results::SloResult r;
    r.slo = std::move(*slo);
    r.evaluated = rd.flag(slos[i], "evaluated", sp);
    r.met = rd.flag(slos[i], "met", sp);
    r.measured_text = rd.text(slos[i], "measured", sp);
    r.threshold_text = rd.text(slos[i], "threshold", sp);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

Result<ProbeReport> probe_from_json(const json& doc, std::string_view source) {
  if (!doc.is_object() || doc.value("schema", std::string()) != k_probe_schema) {
    return tl::unexpected(
        Error{ExitCode::usage, fmt::format("{}: /schema: not \"{}\"", source, k_probe_schema)});
  }
  Reader rd{source, std::nullopt};
  ProbeReport r;
  r.plan = OPENLOOP_TRY(plan_from(rd, doc));
  r.target = rd.text(doc, "target", "");
  r.lab_control = rd.text(doc, "lab_control", "");
  r.interrupted = rd.flag(doc, "interrupted", "");
  const json& runs = rd.array(doc, "runs", "");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string p = fmt::format("/runs/{}", i);
    ProbeRun run;
    const auto results_json = runs[i].find("results");
    if (results_json == runs[i].end() || !results_json->is_object())
      return tl::unexpected(Error{ExitCode::usage, fmt::format("{}: {}/results: missing", source, p)});
    run.results =
        OPENLOOP_TRY(results::parse_results(results_json->dump(), fmt::format("{} {}/results", source, p)));
    lab_from(rd, runs[i], p, run);
    run.baseline_slos = OPENLOOP_TRY(slos_from(rd, runs[i], p));
    run.outcome = outcome_from(rd, runs[i], p);
    // The phases' intervals, from the run's intervals and checks as written (as a ramp's steps are).
    const auto samples = OPENLOOP_TRY(samples_of(run.results));
    add_phase_intervals(run.outcome.phases, samples, run.results.checks);
    r.runs.push_back(std::move(run));
  }
  if (rd.error) return tl::unexpected(*rd.error);
  if (r.runs.empty()) return tl::unexpected(Error{ExitCode::usage, fmt::format("{}: /runs: no run", source)});
  return r;
}

}  // namespace openloop::procedures
