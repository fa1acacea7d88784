// `openloop ramp`: step the offered rate up, judge each step, find the knee, the capacity and collapse.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/dead_target_runner.h"
#include "cli/plan_host.h"
#include "cli/front_half.h"
#include "cli/junit_reports.h"
#include "cli/observe_options.h"
#include "cli/ramp_options.h"
#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "cli/run_repeats.h"
#include "core/redact.h"
#include "core/units.h"
#include "lab/control_endpoint.h"
#include "observe/ramp_observed.h"
#include "procedures/ramp/ramp_metrics.h"
#include "procedures/ramp/ramp_report.h"
#include "procedures/ramp/ramp_runner.h"
#include "sim/lab_options.h"

namespace openloop::cli {
namespace {

using procedures::RampSettings;

void announce(const RampPrepared& p) {
  const RampSettings& s = p.settings;
  const std::vector<double> rates = procedures::planned_rates(s);
  const std::string step =
      s.step_add > 0 ? fmt::format("+{}", format_rate(s.step_add)) : fmt::format("×{}", s.step_mult);
  std::string until;
  for (const auto& t : s.step_until) until += (until.empty() ? "" : ", ") + t.text;
  if (!until.empty())
    until = fmt::format(" (up to {} until {})", format_duration(procedures::longest_hold(s)), until);
  fmt::print(
      stderr,
      "openloop ramp: {} {}: up to {} steps {} → {} ({}), each {} warm-up + {} hold{}; {}; stop at {}{}\n",
      p.base.method, p.base.redact.url(p.base.url_text), rates.size(), format_rate(rates.front()),
      format_rate(rates.back()), step, format_duration(s.warmup), format_duration(s.hold), until,
      s.fresh ? (s.repeat >= 2 ? fmt::format("{} runs per step", s.repeat) : std::string("one run per step"))
              : std::string("one run (connections carry over)"),
      to_string(s.stop_at),
      s.refine ? fmt::format("; then refine to a bracket {:.1f}% wide", 100 * s.tolerance) : "");
}

std::vector<OutputFile<procedures::RampOutcome>> ramp_outputs(const RampFlags& f,
                                                              const RampPrepared& prepared, bool simulated) {
  const RampSettings& s = prepared.settings;
  std::optional<nlohmann::json> simulated_lab;
  if (simulated) {
    simulated_lab = lab::config_to_json(*sim::parse_lab_options(f.simulate, "--simulate"));
    simulated_lab->erase("listen");
    simulated_lab->erase("duration");
  }
  // The plan's target: a URL as given, a plan file's (after --target), or the targets file's.
  const std::string target = prepared.base.redact.url(prepared.base.url_text);
  const std::string source = f.run.json.empty() ? std::string("this ramp") : f.run.json;
  return {
      {"--json", f.run.json,
       [&s, target, simulated_lab,
        run_id = prepared.run_id](const procedures::RampOutcome& o) -> Result<std::string> {
         nlohmann::json j = procedures::ramp_to_json(o, s);
         j["run_id"] = run_id;
         j["target"] = target;
         if (simulated_lab) {
           j["simulated"] = true;
           j["service_model"] = *simulated_lab;
         }
         j["observed"] = observe::ramp_observed_json(o);
         return json_text(j);
       }},
      {"--html", f.run.html, [&s, source](const procedures::RampOutcome& o) -> Result<std::string> {
         return procedures::render_ramp_html(o, s, source);
       }},
      {"--junit", f.run.junit, [&s, target](const procedures::RampOutcome& o) -> Result<std::string> {
         return report::render_junit(ramp_junit(o, s, target));
       }},
  };
}

// Exit codes: interrupted 130; target unreachable 4; no valid step 3; no step passed 1; else 0 (a finding).
int exit_code(const procedures::RampOutcome& o, const ProcedureDeadTarget& dead) {
  if (o.interrupted) return static_cast<int>(ExitCode::interrupted);
  bool reached = false;
  for (const auto& r : o.runs) reached = reached || !r.unreachable();
  if (!reached) {
    fmt::print(stderr, "openloop ramp: {}: every request failed to connect\n",
               dead.dead() ? dead.why()
                           : "no response from " +
                                 (o.runs.empty() ? std::string("the target") : o.runs.front().info.target));
    return static_cast<int>(ExitCode::runtime);
  }
  bool any_valid = false;
  for (const auto& step : o.steps)
    any_valid = any_valid || step.analysis.state != procedures::StepState::invalid;
  if (!any_valid) return static_cast<int>(ExitCode::invalid_run);
  if (!o.findings.capacity) return static_cast<int>(ExitCode::slo_failed);
  return static_cast<int>(ExitCode::ok);
}

int ramp_command(RampFlags& f) {
  const std::string command = "openloop ramp";
  auto prepared = prepare_ramp(f);
  if (!prepared) return report_error(command, prepared.error());
  auto front = open_procedure_front_half(f.run, command, prepared->base);
  if (!front) return report_error(command, front.error());
  prepared->run_id = front->run_id();
  // --repeat against a lab (not simulated: each simulated run has a fresh model): reset before each run.
  std::optional<lab::ControlClient> lab;
  if (prepared->settings.repeat >= 2 && !prepared->settings.runner) lab = find_lab(prepared->base);
  if (lab) {
    prepared->settings.reset_between = [&lab, quiet = f.run.quiet](const std::atomic<int>& stop,
                                                                   results::RepeatContext& c) {
      reset_lab(*lab, stop, c);
      if (!quiet) fmt::print(stderr, "lab reset {}: {}\n", c.reset, c.reset_detail);
    };
  }
  // A target nothing answers at ends the ramp at its first run's first interval (exit 4), as it ends a run.
  const bool simulated = static_cast<bool>(prepared->settings.runner);
  ProcedureDeadTarget dead(target_address(prepared->base));
  if (!simulated) prepared->settings.runner = watch_dead_target(std::move(prepared->settings.runner), dead);
  // The endpoint serves the ramp's own series: the step being run and each judged step's totals.
  std::optional<procedures::RampMetrics> ramp_metrics;
  if (front->metrics.server) {
    std::vector<std::string> names;
    for (const auto& r : prepared->base.requests) names.push_back(r.name);
    ramp_metrics.emplace(*front->metrics.server, prepared->settings, prepared->run_id, std::move(names));
    prepared->settings.runner = ramp_metrics->wrap(std::move(prepared->settings.runner));
  }
  const RampSettings& s = prepared->settings;
  Pipeline<procedures::RampOutcome> p;
  p.command = command;
  p.outputs = ramp_outputs(f, *prepared, simulated);
  p.run = [&](std::atomic<int>& stop) -> Result<procedures::RampOutcome> {
    if (!f.run.quiet) announce(*prepared);
    procedures::StepFn on_step;
    if (!f.run.quiet || ramp_metrics)
      on_step = [&](const procedures::StepRecord& step) {
        if (!f.run.quiet) fmt::print(stderr, "{}\n", procedures::step_line(step));
        if (ramp_metrics) ramp_metrics->on_step(step);
      };
    auto outcome = OPENLOOP_TRY(observed(front->observer.get(), [&] {
      return procedures::run_ramp(prepared->base, s, stop, on_step);
    }));
    // Stopped for a dead target: the ramp ended there, as for a signal, but was not interrupted.
    if (dead.settle(stop)) {
      outcome.interrupted = false;
      outcome.stopped = dead.why() + ": every attempt failed to connect, so nothing about the target was measured";
      if (!f.run.quiet) fmt::print(stderr, "\n{}: stopped early\n", dead.why());
    }
    if (ramp_metrics) ramp_metrics->on_end(outcome.findings);
    for (auto& r : outcome.runs) front->stamp(r);
    return outcome;
  };
  p.summary = [&s](const procedures::RampOutcome& o) {
    return procedures::render_ramp_summary(o, s) + observe::render_ramp_observed(o);
  };
  p.exit_code = [&dead](const procedures::RampOutcome& o) { return exit_code(o, dead); };
  const int code = execute(p);
  front->metrics.linger_after();
  return code;
}

}  // namespace

Action setup_ramp(CLI::App& sub) {
  auto flags = std::make_shared<RampFlags>();
  add_ramp_options(sub, *flags);
  return [flags] { return ramp_command(*flags); };
}

}  // namespace openloop::cli
