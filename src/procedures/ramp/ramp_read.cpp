// Rebuilding a ramp from openloop.ramp/1: settings and runs as written, steps judged again, findings derived.
#include "procedures/ramp/ramp_read.h"

#include <fmt/format.h>

#include "procedures/ramp/ramp_repeats.h"
#include "procedures/ramp/ramp_report.h"
#include "results/json_reader.h"
#include "results/files/results_reader.h"

namespace openloop::procedures {
namespace {

using nlohmann::json;
using results::JsonKind;
using results::JsonNode;
using results::JsonReader;

// Every field is optional with the default a ramp without that flag had, except from_rps
// (results::JsonReader's rules: an absent or null optional field takes its default, a present one must be of
// its kind).
Result<RampSettings> settings_from(const JsonReader& rd, const JsonNode& doc) {
  const JsonNode j = OPENLOOP_TRY(rd.field(doc, "settings", JsonKind::object));
  RampSettings s;
  s.from_rps = OPENLOOP_TRY(rd.number(j, "from_rps"));
  s.to_rps = OPENLOOP_TRY(rd.number_or(j, "to_rps", 0));
  s.step_mult = OPENLOOP_TRY(rd.number_or(j, "step_mult", 0));
  s.step_add = OPENLOOP_TRY(rd.number_or(j, "step_add_rps", 0));
  s.warmup = from_seconds(OPENLOOP_TRY(rd.number_or(j, "warmup_s", 0)));
  s.hold = from_seconds(OPENLOOP_TRY(rd.number_or(j, "hold_s", 0)));
  s.max_steps = OPENLOOP_TRY(rd.count_or(j, "max_steps", 30));
  s.refine = OPENLOOP_TRY(rd.boolean_or(j, "refine", false));
  s.tolerance = OPENLOOP_TRY(rd.number_or(j, "tolerance", 0.02));
  s.fresh = OPENLOOP_TRY(rd.boolean_or(j, "fresh", false));
  s.cooldown = from_seconds(OPENLOOP_TRY(rd.number_or(j, "cooldown_s", 5)));
  s.repeat = OPENLOOP_TRY(rd.count_or(j, "repeat", 0));
  s.step.deadline = from_seconds(OPENLOOP_TRY(rd.number_or(j, "deadline_s", 0)));
  s.step.bounds.generator.lateness_floor_ms = OPENLOOP_TRY(rd.number_or(j, "max_lateness_ms", 1.0));
  s.default_slo = OPENLOOP_TRY(rd.boolean_or(j, "default_slo", false));
  auto stop_at = parse_stop_at(OPENLOOP_TRY(rd.string_or(j, "stop_at", "collapse")), "settings.stop_at");
  if (!stop_at) return rd.fail(j.path + "/stop_at", stop_at.error().message);
  s.stop_at = *stop_at;
  const std::vector<std::string> slos = OPENLOOP_TRY(rd.strings_or_empty(j, "slos"));
  for (std::size_t i = 0; i < slos.size(); ++i) {
    auto slo = results::parse_slo(slos[i], "slo");
    if (!slo) return rd.fail(fmt::format("{}/slos/{}", j.path, i), slo.error().message);
    s.slos.push_back(std::move(*slo));
  }
  const std::vector<std::string> until = OPENLOOP_TRY(rd.strings_or_empty(j, "step_until"));
  for (std::size_t i = 0; i < until.size(); ++i) {
    auto target = results::parse_until(until[i]);
    if (!target) return rd.fail(fmt::format("{}/step_until/{}", j.path, i), target.error().message);
    s.step_until.push_back(std::move(*target));
  }
  s.step_max_hold = from_seconds(OPENLOOP_TRY(rd.number_or(j, "step_max_hold_s", 0)));
  return s;
}

// The step's (or a repeat's) offered rate and window: which run, from when to when.
Result<StepWindow> window_from(const JsonReader& rd, const JsonNode& step, std::size_t runs) {
  const JsonNode w = OPENLOOP_TRY(rd.field(step, "window", JsonKind::object));
  StepWindow out;
  out.offered_rps = OPENLOOP_TRY(rd.number(step, "offered_rps"));
  const std::uint64_t run = OPENLOOP_TRY(rd.count(w, "run"));
  if (run >= runs) return rd.fail(w.path + "/run", fmt::format("no run {} (the file has {})", run, runs));
  out.run = run;
  out.from_s = OPENLOOP_TRY(rd.number(w, "from_s"));
  out.to_s = OPENLOOP_TRY(rd.number(w, "to_s"));
  return out;
}

// A step written with --repeat: each repeat judged again on its window, then made into the step as the ramp
// made it.
Result<StepRecord> repeated_step_from(const JsonReader& rd, const JsonNode& step, std::size_t i,
                                      const ReadRamp& r) {
  const JsonNode entries = OPENLOOP_TRY(rd.field(step, "repeats", JsonKind::array));
  if (entries.value->empty()) return rd.fail(entries.path, "empty (a repeated step has at least one repeat)");
  results::RepeatSet set;
  set.planned = entries.value->size();
  if (const auto summary = OPENLOOP_TRY(rd.optional_field(step, "repeat_summary", JsonKind::object))) {
    set.planned = OPENLOOP_TRY(rd.count_or(*summary, "planned", set.planned));
    set.cooldown_s = OPENLOOP_TRY(rd.number_or(*summary, "cooldown_s", 0));
    set.lab = OPENLOOP_TRY(rd.boolean_or(*summary, "lab", false));
  }
  const std::size_t number = OPENLOOP_TRY(rd.count_or(step, "number", i + 1));
  const bool refinement = OPENLOOP_TRY(rd.boolean_or(step, "refinement", false));
  std::vector<StepRecord> repeats;
  for (std::size_t k = 0; k < entries.value->size(); ++k) {
    const JsonNode e = OPENLOOP_TRY(rd.element(entries, k, JsonKind::object));
    const StepWindow w = OPENLOOP_TRY(window_from(rd, e, r.outcome.runs.size()));
    repeats.push_back(OPENLOOP_TRY(judge_step(r.outcome.runs[w.run], w, r.settings, number, refinement)));
    results::RepeatContext c;
    c.seed = OPENLOOP_TRY(rd.count_or(e, "seed", 0));
    c.cooldown_s = OPENLOOP_TRY(rd.number_or(e, "cooldown_s", 0));
    if (const auto reset = OPENLOOP_TRY(rd.optional_field(e, "lab_reset", JsonKind::object))) {
      c.reset = OPENLOOP_TRY(rd.string_or(*reset, "state", "none"));
      c.reset_detail = OPENLOOP_TRY(rd.string_or(*reset, "detail", ""));
    } else {
      c.reset = "none";
    }
    set.contexts.push_back(std::move(c));
  }
  return combine_repeats(std::move(repeats), std::move(set));
}

}  // namespace

Result<ReadRamp> ramp_from_json(const json& doc, std::string_view source) {
  const JsonReader rd(source);
  const JsonNode root = OPENLOOP_TRY(rd.root(doc, "a ramp object"));
  OPENLOOP_TRY_VOID(rd.expect_schema(root, k_ramp_schema));
  ReadRamp r;
  r.settings = OPENLOOP_TRY(settings_from(rd, root));
  const JsonNode runs = OPENLOOP_TRY(rd.field(root, "runs", JsonKind::array));
  for (std::size_t i = 0; i < runs.value->size(); ++i) {
    auto run = results::parse_results(runs.value->at(i).dump(), fmt::format("{} /runs/{}", source, i));
    if (!run) return tl::unexpected(run.error());
    r.outcome.runs.push_back(std::move(*run));
  }
  if (r.outcome.runs.empty()) return rd.fail("/runs", "no run");
  // The steps were judged against the client's timeout of their run (every run of a ramp has the same).
  r.settings.step.timeout = from_seconds(r.outcome.runs.front().info.timeout_s);
  const JsonNode steps = OPENLOOP_TRY(rd.field(root, "steps", JsonKind::array));
  for (std::size_t i = 0; i < steps.value->size(); ++i) {
    const JsonNode step = OPENLOOP_TRY(rd.element(steps, i, JsonKind::object));
    if (rd.given(step, "repeats")) {
      r.outcome.steps.push_back(OPENLOOP_TRY(repeated_step_from(rd, step, i, r)));
      continue;
    }
    const StepWindow w = OPENLOOP_TRY(window_from(rd, step, r.outcome.runs.size()));
    const std::size_t number = OPENLOOP_TRY(rd.count_or(step, "number", i + 1));
    const bool refinement = OPENLOOP_TRY(rd.boolean_or(step, "refinement", false));
    r.outcome.steps.push_back(
        OPENLOOP_TRY(judge_step(r.outcome.runs[w.run], w, r.settings, number, refinement)));
  }
  r.outcome.findings = analyse_ramp(r.outcome.steps);
  r.outcome.stopped = OPENLOOP_TRY(rd.string_or(root, "stopped", ""));
  r.outcome.interrupted = OPENLOOP_TRY(rd.boolean_or(root, "interrupted", false));
  r.outcome.notes = OPENLOOP_TRY(rd.strings_or_empty(root, "notes"));
  return r;
}

}  // namespace openloop::procedures
