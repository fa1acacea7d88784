// Shard runs' identity, common start and manifest (see start_options.h).
#include "cli/start_options.h"

#include <filesystem>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/sha256.h"
#include "core/units.h"
#include "results/files/results_json.h"
#include "results/run_identity.h"

namespace openloop::cli {

void add_start_options(CLI::App& sub, RunOptions& o, const char* group) {
  sub.add_option(
         "--run-id", o.run_id,
         "Name of this run in its results and manifest (default: OPENLOOP_RUN_ID; for a shard, derived "
         "from the plan and --start-at so every shard agrees; else random). merge refuses shards of "
         "different runs")
      ->type_name("ID")
      ->group(group);
  sub.add_option(
         "--start-at", o.start_at,
         "Wait until this wall-clock time (RFC 3339, e.g. 2026-12-01T10:00:00Z or +01:00), then run on "
         "the monotonic clock from there; for shards started by different hosts")
      ->type_name("TIME")
      ->group(group);
  sub.add_option("--max-late", o.max_late,
                 "With --start-at: a start later than this exits 75 with nothing sent (default 1s)")
      ->type_name("DURATION")
      ->group(group);
}

Result<StartContext> prepare_start(const RunOptions& o, const nlohmann::json& plan,
                                   const std::function<const char*(const char*)>& env) {
  StartContext c;
  c.plan_hash = results::plan_hash(plan);
  const bool sharded = plan.is_object() && plan.contains("shard");
  std::string at_text;
  if (!o.start_at.empty()) {
    StartPlan s;
    s.at = OPENLOOP_TRY(parse_rfc3339(o.start_at, "--start-at"));
    s.max_late = OPENLOOP_TRY(parse_duration(o.max_late, "--max-late"));
    s.lead = k_start_lead;
    at_text = format_rfc3339(s.at);  // spelled alike by every shard, whatever offset each was given
    c.start = s;
  } else if (o.max_late != "1s") {
    return usage_error("--max-late: has no effect without --start-at TIME");
  }
  const char* from_env = env("OPENLOOP_RUN_ID");
  if (!o.run_id.empty()) {
    c.run_id = o.run_id;
  } else if (from_env != nullptr && *from_env != '\0') {
    c.run_id = from_env;
  } else if (sharded) {
    c.run_id = results::derived_run_id(c.plan_hash, at_text);
  } else {
    c.run_id = results::random_run_id();
  }
  if (c.run_id.size() > 128 || c.run_id.find_first_of(" \t\n\r/\\\"") != std::string::npos) {
    return usage_error(
        fmt::format("--run-id: '{}' must be at most 128 characters without spaces, quotes or "
                    "slashes (e.g. load-2026-12-01)",
                    c.run_id));
  }
  c.manifest = sharded || c.start || !o.run_id.empty() || (from_env != nullptr && *from_env != '\0');
  return c;
}

Result<void> wait_for_common_start(const StartContext& c, const std::vector<engine::RunPlan*>& plans) {
  if (!c.start) return {};
  const RealWallClock clock;
  const Nanos late = OPENLOOP_TRY(wait_for_start(*c.start, clock, sleep_unless_signalled));
  // Woken late (a shard started after its lead, within --max-late): it begins once prepared, its lag
  // recorded, rather than sending the arrivals it missed in one burst. Woken on time: the schedule is
  // anchored at the start exactly, even if the preparation runs past it (shards merge by interval index).
  if (late > -c.start->lead / 2) return {};
  // The start on the steady clock: from here on the wall clock no longer matters.
  const SteadyTime now = SteadyClock::now();
  const SteadyTime at = now + std::chrono::duration_cast<Nanos>(c.start->at - clock.now());
  for (engine::RunPlan* plan : plans) plan->start_at = at;
  return {};
}

void stamp_start(const StartContext& c, results::RunResults& r) {
  r.info.run_id = c.run_id;
  r.info.plan_hash = c.plan_hash;
  if (!c.start) return;
  results::StartTiming& t = r.info.start;
  t.at_unix_s = unix_seconds(c.start->at);
  // The schedule began at the measured start less the warm-up (the engine's own wall-clock stamp).
  t.lag_s = r.info.start_unix_s - r.info.warmup_s - t.at_unix_s;
  const ClockBound b = wall_clock_bound();
  t.clock_known = b.known;
  t.clock_synchronized = b.synchronized;
  t.clock_maxerror_s = b.maxerror_s;
  t.clock_esterror_s = b.esterror_s;
}

namespace {

// The manifest's JSON: identity, shard, start, and each output file's size and SHA-256 as it is on disk.
Result<std::string> render_manifest(const StartContext& c, const std::vector<std::string>& files,
                                    const results::RunResults& r) {
  nlohmann::json m;
  m["schema"] = "openloop.manifest/1";
  m["run_id"] = r.info.run_id;
  m["plan_hash"] = c.plan_hash;
  m["shard"] =
      r.info.plan.is_object() && r.info.plan.contains("shard") ? r.info.plan["shard"] : nlohmann::json();
  m["valid"] = r.verdict.valid;
  m["start_unix_s"] = r.info.start_unix_s;
  if (c.start) {
    const results::StartTiming& t = r.info.start;
    m["start"] = {{"at", format_rfc3339(c.start->at)},
                  {"lag_s", t.lag_s},
                  {"clock", results::clock_json(t)}};
  }
  m["files"] = nlohmann::json::array();
  for (const std::string& path : files) {
    const std::string bytes = OPENLOOP_TRY(read_file(path));
    m["files"].push_back({{"path", std::filesystem::path(path).filename().string()},
                          {"bytes", bytes.size()},
                          {"sha256", sha256_hex(bytes)}});
  }
  return json_text(m);
}

}  // namespace

std::optional<OutputFile<results::RunResults>> manifest_output(
    const StartContext& c, const std::vector<OutputFile<results::RunResults>>& outputs) {
  std::string json_path;
  std::vector<std::string> files;
  for (const auto& out : outputs) {
    if (out.path.empty()) continue;
    files.push_back(out.path);
    if (std::string(out.flag) == "--json") json_path = out.path;
  }
  if (!c.manifest || json_path.empty()) return std::nullopt;
  return OutputFile<results::RunResults>{
      "the manifest", json_path + ".manifest.json",
      [c, files](const results::RunResults& r) { return render_manifest(c, files, r); }};
}

}  // namespace openloop::cli
