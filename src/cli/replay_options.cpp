// The --replay flags and the plan they build (cli/replay_options.h).
#include "cli/replay_options.h"

#include <memory>

#include <fmt/format.h>

#include "cli/option_checks.h"
#include "core/units.h"
#include "http/request.h"
#include "workload/replay_plan.h"
#include "workload/target_override.h"

namespace openloop::cli {
namespace {

constexpr const char* k_replay = "Replay";

// Flags that make no sense with a trace that gives the requests and their times.
Result<void> refuse_other_sources(const RunOptions& o) {
  const auto refuse = [](std::string_view flag, std::string_view why) {
    return usage_error(fmt::format("{}: not with --replay ({})", flag, why));
  };
  if (!o.url.empty())
    return refuse(o.url, "the trace gives the paths; give the host with --target http://host:port");
  if (!o.targets.empty()) return refuse("--targets", "the trace gives the requests");
  if (o.method != "GET") return refuse("-X", "each record gives its method");
  if (!o.body.empty()) return refuse("--body", "each record gives its body");
  if (!o.rate.empty() || !o.stages.empty() || o.vus > 0 || !o.session_rate.empty())
    return refuse(!o.rate.empty() ? "--rate" : !o.stages.empty() ? "--stages" : o.vus > 0 ? "--vus" : "--session-rate",
                  "the trace's times are the schedule; --speed scales them");
  if (!o.until.empty()) return refuse("--until", "a replay lasts its trace");
  if (!o.pacing.empty() || !o.max_rate.empty()) return refuse("--pacing/--max-rate", "a replay is an open model");
  if (!o.loop && o.duration != "10s") {
    return usage_error(
        "--duration: a replay lasts the trace's span (over --speed); --duration sets the length with --loop; "
        "--from/--to select part of the trace");
  }
  return {};
}

Result<workload::ReplayRequest> replay_request(const RunOptions& o) {
  workload::ReplayRequest r;
  r.input.path = o.replay;
  r.input.format = OPENLOOP_TRY(workload::parse_trace_format(o.replay_format, "--replay-format"));
  r.input.log_format = o.replay_log_format;
  if (!o.replay_log_format.empty() &&
      (r.input.format == workload::TraceFormat::jsonl || r.input.format == workload::TraceFormat::har)) {
    return usage_error(fmt::format("--replay-log-format: applies to nginx and apache logs, not to --replay-format {}",
                                   workload::to_string(r.input.format)));
  }
  // A log format given names a log: nginx's unless --replay-format apache says Apache's syntax.
  if (!o.replay_log_format.empty() && r.input.format == workload::TraceFormat::automatic)
    r.input.format = workload::TraceFormat::nginx;
  r.input.skip_bad = o.skip_bad;
  r.input.seed = o.seed;
  r.options.speed = OPENLOOP_TRY(workload::parse_replay_speed(o.speed, "--speed"));
  if (!o.max_gap.empty()) {
    r.options.max_gap = OPENLOOP_TRY(parse_duration(o.max_gap, "--max-gap"));
    if (r.options.max_gap.count() == 0) return usage_error("--max-gap: must be greater than 0, e.g. 5s");
  }
  if (!o.replay_from.empty()) r.options.from = OPENLOOP_TRY(parse_duration(o.replay_from, "--from"));
  if (!o.replay_to.empty()) r.options.to = OPENLOOP_TRY(parse_duration(o.replay_to, "--to"));
  if (r.options.from && r.options.to && *r.options.to <= *r.options.from)
    return usage_error(fmt::format("--to {} is not after --from {}", o.replay_to, o.replay_from));
  r.options.window = OPENLOOP_TRY(parse_duration(o.reorder_window, "--reorder-window"));
  r.loop = o.loop;
  r.keep_headers = o.keep_headers;
  r.redact_params = o.redact_params;
  if (!o.session_key.empty())
    r.options.session_key = OPENLOOP_TRY(workload::parse_session_key(o.session_key, "--session-key"));
  return r;
}

}  // namespace

void add_replay_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("--replay", o.replay,
                 "Replay a recorded trace (an nginx or Apache access log, a HAR file or canonical JSONL) against "
                 "--target: each record "
                 "sent at its own time from the run's start (docs/replay.md)")
      ->type_name("FILE")
      ->group(k_replay);
  sub.add_option("--replay-format", o.replay_format, "The trace's format: auto | nginx | apache | har | jsonl")
      ->type_name("KIND")
      ->capture_default_str()
      ->group(k_replay);
  sub.add_option("--replay-log-format", o.replay_log_format,
                 "The log format the log was written with, in nginx's syntax (or Apache's LogFormat with "
                 "--replay-format apache; default: combined, whose one-second stamps are spread within their "
                 "second by --seed); log $msec and $request_time (Apache: %{msec}t)")
      ->type_name("FORMAT")
      ->group(k_replay);
  sub.add_option("--speed", o.speed, "Replay speed: 2 = twice as fast (times divided by 2)")
      ->type_name("FACTOR")
      ->capture_default_str()
      ->group(k_replay);
  sub.add_flag("--loop", o.loop, "Replay the trace again and again (each pass shifted by its span) for --duration")
      ->group(k_replay);
  sub.add_option("--max-gap", o.max_gap, "Shorten idle gaps of the trace longer than D to D (counted)")
      ->type_name("DURATION")
      ->group(k_replay);
  sub.add_option("--from", o.replay_from, "Replay the trace from this time after its first record, e.g. 10m")
      ->type_name("DURATION")
      ->group(k_replay);
  sub.add_option("--to", o.replay_to, "Replay the trace up to this time after its first record")
      ->type_name("DURATION")
      ->group(k_replay);
  sub.add_option("--reorder-window", o.reorder_window,
                 "Records out of order by up to D of trace time are sorted; beyond, counted and sent in file order")
      ->type_name("DURATION")
      ->capture_default_str()
      ->group(k_replay);
  sub.add_option("--keep-header", o.keep_headers,
                 "Send this recorded credential header (Authorization, Cookie, ...: dropped by default; repeatable)")
      ->type_name("NAME")
      ->group(k_replay);
  sub.add_flag("--skip-bad", o.skip_bad, "Count and skip the trace's bad lines instead of refusing the file")
      ->group(k_replay);
  sub.add_option("--session-key", o.session_key,
                 "Keep each session's records in order, each after the response to the one before: the session "
                 "is ip (a log's client address), header:NAME, cookie:NAME or field (JSONL's session, HAR's "
                 "pageref); default: every record independent")
      ->type_name("KEY")
      ->group(k_replay);
}

