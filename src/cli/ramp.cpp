// `openloop ramp`: step the offered rate up, judge each step, find the knee, the capacity and collapse.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/junit_reports.h"
#include "procedures/ramp/ramp_metrics.h"
#include "cli/metrics_options.h"
#include "cli/observe_options.h"
#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "cli/run_repeats.h"
#include "cli/start_options.h"
#include "core/redact.h"
#include "core/units.h"
#include "engine/coordinator.h"
#include "engine/scenario_plans.h"
#include "lab/control_endpoint.h"
#include "observe/ramp_observed.h"
#include "procedures/ramp/ramp_report.h"
#include "procedures/ramp/ramp_runner.h"
#include "results/run_identity.h"
#include "results/until.h"
#include "sim/lab_options.h"
#include "sim/simulate.h"
#include "workload/scenario_file.h"

namespace openloop::cli {
namespace {

using procedures::RampSettings;

// Ramp flags as typed; the target and client flags are `run`'s own groups.
struct RampFlags {
  RunOptions run;
  std::string from, to, step_mult, step_add, hold = "30s", warmup = "5s", deadline, tolerance = "2%";
  std::string stop_at = "collapse", cooldown = "5s", max_lateness;
  std::string repeat;                   ///< --repeat N as typed (empty: each step once)
  std::vector<std::string> step_until;  ///< --step-until targets as typed
  std::string step_max_hold;            ///< --step-max-hold (default 4 × --hold)
  std::size_t max_steps = 30;
  bool refine = false, fresh = false;
  std::string simulate;  ///< --simulate: the lab's flags of a simulated service (empty: the network)
  CLI::App* app = nullptr;
  bool given(const char* flag) const { return app->get_option(flag)->count() > 0; }
};

// The steps: their rates, lengths and arrival process (help group "Load model", as run's).
void add_step_options(CLI::App& sub, RampFlags& f) {
  const char* g = help_group::load;
  sub.add_option("--from", f.from, "Rate of the first step, e.g. 100/s")
      ->required()
      ->type_name("RATE")
      ->group(g);
  sub.add_option("--to", f.to, "No step above this rate (default: until --stop-at fires or --max-steps)")
      ->type_name("RATE")
      ->group(g);
  sub.add_option("--step-mult", f.step_mult,
                 "Each step's rate is the previous one's × this (> 1; default 1.25)")
      ->type_name("FACTOR")
      ->group(g);
  sub.add_option("--step-add", f.step_add, "Each step's rate is the previous one's + this rate, e.g. 100/s")
      ->type_name("RATE")
      ->group(g);
  sub.add_option("--hold", f.hold, "Measured part of each step (at least 2s)")
      ->capture_default_str()
      ->type_name("DURATION")
      ->group(g);
  sub.add_option("--warmup", f.warmup, "Leading part of each step, sent but not judged")
      ->capture_default_str()
      ->type_name("DURATION")
      ->group(g);
  sub.add_option("--max-steps", f.max_steps, "Planned steps at most (refinement steps come on top)")
      ->capture_default_str()
      ->type_name("N")
      ->group(g);
  sub.add_option("--arrival", f.run.arrival, "Arrival process: constant | poisson")
      ->capture_default_str()
      ->type_name("KIND")
      ->group(g);
  sub.add_option("--seed", f.run.seed, "Seed for Poisson arrivals")
      ->capture_default_str()
      ->type_name("N")
      ->group(g);
  sub.add_flag("--fresh", f.fresh,
               "One run per step with new connections (default: one run, connections carry over)")
      ->group(g);
  sub.add_option("--repeat", f.repeat,
                 "With --fresh: run each step N times (2 to 100), each repeat with its own seed derived from "
                 "--seed and --cooldown before it; the step is judged on its upper median repeat by p99 and "
                 "shows each percentile's spread across them (docs/ramp.md). Against the lab, its model is "
                 "reset before each run")
      ->type_name("N")
      ->group(g);
  sub.add_option("--cooldown", f.cooldown,
                 "Silence before each separate run (--fresh steps, their --repeat runs, --refine steps)")
      ->capture_default_str()
      ->type_name("DURATION")
      ->group(g);
}

// How steps are judged, what the ramp concludes from them, and when it stops (help group "Judging").
void add_judging_options(CLI::App& sub, RampFlags& f) {
  const char* g = help_group::judging;
  sub.add_option(
         "--deadline", f.deadline,
         "Goodput counts successes within this deadline (default: --timeout; --timeout defaults to it)")
      ->type_name("DURATION")
      ->group(g);
  sub.add_option("--slo", f.run.slos,
                 "Objective a step must meet to count towards capacity (repeatable): "
                 "p99<=200ms, errors<=0.1%, goodput>=99%, ... (default goodput>=99%)")
      ->type_name("SLO")
      ->group(g);
  sub.add_option(
         "--step-until", f.step_until,
         "With --fresh: each step goes on past --hold until the response time's PERCENTILE is known "
         "within ±PERCENT on the step (its 95 % interval), e.g. p99:±5% (repeatable: all must hold), or "
         "--step-max-hold")
      ->type_name("P:±W%")
      ->group(g);
  sub.add_option(
         "--step-max-hold", f.step_max_hold,
         "With --step-until: the longest a step's measured part may last (default 4 × --hold); the step "
         "says how much longer a target not met would have needed")
      ->type_name("DURATION")
      ->group(g);
  sub.add_flag("--refine", f.refine, "Bisect between the capacity step and the first failing step above it")
      ->group(g);
  sub.add_option("--tol", f.tolerance, "--refine stops once capacity is known to ± this, e.g. 2%")
      ->capture_default_str()
      ->type_name("SHARE")
      ->group(g);
  sub.add_option("--stop-at", f.stop_at,
                 "End the ramp at: collapse (confirmed) | slo (first failing step) | never")
      ->capture_default_str()
      ->type_name("WHEN")
      ->group(g);
  sub.add_option(
         "--max-lateness", f.max_lateness,
         "A step whose send-lateness p99 exceeds max(D, 10% of the arrival gap) is INVALID (default 1ms, as "
         "for run); raise it only on a machine too busy to send on time, and say so")
      ->type_name("DURATION")
      ->group(help_group::advanced);
}

void add_ramp_output_options(CLI::App& sub, RampFlags& f) {
  const char* g = help_group::outputs;
  sub.add_option("--json", f.run.json,
                 "Write every step's results and the runs' results (openloop.ramp/1) to FILE")
      ->type_name("FILE")
      ->group(g);
  sub.add_option("--html", f.run.html, "Write a self-contained HTML report with the knee chart to FILE")
      ->type_name("FILE")
      ->group(g);
  sub.add_option("--junit", f.run.junit,
                 "Write a JUnit XML report to FILE: a case per SLO, capacity and the verdict (see docs/ci.md)")
      ->type_name("FILE")
      ->group(g);
  sub.add_flag("-q,--quiet", f.run.quiet, "Print only the table and findings: no line per step")->group(g);
  add_metrics_options(sub, f.run, "the step being run (series labelled step and rate), each judged step's totals");
}

// The groups in run's order (CLI11 lists them by first use): target (with -e, --target, --targets), load
// model (the steps), client and advanced, retries, outputs, judging.
void add_ramp_options(CLI::App& sub, RampFlags& f) {
  f.app = &sub;
  add_target_options(sub, f.run);
  sub.get_option("target")->required(false);  // the requests may come from --targets
  add_plan_input_options(sub, f.run);
  add_step_options(sub, f);
  add_client_options(sub, f.run);
  add_retry_options(sub, f.run.retry);
  add_ramp_output_options(sub, f);
  add_judging_options(sub, f);
  sub.add_option("--simulate", f.simulate,
                 "Ramp against the lab's service model in virtual time instead of the target: the flags of "
                 "`openloop lab` as one string, e.g. '--workers 4 --service exp:10ms' (docs/simulate.md)")
      ->type_name("'LAB OPTIONS'");
  add_observe_option(sub, f.run.observe);
}

Result<double> parse_share(const std::string& text, const char* what) {
  const bool percent = !text.empty() && text.back() == '%';
  char* end = nullptr;
  const std::string number = percent ? text.substr(0, text.size() - 1) : text;
  const double v = std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(v)) {
    return usage_error(fmt::format("{}: \"{}\" is not a share; use e.g. 2% or 0.02", what, text));
  }
  return percent ? v / 100 : v;
}

Result<void> parse_steps(const RampFlags& f, RampSettings& s) {
  s.from_rps = OPENLOOP_TRY(parse_rate(f.from, "--from"));
  if (!(s.from_rps > 0)) return usage_error(fmt::format("--from: \"{}\" must be greater than 0", f.from));
  if (!f.to.empty()) {
    s.to_rps = OPENLOOP_TRY(parse_rate(f.to, "--to"));
    if (s.to_rps < s.from_rps) return usage_error(fmt::format("--to: {} is below --from {}", f.to, f.from));
  }
  if (!f.step_mult.empty() && !f.step_add.empty())
    return usage_error("--step-mult and --step-add: give one of them");
  if (!f.step_add.empty()) {
    s.step_add = OPENLOOP_TRY(parse_rate(f.step_add, "--step-add"));
    if (!(s.step_add > 0))
      return usage_error(fmt::format("--step-add: \"{}\" must be greater than 0", f.step_add));
  } else {
    s.step_mult = f.step_mult.empty() ? 1.25 : OPENLOOP_TRY(parse_share(f.step_mult, "--step-mult"));
    if (!(s.step_mult >= 1.01 && s.step_mult <= 10)) {
      return usage_error(fmt::format(
          "--step-mult: \"{}\" is not accepted; use a factor from 1.01 to 10, e.g. 1.25", f.step_mult));
    }
  }
  if (f.max_steps < 1 || f.max_steps > 1000) {
    return usage_error(fmt::format("--max-steps: {} is not accepted; use 1..1000", f.max_steps));
  }
  s.max_steps = f.max_steps;
  return {};
}

Result<void> parse_timing(const RampFlags& f, RampSettings& s) {
  s.hold = OPENLOOP_TRY(parse_duration(f.hold, "--hold"));
  if (s.hold < std::chrono::seconds(2)) {
    return usage_error(
        fmt::format("--hold: {} is too short; a step's steadiness needs at least 2s (10s or more is "
                    "better)",
                    f.hold));
  }
  s.warmup = OPENLOOP_TRY(parse_duration(f.warmup, "--warmup"));
  s.cooldown = OPENLOOP_TRY(parse_duration(f.cooldown, "--cooldown"));
  s.tolerance = OPENLOOP_TRY(parse_share(f.tolerance, "--tol"));
  if (!(s.tolerance > 0 && s.tolerance <= 0.5)) {
    return usage_error(fmt::format(
        "--tol: \"{}\" is not accepted; use a share above 0 and at most 50%, e.g. 2%", f.tolerance));
  }
  if (!f.max_lateness.empty()) {
    s.step.bounds.generator.lateness_floor_ms =
        to_millis(OPENLOOP_TRY(parse_duration(f.max_lateness, "--max-lateness")));
  }
  s.refine = f.refine;
  s.fresh = f.fresh;
  if (!f.repeat.empty()) {
    s.repeat = OPENLOOP_TRY(parse_repeat_count(f.repeat));
    if (!f.fresh) {
      return usage_error(
          "--repeat: needs --fresh (each repeat is a run of its own); without --fresh the ramp is one "
          "continuous run whose steps cannot be repeated");
    }
  }
  s.stop_at = OPENLOOP_TRY(procedures::parse_stop_at(f.stop_at));
  return {};
}

// --step-until and --step-max-hold: only with --fresh (each step its own run, which can end when its targets
// hold; without it the steps are one run with a fixed plan). Needs s.hold.
Result<void> parse_step_until(const RampFlags& f, RampSettings& s) {
  if (f.step_until.empty()) {
    if (!f.step_max_hold.empty())
      return usage_error("--step-max-hold: applies with --step-until (e.g. --step-until p99:±5%)");
    return {};
  }
  if (!f.fresh) {
    return usage_error(
        "--step-until: needs --fresh (each step its own run, ended when its targets hold); without --fresh "
        "the ramp is one continuous run whose steps are planned ahead");
  }
  for (const auto& text : f.step_until) {
    auto target = results::parse_until(text);
    if (!target) {
      // parse_until names run's flag ("--until: ..."); the same form, given to ramp's.
      std::string message = target.error().message;
      if (message.rfind("--until", 0) == 0) message.insert(2, "step-");
      return usage_error(message);
    }
    s.step_until.push_back(std::move(*target));
  }
  s.step_max_hold = 4 * s.hold;
  if (!f.step_max_hold.empty()) {
    s.step_max_hold = OPENLOOP_TRY(parse_duration(f.step_max_hold, "--step-max-hold"));
    if (s.step_max_hold < s.hold) {
      return usage_error(
          fmt::format("--step-max-hold: {} is shorter than --hold {}; a step holds at least --hold "
                      "and at most --step-max-hold",
                      f.step_max_hold, f.hold));
    }
  }
  return {};
}

// --deadline and --timeout: either defaults to the other; the client may wait longer than the deadline (to
// see late responses as throughput), never shorter.
Result<void> resolve_deadline(RampFlags& f, RampSettings& s) {
  if (f.deadline.empty()) return {};
  s.step.deadline = OPENLOOP_TRY(parse_duration(f.deadline, "--deadline"));
  if (s.step.deadline.count() == 0) return usage_error("--deadline: must be greater than 0, e.g. 2s");
  if (!f.given("--timeout")) {
    f.run.timeout = f.deadline;
    return {};
  }
  const Nanos timeout = OPENLOOP_TRY(parse_duration(f.run.timeout, "--timeout"));
  if (timeout < s.step.deadline) {
    return usage_error(
        fmt::format("--deadline {} is longer than --timeout {}: the client would give up before the "
                    "deadline; raise --timeout or drop it",
                    f.deadline, f.run.timeout));
  }
  return {};
}

Result<engine::RunPlan> base_from_file(const RampFlags& f) {
  const workload::PlanInputs inputs = OPENLOOP_TRY(plan_inputs(f.run));
  auto loaded = std::make_shared<const workload::WorkloadPlan>(
      OPENLOOP_TRY(workload::load_plan_file(f.run.url, inputs)));
  engine::RunSettings rs;
  rs.threads = f.run.threads > 0 ? f.run.threads : std::max(1U, std::thread::hardware_concurrency());
  rs.max_connections = f.run.max_connections;
  rs.fd_limit = raise_fd_limit();
  rs.insecure = f.run.insecure;
  rs.ca_file = f.run.cacert;
  rs.retry = f.run.retry;
  std::vector<engine::RunPlan> plans = OPENLOOP_TRY(engine::plans_from_workload(loaded, rs));
  const std::string metric = OPENLOOP_TRY(check_server_timing_metric(f.run.server_timing_metric));
  for (auto& p : plans) p.server_timing_metric = metric;
  if (plans.size() != 1 || plans.front().model != engine::Model::open) {
    return usage_error(
        fmt::format("ramp: {} has {} scenario(s); a ramp drives one open-model scenario (its requests "
                    "and mix; the ramp sets the rate)",
                    f.run.url, plans.size()));
  }
  engine::RunPlan plan = std::move(plans.front());
  if (f.given("--arrival"))
    plan.arrival = OPENLOOP_TRY(workload::parse_arrival_kind(f.run.arrival, "--arrival"));
  if (f.given("--timeout") || f.given("--deadline"))
    plan.timeout = OPENLOOP_TRY(parse_duration(f.run.timeout, "--timeout"));
  return plan;
}

Result<engine::RunPlan> base_plan(const RampFlags& f, const RampSettings& s) {
  engine::RunPlan plan;
  if (is_plan_file(f.run.url)) {
    plan = OPENLOOP_TRY(base_from_file(f));
  } else {
    RunOptions o = f.run;
    o.rate = f.from;
    o.duration = f.hold;
    o.warmup = "0";
    o.slos.clear();
    plan = OPENLOOP_TRY(build_plan(o));
  }
  // Connections for the highest planned step (build_plan sized them for the first).
  if (f.run.max_connections == 0) {
    const std::vector<double> rates = procedures::planned_rates(s);
    plan.max_connections =
        engine::default_max_connections(rates.back(), plan.timeout, plan.threads, raise_fd_limit());
  }
  return plan;
}

Result<void> parse_slos_into(const RampFlags& f, const engine::RunPlan& plan, RampSettings& s) {
  std::vector<std::string> names;
  for (const auto& r : plan.requests) names.push_back(r.name);
  RunOptions o = f.run;
  o.abort_on_slo = false;
  s.slos = OPENLOOP_TRY(parse_slos(o, names));
  for (const auto& slo : s.slos) {
    if (!slo.request.empty()) {
      return usage_error(
          fmt::format("--slo \"{}\": ramp judges each step as a whole; per-request SLOs are not "
                      "supported (a step keeps one histogram for all its requests)",
                      slo.text));
    }
  }
  if (s.slos.empty()) {
    return usage_error(
        "--slo none: ramp finds the highest rate that meets an objective, so it needs one (leave --slo out "
        "for the default goodput>=99%)");
  }
  s.default_slo = s.slos.front().is_default;
  return {};
}

struct Prepared {
  RampSettings settings;
  engine::RunPlan base;
  /// The ramp's id, made as run's (OPENLOOP_RUN_ID, else random): its file's run_id, its runs' and the
  /// run_id label of its metrics.
  std::string run_id;
};

// --simulate: every run of the ramp goes to a simulated lab of those flags, one worker on virtual time.
Result<void> simulated(RampFlags& f, RampSettings& s) {
  if (f.simulate.empty() && !f.given("--simulate")) return {};
  const lab::LabConfig lab = OPENLOOP_TRY(sim::parse_lab_options(f.simulate, "--simulate"));
  if (f.run.threads > 1)
    return usage_error(fmt::format("--threads: a simulated client is one worker; drop --threads {}", f.run.threads));
  if (f.run.coalesce != "0") return usage_error("--coalesce: a simulated client wakes exactly when due; drop it");
  f.run.threads = 1;
  f.run.spin_below = "0";
  s.runner = [lab](const engine::RunPlan& plan, std::atomic<int>& stop,
                   const engine::ProgressFn& progress) -> Result<results::RunResults> {
    engine::RunPlan simulated_plan = plan;
    simulated_plan.dns_time = Nanos(-1);
    auto ran = OPENLOOP_TRY(sim::simulate(simulated_plan, lab, stop, progress));
    return std::move(ran.results);
  };
  return {};
}

Result<Prepared> prepare(RampFlags& f) {
  Prepared p;
  OPENLOOP_TRY_VOID(simulated(f, p.settings));
  OPENLOOP_TRY_VOID(parse_steps(f, p.settings));
  OPENLOOP_TRY_VOID(parse_timing(f, p.settings));
  OPENLOOP_TRY_VOID(parse_step_until(f, p.settings));
  OPENLOOP_TRY_VOID(resolve_deadline(f, p.settings));
  p.base = OPENLOOP_TRY(base_plan(f, p.settings));
  p.settings.step.timeout = p.base.timeout;
  OPENLOOP_TRY_VOID(parse_slos_into(f, p.base, p.settings));
  return p;
}

void announce(const Prepared& p) {
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
      p.base.method, p.base.url_text, rates.size(), format_rate(rates.front()), format_rate(rates.back()),
      step, format_duration(s.warmup), format_duration(s.hold), until,
      s.fresh ? (s.repeat >= 2 ? fmt::format("{} runs per step", s.repeat) : std::string("one run per step"))
              : std::string("one run (connections carry over)"),
      to_string(s.stop_at), s.refine ? fmt::format("; then refine to ±{:.1f}%", 100 * s.tolerance) : "");
}

