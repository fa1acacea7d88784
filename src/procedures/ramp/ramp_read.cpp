// Rebuilding a ramp from openloop.ramp/1: settings and runs as written, steps judged again, findings derived.
#include "procedures/ramp/ramp_read.h"

#include <fmt/format.h>

#include "procedures/ramp/ramp_repeats.h"
#include "procedures/ramp/ramp_report.h"
#include "results/results_reader.h"

namespace openloop::procedures {
namespace {

using nlohmann::json;

Error bad(std::string_view source, const std::string& path, std::string_view what) {
  return Error{ExitCode::usage, fmt::format("{}: {}: {}", source, path, what)};
}

// The number at doc[key] (null or absent: `fallback`); anything else is refused naming the path.
Result<double> number(const json& obj, const char* key, std::string_view source, const std::string& path,
                      double fallback) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_number()) return tl::unexpected(bad(source, path + "/" + key, "not a number"));
  return it->get<double>();
}

Result<RampSettings> settings_from(const json& j, std::string_view source) {
  if (!j.is_object()) return tl::unexpected(bad(source, "/settings", "missing or not an object"));
  RampSettings s;
  const std::string p = "/settings";
  s.from_rps = OPENLOOP_TRY(number(j, "from_rps", source, p, 0));
  s.to_rps = OPENLOOP_TRY(number(j, "to_rps", source, p, 0));
  s.step_mult = OPENLOOP_TRY(number(j, "step_mult", source, p, 0));
  s.step_add = OPENLOOP_TRY(number(j, "step_add_rps", source, p, 0));
  s.warmup = from_seconds(OPENLOOP_TRY(number(j, "warmup_s", source, p, 0)));
  s.hold = from_seconds(OPENLOOP_TRY(number(j, "hold_s", source, p, 0)));
  s.max_steps = static_cast<std::size_t>(OPENLOOP_TRY(number(j, "max_steps", source, p, 30)));
  s.refine = j.value("refine", false);
  s.tolerance = OPENLOOP_TRY(number(j, "tolerance", source, p, 0.02));
  s.fresh = j.value("fresh", false);
  s.cooldown = from_seconds(OPENLOOP_TRY(number(j, "cooldown_s", source, p, 5)));
  s.repeat = static_cast<std::size_t>(OPENLOOP_TRY(number(j, "repeat", source, p, 0)));
  s.step.deadline = from_seconds(OPENLOOP_TRY(number(j, "deadline_s", source, p, 0)));
  s.step.bounds.generator.lateness_floor_ms = OPENLOOP_TRY(number(j, "max_lateness_ms", source, p, 1.0));
  s.default_slo = j.value("default_slo", false);
  auto stop_at = parse_stop_at(j.value("stop_at", std::string("collapse")), "settings.stop_at");
  if (!stop_at) return tl::unexpected(bad(source, p + "/stop_at", stop_at.error().message));
  s.stop_at = *stop_at;
  if (const auto slos = j.find("slos"); slos != j.end() && slos->is_array()) {
    for (std::size_t i = 0; i < slos->size(); ++i) {
      const json& text = (*slos)[i];
      if (!text.is_string())
        return tl::unexpected(bad(source, fmt::format("{}/slos/{}", p, i), "not a string"));
      auto slo = results::parse_slo(text.get<std::string>(), "slo");
      if (!slo) return tl::unexpected(bad(source, fmt::format("{}/slos/{}", p, i), slo.error().message));
      s.slos.push_back(std::move(*slo));
    }
  }
  if (const auto until = j.find("step_until"); until != j.end() && until->is_array()) {
    for (std::size_t i = 0; i < until->size(); ++i) {
      const json& text = (*until)[i];
      const std::string path = fmt::format("{}/step_until/{}", p, i);
      if (!text.is_string()) return tl::unexpected(bad(source, path, "not a string"));
      auto target = results::parse_until(text.get<std::string>());
      if (!target) return tl::unexpected(bad(source, path, target.error().message));
      s.step_until.push_back(std::move(*target));
    }
  }
  s.step_max_hold = from_seconds(OPENLOOP_TRY(number(j, "step_max_hold_s", source, p, 0)));
  return s;
}

