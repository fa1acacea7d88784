// JSON → RunResults: every value is type-checked and every error names the file and the JSON path.
#include "results/results_reader.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/redact.h"
#include "hdr/codec.h"
#include "results/observed_json.h"
#include "results/results_json.h"
#include "results/slo.h"

namespace openloop::results {
namespace {

using nlohmann::json;

/// A value in the document and its JSON pointer ("/intervals/3/counts"), for error messages.
struct Node {
  const json* value;
  std::string path;
};

enum class Kind { object, array, string, boolean, number, count };

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::object:
      return "an object";
    case Kind::array:
      return "an array";
    case Kind::string:
      return "a string";
    case Kind::boolean:
      return "true or false";
    case Kind::number:
      return "a number";
    case Kind::count:
      return "a non-negative integer";
  }
  return "a value";
}

bool is_kind(const json& j, Kind k) {
  switch (k) {
    case Kind::object:
      return j.is_object();
    case Kind::array:
      return j.is_array();
    case Kind::string:
      return j.is_string();
    case Kind::boolean:
      return j.is_boolean();
    case Kind::number:
      return j.is_number();
    case Kind::count:
      return j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0);
  }
  return false;
}

/// Typed, path-tracking access to the document; every failure becomes a usage error naming source and path.
class Reader {
 public:
  explicit Reader(std::string_view source) : m_source(source) {}

  tl::unexpected<Error> fail(const std::string& path, std::string_view what) const {
    return usage_error(fmt::format("{}: {}: {}", m_source, path.empty() ? "/" : path, what));
  }
  bool has(const Node& obj, std::string_view key) const { return obj.value->contains(key); }
  Result<Node> field(const Node& obj, std::string_view key, Kind kind) const {
    const std::string path = fmt::format("{}/{}", obj.path, key);
    const auto it = obj.value->find(key);
    if (it == obj.value->end()) return fail(path, fmt::format("missing (expected {})", kind_name(kind)));
    if (!is_kind(*it, kind))
      return fail(path, fmt::format("expected {}, found {}", kind_name(kind), it->type_name()));
    return Node{&*it, path};
  }
  Node element(const Node& array, std::size_t i) const {
    return Node{&(*array.value)[i], fmt::format("{}/{}", array.path, i)};
  }
  /// Element i of an array of objects; an error naming it when it is not an object.
  Result<Node> object_element(const Node& array, std::size_t i) const {
    Node n = element(array, i);
    if (!n.value->is_object())
      return fail(n.path, fmt::format("expected an object, found {}", n.value->type_name()));
    return n;
  }
  Result<std::uint64_t> count(const Node& obj, std::string_view key) const {
    return OPENLOOP_TRY(field(obj, key, Kind::count)).value->get<std::uint64_t>();
  }
  Result<double> number(const Node& obj, std::string_view key) const {
    return OPENLOOP_TRY(field(obj, key, Kind::number)).value->get<double>();
  }
  Result<std::string> string(const Node& obj, std::string_view key) const {
    return OPENLOOP_TRY(field(obj, key, Kind::string)).value->get<std::string>();
  }
  Result<bool> boolean(const Node& obj, std::string_view key) const {
    return OPENLOOP_TRY(field(obj, key, Kind::boolean)).value->get<bool>();
  }
  /// An optional count: 0 when absent.
  std::string_view source() const { return m_source; }
  Result<std::uint64_t> count_or_zero(const Node& obj, std::string_view key) const {
    return has(obj, key) ? count(obj, key) : Result<std::uint64_t>(0);
  }

 private:
  std::string_view m_source;
};

constexpr const char* k_status_names[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};

