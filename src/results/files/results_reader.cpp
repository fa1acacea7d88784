// JSON → RunResults: every value is type-checked and every error names the file and the JSON path.
#include "results/files/results_reader.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/redact.h"
#include "hdr/codec.h"
#include "results/json_reader.h"
#include "results/files/measurements_reader.h"
#include "results/files/observed_json.h"
#include "results/files/results_json.h"
#include "results/judging/slo.h"

namespace openloop::results {
namespace {

using nlohmann::json;

Result<void> read_head(const JsonReader& rd, const JsonNode& root, RunResults& r) {
  const std::string schema = OPENLOOP_TRY(rd.string(root, "schema"));
  if (schema != k_results_schema) {
    return rd.fail(root.path + "/schema",
                   fmt::format("\"{}\" is not supported (expected \"{}\")", schema, k_results_schema));
  }
  const JsonNode verdict = OPENLOOP_TRY(rd.field(root, "verdict", JsonKind::object));
  r.verdict.valid = OPENLOOP_TRY(rd.boolean(verdict, "valid"));
  r.interrupted = rd.has(verdict, "interrupted") && OPENLOOP_TRY(rd.boolean(verdict, "interrupted"));
  if (rd.has(verdict, "aborted_by_slo"))
    r.aborted_by_slo = OPENLOOP_TRY(rd.string(verdict, "aborted_by_slo"));
  r.verdict.reasons = OPENLOOP_TRY(rd.strings(verdict, "reasons"));
  const std::string model = OPENLOOP_TRY(rd.string(root, "model"));
  const auto parsed_model = parse_model(model);
  if (!parsed_model) {
    return rd.fail(root.path + "/model", fmt::format("\"{}\" is not a model (expected open, closed, pacing, "
                                                     "sessions, mixed or unknown)", model));
  }
  r.info.model = *parsed_model;
  const JsonNode summary = OPENLOOP_TRY(rd.field(root, "summary", JsonKind::object));
  r.totals = OPENLOOP_TRY(counts_at(rd, summary));
  r.measured_s = OPENLOOP_TRY(rd.number(summary, "duration_s"));
  r.info.offered_rps = rd.has(summary, "planned_rps") ? OPENLOOP_TRY(rd.number(summary, "planned_rps")) : 0.0;
  if (rd.has(summary, "flows")) {
    const JsonNode flows = OPENLOOP_TRY(rd.field(summary, "flows", JsonKind::object));
    r.flows = OPENLOOP_TRY(read_flows(rd, flows));
    if (rd.has(flows, "configured_iterations_per_s")) {
      r.info.configured_iterations_per_s = OPENLOOP_TRY(rd.number(flows, "configured_iterations_per_s"));
    }
  }
  OPENLOOP_TRY_VOID(read_phases(rd, summary, r));
  if (rd.has(summary, "server_timing")) {  // the histograms are the intervals' sum (read_interval)
    const JsonNode st = OPENLOOP_TRY(rd.field(summary, "server_timing", JsonKind::object));
    r.server_timing.negative = OPENLOOP_TRY(rd.count_or(st, "negative_outside", 0));
    r.server_timing.malformed = OPENLOOP_TRY(rd.count_or(st, "malformed", 0));
    r.server_timing.no_duration = OPENLOOP_TRY(rd.count_or(st, "no_duration", 0));
    if (rd.has(st, "cache")) {
      const JsonNode cache = OPENLOOP_TRY(rd.field(st, "cache", JsonKind::object));
      r.server_timing.cache_off = OPENLOOP_TRY(rd.count_or(cache, "off", 0));
      r.server_timing.cache_hit = OPENLOOP_TRY(rd.count_or(cache, "hit", 0));
      r.server_timing.cache_miss = OPENLOOP_TRY(rd.count_or(cache, "miss", 0));
    }
  }
  if (rd.has(summary, "request_log")) {
    const JsonNode log = OPENLOOP_TRY(rd.field(summary, "request_log", JsonKind::object));
    r.logged = true;
    r.log_written = OPENLOOP_TRY(rd.count(log, "written"));
    r.log_dropped = OPENLOOP_TRY(rd.count(log, "dropped"));
  }
  if (rd.has(summary, "error_examples")) {
    const JsonNode examples = OPENLOOP_TRY(rd.field(summary, "error_examples", JsonKind::object));
    for (const auto& [kind, message] : examples.value->items())
      r.error_examples.emplace_back(kind, OPENLOOP_TRY(rd.string(examples, kind)));
  }
  return {};
}

Result<void> read_warnings(const JsonReader& rd, const JsonNode& root, RunResults& r) {
  r.warnings = OPENLOOP_TRY(rd.strings_or_empty(root, "warnings"));
  return {};
}

// A replay with --session-key; absent for other runs and in files written before the counts were saved.
Result<void> read_replay_sessions(const JsonReader& rd, const JsonNode& root, RunResults& r) {
  if (!rd.has(root, "replay_sessions")) return {};
  const JsonNode n = OPENLOOP_TRY(rd.field(root, "replay_sessions", JsonKind::object));
  ReplaySessionStats& s = r.replay_sessions;
  s.replayed = true;
  s.delayed = OPENLOOP_TRY(rd.count(n, "delayed"));
  s.delay_s = OPENLOOP_TRY(rd.number(n, "delay_s"));
  s.sessions_peak = OPENLOOP_TRY(rd.count(n, "sessions_peak"));
  s.held_peak = OPENLOOP_TRY(rd.count(n, "held_peak"));
  s.dropped = OPENLOOP_TRY(rd.count(n, "dropped"));
  return {};
}

Result<void> read_generator(const JsonReader& rd, const JsonNode& root, RunResults& r) {
  if (rd.has(root, "warmup")) {
    const JsonNode w = OPENLOOP_TRY(rd.field(root, "warmup", JsonKind::object));
    r.info.warmup_s = OPENLOOP_TRY(rd.number(w, "duration_s"));
    r.warmup = OPENLOOP_TRY(counts_at(rd, w));
  }
  if (!rd.has(root, "generator")) return {};
  const JsonNode g = OPENLOOP_TRY(rd.field(root, "generator", JsonKind::object));
  r.generator.threads = static_cast<unsigned>(OPENLOOP_TRY(rd.count(g, "threads")));
  r.generator.cpu_seconds = OPENLOOP_TRY(rd.number(g, "cpu_s"));
  // Absent in files written before workers spun through short waits.
  r.generator.spin_seconds = rd.has(g, "spin_s") ? OPENLOOP_TRY(rd.number(g, "spin_s")) : 0.0;
  r.generator.spin_below_us = rd.has(g, "spin_below_us") ? OPENLOOP_TRY(rd.number(g, "spin_below_us")) : 0.0;
  r.generator.wall_seconds = OPENLOOP_TRY(rd.number(g, "wall_s"));
  r.generator.max_connections = OPENLOOP_TRY(rd.count_or(g, "max_connections", 0));
  r.generator.peak_connections = OPENLOOP_TRY(rd.count_or(g, "peak_connections", 0));
  r.generator.abandoned = OPENLOOP_TRY(rd.count_or(g, "abandoned", 0));  // absent before it was counted
  if (rd.has(g, "connections_by_protocol")) {  // absent before HTTP/2
    const JsonNode p = OPENLOOP_TRY(rd.field(g, "connections_by_protocol", JsonKind::object));
    r.generator.connections_h1 = OPENLOOP_TRY(rd.count_or(p, "h1", 0));
    r.generator.connections_h2 = OPENLOOP_TRY(rd.count_or(p, "h2", 0));
  }
  r.generator.max_rss_kb = static_cast<std::int64_t>(OPENLOOP_TRY(rd.count_or(g, "max_rss_kb", 0)));
  // Absent in files written before the coordinator's CPU was measured, and in simulated runs.
  if (rd.has(g, "coordinator_cpu_ms")) {
    const JsonNode c = OPENLOOP_TRY(rd.field(g, "coordinator_cpu_ms", JsonKind::object));
    r.generator.coordinator_rounds = OPENLOOP_TRY(rd.count(c, "rounds"));
    r.generator.coordinator_cpu_ms_mean = OPENLOOP_TRY(rd.number(c, "mean"));
    r.generator.coordinator_cpu_ms_max = OPENLOOP_TRY(rd.number(c, "max"));
    r.generator.coordinator_merge_ms_max = OPENLOOP_TRY(rd.number(c, "merge_max"));
    r.generator.coordinator_clear_ms_max = OPENLOOP_TRY(rd.number(c, "clear_max"));
    r.generator.coordinator_progress_ms_max = OPENLOOP_TRY(rd.number(c, "progress_max"));
  }
  // Absent where unknown: files written before they were measured, simulated runs, no /proc.
  if (rd.has(g, "steal_share")) {
    const double s = OPENLOOP_TRY(rd.number(g, "steal_share"));
    if (!(s >= 0 && s <= 1)) return rd.fail(g.path + "/steal_share", fmt::format("{} is not a share (0 to 1)", s));
    r.generator.steal_share = s;
  }
  if (rd.has(g, "run_delay_s")) {
    const double s = OPENLOOP_TRY(rd.number(g, "run_delay_s"));
    if (!(s >= 0)) return rd.fail(g.path + "/run_delay_s", fmt::format("{} is not a duration (>= 0 s)", s));
    r.generator.run_delay_seconds = s;
  }
  return {};
}

// "slos": each objective parsed again from its text, its outcome as written (values back in the threshold's
// unit).
Result<void> read_slos(const JsonReader& rd, const JsonNode& root, RunResults& r) {
  if (!rd.has(root, "slos")) return {};
  const JsonNode slos = OPENLOOP_TRY(rd.field(root, "slos", JsonKind::array));
  for (std::size_t k = 0; k < slos.value->size(); ++k) {
    const JsonNode n = OPENLOOP_TRY(rd.element(slos, k, JsonKind::object));
    const std::string text = OPENLOOP_TRY(rd.string(n, "slo"));
    auto slo = parse_slo(text, "slo");
    if (!slo) return rd.fail(n.path + "/slo", slo.error().message);
    SloResult s;
    s.slo = std::move(*slo);
    if (rd.has(n, "default")) s.slo.is_default = OPENLOOP_TRY(rd.boolean(n, "default"));
    s.evaluated = OPENLOOP_TRY(rd.boolean(n, "evaluated"));
    s.met = OPENLOOP_TRY(rd.boolean(n, "met"));
    const double scale = OPENLOOP_TRY(rd.string(n, "unit")) == "ms" ? 1e6 : 1.0;
    if (s.evaluated) s.measured = OPENLOOP_TRY(rd.number(n, "measured")) * scale;
    s.threshold_text = OPENLOOP_TRY(rd.string(n, "threshold_text"));
    s.measured_text = OPENLOOP_TRY(rd.string(n, "measured_text"));
    r.slos.push_back(std::move(s));
  }
  return {};
}

// The plan's fields that reports read with a type (the stages table, the retry block, Little's law, the
// coalescing note, the headers) must have that type; any other plan field is kept as written and shown as
// JSON. Credentials in headers and in the target (files written before they were redacted) are redacted.
Result<void> check_plan(const JsonReader& rd, const JsonNode& plan, json& kept) {
  for (const char* key : {"think_mean_s", "coalesce_us", "duration_s", "timeout_s", "users"}) {
    if (rd.has(plan, key)) OPENLOOP_TRY_VOID(rd.field(plan, key, JsonKind::number));
  }
  for (const char* key : {"target", "arrival", "model"}) {
    if (rd.has(plan, key)) OPENLOOP_TRY_VOID(rd.field(plan, key, JsonKind::string));
  }
  if (rd.has(plan, "stages")) {
    const JsonNode stages = OPENLOOP_TRY(rd.field(plan, "stages", JsonKind::array));
    for (std::size_t k = 0; k < stages.value->size(); ++k) {
      const JsonNode stage = OPENLOOP_TRY(rd.element(stages, k, JsonKind::object));
      OPENLOOP_TRY_VOID(rd.number(stage, "duration_s"));
      OPENLOOP_TRY_VOID(rd.number(stage, "target_rps"));
    }
  }
  if (rd.has(plan, "retry")) {
    const JsonNode retry = OPENLOOP_TRY(rd.field(plan, "retry", JsonKind::object));
    if (rd.has(retry, "attempts")) OPENLOOP_TRY_VOID(rd.number(retry, "attempts"));
  }
  if (rd.has(plan, "headers")) {
    const JsonNode headers = OPENLOOP_TRY(rd.field(plan, "headers", JsonKind::array));
    for (std::size_t k = 0; k < headers.value->size(); ++k) {
      const JsonNode h = OPENLOOP_TRY(rd.element(headers, k, JsonKind::string));
      kept["headers"][k] = redact_header_line(h.value->get<std::string>());
    }
  }
  if (rd.has(plan, "target")) kept["target"] = redact_url(kept["target"].get<std::string>());
  return {};
}

// The plan and environment are kept as written (the plan checked by check_plan); the few typed facts reports
// use are taken from them when present.
Result<void> read_context(const JsonReader& rd, const JsonNode& root, RunResults& r) {
  const auto text = [](const json& obj, const char* key) {
    return obj.contains(key) && obj[key].is_string() ? obj[key].get<std::string>() : std::string();
  };
  const auto num = [](const json& obj, const char* key) {
    return obj.contains(key) && obj[key].is_number() ? obj[key].get<double>() : 0.0;
  };
  if (rd.has(root, "plan") && (*root.value)["plan"].is_object()) {
    const JsonNode plan = OPENLOOP_TRY(rd.field(root, "plan", JsonKind::object));
    r.info.plan = *plan.value;
    OPENLOOP_TRY_VOID(check_plan(rd, plan, r.info.plan));
    r.info.target = text(r.info.plan, "target");
    r.info.arrival = text(r.info.plan, "arrival");
    r.info.duration_s = num(r.info.plan, "duration_s");
    r.info.timeout_s = num(r.info.plan, "timeout_s");
    const double users = num(r.info.plan, "users");
    r.info.users = users > 0 && users < 1e18 ? static_cast<std::uint64_t>(users) : 0;
  }
  if (rd.has(root, "run_id")) r.info.run_id = OPENLOOP_TRY(rd.string(root, "run_id"));
  if (rd.has(root, "plan_hash")) r.info.plan_hash = OPENLOOP_TRY(rd.string(root, "plan_hash"));
  if (rd.has(root, "start")) {
    const JsonNode start = OPENLOOP_TRY(rd.field(root, "start", JsonKind::object));
    StartTiming& t = r.info.start;
    t.at_unix_s = OPENLOOP_TRY(rd.number(start, "at_unix_s"));
    t.lag_s = OPENLOOP_TRY(rd.number(start, "lag_s"));
    const json& clock = (*start.value).contains("clock") ? (*start.value)["clock"] : json();
    if (clock.is_object()) {
      t.clock_known = clock.value("known", false);
      t.clock_synchronized = clock.value("synchronized", false);
      t.clock_maxerror_s = num(clock, "maxerror_s");
      t.clock_esterror_s = num(clock, "esterror_s");
    }
  }
  if (rd.has(root, "environment") && (*root.value)["environment"].is_object()) {
    r.info.environment = (*root.value)["environment"];
    r.info.start_unix_s = num(r.info.environment, "start_unix_s");
    r.info.environment.erase("start_unix_s");  // to_json writes both back from info.start_unix_s
    r.info.environment.erase("start_utc");
  }
  return {};
}

// One complete results object: the document itself, or one of its scenarios.
Result<void> read_run(const JsonReader& rd, const JsonNode& node, RunResults& r) {
  OPENLOOP_TRY_VOID(read_head(rd, node, r));
  OPENLOOP_TRY_VOID(read_generator(rd, node, r));
  OPENLOOP_TRY_VOID(read_warnings(rd, node, r));
  OPENLOOP_TRY_VOID(read_replay_sessions(rd, node, r));
  OPENLOOP_TRY_VOID(read_slos(rd, node, r));
  OPENLOOP_TRY_VOID(read_context(rd, node, r));
  OPENLOOP_TRY_VOID(read_intervals(rd, node, r));
  OPENLOOP_TRY_VOID(read_by_request(rd, node, r));
  if (auto observed = read_observed(*node.value, r); !observed)
    return rd.fail(node.path + "/summary/observed", observed.error().message);
  if (rd.has(node, "source")) r.info.source = OPENLOOP_TRY(rd.string(node, "source"));
  if (rd.has(node, "checks"))
    r.checks =
        OPENLOOP_TRY(run_checks_from_json(rd, JsonNode{&node.value->at("checks"), node.path + "/checks"}));
  return {};
}

// "scenarios": each scenario's own results (name, offset), which must add up to the combined run above them.
Result<void> read_scenarios(const JsonReader& rd, const JsonNode& root, RunResults& r) {
  if (!rd.has(root, "scenarios")) return {};
  const JsonNode list = OPENLOOP_TRY(rd.field(root, "scenarios", JsonKind::array));
  Counters sum;
  for (std::size_t k = 0; k < list.value->size(); ++k) {
    const JsonNode n = OPENLOOP_TRY(rd.element(list, k, JsonKind::object));
    if (rd.has(n, "scenarios")) return rd.fail(n.path + "/scenarios", "a scenario cannot hold scenarios");
    ScenarioResults part;
    part.name = OPENLOOP_TRY(rd.string(n, "name"));
    part.offset_s = OPENLOOP_TRY(rd.number(n, "offset_s"));
    OPENLOOP_TRY_VOID(read_run(rd, n, part.results));
    sum.add(part.results.totals);
    r.scenarios.push_back(std::move(part));
  }
  if (!r.scenarios.empty() && !same_outcomes(sum, r.totals)) {
    return rd.fail("/summary/counts",
                   fmt::format("the scenarios add up to {} intended, {} completed, but the summary says {}, "
                               "{}: the file is inconsistent",
                               sum.intended, sum.completed, r.totals.intended, r.totals.completed));
  }
  return {};
}

// "3:7" (line:column) of a byte offset (nlohmann reports the 1-based offset of the last character read).
std::string position(std::string_view text, std::size_t byte) {
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("{}:{}", line, column);
}

}  // namespace

Result<RunResults> parse_results(std::string_view text, std::string_view source) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string detail = e.what();
    const std::size_t colon = detail.find(": ", detail.find("column"));
    if (colon != std::string::npos) detail = detail.substr(colon + 2);
    return usage_error(fmt::format("{}:{}: not a valid results file (truncated or corrupted JSON): {}",
                                   source, position(text, e.byte), detail));
  } catch (const json::exception& e) {
    // Valid JSON syntax nlohmann still refuses, e.g. a number beyond a double (out_of_range.406, "1e400").
    std::string detail = e.what();
    if (const std::size_t bracket = detail.find("] "); bracket != std::string::npos)
      detail = detail.substr(bracket + 2);
    return usage_error(fmt::format("{}: not a valid results file (corrupted JSON): {}", source, detail));
  }
  const JsonReader rd(source);
  const JsonNode top = OPENLOOP_TRY(rd.root(root, "a results object"));
  RunResults r;
  OPENLOOP_TRY_VOID(read_run(rd, top, r));
  OPENLOOP_TRY_VOID(read_scenarios(rd, top, r));
  return r;
}

Result<RunResults> read_results(const std::string& path) {
  const std::string text = OPENLOOP_TRY(read_file(path));
  return parse_results(text, path);
}

}  // namespace openloop::results
