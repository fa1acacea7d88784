// `openloop ramp`'s options as CLI11 declarations, one function per help group (run's groups, in run's
// order).
#include "cli/ramp_options.h"
#include "cli/metrics_options.h"
#include "cli/observe_options.h"

namespace openloop::cli {
namespace {

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
      ->type_name("PRECISION")
      ->group(g);
  sub.add_option(
         "--step-max-hold", f.step_max_hold,
         "With --step-until: the longest a step's measured part may last (default 4 × --hold); the step "
         "says how much longer a target not met would have needed")
      ->type_name("DURATION")
      ->group(g);
  sub.add_flag("--refine", f.refine, "Bisect between the capacity step and the first failing step above it")
      ->group(g);
  sub.add_option("--tol", f.tolerance, "--refine stops once the bracket above capacity (to the first failing step) is at most this wide, e.g. 2%")
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
  sub.add_option(
         "--junit", f.run.junit,
         "Write a JUnit XML report to FILE: a case per SLO, capacity and the verdict (see docs/ci.md)")
      ->type_name("FILE")
      ->group(g);
  sub.add_flag("-q,--quiet", f.run.quiet, "Print only the table and findings: no line per step")->group(g);
  add_metrics_options(sub, f.run,
                      "the step being run (series labelled step and rate), each judged step's totals");
}

}  // namespace

// The groups in run's order (CLI11 lists them by first use): target (with -e, --target, --targets), load
// model (the steps), client and advanced, retries, outputs, judging, gRPC.
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
  add_grpc_options(sub, f.grpc);
  sub.add_option("--simulate", f.simulate,
                 "Ramp against the lab's service model in virtual time instead of the target: the flags of "
                 "`openloop lab` as one string, e.g. '--workers 4 --service exp:10ms' (docs/simulate.md)")
      ->type_name("'LAB OPTIONS'");
  add_observe_option(sub, f.run.observe);
}

}  // namespace openloop::cli