Result<void> read_error_kinds(const Reader& rd, const Node& n, Counters& c) {
  const std::uint64_t total = OPENLOOP_TRY(rd.count(n, "errors"));
  if (!rd.has(n, "errors_by_kind")) {
    if (total != 0) return rd.fail(n.path + "/errors_by_kind", "missing while errors is not 0");
    return {};
  }
  const Node kinds = OPENLOOP_TRY(rd.field(n, "errors_by_kind", Kind::object));
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

Result<Counters> read_counters(const Reader& rd, const Node& n) {
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
    const Node classes = OPENLOOP_TRY(rd.field(n, "status_classes", Kind::object));
    for (std::size_t i = 0; i < c.status_class.size(); ++i) {
      c.status_class[i] = OPENLOOP_TRY(rd.count_or_zero(classes, k_status_names[i]));
    }
  }
  c.bytes_in = OPENLOOP_TRY(rd.count_or_zero(n, "bytes_in"));
  c.bytes_out = OPENLOOP_TRY(rd.count_or_zero(n, "bytes_out"));
  c.connections_opened = OPENLOOP_TRY(rd.count_or_zero(n, "connections_opened"));
  c.attempts = OPENLOOP_TRY(rd.count_or_zero(n, "attempts"));
  c.retries = OPENLOOP_TRY(rd.count_or_zero(n, "retries"));
  c.retry_budget_denied = OPENLOOP_TRY(rd.count_or_zero(n, "retry_budget_denied"));
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
Result<FlowCounters> read_flows(const Reader& rd, const Node& n) {
  FlowCounters f;
  f.iterations = OPENLOOP_TRY(rd.count_or_zero(n, "iterations"));
  f.sessions_intended = OPENLOOP_TRY(rd.count_or_zero(n, "sessions_intended"));
  f.sessions_completed = OPENLOOP_TRY(rd.count_or_zero(n, "sessions_completed"));
  f.sessions_failed = OPENLOOP_TRY(rd.count_or_zero(n, "sessions_failed"));
  f.sessions_dropped = OPENLOOP_TRY(rd.count_or_zero(n, "sessions_dropped"));
  f.sessions_unfinished = OPENLOOP_TRY(rd.count_or_zero(n, "sessions_unfinished"));
  return f;
}

Result<Counters> counts_at(const Reader& rd, const Node& obj) {
  const Node n = OPENLOOP_TRY(rd.field(obj, "counts", Kind::object));
  return read_counters(rd, n);
}

Result<hdr::Histogram> read_histogram(const Reader& rd, const Node& hists, std::string_view key,
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

Result<void> read_interval(const Reader& rd, const Node& n, RunResults& r) {
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
    const Node flows = OPENLOOP_TRY(rd.field(n, "flows", Kind::object));
    i.flows = OPENLOOP_TRY(read_flows(rd, flows));
  }
  const Node hists = OPENLOOP_TRY(rd.field(n, "histograms", Kind::object));
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
  // Server-Timing (responses that carried it): the histograms add up to the run's; the counts are the
  // interval's.
  if (rd.has(hists, "server_time") || rd.has(hists, "outside_server")) {
    i.server_time = LatencySummary::of(OPENLOOP_TRY(
        read_histogram(rd, hists, "server_time", i.server_time_hist, r.server_timing.server_time)));
    i.outside_server = LatencySummary::of(OPENLOOP_TRY(
        read_histogram(rd, hists, "outside_server", i.outside_server_hist, r.server_timing.outside_server)));
  }
  if (rd.has(n, "server_timing")) {
    const Node st = OPENLOOP_TRY(rd.field(n, "server_timing", Kind::object));
    i.server_timing_negative = OPENLOOP_TRY(rd.count_or_zero(st, "negative_outside"));
    i.server_timing_malformed = OPENLOOP_TRY(rd.count_or_zero(st, "malformed"));
    i.server_timing_no_duration = OPENLOOP_TRY(rd.count_or_zero(st, "no_duration"));
  }
  r.intervals.push_back(std::move(i));
  return {};
}

// The outcome counts a total and the sum of its parts must agree on.
bool same_outcomes(const Counters& a, const Counters& b) {
  return a.intended == b.intended && a.sent == b.sent && a.completed == b.completed && a.ok == b.ok &&
         a.timeouts == b.timeouts && a.errors_total() == b.errors_total() && a.dropped == b.dropped &&
         a.unfinished == b.unfinished;
}

Result<void> read_intervals(const Reader& rd, const Node& root, RunResults& r) {
  const Node intervals = OPENLOOP_TRY(rd.field(root, "intervals", Kind::array));
  Counters sum;
  for (std::size_t k = 0; k < intervals.value->size(); ++k) {
    const Node n = OPENLOOP_TRY(rd.object_element(intervals, k));
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
Result<bool> read_request_totals(const Reader& rd, const Node& n, RequestTotals& t) {
  t.counters = OPENLOOP_TRY(counts_at(rd, n));
  if (!rd.has(n, "histograms")) return false;
  const Node hists = OPENLOOP_TRY(rd.field(n, "histograms", Kind::object));
  EncodedHistogram text;  // not kept: the writer encodes the totals again
  OPENLOOP_TRY_VOID(read_histogram(rd, hists, "response_time", text, t.response_time));
  OPENLOOP_TRY_VOID(read_histogram(rd, hists, "service_time", text, t.service_time));
  return true;
}

// "summary.by_request" and "intervals[].by_request": totals in the plan's request order, each interval's
// counts, which must add up to the totals. Requests absent from an interval count zero there.
Result<void> read_by_request(const Reader& rd, const Node& root, RunResults& r) {
  const Node summary = OPENLOOP_TRY(rd.field(root, "summary", Kind::object));
  if (!rd.has(summary, "by_request")) {
    r.info.request_names = plan_request_names(r.info.plan);
    return {};
  }
  const Node by = OPENLOOP_TRY(rd.field(summary, "by_request", Kind::object));
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
    const Node n = OPENLOOP_TRY(rd.field(by, names[k], Kind::object));
    if (!OPENLOOP_TRY(read_request_totals(rd, n, totals[k]))) {
      r.info.request_names = plan_request_names(r.info.plan);
      return {};  // written before per-request histograms were kept
    }
  }
  const Node intervals = OPENLOOP_TRY(rd.field(root, "intervals", Kind::array));
  std::vector<Counters> sums(names.size());
  for (std::size_t k = 0; k < r.intervals.size(); ++k) {
    const Node n = rd.element(intervals, k);
    // Read from a file, the intervals are all in memory: replacing one cannot fail.
    IntervalResult i = r.intervals[k];
    i.by_request.assign(names.size(), Counters{});
    if (!rd.has(n, "by_request")) {
      (void)r.intervals.set(k, std::move(i));
      continue;
    }
    const Node in = OPENLOOP_TRY(rd.field(n, "by_request", Kind::object));
    for (const auto& [name, value] : in.value->items()) {
      const auto at = std::find(names.begin(), names.end(), name);
      if (at == names.end())
        return rd.fail(in.path + "/" + name,
                       fmt::format("a request that {}/summary/by_request does not list", root.path));
      const auto index = static_cast<std::size_t>(at - names.begin());
      const Node counts{&value, in.path + "/" + name};
      if (!value.is_object())
        return rd.fail(counts.path, fmt::format("expected an object, found {}", value.type_name()));
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
Result<void> read_phases(const Reader& rd, const Node& summary, RunResults& r) {
  if (!rd.has(summary, "phases")) return {};
  const Node phases = OPENLOOP_TRY(rd.field(summary, "phases", Kind::object));
  if (rd.has(phases, "dns_ms")) {
    const double dns_ms = OPENLOOP_TRY(rd.number(phases, "dns_ms"));
    if (!(dns_ms >= 0)) return rd.fail(phases.path + "/dns_ms", "must be 0 or more");
    r.dns_ns = static_cast<std::int64_t>(dns_ms * 1e6 + 0.5);
  }
  if (!rd.has(phases, "histograms")) return {};
  const Node hists = OPENLOOP_TRY(rd.field(phases, "histograms", Kind::object));
  const std::string unit = OPENLOOP_TRY(rd.string(hists, "unit"));
  if (unit != "ns")
    return rd.fail(hists.path + "/unit", fmt::format("\"{}\" is not supported (expected \"ns\")", unit));
  for (const bool fresh : {true, false}) {
    const char* key = fresh ? "new_connection" : "reused_connection";
    if (!rd.has(hists, key)) continue;
    const Node side = OPENLOOP_TRY(rd.field(hists, key, Kind::object));
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

Result<void> read_head(const Reader& rd, const Node& root, RunResults& r) {
  const std::string schema = OPENLOOP_TRY(rd.string(root, "schema"));
  if (schema != k_results_schema) {
    return rd.fail(root.path + "/schema",
                   fmt::format("\"{}\" is not supported (expected \"{}\")", schema, k_results_schema));
  }
  const Node verdict = OPENLOOP_TRY(rd.field(root, "verdict", Kind::object));
  r.verdict.valid = OPENLOOP_TRY(rd.boolean(verdict, "valid"));
  r.interrupted = rd.has(verdict, "interrupted") && OPENLOOP_TRY(rd.boolean(verdict, "interrupted"));
  if (rd.has(verdict, "aborted_by_slo"))
    r.aborted_by_slo = OPENLOOP_TRY(rd.string(verdict, "aborted_by_slo"));
  const Node reasons = OPENLOOP_TRY(rd.field(verdict, "reasons", Kind::array));
  for (std::size_t k = 0; k < reasons.value->size(); ++k) {
    const Node n = rd.element(reasons, k);
    if (!n.value->is_string()) return rd.fail(n.path, "expected a string");
    r.verdict.reasons.push_back(n.value->get<std::string>());
  }
  const std::string model = OPENLOOP_TRY(rd.string(root, "model"));
  const auto parsed_model = parse_model(model);
  if (!parsed_model) {
    return rd.fail(root.path + "/model", fmt::format("\"{}\" is not a model (expected open, closed, pacing, "
                                                     "sessions, mixed or unknown)", model));
  }
  r.info.model = *parsed_model;
  const Node summary = OPENLOOP_TRY(rd.field(root, "summary", Kind::object));
  r.totals = OPENLOOP_TRY(counts_at(rd, summary));
  r.measured_s = OPENLOOP_TRY(rd.number(summary, "duration_s"));
  r.info.offered_rps = rd.has(summary, "planned_rps") ? OPENLOOP_TRY(rd.number(summary, "planned_rps")) : 0.0;
  if (rd.has(summary, "flows")) {
    const Node flows = OPENLOOP_TRY(rd.field(summary, "flows", Kind::object));
    r.flows = OPENLOOP_TRY(read_flows(rd, flows));
    if (rd.has(flows, "configured_iterations_per_s")) {
      r.info.configured_iterations_per_s = OPENLOOP_TRY(rd.number(flows, "configured_iterations_per_s"));
    }
  }
  OPENLOOP_TRY_VOID(read_phases(rd, summary, r));
  if (rd.has(summary, "server_timing")) {  // the histograms are the intervals' sum (read_interval)
    const Node st = OPENLOOP_TRY(rd.field(summary, "server_timing", Kind::object));
    r.server_timing.negative = OPENLOOP_TRY(rd.count_or_zero(st, "negative_outside"));
    r.server_timing.malformed = OPENLOOP_TRY(rd.count_or_zero(st, "malformed"));
    r.server_timing.no_duration = OPENLOOP_TRY(rd.count_or_zero(st, "no_duration"));
  }
  if (rd.has(summary, "request_log")) {
    const Node log = OPENLOOP_TRY(rd.field(summary, "request_log", Kind::object));
    r.logged = true;
    r.log_written = OPENLOOP_TRY(rd.count(log, "written"));
    r.log_dropped = OPENLOOP_TRY(rd.count(log, "dropped"));
  }
  if (rd.has(summary, "error_examples")) {
    const Node examples = OPENLOOP_TRY(rd.field(summary, "error_examples", Kind::object));
    for (const auto& [kind, message] : examples.value->items()) {
      if (!message.is_string()) return rd.fail(examples.path + "/" + kind, "expected a string");
      r.error_examples.emplace_back(kind, message.get<std::string>());
    }
  }
  return {};
}

Result<void> read_warnings(const Reader& rd, const Node& root, RunResults& r) {
  if (!rd.has(root, "warnings")) return {};
  const Node warnings = OPENLOOP_TRY(rd.field(root, "warnings", Kind::array));
  for (std::size_t k = 0; k < warnings.value->size(); ++k) {
    const Node n = rd.element(warnings, k);
    if (!n.value->is_string()) return rd.fail(n.path, "expected a string");
    r.warnings.push_back(n.value->get<std::string>());
  }
  return {};
}

Result<void> read_generator(const Reader& rd, const Node& root, RunResults& r) {
  if (rd.has(root, "warmup")) {
    const Node w = OPENLOOP_TRY(rd.field(root, "warmup", Kind::object));
    r.info.warmup_s = OPENLOOP_TRY(rd.number(w, "duration_s"));
    r.warmup = OPENLOOP_TRY(counts_at(rd, w));
  }
  if (!rd.has(root, "generator")) return {};
  const Node g = OPENLOOP_TRY(rd.field(root, "generator", Kind::object));
  r.generator.threads = static_cast<unsigned>(OPENLOOP_TRY(rd.count(g, "threads")));
  r.generator.cpu_seconds = OPENLOOP_TRY(rd.number(g, "cpu_s"));
  // Absent in files written before workers spun through short waits.
  r.generator.spin_seconds = rd.has(g, "spin_s") ? OPENLOOP_TRY(rd.number(g, "spin_s")) : 0.0;
  r.generator.spin_below_us = rd.has(g, "spin_below_us") ? OPENLOOP_TRY(rd.number(g, "spin_below_us")) : 0.0;
  r.generator.wall_seconds = OPENLOOP_TRY(rd.number(g, "wall_s"));
  r.generator.max_connections = OPENLOOP_TRY(rd.count_or_zero(g, "max_connections"));
  r.generator.peak_connections = OPENLOOP_TRY(rd.count_or_zero(g, "peak_connections"));
  r.generator.abandoned = OPENLOOP_TRY(rd.count_or_zero(g, "abandoned"));  // absent before it was counted
  r.generator.max_rss_kb = static_cast<std::int64_t>(OPENLOOP_TRY(rd.count_or_zero(g, "max_rss_kb")));
  // Absent in files written before the coordinator's CPU was measured, and in simulated runs.
  if (rd.has(g, "coordinator_cpu_ms")) {
    const Node c = OPENLOOP_TRY(rd.field(g, "coordinator_cpu_ms", Kind::object));
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
Result<void> read_slos(const Reader& rd, const Node& root, RunResults& r) {
  if (!rd.has(root, "slos")) return {};
  const Node slos = OPENLOOP_TRY(rd.field(root, "slos", Kind::array));
  for (std::size_t k = 0; k < slos.value->size(); ++k) {
    const Node n = OPENLOOP_TRY(rd.object_element(slos, k));
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
Result<void> check_plan(const Reader& rd, const Node& plan, json& kept) {
  for (const char* key : {"think_mean_s", "coalesce_us", "duration_s", "timeout_s", "users"}) {
    if (rd.has(plan, key)) OPENLOOP_TRY_VOID(rd.field(plan, key, Kind::number));
  }
  for (const char* key : {"target", "arrival", "model"}) {
    if (rd.has(plan, key)) OPENLOOP_TRY_VOID(rd.field(plan, key, Kind::string));
  }
  if (rd.has(plan, "stages")) {
    const Node stages = OPENLOOP_TRY(rd.field(plan, "stages", Kind::array));
    for (std::size_t k = 0; k < stages.value->size(); ++k) {
      const Node stage = OPENLOOP_TRY(rd.object_element(stages, k));
      OPENLOOP_TRY_VOID(rd.number(stage, "duration_s"));
      OPENLOOP_TRY_VOID(rd.number(stage, "target_rps"));
    }
  }
  if (rd.has(plan, "retry")) {
    const Node retry = OPENLOOP_TRY(rd.field(plan, "retry", Kind::object));
    if (rd.has(retry, "attempts")) OPENLOOP_TRY_VOID(rd.number(retry, "attempts"));
  }
  if (rd.has(plan, "headers")) {
    const Node headers = OPENLOOP_TRY(rd.field(plan, "headers", Kind::array));
    for (std::size_t k = 0; k < headers.value->size(); ++k) {
      const Node h = rd.element(headers, k);
      if (!h.value->is_string())
        return rd.fail(h.path, fmt::format("expected a string, found {}", h.value->type_name()));
      kept["headers"][k] = redact_header_line(h.value->get<std::string>());
    }
  }
  if (rd.has(plan, "target")) kept["target"] = redact_url(kept["target"].get<std::string>());
  return {};
}

// The plan and environment are kept as written (the plan checked by check_plan); the few typed facts reports
// use are taken from them when present.
Result<void> read_context(const Reader& rd, const Node& root, RunResults& r) {
  const auto text = [](const json& obj, const char* key) {
    return obj.contains(key) && obj[key].is_string() ? obj[key].get<std::string>() : std::string();
  };
  const auto num = [](const json& obj, const char* key) {
    return obj.contains(key) && obj[key].is_number() ? obj[key].get<double>() : 0.0;
  };
  if (rd.has(root, "plan") && (*root.value)["plan"].is_object()) {
    const Node plan = OPENLOOP_TRY(rd.field(root, "plan", Kind::object));
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
    const Node start = OPENLOOP_TRY(rd.field(root, "start", Kind::object));
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
Result<void> read_run(const Reader& rd, const Node& node, RunResults& r) {
  OPENLOOP_TRY_VOID(read_head(rd, node, r));
  OPENLOOP_TRY_VOID(read_generator(rd, node, r));
  OPENLOOP_TRY_VOID(read_warnings(rd, node, r));
  OPENLOOP_TRY_VOID(read_slos(rd, node, r));
  OPENLOOP_TRY_VOID(read_context(rd, node, r));
  OPENLOOP_TRY_VOID(read_intervals(rd, node, r));
  OPENLOOP_TRY_VOID(read_by_request(rd, node, r));
  if (auto observed = read_observed(*node.value, r); !observed)
    return rd.fail(node.path + "/summary/observed", observed.error().message);
  if (rd.has(node, "source")) r.info.source = OPENLOOP_TRY(rd.string(node, "source"));
  if (rd.has(node, "checks"))
    r.checks = OPENLOOP_TRY(
        run_checks_from_json(node.value->at("checks"), fmt::format("{}: {}", rd.source(), node.path)));
  return {};
}

// "scenarios": each scenario's own results (name, offset), which must add up to the combined run above them.
Result<void> read_scenarios(const Reader& rd, const Node& root, RunResults& r) {
  if (!rd.has(root, "scenarios")) return {};
  const Node list = OPENLOOP_TRY(rd.field(root, "scenarios", Kind::array));
  Counters sum;
  for (std::size_t k = 0; k < list.value->size(); ++k) {
    const Node n = OPENLOOP_TRY(rd.object_element(list, k));
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
  const Reader rd(source);
  if (!root.is_object())
    return rd.fail("", fmt::format("expected a results object, found {}", root.type_name()));
  RunResults r;
  const Node top{&root, ""};
  OPENLOOP_TRY_VOID(read_run(rd, top, r));
  OPENLOOP_TRY_VOID(read_scenarios(rd, top, r));
  return r;
}

Result<RunResults> read_results(const std::string& path) {
  const std::string text = OPENLOOP_TRY(read_file(path));
  return parse_results(text, path);
}

}  // namespace openloop::results
