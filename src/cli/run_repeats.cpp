// `openloop run --repeat N [--cooldown D]`: N independent runs of one plan (each with its own derived seed),
// idle and a lab reset between them, every repeat kept and the spread across them judged (results/merging/repeats.h).
#include "cli/run_repeats.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <unistd.h>

#include "cli/front_half.h"
#include "cli/grpc_options.h"
#include "cli/option_checks.h"
#include "cli/plan_builder.h"
#include "cli/plan_host.h"
#include "cli/run_pipeline.h"
#include "cli/start_options.h"
#include "core/units.h"
#include "net/url.h"
#include "lab/control_client.h"
#include "report/hlog_export.h"
#include "report/html/html.h"
#include "report/junit.h"
#include "report/summary.h"
#include "report/summary_legend.h"
#include "results/merging/repeats.h"
#include "results/files/results_json.h"

namespace openloop::cli {
namespace {

using SteadyNow = std::chrono::steady_clock;

/// How long a lab may take to empty its queue between repeats before the reset is reported as failed.
constexpr std::chrono::seconds k_drain_limit{30};
/// How often the wait for the cooldown's end or the lab's drain looks at the stop flag (Ctrl-C).
constexpr std::chrono::milliseconds k_poll{20};

struct RepeatedRun {
  results::RepeatSet set;
  results::RunResults total;
  std::vector<results::PercentileSpread> spreads;
};

// The spill files every repeat (and their sum) is parked in, for the output pipeline's check.
std::vector<std::shared_ptr<const results::SpillFile>> spill_files(const RepeatedRun& r) {
  std::vector<std::shared_ptr<const results::SpillFile>> files = results::spill_files(r.total);
  for (const auto& run : r.set.runs) results::add_spill_files(run, files);
  return files;
}

// Flags that --repeat does not combine with yet: each names what it would need.
Result<void> refuse_combinations(const RunOptions& o) {
  const auto refuse = [](const char* flag) {
    return usage_error(fmt::format("--repeat: not supported with {} yet (drop one of them)", flag));
  };
  if (is_plan_file(o.url)) {
    return usage_error("--repeat: not supported with a scenario file yet (use it with a run from flags)");
  }
  if (!o.until.empty()) return refuse("--until");
  if (o.abort_on_slo) return refuse("--abort-on-slo");
  if (!o.metrics_listen.empty()) return refuse("--metrics-listen");
  if (!o.observe.empty()) return refuse("--observe");
  if (!o.log_requests.empty()) return refuse("--log-requests");
  if (!o.start_at.empty()) return refuse("--start-at");
  if (!o.shard.empty()) return refuse("--shard");
  return {};
}

// Waits `d` unless a stop is requested; returns the time actually waited.
double idle(Nanos d, const std::atomic<int>& stop) {
  const auto from = SteadyNow::now();
  const auto until = from + d;
  while (stop.load() == 0 && SteadyNow::now() < until) {
    std::this_thread::sleep_for(std::min<Nanos>(k_poll, until - SteadyNow::now()));
  }
  return std::chrono::duration<double>(SteadyNow::now() - from).count();
}

// A count from the lab's stats: 0 when the lab does not report it, −1 when it is not a number (an answer we
// cannot read is never "idle").
double stat(const nlohmann::json& stats, const char* field) {
  const auto it = stats.find(field);
  if (it == stats.end()) return 0;
  return it->is_number() ? it->get<double>() : -1.0;
}

// The lab's model is at rest: nothing queued, held, in service or waiting on its dependency.
bool lab_idle(const nlohmann::json& stats) {
  for (const char* field :
       {"queue_depth", "held", "busy_workers", "dependency_in_use", "dependency_waiting"}) {
    if (stat(stats, field) != 0) return false;
  }
  return true;
}

// The worst of the repeats' exit codes (DESIGN.md order: interrupted, unreachable, invalid, SLO), saying on
// stderr which repeat made it so.
int worst_exit_code(const RepeatedRun& r, const std::string& command) {
  const int order[] = {static_cast<int>(ExitCode::interrupted), static_cast<int>(ExitCode::runtime),
                       static_cast<int>(ExitCode::invalid_run), static_cast<int>(ExitCode::slo_failed)};
  std::vector<int> codes;
  for (const auto& run : r.set.runs) codes.push_back(exit_code_for(run));
  for (const int code : order) {
    for (std::size_t k = 0; k < codes.size(); ++k) {
      if (codes[k] != code) continue;
      if (code == static_cast<int>(ExitCode::invalid_run)) {
        std::string why;
        for (const auto& reason : r.set.runs[k].verdict.reasons) why += "; " + reason;
        fmt::print(stderr, "{}: repeat {} of {} is INVALID{}\n", command, k + 1, r.set.runs.size(), why);
      } else if (code == static_cast<int>(ExitCode::runtime)) {
        return run_exit_code(r.set.runs[k], fmt::format("{} (repeat {})", command, k + 1));
      }
      return code;
    }
  }
  return static_cast<int>(ExitCode::ok);
}

std::vector<OutputFile<RepeatedRun>> repeat_outputs(const RunOptions& o) {
  const std::string source = o.json.empty() ? std::string("this run") : o.json;
  return {
      {"--json", o.json,
       [](const RepeatedRun& r) -> Result<std::string> {
         nlohmann::json j = results::to_json(r.total);
         j.update(results::repeats_json(r.set, r.spreads));
         return json_text(j);
       }},
      {"--hlog", o.hlog, [](const RepeatedRun& r) { return report::render_interval_log(r.total); }},
      {"--html", o.html,
       [source](const RepeatedRun& r) -> Result<std::string> {
         report::ReportInput in;
         in.source = source;
         in.results = r.total;
         in.document = results::to_json(r.total);
         in.document.update(results::repeats_json(r.set, r.spreads));
         return report::render_html(in);
       }},
      {"--junit", o.junit,
       [](const RepeatedRun& r) -> Result<std::string> {
         return report::render_junit(report::junit_for_run(r.total));
       }},
  };
}

}  // namespace

// Before a repeat: restarts the lab's model (cache emptied, a stall in progress ended, the stall clock at
// zero), waits until the requests left from the previous repeat have drained from it, so one repeat's queue
// does not leak into the next, and restarts it again so the repeat meets the lab as the first repeat met a
// fresh one.
void reset_lab(const lab::ControlClient& lab, const std::atomic<int>& stop,
               results::RepeatContext& c) {
  const auto from = SteadyNow::now();
  const auto restart = [&] {
    auto done = lab.post_config({{"restart", true}});
    if (!done) {
      c.reset = "failed";
      c.reset_detail = done.error().message;
    }
    return done.has_value();
  };
  if (!restart()) return;
  nlohmann::json stats = nlohmann::json::object();
  while (stop.load() == 0) {
    auto s = lab.stats();
    if (!s) {
      c.reset = "failed";
      c.reset_detail = s.error().message;
      return;
    }
    stats = std::move(*s);
    if (lab_idle(stats)) {
      if (!restart()) return;
      c.reset = "done";
      c.reset_detail = fmt::format("model restarted, idle after {:.3f} s (nothing queued or in service)",
                                   std::chrono::duration<double>(SteadyNow::now() - from).count());
      return;
    }
    if (SteadyNow::now() - from > k_drain_limit) break;
    std::this_thread::sleep_for(k_poll);
  }
  c.reset = "failed";
  c.reset_detail = fmt::format("the lab still had {} queued and {} in service after {:.1f} s{}",
                               stat(stats, "queue_depth"), stat(stats, "busy_workers"),
                               std::chrono::duration<double>(SteadyNow::now() - from).count(),
                               stop.load() != 0 ? " (interrupted)" : "");
}

std::optional<lab::ControlClient> find_lab(const engine::RunPlan& plan) {
  // A grpc:// target's plan.url is its http:// twin, where `openloop lab --grpc` answers its control endpoint
  // (HTTP/1.1 on its h2c port).
  const bool grpc = plan.url_text.rfind("grpc://", 0) == 0;
  auto url = grpc ? Result<net::Url>(plan.url) : net::parse_url(plan.url_text, "URL");
  if (!url || url->scheme != "http") return std::nullopt;
  auto client = lab::ControlClient::create(lab::default_control_url(*url),
                                                  std::chrono::seconds(2), "--repeat");
  if (!client || !client->config()) return std::nullopt;
  return std::move(*client);
}

void add_repeat_options(CLI::App& sub, RunOptions& o) {
  sub.add_option(
         "--repeat", o.repeat,
         "Run the plan N times (2 to 100), one after the other, each with its own seed derived from "
         "--seed; every repeat is kept, the totals add them up, and the summary gives each percentile's "
         "spread across repeats (docs/statistics.md, Repeats). Against the lab, its model is reset "
         "between repeats")
      ->type_name("N")
      ->group(help_group::judging);
  sub.add_option("--cooldown", o.cooldown, "With --repeat: idle time between repeats (default 0)")
      ->type_name("DURATION")
      ->group(help_group::judging);
}

Result<std::uint64_t> parse_repeat_count(const std::string& text) {
  const auto bad = [&text] {
    return usage_error(
        fmt::format("--repeat: '{}' is not a count of repeats: give a whole number from 2 to {}", text,
                    results::k_max_repeats));
  };
  if (text.empty() || text.size() > 4 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return bad();
  }
  const std::uint64_t count = std::stoull(text);
  if (count < 2 || count > results::k_max_repeats) return bad();
  return count;
}

Result<RepeatSettings> parse_repeat_options(const RunOptions& o) {
  RepeatSettings s;
  if (o.repeat.empty()) {
    if (!o.cooldown.empty()) return usage_error("--cooldown: has no effect without --repeat N");
    return s;
  }
  s.count = OPENLOOP_TRY(parse_repeat_count(o.repeat));
  if (!o.cooldown.empty()) {
    s.cooldown = OPENLOOP_TRY(parse_duration(o.cooldown, "--cooldown"));
    if (s.cooldown > std::chrono::hours(1)) {
      return usage_error(fmt::format("--cooldown: {} is longer than the 1h accepted", o.cooldown));
    }
  }
  OPENLOOP_TRY_VOID(refuse_combinations(o));
  return s;
}

int run_repeated(const RunOptions& o, const RepeatSettings& s, const GrpcCall* grpc) {
  const std::string command = "openloop run";
  std::vector<engine::RunPlan> plans;
  std::vector<std::uint64_t> seeds;
  const HostFacts host = host_facts();
  for (std::uint64_t k = 1; k <= s.count; ++k) {
    RunOptions each = o;
    each.seed = results::repeat_seed(o.seed, k);
    auto plan = build_plan(each, host);
    if (!plan) return report_error(command, plan.error());
    if (grpc != nullptr) {
      if (auto applied = apply_grpc_call(*grpc, *plan); !applied)
        return report_error(command, applied.error());
    }
    if (plan->shard.sharded())
      return report_error(command, usage_error("--repeat: not supported with a sharded run "
                                               "(--shard or the environment) yet")
                                       .value());
    seeds.push_back(each.seed);
    plans.push_back(std::move(*plan));
  }
  std::vector<engine::RunPlan*> each_plan;
  for (auto& plan : plans) each_plan.push_back(&plan);
  if (auto resolved = resolve_target(each_plan); !resolved) return report_error(command, resolved.error());
  auto start = prepare_start(o, plans.front().describe());
  if (!start) return report_error(command, start.error());
  if (start->manifest) {
    return report_error(command,
                        usage_error("--repeat: not supported with --run-id or OPENLOOP_RUN_ID yet (the "
                                    "manifest covers one run)")
                            .value());
  }
  // As a single run judges them: a flow's time (flow:...) and its steps by request (--abort-on-slo is refused
  // above, so nothing is watched).
  auto judging = prepare_judging(o, plans);
  if (!judging) return report_error(command, judging.error());
  const std::vector<results::Slo>* slos = &judging->slos;
  const std::optional<lab::ControlClient> lab = find_lab(plans.front());

  Pipeline<RepeatedRun> p;
  p.command = command;
  p.outputs = repeat_outputs(o);
  p.announce = o.quiet || isatty(fileno(stderr)) == 0;
  p.run = [&](std::atomic<int>& stop) -> Result<RepeatedRun> {
    RepeatedRun out;
    out.set.planned = s.count;
    out.set.cooldown_s = to_seconds(s.cooldown);
    out.set.lab = lab.has_value();
    for (std::size_t k = 0; k < plans.size() && stop.load() == 0; ++k) {
      results::RepeatContext c;
      c.seed = seeds[k];
      if (k > 0) {
        if (!o.quiet && s.cooldown.count() > 0) {
          fmt::print(stderr, "cooldown {:g} s before repeat {}/{}\n", to_seconds(s.cooldown), k + 1,
                     plans.size());
        }
        c.cooldown_s = idle(s.cooldown, stop);
        if (stop.load() != 0) break;
        if (lab) reset_lab(*lab, stop, c);
        if (stop.load() != 0) break;
      }
      if (!o.quiet) {
        fmt::print(stderr, "repeat {}/{} (seed {}){}\n", k + 1, plans.size(), c.seed,
                   c.reset == "none" ? "" : fmt::format(", lab reset {}: {}", c.reset, c.reset_detail));
      }
      auto ran = run_with_live_view(plans[k], o, stop, nullptr, nullptr, nullptr, nullptr);
      if (!ran) {
        if (out.set.runs.empty()) return tl::unexpected(ran.error());
        // Results so far are kept: the failure ends the repeats and is said in the totals' warnings.
        out.total.warnings.push_back(fmt::format("repeat {} failed: {}", k + 1, ran.error().message));
        break;
      }
      results::RunResults r = std::move(*ran);
      r.slos = results::evaluate_slos(*slos, r);
      stamp_context(r, plans[k], std::chrono::system_clock::now());
      stamp_start(*start, r);
      r.dns_ns = plans[k].dns_time.count();
      r.info.plan["seed"] = c.seed;
      out.set.runs.push_back(std::move(r));
      out.set.contexts.push_back(std::move(c));
    }
    const auto failures = out.total.warnings;
    out.total = results::add_repeats(out.set.runs);
    out.total.warnings.insert(out.total.warnings.end(), failures.begin(), failures.end());
    if (out.set.runs.size() < s.count) {
      out.total.interrupted = out.total.interrupted || stop.load() != 0;
      out.total.warnings.push_back(
          fmt::format("{} of {} repeats ran (the rest were not started)", out.set.runs.size(), s.count));
    }
    out.total.info.plan["seed"] = o.seed;
    out.total.info.plan["repeat"] = s.count;
    out.total.info.plan["cooldown_s"] = to_seconds(s.cooldown);
    out.total.info.plan["repeat_seeds"] = seeds;
    out.total.slos = results::evaluate_slos(*slos, out.total);
    out.spreads = results::percentile_spreads(out.set.runs);
    if (results::variation_dominates(out.spreads)) out.total.warnings.push_back(results::k_variation_flag);
    return out;
  };
  p.summary = [legend = wants_legend(o, p.summary_to)](const RepeatedRun& r) {
    return report::render_summary(r.total) + results::render_repeats(r.set, r.spreads) +
           (legend ? report::render_legend(r.total) : std::string());
  };
  p.exit_code = [&command](const RepeatedRun& r) {
    const int worst = worst_exit_code(r, command);
    // Interrupted between repeats: every repeat that ran is whole, but the set is not.
    return r.total.interrupted ? static_cast<int>(ExitCode::interrupted) : worst;
  };
  return execute(p);
}

}  // namespace openloop::cli
