// `openloop probe metastable`'s options (cli/probe_options.h).
#include "cli/probe_options.h"

#include <exception>
#include <string_view>

#include <fmt/format.h>

#include "cli/metrics_options.h"
#include "cli/observe_options.h"
#include "core/units.h"
#include "procedures/probe/probe_trigger.h"

namespace openloop::cli {
namespace {

using procedures::ProbeSettings;

void add_own_options(CLI::App& sub, ProbeFlags& f) {
  sub.add_option("--base", f.base,
                 "Base load the system handles, e.g. 300/s: warm-up, baseline and observe run at it")
      ->type_name("RATE")
      ->required();
  sub.add_option(
         "--trigger", f.trigger,
         "What pushes it over: load:600/s (a spike), stall[:10s] (the lab freezes), dependency:+500ms (the "
         "lab's dependency slows; dependency:800ms sets it)")
      ->type_name("TRIGGER")
      ->required();
  f.trigger_for_option =
      sub.add_option("--trigger-for", f.trigger_for, "How long the trigger lasts (a stall:D lasts D)")
          ->type_name("DURATION")
          ->capture_default_str();
  f.baseline_for_option =
      sub.add_option("--baseline-for", f.baseline_for, "Baseline at the base load, measured (must be steady)")
          ->type_name("DURATION")
          ->capture_default_str();
  f.observe_for_option =
      sub.add_option("--observe-for", f.observe_for, "Observation at the base load after the trigger")
          ->type_name("DURATION")
          ->capture_default_str();
  f.warmup_option =
      sub.add_option("--warmup", f.warmup, "Warm-up at the base load before the baseline, not measured")
          ->type_name("DURATION")
          ->capture_default_str();
  f.window_option =
      sub.add_option("--window", f.window,
                     "Recovery window W: the first W after the trigger that meets every criterion")
          ->type_name("DURATION")
          ->capture_default_str();
  sub.add_flag(
      "--quick", f.quick,
      "Short phases for a first look, about 20 s in all: --warmup 2s --baseline-for 4s --trigger-for 3s "
      "--observe-for 10s --window 2s (a phase flag given beside it wins)");
  sub.add_option("--descend", f.descend, "Descending steps after observe when not recovered (hysteresis)")
      ->type_name("N")
      ->capture_default_str();
  sub.add_option("--descend-step", f.descend_step,
                 "Each step lowers the load by this share of the base, e.g. 10%")
      ->type_name("SHARE")
      ->capture_default_str();
  sub.add_option("--descend-for", f.descend_for, "Length of each descending step (default 2 × --window)")
      ->type_name("DURATION");
  sub.add_option("--repeats", f.repeats, "Run the whole probe N times; the report says k of N")
      ->type_name("N")
      ->capture_default_str();
  sub.add_option(
         "--lab-control", f.lab_control,
         "The lab's control endpoint for stall/dependency triggers and its stats (default: the target's "
         "origin + /_lab/config); given explicitly, the lab's stats are polled for any trigger")
      ->type_name("URL");
  sub.add_option("--arrival", f.arrival, "Arrival process: constant | poisson")
      ->type_name("KIND")
      ->capture_default_str();
  sub.add_option("--seed", f.seed, "Seed for Poisson arrivals")->type_name("N")->capture_default_str();
  f.simulate_option =
      sub.add_option("--simulate", f.simulate,
                     "Probe a simulated lab service in virtual time instead of the network: the flags of "
                     "`openloop lab` as one string, e.g. '--workers 1 --service 25ms --queue lifo' "
                     "(docs/simulate.md)")
          ->type_name("'LAB OPTIONS'");
}

Result<double> parse_fraction(const std::string& text, std::string_view what) {
  double v = 0;
  const bool percent = !text.empty() && text.back() == '%';
  const std::string number = percent ? text.substr(0, text.size() - 1) : text;
  std::size_t used = 0;
  try {
    v = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != number.size()) {
    return usage_error(fmt::format("{}: \"{}\" is not a share; use e.g. 10% or 0.1", what, text));
  }
  return percent ? v / 100 : v;
}

}  // namespace

Result<ProbeSettings> settings_from(const ProbeFlags& f) {
  ProbeSettings s;
  s.base_rate = OPENLOOP_TRY(parse_rate(f.base, "--base"));
  s.trigger = OPENLOOP_TRY(procedures::parse_trigger(f.trigger));
  // --quick replaces the defaults of the phase flags not given; the plan's checks then judge the layout as
  // for any lengths (a --window longer than the quick --observe-for is refused naming both).
  const auto phase = [&f](const CLI::Option* given, const std::string& typed, const char* quick) {
    return f.quick && (given == nullptr || given->count() == 0) ? std::string(quick) : typed;
  };
  s.trigger_for =
      OPENLOOP_TRY(parse_duration(phase(f.trigger_for_option, f.trigger_for, "3s"), "--trigger-for"));
  if (s.trigger.kind == procedures::Trigger::Kind::stall && s.trigger.length.count() > 0 &&
      f.trigger_for_option->count() > 0 && s.trigger_for != s.trigger.length) {
    return usage_error(fmt::format("--trigger-for: {} contradicts --trigger {}; give one of them",
                                   format_duration(s.trigger_for), s.trigger.text));
  }
  s.baseline =
      OPENLOOP_TRY(parse_duration(phase(f.baseline_for_option, f.baseline_for, "4s"), "--baseline-for"));
  s.observe =
      OPENLOOP_TRY(parse_duration(phase(f.observe_for_option, f.observe_for, "10s"), "--observe-for"));
  s.warmup = OPENLOOP_TRY(parse_duration(phase(f.warmup_option, f.warmup, "2s"), "--warmup"));
  s.window = OPENLOOP_TRY(parse_duration(phase(f.window_option, f.window, "2s"), "--window"));
  s.descend = f.descend;
  s.descend_step = OPENLOOP_TRY(parse_fraction(f.descend_step, "--descend-step"));
  if (!f.descend_for.empty()) s.descend_for = OPENLOOP_TRY(parse_duration(f.descend_for, "--descend-for"));
  s.repeats = f.repeats;
  return s;
}

void add_probe_options(CLI::App& sub, RunOptions& o, ProbeFlags& f) {
  add_target_options(sub, o);
  sub.get_option("target")->required(false);  // the requests may come from --targets
  add_plan_input_options(sub, o);
  add_client_options(sub, o);
  add_retry_options(sub, o.retry);
  add_output_options(sub, o);
  sub.get_option("target")->description(
      "Target URL (http:// or https://; grpc:// or grpcs:// with --call), or none with --targets");
  sub.get_option("--json")->description(
      "Write the probe (schema openloop.probe/1: verdict, signals, and every run's results) to FILE, "
      "atomically");
  sub.get_option("--html")->description(
      "Write a self-contained HTML report (phases shaded over goodput, throughput and p99) to FILE, "
      "atomically");
  for (const char* unsupported : {"--hlog", "--abort-on-slo", "--report-dir"}) {
    if (CLI::Option* opt = sub.get_option_no_throw(unsupported)) sub.remove_option(opt);
  }
  add_own_options(sub, f);
  add_grpc_options(sub, f.grpc);
  add_observe_option(sub, o.observe);
  add_metrics_options(sub, o,
                      "each phase of each run (series labelled repeat and phase), the probe's verdict");
}

}  // namespace openloop::cli