Result<StepWindow> window_from(const json& step, std::size_t i, std::size_t runs, std::string_view source) {
  const std::string p = fmt::format("/steps/{}", i);
  const auto w = step.find("window");
  if (w == step.end() || !w->is_object()) return tl::unexpected(bad(source, p + "/window", "missing"));
  StepWindow out;
  out.offered_rps = OPENLOOP_TRY(number(step, "offered_rps", source, p, 0));
  const double run = OPENLOOP_TRY(number(*w, "run", source, p + "/window", -1));
  if (run < 0 || run >= static_cast<double>(runs)) {
    return tl::unexpected(
        bad(source, p + "/window/run", fmt::format("no run {} (the file has {})", run, runs)));
  }
  out.run = static_cast<std::size_t>(run);
  out.from_s = OPENLOOP_TRY(number(*w, "from_s", source, p + "/window", 0));
  out.to_s = OPENLOOP_TRY(number(*w, "to_s", source, p + "/window", 0));
  return out;
}

// A step written with --repeat: each repeat judged again on its window, then made into the step as the ramp
// made it.
Result<StepRecord> repeated_step_from(const json& step, std::size_t i, const ReadRamp& r,
                                      std::string_view source) {
  const json& entries = step.at("repeats");
  const json summary = step.value("repeat_summary", json::object());
  results::RepeatSet set;
  set.planned = static_cast<std::uint64_t>(
      OPENLOOP_TRY(number(summary, "planned", source, fmt::format("/steps/{}/repeat_summary", i),
                          static_cast<double>(entries.size()))));
  set.cooldown_s = summary.value("cooldown_s", 0.0);
  set.lab = summary.value("lab", false);
  std::vector<StepRecord> repeats;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const json& e = entries[k];
    if (!e.is_object())
      return tl::unexpected(bad(source, fmt::format("/steps/{}/repeats/{}", i, k), "not an object"));
    const StepWindow w = OPENLOOP_TRY(window_from(e, i, r.outcome.runs.size(), source));
    const auto n = static_cast<std::size_t>(step.value("number", static_cast<double>(i + 1)));
    repeats.push_back(
        OPENLOOP_TRY(judge_step(r.outcome.runs[w.run], w, r.settings, n, step.value("refinement", false))));
    results::RepeatContext c;
    c.seed = e.value("seed", std::uint64_t{0});
    c.cooldown_s = e.value("cooldown_s", 0.0);
    const json reset = e.value("lab_reset", json::object());
    c.reset = reset.value("state", std::string("none"));
    c.reset_detail = reset.value("detail", std::string());
    set.contexts.push_back(std::move(c));
  }
  if (repeats.empty()) return tl::unexpected(bad(source, fmt::format("/steps/{}/repeats", i), "empty"));
  return combine_repeats(std::move(repeats), std::move(set));
}

}  // namespace

Result<ReadRamp> ramp_from_json(const json& doc, std::string_view source) {
  if (!doc.is_object() || doc.value("schema", std::string()) != k_ramp_schema) {
    return tl::unexpected(bad(source, "/schema", fmt::format("not \"{}\"", k_ramp_schema)));
  }
  ReadRamp r;
  r.settings = OPENLOOP_TRY(settings_from(doc.value("settings", json()), source));
  const json runs = doc.value("runs", json::array());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto run = results::parse_results(runs[i].dump(), fmt::format("{} /runs/{}", source, i));
    if (!run) return tl::unexpected(run.error());
    r.outcome.runs.push_back(std::move(*run));
  }
  if (r.outcome.runs.empty()) return tl::unexpected(bad(source, "/runs", "no run"));
  // The steps were judged against the client's timeout of their run (every run of a ramp has the same).
  r.settings.step.timeout = from_seconds(r.outcome.runs.front().info.timeout_s);
  const json steps = doc.value("steps", json::array());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (const auto it = steps[i].find("repeats"); it != steps[i].end() && it->is_array()) {
      r.outcome.steps.push_back(OPENLOOP_TRY(repeated_step_from(steps[i], i, r, source)));
      continue;
    }
    const StepWindow w = OPENLOOP_TRY(window_from(steps[i], i, r.outcome.runs.size(), source));
    const auto number_in_file =
        static_cast<std::size_t>(steps[i].value("number", static_cast<double>(i + 1)));
    auto step =
        judge_step(r.outcome.runs[w.run], w, r.settings, number_in_file, steps[i].value("refinement", false));
    if (!step) return tl::unexpected(step.error());
    r.outcome.steps.push_back(std::move(*step));
  }
  r.outcome.findings = analyse_ramp(r.outcome.steps);
  if (const auto it = doc.find("stopped"); it != doc.end() && it->is_string())
    r.outcome.stopped = it->get<std::string>();
  r.outcome.interrupted = doc.value("interrupted", false);
  if (const auto it = doc.find("notes"); it != doc.end() && it->is_array()) {
    for (const auto& n : *it) {
      if (n.is_string()) r.outcome.notes.push_back(n.get<std::string>());
    }
  }
  return r;
}

}  // namespace openloop::procedures