std::vector<OutputFile<procedures::RampOutcome>> ramp_outputs(const RampFlags& f, const Prepared& prepared) {
  const RampSettings& s = prepared.settings;
  std::optional<nlohmann::json> simulated_lab;
  if (s.runner) {
    simulated_lab = lab::config_to_json(*sim::parse_lab_options(f.simulate, "--simulate"));
    simulated_lab->erase("listen");
    simulated_lab->erase("duration");
  }
  // The plan's target: a URL as given, a plan file's (after --target), or the targets file's.
  const std::string target = redact_url(prepared.base.url_text);
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
int exit_code(const procedures::RampOutcome& o) {
  if (o.interrupted) return static_cast<int>(ExitCode::interrupted);
  bool reached = false;
  for (const auto& r : o.runs) reached = reached || !r.unreachable();
  if (!reached) {
    fmt::print(stderr, "openloop ramp: no response from {}: every request failed to connect\n",
               o.runs.empty() ? std::string("the target") : o.runs.front().info.target);
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
  auto prepared = prepare(f);
  if (!prepared) return report_error(command, prepared.error());
  const auto start = prepare_start(f.run, prepared->base.describe());
  if (!start) return report_error(command, start.error());
  prepared->run_id = start->run_id;
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
  // Bound before anything is sent: a bad address or a port in use ends the command with nothing sent.
  const auto linger = parse_metrics_linger(f.run);
  if (!linger) return report_error(command, linger.error());
  auto metrics = start_metrics(f.run, {}, command);
  if (!metrics) return report_error(command, metrics.error());
  std::optional<procedures::RampMetrics> ramp_metrics;
  if (*metrics) {
    std::vector<std::string> names;
    for (const auto& r : prepared->base.requests) names.push_back(r.name);
    ramp_metrics.emplace(**metrics, prepared->settings, prepared->run_id, std::move(names));
    prepared->settings.runner = ramp_metrics->wrap(std::move(prepared->settings.runner));
  }
  const RampSettings& s = prepared->settings;
  Pipeline<procedures::RampOutcome> p;
  p.command = command;
  p.outputs = ramp_outputs(f, *prepared);
  auto observer = make_observer(f.run.observe, prepared->base.url_text);
  if (!observer) return report_error(command, observer.error());
  p.run = [&](std::atomic<int>& stop) -> Result<procedures::RampOutcome> {
    if (!f.run.quiet) announce(*prepared);
    procedures::StepFn on_step;
    if (!f.run.quiet || ramp_metrics)
      on_step = [&](const procedures::StepRecord& step) {
        if (!f.run.quiet) fmt::print(stderr, "{}\n", procedures::step_line(step));
        if (ramp_metrics) ramp_metrics->on_step(step);
      };
    auto outcome = OPENLOOP_TRY(
        observed(observer->get(), [&] { return procedures::run_ramp(prepared->base, s, stop, on_step); }));
    if (ramp_metrics) ramp_metrics->on_end(outcome.findings);
    for (auto& r : outcome.runs) {
      r.info.run_id = prepared->run_id;
      r.info.environment = run_environment();
      if (*observer) (*observer)->attach(r);
    }
    return outcome;
  };
  p.summary = [&s](const procedures::RampOutcome& o) {
    return procedures::render_ramp_summary(o, s) + observe::render_ramp_observed(o);
  };
  p.exit_code = exit_code;
  const int code = execute(p);
  if (*metrics) (*metrics)->linger(*linger);
  return code;
}

}  // namespace

Action setup_ramp(CLI::App& sub) {
  auto flags = std::make_shared<RampFlags>();
  add_ramp_options(sub, *flags);
  return [flags] { return ramp_command(*flags); };
}

}  // namespace openloop::cli
