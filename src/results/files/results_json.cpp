// RunResults → JSON.
#include "results/files/results_json.h"

#include <cmath>
#include <ctime>

#include <fmt/format.h>

#include "core/grpc_status.h"
#include "hdr/codec.h"
#include "results/files/observed_json.h"
#include "results/flow_steps.h"
#include "results/judging/generator_tail.h"
#include "results/judging/model_checks.h"
#include "results/judging/slo.h"
#include "results/recording/counters.h"
#include "results/run_identity.h"
#include "results/used_protocol.h"

namespace openloop::results {
namespace {

nlohmann::json counters_json(const Counters& c) {
  nlohmann::json errors = nlohmann::json::object();
  for (std::size_t i = 0; i < k_error_kinds; ++i)
    errors[std::string(to_string(static_cast<ErrorKind>(i)))] = c.errors[i];
  nlohmann::json status = nlohmann::json::object();
  const char* names[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};
  for (std::size_t i = 0; i < c.status_class.size(); ++i) status[names[i]] = c.status_class[i];
  nlohmann::json j = {{"intended", c.intended},
                      {"sent", c.sent},
                      {"completed", c.completed},
                      {"ok", c.ok},
                      {"timeouts", c.timeouts},
                      {"errors", c.errors_total()},
                      {"dropped", c.dropped},
                      {"unfinished", c.unfinished},
                      {"errors_by_kind", errors},
                      {"status_classes", status},
                      {"bytes_in", c.bytes_in},
                      {"bytes_out", c.bytes_out},
                      {"connections_opened", c.connections_opened},
                      {"attempts", c.attempts},
                      {"retries", c.retries},
                      {"retry_budget_denied", c.retry_budget_denied},
                      {"resent", c.resent},
                      {"slot_waits", c.slot_waits},
                      {"amplification", c.amplification()}};
  // gRPC calls (docs/grpc.md): the completed ones by status name, the statuses seen; only where calls
  // completed, so a file of HTTP requests reads as before.
  if (c.grpc_calls() > 0) {
    nlohmann::json grpc = nlohmann::json::object();
    for (std::size_t i = 0; i < c.grpc_status.size(); ++i)
      if (c.grpc_status[i] != 0) grpc[std::string(grpc_status_name(static_cast<int>(i)))] = c.grpc_status[i];
    j["grpc_statuses"] = std::move(grpc);
    j["grpc_messages_in"] = c.grpc_messages_in;
    j["grpc_message_bytes_in"] = c.grpc_message_bytes_in;
  }
  return j;
}

double ms(std::int64_t ns) {
  return static_cast<double>(ns) / 1e6;
}

nlohmann::json latency_json(const LatencySummary& s) {
  return {{"p50", ms(s.p50)},     {"p90", ms(s.p90)}, {"p99", ms(s.p99)},     {"p999", ms(s.p999)},
          {"p9999", ms(s.p9999)}, {"max", ms(s.max)}, {"mean", s.mean / 1e6}, {"count", s.count}};
}

// "2026-11-29T17:25:53.123Z" (millisecond precision), for people reading the file.
std::string utc_iso8601(double unix_s) {
  const auto millis = static_cast<std::int64_t>(std::floor(unix_s * 1000.0 + 0.5));
  const auto seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis % 1000);
}

nlohmann::json flows_counts_json(const FlowCounters& f) {
  nlohmann::json j = {{"iterations", f.iterations},
                      {"sessions_intended", f.sessions_intended},
                      {"sessions_completed", f.sessions_completed},
                      {"sessions_failed", f.sessions_failed},
                      {"sessions_dropped", f.sessions_dropped},
                      {"sessions_unfinished", f.sessions_unfinished}};
  // Flow steps' failures (docs/flows.md), only when some step failed a capture or a check: absent means none.
  if (f.captures_failed == 0 && f.checks_failed == 0 && f.stopped == 0) return j;
  j["captures_failed"] = f.captures_failed;
  j["checks_failed"] = f.checks_failed;
  j["stopped"] = f.stopped;
  std::size_t last = f.steps.size();
  while (last > 0 && f.steps[last - 1].empty()) --last;
  nlohmann::json steps = nlohmann::json::array();
  for (std::size_t i = 0; i < last; ++i) {
    steps.push_back({{"step", i + 1},
                     {"captures_failed", f.steps[i].captures_failed},
                     {"checks_failed", f.steps[i].checks_failed},
                     {"stopped", f.steps[i].stopped}});
  }
  j["steps"] = std::move(steps);
  return j;
}

// A flow's steps (results/flow_steps.h): each step's request's counts and response time (its histogram is the
// request's in by_request), its failed captures and checks and the sessions it stopped. Empty without steps.
nlohmann::json flow_steps_json(const RunResults& r) {
  nlohmann::json out = nlohmann::json::array();
  for (const FlowStep& s : flow_steps(r)) {
    nlohmann::json j = {{"step", s.step},
                        {"request", s.request},
                        {"captures_failed", s.failures.captures_failed},
                        {"checks_failed", s.failures.checks_failed},
                        {"stopped", s.failures.stopped}};
    if (s.counters != nullptr) j["counts"] = counters_json(*s.counters);
    if (s.response_time != nullptr)
      j["response_time_ms"] = latency_json(LatencySummary::of(*s.response_time));
    if (s.shared) j["shared"] = true;
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json flows_json(const FlowCounters& f, const hdr::Histogram& session_time, double measured_s,
                          const RunInfo& info) {
  nlohmann::json j = flows_counts_json(f);
  j["iterations_per_s"] = measured_s > 0 ? static_cast<double>(f.iterations) / measured_s : 0.0;
  if (info.configured_iterations_per_s > 0)
    j["configured_iterations_per_s"] = info.configured_iterations_per_s;
  if (session_time.total_count() > 0) j["session_time_ms"] = latency_json(LatencySummary::of(session_time));
  return j;
}

// SLO values in the file's units: latencies in ms (as every summary), shares as fractions, throughput per
// second.
const char* slo_unit(const Slo& slo) {
  switch (slo.metric) {
    case Slo::Metric::percentile:
    case Slo::Metric::mean:
    case Slo::Metric::max:
      return "ms";
    case Slo::Metric::throughput:
      return "/s";
    default:
      return "fraction";
  }
}

nlohmann::json slos_json(const RunResults& r) {
  nlohmann::json out = nlohmann::json::array();
  for (const SloResult& s : r.slos) {
    const double scale = std::string_view(slo_unit(s.slo)) == "ms" ? 1e-6 : 1.0;
    nlohmann::json j = {{"slo", s.slo.text},
                        {"metric", metric_name(s.slo)},
                        {"op", op_text(s.slo.op)},
                        {"threshold", s.slo.threshold * scale},
                        {"unit", slo_unit(s.slo)},
                        {"evaluated", s.evaluated},
                        {"met", s.evaluated && s.met},
                        {"threshold_text", s.threshold_text},
                        {"measured_text", s.measured_text}};
    if (!s.slo.request.empty()) j["request"] = s.slo.request;
    if (s.slo.is_default) j["default"] = true;  // applied because no --slo was given
    if (s.evaluated) j["measured"] = s.measured * scale;
    // A failed percentile that is mostly openloop's own send lateness says so beside it.
    if (const auto late = slo_lateness(s, r)) {
      j["lateness_share"] = late->share;
      j["lateness_note"] = slo_lateness_note(s, r);
    }
    out.push_back(std::move(j));
  }
  return out;
}

// "phases": each phase's summary and histogram, for attempts on new and on reused connections (phases with
// no sample left out), and the one DNS resolution when known.
nlohmann::json phases_json(const PhaseStats& p, std::int64_t dns_ns) {
  nlohmann::json j = nlohmann::json::object();
  if (dns_ns >= 0) j["dns_ms"] = ms(dns_ns);
  nlohmann::json hists = {{"unit", "ns"}};
  for (const bool fresh : {true, false}) {
    const char* key = fresh ? "new_connection" : "reused_connection";
    nlohmann::json side = nlohmann::json::object();
    for (std::size_t i = 0; i < k_phases; ++i) {
      const hdr::Histogram& h = p.at(fresh, static_cast<Phase>(i));
      if (h.total_count() == 0) continue;
      const std::string name(to_string(static_cast<Phase>(i)));
      side[name + "_ms"] = latency_json(LatencySummary::of(h));
      hists[key][name] = hdr::to_compressed_base64(h);
    }
    j[key] = std::move(side);
  }
  j["histograms"] = std::move(hists);
  return j;
}

// "server_timing": server-reported time and time outside the server, for responses with a usable
// Server-Timing header; the counts of what was set aside.
nlohmann::json server_timing_json(const ServerTimingStats& st) {
  nlohmann::json j = {{"responses", st.count()},
                      {"negative_outside", st.negative},
                      {"malformed", st.malformed},
                      {"no_duration", st.no_duration}};
  if (st.cache_off + st.cache_hit + st.cache_miss > 0)
    j["cache"] = {{"off", st.cache_off}, {"hit", st.cache_hit}, {"miss", st.cache_miss}};
  if (st.count() > 0) {
    j["server_time_ms"] = latency_json(LatencySummary::of(st.server_time));
    j["outside_server_ms"] = latency_json(LatencySummary::of(st.outside_server));
    j["histograms"] = {{"unit", "ns"},
                       {"server_time", hdr::to_compressed_base64(st.server_time)},
                       {"outside_server", hdr::to_compressed_base64(st.outside_server)}};
  }
  return j;
}

}  // namespace

nlohmann::json clock_json(const StartTiming& t) {
  return {{"known", t.clock_known},
          {"synchronized", t.clock_synchronized},
          {"maxerror_s", t.clock_maxerror_s},
          {"esterror_s", t.clock_esterror_s}};
}

namespace {

// Everything but `intervals` and `scenarios`, which are written apart (to_json, write_json).
nlohmann::json head_json(const RunResults& r) {
  nlohmann::json j;
  j["schema"] = k_results_schema;
  j["verdict"] = {{"valid", r.verdict.valid}, {"reasons", r.verdict.reasons}, {"interrupted", r.interrupted}};
  if (!r.aborted_by_slo.empty()) j["verdict"]["aborted_by_slo"] = r.aborted_by_slo;
  j["slos"] = slos_json(r);
  j["warnings"] = r.warnings;
  if (const ReplaySessionStats& s = r.replay_sessions; s.replayed) {
    j["replay_sessions"] = {{"delayed", s.delayed},
                            {"delay_s", s.delay_s},
                            {"sessions_peak", s.sessions_peak},
                            {"held_peak", s.held_peak},
                            {"dropped", s.dropped}};
  }
  if (!r.checks.empty()) j["checks"] = to_json(r.checks);
  j["model"] = to_string(r.info.model);
  j["summary"] = {{"counts", counters_json(r.totals)},
                  {"duration_s", r.measured_s},
                  {"offered_rps", r.offered_rps()},
                  {"planned_rps", r.info.offered_rps},
                  {"sent_rps", r.sent_rps()},
                  {"throughput_rps", r.throughput_rps()},
                  {"goodput_rps", r.goodput_rps()},
                  {"response_time_ms", latency_json(LatencySummary::of(r.response_time))},
                  {"service_time_ms", latency_json(LatencySummary::of(r.service_time))},
                  {"send_lateness_ms", latency_json(LatencySummary::of(r.send_lateness))},
                  {"attempt_time_ms", latency_json(LatencySummary::of(r.attempt_time))},
                  {"amplification", r.totals.amplification()}};
  if (r.slot_wait.total_count() > 0) j["summary"]["slot_wait_ms"] = latency_json(LatencySummary::of(r.slot_wait));
  j["warmup"] = {{"duration_s", r.info.warmup_s}, {"counts", counters_json(r.warmup)}};
  if (!r.by_request.empty()) {
    nlohmann::json by = nlohmann::json::object();
    for (std::size_t i = 0; i < r.by_request.size(); ++i) {
      const RequestTotals& t = r.by_request[i];
      const std::string name = i < r.info.request_names.size() ? r.info.request_names[i] : t.name;
      by[name] = {{"counts", counters_json(t.counters)},
                  {"throughput_rps",
                   r.measured_s > 0 ? static_cast<double>(t.counters.completed) / r.measured_s : 0.0},
                  {"goodput_rps", r.measured_s > 0 ? static_cast<double>(t.counters.ok) / r.measured_s : 0.0},
                  {"response_time_ms", latency_json(LatencySummary::of(t.response_time))},
                  {"service_time_ms", latency_json(LatencySummary::of(t.service_time))},
                  {"histograms",
                   {{"unit", "ns"},
                    {"response_time", hdr::to_compressed_base64(t.response_time)},
                    {"service_time", hdr::to_compressed_base64(t.service_time)}}}};
    }
    j["summary"]["by_request"] = std::move(by);
  }
  if (auto steps = flow_steps_json(r); !steps.empty()) j["summary"]["steps"] = std::move(steps);
  if (!r.error_examples.empty()) {
    nlohmann::json ex = nlohmann::json::object();
    for (const auto& [kind, message] : r.error_examples) ex[kind] = message;
    j["summary"]["error_examples"] = std::move(ex);
  }
  if (!r.phases.empty() || r.dns_ns >= 0) j["summary"]["phases"] = phases_json(r.phases, r.dns_ns);
  if (!r.server_timing.empty()) j["summary"]["server_timing"] = server_timing_json(r.server_timing);
  if (r.logged) j["summary"]["request_log"] = {{"written", r.log_written}, {"dropped", r.log_dropped}};
  if (r.info.model != Model::open)
    j["summary"]["flows"] = flows_json(r.flows, r.session_time, r.measured_s, r.info);
  if (r.info.model == Model::closed) {
    const double think_s = r.info.plan.value("think_mean_s", 0.0);
    if (const auto l = littles_law(r, think_s)) {
      j["summary"]["littles_law"] = {{"users", l->users},
                                     {"throughput_rps", l->throughput_rps},
                                     {"response_s", l->response_s},
                                     {"think_s", l->think_s},
                                     {"predicted_users", l->predicted_users},
                                     {"error_fraction", l->error_fraction}};
    }
  }
  if (r.info.model == Model::pacing) j["summary"]["flows"]["shortfall_intervals_s"] = pacing_shortfall(r);
  const auto& g = r.generator;
  j["generator"] = {{"threads", g.threads},
                    {"cpu_s", g.cpu_seconds},
                    {"spin_s", g.spin_seconds},
                    {"spin_below_us", g.spin_below_us},
                    {"wall_s", g.wall_seconds},
                    {"max_connections", g.max_connections},
                    {"peak_connections", g.peak_connections},
                    {"abandoned", g.abandoned},
                    {"max_rss_kb", g.max_rss_kb}};
  if (g.coordinator_rounds > 0) {
    j["generator"]["coordinator_cpu_ms"] = {
        {"rounds", g.coordinator_rounds},          {"mean", g.coordinator_cpu_ms_mean},
        {"max", g.coordinator_cpu_ms_max},         {"merge_max", g.coordinator_merge_ms_max},
        {"clear_max", g.coordinator_clear_ms_max}, {"progress_max", g.coordinator_progress_ms_max}};
  }
  // The protocol actually used: what the connections spoke (over TLS, the server's ALPN choice).
  j["generator"]["connections_by_protocol"] = {{"h1", g.connections_h1}, {"h2", g.connections_h2}};
  j["generator"]["protocol"] = used_protocol(g);
  if (g.steal_share) j["generator"]["steal_share"] = *g.steal_share;
  if (g.run_delay_seconds) j["generator"]["run_delay_s"] = *g.run_delay_seconds;
  j["plan"] = r.info.plan;
  j["plan_hash"] = plan_hash_of(r.info);
  if (!r.info.run_id.empty()) j["run_id"] = r.info.run_id;
  if (r.info.start.at_unix_s > 0) {
    const StartTiming& t = r.info.start;
    j["start"] = {{"at_unix_s", t.at_unix_s},
                  {"at_utc", utc_iso8601(t.at_unix_s)},
                  {"lag_s", t.lag_s},
                  {"clock", clock_json(t)}};
  }
  j["environment"] = r.info.environment;
  if (r.info.start_unix_s > 0) {
    j["environment"]["start_unix_s"] = r.info.start_unix_s;
    j["environment"]["start_utc"] = utc_iso8601(r.info.start_unix_s);
  }
  write_observed(j, r);
  if (!r.info.source.empty()) j["source"] = r.info.source;
  return j;
}

nlohmann::json interval_json(const RunResults& r, const IntervalResult& i) {
  nlohmann::json j({{"start_s", i.start_s},
                    {"length_s", i.length_s},
                    {"counts", counters_json(i.counters)},
                    {"response_time_ms", latency_json(i.response_time)},
                    {"service_time_ms", latency_json(i.service_time)},
                    {"send_lateness_ms", latency_json(i.send_lateness)},
                    {"attempt_time_ms", latency_json(i.attempt_time)},
                    {"histograms",
                     {{"unit", "ns"},
                      {"response_time", i.response_time_hist.text()},
                      {"service_time", i.service_time_hist.text()},
                      {"send_lateness", i.send_lateness_hist.text()},
                      {"attempt_time", i.attempt_time_hist.text()}}}});
  if (i.server_time.count > 0 || i.server_timing_malformed > 0 || i.server_timing_no_duration > 0) {
    auto& st = j["server_timing"];
    st = {{"responses", i.server_time.count},
          {"negative_outside", i.server_timing_negative},
          {"malformed", i.server_timing_malformed},
          {"no_duration", i.server_timing_no_duration}};
    if (i.server_time.count > 0) {
      st["server_time_ms"] = latency_json(i.server_time);
      st["outside_server_ms"] = latency_json(i.outside_server);
      j["histograms"]["server_time"] = i.server_time_hist.text();
      j["histograms"]["outside_server"] = i.outside_server_hist.text();
    }
  }
  if (r.info.model != Model::open) {
    j["flows"] = flows_counts_json(i.flows);
    if (i.session_time.count > 0) j["session_time_ms"] = latency_json(i.session_time);
    if (!i.session_time_hist.empty()) j["histograms"]["session_time"] = i.session_time_hist.text();
  }
  if (!i.slot_wait_hist.empty()) {
    j["slot_wait_ms"] = latency_json(i.slot_wait);
    j["histograms"]["slot_wait"] = i.slot_wait_hist.text();
  }
  if (i.coalesce_us >= 0) j["coalesce_us"] = i.coalesce_us;
  if (!i.by_request.empty()) {
    nlohmann::json by = nlohmann::json::object();
    for (std::size_t k = 0; k < i.by_request.size() && k < r.info.request_names.size(); ++k) {
      by[r.info.request_names[k]] = counters_json(i.by_request[k]);
    }
    j["by_request"] = std::move(by);
  }
  if (!r.observed.empty()) j["observed"] = observed_interval_json(r.observed, i.observed);
  return j;
}

// Writes `text` with `indent` after each of its line breaks (JSON strings hold no raw line break).
Result<void> write_indented(const WriteSink& sink, std::string_view text, std::string_view indent) {
  for (std::size_t at = text.find('\n'); at != std::string_view::npos; at = text.find('\n')) {
    OPENLOOP_TRY_VOID(sink(text.substr(0, at + 1)));
    OPENLOOP_TRY_VOID(sink(indent));
    text.remove_prefix(at + 1);
  }
  return sink(text);
}

std::string dumped(const nlohmann::json& j) {
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The text of a placeholder for a top-level array written apart: a key at one space of indent, which only a
// top-level key has, so no value of the document can look like it.
std::string placeholder(std::string_view key) {
  return fmt::format("\n \"{}\": \"\\u0001openloop:{}\\u0001\"", key, key);
}

Result<void> write_object(const RunResults& r, const nlohmann::json& extra, const WriteSink& sink,
                          const std::string& indent);

// The elements of an array at `indent` (the array's key's own indent is `indent` + 1 space).
template <class Each>
Result<void> write_array(std::size_t n, const WriteSink& sink, const std::string& indent, Each each) {
  if (n == 0) return sink("[]");
  OPENLOOP_TRY_VOID(sink("["));
  for (std::size_t k = 0; k < n; ++k) {
    OPENLOOP_TRY_VOID(sink(k == 0 ? "\n" : ",\n"));
    OPENLOOP_TRY_VOID(sink(indent + "  "));
    OPENLOOP_TRY_VOID(each(k, indent + "  "));
  }
  OPENLOOP_TRY_VOID(sink("\n"));
  return sink(indent + " ]");
}

Result<void> write_object(const RunResults& r, const nlohmann::json& extra, const WriteSink& sink,
                          const std::string& indent) {
  nlohmann::json j = head_json(r);
  for (const auto& [key, value] : extra.items()) j[key] = value;
  // Placeholders for the two arrays that grow with the run, then the document's text cut at them.
  j["intervals"] = "\x01openloop:intervals\x01";
  if (!r.scenarios.empty()) j["scenarios"] = "\x01openloop:scenarios\x01";
  const std::string text = dumped(j);
  std::string_view rest = text;
  for (const char* key : {"intervals", "scenarios"}) {
    const std::string mark = placeholder(key);
    const std::size_t at = rest.find(mark);
    if (at == std::string_view::npos) continue;
    const std::size_t value_at = at + mark.find(": ") + 2;
    OPENLOOP_TRY_VOID(write_indented(sink, rest.substr(0, value_at), indent));
    rest.remove_prefix(at + mark.size());
    if (std::string_view(key) == "intervals") {
      OPENLOOP_TRY_VOID(
          write_array(r.intervals.size(), sink, indent, [&](std::size_t k, const std::string& in) {
            return write_indented(sink, dumped(interval_json(r, r.intervals[k])), in);
          }));
    } else {
      OPENLOOP_TRY_VOID(
          write_array(r.scenarios.size(), sink, indent, [&](std::size_t k, const std::string& in) {
            const ScenarioResults& part = r.scenarios[k];
            return write_object(part.results, {{"name", part.name}, {"offset_s", part.offset_s}}, sink, in);
          }));
    }
  }
  return write_indented(sink, rest, indent);
}

}  // namespace

nlohmann::json to_json(const RunResults& r) {
  nlohmann::json j = head_json(r);
  nlohmann::json intervals = nlohmann::json::array();
  for (const auto& i : r.intervals) intervals.push_back(interval_json(r, i));
  j["intervals"] = std::move(intervals);
  if (!r.scenarios.empty()) {
    j["scenarios"] = nlohmann::json::array();
    for (const ScenarioResults& part : r.scenarios) {
      nlohmann::json one = to_json(part.results);
      one["name"] = part.name;
      one["offset_s"] = part.offset_s;
      j["scenarios"].push_back(std::move(one));
    }
  }
  return j;
}

Result<void> write_json(const RunResults& r, const WriteSink& sink, const nlohmann::json& extra) {
  OPENLOOP_TRY_VOID(write_object(r, extra, sink, ""));
  return sink("\n");
}

}  // namespace openloop::results
