// `openloop ramp`'s flags checked into its settings and base plan (cli/ramp_options.h).
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli/grpc_options.h"
#include "cli/option_checks.h"
#include "cli/plan_builder.h"
#include "cli/plan_host.h"
#include "cli/ramp_options.h"
#include "cli/run_repeats.h"
#include "core/units.h"
#include "procedures/ramp/ramp_plan.h"
#include "results/judging/until.h"
#include "sim/lab_options.h"
#include "sim/simulate.h"
#include "workload/grpc_call.h"

namespace openloop::cli {
namespace {

using procedures::RampSettings;

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

Result<engine::RunPlan> base_from_file(const RampFlags& f, const HostFacts& host) {
  auto loaded = OPENLOOP_TRY(load_plan(f.run));
  OPENLOOP_TRY_VOID(refuse_once_steps(*loaded, "ramp"));
  const engine::RunSettings settings = OPENLOOP_TRY(run_settings(f.run, host));
  std::vector<engine::RunPlan> plans = OPENLOOP_TRY(build_file_plans(f.run, loaded, settings));
  if (plans.size() != 1 || plans.front().model != engine::Model::open) {
    return usage_error(
        fmt::format("ramp: {} has {} scenario(s); a ramp drives one open-model scenario (its requests "
                    "and mix; the ramp sets the rate)",
                    f.run.url, plans.size()));
  }
  if (plans.front().replay) {
    return usage_error(fmt::format("ramp: {}'s scenario replays a trace, whose times are its rate; a ramp sets "
                                   "the rate (replay it faster with speed: instead)",
                                   f.run.url));
  }
  engine::RunPlan plan = std::move(plans.front());
  if (f.given("--arrival"))
    plan.arrival = OPENLOOP_TRY(workload::parse_arrival_kind(f.run.arrival, "--arrival"));
  if (f.given("--timeout") || f.given("--deadline"))
    plan.timeout = OPENLOOP_TRY(parse_duration(f.run.timeout, "--timeout"));
  return plan;
}

// A grpc:// target: the call prepared once for every step (the schema loaded, or asked of the server's
// reflection, once), and the ramp's options become the HTTP/2 request it is (docs/grpc.md). Else no gRPC
// flag may be given.
Result<std::optional<GrpcCall>> grpc_call(RampFlags& f, const RampSettings& s) {
  if (!workload::is_grpc_url(f.run.url)) {
    OPENLOOP_TRY_VOID(check_no_grpc_flags(f.grpc));
    return std::nullopt;
  }
  if (s.runner) {
    return usage_error(
        "--simulate: the simulated lab answers HTTP requests, not gRPC calls; ramp the grpc:// target "
        "against `openloop lab --grpc` instead (docs/grpc.md)");
  }
  GrpcCall call = OPENLOOP_TRY(prepare_grpc_call(f.run, f.grpc));
  f.run = call.options;
  return call;
}

// The plan every step runs (at its own rate): from the plan file or the flags (a gRPC call applied to it),
// resolved once (a simulated ramp resolves nothing).
Result<engine::RunPlan> base_plan(const RampFlags& f, const RampSettings& s, const GrpcCall* call) {
  const HostFacts host = host_facts();
  engine::RunPlan plan;
  if (is_plan_file(f.run.url)) {
    plan = OPENLOOP_TRY(base_from_file(f, host));
  } else {
    RunOptions o = f.run;
    o.rate = f.from;
    o.duration = f.hold;
    o.warmup = "0";
    o.slos.clear();
    plan = OPENLOOP_TRY(build_plan(o, host));
    if (call != nullptr) OPENLOOP_TRY_VOID(apply_grpc_call(*call, plan));
  }
  // Connections for the highest planned step (build_plan sized them for the first).
  if (f.run.max_connections == 0) {
    const std::vector<double> rates = procedures::planned_rates(s);
    plan.max_connections =
        engine::default_max_connections(rates.back(), plan.timeout, plan.threads, host.fd_limit);
  }
  if (s.runner) {
    mark_simulated(plan);
  } else {
    OPENLOOP_TRY_VOID(resolve_target({&plan}));
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

// --simulate: every run of the ramp goes to a simulated lab of those flags, one worker on virtual time.
Result<void> simulated(RampFlags& f, RampSettings& s) {
  if (f.simulate.empty() && !f.given("--simulate")) return {};
  const lab::LabConfig lab = OPENLOOP_TRY(sim::parse_lab_options(f.simulate, "--simulate"));
  OPENLOOP_TRY_VOID(use_simulated_client(f.run));
  s.runner = [lab](const engine::RunPlan& plan, std::atomic<int>& stop,
                   const engine::ProgressFn& progress) -> Result<results::RunResults> {
    engine::RunPlan simulated_plan = plan;
    mark_simulated(simulated_plan);
    auto ran = OPENLOOP_TRY(sim::simulate(simulated_plan, lab, stop, progress));
    return std::move(ran.results);
  };
  return {};
}

}  // namespace

Result<RampPrepared> prepare_ramp(RampFlags& f) {
  RampPrepared p;
  OPENLOOP_TRY_VOID(simulated(f, p.settings));
  OPENLOOP_TRY_VOID(parse_steps(f, p.settings));
  OPENLOOP_TRY_VOID(parse_timing(f, p.settings));
  OPENLOOP_TRY_VOID(parse_step_until(f, p.settings));
  OPENLOOP_TRY_VOID(resolve_deadline(f, p.settings));
  const std::optional<GrpcCall> call = OPENLOOP_TRY(grpc_call(f, p.settings));
  p.base = OPENLOOP_TRY(base_plan(f, p.settings, call ? &*call : nullptr));
  p.settings.step.timeout = p.base.timeout;
  OPENLOOP_TRY_VOID(parse_slos_into(f, p.base, p.settings));
  return p;
}

}  // namespace openloop::cli
