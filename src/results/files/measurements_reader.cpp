// Reading a results file's measurements back: counts (which must balance), flows, interval histograms, the
// per-request breakdown and the connection phases, each value checked by JsonReader's rules.
#include "results/files/measurements_reader.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "core/grpc_status.h"
#include "hdr/codec.h"

namespace openloop::results {

using nlohmann::json;

namespace {
constexpr const char* k_status_names[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};

Result<void> read_error_kinds(const JsonReader& rd, const JsonNode& n, Counters& c) {
  const std::uint64_t total = OPENLOOP_TRY(rd.count(n, "errors"));
  if (!rd.has(n, "errors_by_kind")) {
    if (total != 0) return rd.fail(n.path + "/errors_by_kind", "missing while errors is not 0");
    return {};
  }
  const JsonNode kinds = OPENLOOP_TRY(rd.field(n, "errors_by_kind", JsonKind::object));
  for (const auto& [key, value] : kinds.value->items()) {
    std::size_t k = 0;
    while (k < k_error_kinds && to_string(static_cast<ErrorKind>(k)) != key) ++k;
    if (k == k_error_kinds) {
      return rd.fail(kinds.path + "/" + key,
                     "unknown error kind (expected connect, reset, read, write, parse, tls, dns)");
    }
    c.errors[k] = OPENLOOP_TRY(rd.count(kinds, key));
  }
  if (c.errors_total() != total) {
    return rd.fail(n.path + "/errors",
                   fmt::format("{} is not the sum of errors_by_kind ({})", total, c.errors_total()));
  }
  return {};
}

// grpc_statuses: {"OK": n, "NOT_FOUND": m, ...}, absent in files of HTTP requests (and those written before).
Result<void> read_grpc_statuses(const JsonReader& rd, const JsonNode& n, Counters& c) {
  if (!rd.has(n, "grpc_statuses")) return {};
  const JsonNode statuses = OPENLOOP_TRY(rd.field(n, "grpc_statuses", JsonKind::object));
  for (const auto& [key, value] : statuses.value->items()) {
    const auto code = grpc_status_code(key);
    if (!code) return rd.fail(statuses.path + "/" + key, "not a gRPC status name (OK, CANCELLED, ...)");
    c.grpc_status[static_cast<std::size_t>(*code)] = OPENLOOP_TRY(rd.count(statuses, key));
  }
  return {};
}
}  // namespace

Result<Counters> read_counters(const JsonReader& rd, const JsonNode& n) {
  Counters c;
  c.intended = OPENLOOP_TRY(rd.count(n, "intended"));
  c.sent = OPENLOOP_TRY(rd.count(n, "sent"));
  c.completed = OPENLOOP_TRY(rd.count(n, "completed"));
  c.ok = OPENLOOP_TRY(rd.count(n, "ok"));
  c.timeouts = OPENLOOP_TRY(rd.count(n, "timeouts"));
  c.dropped = OPENLOOP_TRY(rd.count(n, "dropped"));
  c.unfinished = OPENLOOP_TRY(rd.count(n, "unfinished"));
  OPENLOOP_TRY_VOID(read_error_kinds(rd, n, c));
  if (rd.has(n, "status_classes")) {
    const JsonNode classes = OPENLOOP_TRY(rd.field(n, "status_classes", JsonKind::object));
    for (std::size_t i = 0; i < c.status_class.size(); ++i) {
      c.status_class[i] = OPENLOOP_TRY(rd.count_or(classes, k_status_names[i], 0));
    }
  }
  c.bytes_in = OPENLOOP_TRY(rd.count_or(n, "bytes_in", 0));
  c.bytes_out = OPENLOOP_TRY(rd.count_or(n, "bytes_out", 0));
  c.connections_opened = OPENLOOP_TRY(rd.count_or(n, "connections_opened", 0));
  c.attempts = OPENLOOP_TRY(rd.count_or(n, "attempts", 0));
  c.retries = OPENLOOP_TRY(rd.count_or(n, "retries", 0));
  c.retry_budget_denied = OPENLOOP_TRY(rd.count_or(n, "retry_budget_denied", 0));
  c.resent = OPENLOOP_TRY(rd.count_or(n, "resent", 0));
  c.slot_waits = OPENLOOP_TRY(rd.count_or(n, "slot_waits", 0));
  OPENLOOP_TRY_VOID(read_grpc_statuses(rd, n, c));
  c.grpc_messages_in = OPENLOOP_TRY(rd.count_or(n, "grpc_messages_in", 0));
  c.grpc_message_bytes_in = OPENLOOP_TRY(rd.count_or(n, "grpc_message_bytes_in", 0));
  if (c.attempts > 0 && (c.attempts < c.sent || c.retries > c.attempts)) {
    return rd.fail(n.path,
                   "expected retries ≤ attempts and sent ≤ attempts (every request sent made an attempt)");
  }
  if (!c.conserved()) {
    return rd.fail(
        n.path,
        fmt::format("intended {} is not completed + timeouts + errors + dropped + unfinished ({}): "
                    "the counts do not balance",
                    c.intended, c.completed + c.timeouts + c.errors_total() + c.dropped + c.unfinished));
  }
  if (c.sent > c.intended || c.completed > c.sent || c.ok > c.completed) {
    return rd.fail(n.path, "expected ok ≤ completed ≤ sent ≤ intended");
  }
  return c;
}

// Users and sessions (closed, pacing and sessions models); every field optional.
Result<FlowCounters> read_flows(const JsonReader& rd, const JsonNode& n) {
  FlowCounters f;
  f.iterations = OPENLOOP_TRY(rd.count_or(n, "iterations", 0));
  f.sessions_intended = OPENLOOP_TRY(rd.count_or(n, "sessions_intended", 0));
  f.sessions_completed = OPENLOOP_TRY(rd.count_or(n, "sessions_completed", 0));
  f.sessions_failed = OPENLOOP_TRY(rd.count_or(n, "sessions_failed", 0));
  f.sessions_dropped = OPENLOOP_TRY(rd.count_or(n, "sessions_dropped", 0));
  f.sessions_unfinished = OPENLOOP_TRY(rd.count_or(n, "sessions_unfinished", 0));
  f.captures_failed = OPENLOOP_TRY(rd.count_or(n, "captures_failed", 0));
  f.checks_failed = OPENLOOP_TRY(rd.count_or(n, "checks_failed", 0));
  f.stopped = OPENLOOP_TRY(rd.count_or(n, "stopped", 0));
  if (const auto steps = OPENLOOP_TRY(rd.optional_field(n, "steps", JsonKind::array))) {
    for (std::size_t i = 0; i < steps->value->size(); ++i) {
      const JsonNode s = OPENLOOP_TRY(rd.element(*steps, i, JsonKind::object));
      const std::uint64_t step = OPENLOOP_TRY(rd.count(s, "step"));
      if (step == 0) return rd.fail(s.path + "/step", "steps are numbered from 1");
      StepFlowCounts& into = f.steps[std::min<std::size_t>(step, f.steps.size()) - 1];
      into.captures_failed += OPENLOOP_TRY(rd.count_or(s, "captures_failed", 0));
      into.checks_failed += OPENLOOP_TRY(rd.count_or(s, "checks_failed", 0));
      into.stopped += OPENLOOP_TRY(rd.count_or(s, "stopped", 0));
    }
  }
  return f;
}

Result<Counters> counts_at(const JsonReader& rd, const JsonNode& obj) {
  const JsonNode n = OPENLOOP_TRY(rd.field(obj, "counts", JsonKind::object));
  return read_counters(rd, n);
}

namespace {
Result<hdr::Histogram> read_histogram(const JsonReader& rd, const JsonNode& hists, std::string_view key,
                                      EncodedHistogram& out, hdr::Histogram& total) {
  std::string text = OPENLOOP_TRY(rd.string(hists, key));
  const std::string path = fmt::format("{}/{}", hists.path, key);
  auto h = hdr::from_compressed_base64(text);
  out = std::move(text);
  if (!h) return rd.fail(path, "not an HdrHistogram (compressed V2, base64): " + h.error().message);
  if (!total.add(*h))
    return rd.fail(path, "holds values beyond the 1 h range of openloop's latency histograms");
  return std::move(*h);
}

Result<void> read_interval(const JsonReader& rd, const JsonNode& n, RunResults& r) {
  IntervalResult i;
  i.start_s = OPENLOOP_TRY(rd.number(n, "start_s"));
  i.length_s = OPENLOOP_TRY(rd.number(n, "length_s"));
  if (!(i.length_s >= 0)) return rd.fail(n.path + "/length_s", "must be 0 or more");
  i.counters = OPENLOOP_TRY(counts_at(rd, n));
  if (rd.has(n, "coalesce_us")) {  // --coalesce auto's window for this interval
    i.coalesce_us = OPENLOOP_TRY(rd.number(n, "coalesce_us"));
    if (!(i.coalesce_us >= 0)) return rd.fail(n.path + "/coalesce_us", "must be 0 or more");
  }
  if (rd.has(n, "flows")) {
    const JsonNode flows = OPENLOOP_TRY(rd.field(n, "flows", JsonKind::object));
    i.flows = OPENLOOP_TRY(read_flows(rd, flows));
  }
  const JsonNode hists = OPENLOOP_TRY(rd.field(n, "histograms", JsonKind::object));
  const std::string unit = OPENLOOP_TRY(rd.string(hists, "unit"));
  if (unit != "ns")
    return rd.fail(hists.path + "/unit", fmt::format("\"{}\" is not supported (expected \"ns\")", unit));
  i.response_time = LatencySummary::of(
      OPENLOOP_TRY(read_histogram(rd, hists, "response_time", i.response_time_hist, r.response_time)));
  i.service_time = LatencySummary::of(
      OPENLOOP_TRY(read_histogram(rd, hists, "service_time", i.service_time_hist, r.service_time)));
  i.send_lateness = LatencySummary::of(
      OPENLOOP_TRY(read_histogram(rd, hists, "send_lateness", i.send_lateness_hist, r.send_lateness)));
  if (rd.has(hists, "attempt_time")) {  // absent in files written before attempts were recorded
    i.attempt_time = LatencySummary::of(
        OPENLOOP_TRY(read_histogram(rd, hists, "attempt_time", i.attempt_time_hist, r.attempt_time)));
  }
  if (rd.has(hists, "session_time")) {  // sessions model, intervals in which a session ended
    i.session_time = LatencySummary::of(
        OPENLOOP_TRY(read_histogram(rd, hists, "session_time", i.session_time_hist, r.session_time)));
  }
  if (rd.has(hists, "slot_wait")) {  // intervals with arrivals that waited in the --on-saturation queue
    i.slot_wait = LatencySummary::of(
        OPENLOOP_TRY(read_histogram(rd, hists, "slot_wait", i.slot_wait_hist, r.slot_wait)));
  }
  // Server-Timing (responses that carried it): the histograms add up to the run's; the counts are the
  // interval's.
  if (rd.has(hists, "server_time") || rd.has(hists, "outside_server")) {
    i.server_time = LatencySummary::of(OPENLOOP_TRY(
        read_histogram(rd, hists, "server_time", i.server_time_hist, r.server_timing.server_time)));
    i.outside_server = LatencySummary::of(OPENLOOP_TRY(
        read_histogram(rd, hists, "outside_server", i.outside_server_hist, r.server_timing.outside_server)));
  }
  if (rd.has(n, "server_timing")) {
    const JsonNode st = OPENLOOP_TRY(rd.field(n, "server_timing", JsonKind::object));
    i.server_timing_negative = OPENLOOP_TRY(rd.count_or(st, "negative_outside", 0));
    i.server_timing_malformed = OPENLOOP_TRY(rd.count_or(st, "malformed", 0));
    i.server_timing_no_duration = OPENLOOP_TRY(rd.count_or(st, "no_duration", 0));
  }
  r.intervals.push_back(std::move(i));
  return {};
}
}  // namespace

// The outcome counts a total and the sum of its parts must agree on.
bool same_outcomes(const Counters& a, const Counters& b) {
  return a.intended == b.intended && a.sent == b.sent && a.completed == b.completed && a.ok == b.ok &&
         a.timeouts == b.timeouts && a.errors_total() == b.errors_total() && a.dropped == b.dropped &&
         a.unfinished == b.unfinished;
}

Result<void> read_intervals(const JsonReader& rd, const JsonNode& root, RunResults& r) {
  const JsonNode intervals = OPENLOOP_TRY(rd.field(root, "intervals", JsonKind::array));
  Counters sum;
  for (std::size_t k = 0; k < intervals.value->size(); ++k) {
    const JsonNode n = OPENLOOP_TRY(rd.element(intervals, k, JsonKind::object));
    OPENLOOP_TRY_VOID(read_interval(rd, n, r));
    if (k > 0 && r.intervals[k].start_s <= r.intervals[k - 1].start_s) {
      return rd.fail(n.path + "/start_s", "intervals must be in increasing order of start_s");
    }
    sum.add(r.intervals.back().counters);
  }
  const Counters& t = r.totals;
  if (!same_outcomes(sum, t)) {
    return rd.fail(root.path + "/summary/counts",
                   fmt::format("the intervals add up to {} intended, {} sent, {} completed, but the "
                               "summary says {}, {}, {}: the file is inconsistent",
                               sum.intended, sum.sent, sum.completed, t.intended, t.sent, t.completed));
  }
  return {};
}

namespace {
// The plan's request names in its order ("plan.requests[].name"); empty when the plan does not list them.
std::vector<std::string> plan_request_names(const json& plan) {
  std::vector<std::string> names;
  if (!plan.is_object() || !plan.contains("requests") || !plan["requests"].is_array()) return names;
  for (const json& request : plan["requests"]) {
    if (request.is_object() && request.contains("name") && request["name"].is_string())
      names.push_back(request["name"].get<std::string>());
  }
  return names;
}

// One request's totals: counts and, since they were written, its two histograms. False when the file predates
// them (then the breakdown cannot be rendered or merged exactly, and is left out).
Result<bool> read_request_totals(const JsonReader& rd, const JsonNode& n, RequestTotals& t) {
  t.counters = OPENLOOP_TRY(counts_at(rd, n));
  if (!rd.has(n, "histograms")) return false;
  const JsonNode hists = OPENLOOP_TRY(rd.field(n, "histograms", JsonKind::object));
  EncodedHistogram text;  // not kept: the writer encodes the totals again
  OPENLOOP_TRY_VOID(read_histogram(rd, hists, "response_time", text, t.response_time));
  OPENLOOP_TRY_VOID(read_histogram(rd, hists, "service_time", text, t.service_time));
  return true;
}
}  // namespace

// "summary.by_request" and "intervals[].by_request": totals in the plan's request order, each interval's
// counts, which must add up to the totals. Requests absent from an interval count zero there.
Result<void> read_by_request(const JsonReader& rd, const JsonNode& root, RunResults& r) {
  const JsonNode summary = OPENLOOP_TRY(rd.field(root, "summary", JsonKind::object));
  if (!rd.has(summary, "by_request")) {
    r.info.request_names = plan_request_names(r.info.plan);
    return {};
  }
  const JsonNode by = OPENLOOP_TRY(rd.field(summary, "by_request", JsonKind::object));
  std::vector<std::string> names;
  for (const std::string& name : plan_request_names(r.info.plan)) {
    if (by.value->contains(name) && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  }
  for (const auto& [name, value] : by.value->items()) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::vector<RequestTotals> totals(names.size());
  for (std::size_t k = 0; k < names.size(); ++k) {
    totals[k].name = names[k];
    const JsonNode n = OPENLOOP_TRY(rd.field(by, names[k], JsonKind::object));
    if (!OPENLOOP_TRY(read_request_totals(rd, n, totals[k]))) {
      r.info.request_names = plan_request_names(r.info.plan);
      return {};  // written before per-request histograms were kept
    }
  }
  const JsonNode intervals = OPENLOOP_TRY(rd.field(root, "intervals", JsonKind::array));
  std::vector<Counters> sums(names.size());
  for (std::size_t k = 0; k < r.intervals.size(); ++k) {
    const JsonNode n = rd.element(intervals, k);
    // Read from a file, the intervals are all in memory: replacing one cannot fail.
    IntervalResult i = r.intervals[k];
    i.by_request.assign(names.size(), Counters{});
    if (!rd.has(n, "by_request")) {
      (void)r.intervals.set(k, std::move(i));
      continue;
    }
    const JsonNode in = OPENLOOP_TRY(rd.field(n, "by_request", JsonKind::object));
    for (const auto& [name, value] : in.value->items()) {
      const auto at = std::find(names.begin(), names.end(), name);
      if (at == names.end())
        return rd.fail(in.path + "/" + name,
                       fmt::format("a request that {}/summary/by_request does not list", root.path));
      const auto index = static_cast<std::size_t>(at - names.begin());
      const JsonNode counts = OPENLOOP_TRY(rd.field(in, name, JsonKind::object));
      i.by_request[index] = OPENLOOP_TRY(read_counters(rd, counts));
      sums[index].add(i.by_request[index]);
    }
    (void)r.intervals.set(k, std::move(i));
  }
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (!same_outcomes(sums[k], totals[k].counters)) {
      return rd.fail(
          fmt::format("{}/summary/by_request/{}/counts", root.path, names[k]),
          fmt::format("the intervals add up to {} intended, {} completed, but the summary says {}, {}: the "
                      "file is inconsistent",
                      sums[k].intended, sums[k].completed, totals[k].counters.intended,
                      totals[k].counters.completed));
    }
  }
  r.info.request_names = std::move(names);
  r.by_request = std::move(totals);
  return {};
}

// "summary.phases" (absent in files written before phases were timed): the histograms are the data, the
// summaries are derived from them again.
Result<void> read_phases(const JsonReader& rd, const JsonNode& summary, RunResults& r) {
  if (!rd.has(summary, "phases")) return {};
  const JsonNode phases = OPENLOOP_TRY(rd.field(summary, "phases", JsonKind::object));
  if (rd.has(phases, "dns_ms")) {
    const double dns_ms = OPENLOOP_TRY(rd.number(phases, "dns_ms"));
    if (!(dns_ms >= 0)) return rd.fail(phases.path + "/dns_ms", "must be 0 or more");
    r.dns_ns = static_cast<std::int64_t>(dns_ms * 1e6 + 0.5);
  }
  if (!rd.has(phases, "histograms")) return {};
  const JsonNode hists = OPENLOOP_TRY(rd.field(phases, "histograms", JsonKind::object));
  const std::string unit = OPENLOOP_TRY(rd.string(hists, "unit"));
  if (unit != "ns")
    return rd.fail(hists.path + "/unit", fmt::format("\"{}\" is not supported (expected \"ns\")", unit));
  for (const bool fresh : {true, false}) {
    const char* key = fresh ? "new_connection" : "reused_connection";
    if (!rd.has(hists, key)) continue;
    const JsonNode side = OPENLOOP_TRY(rd.field(hists, key, JsonKind::object));
    for (const auto& [name, value] : side.value->items()) {
      std::size_t i = 0;
      while (i < k_phases && to_string(static_cast<Phase>(i)) != name) ++i;
      if (i == k_phases)
        return rd.fail(side.path + "/" + name, "not a phase (expected connect, tls, ttfb or body)");
      EncodedHistogram text;
      OPENLOOP_TRY_VOID(read_histogram(rd, side, name, text, r.phases.at(fresh, static_cast<Phase>(i))));
    }
  }
  return {};
}

}  // namespace openloop::results