Result<void> build_replay(const RunOptions& o, engine::RunPlan& plan) {
  OPENLOOP_TRY_VOID(refuse_other_sources(o));
  if (o.retarget.empty())
    return usage_error("--replay: needs --target http://host:port, where the trace's requests are sent");
  plan.url = OPENLOOP_TRY(workload::parse_target_override(o.retarget));
  plan.url_text = o.retarget;
  plan.insecure = o.insecure;
  plan.ca_file = o.cacert;
  plan.server_timing_metric = OPENLOOP_TRY(check_server_timing_metric(o.server_timing_metric));
  for (const auto& h : o.headers) plan.headers.push_back(OPENLOOP_TRY(http::parse_header_arg(h)));
  plan.seed = o.seed;
  plan.warmup = OPENLOOP_TRY(parse_duration(o.warmup, "--warmup"));
  workload::ReplayRequest request = OPENLOOP_TRY(replay_request(o));
  auto scanned = workload::scan_replay(std::move(request));
  // The trace's own error after where the trace was named, as a plan file puts its place there: one wording.
  if (!scanned) {
    return tl::unexpected(Error{scanned.error().code, fmt::format("--replay: {}", scanned.error().message)});
  }
  auto replay = std::make_shared<workload::ReplayPlan>(std::move(*scanned));
  if (replay->request.loop && replay->counts.records < 2) {
    return usage_error(fmt::format("--loop: the trace has {} record to replay; a loop needs at least two",
                                   replay->counts.records));
  }
  // Without --loop the run lasts the trace (its last record inside the last millisecond).
  const Nanos total = replay->request.loop ? plan.warmup + OPENLOOP_TRY(parse_duration(o.duration, "--duration"))
                                           : replay->once_length();
  if (plan.warmup >= total) {
    return usage_error(fmt::format("--warmup: {} leaves nothing to measure of a replay lasting {}",
                                   format_duration(plan.warmup), format_duration(total)));
  }
  plan.duration = total - plan.warmup;
  plan.profile = replay->mean_profile(total);
  plan.model = engine::Model::open;
  engine::RequestSpec spec;
  spec.name = "replay";
  plan.requests.push_back(std::move(spec));
  plan.replay = std::move(replay);
  return {};
}

}  // namespace openloop::cli
